"""The parameter spreadsheet's round trip at scale: export_parameters of every wall of a grown
duplex to .xlsx, every row edited (a new Mark; every tenth row given text in a number column),
import_parameters through the executor (one transaction, read back). Time and the peak of Python
memory allocated during each call (tracemalloc), per row count: the curve says whether both stay
linear in the rows and bounded in memory."""
from __future__ import annotations

import tempfile
import time
import tracemalloc
from pathlib import Path
from unittest import mock

from measure import progress

PARAMETERS = ["Mark", "Comments"]
MISSING_ID = 900_000_000   # ids every tenth edited row is given: elements that do not exist


def _call(sandbox, name: str, arguments: dict) -> tuple[str, float, int]:
    """(content, seconds, peak bytes allocated) of one tool call through the executor."""
    from paracore.tools.registry import PreparedCall, default_registry
    prepared = default_registry().prepare(name, arguments, sandbox.session.working_set.ids)
    assert isinstance(prepared, PreparedCall), prepared
    tracemalloc.start()
    started = time.perf_counter()
    try:
        [outcome] = sandbox.runtime.execute_batch(f"Paracore: {name}", [("c1", prepared)])
        elapsed = time.perf_counter() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not outcome.is_error, outcome.content
    return outcome.content, elapsed, peak


def edit_every_row(path: Path) -> int:
    """What a user does in Excel, streamed (openpyxl's read-only and write-only modes): a new Mark
    on every row, and every tenth row given an id that names no element. Returns the rows edited."""
    import openpyxl
    source = openpyxl.load_workbook(path, read_only=True)
    target = openpyxl.Workbook(write_only=True)
    edited = 0
    for sheet in source.worksheets:
        out = target.create_sheet(sheet.title)
        out.sheet_state = sheet.sheet_state
        rows = sheet.iter_rows(values_only=True)
        header = list(next(rows))
        out.append(header)
        mark = header.index("Mark") if "Mark" in header else None
        for n, row in enumerate(rows):
            row = list(row)
            if mark is not None:
                row[mark] = f"M-{n:06d}"
                edited += 1
                if n % 10 == 0:
                    row[0] = MISSING_ID + n
            out.append(row)
    source.close()
    target.save(path)
    return edited


def round_trip(sandbox, folder: Path, rows: int) -> dict:
    """Export the first ``rows`` elements (by id), edit every row, import."""
    ids = sandbox.on_main_thread(lambda: _first_ids(sandbox.doc, rows))
    name = f"elements-{rows}.xlsx"
    progress(f"spreadsheets: export {len(ids):,} rows")
    _, export_s, export_peak = _call(sandbox, "export_parameters",
                                     {"element_ids": ids, "parameters": PARAMETERS, "path": name})
    path = folder / name
    file_size = path.stat().st_size
    edited = edit_every_row(path)
    progress(f"spreadsheets: import {edited:,} rows")
    content, import_s, import_peak = _call(sandbox, "import_parameters", {"path": str(path)})
    return {"rows": len(ids), "export_s": export_s, "export_peak": export_peak, "file": file_size,
            "import_s": import_s, "import_peak": import_peak, "result": content}


def _first_ids(doc, rows: int) -> list[int]:
    from Autodesk.Revit import DB
    elements = DB.FilteredElementCollector(doc).WhereElementIsNotElementType()
    return sorted(e.Id.Value for e in elements if e.Category is not None and e.LookupParameter("Mark") is not None)[:rows]


def spreadsheet_section(size: int, row_counts: list[int]) -> list[str]:
    from paracore.hosts.standin.sandbox import Sandbox
    from paracore.tools import export_files
    from paracore.tools.catalogue import load_tools
    load_tools()
    lines = ["## Parameter spreadsheet round trip", "",
             f"`export_parameters` of the first elements (by id) of the duplex grown to {size:,} elements, with Mark and "
             "Comments (plus the read-only Family and Type and Level), to .xlsx, with a Types sheet; every row edited "
             "outside Paracore (a new Mark; every tenth row given an id that names no element, which the import "
             "refuses row by row); `import_parameters` through the executor (one transaction, read back twice as every "
             "write is). Peak memory: Python allocations during the call (tracemalloc), on top of the model. One run "
             "per row count (bench/spreadsheets.py).", "",
             "| rows | export | export peak | file | import | import peak | import per 1,000 rows |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    results = []
    with tempfile.TemporaryDirectory(prefix="paracore-sheets-") as folder, \
            mock.patch.object(export_files, "documents_folder", lambda: Path(folder)):
        with Sandbox("duplex", grow_to=size) as sandbox:
            for rows in row_counts:
                r = round_trip(sandbox, Path(folder), rows)
                results.append(r)
                lines.append(f"| {r['rows']:,} | {r['export_s']:.1f} s | {r['export_peak'] / 1e6:.0f} MB | "
                             f"{r['file'] / 1e6:.1f} MB | {r['import_s']:.1f} s | {r['import_peak'] / 1e6:.0f} MB | "
                             f"{r['import_s'] / max(r['rows'], 1) * 1000:.2f} s |")
    lines += ["", f"The import's result at {results[-1]['rows']:,} rows: {results[-1]['result'][:500]}…", ""]
    return lines
