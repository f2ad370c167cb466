"""How many pages a PDF holds, read from the file itself (the result says it for every file).

No PDF library ships inside Revit's Python, so the count is read from the file's structure: the
page tree's root says ``/Type /Pages ... /Count N``, and every page object says ``/Type /Page``.
The larger /Count of a page-tree node is the document's count (a tree's root counts every page
below it); without one, the page objects are counted. A file whose objects are compressed
(object streams, PDF 1.5) can hide both: the count is then unknown (None), never guessed.
The tests check it against pypdf on the stand-in's files.
"""
from __future__ import annotations

import re
from pathlib import Path

_PAGES_NODE = re.compile(rb"<<(?:(?!>>).)*?/Type\s*/Pages\b(?:(?!>>).)*?>>", re.DOTALL)
_COUNT = re.compile(rb"/Count\s+(\d+)")
_PAGE = re.compile(rb"/Type\s*/Page(?![A-Za-z])")
MAX_BYTES = 512 * 1024 * 1024     # a larger file is not read for its count


def page_count(path: Path) -> int | None:
    """The PDF's number of pages, or None when the file does not say it readably."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    counts = [int(m.group(1)) for node in _PAGES_NODE.finditer(data) for m in _COUNT.finditer(node.group(0))]
    if counts:
        return max(counts)
    pages = len(_PAGE.findall(data))
    return pages or None
