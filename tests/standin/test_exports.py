"""Document.Export to DWG, DXF, IFC and NWC in the stand-in (DB/_cad_export.py, _ifc_export.py,
_navisworks_export.py; revit_standin.dxf_writer and ifc_writer): the files it writes are opened and
checked (DXF with ezdxf, IFC through the stand-in's own loader), and the formats it cannot write are
refused as Revit refuses them when the exporter is missing."""
from __future__ import annotations

import collections
import math
import os

import ezdxf
import pytest

from Autodesk.Revit.DB import (ACADVersion, BaseExportOptions, BuiltInCategory, DWGExportOptions, DXFExportOptions,
                               ElementId, ExportDWGSettings, ExportUnit, FilteredElementCollector, IFCExportOptions,
                               IFCVersion, NavisworksExportOptions, NavisworksExportScope, OptionalFunctionalityUtils,
                               Transaction, View, ViewSheet, Viewport, XYZ)
from Autodesk.Revit.Exceptions import (ArgumentException, DirectoryNotFoundException, InvalidPathArgumentException,
                                       ModificationOutsideTransactionException,
                                       OptionalFunctionalityNotAvailableException)
from revit_standin.host import RevitHost
from support.samples import open_sample
from System.Collections.Generic import List

COUNTED = ("OST_Walls", "OST_Doors", "OST_Windows", "OST_Rooms", "OST_Floors", "OST_Roofs")


def _plan(doc, name="Level 1"):
    return next(v for v in FilteredElementCollector(doc).OfClass(View) if v.Name == name and not v.IsTemplate)


def _ids(*elements):
    ids = List[ElementId]()
    for element in elements:
        ids.Add(element.Id)
    return ids


def _visible(doc, view, category):
    return [i for i in view._visible_ids() if doc.GetElement(ElementId(i)).Category is not None
            and doc.GetElement(ElementId(i)).Category.Id.Value == getattr(BuiltInCategory, category).value]


def _layers(path):
    return collections.Counter((e.dxf.layer, e.dxftype()) for e in ezdxf.readfile(path).modelspace())


def _counts(doc):
    return {name: FilteredElementCollector(doc).OfCategory(getattr(BuiltInCategory, name))
            .WhereElementIsNotElementType().GetElementCount() for name in COUNTED}


def _export_ifc(doc, folder, name="model", options=None):
    transaction = Transaction(doc, "Export IFC")
    transaction.Start()
    try:
        return doc.Export(str(folder), name, options or IFCExportOptions())
    finally:
        transaction.RollBack()


# -- the export setups ---------------------------------------------------------------------------------

def test_the_project_carries_the_template_setup_and_get_predefined_options_reads_it(duplex):
    assert list(ExportDWGSettings.ListNames(duplex)) == ["Setup 1"]
    assert list(BaseExportOptions.GetPredefinedSetupNames(duplex)) == ["Setup 1"]
    options = DXFExportOptions.GetPredefinedOptions(duplex, "Setup 1")
    assert isinstance(options, DXFExportOptions) and options.LayerMapping == "AIA"
    assert isinstance(DWGExportOptions.GetPredefinedOptions(duplex, "Setup 1"), DWGExportOptions)
    assert DXFExportOptions.GetPredefinedOptions(duplex, "No such setup") is None


def test_a_setup_made_in_a_transaction_keeps_its_options(duplex_rw):
    options = DXFExportOptions()
    options.TargetUnit, options.SharedCoords = ExportUnit.Meter, True
    transaction = Transaction(duplex_rw, "setup")
    transaction.Start()
    ExportDWGSettings.Create(duplex_rw, "Consultants", options)
    with pytest.raises(ArgumentException):
        ExportDWGSettings.Create(duplex_rw, "Consultants")
    transaction.Commit()
    read = DXFExportOptions.GetPredefinedOptions(duplex_rw, "Consultants")
    assert (read.TargetUnit, read.SharedCoords, read.FileVersion) == (ExportUnit.Meter, True, ACADVersion.R2018)


# -- DXF -----------------------------------------------------------------------------------------------

def test_the_level_1_plan_to_dxf_puts_each_category_on_its_layer(duplex, tmp_path):
    view = _plan(duplex)
    assert duplex.Export(str(tmp_path), "L1", _ids(view), DXFExportOptions()) is True
    layers = _layers(tmp_path / "L1.dxf")
    walls, doors, windows = (_visible(duplex, view, c) for c in ("OST_Walls", "OST_Doors", "OST_Windows"))
    assert walls and doors and windows
    assert layers[("A-WALL", "LWPOLYLINE")] == len(walls)
    assert layers[("A-DOOR", "LWPOLYLINE")] == layers[("A-DOOR", "ARC")] == len(doors)   # box and swing
    assert layers[("A-GLAZ", "LWPOLYLINE")] == len(windows)
    assert ("A-AREA", "LWPOLYLINE") not in layers       # rooms only with ExportingAreas


