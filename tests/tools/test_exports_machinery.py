"""The exports' shared machinery (paracore.tools.exports): where files go and what they are called,
what is chosen for export, and an export as a job of pieces (one failing, a cancel between them).
The PDF tool's own tests are tests/tools/test_exports_pdf.py; progress and cancel through the agent,
tests/tools/test_exports_progress.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from paracore.tools.exports import destination as destination_module
from paracore.tools.exports.destination import MAX_PATH, Destination, destination, safe_stem
from paracore.tools.exports.export_job import ExportJob, Piece
from paracore.tools.framework.jobs import run_inline
from paracore.tools.framework.results import ToolError


# --- names ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, safe", [
    ('A101: Plans/Sections', "A101_ Plans_Sections"),
    ('What? <draft> "1"|2*', "What_ _draft_ _1__2_"),
    ("Trailing dots...  ", "Trailing dots"),
    ("tab\there", "tab_here"),
    ("CON", "_CON"), ("con", "_con"), ("Nul.txt", "_Nul.txt"), ("COM1", "_COM1"), ("lpt9", "_lpt9"),
    ("CONSOLE", "CONSOLE"), ("COM10", "COM10"),
    ("...", "export"), ("", "export"),
])
def test_names_are_made_safe_for_windows(name, safe):
    assert safe_stem(name) == safe


def test_an_existing_file_is_never_overwritten_and_the_case_is_ignored_as_windows_does(tmp_path):
    (tmp_path / "a101 - plans.pdf").write_bytes(b"old")
    place = Destination(tmp_path, "here")
    first = place.claim("A101 - Plans", ".pdf")
    second = place.claim("A101 - Plans", ".pdf")
    assert (first.name, second.name) == ("A101 - Plans (2).pdf", "A101 - Plans (3).pdf")
    assert (tmp_path / "a101 - plans.pdf").read_bytes() == b"old"
    assert place.renamed == [("A101 - Plans.pdf", "A101 - Plans (2).pdf"), ("A101 - Plans.pdf", "A101 - Plans (3).pdf")]


def test_a_name_too_long_for_windows_is_shortened_to_fit_260_characters(tmp_path):
    folder = tmp_path / ("f" * (200 - len(str(tmp_path))))
    folder.mkdir()
    place = Destination(folder, "here")
    path = place.claim("A101 - " + "Very long sheet name " * 10, ".pdf")
    assert len(str(path)) == MAX_PATH
    assert path.suffix == ".pdf" and path.name.startswith("A101 - Very long")
    numbered = place.claim("A101 - " + "Very long sheet name " * 10, ".pdf")
    assert len(str(numbered)) <= MAX_PATH and numbered.stem.endswith(" (2)")
    assert place.shortened


def test_characters_windows_counts_twice_are_counted_twice_against_260(tmp_path):
    """Windows counts a path in UTF-16 code units: an emoji is two of them."""
    folder = tmp_path / ("f" * (200 - len(str(tmp_path))))
    folder.mkdir()
    place = Destination(folder, "here")
    path = place.claim("A101 - " + "🏠" * 40, ".pdf")
    assert len(str(path).encode("utf-16-le")) // 2 <= MAX_PATH, len(str(path).encode("utf-16-le")) // 2
    assert path.name.startswith("A101 - 🏠") and path.suffix == ".pdf" and place.shortened
    assert set(path.stem.removeprefix("A101 - ")) == {"🏠"}     # cut between characters, never inside one


def test_a_folder_too_long_for_any_name_is_refused_saying_why(tmp_path):
    folder = tmp_path
    while len(str(folder)) < MAX_PATH - 8:
        folder = folder / ("d" * min(200, MAX_PATH - 8 - len(str(folder))))
    folder.mkdir(parents=True, exist_ok=True)
    with pytest.raises(ToolError, match="260"):
        Destination(folder, "here").claim("A101", ".pdf")


# --- the folder -----------------------------------------------------------------------------------


class _Doc:
    def __init__(self, path: str):
        self.PathName = path


_MODEL_FOLDER = destination_module._model_folder   # read at collection, before tests/conftest.py's fixture


@pytest.fixture
def real_defaults(monkeypatch, tmp_path):
    """The defaults as in Revit (tests/conftest.py keeps exports in a scratch folder)."""
    from paracore.tools.framework import export_files
    monkeypatch.setattr(destination_module, "_model_folder", _MODEL_FOLDER)
    monkeypatch.setattr(export_files, "documents_folder", lambda: tmp_path / "Documents")
    return tmp_path


def test_the_default_folder_is_beside_the_model(real_defaults):
    models = real_defaults / "Projects"
    models.mkdir()
    place = destination(_Doc(str(models / "Tower.rvt")), None)
    assert place.folder == models and place.where == "the model's folder"


def test_a_model_never_saved_or_in_the_cloud_exports_to_documents(real_defaults):
    for path in ("", "BIM 360://Project/Tower.rvt"):
        place = destination(_Doc(path), None)
        assert place.folder == real_defaults / "Documents" and place.folder.is_dir()


def test_the_setting_comes_before_the_model_folder_and_must_exist(real_defaults):
    chosen = real_defaults / "Issued"
    chosen.mkdir()
    assert destination(_Doc(""), None, str(chosen)).folder == chosen
    with pytest.raises(ToolError, match="does not exist"):
        destination(_Doc(""), None, str(real_defaults / "missing"))


def test_a_relative_folder_is_made_inside_the_default_and_cannot_leave_it(real_defaults):
    place = destination(_Doc(""), "Issue 3/PDF")
    assert place.folder == (real_defaults / "Documents" / "Issue 3" / "PDF").resolve() and place.folder.is_dir()
    with pytest.raises(ToolError, match="leads out"):
        destination(_Doc(""), "../../elsewhere")


def test_an_absolute_folder_must_exist(real_defaults):
    assert destination(_Doc(""), str(real_defaults)).folder == real_defaults
    with pytest.raises(ToolError, match="does not exist"):
        destination(_Doc(""), str(real_defaults / "nowhere"))


def test_a_folder_that_is_a_file_is_refused_as_a_file_not_as_missing(real_defaults):
    a_file = real_defaults / "Issue 3.pdf"
    a_file.write_bytes(b"%PDF-1.7")
    with pytest.raises(ToolError, match=r"Issue 3\.pdf is a file, not a folder\. Give an existing folder"):
        destination(_Doc(""), str(a_file))
    with pytest.raises(ToolError, match="is a file, not a folder"):
        destination(_Doc(""), None, str(a_file))
    assert a_file.read_bytes() == b"%PDF-1.7"


# --- the job --------------------------------------------------------------------------------------


def _writer(folder: Path, place: Destination, name: str, fails: bool = False):
    def export():
        path = place.claim(name, ".txt")
        if fails:
            raise RuntimeError(f"Revit could not print {name}")
        path.write_text(name)
        return [path]
    return export


def test_one_failing_piece_is_named_and_the_others_are_written(tmp_path):
    place = Destination(tmp_path, "the test folder")
    pieces = [Piece(n, _writer(tmp_path, place, n, fails=(n == "A102"))) for n in ("A101", "A102", "A103")]
    text = run_inline(ExportJob("TXT", "sheet", pieces, place))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["A101.txt", "A103.txt"]
    assert text.startswith(f"Exported 2 of 3 sheets to TXT in {tmp_path} (the test folder): 2 files, 8 bytes.")
    assert "- A101.txt (4 bytes)" in text and "- A103.txt (4 bytes)" in text
    assert "Failed (1), the others were exported: A102: RuntimeError: Revit could not print A102" in text


def test_a_cancel_between_pieces_keeps_what_was_written_and_says_what_was_not(tmp_path):
    place = Destination(tmp_path, "the test folder")
    pieces = [Piece(f"A10{n}", _writer(tmp_path, place, f"A10{n}")) for n in range(1, 6)]
    job = ExportJob("TXT", "sheet", pieces, place)
    text = run_inline(job, cancelled=lambda: job.done >= 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["A101.txt", "A102.txt"]
    assert "Stopped by the user after 2 of 5: 3 sheets not exported; the files listed are kept." in text


def test_the_result_lists_a_bounded_number_of_files(tmp_path):
    place = Destination(tmp_path, "the test folder")
    pieces = [Piece(f"S{n:03d}", _writer(tmp_path, place, f"S{n:03d}")) for n in range(60)]
    text = run_inline(ExportJob("TXT", "sheet", pieces, place))
    assert "60 files" in text and "- … and 48 more in that folder" in text
    assert len(text) < 1200
