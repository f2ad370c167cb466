"""The documentation tools (tags, text notes, dimensions, sheets, rooms) run on pythonnet 3.0.3
and a real CLR, against the Revit 2026 signatures in RevitShapes.cs.

Each scenario runs the tools' own bodies (tag_elements, add_text_note, dimension_walls,
create_sheet, place_views_on_sheet, list_sheets, place_rooms, get_room_info) and reports which
overload pythonnet bound for every creation call, then what pythonnet does with the arguments
Paracore takes care not to pass.
"""
from __future__ import annotations

import pytest

NO_METHOD = "TypeError: No method matches given arguments for "


@pytest.fixture(scope="module")
def annotation(clr_worker):
    return clr_worker.run("annotation_tools")


@pytest.fixture(scope="module")
def sheets(clr_worker):
    return clr_worker.run("sheet_tools")


@pytest.fixture(scope="module")
def rooms(clr_worker):
    return clr_worker.run("room_tools")


def test_tag_elements_binds_the_tag_type_overload_with_a_real_bool_and_the_enum(annotation):
    assert annotation["tagged"].startswith("Tagged 2 elements in 'Floor Plan: Level 1' (1 Door, 1 Wall)")
    assert annotation["tag_calls"] == [
        "IndependentTag.Create(Document, ElementId symbolId, ElementId ownerDBViewId, Reference, Boolean addLeader=True, "
        "TagOrientation.Horizontal, XYZ)"] * 2
    assert annotation["head"] == [5.0, 10.0]          # a door's LocationPoint, a wall's curve evaluated at 0.5


def test_an_int_is_neither_a_bool_nor_an_enum_argument(annotation):
    assert annotation["int_leader"].startswith(NO_METHOD + "IndependentTag.Create")
    assert "<class 'int'>, <class 'Autodesk.Revit.DB.TagOrientation'>" in annotation["int_leader"]
    assert annotation["int_orientation"].startswith(NO_METHOD + "IndependentTag.Create")


def test_a_category_name_comes_from_the_enum_built_from_an_int_and_an_unknown_one_raises_value_error(annotation):
    assert annotation["door_category"] == "OST_Doors" and annotation["known_category"] == "OST_Doors"
    assert annotation["unknown_category"].startswith("ValueError: Invalid enumeration value")


def test_add_text_note_binds_the_type_id_overload_and_an_int_type_is_refused(annotation):
    assert annotation["note"].startswith("Added text note") and "'Fire exit'" in annotation["note"]
    assert annotation["note_calls"] == ["TextNote.Create(Document, ElementId viewId, XYZ, String, ElementId typeId)"]
    assert annotation["int_note_type"].startswith(NO_METHOD + "TextNote.Create")


def test_dimension_walls_fills_a_reference_array_from_the_side_faces_ilist(annotation):
    assert "with 3 segments: 0.305 m, 2.819 m, 0.152 m" in annotation["dimension"]
    assert annotation["dimension_calls"] == ["ItemFactoryBase.NewDimension(View, Line, ReferenceArray)"]
    assert annotation["side_faces_type"] == "List`1"
    assert annotation["list_of_references"] == (NO_METHOD + "ItemFactoryBase.NewDimension: (<class "
                                                "'Autodesk.Revit.DB.View'>, <class 'Autodesk.Revit.DB.Line'>, <class 'list'>)")


def test_a_nullable_dimension_value_arrives_as_a_float_or_none(annotation):
    assert annotation["one_segment"] == {"segments": 0, "value": 0.5, "value_type": "float", "listed": []}
    assert annotation["many_segments"] == {"segments": 3, "value": None, "listed": [0.5, 3.5, 0.5],
                                           "listed_types": ["float"]}


def test_create_sheet_and_place_views_bind_the_sheet_and_viewport_statics(sheets):
    assert sheets["created"].startswith("Created sheet 'A101 - Plans'") and "(841 x 594 mm)" in sheets["created"]
    assert sheets["create_calls"] == ["ViewSheet.Create(Document, ElementId titleBlockTypeId)"]
    can = "Viewport.CanAddViewToSheet(Document, ElementId viewSheetId, ElementId viewId)"
    create = "Viewport.Create(Document, ElementId viewSheetId, ElementId viewId, XYZ)"
    assert sheets["place_calls"] == [can, can, create, can, create, can]
    assert "All 2 viewports are inside the drawing area" in sheets["placed"] and "none overlaps" in sheets["placed"]
    assert sheets["listed"].endswith("A1 metric: A1; 2 views (Level 1, Level 2)")