def test_a_wall_is_its_outline_in_the_units_the_options_say(duplex, tmp_path):
    view = _plan(duplex)
    wall = duplex.GetElement(ElementId(_visible(duplex, view, "OST_Walls")[0]))
    curve = wall.Location.Curve
    for unit, per_foot in ((ExportUnit.Millimeter, 304.8), (ExportUnit.Meter, 0.3048)):
        options = DXFExportOptions()
        options.TargetUnit = unit
        duplex.Export(str(tmp_path), unit.name, _ids(view), options)
        drawing = ezdxf.readfile(tmp_path / f"{unit.name}.dxf")
        assert drawing.header["$INSUNITS"] == {ExportUnit.Millimeter: 4, ExportUnit.Meter: 6}[unit]
        outlines = [e for e in drawing.modelspace().query("LWPOLYLINE[layer=='A-WALL']")]
        start = curve.GetEndPoint(0)
        # the outline's corners lie half the wall's width either side of the location line's start
        nearest = min(math.dist((x, y), (start.X * per_foot, start.Y * per_foot))
                      for outline in outlines for x, y in outline.get_points("xy"))
        assert nearest == pytest.approx(wall.Width / 2 * per_foot, rel=1e-6)


def test_rooms_are_polylines_when_exporting_areas(duplex, tmp_path):
    view = _plan(duplex)
    options = DXFExportOptions()
    options.ExportingAreas = True
    duplex.Export(str(tmp_path), "areas", _ids(view), options)
    assert _layers(tmp_path / "areas.dxf")[("A-AREA", "LWPOLYLINE")] == len(_visible(duplex, view, "OST_Rooms"))


def test_shared_coordinates_move_the_drawing_to_the_survey_origin(duplex_rw, tmp_path):
    from Autodesk.Revit.DB import ProjectPosition
    view = _plan(duplex_rw)
    transaction = Transaction(duplex_rw, "move")
    transaction.Start()
    duplex_rw.ActiveProjectLocation.SetProjectPosition(XYZ.Zero, ProjectPosition(1000.0, 2000.0, 0.0, 0.0))
    transaction.Commit()
    internal, shared = DXFExportOptions(), DXFExportOptions()
    internal.TargetUnit = shared.TargetUnit = ExportUnit.Foot
    shared.SharedCoords = True
    duplex_rw.Export(str(tmp_path), "internal", _ids(view), internal)
    duplex_rw.Export(str(tmp_path), "shared", _ids(view), shared)
    first = [next(iter(ezdxf.readfile(tmp_path / f"{n}.dxf").modelspace().query("LWPOLYLINE"))).get_points("xy")[0]
             for n in ("internal", "shared")]
    assert (first[1][0] - first[0][0], first[1][1] - first[0][1]) == pytest.approx((1000.0, 2000.0))


def test_several_views_are_one_file_each_named_after_the_view(duplex, tmp_path):
    views = [_plan(duplex, "Level 1"), _plan(duplex, "Level 2")]
    assert duplex.Export(str(tmp_path), "set", _ids(*views), DXFExportOptions()) is True
    assert sorted(os.listdir(tmp_path)) == ["set-Floor Plan - Level 1.dxf", "set-Floor Plan - Level 2.dxf"]


def test_a_sheet_exports_its_viewports(duplex_rw, tmp_path):
    from Autodesk.Revit.DB import FamilySymbol
    title_block = next(s for s in FilteredElementCollector(duplex_rw).OfClass(FamilySymbol)
                       if s.Category.Id.Value == BuiltInCategory.OST_TitleBlocks.value)
    view = _plan(duplex_rw)
    transaction = Transaction(duplex_rw, "sheet")
    transaction.Start()
    sheet = ViewSheet.Create(duplex_rw, title_block.Id)
    Viewport.Create(duplex_rw, sheet.Id, view.Id, XYZ(1.0, 1.0, 0.0))
    transaction.Commit()
    assert duplex_rw.Export(str(tmp_path), "sheet", _ids(sheet), DXFExportOptions()) is True
    layers = _layers(tmp_path / "sheet.dxf")
    assert layers[("G-ANNO-TTLB", "LWPOLYLINE")] == 1
    assert layers[("A-WALL", "LWPOLYLINE")] == len(_visible(duplex_rw, view, "OST_Walls"))


def test_dxf_export_refuses_what_revit_refuses(duplex, tmp_path):
    view = _plan(duplex)
    with pytest.raises(ArgumentException):
        duplex.Export(str(tmp_path), "x", List[ElementId](), DXFExportOptions())
    with pytest.raises(ArgumentException):
        duplex.Export(str(tmp_path), "a:b", _ids(view), DXFExportOptions())
    with pytest.raises(DirectoryNotFoundException):
        duplex.Export(str(tmp_path / "missing"), "x", _ids(view), DXFExportOptions())
    three_d = next(v for v in FilteredElementCollector(duplex).OfClass(View) if v.Name == "{3D}")
    assert duplex.Export(str(tmp_path), "3d", _ids(three_d), DXFExportOptions()) is False   # not drawn here
    assert os.listdir(tmp_path) == []


