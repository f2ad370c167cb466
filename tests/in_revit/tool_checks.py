"""One in-Revit check per tool of the catalogue: the tool runs through the executor, as the agent
runs it (``Scratch.call``), on whatever model is open, and its result is checked against the
model read directly through the Revit API, not only for the absence of an error.

``CHECKS`` maps each tool's name to ``function(scratch)``; run_checks.py runs each inside its own
transaction group that it rolls back, with a fresh scratch session, and puts back the active view,
the selection and the views' temporary hide/isolate afterwards. A check finds what it needs in the
model (levels, views, families) and builds the rest inside its group through the API (walls in
an empty spot east of the model, a room, a floor plan, a sheet, a schedule), so a broken creation
tool does not fail the checks of the others. When the model lacks what a check needs and cannot
be built (no door family, no title block), the check is SKIPPED with the reason.
tests/test_in_revit_checks.py fails when a registered tool has no check here.

Arguments carry their units ("12 ft"), so the checks do not depend on the project's units;
categories are given as 'OST_Walls' and parameter names are read from the model, so they do not
depend on Revit's language. Plain Python 3.12 as pyRevit's CPython engine runs it.
"""
import os
import shutil
import tempfile

from Autodesk.Revit import DB
from Autodesk.Revit.DB.Architecture import Room

from kit import COMMENT, expect, skip, transaction
from paracore.revit.context import element_id, id_value
from paracore.revit.dotnet import element_id_list

CHECKS = {}
PREFIX = "Paracore check"
TOLERANCE = 1e-5      # feet: points the tools place must match to this (arguments carry 6 decimals)
CLEARANCE = 30.0      # feet between the model and the spot where the checks build
SCRIPT = "Create_Curved_Wall"   # a script shipped with Paracore (lib/paracore/tools/scripts/bundled)


def check(tool):
    """Register ``function(scratch)`` as the check of ``tool``."""
    def register(function):
        CHECKS[tool] = function
        return function
    return register


def all_checks():
    """[(tool name, function)] in name order."""
    return sorted(CHECKS.items())


# --- reading the model ---------------------------------------------------------------------------------

def ft(value):
    """A length argument in feet, whatever the project's units."""
    return f"{value:.6f} ft"


def point(x, y):
    return [ft(x), ft(y)]


def element(scratch, value):
    return scratch.doc.GetElement(element_id(value))


def working_set(scratch):
    return list(scratch.session.working_set.ids)


def levels(doc):
    return sorted(DB.FilteredElementCollector(doc).OfClass(DB.Level), key=lambda level: level.Elevation)


def level(scratch):
    """The level the checks build on: the lowest one that has a floor plan, else the lowest."""
    found = levels(scratch.doc)
    if not found:
        skip("the model has no levels")
    planned = {id_value(v.GenLevel.Id) for v in DB.FilteredElementCollector(scratch.doc).OfClass(DB.ViewPlan)
               if not v.IsTemplate and v.GenLevel is not None}
    return next((lv for lv in found if id_value(lv.Id) in planned), found[0])


def site(scratch):
    """(x, y) in feet: a spot east of every wall and placed family instance, where what the checks
    build joins nothing of the model and falls in no room."""
    if "site" not in scratch.memo:
        xs, ys = [0.0], [0.0]
        for wall in DB.FilteredElementCollector(scratch.doc).OfClass(DB.Wall):
            curve = wall.Location.Curve if isinstance(wall.Location, DB.LocationCurve) else None
            if curve is not None and curve.IsBound:
                for end in (curve.GetEndPoint(0), curve.GetEndPoint(1)):
                    xs.append(end.X)
                    ys.append(end.Y)
        for instance in DB.FilteredElementCollector(scratch.doc).OfClass(DB.FamilyInstance):
            if isinstance(instance.Location, DB.LocationPoint):
                xs.append(instance.Location.Point.X)
                ys.append(instance.Location.Point.Y)
        scratch.memo["site"] = (max(xs) + CLEARANCE, (min(ys) + max(ys)) / 2)
    return scratch.memo["site"]


def types_of(doc, category):
    return list(DB.FilteredElementCollector(doc).OfCategory(category).WhereElementIsElementType())


def basic_wall_types(doc):
    return [t for t in DB.FilteredElementCollector(doc).OfClass(DB.WallType) if t.Kind == DB.WallKind.Basic]


def instances_of(doc, cls):
    return {id_value(e.Id) for e in DB.FilteredElementCollector(doc).OfClass(cls)}


def ids_in_view(doc, view, cls):
    return [id_value(e.Id) for e in DB.FilteredElementCollector(doc, view.Id).OfClass(cls)]


def named(doc, cls, name):
    return next((e for e in DB.FilteredElementCollector(doc).OfClass(cls) if e.Name == name), None)


def unused_name(doc, cls, name):
    taken = {e.Name for e in DB.FilteredElementCollector(doc).OfClass(cls)}
    number = 1
    candidate = name
    while candidate in taken:
        number += 1
        candidate = f"{name} {number}"
    return candidate


def parameter_name(element_, bip):
    parameter = element_.get_Parameter(bip)
    expect(parameter is not None, f"element {id_value(element_.Id)} has no {bip} parameter")
    return parameter.Definition.Name


def ends(wall):
    curve = wall.Location.Curve
    return curve.GetEndPoint(0), curve.GetEndPoint(1)


def near(a, b, tolerance=TOLERANCE):
    return abs(a - b) <= tolerance


def at(xyz, x, y, tolerance=TOLERANCE):
    return near(xyz.X, x, tolerance) and near(xyz.Y, y, tolerance)


def shown(xyz):
    return f"({xyz.X:.4f}, {xyz.Y:.4f}) ft"


def active_model_view(scratch):
    """The active view when it shows model elements (a plan, section, 3D view...), else SKIP."""
    view = scratch.uidoc.ActiveView
    if view is None:
        skip("there is no active view")
    if isinstance(view, (DB.ViewSheet, DB.ViewSchedule)) or view.IsTemplate:
        skip(f"the active view '{view.Name}' shows no model elements (a sheet or schedule)")
    return view


def visible_walls(scratch, view, count):
    """``count`` walls the view shows: the model's, else walls built for the check, if it shows them."""
    ids = ids_in_view(scratch.doc, view, DB.Wall)
    if len(ids) < count:
        walls(scratch, *(((0, 10 * i), (10, 10 * i)) for i in range(count)))
        ids = ids_in_view(scratch.doc, view, DB.Wall)
    if len(ids) < count:
        skip(f"the active view '{view.Name}' shows {len(ids)} wall(s), even with walls built for the check; "
             f"it needs {count}")
    return ids[:count]


# --- building inside the check's group (through the API, not the tools under test) ---------------------------

def walls(scratch, *lines, height=None, on=None):
    """Straight walls on level ``on`` (default ``level(scratch)``), one per ((x0, y0), (x1, y1)) in
    feet from the site; of the default wall type and height, or ``height`` feet high."""
    x, y = site(scratch)
    base = on or level(scratch)
    wall_type = scratch.doc.GetDefaultElementTypeId(DB.ElementTypeGroup.WallType)
    made = []
    with transaction(scratch.doc, "Paracore check: scratch walls"):
        for (x0, y0), (x1, y1) in lines:
            line = DB.Line.CreateBound(DB.XYZ(x + x0, y + y0, base.Elevation), DB.XYZ(x + x1, y + y1, base.Elevation))
            if height is None:
                created = DB.Wall.Create(scratch.doc, line, base.Id, False)
            else:
                created = DB.Wall.Create(scratch.doc, line, wall_type, base.Id, height, 0.0, False, False)
            made.append(id_value(created.Id))
    return made


def wall(scratch, length=20.0, height=None):
    [made] = walls(scratch, ((0.0, 0.0), (length, 0.0)), height=height)
    return made


def floor_plan(scratch, for_level=None):
    """A new floor plan of ``for_level`` (the checks' level): nothing of the user's views changes."""
    family_type = next((t for t in DB.FilteredElementCollector(scratch.doc).OfClass(DB.ViewFamilyType)
                        if t.ViewFamily == DB.ViewFamily.FloorPlan), None)
    if family_type is None:
        skip("the model has no floor plan view type")
    with transaction(scratch.doc, "Paracore check: scratch plan"):
        plan = DB.ViewPlan.Create(scratch.doc, family_type.Id, (for_level or level(scratch)).Id)
    return plan


def set_text(scratch, ids, bip, value):
    with transaction(scratch.doc, "Paracore check: set a parameter"):
        for value_id in ids:
            element(scratch, value_id).get_Parameter(bip).Set(value)


def title_block_type(doc):
    found = types_of(doc, DB.BuiltInCategory.OST_TitleBlocks)
    if not found:
        skip("the model has no title block family loaded")
    return found[0]


def sheet(scratch, number):
    with transaction(scratch.doc, "Paracore check: scratch sheet"):
        created = DB.ViewSheet.Create(scratch.doc, title_block_type(scratch.doc).Id)
        created.SheetNumber = number
        created.Name = PREFIX
    return created


def unused_sheet_number(doc):
    taken = {s.SheetNumber for s in DB.FilteredElementCollector(doc).OfClass(DB.ViewSheet)}
    number = 1
    while f"PC-{number}" in taken:
        number += 1
    return f"PC-{number}"


def mark_field(scratch, schedule, bip=DB.BuiltInParameter.ALL_MODEL_MARK):
    """The schedulable field of ``bip`` (Mark by default) of a schedule, and its name in this Revit."""
    wanted = DB.ElementId(bip)
    for field in schedule.Definition.GetSchedulableFields():
        if field.ParameterId == wanted:
            return field, field.GetName(scratch.doc)
    skip(f"a wall schedule offers no field for {bip}")


def wall_schedule(scratch, name, bips=(DB.BuiltInParameter.ALL_MODEL_MARK,)):
    """A schedule of walls with the fields of ``bips``; (schedule, [field names]). A wall is built
    first, so the schedule has a row even in a model without walls."""
    wall(scratch)
    with transaction(scratch.doc, "Paracore check: scratch schedule"):
        schedule = DB.ViewSchedule.CreateSchedule(scratch.doc, DB.ElementId(DB.BuiltInCategory.OST_Walls))
        schedule.Name = unused_name(scratch.doc, DB.ViewSchedule, name)
        names = []
        for bip in bips:
            field, field_name = mark_field(scratch, schedule, bip)
            schedule.Definition.AddField(field)
            names.append(field_name)
    return schedule, names


def only(scratch, cls, what):
    """The one element the working set holds after a tool that makes it the working set."""
    ids = working_set(scratch)
    found = element(scratch, ids[0]) if len(ids) == 1 else None
    expect(isinstance(found, cls), f"the working set should hold the new {what}; it holds {ids}")
    return found


def select(scratch, ids):
    scratch.uidoc.Selection.SetElementIds(element_id_list(ids))


# --- the working set and the selection -----------------------------------------------------------------------

@check("get_working_set")
def check_get_working_set(scratch):
    ids = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    scratch.session.working_set.replace(ids)
    content = scratch.call("get_working_set", {})
    expect(all(str(i) in content for i in ids), f"the result does not list both walls {ids}: {content[:200]}")
    return content.splitlines()[0][:90]


@check("set_working_set")
def check_set_working_set(scratch):
    ids = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    scratch.call("set_working_set", {"element_ids": ids})
    expect(working_set(scratch) == ids, f"the working set holds {working_set(scratch)}, not {ids}")
    return f"working set = {ids}"


@check("add_to_working_set")
def check_add_to_working_set(scratch):
    a, b = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    scratch.session.working_set.replace([a])
    scratch.call("add_to_working_set", {"element_ids": [b, a]})
    expect(working_set(scratch) == [a, b], f"the working set holds {working_set(scratch)}, not {[a, b]}")
    return f"[{a}] + [{b}, {a}] = {working_set(scratch)}"


@check("remove_from_working_set")
def check_remove_from_working_set(scratch):
    a, b = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    scratch.session.working_set.replace([a, b])
    scratch.call("remove_from_working_set", {"element_ids": [a]})
    expect(working_set(scratch) == [b], f"the working set holds {working_set(scratch)}, not {[b]}")
    expect(element(scratch, a) is not None, f"wall {a} left the model, not only the working set")
    return f"[{a}, {b}] - [{a}] = {working_set(scratch)}"


@check("clear_working_set")
def check_clear_working_set(scratch):
    ids = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    scratch.session.working_set.replace(ids)
    scratch.call("clear_working_set", {})
    expect(working_set(scratch) == [], f"the working set still holds {working_set(scratch)}")
    expect(all(element(scratch, i) is not None for i in ids), "clearing the working set deleted elements")
    return "empty; the walls stay in the model"


@check("filter_working_set")
def check_filter_working_set(scratch):
    made = wall(scratch)
    scratch.session.working_set.replace([made, id_value(level(scratch).Id)])
    scratch.call("filter_working_set", {"category": "OST_Walls"})
    expect(working_set(scratch) == [made], f"only wall {made} should stay; the working set holds "
           f"{working_set(scratch)}")
    return f"a wall and a level, filtered to Walls: {working_set(scratch)}"


