"""Issue 38's tools as a client that validates arguments sees them: every call a model would plausibly
send, taken from the tools' descriptions and their fields' examples ('A101-A105', ['all'],
'{Level} - Plan', '200 mm', 'red'...), validates against the MCP schema with the JSON Schema drafts
the SDKs' validators use (2020-12: the Python SDK's jsonschema; draft 7: Ajv's default), and the
registry reads it; the providers' strict form of the same call (every field, null for those left
out) is read alike. What tests/mcp/test_schemas.py checks of a minimal call, here of the calls a
model makes."""
from __future__ import annotations

import pytest

from plausible_calls import REGISTRY, check_plausible_call

CALLS = {
    "export_pdf": [
        {}, {"sheets": ["all"]}, {"sheets": ["A101-A105"], "combine": False}, {"sheets": ["A101", "A101 - Plans"]},
        {"views": ["Level 1"]}, {"view_set": "Issue set"}, {"sheets": ["all"], "file_name": "Issue 01"},
        {"sheets": ["all"], "combine": False, "name_pattern": "{Sheet Number} {Sheet Name}"},
        {"sheets": ["all"], "color": "grayscale", "raster": True, "raster_quality": "presentation",
         "folder": "C:\\Projects\\Exports"},
        {"sheets": ["all"], "color": "black_lines", "folder": "issue 01"}],
    "export_cad": [
        {"format": "dxf", "views": ["Level 1"]}, {"sheets": ["all"]},
        {"format": "dwg", "sheets": ["A101-A105"], "setup": "Standard", "shared_coordinates": True},
        {"view_set": "Consultants", "shared_coordinates": False, "folder": "dwg"}],
    "export_model": [
        {}, {"format": "ifc", "ifc_version": "IFC4", "file_type": "ifczip", "view": "{3D}"}, {"format": "nwc"},
        {"format": "nwc", "shared_coordinates": False, "file_name": "coordination"},
        {"file_type": "ifcxml", "file_name": "duplex.ifc", "folder": "exports"}],
    "create_view_filter": [
        {"name": "Exterior walls", "categories": ["Walls"],
         "conditions": [{"parameter": "Function", "op": "=", "value": "Exterior"}]},
        {"name": "Wide openings", "categories": ["Doors", "Windows"], "match": "any",
         "conditions": [{"parameter": "Width", "op": ">", "value": "900 mm"},
                        {"parameter": "Width", "op": ">=", "value": 0.9},
                        {"parameter": "Comments", "op": "has value", "value": None},
                        {"parameter": "Mark", "op": "begins with", "value": "D-"}]},
        {"name": "Level 1 walls", "categories": ["Walls"],
         "conditions": [{"parameter": "Base Constraint", "op": "=", "value": "Level 1"},
                        {"parameter": "Comments", "op": "contains", "value": "fire"},
                        {"parameter": "Room Bounding", "op": "=", "value": True},
                        {"parameter": "Mark", "op": "has no value", "value": None},
                        {"parameter": "Unconnected Height", "op": "<", "value": 3}]}],
    "apply_view_filter": [
        {"filter": "Exterior walls"}, {"filter": "Exterior walls", "views": ["Level 1"], "color": "red"},
        {"filter": "Exterior walls", "views": ["Level 1", 320], "color": [255, 0, 0], "line_weight": 5},
        {"filter": "Exterior walls", "color": "#FF0000", "fill": False, "halftone": True},
        {"filter": "Exterior walls", "visible": False, "views": ["Architectural Plan"]}],
    "remove_view_filter": [{"filter": "Exterior walls"}, {"filter": "Exterior walls", "views": ["Level 1", 320]}],
    "list_view_filters": [{}, {"name_contains": "wall"}, {"offset": 25}],
    "rename_views": [
        {"view_type": "Floor Plan", "template": "{Level} - Plan"}, {"views": ["Level 1", 320], "prefix": "ARCH - "},
        {"name_contains": "Level", "find": "Level", "replace": "L"},
        {"view_type": "Sheet", "template": "{Sheet Number} {Sheet Name}"},
        {"find": "(\\d+)", "replace": "0\\1", "regex": True, "view_type": "Floor Plan"},
        {"in_working_set": True, "suffix": " (old)", "preview": True}],
    "renumber_sheets": [
        {"number_prefix": "A1", "start": "A201"}, {"sheets": ["A101", "A102"], "start": "A301", "order": "as_given",
                                                   "step": 10},
        {"find": "A1", "replace": "B1"}, {"number_prefix": "A", "start": "A101", "preview": True},
        {"sheets": [123456, "A101 - Plans"], "start": "A101"}],
    "renumber_viewports": [
        {"sheet": "A101"}, {"sheet": "A101", "order": "top_to_bottom", "start": "D1"},
        {"sheet": "A101 - Plans", "order": "as_given", "views": ["Level 1", "Level 2"], "step": 2},
        {"sheet": "A101", "preview": True}],
    "purge_unused": [
        {}, {"dry_run": True}, {"kinds": ["families", "family types"]}, {"exclude_kinds": ["materials"]},
        {"kinds": ["view templates", "filters", "line patterns", "fill patterns"], "dry_run": True}],
}


def test_every_new_tool_has_plausible_calls_here():
    new = {spec.name for spec in REGISTRY.specs()
           if spec.function.__module__.rsplit(".", 2)[-2] in ("exports", "filters")
           or spec.function.__module__.endswith((".rename_tools", ".renumber_tools", ".purge_tools"))}
    assert len(new) >= 11 and new <= set(CALLS), sorted(new - set(CALLS))


@pytest.mark.parametrize("name, call", [(name, call) for name, calls in CALLS.items() for call in calls],
                         ids=lambda value: value if isinstance(value, str) else "")
def test_a_plausible_call_validates_against_the_mcp_schema_and_both_forms_read_it_alike(name, call):
    check_plausible_call(name, call)
