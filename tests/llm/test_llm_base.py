"""The model interface: cancel tokens, errors that never show keys, stream event types."""
import threading
import time

import pytest
from pydantic import ValidationError

from paracore.llm.base import (
    CancelToken,
    Cancelled,
    ModelError,
    ModelRequest,
    ResponseComplete,
    TextDelta,
    final_response,
    is_retryable_status,
    redact_secrets,
)
from paracore.core.messages import Message, Usage


def test_cancel_token_starts_clear_and_cancels_once_set():
    token = CancelToken()
    assert not token.cancelled
    token.raise_if_cancelled()
    token.cancel()
    assert token.cancelled
    with pytest.raises(Cancelled):
        token.raise_if_cancelled()


def test_cancel_token_wait_wakes_up_on_cancel_from_another_thread():
    token = CancelToken()
    threading.Timer(0.01, token.cancel).start()
    started = time.monotonic()
    assert token.wait(5) is True
    assert time.monotonic() - started < 2
    assert CancelToken().wait(0) is False


@pytest.mark.parametrize(
    "text, secret",
    [
        ("401: invalid x-api-key sk-ant-api03-AbCdEfGh_1234", "sk-ant-api03-AbCdEfGh_1234"),
        ("Incorrect API key provided: sk-proj-abcdefghijklmnopqrstuvwx", "sk-proj-abcdefghijklmnopqrstuvwx"),
        ("GET https://generativelanguage.googleapis.com/v1beta/models?key=AIzaSyD-abcdefghijklmnopqrstu&alt=sse", "AIzaSyD"),
        ("Authorization: Bearer abc.def.ghi123", "abc.def.ghi123"),
        ('{"x-api-key": "plainsecret"}', "plainsecret"),
        ("x-goog-api-key: anothersecret", "anothersecret"),
    ],
)
def test_model_error_messages_never_contain_keys(text, secret):
    error = ModelError(text, retryable=False)
    assert secret not in str(error)
    assert "[REDACTED]" in str(error)


def test_model_error_scrubs_the_adapters_own_key_whatever_its_shape():
    error = ModelError("proxy said: token=lm-studio-7 rejected", True, status_code=401, secrets=["lm-studio-7"])
    assert "lm-studio-7" not in str(error)
    assert (error.retryable, error.status_code) == (True, 401)


def test_redaction_leaves_ordinary_sentences_alone():
    text = "Invalid API key: check the key in Paracore Settings."
    assert redact_secrets(text) == text


@pytest.mark.parametrize("status, retryable", [(400, False), (401, False), (404, False), (408, True),
                                               (429, True), (500, True), (503, True), (529, True)])
def test_retryable_statuses(status, retryable):
    assert is_retryable_status(status) is retryable


def test_response_complete_holds_an_assistant_message():
    with pytest.raises(ValidationError, match="must be an assistant message"):
        ResponseComplete(message=Message.user_text("x"), usage=Usage(), stop_reason="end_turn", provider="p", model="m")


def test_final_response_returns_the_last_event_or_says_the_adapter_is_broken():
    complete = ResponseComplete(message=Message.assistant_text("hi"), usage=Usage(), stop_reason="end_turn",
                                provider="p", model="m", raw_stop_reason="stop")
    assert final_response([TextDelta(text="hi"), complete]) is complete
    with pytest.raises(ModelError, match="ended without a ResponseComplete"):
        final_response([TextDelta(text="hi")])


def test_model_request_defaults():
    request = ModelRequest(system="s", messages=[Message.user_text("hi")])
    assert request.tools == [] and request.max_output_tokens is None
