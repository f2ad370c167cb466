"""Structure in the stand-in: structural columns, beams and isolated footings placed with
NewFamilyInstance and a StructuralType, wall foundations (WallFoundation.Create), the structural
types a model carries, and Revit's rules (docs/REVIT_BEHAVIOUR.md, "Structure")."""
from __future__ import annotations

import pytest

from Autodesk.Revit.DB import (XYZ, BuiltInCategory, BuiltInParameter, ElementId, Family, FamilyInstance, ViewPlan,
                               FilteredElementCollector, Line, Transaction, TransactionStatus, WallFoundation,
                               WallFoundationType)
from Autodesk.Revit.DB.Structure import StructuralType
from Autodesk.Revit.Exceptions import ArgumentException

BIP = BuiltInParameter


def _symbol(doc, category):
    symbol = FilteredElementCollector(doc).OfCategory(category).WhereElementIsElementType().FirstElement()
    assert symbol is not None
    return symbol


def _column(doc, make, point=(10, 5), level="Level 1"):
    symbol = _symbol(doc, BuiltInCategory.OST_StructuralColumns)
    level = make.level(doc, level)
    return make.committed(doc, lambda: doc.Create.NewFamilyInstance(
        XYZ(point[0], point[1], level.Elevation), symbol, level, StructuralType.Column))


def test_a_new_project_has_autodesks_structural_content(doc):
    names = {(e.Category.Name, e.FamilyName, e.Name)
             for bic in (BuiltInCategory.OST_StructuralColumns, BuiltInCategory.OST_StructuralFraming,
                         BuiltInCategory.OST_StructuralFoundation)
             for e in FilteredElementCollector(doc).OfCategory(bic).WhereElementIsElementType()}
    assert names == {("Structural Columns", "M_Concrete-Rectangular-Column", "300 x 450mm"),
                     ("Structural Framing", "M_Concrete-Rectangular Beam", "300 x 600mm"),
                     ("Structural Foundations", "M_Footing-Rectangular", "1800 x 1200 x 450mm"),
                     ("Structural Foundations", "Wall Foundation", "Bearing Footing - 900 x 300")}
    footing = next(t for t in FilteredElementCollector(doc).OfClass(WallFoundationType))
    assert footing.get_Parameter(BIP.CONTINUOUS_FOOTING_WIDTH).AsDouble() == pytest.approx(900 / 304.8)


def test_the_duplex_keeps_its_own_framing_and_wall_foundations_and_its_ids(duplex):
    framing = {e.FamilyName for e in FilteredElementCollector(duplex).OfCategory(
        BuiltInCategory.OST_StructuralFraming).WhereElementIsElementType()}
    assert framing == {"M_W-Wide Flange"}      # the file's own: no concrete beam added
    foundations = list(FilteredElementCollector(duplex).OfClass(WallFoundation))
    assert len(foundations) == 7 and all(f.WallId == ElementId.InvalidElementId for f in foundations)
    types = [t.Name for t in FilteredElementCollector(duplex).OfClass(WallFoundationType)]
    assert types == ["Bearing Footing - 900 x 300"]
    # the structural content comes after everything the file holds
    loaded = [e for e in FilteredElementCollector(duplex).WhereElementIsNotElementType() if not isinstance(e, Family)]
    added = _symbol(duplex, BuiltInCategory.OST_StructuralColumns)
    assert added.Id.Value > max(e.Id.Value for e in loaded if e.Id.Value < 10 ** 9)


