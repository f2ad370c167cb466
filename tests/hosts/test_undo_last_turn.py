"""The undo ledger and Undo last turn on the stand-in: the ledger mirrors Paracore's undo entries
(per turn), the user's own edits, undo and redo, and ignores a preview's rolled-back group; Undo
last turn posts Revit's Undo once per entry, restores the model exactly (the stand-in's
snapshot) and the working set, tells the model, and refuses — changing nothing — after a user
edit, while a turn runs, or with nothing to undo."""
from __future__ import annotations

import json
import threading

import pytest

from paracore.core import events as ev
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.scripted import ScriptedModel
from paracore.hosts.revit import undo_ledger, undo_turn
from undo_steps import TWO_STEPS, WALL_A, call


@pytest.fixture
def sandbox():
    with Sandbox("duplex") as box:
        undo_ledger.forget(box.session.key)
        yield box
        undo_ledger.forget(box.session.key)


def state(box) -> dict:
    from revit_standin import snapshot
    return json.loads(box.on_main_thread(lambda: snapshot.document_state(box.doc)))


def run(agent, text):
    events = list(agent.run_turn(text))
    failed = [e for e in events if isinstance(e, ev.TurnFailed)]
    assert not failed, failed
    errors = [e.content for e in events if isinstance(e, ev.ToolCallFinished) and e.is_error]
    assert not errors, errors
    return events


def ledger(box):
    return undo_ledger.ledger_of(box.session.key)


def user_edit(box, name="Rename level"):
    """The user changes the model themselves (a transaction of their own)."""
    from Autodesk.Revit.DB import FilteredElementCollector, Level, Transaction

    def edit():
        transaction = Transaction(box.doc, name)
        transaction.Start()
        level = FilteredElementCollector(box.doc).OfClass(Level).FirstElement()
        level.Name = level.Name + " (edited)"
        transaction.Commit()
    box.on_main_thread(edit)


def post(box, which="Undo"):
    """The user presses Ctrl+Z / Ctrl+Y in Revit."""
    from Autodesk.Revit.UI import PostableCommand, RevitCommandId
    box.on_main_thread(lambda: box.host.uiapp.PostCommand(
        RevitCommandId.LookupPostableCommandId(getattr(PostableCommand, which))))
    box.on_main_thread(lambda: None)


# -- the ledger ------------------------------------------------------------------------------------------

def test_the_ledger_files_each_step_of_a_turn_with_its_ids_and_categories(sandbox):
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]))
    run(agent, "two walls")
    entries = ledger(sandbox).undo
    assert [(e.name, e.turn) for e in entries] == [("Paracore: create_wall", 1),
                                                   ("Paracore step 2: create_wall", 1)]
    assert [e.transaction_names for e in entries] == [("Create wall",), ("Create wall",)]
    assert all(len(e.added) == 1 and e.categories[e.added[0]] == "Walls" for e in entries)
    changes = ledger(sandbox).turn_changes(1)
    assert (changes.created, changes.modified, changes.deleted) == ({"Walls": 2}, {}, {})
    assert changes.ids == tuple(e.added[0] for e in entries)


def test_user_edits_undo_and_redo_keep_the_ledger_in_step(sandbox):
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]))
    run(agent, "two walls")
    user_edit(sandbox)
    items = ledger(sandbox).undo
    assert isinstance(items[-1], undo_ledger.Foreign) and items[-1].names == ("Rename level",)
    post(sandbox, "Undo")         # the user undoes their own edit
    assert [type(i).__name__ for i in ledger(sandbox).undo] == ["Entry", "Entry"]
    post(sandbox, "Undo")         # and Paracore's second step
    assert [e.name for e in ledger(sandbox).undo] == ["Paracore: create_wall"]
    post(sandbox, "Redo")
    assert [e.name for e in ledger(sandbox).undo] == ["Paracore: create_wall", "Paracore step 2: create_wall"]
    assert isinstance(ledger(sandbox).redo[-1], undo_ledger.Foreign)


def test_a_preview_s_rolled_back_group_leaves_nothing_in_the_ledger(sandbox):
    from Autodesk.Revit.DB import Level, Transaction, TransactionGroup
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]))
    run(agent, "two walls")
    before = list(ledger(sandbox).undo)

    def preview():
        with undo_ledger.paracore_work(sandbox.doc, sandbox.session):
            group = TransactionGroup(sandbox.doc, "Preview")
            group.Start()
            transaction = Transaction(sandbox.doc, "Create level")
            transaction.Start()
            Level.Create(sandbox.doc, 99.0)
            transaction.Commit()
            group.RollBack()
    sandbox.on_main_thread(preview)
    assert ledger(sandbox).undo == before and ledger(sandbox).redo == []


# -- Undo last turn --------------------------------------------------------------------------------------

