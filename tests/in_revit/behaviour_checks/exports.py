"""In-Revit checks of Document.Export to DWG, DXF, IFC and NWC (the rows of docs/REVIT_BEHAVIOUR.md,
"Exporting DWG, DXF, IFC and NWC", that name behaviour_checks/exports.py): the model's export
setups, the files and names DXF export writes and the layer walls go on, the optional exporters
(DWG, Navisworks) and how Export refuses without them, and IFC export's open transaction.

Every file goes into a temporary folder removed afterwards; the IFC exports run in a transaction
rolled back after (Autodesk's exporter changes the model while it works).
"""
import os
import shutil
import tempfile

from Autodesk.Revit import DB

from behaviour_checks import _site as site
from kit import expect, skip


def _folder():
    return tempfile.mkdtemp(prefix="paracore-check-")


def _a_plan_with_walls(doc):
    for view in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan):
        if not view.IsTemplate and view.ViewType == DB.ViewType.FloorPlan and \
                DB.FilteredElementCollector(doc, view.Id).OfClass(DB.Wall).GetElementCount():
            return view
    skip("the model has no floor plan showing a wall")


def export_setups_are_listed_by_name(scratch):
    doc = scratch.doc
    names = list(DB.ExportDWGSettings.ListNames(doc))
    predefined = list(DB.BaseExportOptions.GetPredefinedSetupNames(doc))
    expect(sorted(names) == sorted(predefined), f"ListNames gave {names}, GetPredefinedSetupNames {predefined}")
    expect(DB.DXFExportOptions.GetPredefinedOptions(doc, "no such setup (Paracore check)") is None,
           "GetPredefinedOptions of an unknown setup did not return null")
    return f"setups: {names or 'none'}"


def dxf_writes_one_file_per_view_and_walls_on_a_wall_layer(scratch):
    doc = scratch.doc
    plan = _a_plan_with_walls(doc)
    others = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.ViewPlan)
              if not v.IsTemplate and v.Id != plan.Id and v.ViewType == DB.ViewType.FloorPlan][:1]
    folder = _folder()
    try:
        one = doc.Export(folder, "one", site.ids(plan), DB.DXFExportOptions())
        written_one = sorted(os.listdir(folder))
        with open(os.path.join(folder, "one.dxf"), encoding="utf-8", errors="replace") as file:
            text = file.read()
        several = doc.Export(folder, "set", site.ids(plan, *others), DB.DXFExportOptions()) if others else None
        written = sorted(set(os.listdir(folder)) - set(written_one))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(one is True, f"Export to DXF returned {one}")
    expect(written_one == ["one.dxf"], f"one view was written as {written_one}")
    layers = [name for name in ("A-WALL", "A-DOOR", "A-GLAZ", "A-FLOR", "A-ROOF", "A-AREA")   # the stand-in's table
              if f"\n{name}\n" in text or f"\n{name}\r\n" in text]
    expect("A-WALL" in layers, "the plan's DXF has no layer A-WALL")
    return f"layers of the stand-in's table in the file: {', '.join(layers)}; several views: {several} -> {written}"


def dwg_export_is_refused_without_the_exporter(scratch):
    doc = scratch.doc
    plan = _a_plan_with_walls(doc)
    folder = _folder()
    try:
        if DB.OptionalFunctionalityUtils.IsDWGExportAvailable():
            result = doc.Export(folder, "plan", site.ids(plan), DB.DWGExportOptions())
            written = os.listdir(folder)
            expect(result is True and written == ["plan.dwg"], f"Export to DWG gave {result}, wrote {written}")
            missing = site.refused(lambda: doc.Export(os.path.join(folder, "missing"), "plan", site.ids(plan),
                                                      DB.DWGExportOptions()), Exception)
            expect(missing == "DirectoryNotFoundException", f"a missing folder gave {missing}")
            return "DWG exporter installed: wrote plan.dwg; " + _merged_sheet(doc, folder)
        refusal = site.refused(lambda: doc.Export(folder, "plan", site.ids(plan), DB.DWGExportOptions()), Exception)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(refusal == "OptionalFunctionalityNotAvailableException", f"without the exporter Export gave {refusal}")
    return "no DWG exporter: refused"


