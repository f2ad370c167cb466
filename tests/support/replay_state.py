"""Play a replay in process and read the model it leaves, before the sandbox closes: what a
replay's test asserts is then re-read from the model, not only taken from the tools' words."""
from __future__ import annotations

from unittest import mock

from paracore.app import replay as replay_module
from paracore.app.replay import run_replay
from paracore.app.replay_file import load_replay
from paracore.hosts.standin.sandbox import Sandbox


def play_and_read(path, model: str, read, on_event=None) -> tuple[dict, object]:
    """run_replay(path on model); ``read(doc)`` runs on Revit's main thread after the last turn;
    ``on_event`` sees every event of the session (a test acts between turns there, as a user would).
    Returns (the replay's result, what read returned)."""
    seen = {}

    class ReadingSandbox(Sandbox):
        def close(self) -> None:
            if hasattr(self, "doc") and "state" not in seen:
                seen["state"] = self.host.call(lambda: read(self.doc))
            super().close()

    with mock.patch.object(replay_module, "Sandbox", ReadingSandbox):
        result = run_replay(load_replay(path), model=model, trace=False, on_event=on_event)
    return result, seen.get("state")
