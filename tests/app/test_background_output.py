"""Output from background threads goes to Paracore's log file, never to the output window of the
last script pyRevit ran (pyRevit points sys.stderr there): logging's last resort, warnings and
uncaught exceptions in threads."""
from __future__ import annotations

import logging
import threading
import warnings

import pytest

from paracore.app.revit import startup_tasks


@pytest.fixture
def log_dir(tmp_path):
    saved = (logging.lastResort, threading.excepthook, list(logging.getLogger("py.warnings").handlers),
             list(logging.getLogger("paracore").handlers), warnings.showwarning)
    yield tmp_path
    logging.lastResort, threading.excepthook = saved[0], saved[1]
    logging.captureWarnings(False)
    warnings.showwarning = saved[4]
    logging.getLogger("py.warnings").propagate = True
    for name, handlers in (("py.warnings", saved[2]), ("paracore", saved[3])):
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            if handler not in handlers:
                logger.removeHandler(handler)
                handler.close()


def _log_text(folder) -> str:
    return (folder / startup_tasks.LOG_NAME).read_text(encoding="utf-8")


def test_a_thread_that_raises_is_logged_not_printed(log_dir, capfd):
    startup_tasks.configure_logging(log_dir)
    thread = threading.Thread(target=lambda: 1 / 0, name="agent-turn")
    thread.start()
    thread.join()
    assert "ZeroDivisionError" in _log_text(log_dir) and "agent-turn" in _log_text(log_dir)
    assert "ZeroDivisionError" not in capfd.readouterr().err


def test_warnings_and_handlerless_loggers_go_to_the_log_file(log_dir, capfd):
    startup_tasks.configure_logging(log_dir)
    warnings.warn("an SDK is deprecated", DeprecationWarning, stacklevel=1)
    orphan = logging.getLogger("another.extension.without.handlers")
    orphan.propagate = False
    orphan.warning("nobody configured me")
    text = _log_text(log_dir)
    assert "an SDK is deprecated" in text and "nobody configured me" in text
    assert capfd.readouterr().err == ""


def test_routing_twice_stacks_nothing(log_dir):
    startup_tasks.configure_logging(log_dir)
    hook = threading.excepthook
    startup_tasks.configure_logging(log_dir)
    assert threading.excepthook is hook
    for name in ("py.warnings", "paracore"):
        ours = [h for h in logging.getLogger(name).handlers if getattr(h, startup_tasks._HANDLER_TAG, False)]
        assert len(ours) == 1, name
