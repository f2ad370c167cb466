"""The little markdown the chat shows, as blocks and spans a WPF view maps to TextBlocks and Runs.

Pure Python (no WPF): ``markdown_blocks(text)`` returns a list of ``Block``. What is understood
is what models actually write in a chat reply:

    paragraph   lines of text; a single line break is kept as "\\n" (chat replies mean it)
    heading     "# Title" … "###### Title"
    bullets     "- item", "* item", "+ item"; indentation (2 spaces or a tab a level) nests
    numbered    "1. item" or "1) item"; ``start`` is the first number
    code        a ``` or ~~~ fence, with its language; an unclosed fence (text still
                streaming) runs to the end of the text
    table       a header row, a |---|---| separator, then rows; cells are spans
    rule        a line of three or more -, * or _

and, inside a paragraph, a heading, a list item or a table cell, these spans:

    **bold**     *italic* / _italic_     `code`     [text](url) (a link)

(``__x__`` is not bold: in a chat about Python it is ``__init__``.)

Anything else stays literal text; nothing is ever dropped (an unmatched ``**`` shows as is), so
a reply that is still streaming renders sensibly at every step.

How the view maps it (suggested): paragraph -> TextBlock with Runs (bold -> FontWeight Bold,
italic -> FontStyle Italic, code -> Consolas on a light background, link -> Hyperlink);
heading -> a bigger, bold TextBlock; bullets/numbered -> one row per item with "•" or "3." and
a left margin of 16 px per ``level``; code -> a bordered TextBox (read-only, monospace) so the
user can copy; table -> a Grid; rule -> a Separator.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

BlockKind = Literal["paragraph", "heading", "bullets", "numbered", "code", "table", "rule"]


@dataclass(frozen=True)
class Span:
    """A run of text with one style."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False
    link: str | None = None
    """The target of a ``[text](url)`` link."""


@dataclass(frozen=True)
class ListItem:
    spans: tuple[Span, ...]
    level: int = 0
    """Nesting depth: 0 for a top-level item."""
    number: int | None = None
    """The item's own number in a numbered list (as written)."""


@dataclass(frozen=True)
class Block:
    """One block of the reply; which fields matter depends on ``kind``."""

    kind: BlockKind
    spans: tuple[Span, ...] = ()
    """paragraph and heading."""
    level: int = 0
    """heading: 1 to 6."""
    items: tuple[ListItem, ...] = ()
    """bullets and numbered."""
    start: int = 1
    """numbered: the first item's number."""
    code: str = ""
    """code: the text, without the fences."""
    language: str = ""
    """code: what follows the opening fence ("python", "json"), or ""."""
    closed: bool = True
    """code: False while the closing fence has not arrived yet (streaming)."""
    header: tuple[tuple[Span, ...], ...] = ()
    """table: the header cells."""
    rows: tuple[tuple[tuple[Span, ...], ...], ...] = ()
    """table: the body rows, each a tuple of cells (short rows padded to the header's width)."""

    @property
    def text(self) -> str:
        """The block's plain text (for tests, copying and accessibility)."""
        if self.kind == "code":
            return self.code
        if self.kind in ("bullets", "numbered"):
            return "\n".join(plain(item.spans) for item in self.items)
        if self.kind == "table":
            lines = [self.header, *self.rows]
            return "\n".join(" | ".join(plain(cell) for cell in row) for row in lines)
        return plain(self.spans)


def plain(spans: tuple[Span, ...] | list[Span]) -> str:
    return "".join(span.text for span in spans)


# -- blocks --------------------------------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`]*?)\s*$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_NUMBER = re.compile(r"^(\s*)(\d{1,9})[.)]\s+(.*)$")
_RULE = re.compile(r"^ {0,3}([-*_])(?:\s*\1){2,}\s*$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")