@check("add_selection_to_working_set")
def check_add_selection_to_working_set(scratch):
    ids = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    select(scratch, ids)
    selected = [id_value(i) for i in scratch.uidoc.Selection.GetElementIds()]
    expect(sorted(selected) == sorted(ids), f"Revit selected {selected} when asked for {ids}")
    scratch.call("add_selection_to_working_set", {"mode": "replace"})
    expect(sorted(working_set(scratch)) == sorted(ids), f"the working set holds {working_set(scratch)}, "
           f"the selection {selected}")
    return f"selection {selected} -> working set"


@check("select_elements")
def check_select_elements(scratch):
    ids = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    scratch.call("select_elements", {"element_ids": ids})
    selected = sorted(id_value(i) for i in scratch.uidoc.Selection.GetElementIds())
    expect(selected == sorted(ids), f"Revit's selection is {selected}, not {sorted(ids)}")
    return f"Revit's selection = {selected}"


@check("get_selection")
def check_get_selection(scratch):
    ids = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    select(scratch, ids)
    content = scratch.call("get_selection", {})
    expect(content.startswith("2 elements selected") and all(str(i) in content for i in ids),
           f"expected the 2 selected walls {ids}: {content[:200]}")
    return content.splitlines()[0][:90]


# --- reading the model -------------------------------------------------------------------------------------

@check("get_model_overview")
def check_get_model_overview(scratch):
    content = scratch.call("get_model_overview", {})
    count = len(levels(scratch.doc))
    expect(f"Levels ({count}," in content, f"Revit has {count} levels; the overview says: {content[:300]}")
    view = scratch.uidoc.ActiveView
    expect(view is None or f"'{view.Name}'" in content, f"the active view '{view.Name}' is not named: {content[:300]}")
    return content.splitlines()[0][:90]


@check("search_elements")
def check_search_elements(scratch):
    wall(scratch)
    expected = {id_value(e.Id) for e in DB.FilteredElementCollector(scratch.doc)
                .OfCategory(DB.BuiltInCategory.OST_Walls).WhereElementIsNotElementType()}
    content = scratch.call("search_elements", {"category": "OST_Walls", "limit": 3, "to_working_set": "replace"})
    found = set(working_set(scratch))
    expect(found == expected, f"Revit has {len(expected)} elements of category Walls, search_elements put "
           f"{len(found)} in the working set (missing {sorted(expected - found)[:5]}, "
           f"extra {sorted(found - expected)[:5]})")
    expect(content.startswith(f"{len(expected)} "), f"the count is not {len(expected)}: {content[:120]}")
    return content.splitlines()[0][:90]


@check("get_element_info")
def check_get_element_info(scratch):
    made = element(scratch, wall(scratch))
    content = scratch.call("get_element_info", {"element_ids": [id_value(made.Id)]})
    wall_type, base = scratch.doc.GetElement(made.GetTypeId()), scratch.doc.GetElement(made.LevelId)
    for expected in (str(id_value(made.Id)), wall_type.Name, base.Name):
        expect(expected in content, f"'{expected}' (read from Revit) is not in the result: {content[:200]}")
    return content.splitlines()[0][:90]


@check("get_parameters")
def check_get_parameters(scratch):
    made = wall(scratch)
    set_text(scratch, [made], DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS, COMMENT)
    name = parameter_name(element(scratch, made), DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
    content = scratch.call("get_parameters", {"element_ids": [made], "names": [name]})
    expect(COMMENT in content, f"{name} = {COMMENT!r} (set through the API) is not in the result: {content[:200]}")
    return f"{name} read back: {content.splitlines()[-1][:70]}"


@check("get_quantities")
def check_get_quantities(scratch):
    """The walls' total length, as Revit's own parameters add up, and their count, in the display unit."""
    import re
    made = element(scratch, wall(scratch))
    name = parameter_name(made, DB.BuiltInParameter.CURVE_ELEM_LENGTH)
    walls = list(DB.FilteredElementCollector(scratch.doc).OfCategory(DB.BuiltInCategory.OST_Walls)
                 .WhereElementIsNotElementType())
    lengths = [w.LookupParameter(name) for w in walls]
    lengths = [p.AsDouble() for p in lengths if p is not None and p.HasValue]
    content = scratch.call("get_quantities", {"category": "OST_Walls", "quantity": name})
    options = scratch.doc.GetUnits().GetFormatOptions(DB.SpecTypeId.Length)
    expected = DB.UnitUtils.ConvertFromInternalUnits(sum(lengths), options.GetUnitTypeId())
    match = re.search(r"sum (-?[\d,]*\.?\d+)", content.splitlines()[0])
    shown = float(match.group(1).replace(",", "")) if match else None
    expect(f"({len(lengths)} Walls counted" in content or f"({len(lengths)} Wall counted" in content,
           f"Revit has {len(lengths)} walls with a {name}: {content[:200]}")
    expect(shown is not None and abs(shown - expected) <= max(options.Accuracy, 1e-6) * 1.01,
           f"the walls' {name} adds up to {expected:.4f} in Revit's display unit: {content[:200]}")
    return content.splitlines()[0][:90] + _linked_quantities(scratch)


def _loaded_link_with_walls(doc):
    """(the link instance's file name as the tools take it, the link's document) of the first loaded
    link holding walls, or None."""
    for instance in DB.FilteredElementCollector(doc).OfClass(DB.RevitLinkInstance):
        if not DB.RevitLinkType.IsLoaded(doc, instance.GetTypeId()):
            continue
        linked = instance.GetLinkDocument()
        if linked is not None and DB.FilteredElementCollector(linked).OfCategory(
                DB.BuiltInCategory.OST_Walls).WhereElementIsNotElementType().GetElementCount():
            return instance.Name.split(" : ", 1)[0], linked
    return None


def _linked_quantities(scratch):
    """get_quantities with link: the link's walls' length, read in the link's document, in the host's
    display unit (a link keeps its own units); " · no loaded link" when the model has none."""
    import re
    found = _loaded_link_with_walls(scratch.doc)
    if found is None:
        return " · no loaded link to take off inside"
    file_name, linked = found
    walls = list(DB.FilteredElementCollector(linked).OfCategory(DB.BuiltInCategory.OST_Walls)
                 .WhereElementIsNotElementType())
    names = [p.Definition.Name for p in (w.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH) for w in walls)
             if p is not None]
    if not names:
        return f" · link '{file_name}': its walls have no length parameter"
    name = names[0]
    lengths = [w.LookupParameter(name) for w in walls]     # as the host's part reads them
    lengths = [p.AsDouble() for p in lengths if p is not None and p.HasValue]
    content = scratch.call("get_quantities", {"category": "OST_Walls", "quantity": name, "link": file_name})
    options = scratch.doc.GetUnits().GetFormatOptions(DB.SpecTypeId.Length)   # the host's
    expected = DB.UnitUtils.ConvertFromInternalUnits(sum(lengths), options.GetUnitTypeId())
    match = re.search(r"sum (-?[\d,]*\.?\d+)", content.splitlines()[0])
    shown = float(match.group(1).replace(",", "")) if match else None
    expect(f"in '{file_name}" in content.splitlines()[0] and f"({len(lengths)} Wall" in content,
           f"link '{file_name}' has {len(lengths)} walls with a {name}: {content[:200]}")
    expect(shown is not None and abs(shown - expected) <= max(options.Accuracy, 1e-6) * 1.01,
           f"the walls of '{file_name}' add up to {expected:.4f} in the host's display unit: {content[:200]}")
    return f" · in link '{file_name}': {len(lengths)} walls, {shown}"


@check("list_levels")
def check_list_levels(scratch):
    found = levels(scratch.doc)
    content = scratch.call("list_levels", {})
    expect(content.startswith(f"{len(found)} level"), f"Revit has {len(found)} levels: {content[:120]}")
    if found:
        expect(f"id {id_value(found[0].Id)}" in content.splitlines()[1], f"the lowest level, '{found[0].Name}', "
               f"is not listed first: {content[:200]}")
    return content.splitlines()[0][:90]


@check("list_types")
def check_list_types(scratch):
    found = types_of(scratch.doc, DB.BuiltInCategory.OST_Walls)
    if not found:
        skip("the model has no wall types")
    content = scratch.call("list_types", {"category": "OST_Walls"})
    expect(content.startswith(f"{len(found)} "), f"Revit has {len(found)} wall types: {content[:120]}")
    first = found[0]
    narrowed = scratch.call("list_types", {"category": "OST_Walls", "name_contains": first.Name})
    expect(f"id {id_value(first.Id)}" in narrowed, f"wall type '{first.Name}' is not listed: {narrowed[:200]}")
    return content.splitlines()[0][:90]


def _material_name(doc, material_id):
    material = doc.GetElement(material_id) if id_value(material_id) > 0 else None
    return material.Name if material is not None else "<By Category>"


@check("get_type_layers")
def check_get_type_layers(scratch):
    doc = scratch.doc
    wall_type = next((t for t in basic_wall_types(doc) if t.GetCompoundStructure() is not None), None)
    if wall_type is None:
        skip("the model has no basic wall type with layers")
    content = scratch.call("get_type_layers", {"type_name": wall_type.Name, "category": "OST_Walls"})
    lines = [line for line in content.splitlines() if line.startswith("  ") and ". " in line]
    layers = list(wall_type.GetCompoundStructure().GetLayers())
    expect(len(lines) == len(layers), f"Revit has {len(layers)} layers in '{wall_type.Name}': {content[:300]}")
    for number, (line, layer) in enumerate(zip(lines, layers), 1):
        name = _material_name(doc, layer.MaterialId)
        expect(line.startswith(f"  {number}. ") and name[:40] in line, f"layer {number} is {name} in Revit: {line}")
    return f"'{wall_type.Name}': {len(layers)} layer(s) in order"


@check("material_takeoff")
def check_material_takeoff(scratch):
    doc = scratch.doc
    made = element(scratch, wall(scratch))
    wall_type = doc.GetElement(made.GetTypeId())
    content = scratch.call("material_takeoff", {"type_name": wall_type.Name, "category": "OST_Walls"})
    of_type = [w for w in DB.FilteredElementCollector(doc).OfClass(DB.Wall) if w.GetTypeId() == wall_type.Id]
    counted = [w for w in of_type if list(w.GetMaterialIds(False))]
    if counted:
        expect(f"from {len(counted)} element" in content, f"Revit reports materials for {len(counted)} walls of "
                                                          f"'{wall_type.Name}': {content[:300]}")
        for material_id in made.GetMaterialIds(False):
            name = _material_name(doc, material_id)
            expect(name[:40] in content, f"material {name} is not in the takeoff: {content[:300]}")
    else:   # a type whose layers have no material (the template's Generic - 200mm): every wall is left out
        named = str(id_value(made.Id)) in content or len(of_type) > 8   # the first 8 are named
        expect(f"reports none for {len(of_type)} element" in content and named,
               f"Revit reports no material for the {len(of_type)} walls of '{wall_type.Name}': {content[:300]}")
    return content.splitlines()[0][:90] + _linked_materials(scratch)


def _linked_materials(scratch):
    """material_takeoff with link: the link's walls counted and their materials named, read in the
    link's document, each row naming the link; " · no loaded link" when the model has none."""
    found = _loaded_link_with_walls(scratch.doc)
    if found is None:
        return " · no loaded link to take off inside"
    file_name, linked = found
    walls = list(DB.FilteredElementCollector(linked).OfClass(DB.Wall))
    counted = [w for w in walls if list(w.GetMaterialIds(False))]
    content = scratch.call("material_takeoff", {"category": "OST_Walls", "link": file_name})
    if not counted:
        expect(f"reports none for {len(walls)} element" in content,
               f"Revit reports no material for the {len(walls)} walls of link '{file_name}': {content[:300]}")
        return f" · in link '{file_name}': no materials"
    expect(f"from {len(counted)} element" in content, f"Revit reports materials for {len(counted)} walls of link "
                                                      f"'{file_name}': {content[:300]}")
    rows = [line for line in content.splitlines() if line.startswith("- ") and not line.startswith("- …")]
    expect(rows and all(f"'{file_name}" in row for row in rows), f"each row names the link: {content[:300]}")
    name = _material_name(linked, list(counted[0].GetMaterialIds(False))[0])
    expect(name[:40] in content, f"material {name} of link '{file_name}' is not in the takeoff: {content[:300]}")
    return f" · in link '{file_name}': {len(counted)} walls"


def _listed_views(doc):
    return [v for v in DB.FilteredElementCollector(doc).OfClass(DB.View)
            if not v.IsTemplate and v.ViewType.ToString() not in ("ProjectBrowser", "SystemBrowser", "Internal",
                                                                  "Undefined")]


