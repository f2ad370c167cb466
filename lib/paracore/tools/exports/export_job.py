"""An export as a job (tools/framework/jobs.py): one piece per sheet or view, then the report.

A format's tool makes a list of ``Piece`` (its label, "A101 - Plans", and ``export()``, which runs
on Revit's main thread, writes its files through Document.Export and returns their paths) and
returns ``ExportJob(what, pieces, destination, ...)``. The job:

- runs each piece when the agent asks for it (progress and the cancel between pieces are the
  agent's), and records a piece that raises as failed, with why, without stopping the others;
- at the end (``finish``) reads every file back from the disk (its size, and what ``describe``
  says of it: a PDF's pages) and words the result: the folder, every file (a bounded list), the
  pieces that failed and why, the names changed so as not to overwrite or to fit Windows' limits,
  and, when the user stopped it, what was done and what was not;
- ``after(files)``, when given, runs once after the pieces and before the report, on the main
  thread, and returns the files to list (the combined PDF made from the sheets' pages, with the
  pieces' files); it does not run when the user stopped the export. ``pieces_kept`` says whether
  the pieces' own files are results (one file per sheet) or only the makings of ``after``'s (the
  scratch files of a combined PDF, deleted by ``cleanup``): the report counts and words them so.
  ``cleanup`` always runs, whatever happened.

A piece's ``export`` deletes what it wrote before raising (no half file is listed as written).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from paracore.core.display import display_text
from paracore.tools.exports.destination import Destination
from paracore.tools.framework.jobs import Job
from paracore.tools.framework.results import ToolError, fit_rows
from paracore.tools.framework.wording import listed, plural

LISTED_FILES = 12           # files named in the result (the rest counted; all are in the folder)
FILES_BUDGET = 700          # ...within this many characters
LISTED_FAILURES = 5         # pieces named that failed, and why...
FAILURES_BUDGET = 450       # ...within this many characters
REASON = 160                # characters of why a piece failed
NAME = 100                  # characters of a file name quoted
NOTE_NAME = 50              # ...in the notes on names changed
NOTED = 3                   # names changed that the notes quote


@dataclass
class Piece:
    """One sheet or view to export: ``export()`` writes its files and returns their paths."""
    label: str
    export: Callable[[], list[Path]]


@dataclass
class _Outcome:
    files: list[Path] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)   # (label, why)
    exported: int = 0            # pieces whose export succeeded
    scratch_only: int = 0        # ...whose files were only scratch, deleted with no combined file made


class ExportJob(Job):
    """``pieces`` exported to ``destination``; ``what`` names the format and the things ("PDF", "sheet")."""

    def __init__(self, fmt: str, noun: str, pieces: list[Piece], destination: Destination, *,
                 describe: Callable[[Path], str] | None = None,
                 after: Callable[[list[Path]], list[Path]] | None = None,
                 cleanup: Callable[[], None] | None = None, notes: list[str] | None = None,
                 pieces_kept: bool = True) -> None:
        super().__init__([piece.label for piece in pieces])
        self.fmt, self.noun = fmt, noun
        self.pieces = pieces
        self.destination = destination
        self.describe = describe
        self.after = after
        self.cleanup = cleanup
        self.pieces_kept = pieces_kept
        self.notes = list(notes or [])
        self.outcome = _Outcome()

    def run_piece(self, index: int) -> None:
        piece = self.pieces[index]
        try:
            written = [Path(p) for p in piece.export()]
        except Exception as exc:  # noqa: BLE001 - one failing sheet must not lose the others
            self.outcome.failed.append((piece.label, _reason(exc)))
            return
        self.outcome.files += written
        self.outcome.exported += 1

    def finish(self, stopped: bool) -> str:
        try:
            if self.after is not None and not stopped:
                try:
                    self.outcome.files = [Path(p) for p in self.after(list(self.outcome.files))]
                except Exception as exc:  # noqa: BLE001
                    self.outcome.failed.append((f"the combined {self.fmt}", _reason(exc)))
                    self._drop_scratch()
            elif self.after is not None:
                self._drop_scratch()     # nothing combined
            return self.report(stopped)
        finally:
            if self.cleanup is not None:
                self.cleanup()

    def _drop_scratch(self) -> None:
        """Without ``after``'s file, pieces that only fed it exported nothing the user gets."""
        if not self.pieces_kept:
            self.outcome.scratch_only = self.outcome.exported
            self.outcome.files, self.outcome.exported = [], 0

    # -- the result ---------------------------------------------------------------------------------

    def report(self, stopped: bool) -> str:
        files = [f for f in self.outcome.files if f.is_file()]   # read back from the disk
        done = self.outcome.exported
        total_bytes = sum(f.stat().st_size for f in files)
        head = (f"Exported {done} of {plural(self.total, self.noun)} to {self.fmt} in "
                f"{display_text(str(self.destination.folder), 200)} ({self.destination.where}): "
                f"{plural(len(files), 'file')}, {_size(total_bytes)}.")
        lines = [head]
        shown = fit_rows([f"- {self._file_line(f)}" for f in files[:LISTED_FILES]], FILES_BUDGET)
        lines += shown
        if len(files) > len(shown):
            lines.append(f"- … and {len(files) - len(shown)} more in that folder")
        failed = self.outcome.failed
        if failed:
            reasons = fit_rows([f"{display_text(label, NAME)}: {why}" for label, why in failed[:LISTED_FAILURES]],
                               FAILURES_BUDGET)
            more = f"; … and {len(failed) - len(reasons)} more" if len(failed) > len(reasons) else ""
            lines.append(f"Failed ({len(failed)}), the others were exported: " + "; ".join(reasons) + more)
        if stopped:
            left = self.total - self.done
            lines.append(f"Stopped by the user after {self.done} of {self.total}: {plural(left, self.noun)} not "
                         f"exported; {self._what_was_kept()}.")
        lines += self._name_notes()
        lines += self.notes
        return "\n".join(lines)

    def _what_was_kept(self) -> str:
        if self.after is None:
            return "the files listed are kept"
        made = f"no combined {self.fmt} was made"
        if self.pieces_kept:
            return f"{made}; the files listed are kept"
        count = self.outcome.scratch_only
        if count:
            return (f"{made}: the pages of the {plural(count, self.noun)} exported before the stop were "
                    "temporary files, now deleted")
        return made

    def _file_line(self, path: Path) -> str:
        facts = [_size(path.stat().st_size)]
        if self.describe is not None:
            described = self.describe(path)
            if described:
                facts.append(described)
        return f"{display_text(path.name, NAME)} ({', '.join(facts)})"

    def _name_notes(self) -> list[str]:
        notes = []
        renamed = self.destination.renamed
        if renamed:
            notes.append("Not overwritten (a file of that name existed): " + listed(
                [f"'{display_text(a, NOTE_NAME)}' written as '{display_text(b, NOTE_NAME)}'" for a, b in renamed],
                NOTED, "; ") + ".")
        shared = self.destination.shared
        if shared:
            notes.append("Names given twice in this export (the name pattern gave them the same name): " + listed(
                [f"'{display_text(a, NOTE_NAME)}' written as '{display_text(b, NOTE_NAME)}'" for a, b in shared],
                NOTED, "; ") + ".")
        shortened = self.destination.shortened
        if shortened:
            notes.append("Shortened to keep the full path within Windows' 260 characters: " + listed(
                [f"'{display_text(b, NOTE_NAME)}'" for _, b in shortened], NOTED) + ".")
        return notes


def _reason(exc: Exception) -> str:
    """Why a piece failed: a tool's own words as they are, Revit's exception with its type."""
    text = str(exc).strip() or type(exc).__name__
    if isinstance(exc, ToolError) or type(exc).__name__ in text:
        return display_text(text, REASON)
    return display_text(f"{type(exc).__name__}: {text}", REASON)


def _size(count: int) -> str:
    if count < 1024:
        return f"{count} bytes"
    if count < 1024 * 1024:
        return f"{count / 1024:.1f} KB"
    return f"{count / (1024 * 1024):.1f} MB"
