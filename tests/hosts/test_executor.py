"""The executor against the stand-in: one undo entry per agent step, per-tool rollback, Revit
failures, and the working-set rules of docs/WORKING_SET.md (explicit update > policy; deletions pruned).

Every batch runs the way the agent runs it: from a worker thread, through the bridge, on the
stand-in's main thread.
"""
from __future__ import annotations

import json
import threading

import pytest
from pydantic import BaseModel, Field

from revit_standin import faults, guard
from revit_standin.host import RevitHost

from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import InvalidOperationException
from paracore.revit.changes import ChangeRecorder
from paracore.hosts.revit.executor import CallOutcome, describe_categories, run_batch
from paracore.hosts.revit.preview import preview_call
from paracore.tools.framework.registry import Registry
from paracore.tools.framework.results import Change, ToolError, ToolOutput, working_set_output
from tool_harness import bridge, session  # noqa: F401 - fixtures, on this file's empty project

# -- test tools (a private registry; tool bodies run on the main thread) -------------------------

tools = Registry()


class NoArgs(BaseModel):
    pass


class LevelArgs(BaseModel):
    elevation: float = Field(description="Elevation in feet.")


class WallArgs(BaseModel):
    x: float = Field(0.0, description="Where the wall starts along X, in feet.")
    length: float = Field(20.0, description="Length in feet.")


class IdsArgs(BaseModel):
    element_ids: list[int] = Field(description="Elements.")


class MarkArgs(BaseModel):
    element_ids: list[int] = Field(description="Elements.")
    mark: str = Field(description="The new Mark.")


class TextArgs(BaseModel):
    text: str = Field(description="What the tool prints.")


def level_1(doc):
    return next(lv for lv in DB.FilteredElementCollector(doc).OfClass(DB.Level) if lv.Name == "Level 1")


def new_wall(doc, x: float = 0.0, length: float = 20.0):
    curve = DB.Line.CreateBound(DB.XYZ(x, 0, 0), DB.XYZ(x + length, 0, 0))
    return DB.Wall.Create(doc, curve, level_1(doc).Id, False)


@tools.tool(writes=True)
def create_level(ctx, args: LevelArgs):
    """Create a level."""
    level = DB.Level.Create(ctx.doc, args.elevation)
    return f"Created {level.Name}."


@tools.tool(writes=True)
def create_wall(ctx, args: WallArgs):
    """Create a wall on Level 1."""
    return {"created": ctx.id_value(new_wall(ctx.doc, args.x, args.length).Id)}


@tools.tool(writes=True, working_set_policy="replace")
def create_wall_replacing(ctx, args: WallArgs):
    """Create a wall; it becomes the working set."""
    return {"created": ctx.id_value(new_wall(ctx.doc, args.x, args.length).Id)}


@tools.tool(writes=True, working_set_policy="none")
def create_wall_quietly(ctx, args: WallArgs):
    """Create a wall without touching the working set."""
    return {"created": ctx.id_value(new_wall(ctx.doc, args.x, args.length).Id)}


@tools.tool(writes=True)
def create_level_then_fail(ctx, args: LevelArgs):
    """Create a level, then find a mistake in the call."""
    DB.Level.Create(ctx.doc, args.elevation)
    raise ToolError("No level named 'L3'. Levels: Level 1, Level 2.")


@tools.tool(writes=True)
def crash(ctx, args: NoArgs):
    """Fail with an unexpected error after changing the model."""
    new_wall(ctx.doc)
    raise ValueError("something broke")


@tools.tool(writes=True, working_set_policy="none")
def set_mark(ctx, args: MarkArgs):
    """Set the Mark of elements."""
    for element in ctx.elements(args.element_ids):
        element.LookupParameter("Mark").Set(args.mark)
    return f"Set {len(args.element_ids)} marks."


@tools.tool(writes=True, working_set_policy="none")
def delete_elements(ctx, args: IdsArgs):
    """Delete elements."""
    deleted = ctx.doc.Delete(_id_list(ctx, args.element_ids))
    return f"Deleted {len(list(deleted))} elements."


def _id_list(ctx, values):
    from paracore.revit.dotnet import typed_list
    return typed_list(DB.ElementId, [ctx.element_id(v) for v in values])


@tools.tool(writes=True, runs_scripts=True)
def run_script(ctx, args: TextArgs):
    """Create a wall and print what a script prints (which may hold a working-set payload)."""
    new_wall(ctx.doc, 100.0)
    return args.text


