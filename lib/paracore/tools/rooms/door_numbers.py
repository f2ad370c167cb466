"""Door (and window) numbers from their room: the room's number and a letter per room, 101A, 101B, …

Which room is a door's: Autodesk says FamilyInstance.Room "should not be used for door or window
instances, which are placed on the boundary or between rooms. Use the FromRoom and ToRoom
properties instead", and that Revit "automatically calculates" both (the user may swap them,
FlipFromToRoom). So the user chooses the side (``room_side``, To Room by default); a door with no
room on that side (an exterior door) takes the room on the other side, and one with no room on
either side is refused, named. Both are read for the last phase, as the properties without a
phase are.

Letters go A to Z, then AA, AB, … in the order the doors are given (renumber_elements passes them
west to east), every door of a room getting one, a room's only door too ("101A"), so that a door
added later takes "101B" without renumbering the first. Revit is imported inside the functions only.
"""
from __future__ import annotations

import string

from paracore.tools.framework.lookup import id_sample, natural_order
from paracore.tools.framework.results import ToolError
from paracore.tools.framework.wording import plural

SIDE_NAMES = {"to_room": "To Room", "from_room": "From Room"}



def letters(n: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA, 27 -> AB, …"""
    text = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        text = string.ascii_uppercase[rest] + text
    return text


def door_room(element, side: str):
    """The room on ``side`` ('to_room' or 'from_room') of a door or window, else on the other side."""
    to_room, from_room = element.ToRoom, element.FromRoom
    first, second = (to_room, from_room) if side == "to_room" else (from_room, to_room)
    return first if first is not None else second


def by_room(ctx, ordered: list, prefix: str, side: str) -> tuple[list, list[str]]:
    """(the elements grouped by room, rooms by number, then in the order given; their new values)."""
    from Autodesk.Revit import DB
    not_openings = [e for e in ordered if not isinstance(e, DB.FamilyInstance)]
    if not_openings:
        raise ToolError(f"by_room numbers doors and windows: {plural(len(not_openings), 'element')} "
                        f"{'is' if len(not_openings) == 1 else 'are'} not "
                        f"({id_sample([ctx.id_value(e.Id) for e in not_openings], 6, '')}). Leave them out, or use "
                        "order 'left_to_right'.")
    rooms, roomless = {}, []
    for element in ordered:
        room = door_room(element, side)
        if room is None:
            roomless.append(ctx.id_value(element.Id))
            continue
        rooms.setdefault(ctx.id_value(room.Id), (room, []))[1].append(element)
    if roomless:
        raise ToolError(f"Nothing was renumbered: {plural(len(roomless), 'element')} "
                        f"{'has' if len(roomless) == 1 else 'have'} no room on either side "
                        f"({id_sample(roomless, 6, '')}), so by_room cannot number them. Leave them out, or place "
                        "rooms there first (place_rooms).")
    unnumbered = [r for r, _ in rooms.values() if not (r.Number or "").strip()]
    if unnumbered:
        raise ToolError(f"{plural(len(unnumbered), 'room')} {'has' if len(unnumbered) == 1 else 'have'} no number "
                        f"({id_sample([ctx.id_value(r.Id) for r in unnumbered], 6, '')}): number the rooms first "
                        "(renumber_elements with parameter 'Number').")
    grouped, values = [], []
    for room, doors in sorted(rooms.values(), key=lambda item: natural_order(item[0].Number)):
        for n, door in enumerate(doors):
            grouped.append(door)
            values.append(f"{prefix}{room.Number.strip()}{letters(n)}")
    return grouped, values
