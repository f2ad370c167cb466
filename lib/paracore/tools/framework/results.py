"""What a tool returns, and the error a tool raises for a mistake the model can fix.

A tool returns plain content (a str, or a dict/list sent as compact JSON) or a ToolOutput:
- ``change``: what a writing tool changed, declared for the executor, which reads it back
  (below); the result the model is told is then re-read from the model, never assumed;
- ``working_set``: an explicit working-set update that wins over the tool's policy
  (the same object as the seed-000 protocol payload);
- ``images``: pictures shown to the model with the content (``capture_view``), as
  ``paracore.core.images.ImagePart`` references to bytes already in the content store.
Raising ToolError gives the model an error result with the message, and rolls back the tool's
transaction; any other exception does the same with the exception chain.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pydantic import Field

from paracore.core.errors import ToolError  # noqa: F401 - part of what a tool module imports from here
from paracore.core.protocol import WorkingSetPayload


@dataclass(frozen=True)
class Change:
    """What a writing call changed and how to read it back: the write protocol's declaration.

    A tool makes its change and returns ``ToolOutput(change=Change(...))``; it neither
    regenerates the document nor decides. The executor's transaction runner does, once for every
    tool (``hosts/revit/transactions.py``, the comparison in ``tools/framework/read_back.py``):

    1. inside the call's transaction, Revit regenerates the document, ``compare`` records every
       difference between the model and the request in a ``read_back.ReadBack``, and any
       difference is the ToolError that rolls the call back, worded from ``action`` ("Moving 2
       doors by (0 m, 1 m)") and ``hint`` (what to do next; a function of the ReadBack when it
       depends on what differed); then ``report`` words the result, read from the model (it may
       raise a ToolError of its own, which rolls back too);
    2. after the commit the same runs again, and its ``report`` is what the model reads; a
       difference found only then is reported as kept.

    Without ``compare`` (a script, whose intent the tool cannot know) nothing is read back in the
    transaction: ``report`` words the result after the commit.
    """

    report: Callable[[], Any]
    compare: Callable[[Any], None] | None = None   # gets a read_back.ReadBack to record differences in
    action: str = ""
    hint: str | Callable[[Any], str] = ""          # the text, or a function of the ReadBack giving it
    length_unit: str | None = None                 # differences shown in this unit (the project's if None)


@dataclass
class ToolOutput:
    content: Any = None
    change: Change | None = None
    working_set: WorkingSetPayload | None = None
    images: tuple = ()


def fit_rows(rows: list[str], budget: int) -> list[str]:
    """The first rows that fit in ``budget`` characters, newlines counted (at least one row):
    a result shows what fits and counts the rest."""
    kept, used = [], 0
    for row in rows:
        if kept and used + len(row) + 1 > budget:
            break
        kept.append(row)
        used += len(row) + 1
    return kept


def working_set_output(element_ids, operation: str = "replace", display_message: str = "",
                       linked=()) -> WorkingSetPayload:
    """The explicit working-set update (docs/WORKING_SET.md; scripts print it as JSON); ``linked``:
    elements inside links (LinkedElement, or their LINK:ID texts)."""
    return WorkingSetPayload(paracore_output_type="working_set_elements", operation=operation,
                             element_ids=[int(i) for i in element_ids], display_message=display_message,
                             linked_ids=[str(element) for element in linked])


# --- paging: one mechanism for every listing tool -----------------------------------------------

def offset_field():
    """The ``offset`` argument every listing tool takes to page through what one result cannot show.

    It has no description: a result that cuts its list says "call again with offset K", which is all
    the model needs, and a description repeated on some twenty tools would be paid in every request."""
    return Field(0, ge=0)


@dataclass(frozen=True)
class Page:
    """One page of a listing: ``rows`` shown, starting at item ``offset`` of ``total``."""

    rows: list[str]
    offset: int
    total: int

    @property
    def rest(self) -> int:
        return self.total - self.offset - len(self.rows)

    @property
    def next_offset(self) -> int:
        return self.offset + len(self.rows)

    def position(self) -> str:
        """Where a later page is (' — items 21–40 of 57'); the first page's header is the listing's own."""
        if self.offset == 0:
            return ""
        return f" — items {self.offset + 1:,}–{self.next_offset:,} of {self.total:,}"

    def next_hint(self, noun: str = "") -> str:
        """The line saying how to read the next page, or "" on the last page."""
        if not self.rest:
            return ""
        what = f" {noun}" if noun else ""
        return f"- … {self.rest:,} more{what}: call again with offset {self.next_offset}."


def page_of(items: list, offset: int, row: Callable[[Any], str], budget: int, max_rows: int,
            noun: str = "items") -> Page:
    """The page of ``items`` starting at ``offset``: at most ``max_rows`` rows (``row`` of each item,
    made only for the items the page may show) within ``budget`` characters."""
    total = len(items)
    check_offset(offset, total, noun)
    rows = fit_rows([row(item) for item in items[offset:offset + max_rows]], budget)
    return Page(rows=rows, offset=offset, total=total)


def check_offset(offset: int, total: int, noun: str = "items") -> None:
    """Refuse an offset past the last item, saying where the listing ends."""
    if offset and offset >= total:
        raise ToolError(f"offset {offset} is past the end: there are {total:,} {noun}. "
                        f"Call again with an offset below {total:,} (0 for the first page).")
