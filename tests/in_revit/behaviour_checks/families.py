"""In-Revit checks of family placement (the rows of docs/REVIT_BEHAVIOUR.md, "Families", that name
behaviour_checks/families.py): placement types and the Host parameter as a project reads them, an
inactive type refused, where Document.Create.NewFamilyInstance puts a level-based, wall-hosted,
ceiling-hosted and face-based instance, and which placements it refuses (a host of the wrong
kind, a point off the host, a face-based or curve-based family at a bare point). A check whose
family or host the open model lacks is skipped, saying which: load e.g. M_Lavatory-Wall Mounted,
M_Downlight - Recessed Can and M_Ceiling Light - Flat Round from Autodesk's library to run them all.
Everything is placed inside the check's group, which run_checks.py rolls back.
"""
from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException

from kit import expect, skip, transaction
from paracore.revit.context import id_value
import behaviour_checks._site as site

HOST_WALL, HOST_CEILING, HOST_FACE = 1, 3, 5
REFUSALS = (ArgumentException, InvalidOperationException)


def _structural():
    from Autodesk.Revit.DB.Structure import StructuralType
    return StructuralType.NonStructural


def _hosting(family):
    parameter = family.get_Parameter(DB.BuiltInParameter.FAMILY_HOSTING_BEHAVIOR)
    return parameter.AsInteger() if parameter is not None and parameter.HasValue else None


def _symbol(doc, placement, hosting=None, exclude=()):
    """An active type of a family of ``placement`` (and Host ``hosting``), in the open transaction."""
    for family in DB.FilteredElementCollector(doc).OfClass(DB.Family):
        if family.FamilyPlacementType != placement or (hosting is not None and _hosting(family) != hosting):
            continue
        if family.FamilyCategory is not None and id_value(family.FamilyCategory.Id) in exclude:
            continue
        for symbol_id in family.GetFamilySymbolIds():
            symbol = doc.GetElement(symbol_id)
            if not symbol.IsActive:
                symbol.Activate()
                doc.Regenerate()
            return symbol
    skip(f"the model has no {placement} family" + (f" with Host {hosting}" if hosting is not None else ""))


_OPENINGS = (int(DB.BuiltInCategory.OST_Doors), int(DB.BuiltInCategory.OST_Windows))


def _ceiling(doc):
    ceiling = next(iter(DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Ceilings)
                        .WhereElementIsNotElementType()), None)
    if ceiling is None:
        skip("the model has no ceiling")
    return ceiling


def _centre(element):
    box = element.get_BoundingBox(None)
    return DB.XYZ((box.Min.X + box.Max.X) / 2, (box.Min.Y + box.Max.Y) / 2, box.Min.Z), box


def door_family_reads_as_wall_hosted(scratch):
    doc = scratch.doc
    family = next((f for f in DB.FilteredElementCollector(doc).OfClass(DB.Family)
                   if f.FamilyCategory is not None and id_value(f.FamilyCategory.Id) == int(DB.BuiltInCategory.OST_Doors)),
                  None)
    if family is None:
        skip("the model has no door family")
    expect(family.FamilyPlacementType == DB.FamilyPlacementType.OneLevelBasedHosted,
           f"door family '{family.Name}' is {family.FamilyPlacementType}")
    hosting = _hosting(family)
    expect(hosting == HOST_WALL, f"door family '{family.Name}' reads Host (FAMILY_HOSTING_BEHAVIOR) {hosting}, not 1")
    return f"'{family.Name}': OneLevelBasedHosted, Host 1 (wall)"


def inactive_symbol_is_refused(scratch):
    doc = scratch.doc
    kinds = (DB.FamilyPlacementType.OneLevelBased, DB.FamilyPlacementType.CurveBased)
    symbol = next((s for s in DB.FilteredElementCollector(doc).OfClass(DB.FamilySymbol)
                   if not s.IsActive and s.Family.FamilyPlacementType in kinds), None)
    if symbol is None:
        skip("every level-based and line-based type of the model is active")
    level = site.base_level(doc)
    x, y = site.spot(doc)
    point = DB.XYZ(x, y, level.Elevation)

    def place():
        if symbol.Family.FamilyPlacementType == DB.FamilyPlacementType.CurveBased:
            return doc.Create.NewFamilyInstance(site.line((x, y), (x + 10, y), level.Elevation), symbol, level,
                                                _structural())
        return doc.Create.NewFamilyInstance(point, symbol, level, _structural())

    attempt = DB.Transaction(doc, "Paracore check: place an inactive type")
    attempt.Start()
    try:
        refusal = site.refused(place, ArgumentException)
    finally:
        site.ended(attempt)
    expect(refusal is not None, f"the inactive type '{symbol.Name}' was placed")
    return f"'{symbol.Name}': {refusal}"


