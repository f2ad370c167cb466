"""Annotation tools on the stand-in duplex and SampleHouse4, through the executor: doors tagged in
a plan, a text note, a dimension string across parallel walls. What each test checks is re-read
from the model, not taken from the tool's words."""
from __future__ import annotations

from pathlib import Path

import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.tools.documentation import annotation_tools  # noqa: F401 - registers the tools
from paracore.tools.modelling import modify_tools  # noqa: F401 - registers the tools
from paracore.tools.framework.registry import default_registry

PLANS = {"duplex": "Level 1", "SampleHouse4": "Ground Floor"}


@pytest.fixture(params=sorted(PLANS))
def revit(request):
    revit = DuplexRevit(request.param)
    revit.plan = PLANS[request.param]
    yield revit
    revit.close()


def doors_on_plan_level(revit) -> list[int]:
    def read():
        level_id = revit.view(revit.plan).GenLevel.Id
        return [d.Id.Value for d in DB.FilteredElementCollector(revit.doc).OfCategory(DB.BuiltInCategory.OST_Doors)
                .WhereElementIsNotElementType() if d.LevelId == level_id]
    return revit.call(read)


def tags_in(revit, view_name: str) -> dict[int, int]:
    """Tagged element id -> tag id, for the tags owned by the view, read from the model."""
    def read():
        view = revit.view(view_name)
        found = {}
        for tag in DB.FilteredElementCollector(revit.doc).OfClass(DB.IndependentTag):
            if tag.OwnerViewId == view.Id:
                for tagged in tag.GetTaggedLocalElementIds():
                    found[tagged.Value] = tag.Id.Value
        return found
    return revit.call(read)


def parallel_walls(revit, count: int = 2) -> list[int]:
    """``count`` straight walls of the plan's level that are parallel to the first one."""
    def read():
        level_id = revit.view(revit.plan).GenLevel.Id
        walls = [w for w in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall)
                 if w.LevelId == level_id and isinstance(w.Location.Curve, DB.Line)]
        first = walls[0].Orientation
        same = [w for w in walls if abs(first.CrossProduct(w.Orientation).Z) < 1e-6]
        return [w.Id.Value for w in same[:count]]
    return revit.call(read)


def test_annotation_tools_are_declared():
    for name in ("tag_elements", "add_text_note", "dimension_walls"):
        spec = default_registry().get(name)
        assert (spec.writes, spec.working_set_policy) == (True, "none"), name


def test_doors_in_the_working_set_are_tagged_in_the_plan(revit):
    doors = doors_on_plan_level(revit)
    assert doors
    revit.session.working_set.replace(doors)
    text = revit.text("tag_elements", {"view": revit.plan})
    assert text.startswith(f"Tagged {len(doors)} element"), text
    tagged = tags_in(revit, revit.plan)
    assert set(doors) <= set(tagged)
    assert revit.session.working_set.ids == tuple(doors)   # the doors stay the working set

    def tag_categories():
        return {revit.element(t).Category.Name for t in tagged.values()}
    assert revit.call(tag_categories) == {"Door Tags"}
    # Tagging again tags nothing new, and says so.
    again = revit.text("tag_elements", {"view": revit.plan})
    assert again.startswith("Tagged 0 elements") and "already tagged in this view" in again
    assert len(tags_in(revit, revit.plan)) == len(tagged)


def test_tags_show_in_their_view_only(revit):
    doors = doors_on_plan_level(revit)[:1]
    revit.text("tag_elements", {"element_ids": doors, "view": revit.plan, "leader": True})
    [tag_id] = tags_in(revit, revit.plan).values()

    def in_3d():
        view = next(v for v in DB.FilteredElementCollector(revit.doc).OfClass(DB.View3D) if not v.IsTemplate)
        shown = DB.FilteredElementCollector(revit.doc, view.Id).WhereElementIsNotElementType().ToElementIds()
        return tag_id in {i.Value for i in shown}, revit.element(tag_id).HasLeader
    assert revit.call(in_3d) == (False, True)


