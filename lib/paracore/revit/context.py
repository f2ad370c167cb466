"""ToolContext: what a tool body gets on Revit's main thread.

Built by the executor inside the ExternalEvent handler for each tool call. It gives the tool the
document, the UI document and the session, plus the conversions every tool needs: version-safe
ElementId creation and reading (``IntegerValue`` is gone in Revit 2026, ``Value`` arrived in
2024), lengths in the project's display units, and element lookup with errors the model can act on.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from paracore.core.errors import ToolError
from paracore.core.session import Session
from paracore.core.units import parse_angle, parse_length
from paracore.revit import element_ids
from paracore.revit.api import DB
from paracore.revit.dotnet import element_id_list
from paracore.revit.element_ids import id_value

# UnitTypeId type-id stem -> the short names paracore.core.units speaks: every length unit Revit
# offers (UnitUtils.GetValidUnits(SpecTypeId.Length)). The composite formats count in the unit
# named: feet and fractional inches in feet, fractional inches in inches, metres and centimetres in
# metres.
_UNIT_NAMES = {
    "meters": "m", "centimeters": "cm", "millimeters": "mm", "decimeters": "dm", "feet": "ft",
    "feetFractionalInches": "ft", "inches": "in", "fractionalInches": "in", "metersCentimeters": "m",
    "usSurveyFeet": "usft",
}


def element_id(value: int) -> DB.ElementId:
    """The ElementId of ``value`` (an int, or what ``int()`` takes), made by ElementId's integer
    constructor picked once (``element_ids``: a fraction of the cost of ``DB.ElementId(value)``)."""
    return element_ids.element_id(value)


def display_length_unit(doc: DB.Document) -> str:
    """The project's length unit, as paracore.core.units names it. A unit it does not know is an
    error, not feet: a bare number read in the wrong unit is stored 3.28 or 12 times wrong."""
    unit = doc.GetUnits().GetFormatOptions(DB.SpecTypeId.Length).GetUnitTypeId()
    stem = unit.TypeId.split(":")[-1].split("-")[0]
    if stem not in _UNIT_NAMES:
        raise ToolError(f"The project's length unit ('{stem}') is not one Paracore reads numbers in. Give lengths "
                        "with their unit ('2.4 m', '8 ft'), or pick another length unit in Manage > Project Units.")
    return _UNIT_NAMES[stem]


@dataclass
class ToolContext:
    doc: DB.Document
    uidoc: Any
    session: Session
    call_id: str = ""
    warnings: list[str] = field(default_factory=list)
    # Reading inside a Revit link (in_link): the link (paracore.revit.links.Link) and the host's
    # document, whose units and coordinates the results keep.
    link: Any = None
    host_doc: Any = None
    # A workshared model's elements the call must leave out (others borrow them, or they changed in
    # central), as the executor learnt from central for a tool that declares ``targets``
    # (hosts/revit/targets.py); None when central was not asked (a preview, a description).
    left_out: frozenset[int] | None = None
    # In a workshared model's preview: targets nobody owns now. A commit would borrow them, and the
    # preview's rollback does not give them back, so the call leaves them alone (hosts/revit/preview.py).
    untried: frozenset[int] = frozenset()

    @property
    def length_unit(self) -> str:
        return display_length_unit(self.host_doc if self.link is not None else self.doc)

    def in_link(self, link) -> "ToolContext":
        """This context reading ``link``'s document: ids shown as LINK:ID, points in the host's
        coordinates, lengths in the host's units. Only for reading: a link is read-only."""
        return replace(self, doc=link.document, link=link, host_doc=self.doc, warnings=self.warnings)

    def shown_id(self, eid: DB.ElementId) -> str:
        """An element's id as results write it: LINK:ID inside a link."""
        value = id_value(eid)
        return f"{self.link.id}:{value}" if self.link is not None else str(value)

    def host_point(self, point):
        """``point`` of this context's document in the host's coordinates."""
        return self.link.to_host(point) if self.link is not None else point

    def length(self, value) -> float:
        """A length the model gave (number in display units, or '3 m') in internal feet."""
        return parse_length(value, self.length_unit)

    def angle(self, value) -> float:
        return parse_angle(value)

    def element_id(self, value: int) -> DB.ElementId:
        return element_id(value)

    def id_value(self, eid: DB.ElementId) -> int:
        return id_value(eid)

    def element_id_list(self, values):
        """A ``List<ElementId>`` of ``values`` for API methods taking ``ICollection<ElementId>``."""
        return element_id_list(values)

    def regenerate_mid_change(self) -> None:
        """Let Revit settle a change half made, when the tool's next step needs what Revit computes
        (a family symbol just activated, new viewports' boxes). The Regenerate before a change is
        read back is not the tool's: the executor's runner makes it (hosts/revit/transactions.py)."""
        self.doc.Regenerate()

    def element(self, value: int):
        """The element with this id, or a ToolError saying it is gone."""
        found = self.doc.GetElement(element_id(value))
        if found is None:
            raise ToolError(f"Element {value} does not exist in '{self.doc.Title}' (it may have been "
                            "deleted). Use search_elements or get_working_set to find current ids.")
        return found

    def elements(self, values) -> list:
        """The elements with these ids, in order, or a ToolError naming those that are gone (each
        id looked up once: a working set may hold 100,000)."""
        get = self.doc.GetElement
        found = [get(element_id(v)) for v in values]
        missing = [v for v, element in zip(values, found) if element is None]
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
            raise ToolError(f"These element ids do not exist in '{self.doc.Title}': {shown}. "
                            "Use search_elements or get_working_set to find current ids.")
        return found
