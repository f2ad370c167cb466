"""In-Revit checks of tags, room tags, text notes in sections and viewports' outlines (the rows of
docs/REVIT_BEHAVIOUR.md that name behaviour_checks/annotation.py): what Autodesk leaves open.

Each check builds on a level of its own above the model (walls, a door, a room, the level's plan),
or cuts a section of its own, so the model's own elements take no part. A check that goes through
a tool (tag_elements, add_text_note) also proves that the tool's read-back accepts what Revit does.
"""
from Autodesk.Revit import DB
from Autodesk.Revit.DB.Architecture import RoomTag
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException

from behaviour_checks import _site as site
from kit import expect, skip, transaction
from paracore.revit.context import id_value

SIZE = 20.0          # feet: the side of the square of walls around the check's room
DEPTH = 5.0          # feet a check's section sees on each side of the square's middle
MILE = 5280.0        # feet


# -- what the checks build -------------------------------------------------------------------------------

def _tag_type(doc, category, what):
    found = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.FamilySymbol).OfCategory(category)), None)
    if found is None:
        skip(f"the model has no {what} loaded")
    return found


def _walled_level(doc, with_door=False):
    """A new level above the model with a square of walls (and a door in the first), its plan."""
    x, y = site.spot(doc)
    with transaction(doc, "Paracore check: walls, a door and a plan"):
        level = site.high_level(doc)
        plan = site.plan(doc, level)
        walls = site.square(doc, level, (x, y), SIZE)
        door = site.door(doc, walls[0], DB.XYZ(x + SIZE / 2, y, level.Elevation)) if with_door else None
    return level, plan, walls, door, (x + SIZE / 2, y + SIZE / 2)


def _room(doc, level, u, v):
    with transaction(doc, "Paracore check: room"):
        return doc.Create.NewRoom(level, DB.UV(u, v))


def _section_across(doc, walls, level, depth=DEPTH):
    """A section through the square's middle looking along -X (towards its west wall), cutting its
    first and third walls (along X) and seeing ``depth`` feet on each side of its middle."""
    section_type = next((t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                         if t.ViewFamily == DB.ViewFamily.Section), None)
    if section_type is None:
        skip("the model has no section view type")
    start, end = walls[1].Location.Curve.GetEndPoint(0), walls[3].Location.Curve.GetEndPoint(0)
    frame = DB.Transform.CreateTranslation(DB.XYZ((start.X + end.X) / 2, (start.Y + end.Y) / 2, level.Elevation))
    frame.BasisX, frame.BasisY, frame.BasisZ = DB.XYZ(0, 1, 0), DB.XYZ.BasisZ, DB.XYZ(1, 0, 0)
    box = DB.BoundingBoxXYZ()
    box.Transform = frame
    box.Min, box.Max = DB.XYZ(-SIZE, -1.0, -depth), DB.XYZ(SIZE, 15.0, depth)
    with transaction(doc, "Paracore check: a section"):
        return DB.ViewSection.CreateSection(doc, section_type.Id, box), frame


# -- tags -------------------------------------------------------------------------------------------------

def leader_tag_head(scratch):
    """Not documented: how far from the point (the leader's end) Revit puts a new leader tag's head."""
    doc = scratch.doc
    _, plan, _, door, _ = _walled_level(doc, with_door=True)
    point = door.Location.Point
    with transaction(doc, "Paracore check: a door tag with a leader"):
        tag = DB.IndependentTag.Create(doc, _tag_type(doc, DB.BuiltInCategory.OST_DoorTags, "door tag").Id, plan.Id,
                                       DB.Reference(door), True, DB.TagOrientation.Horizontal, point)
    head = tag.TagHeadPosition
    expect(tag.HasLeader, "a tag created with addLeader=True has no leader")
    expect(head.DistanceTo(point) > site.TOLERANCE,
           f"the head is at the point given ({site.shown(head)}): the stand-in puts it a default leader away")
    return f"head {head.DistanceTo(point):.4f} ft from the leader's end, at {site.shown(head)}, view scale {plan.Scale}"