def test_elements_the_view_does_not_show_or_without_a_tag_are_reported(revit):
    doors = doors_on_plan_level(revit)[:1]
    other_level = revit.call(lambda: [d.Id.Value for d in DB.FilteredElementCollector(revit.doc)
                                      .OfCategory(DB.BuiltInCategory.OST_Doors).WhereElementIsNotElementType()
                                      if d.Id.Value not in doors_on_plan_level(revit)])
    ids = doors + other_level[:1]
    text = revit.text("tag_elements", {"element_ids": ids, "view": revit.plan, "tag_type": "M_Window Tag"})
    assert text.startswith("Tagged 0 elements") and "the tag type given does not tag their category" in text
    if other_level:
        assert "not shown in this view" in text
    assert tags_in(revit, revit.plan) == {}


def test_a_text_note_is_added_in_the_plan(revit):
    text = revit.text("add_text_note", {"view": revit.plan, "text": "Check the stair", "position": ["5 m", "3 m"]})
    assert text.startswith("Added text note") and "'Check the stair'" in text

    def read():
        view = revit.view(revit.plan)
        notes = [n for n in DB.FilteredElementCollector(revit.doc).OfClass(DB.TextNote) if n.OwnerViewId == view.Id]
        return [(n.Text, round(n.Coord.X * 0.3048, 6), round(n.Coord.Y * 0.3048, 6)) for n in notes]
    assert revit.call(read) == [("Check the stair", 5.0, 3.0)]


def test_parallel_walls_get_one_dimension_string(revit):
    walls = parallel_walls(revit)
    assert len(walls) == 2
    text = revit.text("dimension_walls", {"element_ids": walls, "view": revit.plan})
    assert text.startswith("Dimensioned 2 walls") and "3 segments" in text, text

    def read():
        view = revit.view(revit.plan)
        [dim] = [d for d in DB.FilteredElementCollector(revit.doc).OfClass(DB.Dimension) if d.OwnerViewId == view.Id]
        return dim.NumberOfSegments, [s.Value for s in dim.Segments]
    segments, values = revit.call(read)
    assert segments == 3 and all(v > 0 for v in values)


def test_hostile_annotation_arguments_are_refused_with_what_to_do(revit):
    walls = parallel_walls(revit)
    assert "not parallel" in revit.error("dimension_walls", {"element_ids": [walls[0], _skew_wall(revit, walls[0])],
                                                              "view": revit.plan})
    assert "Only walls" in revit.error("dimension_walls", {"element_ids": doors_on_plan_level(revit)[:2],
                                                            "view": revit.plan})
    assert "two or more" in revit.error("dimension_walls", {"element_ids": walls[:1], "view": revit.plan})
    assert "text is empty" in revit.error("add_text_note", {"view": revit.plan, "text": "  ", "position": [0, 0]})
    assert "cannot hold tags" in revit.error("add_text_note", {"view": "{3D}", "text": "x", "position": [0, 0]})
    assert "No tag type named" in revit.error("tag_elements", {"element_ids": walls, "view": revit.plan,
                                                                "tag_type": "Z" * 500})
    assert "does not exist" in revit.error("tag_elements", {"element_ids": [999999999], "view": revit.plan}) or \
        "999999999" in revit.error("tag_elements", {"element_ids": [999999999], "view": revit.plan})
    assert revit.call(lambda: list(DB.FilteredElementCollector(revit.doc).OfClass(DB.Dimension))) == []


def _skew_wall(revit, first: int) -> int:
    def read():
        orientation = revit.element(first).Orientation
        level_id = revit.element(first).LevelId
        return next(w.Id.Value for w in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall)
                    if isinstance(w.Location.Curve, DB.Line) and w.LevelId == level_id
                    and abs(orientation.CrossProduct(w.Orientation).Z) > 0.1)
    return revit.call(read)


# --- the replays: doors tagged in a plan, a note, a dimension string across the two long walls --------------

REPLAYS = Path(__file__).resolve().parents[1] / "support" / "replays"
# replay -> (its model, the plan it annotates, the note it writes, at (m, m), the walls it dimensions: longer than)
ANNOTATION_REPLAYS = {
    "annotation_duplex.json": ("duplex", "Level 1", "Check door swings", (2.0, 2.0), 10.0),
    "annotation_samplehouse4.json": ("SampleHouse4", "Ground Floor", "Verify the entrance door width", (1.0, 1.0), 8.0),
}