@tools.tool(writes=True)
def create_wall_explicitly(ctx, args: NoArgs):
    """Create a wall; the working set becomes Level 1 (an explicit update)."""
    new_wall(ctx.doc, 200.0)
    return ToolOutput(content="Made a wall.", working_set=working_set_output([ctx.id_value(level_1(ctx.doc).Id)]))


@tools.tool(writes=True)
def create_level_verified(ctx, args: LevelArgs):
    """Create a level and report what Revit says about it after the commit (nothing to compare)."""
    level = DB.Level.Create(ctx.doc, args.elevation)
    level_id = level.Id
    return ToolOutput(content="unverified", change=Change(report=lambda: {
        "name": ctx.doc.GetElement(level_id).Name, "in_transaction": ctx.doc.IsModifiable, "é": "ü"}))


class ReadBackArgs(BaseModel):
    elevation: float = Field(description="Elevation in feet.")
    expected: float = Field(description="The elevation the read-back expects (another one makes a difference).")
    after_commit: float | None = Field(None, description="What it expects once the change is committed.")


PROTOCOL: list[tuple] = []   # (step, in a transaction, Regenerates so far): what the runner did, in order


@tools.tool(writes=True)
def create_level_read_back(ctx, args: ReadBackArgs):
    """Create a level and declare it: the executor compares its elevation with ``expected``."""
    level_id = DB.Level.Create(ctx.doc, args.elevation).Id

    def compare(read_back) -> None:
        modifiable = ctx.doc.IsModifiable
        PROTOCOL.append(("compare", modifiable, REGENERATES[0]))
        asked = args.expected if modifiable or args.after_commit is None else args.after_commit
        read_back.length(f"level {ctx.id_value(level_id)}", "elevation", asked, ctx.doc.GetElement(level_id).Elevation)

    def report() -> str:
        PROTOCOL.append(("report", ctx.doc.IsModifiable, REGENERATES[0]))
        return f"Created {ctx.doc.GetElement(level_id).Name}."

    return ToolOutput(change=Change(action="Creating a level", compare=compare, report=report,
                                    hint=lambda read_back: f"{len(read_back.differences)} difference: ask again."))


@tools.tool(writes=True)
def duplicate_wall_type(ctx, args: TextArgs):
    """Duplicate the default wall type (creates an ElementType)."""
    wall_type = DB.FilteredElementCollector(ctx.doc).OfClass(DB.WallType).FirstElement()
    return {"created": ctx.id_value(wall_type.Duplicate(args.text).Id)}


@tools.tool(writes=True)
def create_level_unverifiable(ctx, args: LevelArgs):
    """Create a level whose report fails after the commit."""
    DB.Level.Create(ctx.doc, args.elevation)
    return ToolOutput(content="unverified", change=Change(report=lambda: ctx.element(987654)))


@tools.tool
def count_walls(ctx, args: NoArgs):
    """Count the walls (a reading tool)."""
    walls = DB.FilteredElementCollector(ctx.doc).OfClass(DB.Wall).GetElementCount()
    return f"{walls} walls; call {ctx.call_id}"


@tools.tool
def create_level_without_writes(ctx, args: NoArgs):
    """A reading tool that wrongly tries to change the model."""
    DB.Level.Create(ctx.doc, 50.0)
    return "unreachable"


@tools.tool
def select_level_1(ctx, args: NoArgs):
    """A reading tool that sets the working set with a protocol payload."""
    return json.dumps({"paracore_output_type": "working_set_elements", "operation": "add",
                       "element_ids": [ctx.id_value(level_1(ctx.doc).Id)], "display_message": "Level 1 added."})


# -- fixtures and helpers ------------------------------------------------------------------------

@pytest.fixture
def host():
    """A stand-in Revit with its own main thread and an empty project; global state restored."""
    guard.reset_main_thread()
    host = RevitHost.start()
    host.call(host.new_document)
    yield host
    host.stop()
    faults.clear()
    guard.reset_main_thread()


@pytest.fixture
def doc(host):
    return host.uiapp._active_document


REGENERATES = [0]   # Document.Regenerate calls since the test began