def tag_without_leader_head(scratch):
    """Documented: "For tags without leaders, this point is the position of the tag head"."""
    doc = scratch.doc
    _, plan, _, door, _ = _walled_level(doc, with_door=True)
    point = door.Location.Point
    with transaction(doc, "Paracore check: a door tag"):
        tag = DB.IndependentTag.Create(doc, _tag_type(doc, DB.BuiltInCategory.OST_DoorTags, "door tag").Id, plan.Id,
                                       DB.Reference(door), False, DB.TagOrientation.Horizontal, point)
    head = tag.TagHeadPosition
    expect(site.near(head.X, point.X) and site.near(head.Y, point.Y),
           f"the head is at {site.shown(head)}, not at the point {site.shown(point)}")
    return f"head {site.shown(head)}, no leader: {not tag.HasLeader}"


def tool_tags_with_a_leader(scratch):
    """tag_elements with leaders passes its read-back wherever Revit puts the heads."""
    doc = scratch.doc
    _, plan, _, door, _ = _walled_level(doc, with_door=True)
    _tag_type(doc, DB.BuiltInCategory.OST_DoorTags, "door tag")
    text = scratch.call("tag_elements", {"element_ids": [id_value(door.Id)], "view": str(id_value(plan.Id)),
                                         "leader": True})
    expect(text.startswith("Tagged 1 element"), f"tag_elements said: {text}")
    return text[:120]


def independent_tag_refuses_a_room(scratch):
    """Not documented for rooms: IndependentTag.Create is refused a room's reference ("The reference
    can not be tagged" is among its documented refusals); Paracore tags rooms with NewRoomTag."""
    doc = scratch.doc
    level, plan, _, _, (u, v) = _walled_level(doc)
    room = _room(doc, level, u, v)
    room_tag = _tag_type(doc, DB.BuiltInCategory.OST_RoomTags, "room tag")
    with transaction(doc, "Paracore check: an IndependentTag on a room"):
        refusal = site.refused(lambda: DB.IndependentTag.Create(
            doc, room_tag.Id, plan.Id, DB.Reference(room), False, DB.TagOrientation.Horizontal, DB.XYZ(u, v, 0)),
            ArgumentException, InvalidOperationException)
    expect(refusal is not None, "IndependentTag.Create tagged a room: the stand-in refuses it")
    return f"refused: {refusal}"


# -- room tags --------------------------------------------------------------------------------------------

def new_room_tag(scratch):
    """Documented: the tag's location is the point, on the room's level. Not documented: a new
    room tag has no leader and its head at its location."""
    doc = scratch.doc
    level, plan, _, _, (u, v) = _walled_level(doc)
    room = _room(doc, level, u, v)
    _tag_type(doc, DB.BuiltInCategory.OST_RoomTags, "room tag")
    with transaction(doc, "Paracore check: a room tag"):
        tag = doc.Create.NewRoomTag(DB.LinkElementId(room.Id), DB.UV(u + 1.0, v), plan.Id)
    expect(isinstance(tag, RoomTag), f"NewRoomTag returned {tag!r}")
    at = tag.Location.Point
    expect(site.near(at.X, u + 1.0) and site.near(at.Y, v) and site.near(at.Z, level.Elevation),
           f"the tag's location is {site.shown(at)}, not ({u + 1.0:.4f}, {v:.4f}, {level.Elevation:.4f})")
    expect(id_value(tag.TaggedLocalRoomId) == id_value(room.Id), "the tag does not tag the room")
    expect(not tag.HasLeader, "a new room tag has a leader")
    head = tag.TagHeadPosition
    expect(site.near(head.X, at.X) and site.near(head.Y, at.Y),
           f"a new room tag's head is at {site.shown(head)}, not at its location {site.shown(at)}")
    return f"location {site.shown(at)}, no leader, head at the location, type '{tag.Name}'"


