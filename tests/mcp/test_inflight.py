"""A call in flight hands its events to the server's loop: the final answer always gets through,
however long the call waits unread (a 2026-07-28 call parked for its client's retry), and the
heartbeats meanwhile do not pile up."""
import time

import anyio

from paracore.mcp.backend import CallResult
from paracore.mcp.inflight import UNREAD_PROGRESS, CallInFlight, Done, Progressed


def test_a_long_unread_call_keeps_a_few_heartbeats_and_its_answer():
    async def main():
        def slow(progress, cancel):
            time.sleep(1.0)  # 200 heartbeats at 5 ms, none read meanwhile
            return CallResult("done")

        call = CallInFlight(slow, timeout=5, heartbeat=0.005)
        call.start()
        await anyio.sleep(1.3)  # the call is over; nothing was read yet
        items = []
        while not items or not isinstance(items[-1], Done):
            with anyio.fail_after(5):
                items.append(await call.next())
        return items

    items = anyio.run(main)
    assert items[-1] == Done(CallResult("done"))
    assert 1 <= sum(isinstance(item, Progressed) for item in items) <= UNREAD_PROGRESS
