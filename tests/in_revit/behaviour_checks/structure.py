"""In-Revit checks of structure (the rows of docs/REVIT_BEHAVIOUR.md, "Structure", that name
behaviour_checks/structure.py): where NewFamilyInstance puts a structural column (its base and top
levels), a column whose top is set below its base refused at commit, a beam along its curve (its
reference level, end offsets and z justification), an isolated footing's top at its level, a wall
foundation under its wall and deleted with it. A check whose type the open model lacks is skipped,
saying which: load M_Concrete-Rectangular-Column, M_Concrete-Rectangular Beam and
M_Footing-Rectangular from Autodesk's library (a structural template has them). Everything is made
inside the check's group, which run_checks.py rolls back.
"""
from Autodesk.Revit import DB

from kit import expect, skip, transaction
from paracore.revit.context import id_value
import behaviour_checks._site as site

BIP = DB.BuiltInParameter


def _structural(name):
    from Autodesk.Revit.DB.Structure import StructuralType
    return getattr(StructuralType, name)


def _symbol(doc, category, what):
    """An active type of ``category`` (in the open transaction); skipped when the model has none."""
    symbol = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.FamilySymbol).OfCategory(category)), None)
    if symbol is None:
        skip(f"the model has no {what} type (load one from Autodesk's structural library)")
    if not symbol.IsActive:
        symbol.Activate()
        doc.Regenerate()
    return symbol


def _two_levels(doc):
    base = site.high_level(doc)
    top = DB.Level.Create(doc, base.Elevation + 12.0)
    return base, top