# -- DWG and NWC: no exporter in the stand-in -------------------------------------------------------------

def test_dwg_is_refused_as_revit_refuses_it_without_the_exporter(duplex, tmp_path):
    assert OptionalFunctionalityUtils.IsDWGExportAvailable() is False
    assert OptionalFunctionalityUtils.IsDXFExportAvailable() is True
    options = DWGExportOptions.GetPredefinedOptions(duplex, "Setup 1")
    options.SharedCoords = True
    with pytest.raises(OptionalFunctionalityNotAvailableException, match="DWG export"):
        duplex.Export(str(tmp_path), "L1", _ids(_plan(duplex)), options)
    assert options.SharedCoords is True and os.listdir(tmp_path) == []
    with pytest.raises(DirectoryNotFoundException):   # the arguments are checked first
        duplex.Export(str(tmp_path / "missing"), "L1", _ids(_plan(duplex)), options)


def test_nwc_is_refused_as_revit_refuses_it_without_the_exporter(duplex, tmp_path):
    assert OptionalFunctionalityUtils.IsNavisworksExporterAvailable() is False
    options = NavisworksExportOptions()
    options.ExportScope, options.ViewId = NavisworksExportScope.View, _plan(duplex).Id
    with pytest.raises(OptionalFunctionalityNotAvailableException, match="Navisworks"):
        duplex.Export(str(tmp_path), "model", options)
    assert duplex.Export.__doc__ and os.listdir(tmp_path) == []
    with pytest.raises(InvalidPathArgumentException):
        duplex.Export(str(tmp_path / "missing"), "model", options)


def test_navisworks_options_skip_links_by_default():
    options = NavisworksExportOptions()
    assert options.ExportLinks is False
    options.ExportLinks = True
    assert options.ExportLinks is True


# -- IFC -----------------------------------------------------------------------------------------------

def test_ifc_export_needs_an_open_transaction(duplex, tmp_path):
    with pytest.raises(ModificationOutsideTransactionException):
        duplex.Export(str(tmp_path), "model", IFCExportOptions())
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("sample", ["duplex", "SampleHouse4"])
@pytest.mark.parametrize("version", [IFCVersion.IFC2x3, IFCVersion.IFC4])
def test_the_model_to_ifc_loads_back_with_the_same_counts(sample, version, tmp_path):
    doc = open_sample(sample)
    options = IFCExportOptions()
    options.FileVersion = version
    assert _export_ifc(doc, tmp_path, options=options) is True
    again = RevitHost().open(str(tmp_path / "model.ifc"))
    assert _counts(again) == _counts(doc)
    import ifcopenshell
    assert ifcopenshell.open(str(tmp_path / "model.ifc")).schema == ("IFC4" if version == IFCVersion.IFC4 else "IFC2X3")


@pytest.mark.parametrize("sample", ["Office_A_20110811", "LargeBuilding"])
def test_the_other_samples_to_ifc_load_back_with_the_same_counts(sample, tmp_path):
    doc = open_sample(sample)
    assert _export_ifc(doc, tmp_path) is True
    assert _counts(RevitHost().open(str(tmp_path / "model.ifc"))) == _counts(doc)


def test_ifc_keeps_the_walls_types_and_lengths(duplex, tmp_path):
    from Autodesk.Revit.DB import BuiltInParameter, Wall
    _export_ifc(duplex, tmp_path)
    again = RevitHost().open(str(tmp_path / "model.ifc"))

    def walls(doc):
        return sorted((w.Name, round(w.get_Parameter(BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble(), 3),
                       round(w.Width, 3)) for w in FilteredElementCollector(doc).OfClass(Wall))
    assert walls(again) == walls(duplex)


def test_filter_view_id_exports_the_views_visible_elements_only(duplex, tmp_path):
    view = _plan(duplex)
    options = IFCExportOptions()
    options.FilterViewId = view.Id
    _export_ifc(duplex, tmp_path, options=options)
    again = RevitHost().open(str(tmp_path / "model.ifc"))
    for category in ("OST_Walls", "OST_Doors", "OST_Windows", "OST_Rooms"):
        assert _counts(again)[category] == len(_visible(duplex, view, category))
    assert _counts(again)["OST_Walls"] < _counts(duplex)["OST_Walls"]


def test_ifc_file_types(duplex, tmp_path):
    import zipfile
    options = IFCExportOptions()
    options.AddOption("IFCFileType", "IFCZIP")
    assert _export_ifc(duplex, tmp_path, options=options) is True
    assert zipfile.ZipFile(tmp_path / "model.ifczip").namelist() == ["model.ifc"]
    options.AddOption("IFCFileType", "IFCXML")
    assert _export_ifc(duplex, tmp_path, "xml", options) is False    # not a format the stand-in writes
    assert sorted(os.listdir(tmp_path)) == ["model.ifczip"]
