"""In-Revit checks of views: temporary hide/isolate, which Autodesk does not say is part of the
model or not (does it need a transaction? does a rollback undo it?), sheets and viewports, exported
pictures, and graphic overrides: cut and projection colours, the solid fill pattern (the rows of
docs/REVIT_BEHAVIOUR.md that name behaviour_checks/views.py).

The isolation checks work on the active view and leave it as they found it: they are skipped when
the view already has a temporary hide/isolate (theirs would replace the user's), and they switch
theirs off before they return.
"""
import os
import shutil
import tempfile

from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException

from behaviour_checks import _pictures as pictures
from behaviour_checks import _site as site
from kit import expect, skip, transaction
from paracore.revit.context import id_value

MODE = DB.TemporaryViewMode.TemporaryHideIsolate


# -- temporary hide/isolate ---------------------------------------------------------------------------

def _view_and_walls(scratch, count=1):
    """The active view and ``count`` walls it shows; skipped when it cannot take a temporary mode."""
    view = scratch.uidoc.ActiveView
    if view is None or view.IsTemplate or view.ViewType in (DB.ViewType.DrawingSheet, DB.ViewType.Schedule):
        skip("the active view is not a graphical model view")
    if view.IsTemporaryHideIsolateActive():
        skip(f"view '{view.Name}' already has a temporary hide/isolate (the user's: left alone)")
    walls = list(DB.FilteredElementCollector(scratch.doc, view.Id).OfClass(DB.Wall))[:count]
    if len(walls) < count:
        skip(f"view '{view.Name}' shows fewer than {count} walls")
    return view, walls


def _switch_off(doc, view):
    """Off, with or without a transaction, whichever Revit takes."""
    if not view.IsTemporaryHideIsolateActive():
        return
    try:
        view.DisableTemporaryViewMode(MODE)
    except Exception:  # noqa: BLE001 - Revit may want a transaction for it: then in one
        with transaction(doc, "Paracore check: reset the temporary isolation"):
            view.DisableTemporaryViewMode(MODE)


def isolate_outside_a_transaction(scratch):
    view, [wall] = _view_and_walls(scratch)
    expect(not scratch.doc.IsModifiable, "a transaction is open before the check")
    try:
        refusal = site.refused(lambda: view.IsolateElementsTemporary(site.ids(wall)), Exception)
        active = view.IsTemporaryHideIsolateActive()
    finally:
        _switch_off(scratch.doc, view)
    expect(refusal is None, f"Revit refused IsolateElementsTemporary outside a transaction: {refusal}")
    expect(active, "IsolateElementsTemporary outside a transaction left no temporary isolation")
    return f"isolated in '{view.Name}' with no transaction open"


def isolate_survives_group_rollback(scratch):
    doc = scratch.doc
    view, [wall] = _view_and_walls(scratch)
    group = DB.TransactionGroup(doc, "Paracore check: preview-like group")
    try:
        group.Start()
        with transaction(doc, "Paracore check: isolate"):
            view.IsolateElementsTemporary(site.ids(wall))
        group.RollBack()
        after = view.IsTemporaryHideIsolateActive()
    finally:
        site.ended(group)
        _switch_off(doc, view)
    expect(after, "rolling back the group undid the temporary isolation made in a committed transaction in it")
    return f"'{view.Name}' still isolated after the group's rollback"


def isolate_again_replaces(scratch):
    view, walls = _view_and_walls(scratch, count=2)
    first, second = walls
    try:
        view.IsolateElementsTemporary(site.ids(first, second))
        view.IsolateElementsTemporary(site.ids(second))
        shows = (view.IsElementVisibleInTemporaryViewMode(MODE, first.Id),
                 view.IsElementVisibleInTemporaryViewMode(MODE, second.Id))
    finally:
        _switch_off(scratch.doc, view)
    expect(shows == (False, True), f"after isolating (a, b) then (b), a visible {shows[0]}, b visible {shows[1]}")
    return "the second isolation replaced the first"


def disable_when_inactive_is_harmless(scratch):
    view, _ = _view_and_walls(scratch)
    view.DisableTemporaryViewMode(MODE)
    expect(not view.IsTemporaryHideIsolateActive(), "disabling an inactive mode activated it")
    return f"DisableTemporaryViewMode on '{view.Name}' without one did nothing"


# -- sheets and viewports ---------------------------------------------------------------------------