@pytest.fixture(autouse=True)
def regenerates(monkeypatch):
    """Counts the stand-in's Regenerate calls (REGENERATES) and clears PROTOCOL."""
    original = DB.Document.Regenerate
    REGENERATES[0] = 0
    PROTOCOL.clear()

    def regenerate(self):
        REGENERATES[0] += 1
        return original(self)
    monkeypatch.setattr(DB.Document, "Regenerate", regenerate)


@pytest.fixture
def run(host, bridge, session):
    """run([(name, arguments), ...], step) -> outcomes: one agent step, as the agent runs it."""
    def run_step(calls, step: str = "Agent step") -> list[CallOutcome]:
        prepared = []
        for index, (name, arguments) in enumerate(calls, 1):
            call = tools.prepare(name, arguments)
            assert not hasattr(call, "message"), call
            prepared.append((f"c{index}", call))
        outcomes = bridge.call(lambda: run_batch(bridge.uiapp.ActiveUIDocument, session, step, prepared),
                               timeout=10)
        assert host.closed_transactions == [] and host.handler_errors == []
        return outcomes
    return run_step


def count(host, doc, cls) -> int:
    return host.call(lambda: DB.FilteredElementCollector(doc).OfClass(cls).GetElementCount())


def undo_names(doc) -> list[str]:
    return [record.name for record in doc._journal.undo_history]


def created_id(outcome: CallOutcome) -> int:
    return json.loads(outcome.content)["created"]


# -- one undo entry per step ---------------------------------------------------------------------

def test_two_writing_tools_make_one_undo_entry_named_after_the_step(run, doc, host):
    outcomes = run([("create_level", {"elevation": 30}), ("create_wall", {})], step="Level and wall")
    assert [o.is_error for o in outcomes] == [False, False]
    assert [o.call_id for o in outcomes] == ["c1", "c2"] and [o.name for o in outcomes] == ["create_level", "create_wall"]
    assert outcomes[0].content == "Created Level 3."
    assert undo_names(doc) == ["Level and wall"]
    assert doc._journal.undo_history[0].transaction_names == ["Create level", "Create wall"]
    assert count(host, doc, DB.Wall) == 1
    assert all(o.duration_ms >= 0 for o in outcomes)


def test_reading_tools_run_without_any_transaction(run, doc):
    [outcome] = run([("count_walls", {})])
    assert outcome == CallOutcome("c1", "count_walls", "0 walls; call c1", False, outcome.duration_ms, None)
    assert undo_names(doc) == []


def test_a_reading_tool_cannot_change_the_model(run, doc, host):
    [outcome] = run([("create_level_without_writes", {})])
    assert outcome.is_error and "ModificationOutsideTransactionException" in outcome.content
    assert count(host, doc, DB.Level) == 2


# -- failures: one tool's problem stays that tool's ----------------------------------------------

def test_a_failing_tool_rolls_back_its_own_transaction_only(run, doc, host, session):
    outcomes = run([("create_wall", {}), ("create_level_then_fail", {"elevation": 40}),
                    ("count_walls", {})])
    assert outcomes[1].is_error and outcomes[1].content == "No level named 'L3'. Levels: Level 1, Level 2."
    assert outcomes[1].working_set_change is None
    assert count(host, doc, DB.Level) == 2  # the failing tool's level is gone
    assert outcomes[2].content.startswith("1 walls")  # the first tool's wall stands
    assert undo_names(doc) == ["Agent step"]
    assert doc._journal.undo_history[0].transaction_names == ["Create wall"]
    assert session.working_set.ids == (created_id(outcomes[0]),)


def test_an_unexpected_exception_is_rendered_for_the_model(run, doc, host):
    [outcome] = run([("crash", {})])
    assert outcome.is_error and outcome.content == "ValueError: something broke"
    assert count(host, doc, DB.Wall) == 0


def test_a_step_where_every_writing_tool_failed_leaves_no_undo_entry(run, doc):
    outcomes = run([("crash", {}), ("create_level_then_fail", {"elevation": 40})])
    assert all(o.is_error for o in outcomes)
    assert undo_names(doc) == []


def test_a_commit_that_revit_rolls_back_is_an_error_and_changes_nothing(run, doc, host, session):
    faults.fail_next_commit(doc)
    [outcome] = run([("create_wall", {})])
    assert outcome.is_error
    assert outcome.content == ("Revit rolled the change back: Revit could not complete the operation "
                               "(simulated failure).")
    assert count(host, doc, DB.Wall) == 0
    assert session.working_set.ids == () and outcome.working_set_change is None
    assert undo_names(doc) == []


