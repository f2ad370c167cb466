"""The parameter spreadsheet's round trip at scale: export_parameters of the first elements of a
grown duplex to .xlsx, every row edited (a new Mark; every tenth row given an id that names no
element), import_parameters through the executor (one transaction, read back). Time, and how much
the process's resident memory grew at its peak during each call (sampled, on top of the model
already loaded), per row count: the curve says whether both stay linear in the rows and bounded."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from unittest import mock

from tool_bounds import REPORT, replace_section  # first: it puts lib/ and stubs/ on sys.path when run alone

import machine  # noqa: E402
from measure import progress  # noqa: E402

PARAMETERS = ["Mark", "Comments"]
MISSING_ID = 900_000_000   # ids every tenth edited row is given: elements that do not exist


def _rss() -> int:
    """Resident memory of this process in bytes (Linux: /proc/self/statm; elsewhere 0)."""
    try:
        with open("/proc/self/statm") as stream:
            return int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class _PeakMemory:
    """The highest resident memory seen while a call runs, sampled every 20 ms from another thread
    (tracemalloc would count every allocation exactly but slows the call two to three times)."""

    def __enter__(self):
        self.start = self.peak = _rss()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self):
        while not self._done.wait(0.02):
            self.peak = max(self.peak, _rss())

    def __exit__(self, *exc):
        self._done.set()
        self._thread.join()
        self.peak = max(self.peak, _rss())

    @property
    def grown(self) -> int:
        return self.peak - self.start


def _call(sandbox, name: str, arguments: dict) -> tuple[str, float, int]:
    """(content, seconds, bytes the process grew by at its peak) of one tool call through the executor."""
    from paracore.tools.framework.registry import PreparedCall, default_registry
    prepared = default_registry().prepare(name, arguments, sandbox.session.working_set.ids)
    assert isinstance(prepared, PreparedCall), prepared
    with _PeakMemory() as memory:
        started = time.perf_counter()
        [outcome] = sandbox.runtime.execute_batch(f"Paracore: {name}", [("c1", prepared)])
        elapsed = time.perf_counter() - started
    assert not outcome.is_error, outcome.content
    return outcome.content, elapsed, memory.grown


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
    from paracore.tools.framework import export_files
    from paracore.tools.framework.catalogue import load_tools
    load_tools()
    lines = ["## Parameter spreadsheet round trip", "",
             f"`export_parameters` of the first elements (by id) of the duplex grown to {size:,} elements, with Mark and "
             "Comments (plus the read-only Family and Type and Level), to .xlsx, with a Types sheet; every row edited "
             "outside Paracore (a new Mark; every tenth row given an id that names no element, which the import "
             "refuses row by row); `import_parameters` through the executor (one transaction, read back twice as every "
             "write is). Peak memory: how much the process's resident memory grew at its peak during the call (sampled "
             "every 20 ms), on top of the model. One run per row count (bench/spreadsheets.py).", "",
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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="The parameter spreadsheet section of the benchmark, alone.")
    parser.add_argument("--size", type=int, default=100_000, help="elements to grow the duplex to (100,000)")
    parser.add_argument("--rows", type=int, nargs="+", default=[5_000, 50_000], help="rows exported and imported")
    parser.add_argument("--write", action="store_true", help="replace the section in bench/RESULTS.md")
    args = parser.parse_args(argv)
    now = datetime.now(timezone.utc)
    section = spreadsheet_section(args.size, args.rows)
    section[1:1] = ["", f"Measured alone (`python3 bench/spreadsheets.py --write`), {now:%Y-%m-%d %H:%M} UTC, "
                        f"commit {machine.git_commit()}; the rest of this report is from the run in its header."]
    print("\n".join(section))
    if args.write:
        REPORT.write_text(replace_section(REPORT.read_text(encoding="utf-8"), section, before=None), encoding="utf-8")
        progress(f"written to {REPORT.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
