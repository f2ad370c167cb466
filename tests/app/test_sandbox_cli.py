"""`paracore sandbox` as a user runs it: a child process chatting, through the real adapter and
SDK, with a loopback HTTP server on 127.0.0.1 that replays the provider's streaming wire format.

The child gets its own config and data folders (PARACORE_CONFIG_DIR, PARACORE_DATA_DIR under
tmp_path), no provider variables or keys from the developer's environment, and a null
credential store. Its stdin is the user: a message, "y" to approve the write, "/quit".
"""
from __future__ import annotations

import http.server
import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from command_here import paracore_here
from paracore.core.messages import Usage, validate_history
from paracore.app.replay_file import load_replay
from paracore.hosts.standin.sandbox import Sandbox
from wire_fakes import Call, Step, anthropic_stream, chat_stream, split

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "lib" / "paracore" / "demos" / "seed000.json"
ANTHROPIC_KEY = "sk-ant-test-123"

# Variables that could hand the child a real key or endpoint, or route loopback through a proxy.
_SCRUBBED_PREFIXES = ("ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "PARACORE_")
_PROXIES = {"http_proxy", "https_proxy", "all_proxy"}


# --------------------------------------------------------------------------------------------
# The loopback provider
# --------------------------------------------------------------------------------------------

class LoopbackProvider:
    """Serves ``replies`` (SSE bodies) to the first POSTs it receives, one each, on 127.0.0.1;
    records each request's path, headers and body. A request beyond the script gets a 400 (not
    retried: the chat shows the failure at once). Bounded: it serves at most two requests more
    than the script, stops after ``deadline`` seconds or when the test leaves the ``with``
    block, and then closes its socket, so a late client is refused instead of left waiting."""

    EXTRA = 2

    def __init__(self, replies: list[bytes], deadline: float = 120.0) -> None:
        self.replies = list(replies)
        self.requests: list[dict] = []
        self._stop = threading.Event()
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # one request per connection; the body ends when it closes

            def do_POST(self):  # noqa: N802 - http.server's naming
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                owner.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                                       "body": body})
                number = len(owner.requests)
                if number > len(owner.replies):
                    error = {"type": "error", "error": {"type": "invalid_request_error",
                                                        "message": f"unexpected request {number}"}}
                    self.send_response(400)
                    self.send_header("content-type", "application/json")
                    self.end_headers()
                    self.wfile.write(json.dumps(error).encode())
                    return
                data = owner.replies[number - 1]
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                for piece in split(data, 61):
                    self.wfile.write(piece)
                    self.wfile.flush()

            def log_message(self, *args):  # keep the test output clean
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.server.timeout = 0.1
        self.port = self.server.server_address[1]
        self._deadline = time.monotonic() + deadline
        self._thread = threading.Thread(target=self._serve, name="loopback-provider", daemon=True)

    def _serve(self) -> None:
        try:
            while (len(self.requests) < len(self.replies) + self.EXTRA and not self._stop.is_set()
                   and time.monotonic() < self._deadline):
                self.server.handle_request()
        finally:
            self.server.server_close()

    def __enter__(self) -> LoopbackProvider:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(5)
        self.server.server_close()

    @property
    def bodies(self) -> list[dict]:
        return [json.loads(r["body"]) for r in self.requests]


# --------------------------------------------------------------------------------------------
# Running the command
# --------------------------------------------------------------------------------------------

def child_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(_SCRUBBED_PREFIXES) and k.lower() not in _PROXIES}
    env.update({
        "PARACORE_CONFIG_DIR": str(tmp_path / "config"),
        "PARACORE_DATA_DIR": str(tmp_path / "data"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",  # never the developer's stored keys
        "NO_PROXY": "127.0.0.1,localhost",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "lib"), os.environ.get("PYTHONPATH")])),
    })
    # The stand-in's building cache the suite shares (tests/conftest.py): no setting of the
    # developer's, and without it the command would read the IFC file into the user's own cache.
    if "PARACORE_STANDIN_CACHE" in os.environ:
        env["PARACORE_STANDIN_CACHE"] = os.environ["PARACORE_STANDIN_CACHE"]
    env.update(extra)
    return env