@check("list_views")
def check_list_views(scratch):
    content = scratch.call("list_views", {})
    count = len(_listed_views(scratch.doc))
    expect(content.startswith(f"{count} view"), f"Revit has {count} views (no templates): {content[:120]}")
    view = scratch.uidoc.ActiveView
    if view is not None:
        narrowed = scratch.call("list_views", {"name_contains": view.Name})
        row = next((line for line in narrowed.splitlines() if f"id {id_value(view.Id)}" in line), "")
        expect(row.endswith("ACTIVE"), f"the active view '{view.Name}' is not marked ACTIVE: {narrowed[:200]}")
    return content.splitlines()[0][:90]


@check("get_warnings")
def check_get_warnings(scratch):
    count = len(list(scratch.doc.GetWarnings()))
    content = scratch.call("get_warnings", {})
    if count == 0:
        expect("no warnings" in content, f"Revit has no warnings; the result: {content[:200]}")
    else:
        expect(content.startswith(f"{count} warning"), f"Revit has {count} warnings; the result: {content[:200]}")
    return content.splitlines()[0][:90]


@check("check_model")
def check_check_model(scratch):
    ids = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    set_text(scratch, ids, DB.BuiltInParameter.ALL_MODEL_MARK, "PC-CHECK-DUPLICATE")
    content = scratch.call("check_model", {"checks": ["duplicate_marks"], "to_working_set": "duplicate_marks"})
    expect(set(ids) <= set(working_set(scratch)), f"the two walls with Mark 'PC-CHECK-DUPLICATE' ({ids}) are not "
           f"among the duplicates it found: {content[:200]}")
    return content.splitlines()[0][:90]


# --- worksharing ----------------------------------------------------------------------------------------------

def _user_worksets(doc):
    return list(DB.FilteredWorksetCollector(doc).OfKind(DB.WorksetKind.UserWorkset))


@check("list_worksets")
def check_list_worksets(scratch):
    doc = scratch.doc
    content = scratch.call("list_worksets", {})
    if not doc.IsWorkshared:
        expect("is not workshared" in content, f"the model is not workshared; the result: {content[:200]}")
        return content[:90]
    names = [w.Name for w in _user_worksets(doc)]
    missing = [name for name in names if f"'{name[:40]}" not in content]
    expect(not missing, f"the user worksets {missing} are not listed: {content[:300]}")
    return content.splitlines()[0][:90]


@check("move_to_workset")
def check_move_to_workset(scratch):
    doc = scratch.doc
    made = wall(scratch)   # new here: nobody else can own it, and the group takes it away again
    if not doc.IsWorkshared:
        outcome = scratch.outcome("move_to_workset", {"element_ids": [made], "workset": "Workset1"}, allow_error=True)
        expect(outcome.is_error and "is not workshared" in outcome.content,
               f"the model is not workshared, yet move_to_workset answered: {outcome.content[:200]}")
        return "refused: the model is not workshared"
    now = element(scratch, made).WorksetId.IntegerValue
    target = next((w for w in _user_worksets(doc) if w.IsOpen and w.Id.IntegerValue != now), None)
    if target is None:
        skip("the model has only one open user workset")
    scratch.call("move_to_workset", {"element_ids": [made], "workset": target.Name})
    moved = element(scratch, made).WorksetId.IntegerValue
    expect(moved == target.Id.IntegerValue, f"wall {made} is on workset {moved}, not '{target.Name}'")
    return f"wall {made} moved to '{target.Name}'"


# --- firm standards --------------------------------------------------------------------------------------------

@check("use_standard")
def check_use_standard(scratch):
    from paracore.core import standards
    loaded = standards.current()
    expect(loaded.standards, "no standard is loaded, not even the bundled ones")
    first = loaded.standards[0]
    content = scratch.call("use_standard", {"name": first.name})
    expect(first.text.strip()[:60] in content, f"use_standard '{first.name}' did not give its text: {content[:200]}")
    return f"'{first.name}': {len(content)} characters"


# --- views ---------------------------------------------------------------------------------------------------

@check("capture_view")
def check_capture_view(scratch):
    from paracore.core.images import image_bytes, png_size
    view = active_model_view(scratch)
    visible_walls(scratch, view, 1)      # something to see, even in an empty project
    outcome = scratch.outcome("capture_view", {"max_size": 256})
    pictures = list(getattr(outcome, "images", ()) or ())
    expect(len(pictures) == 1, f"capture_view gave {len(pictures)} pictures: {outcome.content[:200]}")
    width, height = png_size(image_bytes(pictures[0]))
    expect(max(width, height) <= 256 and min(width, height) > 0, f"the picture is {width}×{height} px")
    return f"'{view.Name}': {width}×{height} px"


@check("activate_view")
def check_activate_view(scratch):
    current = scratch.uidoc.ActiveView
    target = next((v for v in DB.FilteredElementCollector(scratch.doc).OfClass(DB.View)
                   if isinstance(v, (DB.ViewPlan, DB.View3D)) and not v.IsTemplate
                   and (current is None or v.Id != current.Id)), None)
    if target is None:
        skip("the model has no plan or 3D view besides the active one")
    scratch.call("activate_view", {"view": str(id_value(target.Id))})
    now = scratch.uidoc.ActiveView
    expect(now is not None and now.Id == target.Id, f"the active view is '{now.Name if now else None}', "
           f"not '{target.Name}'")
    return f"'{target.Name}' is active (the runner puts '{current.Name if current else None}' back)"


@check("isolate_in_view")
def check_isolate_in_view(scratch):
    view = active_model_view(scratch)
    ids = visible_walls(scratch, view, 2)
    shown_before = len(ids_in_view(scratch.doc, view, DB.Wall))
    content = scratch.call("isolate_in_view", {"element_ids": ids})
    expect(view.IsTemporaryHideIsolateActive(), f"view '{view.Name}' has no temporary hide/isolate: {content[:200]}")
    # Whether a view's collector leaves out what the isolation hides is not documented: told, not judged.
    shown_after = len(ids_in_view(scratch.doc, view, DB.Wall))
    return f"isolated {ids} in '{view.Name}'; the view's collector gives {shown_after} of {shown_before} walls"


@check("reset_view_isolation")
def check_reset_view_isolation(scratch):
    view = active_model_view(scratch)
    ids = visible_walls(scratch, view, 1)
    with transaction(scratch.doc, "Paracore check: isolate"):
        view.IsolateElementsTemporary(element_id_list(ids))
    expect(view.IsTemporaryHideIsolateActive(), "IsolateElementsTemporary left no temporary isolation")
    content = scratch.call("reset_view_isolation", {})
    expect(not view.IsTemporaryHideIsolateActive(), f"view '{view.Name}' is still isolated: {content[:200]}")
    return content.splitlines()[0][:90]


@check("color_elements")
def check_color_elements(scratch):
    view = active_model_view(scratch)
    [target] = visible_walls(scratch, view, 1)
    content = scratch.call("color_elements", {"element_ids": [target], "color": [255, 0, 0]})
    settings = view.GetElementOverrides(element_id(target))

    def rgb(color):
        return (color.Red, color.Green, color.Blue) if color.IsValid else None
    # A wall a plan cuts shows its cut lines and pattern, one seen its projection lines and surface
    # pattern; a pattern colour shows only with a fill pattern: the tool sets all of them.
    colours = {name: rgb(getattr(settings, name)) for name in (
        "ProjectionLineColor", "CutLineColor", "SurfaceForegroundPatternColor", "CutForegroundPatternColor")}
    patterns = {name: scratch.doc.GetElement(getattr(settings, name))
                for name in ("SurfaceForegroundPatternId", "CutForegroundPatternId")}
    wrong = {name: got for name, got in colours.items() if got != (255, 0, 0)}
    expect(not wrong, f"wall {target}'s override in '{view.Name}' has {wrong}, not (255, 0, 0): {content[:200]}")
    unfilled = [name for name, pattern in patterns.items()
                if not (isinstance(pattern, DB.FillPatternElement) and pattern.GetFillPattern().IsSolidFill)]
    expect(not unfilled, f"wall {target}'s {unfilled} is not a solid fill pattern: {content[:200]}")
    filled = patterns["CutForegroundPatternId"].Name
    return f"wall {target}: lines and patterns red in '{view.Name}', filled with '{filled}'"


@check("create_3d_view")
def check_create_3d_view(scratch):
    name = unused_name(scratch.doc, DB.View3D, f"{PREFIX} 3D")
    before = instances_of(scratch.doc, DB.View3D)
    scratch.call("create_3d_view", {"name": name, "element_ids": []})
    new = [scratch.doc.GetElement(element_id(i)) for i in instances_of(scratch.doc, DB.View3D) - before]
    expect(len(new) == 1, f"{len(new)} new 3D views, expected 1")
    view = new[0]
    expect(view.Name == name and not view.IsTemplate and not view.IsSectionBoxActive,
           f"the new view is '{view.Name}', template {view.IsTemplate}, section box {view.IsSectionBoxActive}")
    return f"3D view '{view.Name}' (id {id_value(view.Id)}), no section box"


@check("duplicate_view")
def check_duplicate_view(scratch):
    source = next((v for v in DB.FilteredElementCollector(scratch.doc).OfClass(DB.ViewPlan)
                   if not v.IsTemplate and v.CanViewBeDuplicated(DB.ViewDuplicateOption.Duplicate)), None)
    if source is None:
        skip("the model has no plan view that can be duplicated")
    name = unused_name(scratch.doc, DB.View, f"{PREFIX} copy")
    scratch.call("duplicate_view", {"view": str(id_value(source.Id)), "name": name})
    copy = only(scratch, DB.ViewPlan, "plan")
    expect(copy.Name == name, f"the copy is named '{copy.Name}', not '{name}'")
    expect(copy.GenLevel.Id == source.GenLevel.Id, f"the copy is on '{copy.GenLevel.Name}', "
           f"not '{source.GenLevel.Name}'")
    expect(copy.ViewTemplateId == source.ViewTemplateId, "the copy has another view template than its source")
    return f"'{source.Name}' -> '{copy.Name}' (id {id_value(copy.Id)})"


def _templates(doc):
    return [v for v in DB.FilteredElementCollector(doc).OfClass(DB.View) if v.IsTemplate]


@check("list_view_templates")
def check_list_view_templates(scratch):
    found = _templates(scratch.doc)
    content = scratch.call("list_view_templates", {})
    if not found:
        expect("no view templates" in content.lower(), f"Revit has no view templates: {content[:200]}")
        return content.splitlines()[0][:90]
    expect(content.startswith(f"{len(found)} view template"), f"Revit has {len(found)} templates: {content[:120]}")
    narrowed = scratch.call("list_view_templates", {"name_contains": found[0].Name})
    expect(f"id {id_value(found[0].Id)}" in narrowed, f"template '{found[0].Name}' is not listed: {narrowed[:200]}")
    return content.splitlines()[0][:90]


@check("apply_view_template")
def check_apply_view_template(scratch):
    plan = floor_plan(scratch)
    template = next((t for t in _templates(scratch.doc) if plan.IsValidViewTemplate(t.Id)
                     and t.Id != plan.ViewTemplateId), None)
    if template is None:
        skip("the model has no view template for floor plans")
    scratch.call("apply_view_template", {"views": [id_value(plan.Id)], "template": str(id_value(template.Id))})
    expect(plan.ViewTemplateId == template.Id, f"the plan's template is {id_value(plan.ViewTemplateId)}, not "
           f"'{template.Name}' ({id_value(template.Id)})")
    return f"'{template.Name}' on a new plan of '{plan.GenLevel.Name}'"


# --- view filters ----------------------------------------------------------------------------------------

def _commented_wall(scratch):
    """A scratch wall whose Comments say COMMENT, and the name Revit shows for Comments."""
    made = wall(scratch)
    set_text(scratch, [made], DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS, COMMENT)
    return made, parameter_name(element(scratch, made), DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)


def _filter_name(doc):
    number = 1
    while not DB.ParameterFilterElement.IsNameUnique(doc, f"{PREFIX} filter {number}"):
        number += 1
    return f"{PREFIX} filter {number}"


def _comment_filter(scratch):
    """A filter (made through the API, not the tools) of walls whose Comments equal COMMENT."""
    rule = DB.ParameterFilterRuleFactory.CreateEqualsRule(
        DB.ElementId(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS), COMMENT)
    with transaction(scratch.doc, "Paracore check: a view filter"):
        return DB.ParameterFilterElement.Create(
            scratch.doc, _filter_name(scratch.doc), element_id_list([DB.ElementId(DB.BuiltInCategory.OST_Walls)]),
            DB.ElementParameterFilter(rule))


def _plain_plan(scratch):
    """A new floor plan without a view template (a template may control its filters)."""
    plan = floor_plan(scratch)
    with transaction(scratch.doc, "Paracore check: no template"):
        plan.ViewTemplateId = DB.ElementId.InvalidElementId
    return plan


