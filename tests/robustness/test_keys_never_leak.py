"""API keys never reach a log, a trace, a saved session, the usage log, an event or an error.

Extends tests/llm/test_credentials_never_leak.py (settings, usage log, model_error) to the whole
path a key travels: a distinctive fake key per provider, from the environment or the credential
store (an in-memory keyring backend), goes through the real adapter (``create_model``) to a fake
server (``httpx2.MockTransport``) whose errors echo the key, the Authorization / x-api-key /
x-goog-api-key headers and the URL back. Three turns in the sandbox, traced, behind the retry
policy (``RetryingModel``): one answered, then a 401 and a 500 that is sent again until the policy
gives up. The session is saved, usage is logged, Doctor checks the provider, and logging
is captured at DEBUG for paracore and the SDKs (anthropic, openai, google_genai, httpx, httpx2,
httpcore). The key, or a distinctive piece of it, must be in none of it.
"""
from __future__ import annotations

import io
import json
import logging
import traceback

import httpx2
import pytest

from paracore.core import events as ev
from paracore.llm.base import CancelToken, ModelError, ModelRequest
from paracore.llm.credentials import get_key, store_key
from paracore.llm.pricing import UsageLog
from paracore.llm.providers import create_model
from paracore.llm.retry import RetryingModel, RetryPolicy
from paracore.core.messages import Message
from paracore.core.persistence import SessionStore
from paracore.hosts.standin.sandbox import Sandbox
from paracore.core.settings import Settings, save_settings
from paracore.trace.recorder import TraceRecorder

from _config_support import isolated  # noqa: F401 - fixture: config, data and keyring in tmp_path
from wire_fakes import ENCODERS, SSE_HEADERS, Step, split

SDK_LOGGERS = ("paracore", "anthropic", "openai", "google_genai", "google", "httpx", "httpx2", "httpcore")
CASES = [  # provider, environment variable, key, where it is configured, base URL
    ("anthropic", "ANTHROPIC_API_KEY", "sk-ant-api03-LEAKPROBE-7Qw3Er9Ty2Ui8Op1As6Df4Gh", "environment", None),
    ("anthropic", "ANTHROPIC_API_KEY", "zx-odd-LEAKPROBE-credential-5Tg7Yh2Uj9Ik", "credential store", None),
    ("openai", "OPENAI_API_KEY", "sk-proj-LEAKPROBE-8Hj3Kl5Zx7Cv2Bn9Qw4Er6Ty", "credential store", None),
    ("gemini", "GEMINI_API_KEY", "AIzaSyLEAKPROBE-4Rf6Tg8Yh1Uj3Ik5Ol7P", "environment", None),
    ("openai-compatible", "OPENAI_COMPATIBLE_API_KEY", "lmstudio-LEAKPROBE-9Mn2Bv4Cx6Zl8Kj1", "environment",
     "http://127.0.0.1:9/v1"),
]


class EchoingServer:
    """First request: a short answer. Then errors whose bodies repeat everything secret the
    request carried: the key, the auth headers, the URL (Gemini may put ``?key=`` in it).

    Besides HTTP statuses, ``statuses`` may hold ``"stream_error"`` (a 200 stream that begins to
    answer, then carries the provider's own in-stream error event echoing the key) and
    ``"read_error"`` (a 200 stream that begins to answer, then the read fails with an
    ``httpx2.ReadError`` whose text echoes the key)."""

    def __init__(self, provider: str, key: str, statuses=(200, 401, 500)):
        self.provider, self.key, self.statuses = provider, key, list(statuses)

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        status = self.statuses.pop(0) if self.statuses else 500
        if status == 200:
            data = ENCODERS[self.provider](Step(text="Hello."))
            return httpx2.Response(200, headers=SSE_HEADERS, content=iter(split(data, 64)))
        echoed = {name: request.headers.get(name) for name in ("authorization", "x-api-key", "x-goog-api-key",
                                                               "api-key") if request.headers.get(name)}
        message = f"Invalid key {self.key} in request to {request.url}; headers seen: {json.dumps(echoed)}"
        if status == "stream_error":
            return httpx2.Response(200, headers=SSE_HEADERS,
                                   content=iter(split(self._stream_head() + self._stream_error(message), 64)))
        if status == "read_error":
            return httpx2.Response(200, headers=SSE_HEADERS, stream=_ResetEchoingTheKey(
                split(self._stream_head(), 64), f"connection reset while sending {message}"))
        body = {"error": {"type": "authentication_error" if status == 401 else "api_error", "code": status,
                          "status": "UNAUTHENTICATED" if status == 401 else "INTERNAL", "message": message,
                          "request": {"headers": echoed, "url": str(request.url), "key": self.key}}}
        return httpx2.Response(status, json=body, headers={"x-echo-authorization": echoed.get("authorization", ""),
                                                          "x-echo-key": self.key})

    def _stream_head(self) -> bytes:
        """The first two events of a text answer: the response has begun."""
        separator = b"\r\n\r\n" if self.provider == "gemini" else b"\n\n"
        events = ENCODERS[self.provider](Step(text="Hello there.")).split(separator)
        return b"".join(event + separator for event in events[:2])

    def _stream_error(self, message: str) -> bytes:
        """The provider's documented in-stream error, its message echoing the key."""
        if self.provider == "anthropic":
            data = {"type": "error", "error": {"type": "overloaded_error", "message": message}}
            return f"event: error\ndata: {json.dumps(data)}\n\n".encode()
        if self.provider == "openai":
            data = {"type": "error", "code": "server_error", "message": message, "param": None, "sequence_number": 2}
            return f"event: error\ndata: {json.dumps(data)}\n\n".encode()
        if self.provider == "openai-compatible":
            return f"data: {json.dumps({'error': {'message': message, 'type': 'server_error', 'code': 500}})}\n\n".encode()
        data = {"error": {"code": 503, "message": message, "status": "UNAVAILABLE"}}
        return f"data: {json.dumps(data)}\r\n\r\n".encode()


