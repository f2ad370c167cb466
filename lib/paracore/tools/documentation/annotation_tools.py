"""Annotation tools: tag elements in a view, add a text note, dimension parallel walls.

Tags, text notes and dimensions are owned by one view (OwnerViewId): they show there only.
Each tool refuses a view that cannot hold annotations (3D views, sheets, schedules, templates).
Points are given and read back in the view's plane (view_plane.py): plan X and Y in a plan, along
the view and up in a section or elevation.

Rooms are tagged with a RoomTag (Creation.Document.NewRoomTag), not an IndependentTag: Autodesk
documents NewRoomTag as what "Creates a new RoomTag referencing a room", and IndependentTag.Create
refuses a reference it cannot tag. Room tags go in plans: NewRoomTag's point is "a 2D point that
defines the tag location on the level of the room".

The working set does not change (policy "none"): the user tags the doors to go on working with
the doors ("now set their fire rating"), not with the tags. The results name the new
annotations' ids, so the model can add them to the working set when asked.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import Length, format_length
from paracore.revit.context import id_value
from paracore.revit.working_set_actions import visible_ids
from paracore.tools.framework.lookup import (
    category_summary,
    find_view,
    id_sample,
    names_match,
    type_label,
    view_label,
)
from paracore.tools.framework.reach import refuse_out_of_reach
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.documentation.view_plane import axis_names, in_view, is_plan, model_point
from paracore.tools.framework.wording import listed, plural, unique_ids

MAX_ELEMENTS = 500            # elements tagged or dimensioned in one call
MAX_TEXT = 1000               # characters of a text note
NAME = 60                     # characters of a name quoted in a result
PARALLEL = 1e-6               # |sin| of the angle under which two walls count as parallel

# Model category -> its tag category (BuiltInCategory names); any other category takes a
# multi-category tag.
TAG_CATEGORY = {"OST_Doors": "OST_DoorTags", "OST_Windows": "OST_WindowTags", "OST_Rooms": "OST_RoomTags",
                "OST_Walls": "OST_WallTags"}
TAG_CATEGORIES = (*TAG_CATEGORY.values(), "OST_MultiCategoryTags")
ROOMS = "OST_Rooms"           # tagged by RoomTag (NewRoomTag), in plans, and never by a multi-category tag


# --- argument models ---------------------------------------------------------------------------


class TagElementsArgs(BaseModel):
    element_ids: list[int] | None = Field(
        None, description="Ids of the elements to tag (doors, windows, rooms, walls, other model elements). "
                          "Leave null to tag the working set.")
    view: str | None = Field(None, description="The plan, section or elevation to tag in: its name "
                                               "('Level 1', 'Floor Plan: Level 1') or id. Leave null for the "
                                               "active view.")
    tag_type: str | None = Field(
        None, description="Tag type: 'Family: Type', a type or a family name (e.g. 'M_Door Tag'). Leave null "
                          "for each element's category's default tag (a multi-category tag for others).")
    leader: bool = Field(False, description="Draw a leader from each tag to its element (Revit then puts the "
                                            "tag's head a leader's length from the element).")


class AddTextNoteArgs(BaseModel):
    view: str | None = Field(None, description="The view to write in: its name or id. Leave null for the "
                                               "active view.")
    text: str = Field(description="The text of the note.")
    position: tuple[Length, Length] = Field(
        description="Where the note goes, as [x, y] in the view: in a plan the plan's x and y; in a section or "
                    "elevation x along the view (its right direction) and y the height (elevation). Numbers in "
                    "the project's units or strings with a unit, e.g. [5, 3] or ['5 m', '3 m'].")


class DimensionWallsArgs(BaseModel):
    element_ids: list[int] | None = Field(
        None, description="Ids of two or more parallel straight walls. Leave null to use the working set.")
    view: str | None = Field(None, description="The plan, or the section cutting across the walls, to dimension "
                                               "in: its name or id. Leave null for the active view.")


# --- helpers -----------------------------------------------------------------------------------


def _annotation_view(ctx, name: str | None):
    """The view asked for (or the active one), when it can hold annotations."""
    from Autodesk.Revit import DB
    view = find_view(ctx, name) if name is not None else (ctx.uidoc.ActiveView if ctx.uidoc else None)
    if view is None:
        raise ToolError("There is no active view. Name the view (e.g. view='Level 1'), or open one in Revit.")
    if view.IsTemplate or isinstance(view, (DB.ViewSheet, DB.TableView, DB.View3D)):
        raise ToolError(f"'{display_text(view_label(view), NAME)}' cannot hold tags, text or dimensions "
                        "(3D views, sheets, schedules and templates cannot). Give a plan, section or elevation.")
    return view


def _element_ids(args) -> list[int]:
    ids = unique_ids(args.element_ids or [])
    if not ids:
        raise ToolError("element_ids is empty and so is the working set: give the elements, or put them in the "
                        "working set first (search_elements).")
    if len(ids) > MAX_ELEMENTS:
        raise ToolError(f"Too many elements: at most {MAX_ELEMENTS} in one call. Split them into smaller calls.")
    return ids


def _visible(ctx, view) -> set[int]:
    return visible_ids(ctx.doc, view)


def _view_name(view) -> str:
    return f"'{display_text(view_label(view), NAME)}'"


# --- tag_elements --------------------------------------------------------------------------------


def _tag_types(ctx) -> dict[str, list]:
    """Tag family types by tag category name."""
    from Autodesk.Revit import DB
    return {name: list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.FamilySymbol)
                       .OfCategory(getattr(DB.BuiltInCategory, name)))
            for name in TAG_CATEGORIES}


def _category_name(element) -> str | None:
    """The element's BuiltInCategory name ("OST_Doors"); None without a category."""
    from Autodesk.Revit import DB
    category = element.Category
    if category is None:
        return None
    try:
        return DB.BuiltInCategory(_id(category.Id)).ToString()
    except ValueError:
        return None


