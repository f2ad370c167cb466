"""Dialogs and saves while a step runs (paracore.hosts.revit.step_guard, hooked into the executor).

On the stand-in duplex through the real executor: a dialog raised during a writing call is
answered with its safe default and reported in the call's result; a script that saves is
refused, the model and the working set untouched; the guard's handlers are gone after every
call, even one that raised. Warnings raised by scripts and inside sub-transactions reach the
result through the failures preprocessor."""
from __future__ import annotations

from pathlib import Path

import pytest

from Autodesk.Revit import DB, UI  # noqa: E402
from Autodesk.Revit.Exceptions import OperationCanceledException  # noqa: E402
from paracore.hosts.revit.step_guard import NO_SAFE_ANSWER, DialogAnswer, StepGuard  # noqa: E402
from paracore.tools.scripts import code_tools, script_tools  # noqa: E402,F401 - registers run_python, run_script
from revit_standin import dialogs, faults  # noqa: E402
from tool_harness import bridge, doc, host, model_count, run, run1, session, walls  # noqa: E402,F401

SAVE_EVENTS = ("DocumentSaving", "DocumentSavingAs", "DocumentSynchronizingWithCentral")


def handler_counts(host) -> dict[str, int]:
    """How many handlers each event the guard uses has (machinery: read without the API)."""
    counts = {name: len(getattr(host.application, name).handlers) for name in SAVE_EVENTS}
    counts["DialogBoxShowing"] = len(host.uiapp.DialogBoxShowing.handlers)
    return counts


def guarded(host, doc, body):
    """Run ``body()`` inside a StepGuard on the main thread; (guard, body's result or exception)."""
    def run_guarded():
        with StepGuard(host.uiapp, doc) as guard:
            try:
                return guard, body()
            except Exception as error:  # noqa: BLE001 - the test looks at it
                return guard, error
    return host.call(run_guarded)


# -- the guard on its own -------------------------------------------------------------------------


@pytest.mark.parametrize("buttons, expected", [
    (UI.TaskDialogCommonButtons.Yes | UI.TaskDialogCommonButtons.No, UI.TaskDialogResult.No),
    (UI.TaskDialogCommonButtons.Ok | UI.TaskDialogCommonButtons.Cancel, UI.TaskDialogResult.Cancel),
    (UI.TaskDialogCommonButtons.Ok, UI.TaskDialogResult.Ok),
    (UI.TaskDialogCommonButtons.Yes | UI.TaskDialogCommonButtons.Retry | UI.TaskDialogCommonButtons.Close,
     UI.TaskDialogResult.Close),
])
def test_a_task_dialog_gets_its_safe_default_never_yes(host, doc, buttons, expected):
    guard, result = guarded(host, doc, lambda: UI.TaskDialog.Show("Script", "Delete 2 walls?", buttons))
    assert result == expected
    assert guard.dialogs == [DialogAnswer("", "Delete 2 walls?", expected.name.replace("Ok", "OK"))]
    assert dialogs.shown_dialogs(host.application)[-1].answered_by == "handler"   # never on screen


@pytest.mark.parametrize("kind, buttons, answer", [
    ("message box", ("Yes", "No"), "No"),
    ("message box", ("Abort", "Retry", "Ignore"), "Abort"),
    ("message box", ("Cancel", "Try Again", "Continue"), "Cancel"),   # MB_CANCELTRYCONTINUE
    ("message box", ("OK",), "OK"),
    ("dialog box", ("OK", "Cancel"), "Cancel"),
])
def test_revit_dialogs_at_a_commit_get_their_safe_default(host, doc, kind, buttons, answer):
    faults.show_dialog_during_next_commit(doc, "Dialog_Test", "Go on?", buttons=buttons, kind=kind,
                                          rolls_back_on=())

    def commit():
        transaction = DB.Transaction(doc, "Test")
        transaction.Start()
        return transaction.Commit()

    guard, status = guarded(host, doc, commit)
    assert status == DB.TransactionStatus.Committed
    message = "Go on?" if kind == "message box" else ""    # a dialog box has no text in the API
    assert guard.dialogs == [DialogAnswer("Dialog_Test", message, answer)]


def test_the_report_quotes_a_few_dialogs_and_bounds_the_message(host, doc):
    def many():
        for index in range(5):
            UI.TaskDialog.Show("Script", f"Dialog {index} " + "x" * 300)
    guard, _ = guarded(host, doc, many)
    lines = guard.report()
    assert len(lines) == 4 and lines[-1] == "… and 2 more dialogs, answered the same way."
    assert lines[0].startswith("Revit showed a dialog ('Dialog 0 xxx") and lines[0].endswith("…'); Paracore answered Close.")
    assert len(lines[0]) < 240


def test_a_save_of_the_document_is_cancelled_and_reported(host, doc):
    doc._path = "C:/Projects/Duplex.rvt"
    guard, error = guarded(host, doc, doc.Save)
    assert isinstance(error, OperationCanceledException)
    assert guard.refused == ["save"]
    assert guard.report() == ["A save was refused while the step ran."]
    assert getattr(doc, "_saves", []) == []
    host.call(doc.Save)                                  # after the guard: saves again
    assert doc._saves == [("save", "C:/Projects/Duplex.rvt")]


