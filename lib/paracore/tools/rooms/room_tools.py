"""Room tools: place rooms in a level's enclosed regions, read rooms, renumber elements in order.

Decisions:
- place_rooms asks Revit for rooms in every enclosed circuit of the level that holds none
  (Creation.Document.NewRooms2(level)), or one room at a point (NewRoom(level, UV)). The new rooms
  become the working set; their areas are re-read after the commit, when Revit has computed them.
- get_room_info's doors are the doors whose FromRoom or ToRoom is the room (the last phase), so
  the rooms of an open-plan area do not share each other's doors; what else a room holds is
  counted by category through tools/rooms/element_rooms.py (family instances by their Room, ceilings and
  floors by the rooms they cover, stairs and railings by the room they start in), with the ceiling's height above
  the room's level.
- renumber_elements refuses a value that an element outside the set already has (a room with
  the same Number, an element of the same category with the same Mark) and names it, instead of
  renumbering that element too: the user chose which elements change, and Revit itself would
  only warn about the duplicate. Values are written in one transaction, so elements of the set
  may swap values freely. The order rules:
  * left_to_right: by plan X of the element's location (a point, or the middle of its line),
    west to east; elements within ORDER_TOLERANCE in X go north to south (larger Y first).
  * along_path: start at the first element left to right, then always go to the nearest element
    not yet numbered (plan distance; ties in left-to-right order): a greedy walk, not the
    shortest tour, which follows a corridor or a facade the way a person numbers it.
  * by_room (doors and windows): the number of the door's room and a letter per room, A, B, … in
    left-to-right order (tools/rooms/door_numbers.py says which room is a door's).

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import format_length
from paracore.core.working_set import count_label
from paracore.tools.framework.linked_arguments import describe as describe_linked
from paracore.tools.framework.lookup import elements_by_id, find_level, id_sample, levels_by_elevation
from paracore.tools.framework.reach import refuse_out_of_reach
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.rooms import door_numbers
from paracore.tools.rooms.element_rooms import RoomFinder, number_and_name, room_heights
from paracore.tools.framework.results import (Change, ToolError, ToolOutput, check_offset, offset_field, page_of,
                                    working_set_output)
from paracore.tools.framework.wording import plural

SAMPLE = 8                 # rooms or elements described one by one in a result
ROOMS_PER_PAGE = 5         # rooms get_room_info describes in one result (each line names its contents)
ROOM_BUDGET = 1700         # characters of room lines in one result (results are held to 2,000)
MAX_RENUMBER = 5_000       # elements renumbered in one call
MAX_PATH = 2_000           # elements ordered along_path (the walk is quadratic)
ORDER_TOLERANCE = 0.01     # ft (3 mm): X closer than this counts as the same column
NAME = 40                  # characters of a name quoted in a result

_IDS = "Revit element ids (integers). Leave null to use the working set."


# --- argument models ---------------------------------------------------------------------------


class PlaceRoomsArgs(BaseModel):
    level: str = Field(description="The level's name, e.g. 'Level 1'.")
    in_enclosed_regions: bool = Field(
        True, description="True: a room in every region enclosed by walls that has no room yet. False: one "
                          "room at 'at'.")
    at: list[float | str] | None = Field(
        None, description="Only with in_enclosed_regions false: the room's point in plan, [x, y] in the "
                          "project's units or with a unit, e.g. [5, 3] or ['5 m', '3 m'].")


class RoomInfoArgs(BaseModel):
    room_ids: list[int] | None = Field(None, description="Room ids. Leave null to use the rooms in the "
                                                         "working set.")
    offset: int = offset_field()


class RenumberArgs(BaseModel):
    element_ids: list[int] | None = Field(None, description=_IDS)
    start: int = Field(1, description="The first number, e.g. 101 (1 or more).", ge=1, le=99_999_999)
    step: int = Field(1, description="Added for each next element.", ge=1, le=10**6)
    prefix: str = Field("", description="Text before each number, e.g. 'D-' gives D-1, D-2.", max_length=20)
    parameter: Literal["Mark", "Number"] = Field(
        "Mark", description="'Number' for rooms, 'Mark' for doors, windows and other elements.")
    order: Literal["left_to_right", "along_path", "by_room"] = Field(
        "left_to_right", description="'left_to_right': west to east by plan X (same X: north to south). "
                                     "'along_path': from the leftmost, always to the nearest one not yet "
                                     "numbered. 'by_room' (doors): prefix + room number + A, B….")
    room_side: Literal["to_room", "from_room"] = Field("to_room", description="by_room: the door's room.")


# --- measures in the project's units -------------------------------------------------------------


def area_text(ctx, square_feet: float) -> str:
    """An area as the project shows areas (Manage > Project Units: its unit, rounding and symbol), which
    need not follow its length unit (US survey feet with SF, feet and inches with m²)."""
    from Autodesk.Revit import DB
    return DB.UnitFormatUtils.Format(ctx.doc.GetUnits(), DB.SpecTypeId.Area, square_feet, False)


def _length_text(ctx, feet: float) -> str:
    return format_length(feet, ctx.length_unit, digits=2)


def _is_room(element) -> bool:
    from Autodesk.Revit.DB.Architecture import Room
    return isinstance(element, Room)


def room_label(ctx, room) -> str:
    """ "101 Kitchen (id 345)": Revit's Room.Name joins name and number, so read the parameters."""
    from Autodesk.Revit import DB
    name = room.get_Parameter(DB.BuiltInParameter.ROOM_NAME)
    name = name.AsString() if name is not None else ""
    shown = number_and_name(display_text(room.Number or '(no number)', NAME), display_text(name or '(no name)', NAME))
    return f"{shown} (id {ctx.id_value(room.Id)})"


