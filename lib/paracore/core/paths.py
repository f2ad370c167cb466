"""Where Paracore keeps the user's data (sessions, traces, usage log, MCP instance files)."""
from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_ENV = "PARACORE_DATA_DIR"


def data_dir() -> Path:
    """``PARACORE_DATA_DIR``, or the user's data directory."""
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs  # imported here: the core imports fast, and the override needs no platformdirs

    return Path(platformdirs.user_data_dir("Paracore", appauthor=False))
