"""What startup.py does inside Revit, one guarded step at a time.

startup.py is a thin caller: ``run(__revit__)``. pyRevit runs it at Revit's start and again on
every pyRevit reload, on Revit's main thread, in API context, with ``__revit__`` a
UIApplication (pyRevitAssemblyBuilder's SessionManagerService / pyrevit.loader.sessionmgr).

The steps, in order:

1. ``bridge``            create the ExternalEvent bridge (must happen here, in API context);
2. ``document_changed``  Paracore's one DocumentChanged handler (``document_events``): the undo
                         ledger follows the undo list, deleted elements leave working sets. Once
                         per process: Revit may give a new Application wrapper per read, which
                         nothing tells apart from the last, so nothing subscribes it per step;
3. ``document_sessions`` DocumentOpened / DocumentClosing / DocumentClosed / ViewActivated keep
                         one session per open document and the active one (``session_events``);
4. ``open_documents``    documents already open (a pyRevit reload) get their sessions, restored;
5. ``pane``              register the chat's dockable pane, once per Revit process;
6. ``mcp_listener``      listen on loopback for ``paracore mcp`` and write this Revit's instance
                         file (``mcp_startup``; the setting ``mcp_listener`` turns it off).

Nothing here may break Revit's start: each step runs guarded; a failure is written to the
startup log (``<user data dir>/logs/startup.log``) and recorded in ``host_state`` for Doctor,
and the next step runs anyway. A reload finds the bridge, the subscriptions and the pane of
the first run in ``host_state`` (one interpreter per Revit process) and keeps them.
"""
from __future__ import annotations

import logging
import logging.handlers
import os
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paracore.app.revit import mcp_startup, pane
from paracore.core.paths import data_dir
from paracore.core.settings import load_settings
from paracore.hosts.revit import document_events, host_state, session_events
from paracore.hosts.revit.bridge import Bridge

log = logging.getLogger("paracore.startup")

LOG_NAME = "startup.log"
_HANDLER_TAG = "paracore_startup_handler"


class Skipped(Exception):
    """A step that does not apply here; its message says why (recorded as "skipped")."""


Step = Callable[[Any], str]


# -- the steps -----------------------------------------------------------------------------------

def create_bridge(uiapp) -> str:
    state = host_state.state()
    bridge = state.bridge
    if bridge is not None and not getattr(bridge, "_closed", False):
        return "kept the bridge created earlier in this Revit session"
    state.bridge = Bridge(uiapp)
    return "ExternalEvent bridge created in API context"


def subscribe_document_changed(uiapp) -> str:
    state = host_state.state()
    if "document_changed" in state.subscriptions:
        return "already subscribed"
    document_events.subscribe(uiapp.Application)
    state.subscriptions.add("document_changed")
    return "DocumentChanged feeds the undo ledger and prunes deleted elements from working sets"


def subscribe_document_sessions(uiapp) -> str:
    state = host_state.state()
    if "document_sessions" in state.subscriptions:
        return "already subscribed"
    session_events.subscribe(uiapp)
    state.subscriptions.add("document_sessions")
    return "DocumentOpened, DocumentClosing, DocumentClosed and ViewActivated follow the open documents"


def adopt_open_documents(uiapp) -> str:
    count = session_events.adopt_open_documents(uiapp)
    if count == 0:
        return "no document open yet"
    return f"{count} open document(s) have their sessions"


def register_pane(uiapp) -> str:
    return pane.register(uiapp)


def start_mcp_listener(uiapp) -> str:
    state = host_state.state()
    if state.mcp is not None:
        return f"kept the listener started earlier in this Revit session (port {state.mcp.listener.port})"
    if not load_settings().mcp_listener:
        raise Skipped("turned off in the settings (mcp_listener)")
    if state.bridge is None:
        raise RuntimeError("no ExternalEvent bridge: MCP calls could not reach Revit")
    running = mcp_startup.start(uiapp, state.bridge, pump=mcp_startup.revit_pump())
    state.mcp = running
    mcp_startup.stop_with_revit(uiapp, running)
    return f"listening on {' and '.join(running.listener.hosts)}, port {running.listener.port}"


STEPS: tuple[tuple[str, Step], ...] = (
    ("bridge", create_bridge),
    ("document_changed", subscribe_document_changed),
    ("document_sessions", subscribe_document_sessions),
    ("open_documents", adopt_open_documents),
    ("pane", register_pane),
    ("mcp_listener", start_mcp_listener),
)

# What the user can do when a step failed (Doctor shows it next to the error).
ADVICE = {
    "bridge": "The chat cannot reach Revit; the Chat button retries when clicked.",
    "document_changed": ("Deleted elements may stay in the working set until you clear it; Undo last turn "
                         "has nothing to undo."),
    "document_sessions": "Switching documents may not switch the chat; reopen the chat after switching.",
    "open_documents": "Open a view of your document to start its session.",
    "pane": "The dockable pane is unavailable; the Chat button opens a window instead.",
    "mcp_listener": "MCP clients (paracore mcp) cannot reach this Revit; the chat is not affected.",
}


# -- running them --------------------------------------------------------------------------------