# --- place_rooms ---------------------------------------------------------------------------------------


def _describe_place(ctx, args: PlaceRoomsArgs) -> str:
    if args.in_enclosed_regions:
        return f"Place a room in every enclosed region without one on level {args.level!r}."
    return f"Place a room at {args.at} on level {args.level!r}."


@tool(writes=True, working_set_policy="replace", describe=_describe_place)
def place_rooms(ctx, args: PlaceRoomsArgs):
    """Place rooms on a level: in every region enclosed by walls that has no room yet, or one at a point.

    Reads back how many rooms were placed and their areas. Regions that are not closed get no
    room. The new rooms become the working set; number them with renumber_elements.
    """
    from Autodesk.Revit import DB
    level = find_level(ctx, args.level)
    if args.in_enclosed_regions:
        if args.at is not None:
            raise ToolError("at is only for one room (in_enclosed_regions false): leave it out, or set "
                            "in_enclosed_regions to false.")
        new_ids = [ctx.id_value(i) for i in ctx.doc.Create.NewRooms2(level)]
        at = None
    else:
        x, y = _plan_point(ctx, args.at)
        new_ids = [ctx.id_value(ctx.doc.Create.NewRoom(level, DB.UV(x, y)).Id)]
        at = DB.XYZ(x, y, level.Elevation)
    level_id = ctx.id_value(level.Id)
    level_name = display_text(level.Name, NAME)
    if not new_ids:
        return (f"Nothing placed: every region enclosed by walls on {level_name} already has a room "
                f"({plural(len(_rooms_on(ctx, level)), 'room')} on the level), or it has no closed regions. "
                "The working set is unchanged.")

    return ToolOutput(change=Change(
        action="Placing rooms", hint="Check the level and the point (inside walls on that level), then ask again.",
        compare=lambda read_back: _compare_rooms(ctx, read_back, new_ids, level_id, at),
        report=lambda: _placed_text(ctx, new_ids, level_name)),
        working_set=working_set_output(new_ids, "replace", f"Placed {plural(len(new_ids), 'room')}."))


def _compare_rooms(ctx, read_back: ReadBack, new_ids: list[int], level_id: int, at) -> None:
    """Each new room on the level asked; a room placed at a point holds that point."""
    from Autodesk.Revit import DB
    for value in new_ids:
        room = ctx.doc.GetElement(ctx.element_id(value))
        if room is None:
            continue  # _placed_text says Revit did not keep it
        level = ctx.doc.GetElement(room.LevelId)
        asked_level = ctx.doc.GetElement(ctx.element_id(level_id))
        read_back.same(f"room {value}", "level", f"'{asked_level.Name}'", f"'{level.Name}'" if level else "(none)")
        if at is not None:
            location = room.Location
            read_back.point(f"room {value}", "location", at,
                            location.Point if isinstance(location, DB.LocationPoint) else None)


