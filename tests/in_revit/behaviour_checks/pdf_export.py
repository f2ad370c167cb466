"""In-Revit checks of PDF export, Document.Export(folder, viewIds, PDFExportOptions) (Revit 2022+):
what it returns and writes, what it refuses, and what Autodesk does not document (a combined
export without FileName, an existing file of the same name, an export inside an open transaction,
the names of separate files without a naming rule): the rows of docs/REVIT_BEHAVIOUR.md, "Exporting
to PDF". Each check exports a sheet it makes (rolled back with the check's group) into a
temporary folder it deletes.
"""
import os
import shutil
import tempfile
from pathlib import Path

from Autodesk.Revit import DB

from kit import expect, transaction
from paracore.revit.dotnet import element_id_list
from paracore.revit.context import id_value
from paracore.tools.exports.pdf_files import page_count


def _sheet(doc, number):
    """A new sheet with the model's first title block (none: a sheet without one)."""
    blocks = list(DB.FilteredElementCollector(doc).OfClass(DB.FamilySymbol).OfCategory(DB.BuiltInCategory.OST_TitleBlocks))
    with transaction(doc, "Paracore check: a sheet to export"):
        sheet = DB.ViewSheet.Create(doc, blocks[0].Id if blocks else DB.ElementId.InvalidElementId)
        sheet.SheetNumber = number
        sheet.Name = "PDF check"
    return sheet


def _options(name, combine=True):
    options = DB.PDFExportOptions()
    options.FileName = name
    options.Combine = combine
    return options


def _ids(*views):
    return element_id_list([id_value(v.Id) for v in views])


class _Folder:
    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="paracore-pdf-check-")
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)


def export_writes_one_file_of_a_page_per_sheet_and_returns_true(scratch):
    doc = scratch.doc
    one, two = _sheet(doc, "PDFCHECK1"), _sheet(doc, "PDFCHECK2")
    with _Folder() as folder:
        done = doc.Export(folder, _ids(one, two), _options("Check"))
        written = sorted(os.listdir(folder))
        pages = page_count(Path(folder, "Check.pdf")) if written == ["Check.pdf"] else None
    expect(done is True, f"Export returned {done!r} for two sheets")
    expect(written == ["Check.pdf"], f"a combined export named 'Check' wrote {written}")
    expect(pages in (2, None), f"the combined PDF of two sheets has {pages} pages")
    return f"True; Check.pdf, {pages if pages is not None else 'unreadable'} pages"


def export_refuses_an_empty_list_duplicates_and_a_missing_folder(scratch):
    doc = scratch.doc
    sheet = _sheet(doc, "PDFCHECK3")
    with _Folder() as folder:
        empty = _refusal(lambda: doc.Export(folder, element_id_list([]), _options("Empty")))
        twice = _refusal(lambda: doc.Export(folder, _ids(sheet, sheet), _options("Twice")))
        missing = _refusal(lambda: doc.Export(os.path.join(folder, "missing"), _ids(sheet), _options("Missing")))
        left = os.listdir(folder)
    expect(empty == "ArgumentException", f"an empty list gave {empty or 'no error'}")
    expect(twice == "ArgumentException", f"a sheet listed twice gave {twice or 'no error'}")
    expect(missing == "InvalidPathArgumentException", f"a missing folder gave {missing or 'no error'}")
    expect(left == [], f"the refused exports left {left}")
    return "empty, duplicate: ArgumentException; missing folder: InvalidPathArgumentException"


def combined_export_without_a_file_name_is_refused(scratch):
    """Not documented: the stand-in refuses it (ArgumentException); Paracore always names the file."""
    doc = scratch.doc
    sheet = _sheet(doc, "PDFCHECK4")
    with _Folder() as folder:
        refusal = _refusal(lambda: doc.Export(folder, _ids(sheet), _options("")))
        left = os.listdir(folder)
    expect(refusal == "ArgumentException", f"a combined export without FileName gave {refusal or 'no error'}, "
                                           f"and wrote {left}")
    return "ArgumentException"


