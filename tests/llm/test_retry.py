"""The one retry policy (paracore.llm.retry): a request is sent again only when it failed before
its first event; a silent server is given up on after the first-byte timeout; a cancel ends the
stream at once, whatever the attempt is doing."""
import threading
import time

import pytest

from paracore.llm.base import (
    CancelToken,
    Model,
    ModelError,
    ModelRequest,
    ResponseComplete,
    RetryNotice,
    TextDelta,
    final_response,
)
from paracore.llm.retry import DELAY_SCALE_VARIABLE, RetryingModel, RetryPolicy
from paracore.core.messages import Message, Usage

REQUEST = ModelRequest(system="be brief", messages=[Message.user_text("hi")])
FAST = RetryPolicy(base_delay=0.0)
# The pauses as a user waits them: the suite sets PARACORE_RETRY_DELAY_SCALE=0 (tests/conftest.py),
# which every other policy here reads.
UNSCALED = RetryPolicy(wait_scale=1.0)


def complete(text="done", stop_reason="end_turn"):
    return ResponseComplete(message=Message.assistant_text(text), usage=Usage(input_tokens=3, output_tokens=1),
                            stop_reason=stop_reason, provider="fake", model="fake-1")


class FlakyModel:
    """Each call to stream() plays the next attempt: events, then (optionally) an exception."""

    name = "fake-1"
    provider = "fake"

    def __init__(self, *attempts):
        self.attempts = list(attempts)
        self.requests = []
        self.closed = 0
        self.threads = set()

    def stream(self, request, cancel):
        self.requests.append(request)
        self.threads.add(threading.current_thread().name)
        events, error = self.attempts.pop(0)
        try:
            for event in events:
                yield event
            if error is not None:
                raise error
        finally:
            self.closed += 1


class SilentModel:
    """A server that accepted the request and says nothing (until it notices the cancel)."""

    name = "silent-1"
    provider = "openai-compatible"

    def __init__(self, answers_after_cancel=True):
        self.requests = 0
        self.answers_after_cancel = answers_after_cancel
        self.released = threading.Event()

    def stream(self, request, cancel):
        self.requests += 1
        while not cancel.cancelled and not self.released.is_set():
            time.sleep(0.01)
        if not self.answers_after_cancel:  # stuck in a blocking read the cancel cannot reach
            self.released.wait(5)
        yield ResponseComplete(message=Message.assistant_text("so far"), usage=Usage(), stop_reason="cancelled",
                               provider=self.provider, model=self.name)


class RecordingCancel(CancelToken):
    def __init__(self, cancel_on_wait=False):
        super().__init__()
        self.waits = []
        self.cancel_on_wait = cancel_on_wait

    def wait(self, seconds):
        self.waits.append(seconds)
        if self.cancel_on_wait:
            self.cancel()
        return self.cancelled


def broken(message="connection refused", retryable=True, retry_after=None):
    return ModelError(message, retryable, retry_after=retry_after, provider="fake")


def notices(events):
    return [e for e in events if isinstance(e, RetryNotice)]


# -- passing through ------------------------------------------------------------------------------------


def test_a_stream_that_completes_passes_through_untouched_read_on_its_own_thread():
    inner = FlakyModel(([TextDelta(text="he"), TextDelta(text="llo"), complete("hello")], None))
    model = RetryingModel(inner)
    events = list(model.stream(REQUEST, CancelToken()))
    assert [type(e).__name__ for e in events] == ["TextDelta", "TextDelta", "ResponseComplete"]
    assert model.retries == 0 and inner.closed == 1
    assert inner.threads == {"paracore-model-reader"}  # the caller's thread never blocks on the network


def test_it_is_a_model():
    model = RetryingModel(FlakyModel())
    assert isinstance(model, Model)
    assert model.name == "fake-1" and model.provider == "fake"
    assert "RetryPolicy(max_retries=3" in repr(model)


# -- what is retried ---------------------------------------------------------------------------------------