def _id(item) -> int:
    """The int id of an ElementId, or of an element."""
    return id_value(getattr(item, "Id", item))


def _find_tag_type(ctx, types: dict[str, list], name: str):
    every = [t for group in types.values() for t in group]
    for matches in ([t for t in every if names_match(type_label(t), name)],
                    [t for t in every if names_match(t.Name, name)],
                    [t for t in every if names_match(getattr(t, "FamilyName", "") or "", name)]):
        if matches:
            return matches[0]
    labels = ", ".join(display_text(type_label(t), NAME) for t in every[:12]) or "none loaded"
    raise ToolError(f"No tag type named '{display_text(name, NAME)}'. Tag types: {labels}.")


def _tag_type_for(element, types: dict[str, list], chosen):
    """The tag type for the element: the chosen one if it tags its category, else the default.
    A room takes a room tag only (multi-category tags do not tag rooms)."""
    category = _category_name(element)
    own = types.get(TAG_CATEGORY.get(category)) or []
    fitting = own if category == ROOMS else own + types["OST_MultiCategoryTags"]
    if chosen is not None:
        return chosen if any(_id(t) == _id(chosen) for t in fitting) else None
    return fitting[0] if fitting else None


def _head_position(element):
    """Where the tag goes: the element's location point, or the middle of its location curve."""
    from Autodesk.Revit import DB
    location = element.Location
    if isinstance(location, DB.LocationPoint):
        return location.Point
    if isinstance(location, DB.LocationCurve):
        return location.Curve.Evaluate(0.5, True)
    return None


def _tagged_by(ctx, tag) -> list[int]:
    """The ids of the elements a tag tags: a room tag's room, an IndependentTag's elements."""
    from Autodesk.Revit.DB.Architecture import RoomTag
    if isinstance(tag, RoomTag):
        room = ctx.id_value(tag.TaggedLocalRoomId)
        return [room] if room != -1 else []
    return [ctx.id_value(i) for i in tag.GetTaggedLocalElementIds()]


