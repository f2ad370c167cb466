"""Faults during an approval preview (revit/preview.py) leave the model as it was.

Each case previews a call on the stand-in duplex while something goes wrong — the tool raises
after it changed the model, Revit rolls the commit back, a script exits the interpreter, reading
the changed elements fails after the commit, an earlier call of the step fails — and checks the
whole document (every element's state, the undo and redo histories: revit_standin.snapshot), the
working set, and that no transaction or group is left open. Then through the agent: a preview
that cannot be made still lets the user decide, and the call runs once, approved.
"""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from paracore.core import events as ev
from paracore.hosts.standin.sandbox import Sandbox, load_tools
from paracore.llm.scripted import ScriptedModel
from paracore.hosts.revit import preview as previews
from paracore.tools.framework.registry import default_registry
from revit_standin import faults
from revit_standin.snapshot import differences, document_state

load_tools()
COMMENT = {"name": "Comments", "value": "Preview fault"}


@pytest.fixture
def sandbox():
    with Sandbox("duplex") as box:
        walls = box.on_main_thread(lambda: [e.Id.Value for e in DB.FilteredElementCollector(box.doc)
                                            .OfClass(DB.Wall)])[:5]
        box.on_main_thread(lambda: box.session.working_set.replace(walls))
        yield box
    faults.clear()


def preview(box, tool, arguments, earlier=()):
    registry = default_registry()
    ids = box.session.working_set.ids
    return box.runtime.preview_call(registry.prepare(tool, arguments, ids),
                                    [registry.prepare(t, a, ids) for t, a in earlier])


def unchanged(box, state: str, working_set: tuple) -> None:
    now = box.on_main_thread(lambda: document_state(box.doc))
    assert now == state, differences(state, now)
    assert box.session.working_set.ids == working_set
    assert box.on_main_thread(lambda: (box.doc._open_transaction, box.doc._journal.open_group_count)) == (None, 0)


def state_of(box) -> tuple[str, tuple]:
    return box.on_main_thread(lambda: document_state(box.doc)), box.session.working_set.ids


def test_a_script_that_changes_the_model_then_raises(sandbox):
    before = state_of(sandbox)
    code = ("t = [e for e in DB.FilteredElementCollector(doc).OfClass(DB.Wall)][0]\n"
            "t.LookupParameter('Comments').Set('half done')\n"
            "raise RuntimeError('broke halfway')")
    result = preview(sandbox, "run_python", {"code": code})
    assert result.error is not None and "broke halfway" in result.error
    unchanged(sandbox, *before)


def test_a_script_that_exits_the_interpreter(sandbox):
    before = state_of(sandbox)
    result = preview(sandbox, "run_python", {"code": "import sys\nsys.exit(3)"})
    assert result.error is not None
    unchanged(sandbox, *before)


def test_a_commit_revit_rolls_back(sandbox):
    before = state_of(sandbox)
    sandbox.on_main_thread(lambda: faults.fail_next_commit(sandbox.doc))
    result = preview(sandbox, "set_parameter", COMMENT)
    assert result.error is not None and "roll the change back" in result.error
    unchanged(sandbox, *before)


def test_reading_the_changed_elements_fails_after_the_commit(sandbox, monkeypatch):
    before = state_of(sandbox)

    def broken(doc, value):
        raise RuntimeError("a parameter that cannot be read")
    monkeypatch.setattr(previews, "_snapshot", broken)
    with pytest.raises(RuntimeError, match="cannot be read"):
        preview(sandbox, "set_parameter", COMMENT)
    unchanged(sandbox, *before)


def test_an_earlier_call_of_the_step_fails(sandbox):
    before = state_of(sandbox)
    sandbox.on_main_thread(lambda: faults.fail_next_commit(sandbox.doc))
    result = preview(sandbox, "set_parameter", COMMENT, earlier=[("set_parameter", {"name": "Mark", "value": "W"})])
    assert result.error is None and result.modified   # measured on the model as the failed call left it
    unchanged(sandbox, *before)


def test_a_delete_preview_leaves_the_working_set_whole(sandbox):
    before = state_of(sandbox)
    result = preview(sandbox, "delete_elements", {})
    assert result.error is None and result.deleted
    unchanged(sandbox, *before)


def test_a_preview_that_cannot_be_made_still_lets_the_user_decide(sandbox, monkeypatch):
    def broken(doc, value):
        raise RuntimeError("a parameter that cannot be read")
    monkeypatch.setattr(previews, "_snapshot", broken)
    model = ScriptedModel([{"tool_calls": [{"id": "c1", "name": "set_parameter", "arguments": COMMENT}]},
                           {"text": "Done."}])
    asked = []
    agent = sandbox.agent(model, approver=lambda request: asked.append(request.description) or "approve")
    events = list(agent.run_turn("Comment the walls."))
    [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    assert not finished.is_error, finished.content
    assert len(asked) == 1 and "\n" not in asked[0]          # asked, without a preview
    comments = sandbox.on_main_thread(lambda: {sandbox.doc.GetElement(DB.ElementId(i)).LookupParameter("Comments")
                                               .AsString() for i in sandbox.session.working_set.ids})
    assert comments == {"Preview fault"}


def test_a_failure_quoting_a_megabyte_argument_is_cut_to_the_result_bound(sandbox):
    from paracore.hosts.revit.executor import MAX_RESULT_CHARS
    result = preview(sandbox, "set_parameter", {"name": "Long name " * 100_000, "value": "x"})
    assert result.error is not None and "cut: " in result.error
    assert len(result.error) <= MAX_RESULT_CHARS - previews.ERROR_FRAME + len("… (cut: 9999999 more characters)")