def test_save_as_and_synchronize_are_refused_too(host, doc):
    host.call(lambda: doc.EnableWorksharing("Shared Levels and Grids", "Workset1"))

    def both():
        errors = []
        for attempt in (lambda: doc.SaveAs("C:/Projects/Copy.rvt"),
                        lambda: doc.SynchronizeWithCentral(DB.TransactWithCentralOptions(),
                                                           DB.SynchronizeWithCentralOptions())):
            try:
                attempt()
            except OperationCanceledException as error:
                errors.append(error)
        return errors
    guard, errors = guarded(host, doc, both)
    assert len(errors) == 2 and guard.refused == ["save as", "synchronization with central"]


def test_another_documents_save_is_not_the_guards_business(host, doc):
    other = host.call(lambda: host.new_document("Other"))
    other._path = "C:/Projects/Other.rvt"
    guard, result = guarded(host, doc, other.Save)
    assert result is None and guard.refused == []
    assert other._saves == [("save", "C:/Projects/Other.rvt")]


def test_handlers_are_detached_after_the_guard_even_when_the_body_raises(host, doc):
    before = handler_counts(host)

    def body():
        assert handler_counts(host) == {name: count + 1 for name, count in before.items()}
        raise RuntimeError("the tool failed")
    guard, error = guarded(host, doc, body)
    assert isinstance(error, RuntimeError)
    assert handler_counts(host) == before


def test_a_handler_never_raises_into_revit(host, doc, caplog):
    class BrokenArgs:             # a dialog whose answer fails: logged, not raised
        DialogId = "Broken"

        def OverrideResult(self, code):  # noqa: N802
            raise RuntimeError("Revit refused")

    def answer():
        guard = StepGuard(None, doc)
        guard._on_dialog(None, BrokenArgs())
        return guard
    assert host.call(answer).dialogs == [] and "Answering a dialog failed" in caplog.text


def test_a_dialog_without_a_safe_answer_is_left_to_the_user(host, doc):
    class CommandLinksOnly(UI.Events.TaskDialogShowingEventArgs):
        pass

    dialog = dialogs.Dialog(dialogs.TASK, "Links", "Pick one", (1001, 1002), 1001)

    def answer():
        guard = StepGuard(None, doc)
        guard._on_dialog(None, CommandLinksOnly(dialog))
        return guard
    guard = host.call(answer)
    assert guard.dialogs == [DialogAnswer("Links", "Pick one", NO_SAFE_ANSWER)]
    assert guard.report() == ["Revit showed a dialog (Links: 'Pick one'); Paracore answered nothing (it offers "
                              "no safe answer, so it waited for you)."]


# -- through the executor -------------------------------------------------------------------------


ASK_THEN_DELETE = """\
walls = list(DB.FilteredElementCollector(doc).OfClass(DB.Wall))[:2]
answer = UI.TaskDialog.Show("Clean-up", f"Delete {len(walls)} walls?",
                            UI.TaskDialogCommonButtons.Yes | UI.TaskDialogCommonButtons.No)
if answer == UI.TaskDialogResult.Yes:
    for wall in walls:
        doc.Delete(wall.Id)
print("answer:", answer.ToString())
"""


def test_a_scripts_dialog_is_answered_no_and_reported(run1, host, doc):
    count = host.call(lambda: model_count(doc))
    outcome = run1("run_python", {"code": ASK_THEN_DELETE})
    assert not outcome.is_error
    assert "answer: No" in outcome.content
    assert outcome.content.endswith("\nRevit showed a dialog ('Delete 2 walls?'); Paracore answered No.")
    assert host.call(lambda: model_count(doc)) == count


def test_a_revit_dialog_at_the_commit_answered_cancel_rolls_the_call_back(run1, host, doc):
    faults.show_dialog_during_next_commit(doc, "Dialog_Revit_Test", "Some elements will change. Continue?",
                                          buttons=("OK", "Cancel"))
    wall = host.call(lambda: walls(doc)[0])
    outcome = run1("set_parameter", {"element_ids": [wall], "name": "Comments", "value": "checked"})
    assert outcome.is_error
    assert outcome.content.startswith("Revit rolled the change back")
    assert outcome.content.endswith("\nRevit showed a dialog (Dialog_Revit_Test: 'Some elements will change. "
                                    "Continue?'); Paracore answered Cancel.")
    assert host.call(lambda: doc.GetElement(DB.ElementId(wall)).LookupParameter("Comments").AsString()) in (None, "")


def test_a_script_that_saves_is_refused_and_the_model_and_working_set_are_intact(run1, host, doc, session):
    doc._path = "C:/Projects/Duplex.rvt"
    wall = host.call(lambda: walls(doc)[0])
    host.call(lambda: session.working_set.replace([wall], source="test"))
    count, before = host.call(lambda: model_count(doc)), handler_counts(host)
    outcome = run1("run_python", {"code": "DB.Level.Create(doc, 42.0)\ndoc.Save()\n"})
    assert outcome.is_error
    assert "Operation is not permitted when there is any open sub-transaction, transaction, or transaction " \
           "group" in outcome.content
    assert host.call(lambda: model_count(doc)) == count              # the new level was rolled back
    assert list(session.working_set.ids) == [wall]
    assert getattr(doc, "_saves", []) == []
    assert handler_counts(host) == before                            # the guard let go, the tool raised


