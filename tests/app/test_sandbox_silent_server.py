"""`paracore sandbox` against a server that accepts the request and never answers, as a user
meets it: the wait is bounded by the first-byte timeout (a setting), each retry is printed as it
happens, Ctrl-C stops the turn within a second and gives the prompt back, and Ctrl-C at the
prompt leaves without a traceback. A child process, a loopback server, real signals."""
from __future__ import annotations

import contextlib
import json
import queue
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from paracore.app import terminal_chat
from paracore.core import events as ev
from test_sandbox_cli import ROOT, child_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT, which Windows does not have")


class SilentServer:
    """Accepts connections on 127.0.0.1 and reads what comes, never answering. Bounded: it stops
    after ``deadline`` seconds or when the test leaves the ``with`` block."""

    def __init__(self, deadline: float = 60.0):
        self.deadline = deadline
        self.connections = 0
        self._stop = threading.Event()
        self._socket = socket.create_server(("127.0.0.1", 0))
        self._socket.settimeout(0.1)
        self.port = self._socket.getsockname()[1]
        self._open: list[socket.socket] = []

    def __enter__(self):
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        return self

    def _serve(self):
        ends = time.monotonic() + self.deadline
        while not self._stop.is_set() and time.monotonic() < ends:
            try:
                connection, _ = self._socket.accept()
            except TimeoutError:
                continue
            self.connections += 1
            self._open.append(connection)  # held open, never answered

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(5)
        for connection in self._open:
            connection.close()
        self._socket.close()


class Terminal:
    """The child's stdout, read line by line on a thread, with the time each line arrived."""

    def __init__(self, process: subprocess.Popen):
        self.process = process
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put((time.monotonic(), line))
        self.lines.put((time.monotonic(), None))

    def wait_for(self, words: str, timeout: float) -> float:
        """The moment a line holding ``words`` arrived; fails after ``timeout`` seconds."""
        ends = time.monotonic() + timeout
        while time.monotonic() < ends:
            try:
                at, line = self.lines.get(timeout=max(ends - time.monotonic(), 0.01))
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if words in line:
                return at
        pytest.fail(f"{words!r} did not appear in {timeout} s; the screen so far:\n{''.join(self.seen)}")


@contextlib.contextmanager
def chatting(tmp_path, port: int, first_byte_timeout: float):
    """The sandbox, started on the silent server with ``first_byte_timeout``, its banner shown and
    a message sent: (the child, its screen). Killed on the way out if it is still running."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({
        "provider": "openai-compatible", "base_url": f"http://127.0.0.1:{port}/v1", "model": "silent",
        "limits": {"first_byte_timeout": first_byte_timeout}}), encoding="utf-8")
    # Ctrl-C's default, as in a terminal, even when this test runs in a background job that ignores it.
    child = subprocess.Popen([sys.executable, "-u", "-m", "paracore", "sandbox"], cwd=ROOT, env=child_env(tmp_path),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             encoding="utf-8", preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        screen = Terminal(child)
        screen.wait_for("Type /help", timeout=30)
        child.stdin.write("Create a wall\n")
        child.stdin.flush()
        yield child, screen
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert "Traceback" not in "".join(screen.seen)


def test_a_silent_server_is_retried_visibly_and_ctrl_c_stops_the_turn_then_leaves(tmp_path):
    with SilentServer() as server, chatting(tmp_path, server.port, first_byte_timeout=1.0) as (child, screen):
        sent = time.monotonic()
        retry_at = screen.wait_for("No answer from the model server in 1 s. Trying again in 1 s "
                                   "(attempt 2 of 4).", timeout=10)
        assert retry_at - sent < 5  # the setting bounds the wait, not the HTTP client's 60 s

        child.send_signal(signal.SIGINT)
        interrupted = time.monotonic()
        screen.wait_for("(stopping…)", timeout=5)
        prompt_at = screen.wait_for("session:", timeout=5)  # the turn's usage line: the turn is over
        assert prompt_at - interrupted < 1.0, prompt_at - interrupted

        time.sleep(0.3)  # at the prompt again
        child.send_signal(signal.SIGINT)
        screen.wait_for("Trace:", timeout=5)  # a clean exit names the session's trace
        assert child.wait(timeout=10) == 0
        assert server.connections == 1  # Ctrl-C came in the pause before the retry: it was never sent
    output = "".join(screen.seen)
    assert "KeyboardInterrupt" not in output, output
    assert output.count("Trying again") == 1, output


def test_ctrl_c_while_the_request_waits_on_the_silent_server_gives_the_prompt_back_within_a_second(tmp_path):
    with SilentServer() as server, chatting(tmp_path, server.port, first_byte_timeout=60.0) as (child, screen):
        ends = time.monotonic() + 10
        while server.connections == 0 and time.monotonic() < ends:
            time.sleep(0.05)
        assert server.connections == 1, "the request never reached the server"
        time.sleep(0.5)  # the request is in flight, its answer never coming

        child.send_signal(signal.SIGINT)
        interrupted = time.monotonic()
        prompt_at = screen.wait_for("session:", timeout=5)
        assert prompt_at - interrupted < 1.0, prompt_at - interrupted
        child.stdin.write("/quit\n")
        child.stdin.flush()
        assert child.wait(timeout=10) == 0


# -- the waiting line, in process ----------------------------------------------------------------------


class FakeTerminal:
    def __init__(self, tty: bool):
        self.text = ""
        self.tty = tty

    def write(self, text):
        self.text += text

    def flush(self):
        pass

    def isatty(self):
        return self.tty


def test_the_waiting_line_counts_the_seconds_until_the_model_answers_and_then_goes():
    now = [100.0]
    out = FakeTerminal(tty=True)
    line = terminal_chat.WaitingLine(out, clock=lambda: now[0])
    line.follow(ev.StatusChanged(text=ev.STATUS_THINKING))
    now[0] += 0.5
    line.tick()
    assert out.text == ""  # a model that answers within a second never gets the line
    now[0] += 11.6
    line.tick()
    assert out.text == "\r  … waiting for the model: 12 s (Ctrl-C stops)"
    line.clear()
    assert out.text.endswith("\r\033[K")
    line.follow(ev.TextDelta(text="Hello"))
    now[0] += 5
    out.text = ""
    line.tick()
    assert out.text == ""  # answering: no more waiting line
    line.follow(ev.ModelRetrying(attempt=2, max_attempts=4, reason="No answer", delay_s=1))
    now[0] += 3
    line.tick()
    assert "waiting for the model: 3 s" in out.text  # counted again from the retry


def test_the_waiting_line_is_not_written_into_a_pipe():
    now = [0.0]
    out = FakeTerminal(tty=False)
    line = terminal_chat.WaitingLine(out, clock=lambda: now[0])
    line.follow(ev.StatusChanged(text=ev.STATUS_THINKING))
    now[0] += 30
    line.tick()
    line.clear()
    assert out.text == ""