def level_based_family_stands_at_its_point(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: place a level-based family"):
        symbol = _symbol(doc, DB.FamilyPlacementType.OneLevelBased, exclude=_OPENINGS)
        level = site.high_level(doc)
        x, y = site.spot(doc)
        point = DB.XYZ(x, y, level.Elevation)
        instance = doc.Create.NewFamilyInstance(point, symbol, level, _structural())
        doc.Regenerate()
    expect(id_value(instance.LevelId) == id_value(level.Id), "the instance is not on the level given")
    expect(instance.Host is None or isinstance(instance.Host, DB.Level), f"it has host {instance.Host}")
    placed = instance.Location.Point
    expect(placed.DistanceTo(point) < site.TOLERANCE, f"it stands at {site.shown(placed)}, not {site.shown(point)}")
    return f"'{symbol.Family.Name}' at {site.shown(placed)} on the new level"


def level_based_family_given_a_wall_is_refused(scratch):
    doc = scratch.doc
    attempt = DB.Transaction(doc, "Paracore check: a level-based family in a wall")
    attempt.Start()
    try:
        symbol = _symbol(doc, DB.FamilyPlacementType.OneLevelBased, exclude=_OPENINGS)
        level = site.base_level(doc)
        x, y = site.spot(doc)
        wall = site.wall(doc, level, (x, y), (x + 20, y))
        refusal = site.refused(lambda: doc.Create.NewFamilyInstance(
            DB.XYZ(x + 10, y, level.Elevation), symbol, wall, level, _structural()), *REFUSALS)
    finally:
        site.ended(attempt)
    expect(refusal is not None, f"'{symbol.Family.Name}' (level-based) was placed with a wall as host")
    return f"refused: {refusal}"


def wall_hosted_family_reads_back_its_wall(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: a wall-hosted family"):
        symbol = _symbol(doc, DB.FamilyPlacementType.OneLevelBasedHosted, HOST_WALL, exclude=_OPENINGS)
        level = site.base_level(doc)
        x, y = site.spot(doc)
        wall = site.wall(doc, level, (x, y), (x + 20, y))
        asked = DB.XYZ(x + 10, y + 0.2, level.Elevation + 3.0)
        instance = doc.Create.NewFamilyInstance(asked, symbol, wall, level, _structural())
        doc.Regenerate()
    expect(instance.Host is not None and id_value(instance.Host.Id) == id_value(wall.Id), "its host is not the wall")
    placed = instance.Location.Point
    expect(site.near(placed.Y, y) and site.near(placed.X, x + 10),
           f"asked 0.2 ft beside the wall's line at {site.shown(asked)}, it stands at {site.shown(placed)}")
    expect(site.near(placed.Z, asked.Z), f"its Z is {placed.Z:.4f}, not the {asked.Z:.4f} asked")
    return f"'{symbol.Family.Name}' at {site.shown(placed)}, facing {site.shown(instance.FacingOrientation)}"


def wall_hosted_family_off_its_wall_is_refused(scratch):
    doc = scratch.doc
    attempt = DB.Transaction(doc, "Paracore check: a wall-hosted family off its wall")
    attempt.Start()
    try:
        symbol = _symbol(doc, DB.FamilyPlacementType.OneLevelBasedHosted, HOST_WALL, exclude=_OPENINGS)
        level = site.base_level(doc)
        x, y = site.spot(doc)
        wall = site.wall(doc, level, (x, y), (x + 20, y))
        refusal = site.refused(lambda: doc.Create.NewFamilyInstance(
            DB.XYZ(x + 10, y + 50, level.Elevation + 3.0), symbol, wall, level, _structural()), *REFUSALS)
    finally:
        site.ended(attempt)
    expect(refusal is not None, f"'{symbol.Family.Name}' was placed 50 ft off its host wall")
    return f"refused: {refusal}"


def ceiling_hosted_family_sits_on_the_ceiling(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: a ceiling-hosted family"):
        symbol = _symbol(doc, DB.FamilyPlacementType.OneLevelBasedHosted, HOST_CEILING)
        ceiling = _ceiling(doc)
        centre, box = _centre(ceiling)
        instance = doc.Create.NewFamilyInstance(centre, symbol, ceiling, _structural())
        doc.Regenerate()
    expect(instance.Host is not None and id_value(instance.Host.Id) == id_value(ceiling.Id),
           "its host is not the ceiling")
    placed = instance.Location.Point
    expect(site.near(placed.X, centre.X) and site.near(placed.Y, centre.Y),
           f"asked {site.shown(centre)}, it stands at {site.shown(placed)}")
    expect(site.near(placed.Z, box.Min.Z, 0.01), f"its Z {placed.Z:.4f} is not the ceiling's underside {box.Min.Z:.4f}")
    return f"'{symbol.Family.Name}' at {site.shown(placed)} in ceiling {id_value(ceiling.Id)}"


def ceiling_hosted_family_off_its_ceiling_is_refused(scratch):
    doc = scratch.doc
    attempt = DB.Transaction(doc, "Paracore check: a ceiling-hosted family off its ceiling")
    attempt.Start()
    try:
        symbol = _symbol(doc, DB.FamilyPlacementType.OneLevelBasedHosted, HOST_CEILING)
        ceiling = _ceiling(doc)
        x, y = site.spot(doc)
        refusal = site.refused(lambda: doc.Create.NewFamilyInstance(
            DB.XYZ(x + 500, y, 0), symbol, ceiling, _structural()), *REFUSALS)
    finally:
        site.ended(attempt)
    expect(refusal is not None, f"'{symbol.Family.Name}' was placed 500 ft beyond its ceiling")
    return f"refused: {refusal}"


def ceiling_hosted_family_in_a_wall_is_refused(scratch):
    doc = scratch.doc
    attempt = DB.Transaction(doc, "Paracore check: a ceiling-hosted family in a wall")
    attempt.Start()
    try:
        symbol = _symbol(doc, DB.FamilyPlacementType.OneLevelBasedHosted, HOST_CEILING)
        level = site.base_level(doc)
        x, y = site.spot(doc)
        wall = site.wall(doc, level, (x, y), (x + 20, y))
        refusal = site.refused(lambda: doc.Create.NewFamilyInstance(
            DB.XYZ(x + 10, y, level.Elevation + 3.0), symbol, wall, level, _structural()), *REFUSALS)
    finally:
        site.ended(attempt)
    expect(refusal is not None, f"the ceiling-hosted '{symbol.Family.Name}' was placed in a wall")
    return f"refused: {refusal}"


def face_based_family_is_placed_on_a_ceilings_underside(scratch):
    doc = scratch.doc
    with transaction(doc, "Paracore check: a face-based family"):
        symbol = _symbol(doc, DB.FamilyPlacementType.WorkPlaneBased)
        ceiling = _ceiling(doc)
        faces = list(DB.HostObjectUtils.GetBottomFaces(ceiling))
        expect(faces, "the ceiling has no bottom face")
        centre, box = _centre(ceiling)
        instance = doc.Create.NewFamilyInstance(faces[0], centre, DB.XYZ(1, 0, 0), symbol)
        doc.Regenerate()
    expect(instance.Host is not None and id_value(instance.Host.Id) == id_value(ceiling.Id),
           "its host is not the ceiling")
    expect(instance.HostFace is not None, "it has no HostFace")
    return f"'{symbol.Family.Name}' at {site.shown(instance.Location.Point)}"


def curve_based_family_at_a_point_is_refused(scratch):
    doc = scratch.doc
    attempt = DB.Transaction(doc, "Paracore check: a line-based family at a point")
    attempt.Start()
    try:
        symbol = _symbol(doc, DB.FamilyPlacementType.CurveBased)
        level = site.base_level(doc)
        x, y = site.spot(doc)
        refusal = site.refused(lambda: doc.Create.NewFamilyInstance(
            DB.XYZ(x, y, level.Elevation), symbol, level, _structural()), *REFUSALS)
    finally:
        site.ended(attempt)
    expect(refusal is not None, f"the line-based '{symbol.Family.Name}' was placed at a bare point")
    return f"refused: {refusal}"


def load_family_of_a_missing_file_loads_nothing(scratch):
    import os
    import tempfile
    from paracore.tools.families.load_tools import LoadOptions
    doc = scratch.doc
    missing = os.path.join(tempfile.gettempdir(), "Paracore check - no such family.rfa")
    expect(not os.path.exists(missing), f"{missing} exists")
    with transaction(doc, "Paracore check: load a missing family"):
        result = doc.LoadFamily(missing, LoadOptions())
    loaded = result[0] if isinstance(result, tuple) else result
    expect(loaded is False, f"LoadFamily of a missing file answered {result!r}")
    return f"LoadFamily answered {result!r}"


CHECKS = [
    ("a door family reads OneLevelBasedHosted, Host 1", door_family_reads_as_wall_hosted),
    ("an inactive type is refused", inactive_symbol_is_refused),
    ("a level-based family stands at its point on its level", level_based_family_stands_at_its_point),
    ("a level-based family given a wall as host is refused", level_based_family_given_a_wall_is_refused),
    ("a wall-hosted family reads back its wall", wall_hosted_family_reads_back_its_wall),
    ("a wall-hosted family off its wall is refused", wall_hosted_family_off_its_wall_is_refused),
    ("a ceiling-hosted family sits on the ceiling's underside", ceiling_hosted_family_sits_on_the_ceiling),
    ("a ceiling-hosted family off its ceiling is refused", ceiling_hosted_family_off_its_ceiling_is_refused),
    ("a ceiling-hosted family in a wall is refused", ceiling_hosted_family_in_a_wall_is_refused),
    ("a face-based family goes on a ceiling's bottom face", face_based_family_is_placed_on_a_ceilings_underside),
    ("a line-based family at a bare point is refused", curve_based_family_at_a_point_is_refused),
    ("LoadFamily of a missing file loads nothing", load_family_of_a_missing_file_loads_nothing),
]