def _placeable_plan(doc):
    """A new copy of a floor plan: on no sheet yet (in the open transaction)."""
    plans = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
             if not v.IsTemplate and v.CanViewBeDuplicated(DB.ViewDuplicateOption.Duplicate)]
    if not plans:
        skip("the model has no floor plan that can be duplicated")
    return doc.GetElement(plans[0].Duplicate(DB.ViewDuplicateOption.Duplicate))


def _sheet(doc):
    return DB.ViewSheet.Create(doc, DB.ElementId.InvalidElementId)


def viewport_centred_on_point(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: place a view"):
        viewport = DB.Viewport.Create(doc, _sheet(doc).Id, _placeable_plan(doc).Id, DB.XYZ(1.25, 0.75, 0.0))
        doc.Regenerate()
        center = viewport.GetBoxCenter()
    expect(site.near(center.X, 1.25) and site.near(center.Y, 0.75),
           f"the viewport's centre is {site.shown(center)}, not (1.25, 0.75)")
    return f"centre {site.shown(center)}"


def view_on_one_sheet_only(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: place a view twice"):
        plan, first, second = _placeable_plan(doc), _sheet(doc), _sheet(doc)
        DB.Viewport.Create(doc, first.Id, plan.Id, DB.XYZ(1.0, 1.0, 0.0))
        allowed = DB.Viewport.CanAddViewToSheet(doc, second.Id, plan.Id)
        refusal = site.refused(lambda: DB.Viewport.Create(doc, second.Id, plan.Id, DB.XYZ(1.0, 1.0, 0.0)),
                               ArgumentException)
    expect(not allowed, "CanAddViewToSheet allows a second sheet for a placed plan")
    expect(refusal is not None, "Viewport.Create put a placed plan on a second sheet")
    return f"CanAddViewToSheet False; Viewport.Create: {refusal}"


def sheets_templates_and_schedules_are_not_placed(scratch):
    doc = scratch.doc
    template = next((v for v in DB.FilteredElementCollector(doc).OfClass(DB.View) if v.IsTemplate), None)
    with transaction(doc, "Paracore check: sheets on sheets"):
        sheet, other = _sheet(doc), _sheet(doc)
        schedule = DB.ViewSchedule.CreateSchedule(doc, DB.ElementId(DB.BuiltInCategory.OST_Walls))
        placeable = {"a sheet": DB.Viewport.CanAddViewToSheet(doc, sheet.Id, other.Id),
                     "a schedule": DB.Viewport.CanAddViewToSheet(doc, sheet.Id, schedule.Id)}
        if template is not None:
            placeable[f"the view template '{template.Name}'"] = DB.Viewport.CanAddViewToSheet(
                doc, sheet.Id, template.Id)
    allowed = [what for what, can in placeable.items() if can]
    expect(not allowed, f"CanAddViewToSheet allows {', '.join(allowed)}")
    return "CanAddViewToSheet False for " + ", ".join(placeable)


def deleting_a_sheet_deletes_its_viewports(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: sheet with a viewport"):
        sheet = _sheet(doc)
        viewport = DB.Viewport.Create(doc, sheet.Id, _placeable_plan(doc).Id, DB.XYZ(1.0, 1.0, 0.0))
    viewport_id = id_value(viewport.Id)
    with transaction(doc, "Paracore check: delete the sheet"):
        deleted = {id_value(i) for i in doc.Delete(sheet.Id)}
    expect(viewport_id in deleted, f"Delete(sheet) returned {sorted(deleted)}, without its viewport")
    return f"Delete(sheet) took its viewport along ({len(deleted)} ids)"


def _switched(uidoc, active, view, in_transaction=None):
    """Try to make ``view`` the active view; (the refusal's name or None, whether it switched). The
    user's view is put back if it did."""
    refusal = site.refused(lambda: setattr(uidoc, "ActiveView", view), Exception)
    if in_transaction is not None:
        site.ended(in_transaction)
    moved = id_value(uidoc.ActiveView.Id) != id_value(active.Id)
    if moved:
        uidoc.ActiveView = active
    return refusal, moved


def active_view_fixed_while_transaction_open(scratch):
    uidoc, doc = scratch.uidoc, scratch.doc
    active = uidoc.ActiveView
    views = list(DB.FilteredElementCollector(doc).OfClass(DB.View))
    others = [v for v in views if not v.IsTemplate and active is not None and id_value(v.Id) != id_value(active.Id)
              and v.ViewType in (DB.ViewType.FloorPlan, DB.ViewType.ThreeD)]
    if not others:
        skip("the model has no other plan or 3D view to switch to")
    change = DB.Transaction(doc, "Paracore check: switch views inside a transaction")
    change.Start()
    inside, moved = _switched(uidoc, active, others[0], in_transaction=change)
    expect(inside is not None and not moved, "the active view changed while a transaction was open")
    template = next((v for v in views if v.IsTemplate), None)
    if template is None:
        return f"inside a transaction: {inside} (the model has no view template)"
    refusal, moved = _switched(uidoc, active, template)
    expect(refusal is not None and not moved, f"the view template '{template.Name}' became the active view")
    return f"inside a transaction: {inside}; a view template: {refusal}"


# -- exporting images (Document.ExportImage) -----------------------------------------------------------

def _image_options(folder, view):
    from System.Collections.Generic import List
    options = DB.ImageExportOptions()
    options.ExportRange = DB.ExportRange.SetOfViews
    options.FilePath = folder + os.sep
    options.ZoomType = DB.ZoomFitType.FitToPage
    options.PixelSize = 64
    options.HLRandWFViewsFileType = DB.ImageFileType.PNG
    options.ShadowViewsFileType = DB.ImageFileType.PNG
    views = List[DB.ElementId]()
    views.Add(view.Id)
    options.SetViewsAndSheets(views)
    return options


def _a_floor_plan(doc):
    plans = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
             if not v.IsTemplate and v.ViewType == DB.ViewType.FloorPlan]
    if not plans:
        skip("the model has no floor plan")
    return plans[0]


def export_names_the_file_get_file_name_gives(scratch):
    doc = scratch.doc
    plan = _a_floor_plan(doc)
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        doc.ExportImage(_image_options(folder, plan))
        written = sorted(os.listdir(folder))
        name = DB.ImageExportOptions.GetFileName(doc, plan.Id)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(written == [name + ".png"], f"the export wrote {written}, GetFileName gives {name!r}")
    plain = "".join("-" if c in '\\/:*?"<>|' else c for c in plan.Name)   # what a file name cannot hold
    expect(name == f"Floor Plan - {plain}", f"GetFileName gives {name!r} for '{plan.Name}', not 'Floor Plan - {plain}'")
    return f"wrote {name}.png"


def export_refuses_templates_and_missing_folders(scratch):
    doc = scratch.doc
    templates = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.View) if v.IsTemplate]
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    try:
        refused = site.refused(lambda: doc.ExportImage(_image_options(folder, templates[0])), ArgumentException) \
            if templates else "no template"
        missing = os.path.join(folder, "missing")
        lost = site.refused(lambda: doc.ExportImage(_image_options(missing, _a_floor_plan(doc))), Exception)
        left = os.listdir(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(refused is not None, "a view template was exported as an image")
    expect(lost == "FileNotFoundException", f"exporting into a missing folder gave {lost or 'no error'}")
    expect(left == [], f"the refused exports left {left}")
    return "templates and missing folders refused"


def _exported_bytes(doc, view, folder, pixel_size=64):
    """The bytes of the one PNG ExportImage writes of ``view`` into the empty ``folder``."""
    os.makedirs(folder)
    options = _image_options(folder, view)
    options.PixelSize = pixel_size
    doc.ExportImage(options)
    written = [name for name in os.listdir(folder) if name.lower().endswith(".png")]
    expect(len(written) == 1, f"the export wrote {written} into an empty folder")
    with open(os.path.join(folder, written[0]), "rb") as file:
        return file.read()


def export_inside_an_open_transaction_draws_its_changes(scratch):
    """capture_view exports with no transaction open, and inside its own (the working set's
    highlight, rolled back after): both must export, and the second must draw the change."""
    doc = scratch.doc
    plan = _a_floor_plan(doc)
    walls = list(DB.FilteredElementCollector(doc, plan.Id).OfClass(DB.Wall))
    if not walls:
        skip(f"'{plan.Name}' shows no wall")
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    step = DB.Transaction(doc, "Paracore check: export inside a transaction")
    try:
        outside = _exported_bytes(doc, plan, os.path.join(folder, "outside"))
        step.Start()
        halftone = DB.OverrideGraphicSettings().SetHalftone(True)   # shows on cut and projected lines alike
        for wall in walls:
            plan.SetElementOverrides(wall.Id, halftone)
        doc.Regenerate()
        inside = _exported_bytes(doc, plan, os.path.join(folder, "inside"))
    finally:
        site.ended(step)
        shutil.rmtree(folder, ignore_errors=True)
    expect(inside != outside, f"the export inside the transaction did not draw its {len(walls)} halftone walls")
    return f"exported outside and inside a transaction; the uncommitted halftone of {len(walls)} walls drawn"


def pixel_size_range(scratch):
    options = DB.ImageExportOptions()
    default = options.PixelSize
    options.PixelSize = 15000
    too_big = site.refused(lambda: setattr(options, "PixelSize", 15001), ArgumentException)
    zero = site.refused(lambda: setattr(options, "PixelSize", 0), ArgumentException)
    expect(default == 512, f"the default PixelSize is {default}")
    expect(too_big is not None and zero is not None, f"PixelSize 15001 refused: {too_big is not None}, 0: {zero is not None}")
    return "512 by default; 15000 taken, 15001 and 0 refused"


# -- graphic overrides: cut and projection, fill patterns (what color_elements sets) ---------------------

COLOURS = ("ProjectionLineColor", "SurfaceForegroundPatternColor", "CutLineColor", "CutForegroundPatternColor")
PATTERNS = ("SurfaceForegroundPatternId", "CutForegroundPatternId")
SOLID_FILL = "<Solid fill>"


def _solid_fill(doc):
    found = DB.FillPatternElement.GetFillPatternElementByName(doc, DB.FillPatternTarget.Drafting, SOLID_FILL)
    if found is None:
        skip(f"the model has no drafting pattern named {SOLID_FILL!r} (solid_fill_pattern_found_by_name says more)")
    return found


def _red_overrides(solid, projection=True, cut=True):
    red = DB.Color(255, 0, 0)
    settings = DB.OverrideGraphicSettings()
    if projection:
        settings.SetProjectionLineColor(red).SetSurfaceForegroundPatternColor(red) \
            .SetSurfaceForegroundPatternId(solid.Id)
    if cut:
        settings.SetCutLineColor(red).SetCutForegroundPatternColor(red).SetCutForegroundPatternId(solid.Id)
    return settings


def _scratch_wall_and_plan(doc):
    """A new level above the model, its floor plan and a 30 ft wall on it (in the open transaction)."""
    level = site.high_level(doc)
    plan = site.plan(doc, level)
    x, y = site.spot(doc)
    return plan, site.wall(doc, level, (x, y), (x + 30.0, y))


def _overrides_read(settings):
    colours = {name: getattr(settings, name) for name in COLOURS}
    return ({name: (c.Red, c.Green, c.Blue) if c.IsValid else None for name, c in colours.items()},
            {name: id_value(getattr(settings, name)) for name in PATTERNS})


def override_colours_and_patterns_read_back(scratch):
    """Every colour and fill pattern of a new OverrideGraphicSettings is "no override"; what is set
    is copied by the copy constructor, kept by the view, and cleared by InvalidColorValue and
    InvalidElementId."""
    doc = scratch.doc
    solid = _solid_fill(doc)
    fresh_colours, fresh_patterns = _overrides_read(DB.OverrideGraphicSettings())
    copy = DB.OverrideGraphicSettings(_red_overrides(solid))
    with transaction(doc, "Paracore check: override a wall"):
        plan, wall = _scratch_wall_and_plan(doc)
        plan.SetElementOverrides(wall.Id, copy)
        kept_colours, kept_patterns = _overrides_read(plan.GetElementOverrides(wall.Id))
        cleared = DB.OverrideGraphicSettings(plan.GetElementOverrides(wall.Id)) \
            .SetCutLineColor(DB.Color.InvalidColorValue).SetCutForegroundPatternId(DB.ElementId.InvalidElementId)
        cleared_colours, cleared_patterns = _overrides_read(cleared)
    solid_id = id_value(solid.Id)
    expect(set(fresh_colours.values()) == {None} and set(fresh_patterns.values()) == {-1},
           f"a new OverrideGraphicSettings holds {fresh_colours}, {fresh_patterns}")
    expect(set(kept_colours.values()) == {(255, 0, 0)} and set(kept_patterns.values()) == {solid_id},
           f"the view kept {kept_colours}, {kept_patterns} of a copy of red with pattern {solid_id}")
    expect(cleared_colours["CutLineColor"] is None and cleared_patterns["CutForegroundPatternId"] == -1
           and cleared_colours["ProjectionLineColor"] == (255, 0, 0),
           f"InvalidColorValue and InvalidElementId left {cleared_colours}, {cleared_patterns}")
    return "not set: InvalidColorValue, InvalidElementId; copied, kept and cleared as set"


def solid_fill_pattern_found_by_name(scratch):
    """The built-in solid fill is a drafting pattern that GetFillPatternElementByName finds as
    "<Solid fill>" (the name of Revit's English templates: Paracore looks for it by name, then
    for the first solid drafting pattern); a name the model does not have finds None."""
    doc = scratch.doc
    solids = [e for e in DB.FilteredElementCollector(doc).OfClass(DB.FillPatternElement)
              if e.GetFillPattern().IsSolidFill]
    drafting = [e for e in solids if e.GetFillPattern().Target == DB.FillPatternTarget.Drafting]
    expect(drafting, f"no solid drafting fill pattern among {[e.Name for e in solids]}")
    found = DB.FillPatternElement.GetFillPatternElementByName(doc, DB.FillPatternTarget.Drafting, SOLID_FILL)
    missing = site.refused(lambda: DB.FillPatternElement.GetFillPatternElementByName(
        doc, DB.FillPatternTarget.Drafting, "Paracore check: no such pattern"), Exception)
    nothing = DB.FillPatternElement.GetFillPatternElementByName(
        doc, DB.FillPatternTarget.Drafting, "Paracore check: no such pattern") if missing is None else "raised"
    expect(found is not None, f"GetFillPatternElementByName finds no {SOLID_FILL!r}; the solid drafting patterns "
                              f"are named {[e.Name for e in drafting]}")
    expect(found.GetFillPattern().IsSolidFill and id_value(found.Id) == id_value(drafting[0].Id),
           f"{SOLID_FILL!r} is pattern {id_value(found.Id)}, not the solid drafting {id_value(drafting[0].Id)}")
    expect(nothing is None, f"GetFillPatternElementByName of a missing name gave {missing or nothing}, not None")
    return f"{SOLID_FILL!r} is pattern {id_value(found.Id)}, a solid drafting pattern; a missing name finds None"


def a_cut_wall_shows_its_cut_colours_not_its_projection_colours(scratch):
    """A wall rising through a floor plan's cut plane is drawn cut: red projection lines and a red
    surface pattern leave the exported picture without red, and so does a red cut pattern colour
    without a fill pattern; red cut lines and a red solid cut pattern show."""
    doc = scratch.doc
    solid = _solid_fill(doc)
    with transaction(doc, "Paracore check: a wall in a plan of its own"):
        plan, wall = _scratch_wall_and_plan(doc)
        curve = wall.Location.Curve
        a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)
        box = DB.BoundingBoxXYZ()
        box.Min = DB.XYZ(min(a.X, b.X) - 5.0, min(a.Y, b.Y) - 5.0, -1.0)
        box.Max = DB.XYZ(max(a.X, b.X) + 5.0, max(a.Y, b.Y) + 5.0, 1.0)
        plan.CropBox = box
        plan.CropBoxActive = True
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    counts = {}
    try:
        pattern_colour_alone = DB.OverrideGraphicSettings().SetCutForegroundPatternColor(DB.Color(255, 0, 0))
        for name, settings in (("none", DB.OverrideGraphicSettings()),
                               ("projection", _red_overrides(solid, cut=False)),
                               ("cut pattern colour alone", pattern_colour_alone),
                               ("cut", _red_overrides(solid, projection=False))):
            with transaction(doc, f"Paracore check: {name} colours"):
                plan.SetElementOverrides(wall.Id, settings)
            counts[name] = pictures.red_pixels(_exported_bytes(doc, plan, os.path.join(folder, name), 400))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(counts["none"] == 0, f"the plan shows {counts['none']} red pixels before any colour")
    expect(counts["cut"] > 20, f"red cut lines and cut pattern show {counts['cut']} red pixels on the cut wall")
    expect(counts["cut pattern colour alone"] * 10 < counts["cut"],
           f"a red cut pattern colour without a fill pattern shows {counts['cut pattern colour alone']} red pixels")
    expect(counts["projection"] * 10 < counts["cut"],
           f"red projection lines and surface pattern show {counts['projection']} red pixels on the cut wall "
           f"(its cut colours {counts['cut']}): Revit draws projection colours on a cut wall")
    return f"red pixels: projection colours {counts['projection']}, cut colours {counts['cut']}"