def markdown_blocks(text: str) -> list[Block]:
    """Split ``text`` into blocks (see the module docstring for what is understood)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
            continue
        for reader in (_read_code, _read_heading, _read_rule, _read_table, _read_list):
            found = reader(lines, index)
            if found is not None:
                block, index = found
                blocks.append(block)
                break
        else:
            block, index = _read_paragraph(lines, index)
            blocks.append(block)
    return blocks


def _read_code(lines: list[str], index: int):
    opening = _FENCE.match(lines[index])
    if not opening:
        return None
    fence = opening.group(1)
    body: list[str] = []
    for position in range(index + 1, len(lines)):
        closing = lines[position].strip()
        if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
            return Block("code", code="\n".join(body), language=opening.group(2)), position + 1
        body.append(lines[position])
    # Still streaming: everything after the fence is code for now.
    return Block("code", code="\n".join(body), language=opening.group(2), closed=False), len(lines)


def _read_heading(lines: list[str], index: int):
    match = _HEADING.match(lines[index])
    if not match:
        return None
    return Block("heading", spans=inline_spans(match.group(2)), level=len(match.group(1))), index + 1


def _read_rule(lines: list[str], index: int):
    if not _RULE.match(lines[index]):
        return None
    return Block("rule"), index + 1


def _read_table(lines: list[str], index: int):
    if "|" not in lines[index] or index + 1 >= len(lines):
        return None
    separator = lines[index + 1]
    if "-" not in separator or not _TABLE_SEPARATOR.match(separator):
        return None
    header = _cells(lines[index])
    if len(header) < 2 and not lines[index].strip().startswith("|"):
        return None
    rows = []
    position = index + 2
    while position < len(lines) and "|" in lines[position] and lines[position].strip():
        cells = _cells(lines[position])
        cells = cells + [""] * (len(header) - len(cells))  # short rows padded; extra cells kept
        rows.append(tuple(inline_spans(cell) for cell in cells))
        position += 1
    return Block("table", header=tuple(inline_spans(cell) for cell in header), rows=tuple(rows)), position


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|") and not stripped.endswith("\\|"):
        stripped = stripped[:-1]
    cells = re.split(r"(?<!\\)\|", stripped)
    return [cell.strip().replace("\\|", "|") for cell in cells]


def _list_match(line: str):
    """("bullets" | "numbered", indent, number, text) or None."""
    match = _NUMBER.match(line)
    if match:
        return "numbered", _indent(match.group(1)), int(match.group(2)), match.group(3)
    match = _BULLET.match(line)
    if match and not _RULE.match(line):
        return "bullets", _indent(match.group(1)), None, match.group(2)
    return None


def _indent(whitespace: str) -> int:
    return len(whitespace.replace("\t", "    "))


def _read_list(lines: list[str], index: int):
    first = _list_match(lines[index])
    if first is None:
        return None
    kind, base_indent = first[0], first[1]
    items: list[tuple[int, int | None, list[str]]] = []  # (indent, number, lines)
    position = index
    while position < len(lines):
        line = lines[position]
        found = _list_match(line)
        if found is not None:
            item_kind, indent, number, text = found
            if indent <= base_indent and item_kind != kind:
                break  # a list of the other kind starts here
            items.append((max(indent - base_indent, 0), number, [text]))
            position += 1
            continue
        if not line.strip():
            # A blank line ends the list unless the next line continues it.
            following = lines[position + 1] if position + 1 < len(lines) else ""
            next_item = _list_match(following)
            if next_item is not None and (next_item[0] == kind or next_item[1] > base_indent):
                position += 1
                continue
            break
        if line.startswith((" ", "\t")) and items:
            items[-1][2].append(line.strip())  # a continuation of the last item
            position += 1
            continue
        break
    levels = _levels([indent for indent, _, _ in items])
    list_items = tuple(ListItem(inline_spans("\n".join(text)), level, number)
                       for (indent, number, text), level in zip(items, levels))
    start = items[0][1] if kind == "numbered" and items[0][1] is not None else 1
    return Block(kind, items=list_items, start=start), position


def _levels(indents: list[int]) -> list[int]:
    """Nesting levels from indentation: an item indented deeper than the one before nests under it."""
    stack: list[int] = []
    levels = []
    for indent in indents:
        while stack and indent < stack[-1]:
            stack.pop()
        if not stack or indent > stack[-1]:
            stack.append(indent)
        levels.append(len(stack) - 1)
    return levels


def _read_paragraph(lines: list[str], index: int):
    body: list[str] = []
    position = index
    while position < len(lines):
        line = lines[position]
        if not line.strip():
            break
        if body and any(reader(lines, position) is not None
                        for reader in (_read_code, _read_heading, _read_rule, _read_list)):
            break
        if body and _read_table(lines, position) is not None:
            break
        body.append(line.strip())
        position += 1
    return Block("paragraph", spans=inline_spans("\n".join(body))), position


# -- spans ---------------------------------------------------------------------------------------

_INLINE = re.compile(
    r"(?P<code>`+)(?P<code_text>.+?)(?P=code)"
    r"|\*\*(?P<bold>(?=\S)(?:[^*]|\*(?!\*))+?(?<=\S))\*\*"
    r"|(?<![*\w])\*(?P<italic>(?=[^\s*])[^*\n]*?(?<=[^\s*]))\*(?![*\w])"
    r"|(?<![\w])_(?P<italic2>(?=[^\s_])[^_\n]*?(?<=[^\s_]))_(?![\w])"
    r"|\[(?P<link_text>[^\]\n]+)\]\((?P<link>[^)\s]+)\)",
    re.DOTALL,
)


def inline_spans(text: str, *, bold: bool = False, italic: bool = False) -> tuple[Span, ...]:
    """Split one block's text into styled spans (bold and italic nest; code is verbatim)."""
    spans: list[Span] = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            spans.append(Span(text[position:match.start()], bold=bold, italic=italic))
        if match.group("code") is not None:
            code = match.group("code_text")
            if code.startswith(" ") and code.endswith(" ") and code.strip():
                code = code[1:-1]
            spans.append(Span(code, bold=bold, italic=italic, code=True))
        elif match.group("bold") is not None:
            spans.extend(inline_spans(match.group("bold"), bold=True, italic=italic))
        elif match.group("italic") is not None or match.group("italic2") is not None:
            inner = match.group("italic") if match.group("italic") is not None else match.group("italic2")
            spans.extend(inline_spans(inner, bold=bold, italic=True))
        else:
            spans.append(Span(match.group("link_text"), bold=bold, italic=italic, link=match.group("link")))
        position = match.end()
    if position < len(text):
        spans.append(Span(text[position:], bold=bold, italic=italic))
    return tuple(_merge(spans))


def _merge(spans: list[Span]) -> list[Span]:
    """Join neighbours with the same style (fewer Runs for the view)."""
    merged: list[Span] = []
    for span in spans:
        if not span.text:
            continue
        if merged and _style(merged[-1]) == _style(span) and not span.code and span.link is None:
            merged[-1] = Span(merged[-1].text + span.text, span.bold, span.italic, span.code, span.link)
        else:
            merged.append(span)
    return merged


def _style(span: Span) -> tuple:
    return span.bold, span.italic, span.code, span.link