def new_room_tag_refuses_a_3d_view(scratch):
    """Documented: "ArgumentException: viewId is not associated with a plan view or section view"."""
    doc = scratch.doc
    level, _, _, _, (u, v) = _walled_level(doc)
    room = _room(doc, level, u, v)
    three_d = next((t for t in DB.FilteredElementCollector(doc).OfClass(DB.ViewFamilyType)
                    if t.ViewFamily == DB.ViewFamily.ThreeDimensional), None)
    if three_d is None:
        skip("the model has no 3D view type")
    with transaction(doc, "Paracore check: a room tag in a 3D view"):
        view = DB.View3D.CreateIsometric(doc, three_d.Id)
        refusal = site.refused(lambda: doc.Create.NewRoomTag(DB.LinkElementId(room.Id), DB.UV(u, v), view.Id),
                               ArgumentException)
    expect(refusal is not None, "NewRoomTag tagged a room in a 3D view")
    return f"refused: {refusal}"


def class_filter_refuses_rooms_and_room_tags(scratch):
    """Documented (ElementClassFilter): Room and RoomTag "exist in the API, but not in Revit's native
    object model": OfClass refuses them; Paracore collects room tags by category."""
    doc = scratch.doc
    refusals = [site.refused(lambda: DB.FilteredElementCollector(doc).OfClass(cls), ArgumentException)
                for cls in (DB.Architecture.Room, RoomTag)]
    expect(all(refusals), f"OfClass(Room), OfClass(RoomTag): {refusals}")
    return f"refused: {refusals}"


def room_tag_goes_with_its_room(scratch):
    """Not documented: deleting a room deletes its room tags (as an element takes its tags)."""
    doc = scratch.doc
    level, plan, _, _, (u, v) = _walled_level(doc)
    room = _room(doc, level, u, v)
    _tag_type(doc, DB.BuiltInCategory.OST_RoomTags, "room tag")
    with transaction(doc, "Paracore check: a room tag"):
        tag_id = id_value(doc.Create.NewRoomTag(DB.LinkElementId(room.Id), DB.UV(u, v), plan.Id).Id)
    with transaction(doc, "Paracore check: delete the room"):
        deleted = {id_value(i) for i in doc.Delete(room.Id)}
    expect(tag_id in deleted, f"Delete(room) returned {sorted(deleted)}, without its room tag {tag_id}")
    return f"Delete(room) took the room tag along ({len(deleted)} ids)"


def plan_collector_returns_its_rooms(scratch):
    """Not documented: a plan's collector returns the rooms of its level (Paracore asks the room's
    level instead, so it is right either way)."""
    doc = scratch.doc
    level, plan, _, _, (u, v) = _walled_level(doc)
    room = _room(doc, level, u, v)
    shown = {id_value(i) for i in DB.FilteredElementCollector(doc, plan.Id).WhereElementIsNotElementType()
             .ToElementIds()}
    expect(id_value(room.Id) in shown, "the plan's collector does not return the room of its level")
    return "the plan's collector returns its level's room"


def tool_tags_a_room_with_a_room_tag(scratch):
    doc = scratch.doc
    level, plan, _, _, (u, v) = _walled_level(doc)
    room = _room(doc, level, u, v)
    _tag_type(doc, DB.BuiltInCategory.OST_RoomTags, "room tag")
    text = scratch.call("tag_elements", {"element_ids": [id_value(room.Id)], "view": str(id_value(plan.Id))})
    tags = [t for t in DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_RoomTags)
            .WhereElementIsNotElementType() if isinstance(t, RoomTag) and t.OwnerViewId == plan.Id]
    expect(len(tags) == 1 and id_value(tags[0].TaggedLocalRoomId) == id_value(room.Id),
           f"tag_elements said {text!r}; the plan holds {len(tags)} room tags")
    return text[:120]


# -- sections ---------------------------------------------------------------------------------------------