def test_a_request_that_fails_before_its_first_event_is_sent_again_and_announced():
    inner = FlakyModel(([], broken("Could not reach the model server")), ([], broken("overloaded")),
                       ([TextDelta(text="answer"), complete("answer")], None))
    model = RetryingModel(inner, UNSCALED)
    cancel = RecordingCancel()
    events = list(model.stream(REQUEST, cancel))
    assert [(n.attempt, n.max_attempts, n.reason, n.delay_s) for n in notices(events)] == [
        (2, 4, "Could not reach the model server", 1.0), (3, 4, "overloaded", 2.0)]
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["answer"]  # nothing repeated
    assert events[-1].message.text == "answer"
    assert inner.requests == [REQUEST] * 3 and model.retries == 2
    assert cancel.waits == [1.0, 2.0]  # backing off, announced before each pause


def test_the_real_back_off_waits_1_2_and_4_seconds_before_giving_up():
    """The schedule a user waits through, read from the pauses asked of the cancel token (which
    records them and returns at once): nothing sleeps."""
    inner = FlakyModel(*[([], broken(f"failure {n}")) for n in range(1, 5)])
    model = RetryingModel(inner, UNSCALED)
    cancel = RecordingCancel()
    events = []
    with pytest.raises(ModelError, match="failure 4"):
        for event in model.stream(REQUEST, cancel):
            events.append(event)
    assert cancel.waits == [1.0, 2.0, 4.0]
    assert [n.delay_s for n in notices(events)] == [1.0, 2.0, 4.0]
    assert RetryPolicy().max_retries == 3 and RetryPolicy().base_delay == 1.0


def test_the_delay_scale_shortens_the_pause_but_not_the_announced_delay():
    inner = FlakyModel(([], broken()), ([], broken(retry_after=10.0)), ([complete()], None))
    cancel = RecordingCancel()
    events = list(RetryingModel(inner, RetryPolicy(wait_scale=0.25)).stream(REQUEST, cancel))
    assert [n.delay_s for n in notices(events)] == [1.0, 10.0]
    assert cancel.waits == [0.25, 2.5]
    with pytest.raises(ValueError):
        RetryPolicy(wait_scale=-1)


@pytest.mark.parametrize("value, scale", [(None, 1.0), ("", 1.0), ("0", 0.0), ("0.5", 0.5), ("3", 3.0),
                                          ("soon", 1.0), ("-2", 1.0)])