@pytest.mark.parametrize("replay", sorted(ANNOTATION_REPLAYS))
def test_the_annotation_replay_tags_the_doors_writes_a_note_and_dimensions_the_long_walls(replay):
    """Played in process (toolsets on, as in a chat); the plan's tags, notes and dimension are then
    read back from the model before the sandbox closes."""
    from paracore.app.replay import failed_turns
    from replay_state import play_and_read
    model_name, plan_name, note, at, longer_than = ANNOTATION_REPLAYS[replay]

    def read(doc):
        plan = next(v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
                    if v.Name == plan_name and not v.IsTemplate)
        owned = [e for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType() if e.OwnerViewId == plan.Id]
        walls = [w for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall)
                 if w.LevelId == plan.GenLevel.Id and w.Location.Curve.Length > longer_than / 0.3048]
        return {
            "doors": sorted(d.Id.Value for d in DB.FilteredElementCollector(doc)
                            .OfCategory(DB.BuiltInCategory.OST_Doors).WhereElementIsNotElementType()
                            if d.LevelId == plan.GenLevel.Id),
            "tagged": sorted(i.Value for t in owned if isinstance(t, DB.IndependentTag)
                             for i in t.GetTaggedLocalElementIds()),
            "notes": [(n.Text, round(n.Coord.X * 0.3048, 6), round(n.Coord.Y * 0.3048, 6))
                      for n in owned if isinstance(n, DB.TextNote)],
            "segments": [[s.Value for s in d.Segments] for d in owned if isinstance(d, DB.Dimension)],
            "walls": [(w.Width, w.Location.Curve.GetEndPoint(0), w.Orientation) for w in walls],
        }

    result, model = play_and_read(REPLAYS / replay, model_name, read)
    assert failed_turns(result) == []
    results = [r for turn in result["turns"] for r in turn["tool_results"]]
    assert [r["name"] for r in results] == ["search_elements", "use_toolset", "tag_elements", "add_text_note",
                                            "search_elements", "dimension_walls"]
    assert not any(r["is_error"] for r in results), results
    assert model["doors"] and model["tagged"] == model["doors"]                  # every door, once
    assert result["turns"][0]["working_set"]["summary"] == f"{len(model['doors'])} Doors"
    assert model["notes"] == [(note, *at)]
    # One string through both faces of the two long walls: thickness, clear distance, thickness.
    [(w1, p1, normal), (w2, p2, _)] = model["walls"]
    [segments] = model["segments"]
    apart = abs((p2.X - p1.X) * normal.X + (p2.Y - p1.Y) * normal.Y)          # centre lines, across the walls
    assert len(segments) == 3
    assert sorted([segments[0], segments[2]]) == pytest.approx(sorted([w1, w2]))
    assert sum(segments) == pytest.approx(apart + (w1 + w2) / 2)
    assert result["working_set"]["summary"] == "2 Walls"


def test_a_plan_collector_finds_the_tags_it_owns(revit):
    doors = doors_on_plan_level(revit)[:1]
    revit.text("tag_elements", {"element_ids": doors, "view": revit.plan})
    [tag_id] = tags_in(revit, revit.plan).values()

    def in_plan():
        view = revit.view(revit.plan)
        collector = DB.FilteredElementCollector(revit.doc, view.Id).WhereElementIsNotElementType()
        return {i.Value for i in collector.ToElementIds()}
    assert tag_id in revit.call(in_plan)  # Revit's collector on a view returns what the view owns


