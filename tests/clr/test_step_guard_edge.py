"""The step guard (paracore.hosts.revit.step_guard) on pythonnet 3.0.3 and a real CLR: its handlers
subscribe to UIApplication.DialogBoxShowing and the Application's save pre-events with Revit's
signatures (EventHandler<T>), answer dialogs through OverrideResult(int) and cancel saves through
Cancel(), and are detached afterwards: one Python object per event, for += and -=."""
from __future__ import annotations

from paracore.hosts.revit.step_guard import NO_SAFE_ANSWER


def test_the_guard_answers_dialogs_refuses_saves_and_lets_go(clr):
    seen = clr.run("step_guard_events")
    assert seen["before"] == [0, 0] and seen["during"] == [1, 3] and seen["after"] == [0, 0]
    assert seen["answers"] == {"task_yes_no": 7,            # No, never Yes
                               "task_links_only": 0,        # no safe answer: left to the user
                               "message_ok_cancel": 2,      # Cancel
                               "message_cancel_try_continue": 2,   # MB_CANCELTRYCONTINUE | MB_ICONWARNING: Cancel
                               "dialog_box": 2}             # IDCANCEL, what Esc sends
    assert seen["dialogs"] == [["", "Delete 2 walls?", "No"], ["Links", "Pick one", NO_SAFE_ANSWER],
                               ["", "Continue?", "Cancel"], ["", "Try again?", "Cancel"],
                               ["Dialog_Revit_Test", "", "Cancel"]]
    assert seen["cancelled"] == [True, True, True]
    assert seen["refused"] == ["save", "save as", "synchronization with central"]
    assert seen["after_answer"] == 0                        # detached: nobody answers any more
    # pythonnet 3.0.3 combines a [Flags] enum's values with | into the enum (the stand-in's
    # TaskDialogCommonButtons is an enum.Flag for that reason).
    assert seen["flags"] == ["TaskDialogCommonButtons", 6]
    # An enum member is no int to pythonnet (the stand-in refuses it the same way).
    assert seen["enum_answer"] == ["TypeError: No method matches given arguments for "
                                   "DialogBoxShowingEventArgs.OverrideResult: (<class 'Autodesk.Revit.UI.ExternalEventRequest'>)"]