@check("create_view_filter")
def check_create_view_filter(scratch):
    made, comments = _commented_wall(scratch)
    name = _filter_name(scratch.doc)
    content = scratch.call("create_view_filter", {"name": name, "categories": ["OST_Walls"],
                                                  "conditions": [{"parameter": comments, "op": "=", "value": COMMENT}]})
    found = named(scratch.doc, DB.ParameterFilterElement, name)
    expect(found is not None, f"no filter named {name!r} after: {content[:200]}")
    categories = [id_value(i) for i in found.GetCategories()]
    expect(categories == [int(DB.BuiltInCategory.OST_Walls)], f"the filter's categories are {categories}")
    expect(found.GetElementFilter().PassesFilter(element(scratch, made)), f"the filter does not pass wall {made}")
    other = wall(scratch)
    expect(not found.GetElementFilter().PassesFilter(element(scratch, other)),
           f"the filter passes wall {other}, whose Comments are empty")
    return f"'{name}': walls where {comments} = {COMMENT!r}; passes the marked wall only"


@check("apply_view_filter")
def check_apply_view_filter(scratch):
    flt, plan = _comment_filter(scratch), _plain_plan(scratch)
    content = scratch.call("apply_view_filter", {"filter": flt.Name, "views": [id_value(plan.Id)],
                                                 "color": [255, 0, 0], "line_weight": 5, "halftone": True})
    expect(plan.IsFilterApplied(flt.Id), f"the plan does not have the filter: {content[:200]}")
    got = plan.GetFilterOverrides(flt.Id)
    colour = (got.CutLineColor.Red, got.CutLineColor.Green, got.CutLineColor.Blue) if got.CutLineColor.IsValid else None
    expect(colour == (255, 0, 0) and got.ProjectionLineWeight == 5 and got.Halftone and plan.GetFilterVisibility(flt.Id),
           f"the filter's overrides read back: cut colour {colour}, weight {got.ProjectionLineWeight}, "
           f"halftone {got.Halftone}, visible {plan.GetFilterVisibility(flt.Id)}")
    return f"'{flt.Name}' on a new plan: red, pen 5, halftone, visible"


@check("list_view_filters")
def check_list_view_filters(scratch):
    flt, plan = _comment_filter(scratch), _plain_plan(scratch)
    with transaction(scratch.doc, "Paracore check: apply the filter"):
        plan.AddFilter(flt.Id)
        plan.SetFilterVisibility(flt.Id, False)
    content = scratch.call("list_view_filters", {"name_contains": flt.Name})
    expect(f"'{flt.Name}'" in content and f"hidden on 'Floor Plan: {plan.Name}'" in content,
           f"the listing does not name the filter and its hidden use on '{plan.Name}': {content[:300]}")
    return content.splitlines()[1][:120]


@check("remove_view_filter")
def check_remove_view_filter(scratch):
    flt, plan = _comment_filter(scratch), _plain_plan(scratch)
    with transaction(scratch.doc, "Paracore check: apply the filter"):
        plan.AddFilter(flt.Id)
    content = scratch.call("remove_view_filter", {"filter": flt.Name, "views": [id_value(plan.Id)]})
    expect(not plan.IsFilterApplied(flt.Id), f"the plan still has the filter: {content[:200]}")
    expect(scratch.doc.GetElement(flt.Id) is not None, "removing it from the view deleted the filter")
    return f"'{flt.Name}' removed from a new plan; the filter stays"


# --- modelling -----------------------------------------------------------------------------------------------

@check("create_wall")
def check_create_wall(scratch):
    base, (x, y) = level(scratch), site(scratch)
    content = scratch.call("create_wall", {"level": base.Name, "start": point(x, y), "end": point(x + 12, y)})
    found = only(scratch, DB.Wall, "wall")
    made = id_value(found.Id)
    start, end = ends(found)
    expect(at(start, x, y) and at(end, x + 12, y), f"the wall runs {shown(start)} to {shown(end)}, not from "
           f"({x:.4f}, {y:.4f}) ft, 12 ft east")
    expect(found.LevelId == base.Id, f"the wall is on level {id_value(found.LevelId)}, not '{base.Name}'")
    scratch.wall = made
    return content.splitlines()[0][:90]


@check("create_curved_wall")
def check_create_curved_wall(scratch):
    base, (x, y) = level(scratch), site(scratch)
    scratch.call("create_curved_wall", {"level": base.Name, "center": point(x, y), "radius": ft(10), "length": ft(20)})
    found = only(scratch, DB.Wall, "wall")
    made = id_value(found.Id)
    arc = found.Location.Curve
    expect(isinstance(arc, DB.Arc), f"the wall's curve is a {type(arc).__name__}, not an Arc")
    expect(near(arc.Radius, 10) and at(arc.Center, x, y) and near(arc.Length, 20),
           f"radius {arc.Radius:.4f} ft, centre {shown(arc.Center)}, length {arc.Length:.4f} ft; asked 10 ft at "
           f"({x:.4f}, {y:.4f}), 20 ft long")
    return f"arc wall {made}: radius 10 ft, 20 ft long"


@check("create_floor")
def check_create_floor(scratch):
    if not list(DB.FilteredElementCollector(scratch.doc).OfClass(DB.FloorType)):
        skip("the model has no floor types")
    base, (x, y) = level(scratch), site(scratch)
    corners = [point(x, y), point(x + 10, y), point(x + 10, y + 10), point(x, y + 10)]
    scratch.call("create_floor", {"boundary": corners, "level": base.Name})
    found = only(scratch, DB.Floor, "floor")
    made = id_value(found.Id)
    expect(found.LevelId == base.Id, f"the floor is on level {id_value(found.LevelId)}, not '{base.Name}'")
    area = found.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    expect(near(area, 100, 1e-3), f"the floor's area reads {area:.4f} sq ft, not 100 (10 ft x 10 ft)")
    return f"floor {made}: 100 sq ft on '{base.Name}'"


@check("create_level")
def check_create_level(scratch):
    elevation = max([lv.Elevation for lv in levels(scratch.doc)] + [0.0]) + 50
    name = unused_name(scratch.doc, DB.Level, f"{PREFIX} level")
    scratch.call("create_level", {"elevation": ft(elevation), "name": name})
    found = named(scratch.doc, DB.Level, name)
    expect(found is not None, f"no level named '{name}' in the model")
    expect(near(found.Elevation, elevation), f"'{name}' is at {found.Elevation:.4f} ft, not {elevation:.4f}")
    kinds = sorted(str(v.ViewType) for v in DB.FilteredElementCollector(scratch.doc).OfClass(DB.ViewPlan)
                   if not v.IsTemplate and v.GenLevel is not None and id_value(v.GenLevel.Id) == id_value(found.Id))
    expect(any("FloorPlan" in k for k in kinds), f"'{name}' has no floor plan (its plans: {kinds})")
    return f"'{name}' at {elevation:.2f} ft, plans: {', '.join(kinds)}"


# --- grids and levels --------------------------------------------------------------------------------------


def _grid_names(doc):
    return {g.Name for g in DB.FilteredElementCollector(doc).OfClass(DB.Grid)}


def _check_grids(scratch, across=2, up=2):
    """A small array of grids east of the model, named 'PCn' and 'PC-A'…, made by create_grids."""
    taken = _grid_names(scratch.doc)
    start = 1
    while any(f"PC{start + n}" in taken for n in range(across)):
        start += across
    names_across = [f"PC{start + n}" for n in range(across)]
    names_up = [f"PC{start}-{chr(65 + n)}" for n in range(up)]
    x, y = site(scratch)
    scratch.call("create_grids", {"array": {"across": across, "up": up, "spacing_across": [ft(20)],
                                            "spacing_up": [ft(15)], "origin": point(x, y), "overhang": ft(5),
                                            "across_names": names_across, "up_names": names_up}})
    grids = {g.Name: g for g in DB.FilteredElementCollector(scratch.doc).OfClass(DB.Grid)}
    return [grids.get(n) for n in names_across], [grids.get(n) for n in names_up], (x, y)


@check("create_grids")
def check_create_grids(scratch):
    across, up, (x, y) = _check_grids(scratch)
    expect(all(g is not None for g in across + up), "create_grids did not make every grid it was asked for")
    for n, grid in enumerate(across):
        a, b = grid.Curve.GetEndPoint(0), grid.Curve.GetEndPoint(1)
        expect(near(a.X, x + 20 * n) and near(b.X, x + 20 * n) and near(a.Y, y - 5) and near(b.Y, y + 20),
               f"grid '{grid.Name}' runs {shown(a)} → {shown(b)}")
    ids = {id_value(g.Id) for g in across + up}
    expect(set(working_set(scratch)) == ids, "the working set is not the new grids")
    return f"{len(ids)} grids, e.g. '{across[0].Name}' at x = {x:.2f} ft"


@check("rename_grids")
def check_rename_grids(scratch):
    across, up, _ = _check_grids(scratch)
    first, second = across[0].Name, across[1].Name
    scratch.call("rename_grids", {"grids": [{"grid": first, "name": second}, {"grid": second, "name": first}]})
    expect((across[0].Name, across[1].Name) == (second, first), f"the grids are '{across[0].Name}', '{across[1].Name}'")
    refused = scratch.outcome("rename_grids", {"grids": [{"grid": first, "name": up[0].Name}]}, allow_error=True)
    expect(getattr(refused, "is_error", True), "a grid took another grid's name")
    return f"'{first}' and '{second}' swapped; a name taken refused"


@check("set_grid_extents")
def check_set_grid_extents(scratch):
    across, _, _ = _check_grids(scratch)
    low = levels(scratch.doc)[0]
    scratch.call("set_grid_extents", {"grids": [across[0].Name], "bottom": ft(low.Elevation - 2),
                                      "top": ft(low.Elevation + 6), "extend": ft(3)})
    outline = across[0].GetExtents()
    expect(near(outline.MinimumPoint.Z, low.Elevation - 2) and near(outline.MaximumPoint.Z, low.Elevation + 6),
           f"the extents are {outline.MinimumPoint.Z:.3f} to {outline.MaximumPoint.Z:.3f} ft")
    expect(near(across[0].Curve.Length, 31.0), f"the grid is {across[0].Curve.Length:.3f} ft long, not 31")
    return "vertical extents and length in plan read back"


@check("set_grid_bubbles")
def check_set_grid_bubbles(scratch):
    across, _, _ = _check_grids(scratch)
    plan = floor_plan(scratch)
    scratch.call("set_grid_bubbles", {"grids": [across[0].Name], "start": True, "end": False, "views": [plan.Name]})
    shown_ends = (across[0].IsBubbleVisibleInView(DB.DatumEnds.End0, plan),
                  across[0].IsBubbleVisibleInView(DB.DatumEnds.End1, plan))
    expect(shown_ends == (True, False), f"the bubbles in '{plan.Name}' are {shown_ends}")
    return f"start shown, end hidden in '{plan.Name}'"


@check("rename_levels")
def check_rename_levels(scratch):
    name = unused_name(scratch.doc, DB.Level, f"{PREFIX} level")
    scratch.call("create_level", {"elevation": ft(max(lv.Elevation for lv in levels(scratch.doc)) + 60), "name": name})
    new_name = unused_name(scratch.doc, DB.Level, f"{PREFIX} renamed")
    scratch.call("rename_levels", {"levels": [{"level": name, "name": new_name}]})
    found = named(scratch.doc, DB.Level, new_name)
    expect(found is not None, f"no level named '{new_name}'")
    views = [v.Name for v in DB.FilteredElementCollector(scratch.doc).OfClass(DB.ViewPlan)
             if not v.IsTemplate and v.GenLevel is not None and id_value(v.GenLevel.Id) == id_value(found.Id)]
    expect(views and all(v == new_name for v in views), f"its plans are named {views}")
    return f"'{name}' → '{new_name}' with {len(views)} plans"


@check("move_levels")
def check_move_levels(scratch):
    name = unused_name(scratch.doc, DB.Level, f"{PREFIX} level")
    top = max(lv.Elevation for lv in levels(scratch.doc)) + 60
    scratch.call("create_level", {"elevation": ft(top), "name": name})
    host = walls(scratch, ((0.0, 0.0), (10.0, 0.0)), on=named(scratch.doc, DB.Level, name))
    scratch.call("move_levels", {"levels": [{"level": name, "elevation": None, "by": ft(2)}]})
    moved = element(scratch, host[0]).Location.Curve.GetEndPoint(0).Z
    expect(near(named(scratch.doc, DB.Level, name).Elevation, top + 2), "the level did not move by 2 ft")
    expect(near(moved, top + 2), f"its wall is at {moved:.3f} ft, not {top + 2:.3f}: it did not move with the level")
    return "the level and its wall moved 2 ft"


