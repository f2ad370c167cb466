import pytest

from paracore.llm.base import (
    CancelToken,
    Model,
    ModelError,
    ModelRequest,
    ResponseComplete,
    TextDelta,
    final_response,
)
from paracore.llm.resilience import RestartingModel
from paracore.messages import Message, Usage

REQUEST = ModelRequest(system="be brief", messages=[Message.user_text("hi")])


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

    def stream(self, request, cancel):
        self.requests.append(request)
        events, error = self.attempts.pop(0)
        try:
            for event in events:
                yield event
            if error is not None:
                raise error
        finally:
            self.closed += 1


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


def broken(message="connection reset", retryable=True, retry_after=None):
    return ModelError(message, retryable, retry_after=retry_after, provider="fake")


def test_a_stream_that_completes_passes_through_untouched():
    inner = FlakyModel(([TextDelta(text="he"), TextDelta(text="llo"), complete("hello")], None))
    model = RestartingModel(inner)
    events = list(model.stream(REQUEST, CancelToken()))
    assert [type(e).__name__ for e in events] == ["TextDelta", "TextDelta", "ResponseComplete"]
    assert model.restarts == 0 and inner.closed == 1


def test_a_stream_that_breaks_before_completing_is_sent_again():
    restarts = []
    inner = FlakyModel(([TextDelta(text="partial")], broken("the connection dropped")),
                       ([TextDelta(text="whole")], broken("chunk timeout")),
                       ([TextDelta(text="answer"), complete("answer")], None))
    model = RestartingModel(inner, max_restarts=2, on_restart=restarts.append)
    cancel = RecordingCancel()
    events = list(model.stream(REQUEST, cancel))
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["partial", "whole", "answer"]
    assert isinstance(events[-1], ResponseComplete) and events[-1].message.text == "answer"
    assert restarts == ["the connection dropped", "chunk timeout"]
    assert model.restarts == 2
    assert inner.requests == [REQUEST, REQUEST, REQUEST]  # the very same request, whole
    assert cancel.waits == [1.0, 2.0]  # backing off
    assert inner.closed == 3


def test_it_gives_up_after_max_restarts_with_the_last_error():
    inner = FlakyModel(([], broken("one")), ([], broken("two")), ([], broken("three")))
    model = RestartingModel(inner, max_restarts=2, base_delay=0)
    with pytest.raises(ModelError, match="three") as caught:
        list(model.stream(REQUEST, CancelToken()))
    assert caught.value.retryable
    assert len(inner.requests) == 3 and model.restarts == 2


def test_zero_restarts_means_pass_through():
    inner = FlakyModel(([], broken("once")))
    with pytest.raises(ModelError, match="once"):
        list(RestartingModel(inner, max_restarts=0).stream(REQUEST, CancelToken()))
    with pytest.raises(ValueError):
        RestartingModel(inner, max_restarts=-1)


def test_errors_that_retrying_cannot_fix_pass_through_at_once():
    inner = FlakyModel(([TextDelta(text="x")], broken("Anthropic rejected the API key (401).", retryable=False)))
    restarts = []
    model = RestartingModel(inner, on_restart=restarts.append)
    with pytest.raises(ModelError, match="rejected the API key"):
        list(model.stream(REQUEST, CancelToken()))
    assert restarts == [] and len(inner.requests) == 1


def test_other_exceptions_pass_through():
    inner = FlakyModel(([], KeyError("bug in the adapter")))
    with pytest.raises(KeyError):
        list(RestartingModel(inner).stream(REQUEST, CancelToken()))
    assert len(inner.requests) == 1


def test_a_cancelled_stream_is_not_restarted():
    inner = FlakyModel(([TextDelta(text="so far"), complete("so far", stop_reason="cancelled")], None))
    events = list(RestartingModel(inner).stream(REQUEST, CancelToken()))
    assert events[-1].stop_reason == "cancelled" and len(inner.requests) == 1


def test_an_error_after_the_user_cancelled_is_not_restarted():
    cancel = CancelToken()
    cancel.cancel()
    inner = FlakyModel(([], broken("reset while closing")))
    with pytest.raises(ModelError):
        list(RestartingModel(inner).stream(REQUEST, cancel))
    assert len(inner.requests) == 1


def test_a_cancel_during_the_pause_completes_as_cancelled():
    inner = FlakyModel(([TextDelta(text="partial")], broken()), ([complete()], None))
    model = RestartingModel(inner)
    events = list(model.stream(REQUEST, RecordingCancel(cancel_on_wait=True)))
    last = events[-1]
    assert isinstance(last, ResponseComplete) and last.stop_reason == "cancelled"
    assert last.message.parts == [] and last.usage == Usage()
    assert last.provider == "fake" and last.model == "fake-1"
    assert len(inner.requests) == 1


def test_the_providers_retry_after_is_honoured_and_capped():
    inner = FlakyModel(([], broken(retry_after=7.5)), ([], broken(retry_after=600)), ([complete()], None))
    cancel = RecordingCancel()
    final_response(RestartingModel(inner).stream(REQUEST, cancel))
    assert cancel.waits == [7.5, 30.0]


def test_an_error_raised_when_the_stream_is_opened_is_retried_too():
    class FailsToOpen(FlakyModel):
        def stream(self, request, cancel):
            if not self.requests:
                self.requests.append(request)
                raise broken("could not connect")
            return super().stream(request, cancel)

    inner = FailsToOpen(([complete("ok")], None))
    response = final_response(RestartingModel(inner, base_delay=0).stream(REQUEST, CancelToken()))
    assert response.message.text == "ok"


def test_a_consumer_that_stops_early_closes_the_inner_stream():
    inner = FlakyModel(([TextDelta(text="a"), TextDelta(text="b"), complete()], None))
    stream = RestartingModel(inner).stream(REQUEST, CancelToken())
    next(stream)
    stream.close()
    assert inner.closed == 1


def test_it_is_a_model():
    inner = FlakyModel()
    model = RestartingModel(inner)
    assert isinstance(model, Model)
    assert model.name == "fake-1" and model.provider == "fake"
    assert "max_restarts=2" in repr(model)
