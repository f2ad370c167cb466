"""Machinery for tests and the sandbox: add a Revit link to a stand-in document, as
RevitLinkType.Create and RevitLinkInstance.Create would leave it (inside a transaction), without a
.rvt file to read.

``add_link`` links an empty document whose only content is its shared coordinates (all a
placement check reads); ``link_model`` links a whole sample, read like any model the stand-in
opens, so that searching and reading inside links runs here as in Revit. A link's document says
IsLinked, and refuses transactions as Revit's does.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import CannotOpen
from .loader import open_model

LINK_FORMAT = "MODEL[@EAST,NORTH[,DEGREES]]"
"""How a link is given on the command line and in replay files, e.g. "SampleHouse4@30,-5,90": the
sample placed 30 m east and 5 m south of the host's internal origin, turned 90° anticlockwise."""

FEET_PER_METRE = 1 / 0.3048


class LinkError(CannotOpen):
    """A link that cannot be read or placed: says what to give instead."""


@dataclass(frozen=True)
class LinkSpec:
    model: str             # a sample's name or an IFC path, as the stand-in opens models
    east_m: float = 0.0
    north_m: float = 0.0
    degrees: float = 0.0


def parse_link(text: str) -> LinkSpec:
    """``MODEL[@EAST,NORTH[,DEGREES]]`` (metres, degrees); LinkError saying what is wrong."""
    model, at, place = text.partition("@")
    numbers = [part.strip() for part in place.split(",")] if at else []
    problem = None
    if not model.strip():
        problem = "give the model to link"
    elif at and len(numbers) not in (2, 3):
        problem = "after '@' give east and north in metres, and optionally an angle in degrees"
    else:
        try:
            values = [float(n) for n in numbers]
        except ValueError:
            problem = f"{place!r} holds something that is not a number"
        else:
            problem = _placement_problem(values)
    if problem:
        raise LinkError(f"cannot read the link {text!r}: {problem}, as {LINK_FORMAT} (e.g. SampleHouse4@30,-5,90)")
    return LinkSpec(model.strip(), *values)


# Revit keeps a model's geometry within 20 miles (about 32 km) of its internal origin, and warns
# beyond it that the geometry may be drawn and computed wrongly: a link placed farther is a typo.
MAX_OFFSET_M = 32_000.0


def _placement_problem(values: list[float]) -> str | None:
    """What is wrong with the east, north (metres) and degrees of a link, or None."""
    if not all(math.isfinite(value) for value in values):
        return "east, north and the angle must each be a finite number"
    if any(abs(value) > MAX_OFFSET_M for value in values[:2]):
        return (f"east and north must be within {MAX_OFFSET_M:,.0f} m of the origin (Revit keeps a model within "
                "20 miles, about 32 km, of its internal origin)")
    if len(values) == 3 and abs(values[2]) > 360:
        return "the angle must be from -360 to 360 degrees"
    return None


def link_model(document, spec: LinkSpec):
    """Link the model ``spec`` names into ``document`` at its place; the RevitLinkInstance."""
    from Autodesk.Revit.DB import Transaction
    linked = open_model(spec.model, document._application)
    linked._linked = True
    origin = (spec.east_m * FEET_PER_METRE, spec.north_m * FEET_PER_METRE, 0.0)
    transaction = Transaction(document, f"Link {linked.Title}")
    transaction.Start()
    _, [instance] = add_link(document, linked.Title, origin=origin, angle=math.radians(spec.degrees),
                             linked=linked)
    transaction.Commit()
    return instance


def add_link(document, name: str, *, loaded: bool = True, origin=(0.0, 0.0, 0.0), angle: float = 0.0,
             shared_position=(0.0, 0.0, 0.0, 0.0), instances: int = 1, linked=None):
    """A link type ``name`` and ``instances`` instances of it placed at ``origin`` (feet) rotated
    by ``angle`` (radians). The link's document is ``linked``, or an empty one whose shared
    coordinates are ``shared_position`` (east, north, elevation, angle). Returns (type, [instances])."""
    from Autodesk.Revit.DB import BuiltInCategory, Document, RevitLinkInstance, RevitLinkType
    from Autodesk.Revit.DB._locations import add_site
    if linked is None:
        linked = Document(None, name, name + ".rvt")
        add_site(linked, shared_position)
        linked._linked = True
    category = BuiltInCategory.OST_RvtLinks.value
    link_type = document._add_element(RevitLinkType, {"name": name + ".rvt", "category": category,
                                                      "loaded": loaded})
    placed = [document._add_element(RevitLinkInstance, {
        "name": f"{name}.rvt : {n + 1} : location <Not Shared>", "category": category,
        "type_id": link_type._id, "placement": (tuple(origin), angle), "link_document": linked})
        for n in range(instances)]
    return link_type, placed