def column_stands_on_its_base_level(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: place a structural column"):
        symbol = _symbol(doc, DB.BuiltInCategory.OST_StructuralColumns, "structural column")
        base, top = _two_levels(doc)
        x, y = site.spot(doc)
        column = doc.Create.NewFamilyInstance(DB.XYZ(x, y, base.Elevation), symbol, base, _structural("Column"))
        column.get_Parameter(BIP.FAMILY_TOP_LEVEL_PARAM).Set(top.Id)
        column.get_Parameter(BIP.FAMILY_TOP_LEVEL_OFFSET_PARAM).Set(0.0)
        doc.Regenerate()
    expect(id_value(column.get_Parameter(BIP.FAMILY_BASE_LEVEL_PARAM).AsElementId()) == id_value(base.Id),
           "the column's Base Level is not the level given")
    expect(id_value(column.get_Parameter(BIP.FAMILY_TOP_LEVEL_PARAM).AsElementId()) == id_value(top.Id),
           "the column's Top Level did not take the level set")
    point = column.Location.Point
    expect(point.DistanceTo(DB.XYZ(x, y, base.Elevation)) < site.TOLERANCE, f"it stands at {site.shown(point)}")
    return f"'{symbol.Family.Name}' at {site.shown(point)}, {base.Name} to {top.Name}"


def column_shows_in_the_plan_of_its_top_level(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: a column below a plan"):
        symbol = _symbol(doc, DB.BuiltInCategory.OST_StructuralColumns, "structural column")
        base, top = _two_levels(doc)
        plan = site.plan(doc, top)
        x, y = site.spot(doc)
        column = doc.Create.NewFamilyInstance(DB.XYZ(x, y, base.Elevation), symbol, base, _structural("Column"))
        column.get_Parameter(BIP.FAMILY_TOP_LEVEL_PARAM).Set(top.Id)
        column.get_Parameter(BIP.FAMILY_TOP_LEVEL_OFFSET_PARAM).Set(0.0)
        doc.Regenerate()
    shown = {id_value(e.Id) for e in DB.FilteredElementCollector(doc, plan.Id)
             .OfCategory(DB.BuiltInCategory.OST_StructuralColumns).WhereElementIsNotElementType()}
    expect(id_value(column.Id) in shown, f"the column from {base.Name} to {top.Name} is not in {top.Name}'s new plan")
    return f"the column shows in the plan of {top.Name}"


def column_top_below_base_is_refused(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: a structural column"):
        symbol = _symbol(doc, DB.BuiltInCategory.OST_StructuralColumns, "structural column")
        base, top = _two_levels(doc)
        x, y = site.spot(doc)
        column = doc.Create.NewFamilyInstance(DB.XYZ(x, y, base.Elevation), symbol, base, _structural("Column"))
        column.get_Parameter(BIP.FAMILY_TOP_LEVEL_PARAM).Set(top.Id)
    attempt = DB.Transaction(doc, "Paracore check: the column's top below its base")
    attempt.Start()
    try:
        column.get_Parameter(BIP.FAMILY_TOP_LEVEL_PARAM).Set(base.Id)
        column.get_Parameter(BIP.FAMILY_TOP_LEVEL_OFFSET_PARAM).Set(-2.0)
        status = attempt.Commit()
    finally:
        site.ended(attempt)
    expect(status != DB.TransactionStatus.Committed, "Revit committed a column whose top is below its base")
    return f"the commit ended {status}"


def beam_lies_along_its_curve(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: place a beam"):
        symbol = _symbol(doc, DB.BuiltInCategory.OST_StructuralFraming, "structural framing")
        level = site.high_level(doc)
        x, y = site.spot(doc)
        line = site.line((x, y), (x + 20, y), level.Elevation)
        beam = doc.Create.NewFamilyInstance(line, symbol, level, _structural("Beam"))
        doc.Regenerate()
    curve = beam.Location.Curve
    expect(all(curve.GetEndPoint(e).DistanceTo(line.GetEndPoint(e)) < site.TOLERANCE for e in (0, 1)),
           f"the beam runs from {site.shown(curve.GetEndPoint(0))} to {site.shown(curve.GetEndPoint(1))}")
    reference = beam.get_Parameter(BIP.INSTANCE_REFERENCE_LEVEL_PARAM).AsElementId()
    expect(id_value(reference) == id_value(level.Id), "its Reference Level is not the level given")
    offsets = [beam.get_Parameter(p).AsDouble() for p in (BIP.STRUCTURAL_BEAM_END0_ELEVATION,
                                                           BIP.STRUCTURAL_BEAM_END1_ELEVATION)]
    expect(all(abs(o) < site.TOLERANCE for o in offsets), f"its end level offsets are {offsets}, not 0")
    justification = beam.get_Parameter(BIP.Z_JUSTIFICATION).AsInteger()
    expect(justification == 0, f"its z Justification is {justification}, not 0 (Top)")
    return f"'{symbol.Family.Name}' along the line, on {level.Name}, z Justification Top"


def footing_top_is_at_its_level(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: place an isolated footing"):
        symbol = next((s for s in DB.FilteredElementCollector(doc).OfClass(DB.FamilySymbol)
                       .OfCategory(DB.BuiltInCategory.OST_StructuralFoundation)), None)
        if symbol is None:
            skip("the model has no isolated footing type (load M_Footing-Rectangular)")
        if not symbol.IsActive:
            symbol.Activate()
            doc.Regenerate()
        level = site.high_level(doc)
        x, y = site.spot(doc)
        footing = doc.Create.NewFamilyInstance(DB.XYZ(x, y, level.Elevation), symbol, level, _structural("Footing"))
        doc.Regenerate()
    top = footing.get_Parameter(BIP.STRUCTURAL_ELEVATION_AT_TOP)
    expect(top is not None, "the footing has no Elevation at Top")
    expect(abs(top.AsDouble() - level.Elevation) < site.TOLERANCE,
           f"its Elevation at Top is {top.AsDouble()}, the level is at {level.Elevation}")
    return f"'{symbol.Family.Name}': top at {level.Name}"


def wall_foundation_goes_with_its_wall(scratch):
    doc = scratch.doc
    foundation_type = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.WallFoundationType)), None)
    if foundation_type is None:
        skip("the model has no wall foundation type")
    with transaction(doc, "Paracore check: a wall foundation"):
        level = site.base_level(doc)
        x, y = site.spot(doc)
        wall = site.wall(doc, level, (x, y), (x + 20, y))
        foundation = DB.WallFoundation.Create(doc, foundation_type.Id, wall.Id)
        doc.Regenerate()
    expect(id_value(foundation.WallId) == id_value(wall.Id), "the foundation's WallId is not its wall")
    foundation_id = foundation.Id
    with transaction(doc, "Paracore check: delete the wall"):
        doc.Delete(wall.Id)
    expect(doc.GetElement(foundation_id) is None, "the wall foundation stayed when its wall was deleted")
    return f"'{foundation_type.Name}' under the wall, deleted with it"


CHECKS = [
    ("a structural column stands on its base level, reaching its top level", column_stands_on_its_base_level),
    ("a column whose top is below its base is not committed", column_top_below_base_is_refused),
    ("a column reaching a level shows in that level's plan", column_shows_in_the_plan_of_its_top_level),
    ("a beam lies along its curve on its reference level, top-justified", beam_lies_along_its_curve),
    ("an isolated footing's top is at its level", footing_top_is_at_its_level),
    ("a wall foundation is under its wall and deleted with it", wall_foundation_goes_with_its_wall),
]