def test_warnings_are_reported_and_do_not_block_the_commit(run, doc, host):
    first, second = run([("create_wall", {}), ("create_wall", {"x": 50})])
    ids = [created_id(first), created_id(second)]
    [outcome] = run([("set_mark", {"element_ids": ids, "mark": "W1"})])
    assert not outcome.is_error
    assert outcome.content == "Set 2 marks.\nRevit warnings: Elements have duplicate 'Mark' values."
    assert host.call(lambda: [DB.FilteredElementCollector(doc).OfClass(DB.Wall).FirstElement()
                              .LookupParameter("Mark").AsString()]) == ["W1"]
    assert host.call(lambda: len(list(doc.GetWarnings()))) == 0  # deleted, not left in the model


def test_a_report_without_a_comparison_runs_after_the_commit_only_and_data_is_compact_json(run):
    [outcome] = run([("create_level_verified", {"elevation": 30})])
    assert outcome.content == '{"name":"Level 3","in_transaction":false,"é":"ü"}'
    assert REGENERATES == [0]   # nothing to compare: the runner does not regenerate


def test_a_failing_read_back_after_the_commit_is_an_error_that_says_the_change_was_kept(run, doc, host, session):
    [outcome] = run([("create_level_unverifiable", {"elevation": 30})])
    assert outcome.is_error
    assert outcome.content.startswith("The change was made and kept, but reading it back failed: "
                                      "Element 987654 does not exist")
    assert count(host, doc, DB.Level) == 3 and len(session.working_set) == 1


# -- the write protocol: the runner regenerates, reads the declared change back and decides ----------

def test_a_declared_change_is_regenerated_once_then_read_back_in_the_transaction_and_after_the_commit(run):
    [outcome] = run([("create_level_read_back", {"elevation": 30, "expected": 30})])
    assert not outcome.is_error and outcome.content == "Created Level 3."
    assert PROTOCOL == [("compare", True, 1), ("report", True, 1), ("compare", False, 1), ("report", False, 1)]


def test_a_difference_in_the_transaction_rolls_the_call_back_in_the_tools_words(run, doc, host):
    levels = count(host, doc, DB.Level)
    [outcome] = run([("create_level_read_back", {"elevation": 30, "expected": 31})])
    assert outcome.is_error
    assert outcome.content.startswith("Creating a level: Revit did not do what was asked. Read back from the "
                                      "model: level ")
    assert outcome.content.endswith(" elevation: asked 9448.8 mm, Revit has 9144 mm. Nothing was changed: the change "
                                    "was rolled back. 1 difference: ask again."), outcome.content
    assert PROTOCOL == [("compare", True, 1)]   # no report, no commit
    assert count(host, doc, DB.Level) == levels and undo_names(doc) == []


def test_a_difference_found_only_after_the_commit_says_the_change_was_kept(run, doc, host):
    levels = count(host, doc, DB.Level)
    [outcome] = run([("create_level_read_back", {"elevation": 30, "expected": 30, "after_commit": 32})])
    assert outcome.is_error
    assert outcome.content.startswith("The change was made and kept, but reading it back failed: Creating a "
                                      "level: Revit did not do what was asked."), outcome.content
    assert "The change was kept (Revit changed it at commit)" in outcome.content
    assert count(host, doc, DB.Level) == levels + 1


def test_the_preview_runs_the_same_read_back_as_the_executor(host, doc, session):
    def preview(call):
        return host.call(lambda: preview_call(host.uiapp.ActiveUIDocument, session, call))

    differs = tools.prepare("create_level_read_back", {"elevation": 30, "expected": 31})
    fine = tools.prepare("create_level_read_back", {"elevation": 30, "expected": 30})
    refused = preview(differs)
    assert refused.error.startswith("Creating a level: Revit did not do what was asked.")
    assert refused.error.endswith("Nothing was changed: the change was rolled back. 1 difference: ask again.")
    PROTOCOL.clear()
    made = preview(fine)
    assert made.error is None and made.created == {"Levels": 1}
    assert PROTOCOL == [("compare", True, 2), ("report", True, 2)]   # in its transaction only: then rolled back
    assert undo_names(doc) == []


# -- the working set (docs/WORKING_SET.md) -------------------------------------------------------

