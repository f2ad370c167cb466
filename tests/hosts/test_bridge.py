"""The ExternalEvent bridge, against the stand-in host: worker threads get work done on Revit's
main thread, in order, with every outcome (result, exception, refusal, timeout) on its future."""
from __future__ import annotations

import threading

import pytest

from revit_standin import guard

from Autodesk.Revit.DB import ElementId, FilteredElementCollector, Level
from Autodesk.Revit.Exceptions import InvalidOperationException
from paracore.hosts.revit.bridge import Bridge, RevitBusyError, RevitTimeoutError, _BridgeHandler


@pytest.fixture
def host(started_host):
    return started_host


def make_bridge(host, **options) -> Bridge:
    """A Bridge created on the main thread, as startup.py does in Revit."""
    return host.call(lambda: Bridge(host.uiapp, **options))


@pytest.fixture
def bridge(host):
    bridge = make_bridge(host, retry_delay=0.001)
    yield bridge
    host.call(bridge.close)


def on_worker(fn):
    """Run ``fn`` on a fresh worker thread (as the agent loop does); return its result."""
    box = {}

    def target():
        try:
            box["result"] = fn()
        except BaseException as error:  # noqa: BLE001 - re-raised on the test thread
            box["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(10)
    if "error" in box:
        raise box["error"]
    return box["result"]


def block_main_thread(bridge):
    """Occupy the main thread until the returned event is set; returns (started, release)."""
    started, release = threading.Event(), threading.Event()

    def blocker():
        started.set()
        release.wait(10)

    future = bridge.submit(blocker)
    assert started.wait(5)
    return future, release


# -- running on the main thread ------------------------------------------------------------------

def test_submit_from_a_worker_runs_on_the_main_thread(host, bridge):
    future = on_worker(lambda: bridge.submit(threading.get_ident))
    assert future.result(5) == guard.main_thread_id()
    assert future.result(5) != threading.get_ident()


def test_call_returns_the_result_and_passes_arguments_through_submit(host, bridge):
    assert on_worker(lambda: bridge.call(lambda: 6 * 7, timeout=5)) == 42
    assert bridge.submit(lambda a, b: a + b, 2, 3).result(5) == 5


def test_the_uiapp_is_the_one_revit_passes_to_execute(host, bridge):
    assert bridge.call(lambda: bridge.uiapp, timeout=5) is host.uiapp


def test_queued_submits_are_drained_in_order(host, bridge):
    ran: list[int] = []
    blocker, release = block_main_thread(bridge)
    futures = [bridge.submit(ran.append, i) for i in range(5)]
    assert ran == []  # the main thread is busy: everything waits in the queue
    release.set()
    for future in [blocker, *futures]:
        future.result(5)
    assert ran == [0, 1, 2, 3, 4]


def test_each_exception_goes_to_its_own_future_and_never_out_of_execute(host, bridge):
    def fail():
        raise ValueError("no such level")

    failing = bridge.submit(fail)
    after = bridge.submit(lambda: "still runs")
    assert isinstance(failing.exception(5), ValueError)
    assert after.result(5) == "still runs"
    assert host.handler_errors == []  # nothing escaped to "Revit"
    with pytest.raises(ValueError, match="no such level"):
        bridge.call(fail, timeout=5)


def test_the_handler_is_one_module_level_dotnet_type(host, bridge):
    assert _BridgeHandler.__namespace__ == "Paracore.Bridge"
    assert bridge._handler.GetName() == "Paracore bridge"
    second = make_bridge(host)  # a second bridge (extension reload) reuses the same class
    assert type(second._handler) is _BridgeHandler.cls
    host.call(second.close)


# -- Revit says no, or takes too long ------------------------------------------------------------

def test_denied_raises_are_retried(host):
    bridge = make_bridge(host, raise_attempts=4, retry_delay=0.001)
    host.deny_raises = 3
    assert bridge.call(lambda: "ran", timeout=5) == "ran"
    assert host.deny_raises == 0


def test_denied_too_often_fails_the_future_clearly_and_never_runs(host):
    bridge = make_bridge(host, raise_attempts=3, retry_delay=0.001)
    ran = []
    host.deny_raises = 5
    future = bridge.submit(ran.append, 1)
    error = future.exception(5)
    host.deny_raises = 0
    assert isinstance(error, RevitBusyError)
    assert "ExternalEvent Denied" in str(error) and "try again" in str(error)
    assert bridge.call(lambda: "later requests still work", timeout=5) == "later requests still work"
    assert ran == []  # the refused request was taken out of the queue


def test_call_times_out_with_a_clear_error_and_cancels_the_request(host, bridge):
    ran = []
    blocker, release = block_main_thread(bridge)
    with pytest.raises(TimeoutError, match=r"Revit did not run the request within 0.2 s; it may be busy") as raised:
        on_worker(lambda: bridge.call(lambda: ran.append("late"), timeout=0.2))
    assert isinstance(raised.value, RevitTimeoutError)  # withdrawn: the agent may say "Not run"
    release.set()
    blocker.result(5)
    assert bridge.call(lambda: "next", timeout=5) == "next"
    assert ran == []  # the timed-out request did not change anything later


def test_call_on_the_main_thread_refuses_instead_of_deadlocking(host, bridge):
    with pytest.raises(RuntimeError, match="wait for itself"):
        host.call(lambda: bridge.call(lambda: 1, timeout=1))


def test_close_fails_the_requests_still_queued(host):
    bridge = make_bridge(host)
    release = threading.Event()

    def close_when_released():  # close() is an API call (ExternalEvent.Dispose): main thread
        release.wait(10)
        bridge.close()

    closer = bridge.submit(close_when_released)
    queued = bridge.submit(lambda: "never")
    release.set()
    closer.result(5)
    assert isinstance(queued.exception(5), RuntimeError)
    with pytest.raises(RuntimeError, match="bridge is closed"):
        bridge.submit(lambda: None)


# -- the main-thread rule ------------------------------------------------------------------------

def test_revit_from_a_worker_fails_but_through_the_bridge_works(host, bridge):
    doc = host.call(host.new_document)

    def count_levels():
        return FilteredElementCollector(doc).OfClass(Level).GetElementCount()

    with pytest.raises(InvalidOperationException, match="outside Revit's main thread"):
        on_worker(count_levels)
    with pytest.raises(InvalidOperationException):
        on_worker(lambda: doc.GetElement(ElementId(1)))
    assert on_worker(lambda: bridge.call(count_levels, timeout=5)) == 2


# -- a request queued while the event is still pending -------------------------------------------

def test_a_request_queued_as_a_drain_ends_runs_without_waiting_for_its_timeout(host, bridge):
    """The drain has found the queue empty; before Execute returns, another thread queues a request
    and its Raise answers Pending (Revit may report the event pending until Execute returns). The
    bridge raises again after the drain, so the request runs now, not at its timeout."""
    late, queued = {}, threading.Event()
    original_drain = type(bridge)._drain
    real_raise = bridge._event.Raise

    def queue_late_request():
        from Autodesk.Revit.UI import ExternalEventRequest
        bridge._event.Raise = lambda: ExternalEventRequest.Pending  # the event still looks pending
        late["future"] = on_worker(lambda: bridge.submit(lambda: "late request ran"))
        bridge._event.Raise = real_raise
        queued.set()

    def drain_then_race(self, uiapp):
        original_drain(self, uiapp)
        if "future" not in late:
            queue_late_request()

    bridge._drain = drain_then_race.__get__(bridge)
    try:
        assert bridge.submit(lambda: "first").result(5) == "first"
        assert queued.wait(5)
        assert late["future"].result(2) == "late request ran"
    finally:
        del bridge._drain