def test_a_column_stands_on_its_base_level_and_reaches_the_next_level(doc, make):
    column = _column(doc, make)
    assert isinstance(column, FamilyInstance) and column.StructuralType == StructuralType.Column
    level_1, level_2 = make.level(doc, "Level 1"), make.level(doc, "Level 2")
    assert column.get_Parameter(BIP.FAMILY_BASE_LEVEL_PARAM).AsElementId() == level_1.Id
    assert column.get_Parameter(BIP.FAMILY_TOP_LEVEL_PARAM).AsElementId() == level_2.Id
    assert column.get_Parameter(BIP.FAMILY_TOP_LEVEL_OFFSET_PARAM).AsDouble() == 0.0
    assert column.LevelId == level_1.Id
    point = column.Location.Point
    assert (point.X, point.Y, point.Z) == (10, 5, 0)


def test_a_columns_base_offset_moves_it_and_its_top_must_stay_above_its_base(doc, make):
    column = _column(doc, make)
    make.committed(doc, lambda: column.get_Parameter(BIP.FAMILY_BASE_LEVEL_OFFSET_PARAM).Set(2.0))
    assert column.Location.Point.Z == 2.0
    transaction = Transaction(doc, "top below base")
    transaction.Start()
    column.get_Parameter(BIP.FAMILY_TOP_LEVEL_OFFSET_PARAM).Set(-9.0)   # top at 1 ft, base at 2 ft
    assert transaction.Commit() == TransactionStatus.RolledBack
    assert column.get_Parameter(BIP.FAMILY_TOP_LEVEL_OFFSET_PARAM).AsDouble() == 0.0


def test_a_beam_lies_along_its_curve_over_its_reference_level(doc, make):
    symbol = _symbol(doc, BuiltInCategory.OST_StructuralFraming)
    level = make.level(doc, "Level 2")
    line = Line.CreateBound(XYZ(0, 0, 10), XYZ(20, 0, 11))
    beam = make.committed(doc, lambda: doc.Create.NewFamilyInstance(line, symbol, level, StructuralType.Beam))
    curve = beam.Location.Curve
    assert (curve.GetEndPoint(0).X, curve.GetEndPoint(1).X) == (0, 20)
    assert beam.get_Parameter(BIP.INSTANCE_REFERENCE_LEVEL_PARAM).AsElementId() == level.Id
    assert beam.get_Parameter(BIP.STRUCTURAL_BEAM_END0_ELEVATION).AsDouble() == pytest.approx(0.0)
    assert beam.get_Parameter(BIP.STRUCTURAL_BEAM_END1_ELEVATION).AsDouble() == pytest.approx(1.0)
    assert beam.get_Parameter(BIP.Z_JUSTIFICATION).AsValueString() == "Top"
    assert beam.StructuralType == StructuralType.Beam


def test_a_beam_needs_a_framing_type_a_level_and_a_curve(doc, make):
    level = make.level(doc, "Level 2")
    column_type = _symbol(doc, BuiltInCategory.OST_StructuralColumns)
    beam_type = _symbol(doc, BuiltInCategory.OST_StructuralFraming)
    transaction = Transaction(doc, "beams")
    transaction.Start()
    with pytest.raises(ArgumentException, match="framing"):
        doc.Create.NewFamilyInstance(Line.CreateBound(XYZ(0, 0, 10), XYZ(5, 0, 10)), column_type, level,
                                     StructuralType.Beam)
    with pytest.raises(TypeError, match="No method matches"):   # no overload without the level
        doc.Create.NewFamilyInstance(Line.CreateBound(XYZ(0, 0, 10), XYZ(5, 0, 10)), beam_type, StructuralType.Beam)
    with pytest.raises(ArgumentException, match="along a curve"):
        doc.Create.NewFamilyInstance(XYZ(0, 0, 10), beam_type, level, StructuralType.Beam)
    transaction.RollBack()


def test_a_footing_has_its_top_at_its_level(doc, make):
    symbol = _symbol(doc, BuiltInCategory.OST_StructuralFoundation)
    level = make.level(doc, "Level 1")
    footing = make.committed(doc, lambda: doc.Create.NewFamilyInstance(XYZ(3, 4, 0), symbol, level,
                                                                       StructuralType.Footing))
    assert footing.StructuralType == StructuralType.Footing and footing.LevelId == level.Id
    assert footing.get_Parameter(BIP.STRUCTURAL_ELEVATION_AT_TOP).AsDouble() == 0.0
    assert footing.get_Parameter(BIP.STRUCTURAL_ELEVATION_AT_BOTTOM).AsDouble() == pytest.approx(-450 / 304.8)


