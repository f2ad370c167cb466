"""A duplex sandbox with a few sheets made through the agent (create_sheet: A101, A102, …), for the
tests of long exports that run a sheet per main-thread request."""
from __future__ import annotations

from contextlib import contextmanager

from paracore.agent import ApprovalPolicy
from paracore.core import events as ev
from paracore.core.messages import ToolCallPart
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.scripted import ScriptedModel


@contextmanager
def duplex_with_sheets(count: int):
    with Sandbox("duplex") as sandbox:
        agent = sandbox.agent(ScriptedModel([]), policy=ApprovalPolicy("never"))
        calls = [ToolCallPart(id=f"s{n}", name="create_sheet", arguments={"number": f"A10{n}", "name": f"Sheet {n}"})
                 for n in range(1, count + 1)]
        finished = [e for e in agent.run_calls(calls) if isinstance(e, ev.ToolCallFinished)]
        assert not any(e.is_error for e in finished), [e.content for e in finished]
        yield sandbox