def section_frame(scratch):
    """CreateSection's page says right, up and view direction "form a left handed coordinate
    system"; View.ViewDirection is "the direction towards the viewer". The stand-in takes
    RightDirection = the box's BasisX, UpDirection = BasisY, ViewDirection = BasisZ."""
    doc = scratch.doc
    level, _, walls, _, _ = _walled_level(doc)
    section, frame = _section_across(doc, walls, level)
    got = {"right": section.RightDirection, "up": section.UpDirection, "view": section.ViewDirection}
    asked = {"right": frame.BasisX, "up": frame.BasisY, "view": frame.BasisZ}
    wrong = [f"{k} {site.shown(got[k])} (box {site.shown(asked[k])})" for k in got
             if not got[k].IsAlmostEqualTo(asked[k], site.TOLERANCE)]
    expect(not wrong, "the section's frame is not its box's: " + "; ".join(wrong))
    return f"right {site.shown(got['right'])}, up {site.shown(got['up'])}, view {site.shown(got['view'])}"


def section_shows_what_its_box_holds(scratch):
    """Documented: the crop region is the box's Min and Max on the cut plane, and "the far clip
    distance will be equal to the difference of the z-coordinates" of Min and Max: the section's
    collector returns the walls it cuts, not those in front of it or beyond its far clip."""
    doc = scratch.doc
    level, _, walls, _, _ = _walled_level(doc)
    section, _ = _section_across(doc, walls, level)
    shown = {id_value(i) for i in DB.FilteredElementCollector(doc, section.Id).OfClass(DB.Wall).ToElementIds()}
    cut, outside = [id_value(w.Id) for w in walls[0::2]], [id_value(w.Id) for w in walls[1::2]]
    expect(set(cut) <= shown, f"the section does not show the walls it cuts ({cut}); it shows {sorted(shown)}")
    expect(not set(outside) & shown, f"the section shows walls outside its box ({sorted(set(outside) & shown)})")
    return "shows the 2 walls it cuts, not the 2 outside its depth"


def dimension_refuses_faces_along_the_view(scratch):
    """Not documented how: Revit's failure LinearDimensionReferenceNotOrthogonalToView ("The planes
    of one or more references are not exactly orthogonal to this view"); the stand-in raises
    ArgumentException. dimension_walls refuses such walls before calling Revit."""
    doc = scratch.doc
    level, _, walls, _, (u, v) = _walled_level(doc)
    section, _ = _section_across(doc, walls, level, depth=SIZE)
    faces = DB.ReferenceArray()
    for wall in (walls[1], walls[3]):   # along Y: their faces look along the section's view direction
        faces.Append(DB.HostObjectUtils.GetSideFaces(wall, DB.ShellLayerType.Exterior)[0])
    across = DB.Line.CreateBound(DB.XYZ(u - SIZE, v, level.Elevation), DB.XYZ(u + SIZE, v, level.Elevation))
    step = DB.Transaction(doc, "Paracore check: a dimension along the view")
    step.Start()
    try:
        refusal = site.refused(lambda: doc.Create.NewDimension(section, across, faces),
                               ArgumentException, InvalidOperationException)
    finally:
        site.ended(step)
    expect(refusal is not None, "NewDimension made a dimension between faces parallel to the section")
    return f"refused: {refusal}"


def text_note_in_a_section(scratch):
    """Not documented: whether a text note created in a section stays at the depth given or goes
    onto the section's plane. add_text_note compares across and up the view only."""
    doc = scratch.doc
    level, _, walls, _, _ = _walled_level(doc)
    section, frame = _section_across(doc, walls, level)
    right = frame.OfPoint(DB.XYZ(2.0, 0, 0)).DotProduct(section.RightDirection)
    up = level.Elevation + 3.0
    text = scratch.call("add_text_note", {"view": str(id_value(section.Id)), "text": "Paracore check",
                                          "position": [f"{right * 0.3048:.6f} m", f"{up * 0.3048:.6f} m"]})
    note = next(n for n in DB.FilteredElementCollector(doc).OfClass(DB.TextNote) if n.OwnerViewId == section.Id)
    depth = note.Coord.Subtract(section.Origin).DotProduct(section.ViewDirection)
    return f"{text[:80]}; the note is {depth:.4f} ft off the section's plane"


