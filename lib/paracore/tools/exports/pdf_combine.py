"""The combined PDF made from the sheets' own PDFs: their pages in order, a bookmark per sheet.

Why: export_pdf exports every sheet alone (the pane shows each sheet, Stop works between sheets,
a sheet Revit fails on is named while the others are kept). Asking Revit for the combined file as
well would export every sheet a second time, doubling a set's time in Revit; so the combined file
is put together here from the pages Revit already wrote, with pypdf (pure Python, a runtime
dependency vendored for Revit: requirements/revit.txt).

``CombinedPdf`` takes each sheet's file as it is written (``add``: its pages are read at once, so
the file can be deleted right after, and the work is spread over the sheets' requests) and
``write`` puts the whole file in place at the end: objects the sheets' files each carried a copy of
(the same font, the same pattern) kept once, written under a temporary name in the scratch folder
first, then moved to its claimed name, so a failure never leaves half a PDF under it.

Bookmarks (the PDF's outline): one per sheet, on its first page, named "{Sheet Number} - {Sheet
Name}" (a view: "Floor Plan: Level 1"). What Revit's own combined PDFs put in their outline is not
documented (PDFExportOptions has no member about bookmarks; docs/REVIT_BEHAVIOUR.md, "Exporting to
PDF"). The file opens with the bookmarks shown (PageMode /UseOutlines). The sheets' own outlines,
if Revit wrote any, are not copied: one entry per sheet is the outline.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from paracore.tools.framework.results import ToolError

MISSING = ("A combined PDF needs the pypdf package, which this Paracore cannot import: run "
           "`python tools/vendor.py` in the Paracore folder (the Doctor lists the packages), then restart "
           "Revit; or export one file per sheet (combine false).")


class CombinedPdf:
    """The pages of the sheets' PDFs, in the order they are added, each sheet bookmarked."""

    def __init__(self) -> None:
        try:
            from pypdf import PdfWriter   # a runtime dependency (vendored), imported where a PDF is combined
        except ImportError:
            raise ToolError(MISSING) from None
        self._writer = PdfWriter()
        self.bookmarks: list[tuple[str, int]] = []      # (title, first page index), in order

    @property
    def sheets(self) -> int:
        return len(self.bookmarks)

    def add(self, path: Path, title: str) -> None:
        """Append the pages of ``path`` (read into memory now) under one bookmark ``title``."""
        first = len(self._writer.pages)
        self._writer.append(str(path), import_outline=False)
        if len(self._writer.pages) == first:
            raise ValueError(f"{path.name} holds no page")
        self.bookmarks.append((title, first))

    def write(self, path: Path, scratch: Path) -> Path:
        """The combined file at ``path``: written in ``scratch`` first, then moved there."""
        for title, first in self.bookmarks:
            self._writer.add_outline_item(title=title, page_number=first)
        self._writer.page_mode = "/UseOutlines"
        # Each sheet's file carries its own copy of what the pages share (fonts, line patterns): one is kept.
        self._writer.compress_identical_objects()
        partial = scratch / "combined.pdf.part"
        try:
            with open(partial, "wb") as file:
                self._writer.write(file)
            shutil.move(os.fspath(partial), os.fspath(path))   # a rename on the same disk
        except BaseException:
            partial.unlink(missing_ok=True)
            path.unlink(missing_ok=True)
            raise
        return path