def _plan_point(ctx, at) -> tuple[float, float]:
    if at is None or len(at) != 2:
        raise ToolError("at must be the room's point in plan, [x, y], e.g. ['5 m', '3 m'] "
                        "(needed when in_enclosed_regions is false).")
    x, y = ctx.length(at[0]), ctx.length(at[1])
    refuse_out_of_reach(ctx, x, y, "The room's point")
    return x, y


def _rooms_on(ctx, level) -> list:
    from Autodesk.Revit import DB
    collector = DB.FilteredElementCollector(ctx.doc).OfCategory(DB.BuiltInCategory.OST_Rooms)
    return [r for r in collector.WhereElementIsNotElementType() if r.LevelId == level.Id]


def _placed_text(ctx, new_ids: list[int], level_name: str) -> str:
    rooms, missing = elements_by_id(ctx, new_ids)
    if missing or not all(_is_room(r) for r in rooms):
        raise ToolError(f"Revit did not keep {len(missing)} of the {len(new_ids)} rooms placed.")
    enclosed = [r for r in rooms if r.Area > 0]
    lines = [f"Placed {plural(len(rooms), 'room')} on {level_name}; total area "
             f"{area_text(ctx, sum(r.Area for r in rooms))}:"]
    lines += [f"- {room_label(ctx, r)}: {area_text(ctx, r.Area)}" for r in rooms[:SAMPLE]]
    if len(rooms) > SAMPLE:
        lines.append(f"- … and {len(rooms) - SAMPLE} more")
    if len(enclosed) < len(rooms):
        lines.append(f"{len(rooms) - len(enclosed)} of them are not enclosed by walls (area 0): check the walls "
                     "around them, or delete them.")
    return "\n".join(lines + ["They are now the working set."])


# --- get_room_info -----------------------------------------------------------------------------------


@tool(working_set_policy="none")
def get_room_info(ctx, args: RoomInfoArgs):
    """Describe rooms: number, name, level, area, perimeter, height, the walls that bound them, their
    doors (those whose From or To Room it is), their ceilings and what else is in them by category.

    Many rooms: the count, their total area, and five rooms per page (offset for the next).
    """
    # Named room_ids (not element_ids), so the registry does not inject the working set: the
    # default is done here, the same way.
    ids = list(dict.fromkeys(ctx.session.working_set.ids if args.room_ids is None else args.room_ids))
    if args.room_ids is not None and not ids:
        raise ToolError("room_ids is empty: give the rooms' ids (search_elements with category 'Rooms' finds them), "
                        "or leave room_ids null for the rooms in the working set.")
    linked = ctx.session.working_set.linked if args.room_ids is None else ()
    if not ids and linked:
        raise ToolError(f"The working set holds only {plural(len(linked), 'linked element', grouped=True)} "
                        f"({describe_linked(linked)}), and get_room_info reads this model's rooms only. "
                        "get_element_info and get_parameters read linked rooms.")
    found, missing = elements_by_id(ctx, ids)
    rooms = [e for e in found if _is_room(e)]
    if not rooms:
        given = "in the working set" if args.room_ids is None else "given"
        raise ToolError(f"None of the {plural(len(ids), 'element')} {given} is a room. "
                        "Find rooms with search_elements (category 'Rooms'), or place them with place_rooms.")
    check_offset(args.offset, len(rooms), "rooms")
    contents = _contents(ctx, rooms[args.offset:args.offset + ROOMS_PER_PAGE])
    page = page_of(rooms, args.offset, lambda room: _room_lines(ctx, room, contents), ROOM_BUDGET,
                   ROOMS_PER_PAGE, "rooms")
    head = f"{plural(len(rooms), 'room')}, total area {area_text(ctx, sum(r.Area for r in rooms))}"
    lines = [head + page.position() + ":"] + page.rows
    if page.rest:
        lines.append(page.next_hint("rooms"))
    skipped = len(found) - len(rooms)
    if skipped or missing:
        lines.append(f"Left out: {skipped} elements that are not rooms, {len(missing)} ids not in the model.")
    return "\n".join(lines)


# Categories whose elements get_room_info looks for in rooms (walls are named as bounding).
_CONTENT_CATEGORIES = ("OST_Doors", "OST_Windows", "OST_Ceilings", "OST_Floors", "OST_Furniture", "OST_Casework",
                       "OST_PlumbingFixtures", "OST_SpecialityEquipment", "OST_LightingFixtures",
                       "OST_ElectricalEquipment", "OST_MechanicalEquipment", "OST_GenericModel", "OST_Stairs",
                       "OST_StairsRailing")