def _tags_in_view(ctx, view) -> dict[int, int]:
    """Tagged element id -> tag id, for the tags already in the view, room tags included. Room
    tags are collected by category: the class filter does not take RoomTag, a class "that exists
    in the API, but not in Revit's native object model" (FilteredElementCollector.OfClass)."""
    from Autodesk.Revit import DB
    from Autodesk.Revit.DB.Architecture import RoomTag
    room_tags = (DB.FilteredElementCollector(ctx.doc).OfCategory(DB.BuiltInCategory.OST_RoomTags)
                 .WhereElementIsNotElementType())
    found = {}
    for tags in (DB.FilteredElementCollector(ctx.doc).OfClass(DB.IndependentTag),
                 (t for t in room_tags if isinstance(t, RoomTag))):
        for tag in tags:
            if tag.OwnerViewId == view.Id:
                for tagged in _tagged_by(ctx, tag):
                    found[tagged] = ctx.id_value(tag.Id)
    return found


def _describe_tag(ctx, args: TagElementsArgs) -> str:
    where = f"view {args.view!r}" if args.view else "the active view"
    what = f"with {args.tag_type!r}" if args.tag_type else "with each category's default tag"
    return f"Tag {plural(len(args.element_ids or []), 'element')} in {where} {what}" + \
        (", with leaders." if args.leader else ".")


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_tag,
      changes=lambda args: False)   # a tag is a new element: the tagged ones do not change
def tag_elements(ctx, args: TagElementsArgs):
    """Tag elements in a plan, section or elevation: doors, windows, rooms and walls get their
    category's tag, other model elements a multi-category tag (or the tag_type given).

    Each tag goes at its element's location; rooms get room tags, in plans only. Elements the view
    does not show, already tagged in it, or without a tag type for their category are reported,
    not tagged. Leave element_ids out to tag the working set and view out for the active view.
    The working set does not change.
    """
    view = _annotation_view(ctx, args.view)
    ids = _element_ids(args)
    elements = ctx.elements(ids)   # a ToolError lists ids that do not exist
    types = _tag_types(ctx)
    chosen = _find_tag_type(ctx, types, args.tag_type) if args.tag_type is not None else None
    visible, tagged = _visible(ctx, view), _tags_in_view(ctx, view)
    skipped: dict[str, list[int]] = {}
    placed: list[tuple[int, int]] = []
    asked: dict[int, object] = {}   # tag id -> the point it was placed at
    for value, element in zip(ids, elements):
        reason, tag_type, head = _why_not_tag(element, value, view, visible, tagged, types, chosen)
        if reason:
            skipped.setdefault(reason, []).append(value)
            continue
        tag = _place_tag(ctx, view, element, tag_type, head, bool(args.leader))
        placed.append((value, ctx.id_value(tag.Id)))
        asked[ctx.id_value(tag.Id)] = head
    view_id = ctx.id_value(view.Id)

    def compare(read_back: ReadBack) -> None:
        for tag_value, head in asked.items():
            tag = ctx.doc.GetElement(ctx.element_id(tag_value))
            if tag is not None:   # a missing tag is _check_tags' error
                _read_back_tag(read_back, view, f"tag {tag_value}", tag, head, bool(args.leader))

    return ToolOutput(change=Change(
        action=f"Tagging {plural(len(placed), 'element')} in {_view_name(view)}",
        hint="Check the view and the tag types, then ask again.", compare=compare,
        report=lambda: _check_tags(ctx, view_id, placed, skipped)))


def _place_tag(ctx, view, element, tag_type, head, leader: bool):
    """A room tag for a room (NewRoomTag at its point, then the tag type asked), an
    IndependentTag for anything else (its head at the point, or its leader's end there)."""
    from Autodesk.Revit import DB
    if _category_name(element) != ROOMS:
        return DB.IndependentTag.Create(ctx.doc, tag_type.Id, view.Id, DB.Reference(element), leader,
                                        DB.TagOrientation.Horizontal, head)
    tag = ctx.doc.Create.NewRoomTag(DB.LinkElementId(element.Id), DB.UV(head.X, head.Y), view.Id)
    if tag is None:   # NewRoomTag: "If successful a RoomTag object will be returned, otherwise null"
        raise ToolError(f"Revit made no room tag for room {ctx.id_value(element.Id)}. Load a room tag family "
                        "(Insert > Load Family > Annotations), then ask again.")
    if ctx.id_value(tag.GetTypeId()) != ctx.id_value(tag_type.Id):
        tag.ChangeTypeId(tag_type.Id)
    if leader:
        tag.HasLeader = True
    return tag