# -- schedules' totals -----------------------------------------------------------------------------------------

def _numbers_in(text):
    """The number a schedule cell shows ("605.96 m²" -> 605.96), or None."""
    import re
    match = re.search(r"-?[\d,]*\.?\d+", text or "")
    return float(match.group(0).replace(",", "")) if match else None


def schedule_grand_total_row(scratch):
    """A wall schedule with Area totaled and the grand total row's title and count on: the row is the
    body's last, its first cell "Grand total: N" (N the walls), its Area cell the walls' total area
    to the project's rounding; a field that is not a number (Family and Type) cannot be totaled."""
    doc = scratch.doc
    walls = list(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Walls)
                 .WhereElementIsNotElementType())
    if not walls:
        skip("the model has no walls")
    area_id = DB.ElementId(DB.BuiltInParameter.HOST_AREA_COMPUTED)
    with transaction(doc, "Paracore check: a schedule's grand total"):
        schedule = DB.ViewSchedule.CreateSchedule(doc, DB.ElementId(DB.BuiltInCategory.OST_Walls))
        definition = schedule.Definition
        fields = {id_value(f.ParameterId): f for f in definition.GetSchedulableFields()}
        family_type = definition.AddField(fields[int(DB.BuiltInParameter.ELEM_FAMILY_AND_TYPE_PARAM)])
        area = definition.AddField(fields[id_value(area_id)])
        refusal = site.refused(lambda: setattr(family_type, "DisplayType", DB.ScheduleFieldDisplayType.Totals),
                               InvalidOperationException)
        area.DisplayType = DB.ScheduleFieldDisplayType.Totals
        definition.ShowGrandTotal = True
        definition.ShowGrandTotalTitle = True
        definition.ShowGrandTotalCount = True
        doc.Regenerate()
        section = schedule.GetTableData().GetSectionData(DB.SectionType.Body)
        last = section.NumberOfRows - 1
        first_cell = schedule.GetCellText(DB.SectionType.Body, last, 0)
        area_cell = schedule.GetCellText(DB.SectionType.Body, last, 1)
        title = definition.GrandTotalTitle
    expect(not family_type.CanTotal() and refusal == "InvalidOperationException",
           f"Family and Type: CanTotal {family_type.CanTotal()}, DisplayType Totals raised {refusal}")
    counted = len(walls)     # the count is the schedule's rows: every wall, with an area or not
    expect(first_cell == f"{title}: {counted}", f"the grand total row's first cell is {first_cell!r}, "
                                                  f"not '{title}: {counted}'")
    units = doc.GetUnits().GetFormatOptions(DB.SpecTypeId.Area)
    total = sum(w.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble() for w in walls
                if w.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED) is not None)
    expected = DB.UnitUtils.ConvertFromInternalUnits(total, units.GetUnitTypeId())
    shown = _numbers_in(area_cell)
    expect(shown is not None and abs(shown - expected) <= max(units.Accuracy, 1e-9),
           f"the grand total of Area reads {area_cell!r}; the walls' areas add up to {expected:.4f}")
    return f"{first_cell!r}, Area {area_cell!r}"


