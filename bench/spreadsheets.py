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

PARAMETERS = ["Mark", "Comments", "Unconnected Height"]


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
    on every row, text in the height column of every tenth. Returns the rows edited."""
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
        height = next((i for i, h in enumerate(header) if str(h).startswith("Unconnected")), None)
        for n, row in enumerate(rows):
            row = list(row)
            if mark is not None:
                row[mark] = f"W-{n:06d}"
                edited += 1
                if height is not None and n % 10 == 0:
                    row[height] = "tall"
            out.append(row)
    source.close()
    target.save(path)
    return edited


def round_trip(size: int) -> dict:
    from paracore.hosts.standin.sandbox import Sandbox
    from paracore.tools import export_files
    from paracore.tools.catalogue import load_tools
    load_tools()
    with tempfile.TemporaryDirectory(prefix="paracore-sheets-") as folder, \
            mock.patch.object(export_files, "documents_folder", lambda: Path(folder)):
        with Sandbox("duplex", grow_to=size) as sandbox:
            progress(f"spreadsheets: export at {size:,}")
            _, export_s, export_peak = _call(sandbox, "export_parameters",
                                             {"category": "Walls", "parameters": PARAMETERS, "path": "walls.xlsx"})
            path = Path(folder) / "walls.xlsx"
            file_size = path.stat().st_size
            edited_started = time.perf_counter()
            rows = edit_every_row(path)
            edit_s = time.perf_counter() - edited_started
            progress(f"spreadsheets: import {rows:,} rows")
            content, import_s, import_peak = _call(sandbox, "import_parameters", {"path": str(path)})
    return {"size": size, "rows": rows, "export_s": export_s, "export_peak": export_peak, "file": file_size,
            "edit_s": edit_s, "import_s": import_s, "import_peak": import_peak, "result": content}


def spreadsheet_section(sizes: list[int]) -> list[str]:
    lines = ["## Parameter spreadsheet round trip", "",
             "`export_parameters` of every wall of the grown duplex (Mark, Comments, Unconnected Height, plus the "
             "read-only Family and Type and Level) to .xlsx; every row edited outside Paracore (a new Mark, and text "
             "in the height column of every tenth row, which import refuses row by row); `import_parameters` "
             "through the executor (one transaction, read back). Peak memory: Python allocations during the call "
             "(tracemalloc), on top of the model. One run per size (bench/spreadsheets.py).", "",
             "| walls (rows) | export | export peak | file | import | import peak | per 1,000 rows (import) |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for size in sizes:
        r = round_trip(size)
        lines.append(f"| {r['rows']:,} | {r['export_s']:.1f} s | {r['export_peak'] / 1e6:.0f} MB | "
                     f"{r['file'] / 1e6:.1f} MB | {r['import_s']:.1f} s | {r['import_peak'] / 1e6:.0f} MB | "
                     f"{r['import_s'] / max(r['rows'], 1) * 1000:.2f} s |")
    lines += ["", f"The import's result at the largest size: {r['result'][:400]}…", ""]
    return lines
