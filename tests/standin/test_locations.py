"""Shared coordinates in the stand-in: the project location, its position, the base points, and
where a loaded IFC model takes its position from (IfcMapConversion, else none)."""
from __future__ import annotations

import math

import pytest
from Autodesk.Revit import DB

ifcopenshell = pytest.importorskip("ifcopenshell")

from revit_standin.host import RevitHost  # noqa: E402
from revit_standin.ifc_reader import read_ifc  # noqa: E402
from revit_standin.loader import build_document  # noqa: E402

FOOT = 0.3048


def _position(doc, point=DB.XYZ.Zero) -> tuple:
    p = doc.ActiveProjectLocation.GetProjectPosition(point)
    return tuple(round(v, 9) for v in (p.EastWest, p.NorthSouth, p.Elevation, p.Angle))


def _set(doc, east, north, elevation, angle, point=DB.XYZ.Zero):
    transaction = DB.Transaction(doc, "Specify coordinates")
    transaction.Start()
    doc.ActiveProjectLocation.SetProjectPosition(point, DB.ProjectPosition(east, north, elevation, angle))
    transaction.Commit()


def test_a_new_project_has_no_shared_coordinates(doc):
    assert doc.ActiveProjectLocation.Name == "Internal"
    assert _position(doc) == (0, 0, 0, 0)
    survey, base = DB.BasePoint.GetSurveyPoint(doc), DB.BasePoint.GetProjectBasePoint(doc)
    assert (survey.IsShared, base.IsShared) == (True, False)
    assert [survey.Category.Name, base.Category.Name] == ["Survey Point", "Project Base Point"]
    assert survey.Position.IsAlmostEqualTo(DB.XYZ.Zero) and base.SharedPosition.IsAlmostEqualTo(DB.XYZ.Zero)


def test_specifying_coordinates_needs_a_transaction_and_moves_the_survey_point(doc):
    with pytest.raises(Exception, match="outside of transaction"):
        doc.ActiveProjectLocation.SetProjectPosition(DB.XYZ.Zero, DB.ProjectPosition(1, 2, 3, 0))
    _set(doc, 100.0, 200.0, 10.0, math.pi / 2)
    assert _position(doc) == (100, 200, 10, round(math.pi / 2, 9))
    # 1 ft along internal X is 1 ft north when project north is turned 90°.
    assert _position(doc, DB.XYZ(1, 0, 0))[:3] == (100, 201, 10)
    survey = DB.BasePoint.GetSurveyPoint(doc)
    assert survey.SharedPosition.IsAlmostEqualTo(DB.XYZ.Zero)       # the survey point is the shared origin
    assert DB.BasePoint.GetProjectBasePoint(doc).SharedPosition.IsAlmostEqualTo(DB.XYZ(100, 200, 10))
    # Setting the position at another point keeps that point's shared coordinates as given.
    _set(doc, 5.0, 6.0, 7.0, 0.0, point=DB.XYZ(10, 0, 0))
    assert _position(doc, DB.XYZ(10, 0, 0)) == (5, 6, 7, 0) and _position(doc)[:3] == (-5, 6, 7)


def test_the_site_elements_do_not_renumber_the_model(doc):
    """The location and base points have ids of their own: a new element takes the id it took before."""
    ids = sorted(e.Id.Value for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType())
    site = {doc.ActiveProjectLocation.Id.Value, DB.BasePoint.GetSurveyPoint(doc).Id.Value,
            DB.BasePoint.GetProjectBasePoint(doc).Id.Value}
    assert len(site) == 3 and site <= set(ids)
    solid_fill = DB.FillPatternElement.GetFillPatternElementByName(doc, DB.FillPatternTarget.Drafting, "<Solid fill>")
    setup = DB.ExportDWGSettings.FindByName(doc, "Setup 1")        # the template's DWG/DXF export setup too
    from revit_standin.family_library import FIRST_ID, LIBRARY
    library = set(range(FIRST_ID, FIRST_ID + 2 * len(LIBRARY)))   # the library's families: fixed ids too
    ordinary = [i for i in ids if i not in site | library and i not in (solid_fill.Id.Value, setup.Id.Value)]
    numbered = [i for i in doc._elements if i < min(site)]   # the model's own elements and types, 1, 2, …
    assert max(ordinary) < min(site) and max(numbered) == len(numbered)


def test_the_sample_buildings_have_no_shared_coordinates():
    """Their IfcSite sits at the IFC origin and none has an IfcMapConversion (three are IFC2X3)."""
    for name in ("duplex", "SampleHouse4"):
        assert _position(RevitHost().open(name)) == (0, 0, 0, 0), name


def _site_file(path, map_unit: bool):
    """A minimal IFC4 project in millimetres with an IfcMapConversion: E 1,000 m, N 2,000 m, height
    30 m, the local x axis turned 30° on the map; the offsets in metres when the CRS says so."""
    f = ifcopenshell.file(schema="IFC4")
    new = f.create_entity
    units = new("IfcUnitAssignment", Units=[new("IfcSIUnit", UnitType="LENGTHUNIT", Prefix="MILLI", Name="METRE")])
    context = new("IfcGeometricRepresentationContext", ContextType="Model", CoordinateSpaceDimension=3,
                  Precision=1e-5, WorldCoordinateSystem=new("IfcAxis2Placement3D", Location=new(
                      "IfcCartesianPoint", Coordinates=[0.0, 0.0, 0.0])))
    new("IfcProject", GlobalId=ifcopenshell.guid.new(), Name="Site", UnitsInContext=units,
        RepresentationContexts=[context])
    metre = new("IfcSIUnit", UnitType="LENGTHUNIT", Name="METRE") if map_unit else None
    crs = new("IfcProjectedCRS", Name="EPSG:27700", MapUnit=metre)
    scale = 1 if map_unit else 1000
    new("IfcMapConversion", SourceCRS=context, TargetCRS=crs, Eastings=1000.0 * scale, Northings=2000.0 * scale,
        OrthogonalHeight=30.0 * scale, XAxisAbscissa=math.cos(math.radians(30)),
        XAxisOrdinate=math.sin(math.radians(30)))
    f.write(str(path))


@pytest.mark.parametrize("map_unit", [True, False], ids=["offsets in the map's metres", "offsets in the project's mm"])
def test_an_ifc_map_conversion_gives_the_project_its_shared_coordinates(tmp_path, map_unit):
    path = tmp_path / "site.ifc"
    _site_file(path, map_unit)
    data = read_ifc(path)
    east, north, height, angle = data.project_position
    assert (east * FOOT, north * FOOT, height * FOOT) == pytest.approx((1000.0, 2000.0, 30.0))
    assert math.degrees(angle) == pytest.approx(30.0)
    doc = build_document(data, None)
    assert _position(doc) == tuple(round(v, 9) for v in data.project_position)