def _read_back_tag(read_back: ReadBack, view, subject: str, tag, head, leader: bool) -> None:
    """Compare a new tag with the request, in the view's plane.

    With a leader, only the leader is compared. IndependentTag.Create: "For tags with leaders,
    this point is the end point of the leader, and a leader of default length will be created
    from this point to the tag head": that length is not documented, and an attached end has no
    position to read (GetLeaderEnd: "There is no leader end because the tag does not use a free end
    leader"); where a room tag's head and location go once it has a leader is not documented either.
    Without a leader, a room tag's location is the point asked (SpatialElementTag.Location: "the
    location of the tag within the level"), and an IndependentTag's head is ("For tags without
    leaders, this point is the position of the tag head")."""
    from Autodesk.Revit import DB
    from Autodesk.Revit.DB.Architecture import RoomTag
    if leader:
        read_back.same(subject, "leader", "drawn", "drawn" if tag.HasLeader else "none")
    elif isinstance(tag, RoomTag):
        location = tag.Location
        at = location.Point if isinstance(location, DB.LocationPoint) else tag.TagHeadPosition
        read_back.point(subject, "location", head, at)
    else:
        read_back.point(subject, _where("head", view), in_view(view, head), in_view(view, tag.TagHeadPosition))


def _where(what: str, view) -> str:
    """ "head", or "head (along the view's right, height)" in a section or elevation."""
    return what if is_plan(view) else f"{what} ({axis_names(view)})"


def _why_not_tag(element, value, view, visible, tagged, types, chosen):
    """(reason it is not tagged or "", tag type, head position)."""
    from Autodesk.Revit import DB
    if isinstance(element, (DB.ElementType, DB.View)) or element.Category is None:
        return "not a model element shown in views (a type or a view)", None, None
    room = _category_name(element) == ROOMS
    if room and not is_plan(view):
        return "rooms: room tags go in plans (tag them in the plan of their level)", None, None
    if not (_room_in_plan(element, view) if room else value in visible):
        return "not shown in this view (another level, or cropped out)", None, None
    if value in tagged:
        return "already tagged in this view", None, None
    tag_type = _tag_type_for(element, types, chosen)
    if tag_type is None:
        which = "the tag type given does not tag" if chosen is not None else "no tag type loaded for"
        return f"{which} their category", None, None
    head = _head_position(element)
    if head is None:
        return "no location to put a tag at", None, None
    return "", tag_type, head


def _room_in_plan(room, view) -> bool:
    """A room shows in the plan of its level. Asked of the room, not of the view's collector:
    whether a plan's collector returns rooms is not documented."""
    level = view.GenLevel
    return level is not None and room.LevelId == level.Id


def _check_tags(ctx, view_id: int, placed, skipped) -> str:
    """Re-read each new tag: in the model, owned by the view, tagging its element."""
    view = ctx.doc.GetElement(ctx.element_id(view_id))
    wrong = []
    for element_value, tag_value in placed:
        tag = ctx.doc.GetElement(ctx.element_id(tag_value))
        tags = [] if tag is None else _tagged_by(ctx, tag)
        if tag is None or ctx.id_value(tag.OwnerViewId) != view_id or tags != [element_value]:
            wrong.append(element_value)
    if wrong:
        raise ToolError(f"Revit did not keep the tags of {plural(len(wrong), 'element')}: "
                        f"{id_sample(wrong, where='')}.")
    tagged_elements = [ctx.doc.GetElement(ctx.element_id(e)) for e, _ in placed]
    text = (f"Tagged {plural(len(placed), 'element')} in {_view_name(view)}"
            + (f" ({category_summary(tagged_elements)})" if placed else "") + ".")
    if placed:
        text += f" New tag ids: {id_sample([t for _, t in placed], where='')}."
    for reason, values in skipped.items():
        text += f" Not tagged, {reason}: {plural(len(values), 'element')} ({id_sample(values, where='')})."
    return text + " The working set is unchanged."


# --- add_text_note ---------------------------------------------------------------------------------