def test_undo_last_turn_restores_the_model_the_working_set_and_tells_the_model(sandbox):
    scripted = ScriptedModel.from_turns([TWO_STEPS, [{"text": "Noted."}]])
    agent = sandbox.agent(scripted)
    kept = sandbox.on_main_thread(lambda: next(i for i, e in sandbox.doc._elements.items()
                                               if type(e).__name__ == "Wall"))
    sandbox.on_main_thread(lambda: sandbox.session.working_set.replace([kept], source="test"))
    before = state(sandbox)
    history_length = len(sandbox.session.history)
    run(agent, "two walls")
    assert len(sandbox.session.working_set) == 1 and kept not in sandbox.session.working_set

    result = undo_turn.undo_last_turn(sandbox.runtime)

    assert result.done, result.message
    assert (result.undone, result.turn) == (2, 1)
    assert sandbox.host.posted_commands == ["ID_EDIT_UNDO", "ID_EDIT_UNDO"]
    after = state(sandbox)
    assert after["elements"] == before["elements"]    # the model, element by element
    assert after["undo"] == before["undo"]
    assert [name for name, _ in after["redo"]] == ["Paracore step 2: create_wall", "Paracore: create_wall"]
    assert sandbox.session.working_set.ids == (kept,)
    assert "Undid turn 1: 2 undo entries" in result.message
    # The conversation is intact, and the next message tells the model what happened.
    assert len(sandbox.session.history) > history_length
    run(agent, "what now?")
    context = scripted.requests[-1].messages[-1].parts[-1].text
    assert context.startswith("CONTEXT:") and "pressed Undo last turn" in context
    run_again = sandbox.session.take_model_notes()
    assert run_again == []    # said once


def test_undo_refuses_after_a_user_edit_and_changes_nothing(sandbox):
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]))
    run(agent, "two walls")
    user_edit(sandbox)
    before = state(sandbox)
    working_set = sandbox.session.working_set.ids

    result = undo_turn.undo_last_turn(sandbox.runtime)

    assert not result.done
    assert "changed after turn 1" in result.message and "'Rename level'" in result.message
    assert state(sandbox) == before and sandbox.host.posted_commands == []
    assert sandbox.session.working_set.ids == working_set


def test_undo_with_nothing_to_undo_refuses(sandbox):
    result = undo_turn.undo_last_turn(sandbox.runtime)
    assert not result.done and result.message.startswith("Nothing to undo")
    assert sandbox.host.posted_commands == []


def test_undo_requested_while_a_turn_runs_is_refused(sandbox):
    from paracore.agent import ApprovalPolicy
    answers, asking = [], []

    def approver(request):
        if asking:
            answers.append(undo_turn.undo_last_turn(sandbox.runtime))
        return "approve"

    second = [{"tool_calls": [call("b1", "create_wall", WALL_A)]}, {"text": "One more."}]
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS, second]), approver=approver,
                          policy=ApprovalPolicy(mode="ask_writes"))
    run(agent, "two walls")
    asking.append(True)
    run(agent, "one more")      # the user presses Undo last turn while this turn waits for approval
    assert answers and all(not a.done and a.message.startswith("A turn is running") for a in answers)
    assert sandbox.host.posted_commands == []


def test_only_the_last_turn_is_undone_and_a_second_press_undoes_the_one_before(sandbox):
    one_step = [{"tool_calls": [call("b1", "create_wall", WALL_A)]}, {"text": "One."}]
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS, one_step]))
    run(agent, "two walls")
    middle = state(sandbox)
    run(agent, "one more")
    first = undo_turn.undo_last_turn(sandbox.runtime)
    assert first.done and first.turn == 2 and first.undone == 1
    assert state(sandbox)["elements"] == middle["elements"]
    second = undo_turn.undo_last_turn(sandbox.runtime)
    assert second.done and second.turn == 1 and second.undone == 2


def test_an_isolate_on_top_changes_nothing_and_is_undone_along_the_way(sandbox):
    from paracore.app.revit import panel_actions
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]))
    before = state(sandbox)
    run(agent, "two walls")
    ids = list(sandbox.session.working_set.ids)

    def open_3d_view():
        from Autodesk.Revit.DB import FilteredElementCollector, View3D
        view = next(v for v in FilteredElementCollector(sandbox.doc).OfClass(View3D) if not v.IsTemplate)
        sandbox.host.uiapp.ActiveUIDocument.ActiveView = view
    sandbox.on_main_thread(open_3d_view)
    message = sandbox.on_main_thread(lambda: panel_actions.isolate_ids(sandbox.host.uiapp, sandbox.session.key, ids))
    assert message.startswith("Isolated"), message

    result = undo_turn.undo_last_turn(sandbox.runtime)

    assert result.done, result.message
    assert sandbox.host.posted_commands == ["ID_EDIT_UNDO"] * 3   # the isolate's empty entry, then two
    assert state(sandbox)["elements"] == before["elements"]