CHECKS = [
    ("the active view stays while a transaction is open", active_view_fixed_while_transaction_open),
    ("temporary isolation needs no transaction", isolate_outside_a_transaction),
    ("a group's rollback leaves a temporary isolation", isolate_survives_group_rollback),
    ("isolating again replaces the earlier isolation", isolate_again_replaces),
    ("disabling an inactive temporary mode does nothing", disable_when_inactive_is_harmless),
    ("a viewport is centred on its point", viewport_centred_on_point),
    ("a view goes on one sheet only", view_on_one_sheet_only),
    ("sheets, templates and schedules are not viewports", sheets_templates_and_schedules_are_not_placed),
    ("deleting a sheet deletes its viewports", deleting_a_sheet_deletes_its_viewports),
    ("an exported view's file is named as GetFileName says", export_names_the_file_get_file_name_gives),
    ("templates and missing folders are not exported", export_refuses_templates_and_missing_folders),
    ("PixelSize is 512 by default and at most 15000", pixel_size_range),
    ("an export inside an open transaction draws its changes", export_inside_an_open_transaction_draws_its_changes),
    ("overrides not set are none; set ones are copied and kept", override_colours_and_patterns_read_back),
    ("'<Solid fill>' is the solid drafting pattern, found by name", solid_fill_pattern_found_by_name),
    ("a wall a plan cuts shows its cut colours, not its projection ones",
     a_cut_wall_shows_its_cut_colours_not_its_projection_colours),
    ("a schedule's grand total row adds up its totaled fields", schedule_grand_total_row),
]