def an_existing_file_is_replaced_without_a_word(scratch):
    """Not documented: export_pdf claims a new name before each export because of it."""
    doc = scratch.doc
    sheet = _sheet(doc, "PDFCHECK5")
    with _Folder() as folder:
        path = os.path.join(folder, "Same.pdf")
        with open(path, "wb") as file:
            file.write(b"an older file")
        refusal = _refusal(lambda: doc.Export(folder, _ids(sheet), _options("Same")))
        written = sorted(os.listdir(folder))
        with open(path, "rb") as file:
            replaced = file.read() != b"an older file"
    expect(refusal is None, f"exporting over an existing file gave {refusal}")
    expect(written == ["Same.pdf"] and replaced, f"exporting over 'Same.pdf' left {written}, replaced: {replaced}")
    return "replaced"


def export_inside_an_open_transaction(scratch):
    """Not documented: export_pdf exports with no transaction open (a read), so either way works
    for it; the stand-in allows it."""
    doc = scratch.doc
    sheet = _sheet(doc, "PDFCHECK6")
    step = DB.Transaction(doc, "Paracore check: PDF inside a transaction")
    with _Folder() as folder:
        step.Start()
        try:
            refusal = _refusal(lambda: doc.Export(folder, _ids(sheet), _options("Inside")))
        finally:
            step.RollBack()
        written = os.listdir(folder)
    expect(refusal is None and written == ["Inside.pdf"], f"inside a transaction: {refusal or 'no error'}, wrote {written}")
    return "exported"


def separate_files_are_named_number_dash_name(scratch):
    """Not documented: the names Revit gives separate files with the options' default naming rule."""
    doc = scratch.doc
    sheet = _sheet(doc, "PDFCHECK7")
    with _Folder() as folder:
        doc.Export(folder, _ids(sheet), _options("", combine=False))
        written = sorted(os.listdir(folder))
    expect(written == ["PDFCHECK7 - PDF check.pdf"], f"a separate export of 'PDFCHECK7 - PDF check' wrote {written}")
    return written[0]


def revits_own_pdfs_are_read_by_pypdf_and_their_bookmarks_recorded(scratch):
    """Not documented: what Revit puts in a combined PDF's outline (export_pdf makes its combined file
    itself, a bookmark "<number> - <name>" per sheet, from each sheet's own PDF read with pypdf). The
    finding is the outline's titles; the expectation, that pypdf reads Revit's PDFs page for page."""
    import pypdf
    doc = scratch.doc
    one, two = _sheet(doc, "PDFCHECK8"), _sheet(doc, "PDFCHECK9")
    with _Folder() as folder:
        doc.Export(folder, _ids(one, two), _options("Outline"))
        doc.Export(folder, _ids(one), _options("Alone"))
        combined = pypdf.PdfReader(os.path.join(folder, "Outline.pdf"))
        alone = pypdf.PdfReader(os.path.join(folder, "Alone.pdf"))
        pages, single = len(combined.pages), len(alone.pages)
        titles = [item.title if hasattr(item, "title") else f"[{len(item)} nested]" for item in combined.outline]
    expect(pages == 2 and single == 1, f"pypdf read {pages} pages of two sheets and {single} of one")
    return f"pypdf reads them; Revit's combined outline: {titles or 'none'}"


def _refusal(action):
    try:
        action()
    except Exception as error:  # noqa: BLE001 - which one is the finding
        return type(error).__name__
    return None


CHECKS = [
    ("Export writes one PDF of a page per sheet and returns True", export_writes_one_file_of_a_page_per_sheet_and_returns_true),
    ("Export refuses an empty list, duplicates and a missing folder", export_refuses_an_empty_list_duplicates_and_a_missing_folder),
    ("a combined export without FileName is refused", combined_export_without_a_file_name_is_refused),
    ("an existing PDF of the same name is replaced", an_existing_file_is_replaced_without_a_word),
    ("PDF export works inside an open transaction", export_inside_an_open_transaction),
    ("separate PDFs are named '<number> - <name>'", separate_files_are_named_number_dash_name),
    ("pypdf reads Revit's PDFs; Revit's own bookmarks", revits_own_pdfs_are_read_by_pypdf_and_their_bookmarks_recorded),
]