def test_deleting_a_wall_deletes_its_tags_and_dimensions_with_it(revit):
    """As in Revit: a tag goes with the element it tags, a dimension with the walls it measures;
    an undo brings them all back."""
    walls = parallel_walls(revit)
    revit.text("dimension_walls", {"element_ids": walls, "view": revit.plan})
    revit.text("tag_elements", {"element_ids": walls[:1], "view": revit.plan})
    annotations = {cls: len(revit.of_class(cls)) for cls in (DB.Dimension, DB.IndependentTag)}
    assert annotations == {DB.Dimension: 1, DB.IndependentTag: 1}, annotations

    text = revit.text("delete_elements", {"element_ids": walls[:1]})

    assert "dimension" in text.lower() and "tag" in text.lower(), text
    assert revit.of_class(DB.Dimension) == [] and revit.of_class(DB.IndependentTag) == []
    assert revit.element(walls[1]) is not None  # the other measured wall stays


# --- read-back: an annotation Revit did not make as asked is an error, nothing is added ---------------


def notes_in(revit) -> list:
    def read():
        view = revit.view(revit.plan)
        return [n.Id.Value for n in DB.FilteredElementCollector(revit.doc).OfClass(DB.TextNote)
                if n.OwnerViewId == view.Id]
    return revit.call(read)


def test_a_text_note_revit_puts_elsewhere_is_an_error(revit, monkeypatch):
    real = DB.TextNote.Create
    monkeypatch.setattr(DB.TextNote, "Create", staticmethod(   # Revit snapping the note to a grid, say
        lambda document, view_id, position, text, type_id: real(document, view_id, position.Add(DB.XYZ(1, 0, 0)),
                                                                text, type_id)))
    message = revit.error("add_text_note", {"view": revit.plan, "text": "Check the stair", "position": ["5 m", "3 m"]})
    assert message.startswith("Adding the text note: Revit did not do what was asked.")
    assert "position: asked (" in message and "Nothing was changed" in message
    assert notes_in(revit) == []


def test_a_tag_head_revit_puts_elsewhere_is_an_error(revit, monkeypatch):
    doors = doors_on_plan_level(revit)[:2]
    real = DB.IndependentTag.Create

    def create_offset(document, type_id, view_id, reference, leader, orientation, head):
        return real(document, type_id, view_id, reference, leader, orientation, head.Add(DB.XYZ(0, 2, 0)))
    monkeypatch.setattr(DB.IndependentTag, "Create", staticmethod(create_offset))
    message = revit.error("tag_elements", {"element_ids": doors, "view": revit.plan})
    assert message.startswith(f"Tagging 2 elements in 'Floor Plan: {revit.plan}': Revit did not do what was asked.")
    assert "head: asked (" in message and "Nothing was changed" in message
    assert tags_in(revit, revit.plan) == {}


# --- leaders: the point given is the leader's end, and Revit puts the head a default leader away ------------


def test_tags_with_leaders_are_kept_where_revit_puts_their_heads(revit):
    """IndependentTag.Create: "For tags with leaders, this point is the end point of the leader,
    and a leader of default length will be created from this point to the tag head". The head
    is not where the tool asked, and that is not a failure."""
    doors = doors_on_plan_level(revit)[:2]
    text = revit.text("tag_elements", {"element_ids": doors, "view": revit.plan, "leader": True})
    assert text.startswith("Tagged 2 elements"), text

    def heads():
        found = []
        for door, tag in sorted(tags_in(revit, revit.plan).items()):
            element = revit.element(tag)
            found.append((element.HasLeader, element.TagHeadPosition.DistanceTo(revit.element(door).Location.Point)))
        return found
    assert [(leader, distance > 0.1) for leader, distance in revit.call(heads)] == [(True, True), (True, True)]


def test_tags_with_leaders_are_kept_when_revit_puts_the_head_at_the_point(revit, monkeypatch):
    """The default leader's length is not documented: a Revit that left the head at the point
    is right too."""
    real = DB.IndependentTag.Create

    def head_at_the_point(document, type_id, view_id, reference, leader, orientation, point):
        tag = real(document, type_id, view_id, reference, leader, orientation, point)
        tag._update_state(head=point)
        return tag
    monkeypatch.setattr(DB.IndependentTag, "Create", staticmethod(head_at_the_point))
    doors = doors_on_plan_level(revit)[:1]
    assert revit.text("tag_elements", {"element_ids": doors, "view": revit.plan, "leader": True}).startswith("Tagged 1")


