"""Elements inside Revit links, as the host document names them (docs/WORKING_SET.md, "Linked
elements").

An element id means something only in its own document (Revit: "The Value within the ElementId is
only unique with a single project"), so an element of a linked model is named by two ids: the
link instance, an element of the host, and the element's id in the link's document. Revit says
the same with LinkElementId(linkInstanceId, linkedElementId) and with a link Reference
(ElementId = the link instance, LinkedElementId = the element).

Written "LINK:ID" in tool arguments and results ("5021:317"), so the model can pass them on as it
reads them. Pure Python: the Revit side builds them (paracore.revit.links).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_NOTATION = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")
NOTATION_HELP = ("write a linked element as LINK:ID, the link instance's id and the element's id in the link "
                 "(e.g. '5021:317'), as search_elements with link gives it")


@dataclass(frozen=True)
class LinkedElement:
    """An element of a linked model: the host's link instance and the element's id in the link.

    ``category`` and ``link_name`` describe it for the working-set summary and panel; they are not
    part of its identity."""

    link_id: int
    element_id: int
    category: str = field(default="Unknown", compare=False)
    link_name: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.link_id}:{self.element_id}"


def parse_linked(text: object) -> LinkedElement | None:
    """The linked element ``text`` writes as LINK:ID, or None when it is not written so."""
    match = _NOTATION.match(text) if isinstance(text, str) else None
    return LinkedElement(int(match[1]), int(match[2])) if match else None


def parse_all_linked(texts) -> tuple[LinkedElement, ...]:
    """Every LINK:ID of ``texts``, in order and without duplicates; ValueError naming the first
    text that is not one, with how to write it."""
    found = []
    for position, text in enumerate(texts):
        linked = parse_linked(text)
        if linked is None:
            raise ValueError(f"{text!r} at position {position} is not a linked element: {NOTATION_HELP}.")
        found.append(linked)
    return tuple(dict.fromkeys(found))