@check("place_doors_on_wall")
def check_place_doors_on_wall(scratch):
    if not types_of(scratch.doc, DB.BuiltInCategory.OST_Doors):
        skip("the model has no door family loaded")
    host, (x, y) = wall(scratch, 40.0), site(scratch)
    scratch.call("place_doors_on_wall", {"wall_id": host, "count": 2})
    doors = [element(scratch, i) for i in working_set(scratch)]
    expect(len(doors) == 2, f"the working set holds {working_set(scratch)}, not the 2 new doors")
    for door, along in zip(sorted(doors, key=lambda d: d.Location.Point.X), (10.0, 30.0)):
        expect(door.Category.Id == DB.ElementId(DB.BuiltInCategory.OST_Doors), f"{id_value(door.Id)} is not a door")
        expect(door.Host is not None and id_value(door.Host.Id) == host,
               f"door {id_value(door.Id)} is not in wall {host}")
        spot = door.Location.Point   # along the wall to the tool's spacing; across, within the wall
        expect(near(spot.X, x + along, 1e-3) and near(spot.Y, y, door.Host.Width / 2 + 1e-3),
               f"door {id_value(door.Id)} is at {shown(spot)}, not {along} ft along the wall")
    return f"2 doors in wall {host} at 1/4 and 3/4 of its length"


# --- families -----------------------------------------------------------------------------------------------

def _placeable(doc, placement, host=None):
    """A family type whose family is of ``placement`` (and Host ``host``), doors and windows aside."""
    openings = {int(DB.BuiltInCategory.OST_Doors), int(DB.BuiltInCategory.OST_Windows)}
    for symbol in DB.FilteredElementCollector(doc).OfClass(DB.FamilySymbol):
        family = symbol.Family
        if family is None or family.FamilyPlacementType != placement or \
                (symbol.Category is not None and id_value(symbol.Category.Id) in openings):
            continue
        hosting = family.get_Parameter(DB.BuiltInParameter.FAMILY_HOSTING_BEHAVIOR)
        if host is None or (hosting is not None and hosting.AsInteger() == host):
            return symbol
    return None


@check("list_family_types")
def check_list_family_types(scratch):
    symbol = _placeable(scratch.doc, DB.FamilyPlacementType.OneLevelBased) or \
        _placeable(scratch.doc, DB.FamilyPlacementType.OneLevelBasedHosted, 1) or \
        _placeable(scratch.doc, DB.FamilyPlacementType.CurveBased)
    if symbol is None:
        skip("the model has no level-based, wall-hosted or line-based family loaded")
    label = f"{symbol.FamilyName}: {symbol.Name}"
    text = scratch.call("list_family_types", {"name": label})
    expect(f"- {label} (type id {id_value(symbol.Id)}): " in text, f"'{label}' is not listed: {text[:300]}")
    return text.splitlines()[1][:120]


@check("place_family_instances")
def check_place_family_instances(scratch):
    """A wall-hosted family in a wall built for the check, read back in that wall at the height asked;
    else a level-based one at a point of the level; else a line-based one along a line."""
    base, (x, y) = level(scratch), site(scratch)
    hosted = _placeable(scratch.doc, DB.FamilyPlacementType.OneLevelBasedHosted, 1)
    if hosted is not None:
        host = wall(scratch, 20.0)
        scratch.call("place_family_instances", {"family_type": f"{hosted.FamilyName}: {hosted.Name}",
                                                "host_id": host, "points": [point(x + 10, y + 0.1)], "offset": ft(3)})
        [placed] = [element(scratch, i) for i in working_set(scratch)]
        expect(placed.Host is not None and id_value(placed.Host.Id) == host, f"it is not in wall {host}")
        spot = placed.Location.Point
        expect(at(spot, x + 10, y, 1e-3) and near(spot.Z, base.Elevation + 3, 1e-3),
               f"it stands at {shown(spot)} z {spot.Z:.4f}, not on the wall's line 3 ft above {base.Name}")
        return f"'{hosted.FamilyName}' in wall {host} at {shown(spot)}"
    standing = _placeable(scratch.doc, DB.FamilyPlacementType.OneLevelBased)
    if standing is not None:
        scratch.call("place_family_instances", {"family_type": f"{standing.FamilyName}: {standing.Name}",
                                                "level": base.Name, "points": [point(x, y)], "rotation": 90})
        [placed] = [element(scratch, i) for i in working_set(scratch)]
        spot = placed.Location.Point
        expect(at(spot, x, y) and id_value(placed.LevelId) == id_value(base.Id),
               f"it stands at {shown(spot)} on level {id_value(placed.LevelId)}")
        return f"'{standing.FamilyName}' at {shown(spot)} on {base.Name}, turned {placed.Location.Rotation:.4f} rad"
    lined = _placeable(scratch.doc, DB.FamilyPlacementType.CurveBased)
    if lined is None:
        skip("the model has no wall-hosted, level-based or line-based family loaded")
    scratch.call("place_family_instances", {"family_type": f"{lined.FamilyName}: {lined.Name}", "level": base.Name,
                                            "lines": [[point(x, y), point(x + 10, y)]]})
    [placed] = [element(scratch, i) for i in working_set(scratch)]
    curve = placed.Location.Curve
    expect(at(curve.GetEndPoint(0), x, y) and at(curve.GetEndPoint(1), x + 10, y),
           f"it runs from {shown(curve.GetEndPoint(0))} to {shown(curve.GetEndPoint(1))}")
    return f"'{lined.FamilyName}' along 10 ft"