def test_a_leader_revit_did_not_draw_is_an_error(revit, monkeypatch):
    real = DB.IndependentTag.Create
    monkeypatch.setattr(DB.IndependentTag, "Create", staticmethod(
        lambda document, type_id, view_id, reference, leader, orientation, point:
        real(document, type_id, view_id, reference, False, orientation, point)))
    message = revit.error("tag_elements", {"element_ids": doors_on_plan_level(revit)[:1], "view": revit.plan,
                                           "leader": True})
    assert "leader: asked drawn, Revit has none" in message and "Nothing was changed" in message
    assert tags_in(revit, revit.plan) == {}


# --- rooms: tagged with room tags (NewRoomTag), never with an IndependentTag ------------------------------------


def rooms_on_plan_level(revit) -> list[int]:
    def read():
        level_id = revit.view(revit.plan).GenLevel.Id
        return [r.Id.Value for r in DB.FilteredElementCollector(revit.doc).OfCategory(DB.BuiltInCategory.OST_Rooms)
                .WhereElementIsNotElementType() if r.LevelId == level_id and r.Location is not None]
    return revit.call(read)


def room_tags_in(revit, view_name: str) -> dict[int, tuple]:
    """Room id -> (tag id, its location (x, y), its type name), for the room tags the view owns."""
    from Autodesk.Revit.DB.Architecture import RoomTag

    def read():
        view = revit.view(view_name)
        tags = DB.FilteredElementCollector(revit.doc).OfCategory(DB.BuiltInCategory.OST_RoomTags)
        return {t.TaggedLocalRoomId.Value: (t.Id.Value, (t.Location.Point.X, t.Location.Point.Y), t.Name)
                for t in tags.WhereElementIsNotElementType() if isinstance(t, RoomTag) and t.OwnerViewId == view.Id}
    return revit.call(read)


def test_rooms_are_tagged_with_room_tags_at_their_points(revit):
    rooms = rooms_on_plan_level(revit)
    doors = doors_on_plan_level(revit)[:2]
    assert rooms
    text = revit.text("tag_elements", {"element_ids": rooms + doors, "view": revit.plan})
    assert text.startswith(f"Tagged {len(rooms) + 2} elements"), text
    tagged = room_tags_in(revit, revit.plan)
    assert sorted(tagged) == sorted(rooms)
    points = revit.call(lambda: {r: (revit.element(r).Location.Point.X, revit.element(r).Location.Point.Y)
                                 for r in rooms})
    assert all(tagged[r][1] == pytest.approx(points[r]) for r in rooms)
    assert set(tags_in(revit, revit.plan)) == set(doors)   # the doors' IndependentTags
    again = revit.text("tag_elements", {"element_ids": rooms, "view": revit.plan})
    assert again.startswith("Tagged 0 elements") and "already tagged in this view" in again
    assert len(room_tags_in(revit, revit.plan)) == len(rooms)


def test_rooms_tagged_with_leaders_are_kept_wherever_revit_puts_the_tag(revit, monkeypatch):
    """Where a room tag goes once it has a leader is not documented: a Revit that moved its
    location (the head away from the room's point) is right too; the leader is what is compared."""
    from Autodesk.Revit.DB.Architecture import RoomTag
    real = RoomTag.HasLeader

    def moved(tag, value):
        real.fset(tag, value)
        tag._update_state(location=tag._state["location"].Add(DB.XYZ(3, 3, 0)))
    monkeypatch.setattr(RoomTag, "HasLeader", property(real.fget, moved))
    rooms = rooms_on_plan_level(revit)[:2]
    text = revit.text("tag_elements", {"element_ids": rooms, "view": revit.plan, "leader": True})
    assert text.startswith("Tagged 2 elements"), text
    assert sorted(room_tags_in(revit, revit.plan)) == sorted(rooms)
    assert revit.call(lambda: [revit.element(t).HasLeader for t, _, _ in room_tags_in(revit, revit.plan).values()]) \
        == [True, True]