def test_the_delay_scale_is_read_from_the_environment(monkeypatch, value, scale):
    if value is None:
        monkeypatch.delenv(DELAY_SCALE_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(DELAY_SCALE_VARIABLE, value)
    assert RetryPolicy().wait_scale == scale


def test_a_stream_that_breaks_after_its_first_event_is_not_sent_again():
    inner = FlakyModel(([TextDelta(text="partial")], broken("the connection dropped")), ([complete()], None))
    model = RetryingModel(inner)
    with pytest.raises(ModelError, match="the connection dropped") as caught:
        list(model.stream(REQUEST, CancelToken()))
    assert caught.value.retryable  # the user may send the message again
    assert len(inner.requests) == 1 and model.retries == 0


def test_it_gives_up_after_max_retries_with_the_last_error():
    inner = FlakyModel(*[([], broken(f"failure {n}")) for n in range(1, 5)])
    model = RetryingModel(inner, FAST)
    with pytest.raises(ModelError, match="failure 4"):
        list(model.stream(REQUEST, CancelToken()))
    assert len(inner.requests) == 4 and model.retries == 3  # 4 attempts in all, never 4 x 3


def test_zero_retries_means_one_attempt():
    inner = FlakyModel(([], broken("once")))
    with pytest.raises(ModelError, match="once"):
        list(RetryingModel(inner, RetryPolicy(max_retries=0)).stream(REQUEST, CancelToken()))
    with pytest.raises(ValueError):
        RetryPolicy(max_retries=-1)
    with pytest.raises(ValueError):
        RetryPolicy(first_byte_timeout=0)


def test_errors_that_retrying_cannot_fix_pass_through_at_once():
    inner = FlakyModel(([], broken("Anthropic rejected the API key (401).", retryable=False)))
    model = RetryingModel(inner)
    with pytest.raises(ModelError, match="rejected the API key"):
        list(model.stream(REQUEST, CancelToken()))
    assert len(inner.requests) == 1


def test_other_exceptions_pass_through():
    inner = FlakyModel(([], KeyError("bug in the adapter")))
    with pytest.raises(KeyError):
        list(RetryingModel(inner).stream(REQUEST, CancelToken()))
    assert len(inner.requests) == 1


def test_an_error_raised_when_the_stream_is_opened_is_retried_too():
    class FailsToOpen(FlakyModel):
        def stream(self, request, cancel):
            if not self.requests:
                self.requests.append(request)
                raise broken("could not connect")
            return super().stream(request, cancel)

    inner = FailsToOpen(([complete("ok")], None))
    response = final_response(RetryingModel(inner, FAST).stream(REQUEST, CancelToken()))
    assert response.message.text == "ok"


def test_the_providers_retry_after_is_honoured_and_a_longer_one_is_not_waited_for():
    inner = FlakyModel(([], broken(retry_after=7.5)), ([complete()], None))
    cancel = RecordingCancel()
    final_response(RetryingModel(inner, UNSCALED).stream(REQUEST, cancel))
    assert cancel.waits == [7.5]

    inner = FlakyModel(([], broken("rate limited, wait 10 minutes", retry_after=600)))
    cancel = RecordingCancel()
    with pytest.raises(ModelError, match="10 minutes"):
        list(RetryingModel(inner).stream(REQUEST, cancel))
    assert cancel.waits == [] and len(inner.requests) == 1


def test_the_back_off_doubles_up_to_its_cap():
    policy = RetryPolicy(base_delay=1.0, max_delay=3.0)
    assert [policy.delay(broken(), attempt) for attempt in (1, 2, 3, 4)] == [1.0, 2.0, 3.0, 3.0]


# -- a silent server and a cancel -------------------------------------------------------------------------


def test_a_silent_server_is_given_up_on_after_the_first_byte_timeout_and_tried_again():
    inner = SilentModel()
    model = RetryingModel(inner, RetryPolicy(max_retries=1, base_delay=0.0, first_byte_timeout=0.3))
    events = []
    started = time.monotonic()
    with pytest.raises(ModelError, match=r"No answer from the model server in 0.3 s") as caught:
        for event in model.stream(REQUEST, CancelToken()):
            events.append(event)
    assert time.monotonic() - started < 2.0
    assert caught.value.retryable
    assert [n.reason for n in notices(events)] == ["No answer from the model server in 0.3 s"]
    assert inner.requests == 2


def test_a_cancel_ends_the_stream_within_a_second_even_when_the_attempt_is_stuck():
    inner = SilentModel(answers_after_cancel=False)
    cancel = CancelToken()
    threading.Timer(0.2, cancel.cancel).start()
    started = time.monotonic()
    events = list(RetryingModel(inner, RetryPolicy(first_byte_timeout=None)).stream(REQUEST, cancel))
    assert time.monotonic() - started < 1.0
    assert [e.stop_reason for e in events] == ["cancelled"]
    assert events[0].message.parts == [] and events[0].provider == "openai-compatible"
    inner.released.set()


def test_a_cancelled_attempt_hands_back_the_adapters_own_partial_reply():
    inner = SilentModel(answers_after_cancel=True)
    cancel = CancelToken()
    threading.Timer(0.2, cancel.cancel).start()
    events = list(RetryingModel(inner).stream(REQUEST, cancel))
    assert events[-1].stop_reason == "cancelled" and events[-1].message.text == "so far"


def test_an_error_after_the_user_cancelled_is_not_retried():
    cancel = CancelToken()
    cancel.cancel()
    inner = FlakyModel(([], broken("reset while closing")))
    events = list(RetryingModel(inner).stream(REQUEST, cancel))
    assert events[-1].stop_reason == "cancelled" and len(inner.requests) == 1


def test_a_cancel_during_the_pause_completes_as_cancelled():
    inner = FlakyModel(([], broken()), ([complete()], None))
    events = list(RetryingModel(inner).stream(REQUEST, RecordingCancel(cancel_on_wait=True)))
    last = events[-1]
    assert isinstance(last, ResponseComplete) and last.stop_reason == "cancelled"
    assert last.message.parts == [] and last.usage == Usage()
    assert last.provider == "fake" and last.model == "fake-1"
    assert len(inner.requests) == 1


def test_a_consumer_that_stops_early_closes_the_inner_stream():
    inner = FlakyModel(([TextDelta(text="a"), TextDelta(text="b"), complete()], None))
    stream = RetryingModel(inner).stream(REQUEST, CancelToken())
    next(stream)
    stream.close()
    deadline = time.monotonic() + 2
    while inner.closed == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert inner.closed == 1