@check("load_family")
def check_load_family(scratch):
    """A file named as a family the model has, which Revit cannot read as a family: nothing is loaded, and
    the tool says so (the stand-in: the family is kept, as asked)."""
    family = next((f for f in DB.FilteredElementCollector(scratch.doc).OfClass(DB.Family)
                   if f.FamilyPlacementType != DB.FamilyPlacementType.Invalid), None)
    if family is None:
        skip("the model has no loadable family")
    before = len(list(DB.FilteredElementCollector(scratch.doc).OfClass(DB.Family)))
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        with open(os.path.join(folder, f"{family.Name}.rfa"), "wb") as file:
            file.write(b"not a family")
        outcome = scratch.outcome("load_family", {"path": folder, "if_loaded": "keep"}, allow_error=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    after = len(list(DB.FilteredElementCollector(scratch.doc).OfClass(DB.Family)))
    expect(after == before, f"{after - before} families more after loading a file that is no family")
    expect(("kept as it was" in outcome.content) if not outcome.is_error else "could not load" in outcome.content,
           f"load_family answered: {outcome.content[:200]}")
    return outcome.content[:160]


@check("place_windows_on_wall")
def check_place_windows_on_wall(scratch):
    if not types_of(scratch.doc, DB.BuiltInCategory.OST_Windows):
        skip("the model has no window family loaded")
    host, (x, y) = wall(scratch, 60.0, height=30.0), site(scratch)   # room for any window family
    scratch.call("place_windows_on_wall", {"wall_id": host, "count": 1})
    windows = [element(scratch, i) for i in working_set(scratch)]
    expect(len(windows) == 1, f"the working set holds {working_set(scratch)}, not the new window")
    window = windows[0]
    expect(window.Host is not None and id_value(window.Host.Id) == host, f"window {id_value(window.Id)} is not in "
           f"wall {host}")
    spot = window.Location.Point
    expect(near(spot.X, x + 30, 1e-3) and near(spot.Y, y, window.Host.Width / 2 + 1e-3),
           f"the window is at {shown(spot)}, not halfway along the wall")
    return f"window {id_value(window.Id)} halfway along wall {host}"


@check("move_elements")
def check_move_elements(scratch):
    made, (x, y) = wall(scratch), site(scratch)
    scratch.call("move_elements", {"element_ids": [made], "offset": [ft(3), ft(4)]})
    start, end = ends(element(scratch, made))
    expect(at(start, x + 3, y + 4) and at(end, x + 23, y + 4), f"the wall runs {shown(start)} to {shown(end)} "
           "after a move by (3, 4) ft")
    return f"wall {made} moved by (3, 4) ft"


@check("copy_elements")
def check_copy_elements(scratch):
    made, (x, y) = wall(scratch), site(scratch)
    before = instances_of(scratch.doc, DB.Wall)
    scratch.call("copy_elements", {"element_ids": [made], "offset": [ft(0), ft(10)]})
    new = sorted(instances_of(scratch.doc, DB.Wall) - before)
    expect(len(new) == 1, f"{len(new)} new walls, expected 1 copy")
    start, end = ends(element(scratch, new[0]))
    expect(at(start, x, y + 10) and at(end, x + 20, y + 10), f"the copy runs {shown(start)} to {shown(end)}")
    expect(new[0] in working_set(scratch), f"the copy {new[0]} did not join the working set {working_set(scratch)}")
    start, end = ends(element(scratch, made))
    expect(at(start, x, y) and at(end, x + 20, y), "the original wall moved")
    return f"wall {made} copied to {new[0]}, 10 ft north"


@check("rotate_elements")
def check_rotate_elements(scratch):
    made, (x, y) = wall(scratch), site(scratch)
    scratch.call("rotate_elements", {"element_ids": [made], "angle": 90, "center": point(x, y)})
    start, end = ends(element(scratch, made))
    expect(at(start, x, y) and at(end, x, y + 20), f"after 90° about its start the wall runs {shown(start)} to "
           f"{shown(end)}, not north from its start")
    return f"wall {made} turned 90° counter-clockwise"


@check("change_type")
def check_change_type(scratch):
    made = element(scratch, wall(scratch))
    other = next((t for t in basic_wall_types(scratch.doc) if t.Id != made.GetTypeId()), None)
    if other is None:  # a model with one wall type: a second one, for the check
        with transaction(scratch.doc, "Paracore check: a second wall type"):
            other = scratch.doc.GetElement(made.GetTypeId()).Duplicate(
                unused_name(scratch.doc, DB.WallType, f"{PREFIX} wall type"))
    scratch.call("change_type", {"element_ids": [id_value(made.Id)], "type_name": other.Name})
    expect(made.GetTypeId() == other.Id, f"the wall's type is {id_value(made.GetTypeId())}, not '{other.Name}'")
    return f"wall {id_value(made.Id)} -> '{other.Name}'"


@check("delete_elements")
def check_delete_elements(scratch):
    ids = walls(scratch, ((0, 0), (10, 0)), ((0, 10), (10, 10)))
    scratch.call("delete_elements", {"element_ids": ids})
    left = [i for i in ids if element(scratch, i) is not None]
    expect(not left, f"walls {left} are still in the model")
    return f"walls {ids} deleted (the group's rollback brings them back)"


@check("purge_unused")
def check_purge_unused(scratch):
    """A wall type duplicated here (no wall is of it) is purged; nothing else of the model's elements goes.
    On Revit 2023 the tool refuses, saying GetUnusedElements is not in its API."""
    doc = scratch.doc
    if not hasattr(doc, "GetUnusedElements"):
        refused = scratch.outcome("purge_unused", {}, allow_error=True)
        expect(refused.is_error and "GetUnusedElements" in refused.content and "Purge Unused" in refused.content,
               f"on Revit {doc.Application.VersionNumber}: {refused.content[:200]}")
        return "refused on this Revit, naming Purge Unused"
    source = doc.GetElement(doc.GetDefaultElementTypeId(DB.ElementTypeGroup.WallType))
    if source is None:
        skip("the model has no default wall type to duplicate")
    with transaction(doc):
        made = id_value(source.Duplicate(f"{PREFIX} unused wall type").Id)
    before = DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount()
    text = scratch.call("purge_unused", {"kinds": ["system types"]})
    expect(element(scratch, made) is None, f"the unused wall type {made} is still in the model: {text[:200]}")
    after = DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount()
    expect(after == before, f"{before - after} elements that are not types went with the purge")
    expect(element(scratch, id_value(source.Id)) is not None, "the default wall type was purged")
    return f"the unused wall type {made} purged, {before} other elements kept: {text[:120]}"


@check("set_parameter")
def check_set_parameter(scratch):
    made = wall(scratch)
    name = parameter_name(element(scratch, made), DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
    scratch.call("set_parameter", {"element_ids": [made], "name": name, "value": COMMENT})
    value = element(scratch, made).get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS).AsString()
    expect(value == COMMENT, f"{name} reads {value!r} after set_parameter")
    return f"{name} = {value!r}"


# --- structure ------------------------------------------------------------------------------------------------

def structural_type(scratch, category, what):
    """The 'Family: Type' of a loaded type of ``category``; skipped when the model has none."""
    found = next(iter(DB.FilteredElementCollector(scratch.doc).OfClass(DB.FamilySymbol).OfCategory(category)), None)
    if found is None:
        skip(f"the model has no {what} type loaded (load one from Autodesk's structural library)")
    return f"{found.FamilyName}: {found.Name}"


def level_above(scratch, base):
    """The level above ``base``, made 12 ft above it inside the check's group when there is none."""
    above = [lv for lv in levels(scratch.doc) if lv.Elevation > base.Elevation + 1e-6]
    if above:
        return above[0]
    with transaction(scratch.doc, "Paracore check: a level above"):
        made = DB.Level.Create(scratch.doc, base.Elevation + 12.0)
    return made


def columns_at_site(scratch, count=2, spacing=20.0):
    """Structural columns placed by the tool at the site, from the build level to the one above: ids."""
    base = level(scratch)
    top = level_above(scratch, base)
    x, y = site(scratch)
    scratch.call("place_structural_columns", {
        "points": [point(x + n * spacing, y) for n in range(count)], "base_level": base.Name, "top_level": top.Name,
        "column_type": structural_type(scratch, DB.BuiltInCategory.OST_StructuralColumns, "structural column")})
    return working_set(scratch), base, top


@check("list_structural_types")
def check_list_structural_types(scratch):
    loaded = [t for bic in (DB.BuiltInCategory.OST_StructuralColumns, DB.BuiltInCategory.OST_StructuralFraming,
                            DB.BuiltInCategory.OST_StructuralFoundation)
              for t in DB.FilteredElementCollector(scratch.doc).OfClass(DB.FamilySymbol).OfCategory(bic)]
    loaded += list(DB.FilteredElementCollector(scratch.doc).OfClass(DB.WallFoundationType))
    if not loaded:
        skip("the model has no structural types loaded")
    text = scratch.call("list_structural_types", {})
    expect(text.startswith(f"{len(loaded)} structural type"), f"the list counts otherwise: {text[:120]}")
    first = loaded[0]
    expect(first.Name in text, f"'{first.Name}' is not listed")
    return f"{len(loaded)} types listed"


@check("place_structural_columns")
def check_place_structural_columns(scratch):
    ids, base, top = columns_at_site(scratch)
    expect(len(ids) == 2, f"the working set holds {ids}, not the 2 new columns")
    x, y = site(scratch)
    for n, column in enumerate(sorted((element(scratch, i) for i in ids), key=lambda c: c.Location.Point.X)):
        bip = DB.BuiltInParameter
        expect(at(column.Location.Point, x + n * 20.0, y), f"column {id_value(column.Id)} is at "
               f"{shown(column.Location.Point)}")
        expect(id_value(column.get_Parameter(bip.FAMILY_BASE_LEVEL_PARAM).AsElementId()) == id_value(base.Id),
               f"column {id_value(column.Id)} does not stand on {base.Name}")
        expect(id_value(column.get_Parameter(bip.FAMILY_TOP_LEVEL_PARAM).AsElementId()) == id_value(top.Id),
               f"column {id_value(column.Id)} does not reach {top.Name}")
    refused = scratch.outcome("place_structural_columns", {"points": [point(x, y)], "base_level": top.Name,
                                                           "top_level": base.Name}, allow_error=True)
    expect(refused.is_error, "a column whose top is below its base was placed")
    return f"2 columns from {base.Name} to {top.Name}; a top below the base refused"


@check("place_beams")
def check_place_beams(scratch):
    ids, _, top = columns_at_site(scratch)
    beam_type = structural_type(scratch, DB.BuiltInCategory.OST_StructuralFraming, "structural framing")
    scratch.call("place_beams", {"level": top.Name, "column_pairs": [ids], "beam_type": beam_type})
    [beam] = [element(scratch, i) for i in working_set(scratch)]
    curve = beam.Location.Curve
    x, y = site(scratch)
    ends = sorted((curve.GetEndPoint(0), curve.GetEndPoint(1)), key=lambda p: p.X)
    expect(at(ends[0], x, y) and at(ends[1], x + 20.0, y), f"the beam runs from {shown(ends[0])} to {shown(ends[1])}")
    reference = beam.get_Parameter(DB.BuiltInParameter.INSTANCE_REFERENCE_LEVEL_PARAM).AsElementId()
    expect(id_value(reference) == id_value(top.Id), f"the beam's reference level is not {top.Name}")
    return f"a beam between columns {ids[0]} and {ids[1]} on {top.Name}"


@check("place_footings")
def check_place_footings(scratch):
    structural_type(scratch, DB.BuiltInCategory.OST_StructuralFoundation, "isolated footing")
    ids, base, _ = columns_at_site(scratch)
    scratch.call("place_footings", {"element_ids": ids})
    footings = [element(scratch, i) for i in working_set(scratch)]
    expect(len(footings) == 2, f"the working set holds {working_set(scratch)}, not 2 footings")
    columns = [element(scratch, i).Location.Point for i in ids]
    for footing in footings:
        spot = footing.Location.Point
        expect(any(at(spot, c.X, c.Y) for c in columns), f"footing {id_value(footing.Id)} is under no column")
        expect(id_value(footing.LevelId) == id_value(base.Id), f"footing {id_value(footing.Id)} is not on {base.Name}")
    return f"2 footings under the columns on {base.Name}"


@check("place_wall_foundations")
def check_place_wall_foundations(scratch):
    if not list(DB.FilteredElementCollector(scratch.doc).OfClass(DB.WallFoundationType)):
        skip("the model has no wall foundation type")
    host = wall(scratch, 20.0)
    scratch.call("place_wall_foundations", {"element_ids": [host]})
    [foundation] = [element(scratch, i) for i in working_set(scratch)]
    expect(isinstance(foundation, DB.WallFoundation) and id_value(foundation.WallId) == host,
           f"element {id_value(foundation.Id)} is not a wall foundation under wall {host}")
    return f"a wall foundation under wall {host}"


# --- rooms and documentation ------------------------------------------------------------------------------------

@check("place_rooms")
def check_place_rooms(scratch):
    base, (x, y) = level(scratch), site(scratch)
    walls(scratch, ((0, 0), (20, 0)), ((20, 0), (20, 15)), ((20, 15), (0, 15)), ((0, 15), (0, 0)))
    scratch.call("place_rooms", {"level": base.Name, "in_enclosed_regions": False, "at": point(x + 10, y + 7.5)})
    room = only(scratch, Room, "room")
    made = id_value(room.Id)
    expect(room.LevelId == base.Id, f"the room is on level {id_value(room.LevelId)}, not '{base.Name}'")
    expect(room.IsPointInRoom(DB.XYZ(x + 10, y + 7.5, base.Elevation + 1)), "the room does not hold its point")
    expect(0 < room.Area <= 300, f"the room's area is {room.Area:.2f} sq ft; the walls enclose at most 300")
    return f"room {made}: {room.Area:.1f} sq ft inside a 20 x 15 ft box of walls"


def placed_room(scratch):
    """A placed room of the model, else one placed for the check in a box of walls."""
    room = next((r for r in DB.FilteredElementCollector(scratch.doc).OfCategory(DB.BuiltInCategory.OST_Rooms)
                 .WhereElementIsNotElementType() if r.Area > 0), None)
    if room is not None:
        return room
    base, (x, y) = level(scratch), site(scratch)
    walls(scratch, ((0, 0), (20, 0)), ((20, 0), (20, 15)), ((20, 15), (0, 15)), ((0, 15), (0, 0)))
    with transaction(scratch.doc, "Paracore check: a room"):
        room = scratch.doc.Create.NewRoom(base, DB.UV(x + 10, y + 7.5))
    expect(room is not None and room.Area > 0, "Revit placed no room inside a closed box of four walls")
    return room


@check("get_room_info")
def check_get_room_info(scratch):
    room = placed_room(scratch)
    content = scratch.call("get_room_info", {"room_ids": [id_value(room.Id)]})
    expect(room.Number in content and str(id_value(room.Id)) in content, f"room {room.Number} "
           f"(id {id_value(room.Id)}) is not described: {content[:200]}")
    bounding = set()
    for loop in room.GetBoundarySegments(DB.SpatialElementBoundaryOptions()):
        for segment in loop:
            if isinstance(scratch.doc.GetElement(segment.ElementId), DB.Wall):
                bounding.add(id_value(segment.ElementId))
    walls_said = f"bounded by {len(bounding)} wall" in content if bounding else "bounded by 0 walls" not in content
    expect(walls_said, f"Revit gives {len(bounding)} bounding walls: {content[:300]}")
    # A room's doors are the doors whose From or To Room it is (the last phase), as Revit gives them.
    doors = [d for d in DB.FilteredElementCollector(scratch.doc).OfCategory(DB.BuiltInCategory.OST_Doors)
             .WhereElementIsNotElementType() if isinstance(d, DB.FamilyInstance)
             and any(r is not None and r.Id == room.Id for r in (d.FromRoom, d.ToRoom))]
    said = f"{len(doors)} door{'' if len(doors) == 1 else 's'}"
    expect(said in content and all(str(id_value(d.Id)) in content for d in doors[:6]),
           f"Revit gives the room {said} by From/To Room: {content[:300]}")
    return content.splitlines()[0][:90]


@check("renumber_elements")
def check_renumber_elements(scratch):
    east, middle, west = walls(scratch, ((20, 0), (20, 10)), ((10, 0), (10, 10)), ((0, 0), (0, 10)))
    scratch.call("renumber_elements", {"element_ids": [east, middle, west], "prefix": "PC-CHECK-", "start": 1})
    marks = [element(scratch, i).get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK).AsString()
             for i in (west, middle, east)]
    expect(marks == ["PC-CHECK-1", "PC-CHECK-2", "PC-CHECK-3"], f"west to east the Marks read {marks}")
    return f"west to east: {marks}; " + _doors_by_room(scratch)


def _doors_by_room(scratch):
    """order 'by_room' on one of the model's doors that has a To Room: its Mark is that room's
    number and the letter A (inside the check's group, rolled back)."""
    door = next((d for d in DB.FilteredElementCollector(scratch.doc).OfCategory(DB.BuiltInCategory.OST_Doors)
                 .WhereElementIsNotElementType() if isinstance(d, DB.FamilyInstance) and d.ToRoom is not None
                 and d.ToRoom.Number), None)
    if door is None:
        return "by_room not tried: no door of the model has a To Room with a number"
    scratch.call("renumber_elements", {"element_ids": [id_value(door.Id)], "order": "by_room", "prefix": "PC-"})
    mark = door.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK).AsString()
    expect(mark == f"PC-{door.ToRoom.Number}A", f"by_room gave door {id_value(door.Id)} the Mark {mark!r}, its To Room "
           f"is {door.ToRoom.Number!r}")
    return f"by_room: door {id_value(door.Id)} {mark}"


@check("tag_elements")
def check_tag_elements(scratch):
    if not types_of(scratch.doc, DB.BuiltInCategory.OST_WallTags):
        skip("the model has no wall tag family loaded")
    made, plan = wall(scratch), floor_plan(scratch)
    before = instances_of(scratch.doc, DB.IndependentTag)
    scratch.call("tag_elements", {"element_ids": [made], "view": str(id_value(plan.Id))})
    tags = [scratch.doc.GetElement(element_id(i)) for i in instances_of(scratch.doc, DB.IndependentTag) - before]
    expect(len(tags) == 1, f"{len(tags)} new tags, expected 1")
    tagged = [id_value(i) for i in tags[0].GetTaggedLocalElementIds()]
    expect(tagged == [made] and tags[0].OwnerViewId == plan.Id, f"the tag marks {tagged} in view "
           f"{id_value(tags[0].OwnerViewId)}, not wall {made} in the new plan {id_value(plan.Id)}")
    return f"tag {id_value(tags[0].Id)} on wall {made}"


@check("add_text_note")
def check_add_text_note(scratch):
    if not list(DB.FilteredElementCollector(scratch.doc).OfClass(DB.TextNoteType)):
        skip("the model has no text note type")
    plan, (x, y) = floor_plan(scratch), site(scratch)
    text = f"{PREFIX} note"
    scratch.call("add_text_note", {"view": str(id_value(plan.Id)), "text": text, "position": point(x, y)})
    notes = [n for n in DB.FilteredElementCollector(scratch.doc, plan.Id).OfClass(DB.TextNote)]
    expect(len(notes) == 1, f"the new plan holds {len(notes)} text notes, expected 1")
    expect(notes[0].Text.strip() == text, f"the note reads {notes[0].Text!r}")
    expect(at(notes[0].Coord, x, y, 1e-3), f"the note is at {shown(notes[0].Coord)}, not ({x:.4f}, {y:.4f}) ft")
    return f"note {id_value(notes[0].Id)} at its point"


@check("dimension_walls")
def check_dimension_walls(scratch):
    ids, plan = walls(scratch, ((0, 0), (20, 0)), ((0, 10), (20, 10))), floor_plan(scratch)
    before = instances_of(scratch.doc, DB.Dimension)
    scratch.call("dimension_walls", {"element_ids": ids, "view": str(id_value(plan.Id))})
    new = [scratch.doc.GetElement(element_id(i)) for i in instances_of(scratch.doc, DB.Dimension) - before]
    expect(len(new) == 1, f"{len(new)} new dimensions, expected 1")
    dimension = new[0]
    expect(dimension.OwnerViewId == plan.Id, "the dimension is not in the plan asked for")
    expect(dimension.References.Size == 4, f"the dimension has {dimension.References.Size} references, not the 4 "
           "faces of two walls")
    width = element(scratch, ids[0]).Width
    segments = [segment.Value for segment in dimension.Segments]
    expect(near(sum(segments), 10 + width, 1e-4), f"the segments {segments} add up to {sum(segments):.4f} ft, not "
           f"{10 + width:.4f} (10 ft apart plus one wall width)")
    return f"{len(segments)} segments: " + ", ".join(f"{s:.3f}" for s in segments) + " ft"