def test_a_multi_category_tag_does_not_tag_rooms(revit):
    rooms = rooms_on_plan_level(revit)[:1]
    text = revit.text("tag_elements", {"element_ids": rooms, "view": revit.plan, "tag_type": "M_Multi-Category Tag"})
    assert text.startswith("Tagged 0 elements") and "the tag type given does not tag their category" in text
    assert room_tags_in(revit, revit.plan) == {}


def test_a_room_tag_revit_puts_elsewhere_is_an_error(revit, monkeypatch):
    from Autodesk.Revit.Creation import Document as Creation
    real = Creation.NewRoomTag
    monkeypatch.setattr(Creation, "NewRoomTag", lambda self, room, point, view:
                        real(self, room, DB.UV(point.U + 3, point.V), view))
    message = revit.error("tag_elements", {"element_ids": rooms_on_plan_level(revit)[:1], "view": revit.plan})
    assert "location: asked (" in message and "Nothing was changed" in message
    assert room_tags_in(revit, revit.plan) == {}


# --- sections: points are given and compared in the view's plane ------------------------------------------------


def cut_a_section(revit) -> dict:
    """A section across the middle of the plan's level, looking along +Y's opposite (its right is
    +X, its up +Z), committed; its name and frame."""
    from revit_standin.sections import cut_section

    def make():
        level_id = revit.view(revit.plan).GenLevel.Id
        ends = [p for w in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall) if w.LevelId == level_id
                for p in (w.Location.Curve.GetEndPoint(0), w.Location.Curve.GetEndPoint(1))]
        xs, ys = [p.X for p in ends], [p.Y for p in ends]
        middle = (min(ys) + max(ys)) / 2
        transaction = DB.Transaction(revit.doc, "Cut a section")
        transaction.Start()
        section = cut_section(revit.doc, (min(xs) - 5, middle), (max(xs) + 5, middle), depth=(max(ys) - min(ys)))
        found = {"name": section.Name, "y": section.Origin.Y, "id": section.Id.Value}
        transaction.Commit()
        return found
    return revit.call(make)


def notes_in_view(revit, view_id: int) -> list:
    def read():
        return [(n.Text, n.Coord) for n in DB.FilteredElementCollector(revit.doc).OfClass(DB.TextNote)
                if n.OwnerViewId.Value == view_id]
    return revit.call(read)


def test_a_text_note_in_a_section_goes_along_the_view_and_up(revit):
    section = cut_a_section(revit)
    text = revit.text("add_text_note", {"view": section["name"], "text": "Roof build-up", "position": ["4 m", "3 m"]})
    assert "at [" in text and "(along the view's right, height)" in text, text
    [(words, coord)] = notes_in_view(revit, section["id"])
    assert words == "Roof build-up"
    assert (coord.X * 0.3048, coord.Z * 0.3048) == pytest.approx((4.0, 3.0))   # right is +X, up is +Z
    assert coord.Y == pytest.approx(section["y"])                               # on the section's plane


def test_a_text_note_revit_moves_onto_the_sections_plane_is_where_it_was_asked(revit, monkeypatch):
    """Whether Revit moves a view's annotation onto the view's plane is not documented: only the
    position across and up the view shows, and only that is compared."""
    section = cut_a_section(revit)
    real = DB.TextNote.Create

    def deeper(document, view_id, position, text, type_id):
        towards = document.GetElement(view_id).ViewDirection
        return real(document, view_id, position.Add(towards.Multiply(7.0)), text, type_id)
    monkeypatch.setattr(DB.TextNote, "Create", staticmethod(deeper))
    assert revit.text("add_text_note", {"view": section["name"], "text": "x", "position": [1, 2]}).startswith("Added")


