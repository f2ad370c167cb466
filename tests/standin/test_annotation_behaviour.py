"""Annotation in the stand-in, as Autodesk documents it: where IndependentTag.Create puts a tag's
head, room tags (NewRoomTag), the text note's 10-mile limit, sections' frames, and a viewport's
outline before and after regeneration. The documentation each test follows is quoted in the
stand-in's modules (_annotation.py, _room_tags.py, _sections.py, _sheets.py)."""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (XYZ, BuiltInCategory, ElementId, FamilySymbol, FilteredElementCollector,
                               IndependentTag, LinkElementId, Reference, TagOrientation, TextNote, TextNoteType,
                               Transaction, Transform, UV, View3D, ViewPlan, Viewport, ViewSheet, Wall)
from Autodesk.Revit.DB.Architecture import Room, RoomTag
from Autodesk.Revit.DB._annotation import LEADER_PAPER
from Autodesk.Revit.Exceptions import ArgumentException
from revit_standin.sections import cut_section
from section_walls import all_beyond, crosses


@pytest.fixture
def open_transaction(duplex_rw):
    transaction = Transaction(duplex_rw, "test")
    transaction.Start()
    yield duplex_rw
    if transaction.HasStarted() and not transaction.HasEnded():
        transaction.RollBack()


def plan(doc, name="Level 1"):
    return next(v for v in FilteredElementCollector(doc).OfClass(ViewPlan) if v.Name == name and not v.IsTemplate)


def tag_type(doc, category):
    return next(t for t in FilteredElementCollector(doc).OfClass(FamilySymbol).OfCategory(category))


def on_level(doc, category, view):
    return [e for e in FilteredElementCollector(doc).OfCategory(category).WhereElementIsNotElementType()
            if e.LevelId == view.GenLevel.Id]


def room_of(doc, view):
    return next(r for r in on_level(doc, BuiltInCategory.OST_Rooms, view) if r.Location is not None)


# -- IndependentTag.Create: the point is the head without a leader, the leader's end with one ------------------

def test_a_tag_without_a_leader_has_its_head_at_the_point(open_transaction):
    doc = open_transaction
    view = plan(doc)
    door = on_level(doc, BuiltInCategory.OST_Doors, view)[0]
    point = door.Location.Point
    tag = IndependentTag.Create(doc, tag_type(doc, BuiltInCategory.OST_DoorTags).Id, view.Id, Reference(door),
                                False, TagOrientation.Horizontal, point)
    assert tag.TagHeadPosition.IsAlmostEqualTo(point) and not tag.HasLeader


def test_a_leader_tags_point_is_the_leaders_end_and_its_head_a_default_leader_away(open_transaction):
    doc = open_transaction
    view = plan(doc)
    door = on_level(doc, BuiltInCategory.OST_Doors, view)[0]
    point = door.Location.Point
    tag = IndependentTag.Create(doc, tag_type(doc, BuiltInCategory.OST_DoorTags).Id, view.Id, Reference(door),
                                True, TagOrientation.Horizontal, point)
    head = tag.TagHeadPosition
    assert tag.HasLeader
    assert head.DistanceTo(point) == pytest.approx(LEADER_PAPER * view.Scale)
    assert head.X > point.X and head.Y > point.Y   # up and to the right in the plan


def test_a_room_cannot_be_tagged_with_an_independent_tag(open_transaction):
    doc = open_transaction
    view = plan(doc)
    room = room_of(doc, view)
    with pytest.raises(ArgumentException, match="The reference can not be tagged"):
        IndependentTag.Create(doc, tag_type(doc, BuiltInCategory.OST_RoomTags).Id, view.Id, Reference(room), False,
                              TagOrientation.Horizontal, room.Location.Point)


# -- NewRoomTag --------------------------------------------------------------------------------------------------

