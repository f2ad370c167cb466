"""Which room an element is in, for grouping quantities by room (get_quantities, get_parameters).

One function, the seam through which room grouping reads an element's room: today it reads
``FamilyInstance.Room`` (Revit's room of a family instance in the last phase of the project, None
when its point is in no room) where the element has that property, and says "no room" for every
other element (walls, floors, ceilings: Revit gives them no Room property). Where elements get their
rooms another way (the rooms a ceiling or floor covers), this function is the one to extend.

Revit is imported nowhere here: the property is read by name, so this module imports without Revit.
"""
from __future__ import annotations

from paracore.core.display import display_text

NO_ROOM = "no room"


def room_of(ctx, element) -> str:
    """ "A101 Living" (the room's number and name) for an element in a room, else "no room"."""
    try:
        room = getattr(element, "Room", None)
    except Exception:  # noqa: BLE001 - Revit refuses the property for some family instances
        room = None
    if room is None or not hasattr(room, "Number"):
        return NO_ROOM
    number = display_text(room.Number or "", 20)
    name = room.LookupParameter("Name")
    name = display_text(name.AsString() or "", 40) if name is not None else ""
    return " ".join(part for part in (number, name) if part) or f"room {ctx.id_value(room.Id)}"