def sandbox(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paracore", "sandbox", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, encoding="utf-8", timeout=60)


def usage_log(tmp_path: Path) -> list[str]:
    path = tmp_path / "data" / "usage.jsonl"
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


# The demo's first turn, with the tokens each response reports.
TURN = load_replay(DEMO).turns[0]
WALL_CALL = TURN.steps[0].tool_calls[0]
STEPS = [
    Step(calls=(Call(WALL_CALL.id, WALL_CALL.name, dict(WALL_CALL.arguments)),),
         usage=Usage(input_tokens=1500, output_tokens=40, cache_write_tokens=2000)),
    Step(text=TURN.reply, usage=Usage(input_tokens=300, output_tokens=25, cache_read_tokens=1200)),
]
STDIN = f"{TURN.user}\ny\n/quit\n"


def check_conversation(done: subprocess.CompletedProcess) -> None:
    """What every provider's run shows: the tool card, the approval, the reply, the working set."""
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"  ┌─ {WALL_CALL.name}(" in out
    assert "Allow? [y]es / [n]o / [a]lways" in out
    assert f"  └─ ✓ {WALL_CALL.name} (" in out and "Created a curved wall" in out
    assert f"Paracore: {TURN.reply}\n" in out
    assert "[Working set: 1 Wall]" in out
    assert out.index("└─ ✓") < out.index(TURN.reply) < out.index("tokens ")
    assert "The turn failed" not in out


def check_usage_log(tmp_path: Path, provider: str, model: str, usages: list[Usage], secrets=()) -> list[dict]:
    lines = usage_log(tmp_path)
    assert len(lines) == len(usages), "one line per request"
    entries = [json.loads(line) for line in lines]
    for entry, usage in zip(entries, usages):
        assert (entry["provider"], entry["model"]) == (provider, model)
        assert Usage(**{k: entry[k] for k in Usage.model_fields}) == usage
    text = "\n".join(lines)
    for secret in secrets:
        assert secret not in text
    assert not any("key" in name.lower() for entry in entries for name in entry)
    return entries


# --------------------------------------------------------------------------------------------
# The tests
# --------------------------------------------------------------------------------------------

def test_openai_compatible_server_on_loopback(tmp_path):
    with LoopbackProvider([chat_stream(step, "test-model") for step in STEPS]) as server:
        base_url = f"http://127.0.0.1:{server.port}/v1"
        done = sandbox("--provider", "openai-compatible", "--base-url", base_url, "--model", "test-model",
                       env=child_env(tmp_path), stdin=STDIN)

    check_conversation(done)
    assert "openai-compatible test-model" in done.stdout
    # After the turn: tokens (prompt = 1500 + 300 + 1200 cached), cache reads, output (40 + 25)
    # and the cost, $0 for a model served on this machine; the session so far is the same turn.
    turn = "tokens 3.0k in (1.2k cached) · 65 out · ~$0"
    assert f"{TURN.reply}\n  {turn} · session: {turn}\n" in done.stdout

    assert [r["path"] for r in server.requests] == ["/v1/chat/completions"] * 2
    assert all(r["headers"].get("authorization") == "Bearer not-needed" for r in server.requests)
    [call] = server.bodies[1]["messages"][-2]["tool_calls"]
    assert server.bodies[1]["messages"][-1]["tool_call_id"] == call["id"] == WALL_CALL.id

    usages = [s.usage.model_copy(update={"cache_write_tokens": 0}) for s in STEPS]  # no cache writes on this wire
    entries = check_usage_log(tmp_path, "openai-compatible", "test-model", usages)
    assert [e["cost_usd"] for e in entries] == [0, 0]
    assert not (tmp_path / "config" / "settings.json").exists()  # flags are not saved
    # The session is traced like a chat in Revit: the file is named at the end.
    [trace] = (tmp_path / "data" / "traces").glob("*.jsonl")
    assert f"Trace: {trace} (paracore trace latest)" in done.stdout
    assert '"source":"sandbox"' in trace.read_text(encoding="utf-8")


def test_anthropic_through_its_environment_variables(tmp_path):
    with LoopbackProvider([anthropic_stream(step) for step in STEPS]) as server:
        env = child_env(tmp_path, ANTHROPIC_API_KEY=ANTHROPIC_KEY,
                        ANTHROPIC_BASE_URL=f"http://127.0.0.1:{server.port}")
        done = sandbox("--provider", "anthropic", env=env, stdin=STDIN)

    check_conversation(done)
    model = "claude-sonnet-4-6"  # the default model (providers.DEFAULT_MODELS)
    assert f"anthropic {model}" in done.stdout
    # Prompt = 1500 + 2000 written + 300 + 1200 read. At $3 / $15 / $3.75 write / $0.30 read per
    # million: (4500 + 600 + 7500 + 900 + 375 + 360) / 1e6 = $0.014235.
    turn = "tokens 5.0k in (1.2k cached) · 65 out · ~$0.014"
    assert f"{TURN.reply}\n  {turn} · session: {turn}\n" in done.stdout

    # The SDK's standard variables were honoured: the key went to the loopback server, in its
    # header (x-api-key, or a bearer token as this SDK release sends it).
    assert [r["path"] for r in server.requests] == ["/v1/messages"] * 2
    assert all(ANTHROPIC_KEY in (r["headers"].get("x-api-key"), r["headers"].get("authorization", "")[7:])
               for r in server.requests)
    second = server.bodies[1]["messages"]
    assert second[-2]["content"][-1]["id"] == second[-1]["content"][0]["tool_use_id"] == WALL_CALL.id

    entries = check_usage_log(tmp_path, "anthropic", model, [s.usage for s in STEPS], secrets=[ANTHROPIC_KEY])
    assert [e["cost_usd"] for e in entries] == [0.0126, 0.001635]
    assert ANTHROPIC_KEY not in done.stdout and ANTHROPIC_KEY not in done.stderr


@pytest.mark.parametrize("args, says", [
    ((), ["No provider is selected", "--provider"]),
    (("--provider", "anthropic"), ["no API key was found", "ANTHROPIC_API_KEY"]),
    (("--provider", "openai-compatible"), ["needs a base URL", "--base-url"]),
])
def test_without_a_configured_provider_it_says_how_to_configure_one(tmp_path, monkeypatch, args, says):
    if "anthropic" in args:
        # A process of its own, whose keyring has no keys (child_env): the key is looked for there.
        done = sandbox(*args, env=child_env(tmp_path), stdin="hello\n/quit\n")
    else:
        # Refused before any key is looked for: run here, in the environment a child would get.
        for name in [n for n in os.environ if n.startswith(_SCRUBBED_PREFIXES) or n.lower() in _PROXIES]:
            monkeypatch.delenv(name)
        monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))
        monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path / "data"))
        done = paracore_here("sandbox", *args)

    assert done.returncode == 2
    for words in says:
        assert words in done.stderr
    assert "Traceback" not in done.stderr
    assert usage_log(tmp_path) == []
    assert str(tmp_path / "config" / "settings.json") in done.stderr  # where to configure, outside Revit