def test_a_view_on_a_sheet_is_refused_and_the_sheet_ids_come_back_as_dotnet_sets(sheets):
    assert sheets["again"].startswith("ToolError: Nothing was placed: 'Floor Plan: Level 1' is already on sheet "
                                      "'A101 - Plans'")
    assert sheets["placed_views_type"] == "HashSet`1"
    assert sheets["int_title_block"].startswith(NO_METHOD + "ViewSheet.Create")


def test_place_rooms_binds_new_rooms2_of_a_level_and_new_room_at_a_uv(rooms):
    assert rooms["placed"].startswith("Placed 2 rooms on Level 1; total area 48.77 m²")
    assert rooms["place_calls"] == ["Creation.Document.NewRooms2(Level)"]
    assert rooms["one_calls"] == ["Creation.Document.NewRoom(Level, UV)"]
    assert "1 of them are not enclosed by walls (area 0)" in rooms["one"]
    assert rooms["int_uv"] is True                               # UV(int, int): ints widen to doubles
    assert rooms["float_rooms_phase"].startswith(NO_METHOD + "Document.NewRooms2")


def test_get_room_info_iterates_the_nested_boundary_lists_and_finds_the_door(rooms):
    assert rooms["info"].endswith("bounded by 4 walls (1002, 1003, 1004, 1005); 1 door (1010)")
    assert rooms["boundary"] == {"outer": "List`1", "loops": 1, "segments": [4]}
    assert rooms["name"] == "Room" and rooms["inside"] == [True, False]


def test_a_doors_from_and_to_rooms_are_properties_rooms_of_reads(rooms):
    """FamilyInstance.FromRoom / ToRoom (the last phase) arrive as a Room or None, not as the
    indexed get_FromRoom(Phase): the door in the first room's wall has that room on one side only."""
    door = rooms["door_rooms"]
    assert sorted((door["from"], door["to"])) == ["NoneType", "Room"]
    assert door["rooms_of"] == ["1"] and door["height"] == ["float", 0.0]
    assert "height 2.44 m" in rooms["info"]


def test_view_template_tools_apply_and_duplicate_through_the_api_and_read_the_settings_back(clr):
    seen = clr.run("view_template_tools")
    assert "'Architectural Plan' · for floor plans · scale 1:50 · detail Medium" in seen["listed"]
    assert seen["applied"] == ("Applied the view template 'Architectural Plan' to 2 views: 'Floor Plan: Level 1', "
                               "'Floor Plan: Level 2'. They show at 1:50, detail Medium.")
    assert "new view 'Floor Plan: Level 2 - Furniture'" in seen["duplicated"]
    assert "It uses the view template 'Architectural Plan'" in seen["duplicated"]


def test_schedule_rows_bind_the_section_type_overload_and_the_export_writes_the_cells(clr, tmp_path):
    seen = clr.run("schedule_tools", folder=str(tmp_path))
    # GetSectionData(SectionType) and GetSectionData(int): the enum binds the enum overload, an int the other.
    assert seen["calls"] == ["TableData.GetSectionData(SectionType.Body)", "TableData.GetSectionData(Int32)"]
    assert seen["rows_by_index"] == 4
    assert seen["file"] == "Mark,Fire Rating\nD1,EI30\nD2,'=cmd\n"     # the blank row left out, the formula defused
    assert "2 columns and 2 rows" in seen["exported"]
    assert seen["compared"].endswith("- Mark D1: Fire Rating: EI30 → EI60")


def test_the_warnings_check_iterates_failure_messages_and_link_types_are_checked_by_element_id(clr):
    seen = clr.run("qa_checks")
    assert seen["warnings"] == [{"what": "warning 'Highlighted walls overlap.'", "ids": seen["wall_ids"], "count": 2}]
    assert seen["loaded"] == [True, False]
    assert seen["calls"] == ["RevitLinkType.IsLoaded(Document, ElementId)"] * 2
    assert seen["loaded_by_int"].startswith(NO_METHOD + "RevitLinkType.IsLoaded")


def test_the_links_and_coordinates_checks_read_placements_and_shared_coordinates_through_the_api(clr):
    seen = clr.run("qa_links_and_coordinates")
    ids = seen["ids"]
    assert seen["note"] == "1 by shared coordinates, 2 origin to origin"
    assert seen["findings"] == [
        {"what": "link not loaded", "ids": [ids["unloaded_type"]]},
        {"what": "link placed neither origin to origin nor by shared coordinates", "ids": [ids["off"]]}]
    assert seen["off_placement"] == [105.0, -50.0, 0.0]
    assert seen["coordinates"].startswith("shared coordinates set (location 'Internal'): the internal origin is at E/W ")
    assert seen["calls"] == ["ProjectLocation.GetProjectPosition(XYZ)", "RevitLinkType.IsLoaded(Document, ElementId)"]
    assert seen["unloaded_document"] == [False, False, False, True]