def test_a_mismatched_undo_stops_and_says_so(sandbox):
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]))
    run(agent, "two walls")
    # Someone renamed Revit's top entry behind the ledger's back: the names no longer match.
    sandbox.on_main_thread(lambda: setattr(sandbox.doc._journal.undo_history[-1], "transaction_names", ["Other"]))
    result = undo_turn.undo_last_turn(sandbox.runtime)
    assert not result.done and "Stopped: Revit undid 'Other'" in result.message
    assert sandbox.host.posted_commands == ["ID_EDIT_UNDO"]


# -- the sandbox chat: the summary after a turn, and /undo ----------------------------------------------

def test_the_sandbox_prints_the_turn_s_changes_and_undoes_them_with_slash_undo():
    import io

    from paracore.app.terminal_chat import run_chat
    answers = iter(["two walls", "y", "y", "/undo", "/undo", "/quit"])
    out = io.StringIO()
    with Sandbox("duplex") as box:
        undo_ledger.forget(box.session.key)
        before = state(box)
        run_chat(box, ScriptedModel.from_turns([TWO_STEPS]), ask=lambda prompt: next(answers), out=out, trace=False)
        after = state(box)
        undo_ledger.forget(box.session.key)
    text = out.getvalue()
    assert "Turn 1 changed the model: Created: 2 Walls (/undo undoes it)" in text
    assert "Undid turn 1: 2 undo entries ('Paracore step 2: create_wall', 'Paracore: create_wall')." in text
    assert "Nothing to undo" in text          # the second /undo
    assert after["elements"] == before["elements"]


def test_the_tab_button_starts_the_undo_and_reports_when_it_ends(sandbox):
    import threading

    from paracore.app.revit import review_actions
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]))
    before = state(sandbox)
    run(agent, "two walls")
    reports, ended = [], threading.Event()

    def report(text):
        reports.append(text)
        ended.set()

    said = sandbox.on_main_thread(lambda: review_actions.undo_from_button(sandbox.host.uiapp, report))
    assert said == "Undoing the last turn…"
    assert ended.wait(10) and reports[0].startswith("Undid turn 1: 2 undo entries")
    assert state(sandbox)["elements"] == before["elements"]
    again = sandbox.on_main_thread(lambda: review_actions.undo_from_button(sandbox.host.uiapp, report))
    assert again.startswith("Nothing to undo")


class ChatOnScreen:
    """The chat as the tab's Undo button sees it (review_actions.ChatPane): shown or hidden."""

    def __init__(self, visible: bool) -> None:
        self.visible = visible
        self.results = []
        self.finished = threading.Event()

    def undo_finished(self, result) -> None:
        self.results.append(result)
        self.finished.set()

    def is_visible(self) -> bool:
        return self.visible


@pytest.mark.parametrize("visible", [True, False], ids=["chat on screen", "chat hidden"])
def test_the_tab_button_tells_the_chat_and_reports_only_what_the_user_cannot_see_there(sandbox, visible):
    from paracore.app.revit import review_actions
    from paracore.hosts.revit import host_state
    run(sandbox.agent(ScriptedModel.from_turns([TWO_STEPS])), "two walls")
    chat = host_state.state().chat = ChatOnScreen(visible)
    reports, reported = [], threading.Event()

    def report(text):
        reports.append(text)
        reported.set()

    try:
        said = sandbox.on_main_thread(lambda: review_actions.undo_from_button(sandbox.host.uiapp, report))
        assert said == "Undoing the last turn…"
        assert chat.finished.wait(10) and chat.results[0].message.startswith("Undid turn 1")
        if not visible:  # reported once the chat said it is hidden
            assert reported.wait(10)
        assert reports == ([] if visible else [chat.results[0].message])
    finally:
        host_state.state().chat = None


def test_the_approval_preview_does_not_count_as_a_user_change(sandbox):
    from paracore.agent import ApprovalPolicy
    asked = []
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS]), policy=ApprovalPolicy(mode="ask_writes"),
                          approver=lambda request: asked.append(request.description) or "approve")
    run(agent, "two walls")
    assert len(asked) == 2 and all("Creates" in text for text in asked)   # each call previewed
    assert [type(item).__name__ for item in ledger(sandbox).undo] == ["Entry", "Entry"]
    assert undo_turn.undo_last_turn(sandbox.runtime).done


def test_a_user_edit_between_turns_lets_the_later_turn_undo_but_not_the_earlier(sandbox):
    one_step = [{"tool_calls": [call("c1", "create_wall", WALL_A)]}, {"text": "One."}]
    agent = sandbox.agent(ScriptedModel.from_turns([TWO_STEPS, one_step]))
    run(agent, "two walls")
    user_edit(sandbox)
    run(agent, "one more")
    assert undo_turn.undo_last_turn(sandbox.runtime).done       # turn 2 is on top
    before = state(sandbox)
    refused = undo_turn.undo_last_turn(sandbox.runtime)          # turn 1 is under the user's edit
    assert not refused.done and "changed after turn 1" in refused.message
    assert state(sandbox) == before