def _contents(ctx, rooms) -> dict:
    """Room id -> {built-in category name: [elements]} for the rooms: one pass over the elements of
    the categories on the levels within the rooms' heights."""
    from Autodesk.Revit import DB
    finder = RoomFinder(ctx.doc)
    wanted = {ctx.id_value(r.Id) for r in rooms}
    levels = {ctx.id_value(level.Id) for level in _levels_within(ctx, rooms)}
    contents: dict = {value: {} for value in wanted}
    for name in _CONTENT_CATEGORIES:
        category = getattr(DB.BuiltInCategory, name, None)
        if category is None:
            continue
        for element in DB.FilteredElementCollector(ctx.doc).OfCategory(category).WhereElementIsNotElementType():
            if ctx.id_value(element.LevelId) not in levels:
                continue
            for room in finder.rooms_of(element):
                value = ctx.id_value(room.Id)
                if value in wanted:
                    contents[value].setdefault(name, []).append(element)
    return contents


def _levels_within(ctx, rooms) -> list:
    """The levels whose elevation lies within one of the rooms' heights (a stair's room reaches the
    level above, whose ceiling covers it)."""
    spans = [room_heights(room) for room in rooms]
    return [level for level in levels_by_elevation(ctx)
            if any(bottom - 1e-6 <= level.Elevation <= top + 1e-6 for bottom, top in spans)]


def _room_lines(ctx, room, contents) -> str:
    level = room.Level
    bottom, top = room_heights(room)
    head = (f"- {room_label(ctx, room)} on {display_text(level.Name, NAME) if level else 'no level'}: "
            f"area {area_text(ctx, room.Area)}, perimeter {_length_text(ctx, room.Perimeter)}, "
            f"height {_length_text(ctx, top - bottom)}")
    walls, others, segments = _bounding(ctx, room)
    if not segments:
        head += "; not enclosed (no bounding walls)"
    else:
        bounds = ([f"{plural(len(walls), 'wall')} ({id_sample(walls, 6, '')})"] if walls else []) + \
                 ([plural(others, 'other element')] if others else [])
        head += "; bounded by " + " and ".join(bounds)
    inside = dict(contents.get(ctx.id_value(room.Id), {}))
    doors = [ctx.id_value(d.Id) for d in inside.pop("OST_Doors", [])]
    head += f"; {plural(len(doors), 'door')}" + (f" ({id_sample(doors, 6, '')})" if doors else "")
    ceilings = inside.pop("OST_Ceilings", [])
    if ceilings:
        head += "; " + plural(len(ceilings), "ceiling") + " (" + ", ".join(
            f"id {ctx.id_value(c.Id)} at {_length_text(ctx, _ceiling_height(c, bottom))}" for c in ceilings[:4]) + ")"
    if inside:
        head += "; in it: " + ", ".join(
            f"{count_label(len(items), items[0].Category.Name)} "
            f"({id_sample([ctx.id_value(e.Id) for e in items], 4, '')})"
            for name, items in sorted(inside.items(), key=lambda kv: -len(kv[1]))[:6])
    return head


def _ceiling_height(ceiling, room_bottom: float) -> float:
    """The ceiling's underside above the room's base."""
    box = ceiling.get_BoundingBox(None)
    return (box.Min.Z - room_bottom) if box is not None else 0.0


def _bounding(ctx, room) -> tuple[list[int], int, list]:
    """(wall ids, how many other bounding elements, the boundary segments)."""
    from Autodesk.Revit import DB
    segments = [s for loop in room.GetBoundarySegments(DB.SpatialElementBoundaryOptions()) for s in loop]
    walls, others = [], set()
    for segment in segments:
        value = ctx.id_value(segment.ElementId)
        if isinstance(ctx.doc.GetElement(segment.ElementId), DB.Wall):
            if value not in walls:
                walls.append(value)
        else:
            others.add(value)
    return walls, len(others), segments


# --- renumber_elements ---------------------------------------------------------------------------------