def test_a_wall_foundation_is_under_its_wall_and_goes_with_it(doc, make):
    wall = make.wall(doc)
    foundation_type = next(iter(FilteredElementCollector(doc).OfClass(WallFoundationType)))
    foundation = make.committed(doc, lambda: WallFoundation.Create(doc, foundation_type.Id, wall.Id))
    assert foundation.WallId == wall.Id and foundation.LevelId == wall.LevelId
    assert foundation.get_Parameter(BIP.CONTINUOUS_FOOTING_LENGTH).AsDouble() == pytest.approx(20.0)
    transaction = Transaction(doc, "bad")
    transaction.Start()
    with pytest.raises(ArgumentException, match="WallFoundationType"):
        WallFoundation.Create(doc, wall.GetTypeId(), wall.Id)
    with pytest.raises(ArgumentException, match="valid wall"):
        WallFoundation.Create(doc, foundation_type.Id, foundation_type.Id)
    transaction.RollBack()
    make.committed(doc, lambda: doc.Delete(wall.Id))
    assert not foundation.IsValidObject


def test_plans_draw_columns_beams_footings_and_wall_foundations(doc, make, tmp_path):
    from PIL import Image
    from revit_standin import drawing
    column = _column(doc, make, point=(0, 0))
    wall = make.wall(doc, (10, -10), (30, -10))
    foundation_type = next(iter(FilteredElementCollector(doc).OfClass(WallFoundationType)))
    foundation = make.committed(doc, lambda: WallFoundation.Create(doc, foundation_type.Id, wall.Id))
    footing_type = _symbol(doc, BuiltInCategory.OST_StructuralFoundation)
    level_1, level_2 = make.level(doc, "Level 1"), make.level(doc, "Level 2")
    footing = make.committed(doc, lambda: doc.Create.NewFamilyInstance(XYZ(0, 0, 0), footing_type, level_1,
                                                                       StructuralType.Footing))
    beam_type = _symbol(doc, BuiltInCategory.OST_StructuralFraming)
    beam = make.committed(doc, lambda: doc.Create.NewFamilyInstance(
        Line.CreateBound(XYZ(0, 0, 10), XYZ(20, 0, 10)), beam_type, level_2, StructuralType.Beam))
    plans = {v.Name: v for v in FilteredElementCollector(doc).OfClass(ViewPlan) if not v.IsTemplate}
    first = drawing.draw(plans["Level 1"], str(tmp_path / "l1.png"))
    second = drawing.draw(plans["Level 2"], str(tmp_path / "l2.png"))
    assert {column.Id.Value, footing.Id.Value, foundation.Id.Value} <= set(first.drawn)
    assert beam.Id.Value not in first.drawn
    assert {column.Id.Value, beam.Id.Value} <= set(second.drawn)      # the column reaches Level 2
    assert footing.Id.Value not in second.drawn and foundation.Id.Value not in second.drawn
    image = Image.open(second.path).convert("RGB")
    col, row = second.to_pixel((10, 0, 10))                            # halfway along the beam
    assert image.getpixel((int(col), int(row))) != (255, 255, 255)


def test_the_duplex_wall_foundations_keep_the_length_the_file_gives(duplex):
    lengths = sorted(round(f.get_Parameter(BuiltInParameter.CONTINUOUS_FOOTING_LENGTH).AsDouble() * 0.3048, 3)
                     for f in FilteredElementCollector(duplex).OfClass(WallFoundation))
    assert len(lengths) == 7 and all(length > 1.0 for length in lengths)    # metres, none without a wall's length
