"""The real-CLR worker process (started by lane.Worker): pythonnet 3.0.3 on Mono, the
Revit-shaped assembly, Paracore's ``lib/`` on the path and no stand-in.

Protocol: one JSON request per stdin line, ``{"scenario": name, "arguments": {...}}`` (a function of
scenarios.py, or ``module:function`` for another module of this folder); one JSON
reply per line on the original stdout, ``{"ok": true, "result": ...}`` or ``{"ok": false,
"error": traceback}``. Anything else written to stdout (by Python or by Mono) goes to stderr, so
it cannot corrupt the replies. The thread that reads requests is Revit's main thread.
"""
from __future__ import annotations

import importlib
import json
import os
import sys
import traceback
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _protocol_stream():
    """The real stdout for replies; fd 1 then points at stderr for everything else."""
    replies = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return replies


def _load_clr(assembly: str) -> str:
    # clr_loader warns about Mono older than 6.12 (Debian 12 ships 6.8); the lane works on it.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pythonnet
        pythonnet.load("mono")
    import clr
    clr.AddReference(assembly)
    from System import Environment
    return f"pythonnet {pythonnet_version()} on Mono, CLR {Environment.Version}"


def pythonnet_version() -> str:
    from importlib import metadata
    return metadata.version("pythonnet")


def _isolate_path() -> None:
    """Paracore's lib/ and this folder first; the stand-in never (it would shadow the CLR)."""
    stubs = str(ROOT / "stubs")
    sys.path[:] = [p for p in sys.path if p and Path(p).resolve() != Path(stubs).resolve()]
    sys.path[:0] = [str(ROOT / "lib"), str(HERE)]


def _scenario(name: str):
    """``name`` in scenarios.py, or ``module:name`` in another module of this folder."""
    module, _, function = name.rpartition(":")
    return getattr(importlib.import_module(module or "scenarios"), function)


def main() -> int:
    replies = _protocol_stream()
    _isolate_path()
    runtime = _load_clr(sys.argv[1])
    from ParacoreClrLane import Revit
    Revit.DesignateMainThread()
    import scenarios  # noqa: F401 - imported once the CLR is up, before the first request
    replies.write(json.dumps({"ready": True, "runtime": runtime}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        try:
            result = _scenario(request["scenario"])(**request.get("arguments", {}))
            reply = {"ok": True, "result": result}
        except BaseException:  # noqa: BLE001 - reported to the test, which fails with it
            reply = {"ok": False, "error": traceback.format_exc()}
        replies.write(json.dumps(reply) + "\n")
    return 0


if __name__ == "__main__":
    code = main()
    sys.stderr.flush()
    # pythonnet's shutdown crashes Mono 6.8 (Debian 12's) at exit, after all the work is done and
    # reported; leave without it. Revit never shuts the engine down this way.
    os._exit(code)