def _describe_renumber(ctx, args: RenumberArgs) -> str:
    count = len(args.element_ids or [])
    if args.order == "by_room":
        return (f"Set '{args.parameter}' of {plural(count, 'element')} to {args.prefix}<room number>A, B, … "
                f"(each by its {door_numbers.SIDE_NAMES[args.room_side]}).")
    return (f"Set '{args.parameter}' of {plural(count, 'element')} to {args.prefix}{args.start}, "
            f"{args.prefix}{args.start + args.step}, … ({args.order.replace('_', ' ')}).")


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_renumber)
def renumber_elements(ctx, args: RenumberArgs):
    """Number elements in order: rooms by 'Number', doors, windows and others by 'Mark'.

    order 'left_to_right': west to east by plan X (same X: north to south); 'along_path': from the
    leftmost, always to the nearest not yet numbered; 'by_room' (doors, windows): their room's number
    and a letter per room (A101A, A101B). Otherwise values are prefix + start, start + step, …;
    a value that an element outside the set already has is refused (nothing changes). The values
    are read back from the model.
    """
    from Autodesk.Revit import DB
    elements = _elements_to_number(ctx, args)
    if args.order == "by_room":
        ordered, values = door_numbers.by_room(ctx, _ordered(elements, "left_to_right"), args.prefix, args.room_side)
    else:
        ordered = _ordered(elements, args.order)
        values = [f"{args.prefix}{args.start + n * args.step}" for n in range(len(ordered))]
    _refuse_collisions(ctx, ordered, values, args.parameter)
    bip = DB.BuiltInParameter.ROOM_NUMBER if args.parameter == "Number" else DB.BuiltInParameter.ALL_MODEL_MARK
    for element, value in zip(ordered, values):
        element.get_Parameter(bip).Set(value)
    expected = [(ctx.id_value(e.Id), v) for e, v in zip(ordered, values)]
    return ToolOutput(change=Change(
        action=f"Renumbering {plural(len(expected), 'element')}",
        hint=f"Check that the elements' '{args.parameter}' can be set, then ask again.",
        compare=lambda read_back: _compare_numbers(ctx, read_back, expected, bip, args.parameter),
        report=lambda: _renumbered_text(ctx, expected, args)))


def _elements_to_number(ctx, args: RenumberArgs) -> list:
    from Autodesk.Revit import DB
    ids = list(dict.fromkeys(args.element_ids or []))
    if not ids:
        raise ToolError("No elements to renumber: give element_ids, or leave them out to renumber the working set "
                        "(search_elements puts elements in it).")
    if len(ids) > MAX_RENUMBER:
        raise ToolError(f"Too many elements: renumber at most {MAX_RENUMBER} in one call ({len(ids)} given). "
                        "Narrow the set, e.g. with filter_working_set to one category and level.")
    if args.order == "along_path" and len(ids) > MAX_PATH:
        raise ToolError(f"along_path orders at most {MAX_PATH} elements ({len(ids)} given): use left_to_right, "
                        "or renumber fewer at a time.")
    found, missing = elements_by_id(ctx, ids)
    if missing:
        raise ToolError(f"{plural(len(missing), 'id')} not in the model: {id_sample(missing, 6, '')}. "
                        "Leave them out; search_elements finds current ids.")
    rooms = [e for e in found if _is_room(e)]
    if args.parameter == "Number" and len(rooms) < len(found):
        raise ToolError(f"'Number' is a room's parameter, but {len(found) - len(rooms)} of the elements are not "
                        "rooms. Renumber rooms with parameter 'Number', other elements with 'Mark'.")
    if args.parameter == "Mark" and rooms:
        raise ToolError(f"{plural(len(rooms), 'room')} in the set: rooms are numbered by 'Number', not 'Mark'. "
                        "Call again with parameter 'Number' for the rooms only.")
    bip = DB.BuiltInParameter.ROOM_NUMBER if args.parameter == "Number" else DB.BuiltInParameter.ALL_MODEL_MARK
    no_parameter = [e for e in found if e.get_Parameter(bip) is None or e.get_Parameter(bip).IsReadOnly]
    if no_parameter:
        raise ToolError(f"{plural(len(no_parameter), 'element')} cannot take a '{args.parameter}' "
                        f"(ids {id_sample([ctx.id_value(e.Id) for e in no_parameter], 6, '')}): leave them out.")
    unplaced = [e for e in found if plan_point(e) is None]
    if unplaced:
        raise ToolError(f"{plural(len(unplaced), 'element')} have no place in plan to order by "
                        f"(ids {id_sample([ctx.id_value(e.Id) for e in unplaced], 6, '')}): leave them out.")
    return found


