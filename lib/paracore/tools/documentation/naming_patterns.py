"""What a rename or a renumbering makes of each row, and whether the new values can all stand.

Pure: texts in, texts out; nothing here reads the model (the tools read it and pass values in).

- A new name is made from a template of fields (``{Level} - Plan``: each field a value the tool
  read from the element), then find/replace on it (plain text, or a regular expression), then a
  prefix and a suffix.
- A new number counts up from a start that may carry text around its digits: "A101" gives A101,
  A102, …; the text before and after the last digits is kept, the digits keep their width
  ("001", "002").
- A set of new values collides when two rows, or a row and an element left as it is, would hold
  the same value where Revit wants it unique (its ``scope``: a view type, the sheets, one sheet's
  viewports). Values are compared regardless of case: "Some Revit element types disallow
  assignment of names where the only difference with existing names is the case"
  (NamingUtils.CompareNames), and which do is not documented (docs/REVIT_BEHAVIOUR.md, "Renaming
  and renumbering"), so a pair Revit might refuse is refused before anything runs.
- Rows that take a value another row holds now (a swap, A -> B and B -> A, or a chain) cannot be
  set one by one: the second row's value is taken when the first is set. ``apply_rows`` first
  moves every such row to a temporary value of its own, then sets the final values, inside the
  same transaction, so the model never holds a duplicate.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

from paracore.core.display import display_text
from paracore.tools.framework.names import why_not_a_name
from paracore.tools.framework.results import ToolError, fit_rows
from paracore.tools.framework.wording import plural

NAME = 60                    # characters of a name quoted in a message
CONTEXT = 20                 # characters kept before the first difference of a long name cut in a message
MAX_PATTERN = 200            # characters of a find/replace text or a template
SHOWN_ROWS = 12              # rows before -> after in a preview or a result; the rest are counted...
ROWS_BUDGET = 1100           # ...within this many characters (results are held to 2,000)
SHOWN_COLLISIONS = 6         # clashing values (or refused names) named one by one...
COLLISIONS_BUDGET = 1000     # ...within this many characters
SHARED_SHOWN = 3             # rows named per clashing value; the others are counted
SHOWN_FIELDS = 24            # field names listed when one is unknown
_FIELD = re.compile(r"\{([^{}]*)\}")
# A quantified group holding a quantifier ("(a+)+", "(x*)*"): the shapes that backtrack without end.
_NESTED_QUANTIFIER = re.compile(r"\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{]")


@dataclass(frozen=True)
class Row:
    """One element renamed or renumbered: ``label`` names it ("Floor Plan: Level 1 (id 312)"),
    ``scope`` is where its value must be unique (None: nowhere)."""

    key: int
    label: str
    before: str
    after: str
    scope: Hashable = None

    @property
    def changes(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class Kept:
    """An element whose value stays as it is, in ``scope``: a new value may not take it."""

    key: int
    label: str
    value: str
    scope: Hashable = None


# --- names from a pattern ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NamePattern:
    template: str | None = None
    find: str | None = None
    replace: str = ""
    regex: bool = False
    prefix: str = ""
    suffix: str = ""

    def is_empty(self) -> bool:
        return not (self.template or self.find or self.prefix or self.suffix)


def template_fields(template: str) -> list[str]:
    """The field names of a template, in order, without repeats; a ToolError for a stray brace."""
    if len(template) > MAX_PATTERN:
        raise ToolError(f"template is {len(template)} characters long: at most {MAX_PATTERN}.")
    stray = _FIELD.sub("", template)
    if "{" in stray or "}" in stray:
        raise ToolError(f"template '{display_text(template, NAME)}' has a brace that opens no field: write each field "
                        "as {Name} (braces cannot be part of a name in Revit).")
    names = [" ".join(f.split()) for f in _FIELD.findall(template)]
    if any(not n for n in names):
        raise ToolError("template has an empty field {}: name a parameter inside the braces, e.g. {Level}.")
    return list(dict.fromkeys(names))


def find_expression(pattern: NamePattern) -> re.Pattern | None:
    """The compiled find text (escaped unless ``regex``); a ToolError for one that cannot be used."""
    if pattern.find is None or pattern.find == "":
        return None
    if len(pattern.find) > MAX_PATTERN:
        raise ToolError(f"find is {len(pattern.find)} characters long: at most {MAX_PATTERN}.")
    if not pattern.regex:
        return re.compile(re.escape(pattern.find))
    if _NESTED_QUANTIFIER.search(pattern.find):
        raise ToolError(f"find '{display_text(pattern.find, NAME)}' repeats a group that itself repeats (like (a+)+), "
                        "which can take forever to match: write it without the nested repetition, or use plain text "
                        "(regex false).")
    try:
        return re.compile(pattern.find)
    except re.error as error:
        raise ToolError(f"find '{display_text(pattern.find, NAME)}' is not a valid regular expression ({error}). "
                        "Fix it, or set regex false to find the text as written.") from None


def new_name(pattern: NamePattern, current: str, fields: dict[str, str], expression: re.Pattern | None) -> str:
    """The name ``pattern`` makes of ``current`` with the field values ``fields`` (by field name)."""
    name = _FIELD.sub(lambda m: fields[" ".join(m.group(1).split())], pattern.template) if pattern.template else current
    if expression is not None:
        try:
            name = expression.sub(pattern.replace, name) if pattern.regex else expression.sub(
                lambda _: pattern.replace, name)
        except (re.error, IndexError) as error:
            raise ToolError(f"replace '{display_text(pattern.replace, NAME)}' cannot be used with find "
                            f"'{display_text(pattern.find, NAME)}' ({error}): refer only to groups the "
                            "expression has (\\1, \\g<name>).") from None
    return f"{pattern.prefix}{name}{pattern.suffix}".strip()


def invalid_value(value: str) -> str:
    """Why Revit would refuse ``value`` as a name or number, or ""."""
    return why_not_a_name(value)


def refuse_invalid(rows: Sequence[Row], what: str) -> None:
    bad = [f"{r.label} → '{display_text(r.after, NAME)}' ({invalid_value(r.after)})"
           for r in rows if r.changes and invalid_value(r.after)]
    if bad:
        raise ToolError(f"Nothing was changed: {plural(len(bad), 'new ' + what)} cannot be used: "
                        f"{bounded(bad, SHOWN_COLLISIONS, COLLISIONS_BUDGET)}. Change the pattern.")


# --- numbers counting up ------------------------------------------------------------------------------

_LAST_DIGITS = re.compile(r"^(.*?)(\d+)(\D*)$")


def numbers(start: str, count: int, step: int) -> list[str]:
    """``count`` numbers from ``start`` by ``step``: "A101" -> A101, A102…; "01" -> 01, 02…"""
    match = _LAST_DIGITS.match(start.strip())
    if match is None:
        raise ToolError(f"start '{display_text(start, NAME)}' has no digits to count up: give the first number, "
                        "e.g. 'A101' (A101, A102, …) or '1'.")
    head, digits, tail = match.groups()
    first, width = int(digits), len(digits)
    return [f"{head}{str(first + n * step).zfill(width)}{tail}" for n in range(count)]


# --- collisions -----------------------------------------------------------------------------------


def _key(scope, value: str):
    return scope, value.casefold()


def collisions(rows: Sequence[Row], kept: Sequence[Kept]) -> list[str]:
    """Each value that would be held twice in one scope, with who would hold it: the rows that take
    it ("A 'x' → 'V' and B 'y' → 'V'"), and the element left as it is that has it, if any."""
    holders: dict = {}
    for other in kept:
        holders.setdefault(_key(other.scope, other.value), f"{other.label}, which keeps '{display_text(other.value, NAME)}'")
    claims: dict[tuple, list[str]] = {}
    for row in rows:
        if row.scope is not None:
            claims.setdefault(_key(row.scope, row.after), []).append(_row_text(row))
    found = []
    for key, takers in claims.items():
        parts = takers[:SHARED_SHOWN] + ([f"{len(takers) - SHARED_SHOWN} more"] if len(takers) > SHARED_SHOWN else [])
        parts += [holders[key]] if key in holders else []
        if len(takers) + (key in holders) > 1:
            found.append(", ".join(parts[:-1]) + " and " + parts[-1])
    return found


def refuse_collisions(rows: Sequence[Row], kept: Sequence[Kept], what: str, rule: str) -> None:
    """A ToolError naming every value that would be held twice, and by whom, before anything is set."""
    found = collisions(rows, kept)
    if found:
        raise ToolError(f"Nothing was changed: {plural(len(found), what)} would be held more than once ({rule}): "
                        f"{bounded(found, SHOWN_COLLISIONS, COLLISIONS_BUDGET)}. Change the pattern, or leave all but "
                        "one of each out.")


def kept_rows(rows: Sequence[Row], kept: Sequence[Kept]) -> list[Kept]:
    """The elements not renamed (``kept`` less the rows' own)."""
    renamed = {r.key for r in rows}
    return [k for k in kept if k.key not in renamed]


# --- setting the values ----------------------------------------------------------------------------


def tried_in_preview(rows: Sequence[Row], untried: set[int]) -> list[Row]:
    """The rows a preview may set: not those of elements it must not change (``untried``), nor those
    taking a value one of those holds now (at the run it is freed first; in the preview it stays)."""
    held = {_key(r.scope, r.before) for r in rows if r.key in untried}
    return [r for r in rows if r.key not in untried and _key(r.scope, r.after) not in held]


def needs_temporary(rows: Sequence[Row]) -> bool:
    """Whether some row takes a value another row holds now (a swap or a chain)."""
    held = {_key(r.scope, r.before): r.key for r in rows if r.changes}
    return any(held.get(_key(r.scope, r.after), r.key) != r.key for r in rows if r.changes)


def apply_rows(rows: Sequence[Row], set_value: Callable[[int, str], None]) -> bool:
    """Set every changed row's value; through temporary values first when rows swap or chain.
    Returns whether temporary values were used. ``set_value(key, value)`` raises what Revit raises."""
    changed = [r for r in rows if r.changes]
    temporary = needs_temporary(changed)
    if temporary:
        token = secrets.token_hex(4)
        for row in changed:
            set_value(row.key, f"Paracore-renaming-{token}-{row.key}")
    for row in changed:
        set_value(row.key, row.after)
    return temporary


# --- wording -------------------------------------------------------------------------------------


def bounded(parts: Sequence[str], limit: int, budget: int) -> str:
    """The first parts (at most ``limit``, within ``budget`` characters) joined by "; ", the rest counted."""
    kept = fit_rows(list(parts[:limit]), budget)
    more = len(parts) - len(kept)
    return "; ".join(kept) + (f"; … and {more} more" if more else "")


def shown_pair(before: str, after: str) -> tuple[str, str]:
    """Both values cut to about NAME characters so that the change shows: from a little before
    where they first differ, and with their ends kept ("… with structure and MEP" →
    "… with structure and MEP (issued)"; "Coordination 000…and MEP" → "3D View Coordination…at 1:100")."""
    if len(before) <= NAME and len(after) <= NAME:
        return display_text(before, NAME), display_text(after, NAME)
    common = next((i for i, (a, b) in enumerate(zip(before, after)) if a != b), min(len(before), len(after)))
    start = max(0, common - CONTEXT)
    return _cut(before, start), _cut(after, start)


def _cut(text: str, start: int) -> str:
    """``text`` from ``start`` ("…" before it), its middle left out when still longer than NAME."""
    head = "…" if start else ""
    rest = text[start:]
    if len(head) + len(rest) <= NAME:
        return head + display_text(rest, NAME)
    keep = NAME - len(head) - 1
    front, back = keep // 2, keep - keep // 2
    return head + display_text(rest[:front], front) + "…" + display_text(rest[-back:], back)


def _row_text(row: Row) -> str:
    before, after = shown_pair(row.before, row.after)
    return f"{row.label} '{before}' → '{after}'"


def row_lines(rows: Sequence[Row], limit: int = SHOWN_ROWS) -> str:
    """ "label 'before' → 'after'" for the first rows that change (``limit``, ROWS_BUDGET), the rest counted."""
    changed = [r for r in rows if r.changes]
    kept = fit_rows([_row_text(r) for r in changed[:limit]], ROWS_BUDGET)
    more = len(changed) - len(kept)
    return "; ".join(kept) + (f"; … and {more} more" if more else "")


def planned_lines(rows: Sequence[Row]) -> str:
    """``row_lines`` for an approval; says so when no row changes (rather than an empty list)."""
    if any(r.changes for r in rows):
        return row_lines(rows)
    return "nothing changes (each already has its new value)" if rows else "none that you can change now"


def unchanged_note(rows: Sequence[Row]) -> str:
    same = sum(1 for r in rows if not r.changes)
    return f" {plural(same, 'row')} already {'has' if same == 1 else 'have'} the new value (left as it is)." if same else ""
