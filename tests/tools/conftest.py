"""Fixtures shared by the tools' tests."""
from __future__ import annotations

import pytest

from duplex_revit import DuplexRevit
from paracore.tools.framework import export_files


@pytest.fixture
def documents(tmp_path, monkeypatch):
    """The user's Documents folder, where exports go by default: a scratch folder per test."""
    folder = tmp_path / "Documents"
    monkeypatch.setattr(export_files, "documents_folder", lambda: folder)
    return folder


@pytest.fixture
def duplex(documents):
    """The duplex on the stand-in, with exports going to ``documents``."""
    revit = DuplexRevit("duplex")
    yield revit
    revit.close()