def test_a_server_that_refuses_the_connection_is_reported_once_per_retry_in_plain_words(tmp_path):
    """Four attempts in all (the one retry policy; the SDK no longer retries underneath)."""
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # closed again: nothing listens there
    # The pauses (1 s, 2 s, 4 s, as announced) are not slept here: the retry schedule has tests of its own.
    done = sandbox("--provider", "openai-compatible", "--base-url", f"http://127.0.0.1:{port}/v1", "--model", "m",
                   env=child_env(tmp_path, PARACORE_RETRY_DELAY_SCALE="0"), stdin="hello\n/quit\n")
    text = done.stdout + done.stderr
    retries = [line for line in text.splitlines() if "Trying again" in line]
    assert [line.split("(")[-1] for line in retries] == ["attempt 2 of 4).", "attempt 3 of 4).", "attempt 4 of 4)."], text
    assert "Trying again in 1 s (attempt 2 of 4)" in retries[0]  # each retry said once, as it happens
    assert "Could not reach the model server" in text and "The model server:" not in text
    assert "broke off" not in text and "connection lost" not in text and ".." not in text.replace("...", "")


# --------------------------------------------------------------------------------------------
# The approval prompt (in process, with the scripted model)
# --------------------------------------------------------------------------------------------

class Keyboard:
    """The user at the terminal: answers prompts in turn, noting what the screen showed then."""

    def __init__(self, out: io.StringIO, *answers):
        self.out = out
        self.answers = list(answers)
        self.screens: list[tuple[str, str]] = []

    def __call__(self, prompt: str) -> str:
        self.screens.append((prompt, self.out.getvalue()))
        answer = self.answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer


