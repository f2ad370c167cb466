"""export_cad through the agent as in Revit (the sandbox): each sheet announced on the tool card
before it is exported, as a main-thread request of its own, and a cancel between sheets keeping the
DXF files already written (the machinery's own tests: tests/tools/test_exports_progress.py)."""
from __future__ import annotations

import pytest

from paracore.agent import ApprovalPolicy
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.llm.base import CancelToken
from paracore.llm.scripted import ScriptedModel
from sheets_sandbox import duplex_with_sheets

SHEETS = 3


@pytest.fixture(scope="module")
def box():
    with duplex_with_sheets(SHEETS) as sandbox:
        yield sandbox


def _export(box, folder, cancel=None, on_event=None):
    agent = box.agent(ScriptedModel([]), policy=ApprovalPolicy("never"))
    arguments = {"format": "dxf", "sheets": ["all"], "folder": str(folder)}
    call = ToolCallPart(id="e", name="export_cad", arguments=arguments)
    events = []
    for event in agent.run_calls([call], cancel):
        events.append(event)
        if on_event is not None:
            on_event(event)
    return events


def test_each_sheet_is_announced_and_written_to_its_own_dxf(box, tmp_path):
    events = _export(box, tmp_path)
    progress = [e.text for e in events if isinstance(e, ev.ToolProgress)]
    assert progress == [f"{n}/{SHEETS}: A10{n} - Sheet {n}" for n in range(1, SHEETS + 1)]
    [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    assert finished.content.startswith(f"Exported {SHEETS} of {SHEETS} sheets to DXF"), finished.content
    assert sorted(p.name for p in tmp_path.glob("*.dxf")) == [f"A10{n} - Sheet {n}.dxf" for n in range(1, SHEETS + 1)]


def test_a_cancel_between_sheets_keeps_the_files_written(box, tmp_path):
    cancel = CancelToken()

    def stop_after_the_first(event):
        if isinstance(event, ev.ToolProgress) and event.done == 1:
            cancel.cancel()
    events = _export(box, tmp_path, cancel, stop_after_the_first)
    [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
    assert [p.name for p in tmp_path.glob("*.dxf")] == ["A101 - Sheet 1.dxf"]
    assert f"Stopped by the user after 1 of {SHEETS}" in finished.content