def test_a_tag_in_a_section_is_compared_in_the_views_plane(revit, monkeypatch):
    """A Revit that draws the tag's head on the section's plane (its depth changed) put it where
    it was asked: across and up the view."""
    section = cut_a_section(revit)
    real = DB.IndependentTag.Create

    def on_the_plane(document, type_id, view_id, reference, leader, orientation, point):
        view = document.GetElement(view_id)
        towards = view.ViewDirection
        flat = point.Add(towards.Multiply(view.Origin.Subtract(point).DotProduct(towards)))
        return real(document, type_id, view_id, reference, leader, orientation, flat)
    monkeypatch.setattr(DB.IndependentTag, "Create", staticmethod(on_the_plane))
    shown = revit.call(lambda: {i.Value for i in DB.FilteredElementCollector(revit.doc, DB.ElementId(section["id"]))
                                .OfCategory(DB.BuiltInCategory.OST_Doors).WhereElementIsNotElementType()
                                .ToElementIds()})
    doors = sorted(shown)[:2]
    assert doors
    text = revit.text("tag_elements", {"element_ids": doors, "view": section["name"]})
    assert text.startswith(f"Tagged {len(doors)} element"), text


def test_a_tag_head_revit_puts_elsewhere_in_a_section_is_an_error(revit, monkeypatch):
    section = cut_a_section(revit)
    real = DB.IndependentTag.Create
    monkeypatch.setattr(DB.IndependentTag, "Create", staticmethod(
        lambda document, type_id, view_id, reference, leader, orientation, point:
        real(document, type_id, view_id, reference, leader, orientation, point.Add(DB.XYZ(0, 0, 2)))))
    doors = revit.call(lambda: sorted(i.Value for i in DB.FilteredElementCollector(
        revit.doc, DB.ElementId(section["id"])).OfCategory(DB.BuiltInCategory.OST_Doors)
        .WhereElementIsNotElementType().ToElementIds()))[:1]
    message = revit.error("tag_elements", {"element_ids": doors, "view": section["name"]})
    assert "head (along the view's right, height): asked (" in message and "Nothing was changed" in message


def test_rooms_in_a_section_are_reported_not_tagged(revit):
    section = cut_a_section(revit)
    text = revit.text("tag_elements", {"element_ids": rooms_on_plan_level(revit)[:2], "view": section["name"]})
    assert text.startswith("Tagged 0 elements") and "room tags go in plans" in text


def test_walls_the_section_cuts_across_are_dimensioned_in_it(revit):
    section = cut_a_section(revit)

    def across() -> list[int]:
        view = revit.doc.GetElement(DB.ElementId(section["id"]))
        shown = {i.Value for i in DB.FilteredElementCollector(revit.doc, view.Id).OfClass(DB.Wall).ToElementIds()}
        walls = [revit.element(i) for i in sorted(shown)]
        cut = [w for w in walls if isinstance(w.Location.Curve, DB.Line)
               and abs(w.Orientation.DotProduct(view.ViewDirection)) < 1e-9]
        first = cut[0].Orientation
        return [w.Id.Value for w in cut if abs(first.CrossProduct(w.Orientation).Z) < 1e-6][:2]

    def along() -> list[int]:
        view = revit.doc.GetElement(DB.ElementId(section["id"]))
        shown = {i.Value for i in DB.FilteredElementCollector(revit.doc, view.Id).OfClass(DB.Wall).ToElementIds()}
        return [i for i in sorted(shown) if isinstance(revit.element(i).Location.Curve, DB.Line)
                and abs(abs(revit.element(i).Orientation.DotProduct(view.ViewDirection)) - 1) < 1e-9][:2]
    walls = revit.call(across)
    assert len(walls) == 2
    text = revit.text("dimension_walls", {"element_ids": walls, "view": section["name"]})
    assert text.startswith("Dimensioned 2 walls in 'Section: ") and "3 segments" in text, text
    facing = revit.call(along)
    assert len(facing) == 2
    assert "looks along the walls' faces" in revit.error("dimension_walls", {"element_ids": facing,
                                                                               "view": section["name"]})


# --- Revit's distance limit: 10 miles from the internal origin, for text as for everything -----------------------


def test_a_text_note_more_than_ten_miles_out_is_refused_with_revits_limit(revit):
    message = revit.error("add_text_note", {"view": revit.plan, "text": "far", "position": ["12000 m", "12000 m"]})
    assert "10 miles" in message and "internal origin" in message, message
    assert notes_in(revit) == []
    assert revit.text("add_text_note", {"view": revit.plan, "text": "near", "position": ["11000 m", "11000 m"]})
