"""Linked elements in a call's arguments (docs/WORKING_SET.md, "Linked elements").

The model writes a linked element into ``element_ids`` as a "LINK:ID" text. A tool that reads inside
links has a ``linked_ids`` field, left out of its schema (``LinkedIds``: the definitions every
request carries stay short): the registry moves the texts there, so the tool's ``element_ids`` holds
host ids only. A tool without one refuses them: one that writes because Revit keeps a link read-only
in its host, one that reads (layers, rooms, takeoffs) because it reads this model only, naming the
tools that read links.
A working set that holds linked elements gives a writing tool only its host elements, and the
call says which it left out.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence, Union

from pydantic.json_schema import SkipJsonSchema

from paracore.core.linked import NOTATION_HELP, LinkedElement, parse_linked
from paracore.core.working_set import count_label

ELEMENT_IDS = "element_ids"
LINKED_IDS = "linked_ids"

HostOrLinkedIds = list[Union[int, str]]
"""``element_ids`` of a tool that reads inside links: host ids, and LINK:ID texts."""
LinkedIds = SkipJsonSchema[list[str] | None]
"""``linked_ids``: filled by the registry from ``element_ids`` (not in the schema the model reads)."""
HOST_OR_LINKED_HELP = "Elements inside links as 'LINK:ID' (search_elements with link)."
_READ_ONLY = ("Revit keeps a linked model read-only in its host: open that model (or ask its author) to change "
              "them")
# Why a tool that only reads leaves linked elements out: it reads this model (its types, rooms, quantities)
_READS_HOST = ("{name} reads this model only; search_elements with link finds linked elements and get_parameters "
               "and get_element_info read them")


def _why_not_linked(name: str, writes: bool) -> str:
    """Why ``name`` leaves linked elements out: a link is read-only (a tool that writes), or the tool
    reads this model only (a reading tool: its types, rooms, quantities)."""
    return _READ_ONLY if writes else _READS_HOST.format(name=name)


def move_linked_ids(name: str, takes_linked: bool, data: dict[str, Any], writes: bool = True) -> str | None:
    """Move the LINK:ID texts of ``data``'s element_ids into its linked_ids; the refusal to return
    instead when the tool takes no linked elements (None when there are none)."""
    given = data.get(ELEMENT_IDS)
    if not isinstance(given, list):
        return None
    linked = [value for value in given if parse_linked(value) is not None]
    other = [value for value in given if isinstance(value, str) and parse_linked(value) is None]
    if other and takes_linked:
        return (f"element_ids: {other[0][:60]!r} is neither an element id nor a linked element: give ids as "
                f"integers, and {NOTATION_HELP}. Call {name} again with them.")
    if not linked:
        return None
    if not takes_linked:
        shown = ", ".join(str(value) for value in linked[:5]) + (" …" if len(linked) > 5 else "")
        count = "1 element" if len(linked) == 1 else f"{len(linked)} elements"
        return (f"Not run: element_ids holds {count} inside linked models ({shown}); "
                f"{name} works on the host model only. {_why_not_linked(name, writes)}; or leave them out and "
                f"call {name} again.")
    data[ELEMENT_IDS] = [value for value in given if parse_linked(value) is None] or None
    data[LINKED_IDS] = list(dict.fromkeys([*(data.get(LINKED_IDS) or []), *linked]))
    return None


def only_linked_message(name: str, linked: Sequence[LinkedElement], writes: bool = True) -> str:
    if not writes:
        return (f"Not run: the working set holds only elements inside linked models ({describe(linked)}), and "
                f"{_READS_HOST.format(name=name)}.")
    return (f"Not run: the working set holds only elements inside linked models ({describe(linked)}), and {name} "
            f"changes the host model. {_READ_ONLY}. To work on host elements, find them with search_elements.")


def left_out_note(name: str, linked: Sequence[LinkedElement], writes: bool = True) -> str:
    return f"{name} left out the working set's linked elements ({describe(linked)}): {_why_not_linked(name, writes)}."


DESCRIBED_KINDS = 8     # categories-in-links named; the others are counted (a result stays bounded)


def describe(linked: Sequence[LinkedElement]) -> str:
    """ "3 Doors in SampleHouse4.rvt, 1 Wall in duplex.rvt", the largest first; past DESCRIBED_KINDS
    of them "… and N more in 4 other kinds"."""
    counts = Counter((element.category, element.link_name or "a link") for element in linked).most_common()
    text = ", ".join(f"{count_label(n, category)} in {link}" for (category, link), n in counts[:DESCRIBED_KINDS])
    rest = counts[DESCRIBED_KINDS:]
    if rest:
        text += f", … and {sum(n for _, n in rest):,} more of {len(rest)} other kind{'s' if len(rest) != 1 else ''}"
    return text