class _ResetEchoingTheKey(httpx2.SyncByteStream):
    """Delivers ``chunks``, then the read fails with an error whose text echoes the key."""

    def __init__(self, chunks: list[bytes], message: str) -> None:
        self.chunks, self.message = chunks, message

    def __iter__(self):
        yield from self.chunks
        raise httpx2.ReadError(self.message)


def _fragments(key: str) -> list[str]:
    """The key, and a distinctive middle piece of it (a partial leak is a leak)."""
    middle = key[len(key) // 3: len(key) // 3 + 12]
    return [key, middle]


def _chain_text(error: BaseException, *, hidden_context: bool = False) -> str:
    """The error as anything may show it: str, repr, args, attributes and the traceback of the
    chain (``hidden_context``: also a context that ``raise ... from None`` hides from display)."""
    parts, seen, current = [], set(), error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        parts += [str(current), repr(current), repr(getattr(current, "args", ())),
                  repr(vars(current)) if hasattr(current, "__dict__") else ""]
        shown = current.__cause__ or (None if current.__suppress_context__ else current.__context__)
        current = shown or (current.__context__ if hidden_context else None)
    parts.append("".join(traceback.format_exception(error)))
    return "\n".join(parts)


@pytest.mark.parametrize("provider, env, key, where, base_url", CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_a_key_reaches_no_log_trace_session_usage_log_event_or_error(isolated, tmp_path, monkeypatch, caplog,
                                                                     provider, env, key, where, base_url):
    # the key, configured as a user would
    if where == "environment":
        monkeypatch.setenv(env, key)
    else:
        store_key(provider, key)
    assert get_key(provider) == key
    settings = Settings(provider=provider, base_url=base_url, model="test-model" if base_url else None)
    save_settings(settings)
    for name in SDK_LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    caplog.set_level(logging.DEBUG)

    server = EchoingServer(provider, key)
    model = create_model(settings, http_client=httpx2.Client(transport=httpx2.MockTransport(server)))
    texts: list[str] = [repr(model)]

    # 1. the adapter alone: a 401 and a 500 that echo the key
    for status in (401, 500):
        server.statuses = [status]
        with pytest.raises(ModelError) as caught:
            request = ModelRequest(system="s", messages=[Message.user_text("hi")], max_output_tokens=16)
            list(model.stream(request, CancelToken()))
        assert caught.value.status_code == status
        texts.append(_chain_text(caught.value))

    # 2. three traced turns in the sandbox, behind the retry policy: answered, 401, then a 500
    #    sent again (its reason reaches the log, a RetryNotice and a ModelRetrying event) until
    #    the policy gives up
    server.statuses = [200, 401, 500]
    traces = tmp_path / "traces"
    with Sandbox("duplex") as sandbox:
        retrying = RetryingModel(model, RetryPolicy(max_retries=2, base_delay=0.0))
        agent = sandbox.agent(retrying)
        recorder = TraceRecorder(directory=traces, meta={"document": sandbox.doc_title}).attach(agent)
        usage = UsageLog(session="leak-check")
        events = []
        for text in ("Hello?", "Again?", "Once more?"):
            for event in recorder.record_turn(agent.run_turn(text)):
                events.append(event)
                if isinstance(event, ev.UsageReported):
                    usage.record(provider=event.provider, model=event.model, usage=event.usage,
                                 latency_ms=event.latency_ms)
        recorder.close()
        failed = [e for e in events if isinstance(e, ev.TurnFailed)]
        assert len(failed) == 2 and any(isinstance(e, ev.TurnFinished) for e in events)
        assert len([e for e in events if isinstance(e, ev.ModelRetrying)]) == 2 and retrying.retries == 2
        texts += [ev.event_to_json(e) for e in events] + [repr(e) for e in events]
        # 3. the session, saved (a sandbox document is never saved: write the text a save would)
        store = SessionStore(tmp_path / "sessions")
        texts.append(store.dumps(sandbox.session))
        texts.append("\n".join(m.model_dump_json() for m in sandbox.session.history))

    # 4. Doctor checks the provider (whether the server answers is not asked: no network)
    from paracore.app import doctor
    secrets: list[str] = []
    monkeypatch.setattr(doctor, "check_reachable", lambda url, timeout=0: doctor.Check("Provider reachable", "ok", url))
    checks = doctor.check_provider(secrets)
    texts.append(doctor.report_text(checks))
    assert key in secrets  # Doctor knows it, to redact with; it never shows it

    # everything written, logged, raised or emitted
    files = [p for p in tmp_path.rglob("*") if p.is_file()]  # settings, traces, usage log
    assert any(p.suffix == ".jsonl" and p.parent == traces for p in files)
    texts += [p.read_text(encoding="utf-8", errors="replace") for p in files]
    texts.append(caplog.text)
    for record in caplog.records:
        texts += [record.getMessage(), repr(record.args), repr(record.__dict__)]
        if record.exc_info:
            texts.append("".join(traceback.format_exception(*record.exc_info)))
    haystack = "\n".join(texts)
    for fragment in _fragments(key):
        assert fragment not in haystack, _where(haystack, fragment)


def _where(haystack: str, fragment: str) -> str:
    index = haystack.find(fragment)
    return f"the key leaked here: …{haystack[max(0, index - 300): index + 100]!r}…"


@pytest.mark.parametrize("failure", [401, 500, "stream_error", "read_error"])
@pytest.mark.parametrize("provider, env, key, where, base_url", CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_a_model_error_does_not_even_carry_the_sdk_error_that_echoed_the_key(isolated, monkeypatch, provider, env,
                                                                             key, where, base_url, failure):
    """credentials.store_key's rule, for the adapters: the exception that may carry the key is not
    even attached as the context (an error reporter, or ``error.__context__``, would show it).
    Before the stream (401, 500) and while reading it (an in-stream error event, a failed read)."""
    if where == "environment":
        monkeypatch.setenv(env, key)
    else:
        store_key(provider, key)
    server = EchoingServer(provider, key, statuses=[failure])
    model = create_model(Settings(provider=provider, base_url=base_url, model="test-model" if base_url else None),
                         http_client=httpx2.Client(transport=httpx2.MockTransport(server)))
    events = []
    with pytest.raises(ModelError) as caught:
        for event in model.stream(ModelRequest(system="s", messages=[Message.user_text("hi")]), CancelToken()):
            events.append(event)
    if failure in ("stream_error", "read_error"):
        assert caught.value.retryable  # the response had begun: a failure while reading it
    text = _chain_text(caught.value, hidden_context=True)
    for fragment in _fragments(key):
        assert fragment not in text, _where(text, fragment)
    assert caught.value.__context__ is None and caught.value.__cause__ is None


def test_log_records_of_any_logger_are_redacted_once_a_key_is_handed_out(isolated, monkeypatch, caplog):
    """Regression: the anthropic SDK logs response headers at DEBUG; a server echoing the
    Authorization header put the key in the log (credentials.redact_logs)."""
    key = "qq-unusual-LEAKPROBE-only-the-list-knows-3Fz8"
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    assert get_key("anthropic") == key
    caplog.set_level(logging.DEBUG)
    logging.getLogger("anthropic._base_client").debug("HTTP Response: Headers(%r)", {"x-echo": f"Bearer {key}"})
    logging.getLogger("some.other.library").info("key=%s and %s", key, "sk-proj-LEAKPROBE-shaped-like-a-key-000000")
    try:
        raise RuntimeError(f"server said: invalid key {key}")
    except RuntimeError:
        logging.getLogger("httpx2").exception("request failed")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    for record in caplog.records:
        handler.handle(record)
    text = caplog.text + stream.getvalue() + "".join(r.getMessage() for r in caplog.records)
    assert "LEAKPROBE" not in text, text
    assert "request failed" in text and "[REDACTED]" in text