@check("create_sheet")
def check_create_sheet(scratch):
    title_block_type(scratch.doc)
    number = unused_sheet_number(scratch.doc)
    scratch.call("create_sheet", {"number": number, "name": PREFIX})
    found = only(scratch, DB.ViewSheet, "sheet")
    expect((found.SheetNumber, found.Name) == (number, PREFIX), f"the sheet is '{found.SheetNumber} - {found.Name}'")
    blocks = list(DB.FilteredElementCollector(scratch.doc, found.Id).OfCategory(DB.BuiltInCategory.OST_TitleBlocks)
                  .WhereElementIsNotElementType())
    expect(len(blocks) == 1, f"the sheet has {len(blocks)} title blocks, not 1")
    return f"sheet '{number} - {PREFIX}' with a title block"


@check("list_sheets")
def check_list_sheets(scratch):
    made = sheet(scratch, unused_sheet_number(scratch.doc))
    count = len(list(DB.FilteredElementCollector(scratch.doc).OfClass(DB.ViewSheet)))   # placeholder sheets too
    content = scratch.call("list_sheets", {})
    expect(content.startswith(f"{count} sheet"), f"Revit has {count} sheets: {content[:120]}")
    if count <= 15:  # list_sheets names the first 15 by number
        expect(made.SheetNumber in content, f"sheet {made.SheetNumber} is not listed: {content[:300]}")
    return content.splitlines()[0][:90]


@check("place_views_on_sheet")
def check_place_views_on_sheet(scratch):
    # A plan of a new level far above the model, with one short wall, is small enough for any title
    # block (an empty view could not be placed at all).
    with transaction(scratch.doc, "Paracore check: a level of its own"):
        above = DB.Level.Create(scratch.doc, max(lv.Elevation for lv in levels(scratch.doc)) + 100)
    walls(scratch, ((0, 0), (10, 0)), on=above)
    plan, target = floor_plan(scratch, above), sheet(scratch, unused_sheet_number(scratch.doc))
    content = scratch.call("place_views_on_sheet", {"sheet": str(id_value(target.Id)), "views": [id_value(plan.Id)]})
    ports = [element(scratch, i) for i in working_set(scratch)]
    expect(len(ports) == 1 and isinstance(ports[0], DB.Viewport), f"the working set should hold the new viewport: "
           f"{working_set(scratch)}: {content[:200]}")
    expect(ports[0].SheetId == target.Id and ports[0].ViewId == plan.Id, "the viewport shows another view or sheet")
    return f"viewport {id_value(ports[0].Id)} on sheet {target.SheetNumber}"


# --- renaming and renumbering -------------------------------------------------------------------------------

@check("rename_views")
def check_rename_views(scratch):
    # Two new plans of the checks' level: one renamed by a template and a suffix; then a rename to the
    # other's name is refused before anything runs (Revit wants plan names unique among plans).
    first, second = floor_plan(scratch), floor_plan(scratch)
    a, b = unused_name(scratch.doc, DB.View, f"{PREFIX} A"), unused_name(scratch.doc, DB.View, f"{PREFIX} B")
    with transaction(scratch.doc, "Paracore check: name the plans"):
        first.Name, second.Name = a, b
    content = scratch.call("rename_views", {"views": [id_value(first.Id)], "template": "{Name}", "suffix": " renamed"})
    expect(first.Name == f"{a} renamed", f"the plan is named {first.Name!r}: {content[:200]}")
    refused = scratch.outcome("rename_views", {"views": [id_value(first.Id)], "find": first.Name, "replace": b},
                              allow_error=True)
    expect(getattr(refused, "is_error", True), f"renaming a plan to another plan's name was not refused: "
           f"{getattr(refused, 'content', refused)}")
    expect(first.Name == f"{a} renamed" and second.Name == b, f"a refused rename changed the names: {first.Name!r}, "
           f"{second.Name!r}")
    return f"renamed to {first.Name!r}; a clash with {b!r} refused"


@check("renumber_sheets")
def check_renumber_sheets(scratch):
    base = unused_sheet_number(scratch.doc)
    one, two = sheet(scratch, f"{base}.1"), sheet(scratch, f"{base}.2")
    numbers = (one.SheetNumber, two.SheetNumber)
    # Counted from the first number, the second sheet first: the two numbers swap, through
    # temporary numbers inside the one transaction.
    content = scratch.call("renumber_sheets", {"sheets": [id_value(two.Id), id_value(one.Id)], "start": numbers[0],
                                               "order": "as_given"})
    expect((two.SheetNumber, one.SheetNumber) == (numbers[0], _next(numbers[0])),
           f"the sheets are numbered {one.SheetNumber}, {two.SheetNumber}: {content[:200]}")
    return f"{numbers} -> {(one.SheetNumber, two.SheetNumber)}"


def _next(number):
    head = number.rstrip("0123456789")
    digits = number[len(head):]
    return f"{head}{str(int(digits) + 1).zfill(len(digits))}"


@check("renumber_viewports")
def check_renumber_viewports(scratch):
    with transaction(scratch.doc, "Paracore check: a level of its own"):
        above = DB.Level.Create(scratch.doc, max(lv.Elevation for lv in levels(scratch.doc)) + 100)
    walls(scratch, ((0, 0), (10, 0)), on=above)
    target = sheet(scratch, unused_sheet_number(scratch.doc))
    with transaction(scratch.doc, "Paracore check: two viewports"):
        left = DB.Viewport.Create(scratch.doc, target.Id, floor_plan_in(scratch, above).Id, DB.XYZ(0.5, 0.5, 0))
        right = DB.Viewport.Create(scratch.doc, target.Id, floor_plan_in(scratch, above).Id, DB.XYZ(1.5, 0.5, 0))
    detail = DB.BuiltInParameter.VIEWPORT_DETAIL_NUMBER
    scratch.call("renumber_viewports", {"sheet": str(id_value(target.Id)), "order": "left_to_right", "start": "7"})
    numbers = [v.get_Parameter(detail).AsString() for v in (left, right)]
    expect(numbers == ["7", "8"], f"left to right the Detail Numbers read {numbers}")
    return f"left to right: {numbers}"


def floor_plan_in(scratch, for_level):
    """A new floor plan of ``for_level`` created in the open transaction."""
    family_type = next((t for t in DB.FilteredElementCollector(scratch.doc).OfClass(DB.ViewFamilyType)
                        if t.ViewFamily == DB.ViewFamily.FloorPlan), None)
    if family_type is None:
        skip("the model has no floor plan view type")
    return DB.ViewPlan.Create(scratch.doc, family_type.Id, for_level.Id)


# --- schedules -----------------------------------------------------------------------------------------------

def _field_names(schedule):
    definition = schedule.Definition
    return [definition.GetField(i).GetName() for i in range(definition.GetFieldCount())]


@check("create_schedule")
def check_create_schedule(scratch):
    probe, [mark] = wall_schedule(scratch, f"{PREFIX} probe")
    name = unused_name(scratch.doc, DB.ViewSchedule, f"{PREFIX} schedule")
    scratch.call("create_schedule", {"category": "OST_Walls", "name": name, "fields": [mark]})
    found = named(scratch.doc, DB.ViewSchedule, name)
    expect(found is not None, f"no schedule named '{name}'")
    expect(found.Definition.CategoryId == DB.ElementId(DB.BuiltInCategory.OST_Walls), "the schedule is not of walls")
    expect(_field_names(found) == [mark], f"its fields are {_field_names(found)}, not ['{mark}']")
    return f"'{name}': walls, fields {_field_names(found)}"


@check("add_schedule_field")
def check_add_schedule_field(scratch):
    schedule, [mark] = wall_schedule(scratch, f"{PREFIX} schedule")
    _, comments = mark_field(scratch, schedule, DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
    scratch.call("add_schedule_field", {"schedule": str(id_value(schedule.Id)), "field": comments})
    expect(_field_names(schedule) == [mark, comments], f"the fields are {_field_names(schedule)}")
    return f"fields {_field_names(schedule)}"


@check("sort_schedule")
def check_sort_schedule(scratch):
    schedule, [mark] = wall_schedule(scratch, f"{PREFIX} schedule")
    scratch.call("sort_schedule", {"schedule": str(id_value(schedule.Id)), "field": mark, "descending": True})
    definition = schedule.Definition
    expect(definition.GetSortGroupFieldCount() == 1, f"{definition.GetSortGroupFieldCount()} sort keys, not 1")
    key = definition.GetSortGroupField(0)
    expect(key.FieldId.IntegerValue == definition.GetFieldId(0).IntegerValue
           and key.SortOrder == DB.ScheduleSortOrder.Descending,
           f"sorted by field {key.FieldId.IntegerValue} {key.SortOrder}, not '{mark}' descending")
    return f"sorted by '{mark}', descending"


@check("filter_schedule")
def check_filter_schedule(scratch):
    schedule, [mark] = wall_schedule(scratch, f"{PREFIX} schedule")
    scratch.call("filter_schedule", {"schedule": str(id_value(schedule.Id)), "field": mark, "op": "=",
                                     "value": "PC-CHECK-FILTER"})
    definition = schedule.Definition
    expect(definition.GetFilterCount() == 1, f"{definition.GetFilterCount()} filters, not 1")
    found = definition.GetFilter(0)
    expect(found.FieldId.IntegerValue == definition.GetFieldId(0).IntegerValue
           and found.FilterType == DB.ScheduleFilterType.Equal
           and found.IsStringValue and found.GetStringValue() == "PC-CHECK-FILTER",
           f"the filter is field {found.FieldId.IntegerValue} {found.FilterType}, not '{mark}' = 'PC-CHECK-FILTER'")
    return f"'{mark}' = 'PC-CHECK-FILTER'"


@check("read_schedule")
def check_read_schedule(scratch):
    """Every row of a wall schedule as Revit computes it (TableView.GetCellText), a page at a time."""
    import re
    made = wall(scratch)
    set_text(scratch, [made], DB.BuiltInParameter.ALL_MODEL_MARK, "PC-CHECK-READ")
    schedule, [mark] = wall_schedule(scratch, f"{PREFIX} schedule")   # committed: Revit has computed its table
    body = schedule.GetTableData().GetSectionData(DB.SectionType.Body)
    rows = [schedule.GetCellText(DB.SectionType.Body, r, 0) for r in range(1, body.NumberOfRows)]
    rows = [r for r in rows if r.strip()]
    seen, offset, calls = [], 0, 0
    while offset is not None and calls < 50:
        content = scratch.call("read_schedule", {"schedule": str(id_value(schedule.Id)), "offset": offset})
        calls += 1
        expect(f"It shows {len(rows)} row" in content, f"Revit shows {len(rows)} rows: {content[:200]}")
        start = content.splitlines().index(mark) + 1 if mark in content.splitlines() else None
        expect(start is not None, f"the headings line '{mark}' is not in the result: {content[:200]}")
        seen += [line for line in content.splitlines()[start:] if not line.startswith(("- …", "Open it", "Grand"))
                 and not line.startswith("Totals")]
        found = re.search(r"call again with offset (\d+)\.", content)
        offset = int(found.group(1)) if found else None
    expect("PC-CHECK-READ" in seen, f"the scratch wall's Mark is not among the {len(seen)} rows read")
    expect(sorted(seen) == sorted(rows), f"{len(seen)} rows read in {calls} call(s); Revit shows {len(rows)}")
    return f"{len(rows)} rows in {calls} call(s)"


@check("export_schedule")
def check_export_schedule(scratch):
    made = wall(scratch)
    set_text(scratch, [made], DB.BuiltInParameter.ALL_MODEL_MARK, "PC-CHECK-EXPORT")
    schedule, [mark] = wall_schedule(scratch, f"{PREFIX} schedule")
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        target = os.path.join(folder, "walls.csv")
        scratch.call("export_schedule", {"schedule": str(id_value(schedule.Id)), "path": target})
        expect(os.path.isfile(target), f"no file at {target}")
        with open(target, encoding="utf-8-sig") as handle:
            lines = handle.read().splitlines()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(lines and lines[0].strip('"') == mark, f"the headings line is {lines[:1]}, not '{mark}'")
    expect(any("PC-CHECK-EXPORT" in line for line in lines[1:]), "the wall's Mark 'PC-CHECK-EXPORT' is not in the file")
    return f"{len(lines) - 1} rows; the scratch wall's Mark among them"


@check("export_pdf")
def check_export_pdf(scratch):
    """Two scratch sheets exported one file each (named by the rule) and combined: two pages, one
    bookmark per sheet in order, put together from each sheet's single export (pypdf, vendored); each
    page's size is its sheet's (the title block's) size; no temporary folder is left."""
    from pathlib import Path
    import pypdf
    doc = scratch.doc
    first = sheet(scratch, unused_sheet_number(doc))
    second = sheet(scratch, unused_sheet_number(doc))
    numbers = [first.SheetNumber, second.SheetNumber]
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        text = scratch.call("export_pdf", {"sheets": numbers, "combine": False, "folder": folder})
        separate = sorted(os.listdir(folder))
        scratch.call("export_pdf", {"sheets": numbers, "folder": folder, "file_name": "combined"})
        left = sorted(os.listdir(folder))
        combined = Path(folder, "combined.pdf")
        reader = pypdf.PdfReader(str(combined)) if combined.is_file() else None
        pages = len(reader.pages) if reader else None
        titles = [item.title for item in reader.outline] if reader else []
        sizes = [(float(p.mediabox.width) / 72 * 25.4, float(p.mediabox.height) / 72 * 25.4)
                 for p in reader.pages] if reader else []
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(separate == sorted(f"{n} - {PREFIX}.pdf" for n in numbers), f"one file per sheet wrote {separate}")
    expect(left == sorted(separate + ["combined.pdf"]), f"the combined export left {left}")
    expect(pages == 2, f"the combined PDF has {pages} pages")
    expect(titles == [f"{n} - {PREFIX}" for n in numbers], f"the combined PDF's bookmarks are {titles}")
    outline = first.Outline
    width_mm, height_mm = ((outline.Max.U - outline.Min.U) * 304.8, (outline.Max.V - outline.Min.V) * 304.8)
    expect(all(abs(w - width_mm) < 2 and abs(h - height_mm) < 2 for w, h in sizes),
           f"pages of {sizes} mm for sheets of {width_mm:.0f} x {height_mm:.0f} mm")
    return f"{len(separate)} files named by the rule; combined: 2 pages, bookmarks {titles}; {text.splitlines()[0][:80]}"


def exported_sheet(scratch, made, folder):
    """export_parameters of one scratch wall's Mark and Comments to an .xlsx in ``folder``: (path, sheet)."""
    import openpyxl
    target = os.path.join(folder, "walls.xlsx")
    scratch.call("export_parameters", {"element_ids": [made], "parameters": ["Mark", "Comments"],
                                       "path": target})
    expect(os.path.isfile(target), f"no file at {target}")
    book = openpyxl.load_workbook(target)
    return target, book, book.worksheets[0]


@check("export_parameters")
def check_export_parameters(scratch):
    made = wall(scratch)
    set_text(scratch, [made], DB.BuiltInParameter.ALL_MODEL_MARK, "PC-CHECK-SHEET")
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        _, _, sheet = exported_sheet(scratch, made, folder)
        rows = list(sheet.iter_rows(values_only=True))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(rows and rows[0][0] == "Element Id", f"the first row is {rows[:1]}, not the headers")
    row = next((r for r in rows[1:] if r[0] == made), None)
    expect(row is not None and "PC-CHECK-SHEET" in row, f"the scratch wall's row with its Mark is not in the file: {rows[:3]}")
    return f"{len(rows) - 1} row; headers {rows[0][:4]}"


@check("import_parameters")
def check_import_parameters(scratch):
    made = wall(scratch)
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        target, book, sheet = exported_sheet(scratch, made, folder)
        comments = next(c.column for c in sheet[1] if str(c.value).startswith("Comments"))
        sheet.cell(2, comments).value = "PC-CHECK-IMPORTED"
        book.save(target)
        content = scratch.call("import_parameters", {"path": target})
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    stored = element(scratch, made).get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS).AsString()
    expect(stored == "PC-CHECK-IMPORTED", f"the wall's Comments read '{stored}' after the import: {content[:300]}")
    units = length_units_round_trip(scratch, made)
    return f"{content[:60]}; Base Offset read back in {units} length units"


