"""Fixtures shared by the tools' tests."""
from __future__ import annotations

import pytest

from paracore.tools import export_files


@pytest.fixture
def documents(tmp_path, monkeypatch):
    """The user's Documents folder, where exports go by default: a scratch folder per test."""
    folder = tmp_path / "Documents"
    monkeypatch.setattr(export_files, "documents_folder", lambda: folder)
    return folder