def test_new_room_tag_makes_a_room_tag_at_the_point_on_the_rooms_level(open_transaction):
    doc = open_transaction
    view = plan(doc)
    room = room_of(doc, view)
    at = room.Location.Point
    tag = doc.Create.NewRoomTag(LinkElementId(room.Id), UV(at.X + 1, at.Y), view.Id)
    assert isinstance(tag, RoomTag) and tag.Category.Id == ElementId(BuiltInCategory.OST_RoomTags)
    assert tag.Room.Id == room.Id and tag.TaggedLocalRoomId == room.Id
    assert tag.TaggedRoomId.HostElementId == room.Id
    assert tag.OwnerViewId == view.Id and tag.RoomTagType.Id == tag.GetTypeId()
    level = doc.GetElement(room.LevelId)
    assert tag.Location.Point.IsAlmostEqualTo(XYZ(at.X + 1, at.Y, level.Elevation))
    assert tag.TagHeadPosition.IsAlmostEqualTo(tag.Location.Point) and tag.HasLeader is False


def test_new_room_tag_takes_plans_and_sections_only(open_transaction):
    doc = open_transaction
    view = plan(doc)
    room = room_of(doc, view)
    three_d = next(v for v in FilteredElementCollector(doc).OfClass(View3D) if not v.IsTemplate)
    with pytest.raises(ArgumentException, match="plan view or section view"):
        doc.Create.NewRoomTag(LinkElementId(room.Id), UV(0, 0), three_d.Id)
    section = cut_section(doc, (0, -20), (30, -20))
    assert doc.Create.NewRoomTag(LinkElementId(room.Id), UV(0, 0), section.Id).OwnerViewId == section.Id


def test_room_tags_are_collected_by_category_not_by_class(open_transaction):
    doc = open_transaction
    view = plan(doc)
    room = room_of(doc, view)
    tag = doc.Create.NewRoomTag(LinkElementId(room.Id), UV(room.Location.Point.X, room.Location.Point.Y), view.Id)
    for cls in (RoomTag, Room):
        with pytest.raises(ArgumentException, match="native object model"):
            FilteredElementCollector(doc).OfClass(cls)
    found = FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_RoomTags).WhereElementIsNotElementType()
    assert [t.Id for t in found] == [tag.Id]


def test_a_room_tag_goes_with_its_room(open_transaction):
    doc = open_transaction
    view = plan(doc)
    room = room_of(doc, view)
    tag = doc.Create.NewRoomTag(LinkElementId(room.Id), UV(room.Location.Point.X, room.Location.Point.Y), view.Id)
    tag_id = tag.Id
    deleted = {i.Value for i in doc.Delete(room.Id)}
    assert tag_id.Value in deleted and doc.GetElement(tag_id) is None


def test_a_plans_collector_returns_the_rooms_of_its_level(duplex):
    view = plan(duplex)
    shown = {i.Value for i in FilteredElementCollector(duplex, view.Id).WhereElementIsNotElementType().ToElementIds()}
    rooms = {r.Id.Value for r in FilteredElementCollector(duplex).OfCategory(BuiltInCategory.OST_Rooms)
             .WhereElementIsNotElementType()}
    own = {r.Id.Value for r in on_level(duplex, BuiltInCategory.OST_Rooms, view)}
    assert own and rooms & shown == own

# -- TextNote.Create: "A valid point must not be father then 10 miles (approx. 16 km) from the origin." ------


def test_a_text_note_beyond_ten_miles_from_the_origin_is_refused(open_transaction):
    doc = open_transaction
    view = plan(doc)
    note_type = FilteredElementCollector(doc).OfClass(TextNoteType).FirstElement()
    ten_miles = 10 * 5280.0
    assert TextNote.Create(doc, view.Id, XYZ(ten_miles - 1, 0, 0), "edge", note_type.Id) is not None
    with pytest.raises(ArgumentException, match="10 miles"):
        TextNote.Create(doc, view.Id, XYZ(ten_miles * 0.8, ten_miles * 0.8, 0), "beyond", note_type.Id)


# -- sections ----------------------------------------------------------------------------------------------------

def test_a_sections_frame_is_its_boxs_and_it_shows_what_its_box_holds(open_transaction):
    doc = open_transaction
    section = cut_section(doc, (-5, -29), (35, -29), depth=3)
    assert section.RightDirection.IsAlmostEqualTo(XYZ(1, 0, 0))
    assert section.UpDirection.IsAlmostEqualTo(XYZ(0, 0, 1))
    assert section.ViewDirection.IsAlmostEqualTo(XYZ(0, -1, 0))
    shown = {i.Value for i in FilteredElementCollector(doc, section.Id).WhereElementIsNotElementType().ToElementIds()}
    walls = list(FilteredElementCollector(doc).OfClass(Wall))
    crossing = {w.Id.Value for w in walls if crosses(w, -29)}
    far = {w.Id.Value for w in walls if all_beyond(w, -29, 10)}
    assert crossing and crossing <= shown and not far & shown