def chat(*answers) -> tuple[int, str, Keyboard, Sandbox]:
    from paracore.llm.scripted import ScriptedModel
    from paracore.app.terminal_chat import run_chat

    out = io.StringIO()
    keyboard = Keyboard(out, TURN.user, *answers, "/quit")
    with Sandbox("duplex") as box:
        status = run_chat(box, ScriptedModel(list(TURN.steps)), ask=keyboard, out=out)
        box.history = list(box.session.history)
        box.summary = box.session.working_set.summary()
    return status, out.getvalue(), keyboard, box


def test_the_approval_is_asked_after_the_tool_card_and_its_description_once():
    status, out, keyboard, box = chat("y")

    assert status == 0
    prompt, screen = keyboard.screens[1]
    assert prompt.strip().startswith("│  Allow?")
    # Everything the agent said before asking is on the screen when the question comes: the
    # tool card, then what the call will do, shown once, then its preview (docs/SAFETY.md).
    *_, card, approval, preview = screen.rstrip().splitlines()
    assert card.startswith("  ┌─ create_curved_wall(") and approval.startswith("  │  approval: ")
    assert preview == "  │    Creates 1: 1 wall"
    description = approval[len("  │  approval: "):]
    assert len(description) > 10 and out.count(description) == 1
    assert box.summary == "1 Wall" and TURN.reply in out


def test_ctrl_c_at_the_approval_prompt_cancels_the_turn():
    status, out, keyboard, box = chat(KeyboardInterrupt())

    assert status == 0 and [p for p, _ in keyboard.screens][-1].strip() == "You>"
    assert "└─ ⊘ create_curved_wall" in out  # not run
    assert box.summary != "1 Wall" and TURN.reply not in out
    assert validate_history(box.history) == []


def test_slash_commands_are_answered_by_the_sandbox_never_sent_to_the_model(tmp_path):
    with LoopbackProvider([chat_stream(step, "test-model") for step in STEPS]) as server:
        base_url = f"http://127.0.0.1:{server.port}/v1"
        done = sandbox("--provider", "openai-compatible", "--base-url", base_url, "--model", "test-model",
                       env=child_env(tmp_path), stdin="/help\n/model\n/frobnicate\n/clear\n/quit\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "/help" in out and "/clear" in out and "start over" in out
    assert f"openai-compatible · model test-model · server: {base_url}" in out
    assert "Unknown command /frobnicate." in out
    assert "Started over" in out
    assert server.requests == []  # nothing reached the model


def test_the_sandbox_says_at_start_which_standards_failed_to_parse(tmp_path, monkeypatch):
    """Outside Revit no Settings window shows the standards that failed: the sandbox says so first."""
    from paracore.app.terminal_chat import run_chat
    from paracore.core.settings import Settings
    from paracore.llm.scripted import ScriptedModel

    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))
    share = tmp_path / "share"
    share.mkdir()
    (share / "walls.md").write_text("---\nname: walls\ndescription: y\n---\n", encoding="utf-8")
    out = io.StringIO()
    with Sandbox("duplex") as box:
        run_chat(box, ScriptedModel([]), ask=Keyboard(out, "/quit"), out=out, trace=False,
                 settings=Settings(standards_folder=str(share)))
        run_chat(box, ScriptedModel([]), ask=Keyboard(out, "/quit"), out=out, trace=False,
                 settings=Settings(standards_folder=str(tmp_path / "offline")))
    first, second = out.getvalue().split("Paracore sandbox · ")[1:]
    assert (f"Firm standards: Not loaded: {share / 'walls.md'}, line 4: the standard has no text after its front "
            "matter.") in first
    assert f"{tmp_path / 'offline'}: the standards folder of the settings cannot be read" in second
