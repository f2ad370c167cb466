"""Issue 39's tools (families, grids and levels, structure) as a client that validates arguments sees
them: the calls a firm's user makes through a model, in every unit form ('20\'', '6000', '6 m',
'19\' 8 1/4"', '90°', '1.57 rad'), validate against the MCP schema with the JSON Schema drafts the
SDKs' validators use (2020-12 and draft 7) and the registry reads them; the providers' strict form of
the same call (every field, null for those left out) is read alike. As test_new_tool_calls.py for
issue 38's tools."""
from __future__ import annotations

import pytest

from plausible_calls import REGISTRY, check_plausible_call

CALLS = {
    "list_family_types": [{}, {"category": "Furniture"}, {"name": "sofa", "kind": "level-based"},
                          {"kind": "ceiling-hosted", "category": "Lighting Fixtures"}, {"offset": 19}],
    "place_family_instances": [
        {"family_type": "M_Sofa: 1830mm", "level": "Level 2", "points": [["2 m", "-3 m"], ["5 m", "-4 m"]],
         "rotation": 90},
        {"family_type": "M_Sofa", "level": "Level 1", "points": [[2000, -3000]], "rotation": "90°", "offset": "600 mm"},
        {"family_type": "Desk", "level": "Level 1", "points": [["20'", "10' 6\""]], "rotation": "1.5708 rad"},
        {"family_type": "M_Lavatory-Wall Mounted", "host_id": 86, "points": [["4.4 m", "-8.9 m"]], "offset": "0.8 m"},
        {"family_type": "M_Downlight - Recessed Can", "at_working_set": True},
        {"family_type": "M_Generic Model Line Based", "level": "Level 1", "lines": [[["0 m", "0 m"], ["3 m", "0 m"]]]},
        {"family_type": "Chair", "level": "Level 1", "points": [[1.5, 2.25]], "rotation": -45.0}],
    "load_family": [{"path": "C:\\Library\\Furniture\\Desk.rfa"}, {"path": "C:\\Library\\Mobilier été", "if_loaded": "overwrite"},
                    {"path": "/library/Desk.rfa", "if_loaded": "keep"}],
    "create_grids": [
        {"array": {"across": 4, "up": 3, "spacing_across": ["6 m"], "spacing_up": ["5 m"]}},
        {"array": {"across": 5, "up": 0, "spacing_across": ["20'"], "across_names": "letters", "across_start": "A"}},
        {"array": {"across": 3, "up": 2, "spacing_across": ["6000", "7200"], "spacing_up": ["19' 8 1/4\""],
                   "origin": ["1 m", "2 m"], "angle": "30°", "overhang": "1500 mm",
                   "across_names": ["1", "2", "3"], "up_names": ["A", "B"]}},
        {"grids": [{"start": [0, 0], "end": [0, 10]}, {"start": ["0 m", "0 m"], "end": ["10 m", "0 m"], "name": "X"}]},
        {"grids": [{"start": ["0 m", "0 m"], "end": ["10 m", "0 m"], "through": ["5 m", "2 m"]}], "names": "letters",
         "first_name": "AA", "preview": True}],
    "rename_grids": [{"grids": [{"grid": "1", "name": "A1"}]},
                     {"grids": [{"grid": "A", "name": "B"}, {"grid": "B", "name": "A"}], "preview": True}],
    "set_grid_extents": [{"grids": ["1", "A"], "bottom": "Level 1", "top": "Roof"}, {"extend": "1 m"},
                         {"grids": ["1"], "bottom": "-1 m", "top": 12.5, "extend": "-500 mm", "view": "Level 1"},
                         {"top": "Level 2", "preview": True}],
    "set_grid_bubbles": [{"grids": ["1", "2"], "start": True, "end": False}, {"end": True, "views": ["Level 1"]},
                         {"start": False, "preview": True}],
    "rename_levels": [{"levels": [{"level": "Level 1", "name": "Ground Floor"}]},
                      {"levels": [{"level": "Level 2", "name": "First"}], "rename_views": False, "preview": True}],
    "move_levels": [{"levels": [{"level": "Level 2", "elevation": None, "by": "600 mm"}]},
                    {"levels": [{"level": "Level 2", "elevation": "4 m", "by": None}], "preview": True},
                    {"levels": [{"level": "Roof", "elevation": 20, "by": None},
                                {"level": "Level 2", "elevation": None, "by": "-1' 6\""}]}],
    "list_structural_types": [{}, {"kind": "columns"}, {"kind": "wall foundations", "offset": 10}],
    "place_structural_columns": [
        {"grids": ["all"], "base_level": "Level 1", "top_level": "Level 2"},
        {"grids": ["A", "B", "1", "2"], "base_level": "Level 1", "base_offset": "-600 mm", "top_offset": "1'"},
        {"points": [["20'", "10'"], [6000, 2000]], "base_level": "Level 1", "top_level": "Roof",
         "column_type": "M_Concrete-Rectangular-Column: 300 x 450mm"}],
    "place_beams": [
        {"level": "Level 2", "grid_lines": ["all"]},
        {"level": "Level 2", "segments": [[["0 m", "0 m"], ["6 m", "0 m"]]], "z_justification": "center",
         "y_justification": "left"},
        {"level": "Level 2", "column_pairs": [[341, 342]], "beam_type": "M_Concrete-Rectangular Beam: 300 x 600mm"}],
    "place_footings": [{}, {"element_ids": [341, 342]}, {"footing_type": "M_Footing-Rectangular: 1800 x 1200 x 450mm"}],
    "place_wall_foundations": [{}, {"element_ids": [87, 88], "foundation_type": "Bearing Footing - 900 x 300"}],
}


def test_every_issue_39_tool_has_plausible_calls_here():
    new = {spec.name for spec in REGISTRY.specs()
           if spec.function.__module__.rsplit(".", 2)[-2] in ("families", "structure")
           or spec.function.__module__.endswith((".grid_tools", ".grid_edit_tools", ".level_tools"))}
    assert len(new) >= 14 and new <= set(CALLS), sorted(new - set(CALLS))


@pytest.mark.parametrize("name, call", [(name, call) for name, calls in CALLS.items() for call in calls],
                         ids=lambda value: value if isinstance(value, str) else "")
def test_a_plausible_call_validates_against_the_mcp_schema_and_both_forms_read_it_alike(name, call):
    check_plausible_call(name, call)