def _describe_text(ctx, args: AddTextNoteArgs) -> str:
    where = f"view {args.view!r}" if args.view else "the active view"
    return f"Add the text note {display_text(args.text, NAME)!r} in {where} at {list(args.position)}."


@tool(writes=True, working_set_policy="none", describe=_describe_text)
def add_text_note(ctx, args: AddTextNoteArgs):
    """Add a text note to a plan, section or elevation at a point [x, y] (project units): in a
    plan its x and y, in a section or elevation along the view and up (the height). It takes the
    project's first text note type. The working set does not change."""
    from Autodesk.Revit import DB
    text = args.text.strip()
    if not text:
        raise ToolError("text is empty: give the words of the note.")
    if len(text) > MAX_TEXT:
        raise ToolError(f"text is {len(text)} characters long: a note holds at most {MAX_TEXT}. Shorten it.")
    view = _annotation_view(ctx, args.view)
    note_type = DB.FilteredElementCollector(ctx.doc).OfClass(DB.TextNoteType).FirstElement()
    if note_type is None:
        raise ToolError("The project has no text note type. Load one in Revit (Annotate > Text), then ask again.")
    point = DB.XYZ(*model_point(view, ctx.length(args.position[0]), ctx.length(args.position[1])))
    refuse_out_of_reach(ctx, point.X, point.Y, "The note's position", point.Z)
    note = DB.TextNote.Create(ctx.doc, view.Id, point, text, note_type.Id)
    note_id, view_id = ctx.id_value(note.Id), ctx.id_value(view.Id)

    def kept():
        found = ctx.doc.GetElement(ctx.element_id(note_id))
        if found is None or ctx.id_value(found.OwnerViewId) != view_id:
            raise ToolError("Revit did not keep the text note.")
        return found

    def compare(read_back: ReadBack) -> None:
        found = kept()
        read_back.same(f"text note {note_id}", "text", f"'{display_text(text, NAME)}'",
                       f"'{display_text(found.Text, NAME)}'")
        read_back.point(f"text note {note_id}", _where("position", view), in_view(view, point),
                        in_view(view, found.Coord))

    def report() -> str:
        found = kept()
        shown = in_view(view, found.Coord)
        at = ", ".join(format_length(v, ctx.length_unit) for v in (shown.X, shown.Y))
        where = "" if is_plan(view) else f" ({axis_names(view)})"
        return (f"Added text note {note_id} '{display_text(found.Text, NAME)}' in "
                f"{_view_name(ctx.doc.GetElement(ctx.element_id(view_id)))} at [{at}]{where}. "
                "The working set is unchanged.")

    return ToolOutput(change=Change(action="Adding the text note", compare=compare, report=report,
                                    hint="Check the text and the position, then ask again."))


# --- dimension_walls ---------------------------------------------------------------------------------


def _walls(ctx, ids, visible) -> list:
    """The walls of ``ids``: straight, shown in the view, and all parallel; a ToolError otherwise."""
    from Autodesk.Revit import DB
    elements = ctx.elements(ids)
    not_walls = [v for v, e in zip(ids, elements) if not isinstance(e, DB.Wall)]
    if not_walls:
        raise ToolError(f"Only walls can be dimensioned: {id_sample(not_walls, where='')} are not walls "
                        f"({category_summary([e for e in elements if not isinstance(e, DB.Wall)])}).")
    curved = [v for v, e in zip(ids, elements) if not isinstance(e.Location.Curve, DB.Line)]
    if curved:
        raise ToolError(f"Only straight walls can be dimensioned: {id_sample(curved, where='')} are curved.")
    hidden = [v for v in ids if v not in visible]
    if hidden:
        raise ToolError(f"The view does not show {plural(len(hidden), 'wall')} ({id_sample(hidden, where='')}): "
                        "dimension them in the plan of their level.")
    if len(elements) < 2:
        raise ToolError("Give two or more parallel walls: a dimension string measures between walls.")
    normal = elements[0].Orientation
    skew = [v for v, e in zip(ids, elements) if abs(normal.CrossProduct(e.Orientation).Z) > PARALLEL]
    if skew:
        raise ToolError(f"The walls are not parallel: {id_sample(skew, where='')} are not parallel to wall "
                        f"{ids[0]}. A dimension string measures across parallel walls: give parallel walls only.")
    return elements