def length_units_round_trip(scratch, made):
    """For every length unit Revit offers (the project switched to it inside the check's group):
    the wall's Base Offset, 1 ft, exported; 1.5 times the cell typed over it; imported; 1.5 ft read
    back. The cell is in the column's unit whatever it is, so 1.5 times it is 1.5 ft (issue 36)."""
    import openpyxl
    doc, offset = scratch.doc, DB.BuiltInParameter.WALL_BASE_OFFSET
    name = parameter_name(element(scratch, made), offset)
    wrong, units = [], list(DB.UnitUtils.GetValidUnits(DB.SpecTypeId.Length))
    before = doc.GetUnits().GetFormatOptions(DB.SpecTypeId.Length).GetUnitTypeId()
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        for index, unit in enumerate(units):
            _set_length_unit(doc, unit)
            with transaction(doc, "Paracore check: a 1 ft offset"):
                element(scratch, made).get_Parameter(offset).Set(1.0)
            target = os.path.join(folder, f"offset {index}.xlsx")
            scratch.call("export_parameters", {"element_ids": [made], "parameters": [name], "path": target})
            book = openpyxl.load_workbook(target)
            sheet = book.worksheets[0]
            column = next(c.column for c in sheet[1] if str(c.value).startswith(f"{name} ("))
            sheet.cell(2, column).value = float(sheet.cell(2, column).value) * 1.5
            book.save(target)
            content = scratch.call("import_parameters", {"path": target})
            stored = element(scratch, made).get_Parameter(offset).AsDouble()
            if not near(stored, 1.5, 1e-9):
                wrong.append(f"{unit.TypeId}: {stored!r} ft, not 1.5 ({content[:120]})")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        _set_length_unit(doc, before)     # the group's rollback undoes it in Revit; said here too
    expect(not wrong, "; ".join(wrong))
    return len(units)


def _set_length_unit(doc, unit):
    project = doc.GetUnits()
    options = project.GetFormatOptions(DB.SpecTypeId.Length)
    options.SetUnitTypeId(unit)
    project.SetFormatOptions(DB.SpecTypeId.Length, options)
    with transaction(doc, "Paracore check: the project's length unit"):
        doc.SetUnits(project)


@check("compare_schedules")
def check_compare_schedules(scratch):
    first, _ = wall_schedule(scratch, f"{PREFIX} first")
    second, names = wall_schedule(scratch, f"{PREFIX} second", (DB.BuiltInParameter.ALL_MODEL_MARK,
                                                                 DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS))
    content = scratch.call("compare_schedules", {"a": str(id_value(first.Id)), "b": str(id_value(second.Id))})
    columns = next((line for line in content.splitlines() if line.startswith("Columns:")), "")
    expect("added" in columns and names[1] in columns, f"the column '{names[1]}' the second schedule adds is not "
           f"reported: {content[:300]}")
    return columns[:90]


# --- scripts and code ----------------------------------------------------------------------------------------

@check("find_scripts")
def check_find_scripts(scratch):
    content = scratch.call("find_scripts", {"query": "curved wall"})
    expect(SCRIPT in content, f"{SCRIPT} (shipped with Paracore) is not found: {content[:200]}")
    return content.splitlines()[0][:90]


@check("inspect_script")
def check_inspect_script(scratch):
    content = scratch.call("inspect_script", {"script": SCRIPT})
    selected = scratch.session.scratchpad.get("script") or {}
    expect(selected.get("name") == SCRIPT, f"the selected script is {selected.get('name')!r}, not {SCRIPT}")
    expect("radius" in content, f"the parameters are not listed: {content[:200]}")
    return content.splitlines()[0][:90]


@check("set_script_parameters")
def check_set_script_parameters(scratch):
    scratch.call("inspect_script", {"script": SCRIPT})
    change = {"name": "radius", "value": ft(12)}
    content = scratch.call("set_script_parameters", {"script": SCRIPT, "changes": [change]})
    values = (scratch.session.scratchpad.get("script") or {}).get("values") or {}
    expect(values.get("radius") == ft(12), f"the pending radius is {values.get('radius')!r}, not {ft(12)!r}")
    expect("radius = " in content.splitlines()[0], f"the result does not say the new radius: {content[:200]}")
    return content.splitlines()[0][:90]


@check("run_script")
def check_run_script(scratch):
    base, (x, y) = level(scratch), site(scratch)
    changes = [{"name": "level", "value": base.Name}, {"name": "center_x", "value": ft(x)},
               {"name": "center_y", "value": ft(y)}, {"name": "radius", "value": ft(10)},
               {"name": "length", "value": ft(20)}]
    before = instances_of(scratch.doc, DB.Wall)
    scratch.call("run_script", {"script": SCRIPT, "changes": changes})
    new = sorted(instances_of(scratch.doc, DB.Wall) - before)
    expect(len(new) == 1, f"{len(new)} new walls, expected the script's 1")
    arc = element(scratch, new[0]).Location.Curve
    expect(isinstance(arc, DB.Arc) and near(arc.Radius, 10) and at(arc.Center, x, y),
           f"the script's wall is a {type(arc).__name__}, not an arc of 10 ft about ({x:.4f}, {y:.4f})")
    expect(new[0] in working_set(scratch), f"the new wall {new[0]} did not join the working set")
    return f"{SCRIPT} made wall {new[0]}"


@check("run_python")
def check_run_python(scratch):
    made = wall(scratch)
    scratch.session.working_set.replace([made])
    code = ("print('title:', doc.Title)\nprint('modifiable:', doc.IsModifiable)\n"
            "print('working set:', list(working_set))")
    content = scratch.call("run_python", {"code": code})
    for expected in (f"title: {scratch.doc.Title}", "modifiable: True", f"working set: [{made}]"):
        expect(expected in content, f"'{expected}' is not in the output: {content[:300]}")
    return "ran inside a transaction; saw the document and the working set"


@check("use_toolset")
def check_use_toolset(scratch):
    content = scratch.call("use_toolset", {"name": "qa"})
    expect(scratch.session.toolsets_on == ["qa"], f"the session's toolsets are {scratch.session.toolsets_on}")
    return content.splitlines()[0][:90]


@check("export_cad")
def check_export_cad(scratch):
    """Each format Revit has: a scratch plan with a scratch wall to DXF (its walls' layer in the file),
    and to DWG; a format whose exporter is missing must be refused, with nothing written."""
    wall(scratch)
    plan = floor_plan(scratch)
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    done = []
    try:
        for fmt, available in (("dxf", DB.OptionalFunctionalityUtils.IsDXFExportAvailable()),
                               ("dwg", DB.OptionalFunctionalityUtils.IsDWGExportAvailable())):
            before = set(os.listdir(folder))
            outcome = scratch.outcome("export_cad", {"format": fmt, "views": [str(id_value(plan.Id))],
                                                     "folder": folder}, allow_error=not available)
            written = sorted(set(os.listdir(folder)) - before)
            if not available:
                expect(outcome.is_error and "exporter" in outcome.content,
                       f"{fmt} without its exporter: {outcome.content}")
                expect(written == [], f"{fmt} without its exporter wrote {written}")
                done.append(f"{fmt} refused (no exporter)")
                continue
            expect(len(written) == 1 and written[0].lower().endswith("." + fmt), f"{fmt} wrote {written}")
            path = os.path.join(folder, written[0])
            expect(os.path.getsize(path) > 0 and written[0] in outcome.content, f"{fmt}: {outcome.content}")
            if fmt == "dxf":
                with open(path, encoding="utf-8", errors="replace") as handle:
                    expect("WALL" in handle.read().upper(), "the DXF names no wall layer")
            done.append(f"{fmt} {os.path.getsize(path)} bytes")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return "; ".join(done)


@check("export_model")
def check_export_model(scratch):
    """IFC of the scratch plan's elements (the scratch wall among the file's walls, the model
    unchanged after), and NWC where Revit has the Navisworks exporter (refused, naming what to
    install, where it has not)."""
    wall(scratch)
    plan = floor_plan(scratch)
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        scratch.call("export_model", {"format": "ifc", "view": str(id_value(plan.Id)), "file_name": "check",
                                      "folder": folder})
        path = os.path.join(folder, "check.ifc")
        expect(os.path.isfile(path), f"no IFC file: {os.listdir(folder)}")
        with open(path, encoding="utf-8", errors="replace") as handle:
            walls_in_file = handle.read().upper().count("=IFCWALL")
        expect(walls_in_file >= 1, "the IFC file holds no wall")
        expect(not scratch.doc.IsModifiable, "the IFC export left a transaction open")
        available = DB.OptionalFunctionalityUtils.IsNavisworksExporterAvailable()
        outcome = scratch.outcome("export_model", {"format": "nwc", "file_name": "check", "folder": folder},
                                  allow_error=not available)
        if available:
            expect(os.path.isfile(os.path.join(folder, "check.nwc")), f"no NWC file: {outcome.content}")
            nwc = "NWC written"
        else:
            expect(outcome.is_error and "NWC Export Utility" in outcome.content, f"NWC: {outcome.content}")
            nwc = "NWC refused (no Navisworks exporter)"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return f"IFC with {walls_in_file} wall entities; {nwc}"