def test_created_model_elements_are_added_to_the_working_set(run, session):
    [first] = run([("create_wall", {})])
    assert session.working_set.ids == (created_id(first),)
    assert first.working_set_change.added == (created_id(first),)
    [second] = run([("create_wall", {"x": 50})])
    assert session.working_set.ids == (created_id(first), created_id(second))
    assert session.working_set.summary() == "2 Walls"


def test_created_types_are_not_captured(run, session):
    [outcome] = run([("duplicate_wall_type", {"text": "Thick wall"})])
    assert not outcome.is_error and session.working_set.ids == ()


def test_the_replace_policy_makes_the_new_elements_the_working_set(run, session):
    [first] = run([("create_wall", {})])
    [second] = run([("create_wall_replacing", {"x": 50})])
    assert session.working_set.ids == (created_id(second),)
    assert second.working_set_change.removed == (created_id(first),)


def test_the_none_policy_leaves_the_working_set_alone(run, session):
    [first] = run([("create_wall", {})])
    [quiet] = run([("create_wall_quietly", {"x": 50})])
    assert session.working_set.ids == (created_id(first),)
    assert quiet.working_set_change is None


def test_an_explicit_payload_in_the_output_wins_and_its_message_is_shown(run, session, doc, host):
    level_id = host.call(lambda: level_1(doc).Id.Value)
    payload = {"paracore_output_type": "working_set_elements", "operation": "replace",
               "element_ids": [level_id], "display_message": "Level 1 is your working set."}
    [outcome] = run([("run_script", {"text": "log line\n" + json.dumps(payload)})])
    assert not outcome.is_error and outcome.content == "Level 1 is your working set."
    assert session.working_set.ids == (level_id,)  # not the wall the script created
    assert count(host, doc, DB.Wall) == 1


def test_an_explicit_tool_output_update_wins_over_the_policy(run, session, doc, host):
    level_id = host.call(lambda: level_1(doc).Id.Value)
    [outcome] = run([("create_wall_explicitly", {})])
    assert outcome.content == "Made a wall."
    assert session.working_set.ids == (level_id,)
    assert session.working_set.summary() == "1 Level"


def test_a_payload_in_the_output_of_a_tool_that_runs_no_script_is_only_text(run, session):
    # Such an object may come from the model's data (an element named with one): never obeyed.
    [outcome] = run([("select_level_1", {})])
    assert not outcome.is_error and '"display_message": "Level 1 added."' in outcome.content
    assert len(session.working_set) == 0


@pytest.mark.parametrize("payload, expected", [
    ({"paracore_output_type": "working_set_elements", "operation": "replace", "element_ids": [987654]},
     "1 element is not in the document: 987654"),
    ({"paracore_output_type": "working_set_elements", "operation": "swap", "element_ids": [1]},
     "operation must be one of replace, add, remove"),
])
def test_a_bad_payload_is_an_error_and_changes_no_working_set(run, session, payload, expected):
    [before] = run([("create_wall", {})])
    [outcome] = run([("run_script", {"text": json.dumps(payload)})])
    assert outcome.is_error and expected in outcome.content
    assert "The tool's changes to the model were kept." in outcome.content
    assert session.working_set.ids == (created_id(before),)


def test_deleted_elements_leave_the_working_set(run, session):
    first, second = run([("create_wall", {}), ("create_wall", {"x": 50})])
    [outcome] = run([("delete_elements", {"element_ids": [created_id(first)]})])
    assert not outcome.is_error
    assert session.working_set.ids == (created_id(second),)
    assert outcome.working_set_change.removed == (created_id(first),)


def test_the_tool_context_carries_the_call_id(run):
    outcomes = run([("count_walls", {}), ("count_walls", {})])
    assert [o.content.split("call ")[1] for o in outcomes] == ["c1", "c2"]


# -- the main-thread rule ------------------------------------------------------------------------

def test_run_batch_off_the_main_thread_fails_and_through_the_bridge_works(host, bridge, session):
    calls = [("c1", tools.prepare("count_walls", {}))]
    box = {}

    def worker():
        try:
            run_batch(host.uiapp.ActiveUIDocument, session, "Step", calls)
        except InvalidOperationException as error:
            box["error"] = error

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join(5)
    assert "outside Revit's main thread" in str(box["error"])
    [outcome] = bridge.call(lambda: run_batch(bridge.uiapp.ActiveUIDocument, session, "Step", calls), timeout=5)
    assert outcome.content == "0 walls; call c1"