def _merged_sheet(doc, folder):
    """A sheet with views exported with MergedViews true: one file, no external references beside it."""
    sheets = [s for s in DB.FilteredElementCollector(doc).OfClass(DB.ViewSheet)
              if not s.IsPlaceholder and list(s.GetAllPlacedViews())]
    if not sheets:
        return "no sheet with views to try MergedViews on"
    inside = os.path.join(folder, "merged")
    os.makedirs(inside)
    options = DB.DWGExportOptions()
    options.MergedViews = True
    doc.Export(inside, "sheet", site.ids(sheets[0]), options)
    written = sorted(os.listdir(inside))
    expect(written == ["sheet.dwg"], f"a sheet with MergedViews true was written as {written}")
    return "a sheet with MergedViews true is one file"


def nwc_export_is_refused_without_the_exporter(scratch):
    doc = scratch.doc
    folder = _folder()
    try:
        options = DB.NavisworksExportOptions()
        if DB.OptionalFunctionalityUtils.IsNavisworksExporterAvailable():
            result = doc.Export(folder, "model", options)
            written = os.listdir(folder)
            expect(result is None and written == ["model.nwc"], f"Export to NWC gave {result}, wrote {written}")
            return "Navisworks exporter installed: wrote model.nwc"
        refusal = site.refused(lambda: doc.Export(folder, "model", options), Exception)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(refusal == "OptionalFunctionalityNotAvailableException", f"without the exporter Export gave {refusal}")
    return "no Navisworks exporter: refused"


def navisworks_options_skip_links_by_default(scratch):
    options = DB.NavisworksExportOptions()
    default = options.ExportLinks
    options.ExportLinks = True
    expect(default is False and options.ExportLinks is True,
           f"ExportLinks is {default} by default and {options.ExportLinks} once set")
    return "ExportLinks false by default, settable"


def ifc_export_needs_an_open_transaction(scratch):
    doc = scratch.doc
    expect(not doc.IsModifiable, "a transaction is open before the check")
    folder = _folder()
    try:
        outside = site.refused(lambda: doc.Export(folder, "outside", DB.IFCExportOptions()), Exception)
        transaction = DB.Transaction(doc, "Paracore check: IFC export")
        transaction.Start()
        try:
            inside = doc.Export(folder, "inside", DB.IFCExportOptions())
            missing = site.refused(lambda: doc.Export(os.path.join(folder, "missing"), "x", DB.IFCExportOptions()),
                                   Exception)
        finally:
            transaction.RollBack()
        written = sorted(os.listdir(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    expect(outside == "ModificationOutsideTransactionException", f"outside a transaction Export gave {outside}")
    expect(inside is True and written == ["inside.ifc"], f"inside a transaction: {inside}, wrote {written}")
    expect(missing == "InvalidPathArgumentException", f"a missing folder gave {missing}")
    return "refused outside a transaction, written inside"


def ifc_filter_view_exports_fewer_walls(scratch):
    doc = scratch.doc
    plan = _a_plan_with_walls(doc)
    folder = _folder()
    transaction = DB.Transaction(doc, "Paracore check: IFC export of a view")
    transaction.Start()
    try:
        doc.Export(folder, "model", DB.IFCExportOptions())
        options = DB.IFCExportOptions()
        options.FilterViewId = plan.Id
        doc.Export(folder, "view", options)
        counts = {}
        for name in ("model", "view"):
            with open(os.path.join(folder, name + ".ifc"), encoding="utf-8", errors="replace") as file:
                counts[name] = sum(line.count("=IFCWALL") for line in file)
    finally:
        transaction.RollBack()
        shutil.rmtree(folder, ignore_errors=True)
    shown = DB.FilteredElementCollector(doc, plan.Id).OfClass(DB.Wall).GetElementCount()
    expect(counts["view"] <= counts["model"], f"the view's export has more walls: {counts}")
    return f"walls: model {counts['model']}, '{plan.Name}' {counts['view']} (it shows {shown})"


CHECKS = [
    ("export_setups_are_listed_by_name", export_setups_are_listed_by_name),
    ("dxf_writes_one_file_per_view_and_walls_on_a_wall_layer", dxf_writes_one_file_per_view_and_walls_on_a_wall_layer),
    ("dwg_export_is_refused_without_the_exporter", dwg_export_is_refused_without_the_exporter),
    ("nwc_export_is_refused_without_the_exporter", nwc_export_is_refused_without_the_exporter),
    ("navisworks_options_skip_links_by_default", navisworks_options_skip_links_by_default),
    ("ifc_export_needs_an_open_transaction", ifc_export_needs_an_open_transaction),
    ("ifc_filter_view_exports_fewer_walls", ifc_filter_view_exports_fewer_walls),
]