def text_note_beyond_ten_miles(scratch):
    """Documented: "A valid point must not be father then 10 miles (approx. 16 km) from the origin"."""
    doc = scratch.doc
    _, plan, _, _, _ = _walled_level(doc)
    note_type = DB.FilteredElementCollector(doc).OfClass(DB.TextNoteType).FirstElement()
    if note_type is None:
        skip("the model has no text note type")
    with transaction(doc, "Paracore check: a text note 11 miles out"):
        refusal = site.refused(lambda: DB.TextNote.Create(doc, plan.Id, DB.XYZ(11 * MILE, 0, 0), "far", note_type.Id),
                               ArgumentException)
    expect(refusal is not None, "TextNote.Create made a note 11 miles from the origin")
    return f"refused: {refusal}"


def identity_is_a_new_transform(scratch):
    """Not documented: Transform.Identity gives a new transform on each read (code that sets a
    section box's basis on it leaves the next reader's identity alone)."""
    changed = DB.Transform.Identity
    changed.Origin = DB.XYZ(1, 2, 3)
    fresh = DB.Transform.Identity
    expect(fresh.Origin.IsAlmostEqualTo(DB.XYZ.Zero), f"Transform.Identity's origin is {site.shown(fresh.Origin)}")
    return "a new identity on each read"


# -- viewports ----------------------------------------------------------------------------------------------

def viewport_outline_before_regenerate(scratch):
    """Not documented: what a new viewport's GetBoxOutline gives before the document is
    regenerated (the stand-in: its centre alone). Paracore regenerates before measuring."""
    doc = scratch.doc
    _, plan, _, _, _ = _walled_level(doc)
    with transaction(doc, "Paracore check: place a view"):
        viewport = DB.Viewport.Create(doc, DB.ViewSheet.Create(doc, DB.ElementId.InvalidElementId).Id, plan.Id,
                                      DB.XYZ(1.0, 1.0, 0.0))
        before = _size(viewport.GetBoxOutline())
        doc.Regenerate()
        after = _size(viewport.GetBoxOutline())
    expect(after[0] > 0 and after[1] > 0, f"the outline after Regenerate is {after}")
    expect(before == (0.0, 0.0), f"before Regenerate the outline is already {before} (after: {after}): the "
                                 "stand-in's empty box is stricter than Revit")
    return f"before Regenerate {before}, after {after} (ft of paper)"


def _size(outline):
    low, high = outline.MinimumPoint, outline.MaximumPoint
    return round(high.X - low.X, 6), round(high.Y - low.Y, 6)


CHECKS = [
    ("a tag without a leader: its head at the point", tag_without_leader_head),
    ("a leader tag's head: a default leader from the point", leader_tag_head),
    ("tag_elements with leaders passes its read-back", tool_tags_with_a_leader),
    ("IndependentTag.Create refuses a room", independent_tag_refuses_a_room),
    ("NewRoomTag: at the point on the room's level, no leader", new_room_tag),
    ("NewRoomTag refuses a 3D view", new_room_tag_refuses_a_3d_view),
    ("OfClass refuses Room and RoomTag", class_filter_refuses_rooms_and_room_tags),
    ("a room tag goes with its room", room_tag_goes_with_its_room),
    ("a plan's collector returns its level's rooms", plan_collector_returns_its_rooms),
    ("tag_elements tags a room with a room tag", tool_tags_a_room_with_a_room_tag),
    ("a section's frame is its box's", section_frame),
    ("a section shows what its box holds", section_shows_what_its_box_holds),
    ("NewDimension refuses faces along the view", dimension_refuses_faces_along_the_view),
    ("add_text_note in a section: across and up the view", text_note_in_a_section),
    ("TextNote.Create refuses a point 11 miles out", text_note_beyond_ten_miles),
    ("Transform.Identity is a new transform on each read", identity_is_a_new_transform),
    ("a new viewport's outline before Regenerate", viewport_outline_before_regenerate),
]