def plan_point(element) -> tuple[float, float] | None:
    """The element's location in plan: its point, or the middle of its line."""
    from Autodesk.Revit import DB
    location = element.Location
    if isinstance(location, DB.LocationPoint):
        return location.Point.X, location.Point.Y
    if isinstance(location, DB.LocationCurve):
        middle = location.Curve.Evaluate(0.5, True)
        return middle.X, middle.Y
    return None


def _ordered(elements, order: str) -> list:
    points = {id(e): plan_point(e) for e in elements}
    left_to_right = sorted(elements, key=lambda e: (round(points[id(e)][0] / ORDER_TOLERANCE), -points[id(e)][1]))
    if order == "left_to_right" or len(left_to_right) < 3:
        return left_to_right
    return _along_path(left_to_right, points)


def _along_path(left_to_right: list, points: dict) -> list:
    """Greedy nearest-neighbour walk from the leftmost; ties go to the earlier left to right."""
    path, rest = [left_to_right[0]], left_to_right[1:]
    while rest:
        here = points[id(path[-1])]
        nearest = min(range(len(rest)), key=lambda i: math.dist(here, points[id(rest[i])]))
        path.append(rest.pop(nearest))
    return path


def _refuse_collisions(ctx, ordered, values: list[str], parameter: str) -> None:
    own = {ctx.id_value(e.Id) for e in ordered}
    wanted = set(values)
    clashes = []
    for other in _same_kind(ctx, ordered, parameter):
        if ctx.id_value(other.Id) in own:
            continue
        value = _value_of(other, parameter)
        if value in wanted:
            clashes.append(f"{display_text(value, NAME)} (id {ctx.id_value(other.Id)})")
    if clashes:
        raise ToolError(f"Nothing was renumbered: {plural(len(clashes), 'element')} outside the set already "
                        f"{'has' if len(clashes) == 1 else 'have'} one of the new {parameter}s: "
                        f"{', '.join(clashes[:6])}{', …' if len(clashes) > 6 else ''}. Choose another start or "
                        "prefix, or include those elements in element_ids so they are renumbered too.")


def _same_kind(ctx, ordered, parameter: str):
    """Elements whose value a new one would duplicate: every room, or elements of the same categories."""
    from Autodesk.Revit import DB
    if parameter == "Number":
        collectors = [DB.FilteredElementCollector(ctx.doc).OfCategory(DB.BuiltInCategory.OST_Rooms)]
    else:
        category_ids = {ctx.id_value(e.Category.Id): e.Category.Id for e in ordered if e.Category is not None}
        collectors = [DB.FilteredElementCollector(ctx.doc).OfCategoryId(i) for i in category_ids.values()]
    for collector in collectors:
        yield from collector.WhereElementIsNotElementType()


def _value_of(element, parameter: str) -> str:
    from Autodesk.Revit import DB
    bip = DB.BuiltInParameter.ROOM_NUMBER if parameter == "Number" else DB.BuiltInParameter.ALL_MODEL_MARK
    found = element.get_Parameter(bip)
    return (found.AsString() or "") if found is not None else ""


def _compare_numbers(ctx, read_back: ReadBack, expected: list[tuple[int, str]], bip, parameter: str) -> None:
    for value, want in expected:
        element = ctx.doc.GetElement(ctx.element_id(value))
        stored = element.get_Parameter(bip).AsString() if element is not None else None
        read_back.same(f"element {value}", f"'{parameter}'", f"'{display_text(want, NAME)}'",
                       f"'{display_text(stored, NAME)}'" if stored is not None else "(none)")


def _renumbered_text(ctx, expected: list[tuple[int, str]], args: RenumberArgs) -> str:
    shown = ", ".join(f"{display_text(v, NAME)} (id {i})" for i, v in expected[:SAMPLE])
    more = f", … and {len(expected) - SAMPLE} more" if len(expected) > SAMPLE else ""
    rule = {"left_to_right": "west to east by plan X, same X north to south",
            "along_path": "from the leftmost, each next the nearest not yet numbered",
            "by_room": f"the number of its {door_numbers.SIDE_NAMES[args.room_side]} and a letter per room, west to east"}[args.order]
    noun = "room" if args.parameter == "Number" else "element"
    return (f"Set '{args.parameter}' of {plural(len(expected), noun)} ({rule}), read back from the model: "
            f"{shown}{more}.")