def test_a_section_needs_a_section_type_and_an_orthonormal_box(open_transaction):
    from Autodesk.Revit.DB import BoundingBoxXYZ, ViewFamilyType, ViewSection
    doc = open_transaction
    plan_type = plan(doc).GetTypeId()
    box = BoundingBoxXYZ()
    box.Min, box.Max = XYZ(-1, -1, -1), XYZ(1, 1, 1)
    with pytest.raises(ArgumentException, match="Section ViewFamily"):
        ViewSection.CreateSection(doc, plan_type, box)
    section_type = cut_section(doc, (0, 0), (10, 0)).GetTypeId()
    assert isinstance(doc.GetElement(section_type), ViewFamilyType)
    skewed = Transform.CreateTranslation(XYZ.Zero)
    skewed.BasisX = XYZ(1, 1, 0)   # not unit length
    box.Transform = skewed
    with pytest.raises(ArgumentException, match="orthonormal"):
        ViewSection.CreateSection(doc, section_type, box)


def test_a_dimension_between_faces_parallel_to_a_section_is_refused(open_transaction):
    from Autodesk.Revit.DB import HostObjectUtils, Line, ReferenceArray, ShellLayerType
    doc = open_transaction
    section = cut_section(doc, (-5, -29), (35, -29), depth=60)   # looks north: faces facing north are parallel to it
    walls = [w for w in FilteredElementCollector(doc).OfClass(Wall)
             if isinstance(w.Location.Curve, Line) and abs(abs(w.Orientation.Y) - 1) < 1e-9][:2]
    faces = ReferenceArray()
    for wall in walls:
        faces.Append(HostObjectUtils.GetSideFaces(wall, ShellLayerType.Exterior)[0])
    start = walls[0].Location.Curve.Evaluate(0.5, True)
    with pytest.raises(ArgumentException, match="not exactly orthogonal to this view"):
        doc.Create.NewDimension(section, Line.CreateBound(start, start.Add(XYZ(0, 1, 0))), faces)
    assert doc.Create.NewDimension(plan(doc, "Level 1"), Line.CreateBound(start, start.Add(XYZ(0, 1, 0))), faces)


def test_transform_identity_is_a_new_transform_on_each_read():
    changed = Transform.Identity
    changed.BasisX, changed.Origin = XYZ(0, 1, 0), XYZ(5, 5, 5)
    fresh = Transform.Identity
    assert fresh.BasisX.IsAlmostEqualTo(XYZ(1, 0, 0)) and fresh.Origin.IsAlmostEqualTo(XYZ.Zero)
    assert changed.OfPoint(XYZ(1, 0, 0)).IsAlmostEqualTo(XYZ(5, 6, 5))


# -- a viewport's outline is right once the document is regenerated -------------------------------------------

def test_a_new_viewports_outline_is_empty_until_the_document_is_regenerated(duplex_rw):
    doc = duplex_rw
    title_block = tag_type(doc, BuiltInCategory.OST_TitleBlocks)
    transaction = Transaction(doc, "place")
    transaction.Start()
    sheet = ViewSheet.Create(doc, title_block.Id)
    viewport = Viewport.Create(doc, sheet.Id, plan(doc).Id, XYZ(1, 1, 0))
    before = viewport.GetBoxOutline()
    assert before.MinimumPoint.IsAlmostEqualTo(before.MaximumPoint)   # its centre alone
    doc.Regenerate()
    after = viewport.GetBoxOutline()
    assert after.MaximumPoint.X - after.MinimumPoint.X > 0.1 and after.MaximumPoint.Y - after.MinimumPoint.Y > 0.1
    second = Viewport.Create(doc, sheet.Id, plan(doc, "Level 2").Id, XYZ(2, 1, 0))
    assert transaction.Commit().ToString() == "Committed"   # a commit regenerates
    committed = second.GetBoxOutline()
    assert committed.MaximumPoint.X - committed.MinimumPoint.X > 0.1