def _refuse_walls_along_the_view(view, walls) -> None:
    """A section or elevation dimensions walls it cuts across: their faces must be orthogonal to
    the view (Revit's failure LinearDimensionReferenceNotOrthogonalToView: "The planes of one or
    more references are not exactly orthogonal to this view")."""
    if is_plan(view):
        return
    towards = view.ViewDirection
    if abs(walls[0].Orientation.DotProduct(towards)) > PARALLEL:
        raise ToolError(f"{_view_name(view)} looks along the walls' faces, not across them: it cannot dimension "
                        "their thickness. Dimension them in a plan, or in a section that cuts across the walls.")


def _dimension_line(view, wall):
    """A line across the walls through the first wall's middle, in the view's plane (a section's
    through its origin), along the wall's orientation."""
    from Autodesk.Revit import DB
    start = wall.Location.Curve.Evaluate(0.5, True)
    if not is_plan(view):
        towards = view.ViewDirection
        start = start.Add(towards.Multiply(view.Origin.Subtract(start).DotProduct(towards)))
    return DB.Line.CreateBound(start, start.Add(wall.Orientation))


def _describe_dimension(ctx, args: DimensionWallsArgs) -> str:
    where = f"view {args.view!r}" if args.view else "the active view"
    return f"Dimension {plural(len(args.element_ids or []), 'wall')} in {where} (both faces of each)."


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_dimension,
      changes=lambda args: False)   # a dimension is a new element: the walls it measures do not change
def dimension_walls(ctx, args: DimensionWallsArgs):
    """Dimension parallel straight walls in a plan, or in a section cutting across them: one
    aligned dimension string through both faces of each wall (thicknesses and the clear
    distances between them).

    Walls that are not parallel, curved, or not shown in the view are refused. Leave element_ids
    out to use the working set and view out for the active view. The working set does not change.
    """
    from Autodesk.Revit import DB
    view = _annotation_view(ctx, args.view)
    walls = _walls(ctx, _element_ids(args), _visible(ctx, view))
    _refuse_walls_along_the_view(view, walls)
    references = DB.ReferenceArray()   # Revit's own collection: built empty, filled with Append
    for wall in walls:
        for side in (DB.ShellLayerType.Exterior, DB.ShellLayerType.Interior):
            for reference in DB.HostObjectUtils.GetSideFaces(wall, side):
                references.Append(reference)
    dimension = ctx.doc.Create.NewDimension(view, _dimension_line(view, walls[0]), references)
    dimension_id, view_id = ctx.id_value(dimension.Id), ctx.id_value(view.Id)
    references_asked = references.Size

    def compare(read_back: ReadBack) -> None:
        found = ctx.doc.GetElement(ctx.element_id(dimension_id))
        if found is not None:   # a missing dimension is _check_dimension's error
            read_back.same(f"dimension {dimension_id}", "references", references_asked, found.References.Size)

    return ToolOutput(change=Change(
        action=f"Dimensioning {plural(len(walls), 'wall')}", compare=compare,
        hint="Check that the walls are parallel and shown in the view, then ask again.",
        report=lambda: _check_dimension(ctx, dimension_id, view_id, len(walls))))


def _check_dimension(ctx, dimension_id: int, view_id: int, walls: int) -> str:
    found = ctx.doc.GetElement(ctx.element_id(dimension_id))
    if found is None or ctx.id_value(found.OwnerViewId) != view_id:
        raise ToolError("Revit did not keep the dimension.")
    if found.NumberOfSegments:
        values = [segment.Value for segment in found.Segments]
    else:
        values = [found.Value]
    shown = listed([format_length(v, ctx.length_unit) for v in values], 20)
    view = ctx.doc.GetElement(ctx.element_id(view_id))
    return (f"Dimensioned {plural(walls, 'wall')} in {_view_name(view)}: dimension {dimension_id} with "
            f"{plural(len(values), 'segment')}: {shown} (total {format_length(sum(values), ctx.length_unit)}). "
            "The working set is unchanged.")