# -- describe_categories and ChangeRecorder --------------------------------------------------------

def test_describe_categories_names_the_categories_of_existing_elements(run, doc, host):
    [outcome] = run([("create_wall", {})])
    wall_id = created_id(outcome)
    level_id = host.call(lambda: level_1(doc).Id.Value)
    describe = describe_categories(doc)
    assert host.call(lambda: describe([wall_id, level_id, 987654])) == {wall_id: "Walls", level_id: "Levels"}


def test_change_recorder_records_one_documents_changes_while_active(host, doc):
    other = host.call(lambda: host.new_document("Other"))
    host.activate(doc)

    def scenario():
        def committed(document, fn, name):
            transaction = DB.Transaction(document, name)
            transaction.Start()
            result = fn()
            transaction.Commit()
            return result

        with ChangeRecorder(doc.Application, doc) as changes:
            wall = committed(doc, lambda: new_wall(doc), "Wall")
            level = level_1(doc)
            committed(doc, lambda: level.LookupParameter("Elevation").Set(1.0), "Move level")
            committed(other, lambda: new_wall(other), "Elsewhere")  # another document: ignored
            doomed_id = committed(doc, lambda: new_wall(doc, 50), "Doomed").Id
            committed(doc, lambda: doc.Delete(doomed_id), "Delete")
        committed(doc, lambda: new_wall(doc, 100), "After")  # no longer recording
        return changes, wall.Id.Value, doomed_id.Value, level.Id.Value

    changes, wall_id, doomed_id, level_id = host.call(scenario)
    assert changes.added == [wall_id]
    assert changes.modified == [level_id]
    assert changes.deleted == [doomed_id]
    assert changes.transaction_names == ["Wall", "Move level", "Doomed", "Delete"]
    assert host.call(lambda: doc.Application.DocumentChanged.handlers) == []


def test_elements_deleted_outside_the_agent_leave_the_working_set():
    """Whatever deletes elements (here a plain transaction, like the user in Revit), the ids go."""
    from paracore.hosts.standin.sandbox import Sandbox
    from Autodesk.Revit import DB
    with Sandbox("duplex") as sandbox:
        def delete_a_wall():
            wall = next(iter(DB.FilteredElementCollector(sandbox.doc).OfClass(DB.Wall)))
            doors = [d.Id.Value for d in DB.FilteredElementCollector(sandbox.doc).OfCategory(
                DB.BuiltInCategory.OST_Doors).WhereElementIsNotElementType() if d.Host == wall]
            sandbox.session.working_set.replace([wall.Id.Value, *doors, 1])
            transaction = DB.Transaction(sandbox.doc, "User deletes a wall")
            transaction.Start()
            wall_id = wall.Id.Value
            sandbox.doc.Delete(wall.Id)
            transaction.Commit()
            return wall_id, doors
        wall_id, door_ids = sandbox.on_main_thread(delete_a_wall)
        assert sandbox.session.working_set.ids == (1,)
        assert wall_id not in sandbox.session.working_set and not set(door_ids) & set(sandbox.session.working_set)


# -- a document Revit will not change ------------------------------------------------------------

def test_a_read_only_document_gives_every_call_its_own_result(run, doc, host):
    host.call(lambda: setattr(doc, "_read_only", True))
    outcomes = run([("count_walls", {}), ("create_level", {"elevation": 30}), ("create_wall", {})])
    assert [o.call_id for o in outcomes] == ["c1", "c2", "c3"]
    assert [o.is_error for o in outcomes] == [False, True, True]
    for outcome in outcomes[1:]:
        assert "read-only" in outcome.content and "Nothing was changed" in outcome.content, outcome.content
    assert undo_names(doc) == [] and count(host, doc, DB.Wall) == 0


def test_a_transaction_revit_will_not_start_fails_only_its_own_call(run, doc, host, monkeypatch):
    def refuse(self, name=None):
        raise InvalidOperationException("Starting a new transaction is not permitted.")

    monkeypatch.setattr(DB.Transaction, "Start", refuse)
    outcomes = run([("count_walls", {}), ("create_level", {"elevation": 30}), ("create_wall", {})])
    assert [o.is_error for o in outcomes] == [False, True, True]
    assert all("not permitted" in o.content for o in outcomes[1:])
    assert undo_names(doc) == []