def run(uiapp, *, steps: tuple[tuple[str, Step], ...] = STEPS, log_dir: str | os.PathLike | None = None
        ) -> host_state.HostState:
    """Run every step against ``uiapp`` on the main thread; never raises (failures are recorded)."""
    state = host_state.state()
    try:
        state.startups += 1
        state.log_path = str(configure_logging(log_dir))
        log.info("Paracore startup #%d (pid %d)", state.startups, os.getpid())
    except Exception:  # noqa: BLE001 - no log file: the steps still run and record their outcome
        pass
    for name, step in steps:
        run_step(state, name, step, uiapp)
    failed = [s.name for s in state.failures()]
    try:
        log.info("Paracore startup done%s", f"; failed: {', '.join(failed)}" if failed else "")
    except Exception:  # noqa: BLE001
        pass
    return state


def run_step(state: host_state.HostState, name: str, step: Step, uiapp) -> host_state.StepRecord:
    """One guarded step: its outcome is logged and recorded, its exception never escapes."""
    started = time.perf_counter()
    try:
        detail = step(uiapp)
    except Skipped as reason:
        record = state.record(name, "skipped", str(reason))
    except Exception as error:  # noqa: BLE001 - the reason this module exists
        record = state.record(name, "failed", ADVICE.get(name, "See the startup log."),
                              f"{type(error).__name__}: {error}")
        try:
            log.error("Startup step %s failed:\n%s", name, traceback.format_exc())
        except Exception:  # noqa: BLE001
            pass
        return record
    else:
        record = state.record(name, "ok", str(detail or ""))
    try:
        log.info("%-18s %s (%.0f ms) %s", name, record.outcome, (time.perf_counter() - started) * 1000,
                 record.detail)
    except Exception:  # noqa: BLE001
        pass
    return record


# -- the log file --------------------------------------------------------------------------------

def log_directory() -> Path:
    """``<user data dir>/logs``: Paracore's data directory (``PARACORE_DATA_DIR`` overrides it),
    else %LOCALAPPDATA%/Paracore, else the temp folder."""
    try:
        return Path(data_dir()) / "logs"
    except Exception:  # noqa: BLE001 - platformdirs missing (not vendored yet): still log somewhere
        base = os.environ.get("LOCALAPPDATA") or tempfile.gettempdir()
        return Path(base) / "Paracore" / "logs"


def configure_logging(log_dir: str | os.PathLike | None = None) -> Path:
    """Send the "paracore" loggers, and background output, to ``startup.log`` (rotating,
    512 kB × 3). Idempotent: a pyRevit reload runs it again.

    pyRevit points ``sys.stdout``/``stderr`` at the output window of whichever script ran last,
    so a log file is the only reliable record of what happens at startup and in event handlers.
    """
    folder = Path(log_dir) if log_dir is not None else log_directory()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG_NAME
    logger = logging.getLogger("paracore")
    handler = _tagged_handler(logger, path) or _new_handler(logger, path)
    if logger.level == logging.NOTSET or logger.level > logging.INFO:
        logger.setLevel(logging.INFO)
    route_background_output(handler)
    return path


def _tagged_handler(logger: logging.Logger, path: Path):
    """Paracore's handler already on ``logger`` for ``path`` (one for another path is dropped)."""
    for handler in list(logger.handlers):
        if getattr(handler, _HANDLER_TAG, False):
            if Path(getattr(handler, "baseFilename", "")) == path.resolve():
                return handler
            logger.removeHandler(handler)
            handler.close()
    return None


def _new_handler(logger: logging.Logger, path: Path) -> logging.Handler:
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=512 * 1024, backupCount=2, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.setLevel(logging.INFO)
    setattr(handler, _HANDLER_TAG, True)
    logger.addHandler(handler)
    return handler


def route_background_output(handler: logging.Handler) -> None:
    """Whatever Python would print to ``sys.stderr`` from a background thread goes to ``handler``.

    Three ways output reaches stderr with nobody asking: ``logging.lastResort`` (a record on a
    logger without handlers), ``warnings`` (shown on stderr), and ``threading.excepthook`` (an
    uncaught exception in a thread: the agent's worker, an SDK's). In pyRevit stderr is the last
    script's output window, which pops up with text from nowhere. The root logger is left alone:
    the interpreter is shared with every other extension and their handlers are theirs.
    """
    logging.lastResort = handler
    logging.captureWarnings(True)
    warning_logger = logging.getLogger("py.warnings")
    _replace_tagged(warning_logger, handler)
    warning_logger.propagate = False  # printed nowhere else: the root logger may print to stderr
    if not getattr(threading.excepthook, _HANDLER_TAG, False):
        threading.excepthook = _log_thread_exception


def _replace_tagged(logger: logging.Logger, handler: logging.Handler) -> None:
    for old in list(logger.handlers):
        if getattr(old, _HANDLER_TAG, False) and old is not handler:
            logger.removeHandler(old)
    if handler not in logger.handlers:
        logger.addHandler(handler)


def _log_thread_exception(args) -> None:
    """``threading.excepthook``: an uncaught exception in a thread, into the log file."""
    if args.exc_type is SystemExit:
        return
    name = args.thread.name if args.thread is not None else "a thread"
    logging.getLogger("paracore.threads").error(
        "Uncaught exception in %s", name, exc_info=(args.exc_type, args.exc_value, args.exc_traceback))


setattr(_log_thread_exception, _HANDLER_TAG, True)
