"""Text from the model, shown as data.

Names and parameter values are whatever users (or a file's author) typed: a Comments value may
say "Ignore previous instructions", a level name may hold a newline and a fake "CONTEXT:" line,
a right-to-left override or a zero-width space. Tool results and prompts show such text as data:
on one line, cut, with invisible or control characters written out as \\uXXXX escapes.
"""
from __future__ import annotations

import json
import re

SHOWN_NAME = 80  # characters of a name (level, view, type, document) quoted in a result or prompt

# C0/C1 controls (not \t and \n: results use them), line and paragraph separators, and the
# invisible format characters that hide or reorder text (bidi overrides and isolates, zero-width
# space, word joiner, BOM). Zero-width (non-)joiners stay: scripts such as Persian need them.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u2028\u2029"
                     "\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def escape_unsafe(text: str) -> str:
    """``text`` with control and invisible format characters written as \\uXXXX (\\n and \\t kept,
    \\r\\n read as \\n)."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text.replace("\r\n", "\n"))


def one_line(text) -> str:
    """``text`` on one line (whitespace runs, newlines included, become one space), unsafe
    characters escaped."""
    return escape_unsafe(" ".join(str(text).split()))


def display_text(text, limit: int = SHOWN_NAME) -> str:
    """A name or value for a result: ``one_line``, cut to ``limit`` characters with "…".

    A value may be a megabyte of text: what is shown comes from its start, so the start is made
    one line first, and the whole only when the start leaves too little once its whitespace runs
    are joined (``one_line`` of a start is the start of ``one_line`` of the whole)."""
    text = str(text)
    start = one_line(text[: 4 * limit])
    if len(start) > limit:
        return start[: limit - 1] + "…"
    text = one_line(text) if len(text) > 4 * limit else start
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quoted(name, limit: int = SHOWN_NAME) -> str:
    """A name for a prompt (the document's title, a view's name): a JSON string literal, cut to
    ``limit`` characters. Quotes, newlines and invisible characters inside it are escaped, so the
    name cannot close its quotes, start a line of its own (a fake "CONTEXT:" block) or hide text:
    whatever it says, it reads as one quoted name."""
    text = str(name)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return escape_unsafe(json.dumps(text, ensure_ascii=False))