def test_handlers_are_detached_after_each_call_of_a_step(run, host, doc):
    before = handler_counts(host)
    outcomes = run([("run_python", {"code": "print('one')"}), ("run_python", {"code": "raise ValueError('two')"})])
    assert [o.is_error for o in outcomes] == [False, True]
    assert handler_counts(host) == before


# -- warnings through the failures preprocessor ----------------------------------------------------------


DUPLICATE_MARKS_IN_A_SUBTRANSACTION = """\
\"\"\"Mark two walls alike, inside a sub-transaction (a duplicate Mark: a Revit warning).\"\"\"
from pydantic import BaseModel


class Params(BaseModel):
    pass


def run(ctx, params):
    from Autodesk.Revit import DB
    walls = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.Wall))[:2]
    sub = DB.SubTransaction(ctx.doc)
    sub.Start()
    for wall in walls:
        wall.LookupParameter("Mark").Set("SAME")
    sub.Commit()
    return "Marked 2 walls."
"""


def test_a_scripts_warning_raised_inside_a_subtransaction_is_reported(run1, host, doc, tmp_path):
    from paracore.scripts import library
    (tmp_path / "Mark_Two_Walls.py").write_text(DUPLICATE_MARKS_IN_A_SUBTRANSACTION, encoding="utf-8")
    library.set_default_library(library.ScriptLibrary([tmp_path]))
    try:
        outcome = run1("run_script", {"script": "Mark_Two_Walls"})
    finally:
        library.set_default_library(None)
    assert not outcome.is_error, outcome.content
    assert outcome.content.endswith("\nRevit warnings: Elements have duplicate 'Mark' values.")
    assert host.call(lambda: len(list(doc.GetWarnings()))) == 0     # deleted by the preprocessor


def test_a_run_python_warning_is_reported(run1, host, doc):
    code = ("for wall in list(DB.FilteredElementCollector(doc).OfClass(DB.Wall))[:2]:\n"
            "    wall.LookupParameter('Mark').Set('SAME')\n")
    outcome = run1("run_python", {"code": code})
    assert not outcome.is_error
    assert outcome.content.endswith("\nRevit warnings: Elements have duplicate 'Mark' values.")


# -- the approval's preview runs the call guarded too ----------------------------------------------------


def preview_of(host, session, name: str, arguments: dict):
    from paracore.hosts.revit.preview import preview_call
    from tool_harness import prepare
    call = prepare(session, name, arguments)
    return host.call(lambda: preview_call(host.uiapp.ActiveUIDocument, session, call))


def test_the_preview_answers_a_scripts_dialog_as_the_run_will(host, doc, session):
    preview = preview_of(host, session, "run_python", {"code": ASK_THEN_DELETE})
    assert preview.error is None and preview.deleted == {}          # answered No: nothing would go
    assert [d.answered_by for d in dialogs.shown_dialogs(host.application)] == ["handler"]
    [line] = preview.guarded                                         # and the approval says so
    assert line.startswith("Revit showed a dialog (") and line.endswith("Paracore answered No.") and line in preview.text()


def test_a_preview_that_fails_on_a_dialog_says_so(host, doc, session):
    faults.show_dialog_during_next_commit(doc, "Dialog_Revit_Test", "Continue?", buttons=("OK", "Cancel"))
    wall = host.call(lambda: walls(doc)[0])
    preview = preview_of(host, session, "set_parameter", {"element_ids": [wall], "name": "Comments", "value": "x"})
    assert preview.error.startswith("Revit would roll the change back")
    assert preview.error.endswith("\nRevit showed a dialog (Dialog_Revit_Test: 'Continue?'); Paracore answered Cancel.")


# -- the replay ---------------------------------------------------------------------------------------------

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "dialog_captured.json"


def test_the_replay_shows_a_dialog_captured_and_a_save_refused(host):
    from paracore.app.replay import failed_turns, run_replay
    from paracore.app.replay_file import load_replay
    from paracore.tools.elements.overview import selection_and_element_count
    _, count_before = host.call(lambda: selection_and_element_count(host.uiapp.ActiveUIDocument))
    result = run_replay(load_replay(REPLAY), model="duplex", trace=False)
    assert failed_turns(result) == []
    by_id = {r["id"]: r for turn in result["turns"] for r in turn["tool_results"]}
    assert not by_id["d1"]["is_error"]
    assert "Not deleted: the answer was No" in by_id["d1"]["content"]
    assert by_id["d1"]["content"].endswith("\nRevit showed a dialog ('Delete the 2 shortest walls?'); "
                                           "Paracore answered No.")
    assert by_id["s1"]["is_error"]
    assert "Operation is not permitted when there is any open sub-transaction, transaction, or transaction " \
           "group" in by_id["s1"]["content"]
    assert result["element_count"] == count_before                   # no wall went, nothing was added
