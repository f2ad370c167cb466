"""In-Revit checks of transactions, transaction groups, sub-transactions, regeneration and internal
units: the rows of docs/REVIT_BEHAVIOUR.md that name behaviour_checks/core.py.

Each check runs inside the transaction group the runner rolls back; what it commits there is undone
with it. A check opens its own transactions and closes them before it returns, whatever happens.
"""
from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException, InvalidOperationException

from behaviour_checks import _site as site
from kit import expect, transaction


def _scratch_wall(doc, offset=0.0):
    x, y = site.spot(doc)
    with transaction(doc, "Paracore check: scratch wall"):
        return site.wall(doc, site.base_level(doc), (x, y + offset), (x + 20.0, y + offset))


def _comments(element):
    return element.get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)


# -- transactions ---------------------------------------------------------------------------------------

def modification_outside_a_transaction(scratch):
    from Autodesk.Revit.Exceptions import ModificationOutsideTransactionException
    doc = scratch.doc
    wall = _scratch_wall(doc)
    expect(not doc.IsModifiable, "the document is modifiable with no transaction open")
    kinds = (ModificationOutsideTransactionException, InvalidOperationException)
    setting = site.refused(lambda: _comments(wall).Set("outside"), *kinds)
    deleting = site.refused(lambda: doc.Delete(wall.Id), *kinds)
    expect(setting is not None, "Parameter.Set outside a transaction changed the model")
    expect(deleting is not None, "Document.Delete outside a transaction deleted the wall")
    return f"Set: {setting}; Delete: {deleting}"


def one_transaction_at_a_time(scratch):
    first, second = DB.Transaction(scratch.doc, "Paracore check: first"), DB.Transaction(scratch.doc, "second")
    first.Start()
    try:
        refusal = site.refused(second.Start, InvalidOperationException)
    finally:
        site.ended(second)
        site.ended(first)
    expect(refusal is not None, "a second transaction started while the first was open")
    return f"second Start: {refusal}"


def transaction_needs_a_name(scratch):
    unnamed, empty = DB.Transaction(scratch.doc), DB.Transaction(scratch.doc)
    try:
        nameless = site.refused(unnamed.Start, InvalidOperationException)
        blank = site.refused(lambda: empty.Start(""), ArgumentException)
    finally:
        site.ended(unnamed)
        site.ended(empty)
    expect(nameless is not None, "a transaction without a name started")
    expect(blank is not None, "Start(\"\") started a transaction")
    return f"no name: {nameless}; Start(\"\"): {blank}"


def transaction_restarts_after_commit(scratch):
    doc = scratch.doc
    again = DB.Transaction(doc, "Paracore check: once")
    try:
        again.Start()
        expect(again.Commit() == DB.TransactionStatus.Committed, "the empty transaction did not commit")
        status = again.Start("Paracore check: twice")
        expect(status == DB.TransactionStatus.Started, f"a committed transaction started again as {status}")
        expect(again.GetName() == "Paracore check: twice", f"Start(name) left the name {again.GetName()!r}")
    finally:
        site.ended(again)
    return "committed, started again under a new name, rolled back"


def commit_needs_a_started_transaction(scratch):
    fresh = DB.Transaction(scratch.doc, "Paracore check: never started")
    before = site.refused(fresh.Commit, InvalidOperationException)
    fresh.Start()
    fresh.Commit()
    twice = site.refused(fresh.Commit, InvalidOperationException)
    back = site.refused(fresh.RollBack, InvalidOperationException)
    expect(before is not None, "Commit of a transaction never started did not raise")
    expect(twice is not None and back is not None, "Commit or RollBack of a committed transaction did not raise")
    return f"not started: {before}; committed twice: {twice}; rolled back after commit: {back}"


def rollback_discards_changes(scratch):
    doc = scratch.doc
    kept, removed = _scratch_wall(doc), _scratch_wall(doc, offset=30.0)
    kept_id, removed_id = kept.Id, removed.Id
    change = DB.Transaction(doc, "Paracore check: discarded")
    change.Start()
    try:
        _comments(kept).Set("discarded")
        level_id = DB.Level.Create(doc, 1000.0).Id
        doc.Delete(removed_id)
    finally:
        site.ended(change)
    expect(not (_comments(doc.GetElement(kept_id)).AsString() or ""), "the Comments set in the transaction stayed")
    expect(doc.GetElement(level_id) is None, "the level created in the transaction stayed")
    expect(doc.GetElement(removed_id) is not None, "the wall deleted in the transaction did not come back")
    return "parameter, new level and deletion all undone"


def dispose_rolls_back(scratch):
    doc = scratch.doc
    change = DB.Transaction(doc, "Paracore check: disposed")
    change.Start()
    level_id = DB.Level.Create(doc, 1000.0).Id
    change.Dispose()
    expect(not doc.IsModifiable, "the document is still modifiable after Dispose")
    expect(doc.GetElement(level_id) is None, "the level created before Dispose stayed")
    return "Dispose rolled the open transaction back"


# -- transaction groups -----------------------------------------------------------------------------

def _committed_level(doc, elevation):
    with transaction(doc, "Paracore check: level"):
        return DB.Level.Create(doc, elevation).Id


def group_rollback_undoes_commits(scratch):
    doc = scratch.doc
    group = DB.TransactionGroup(doc, "Paracore check: group")
    group.Start()
    try:
        ids = [_committed_level(doc, 1000.0), _committed_level(doc, 1010.0)]
    finally:
        site.ended(group)
    expect(all(doc.GetElement(i) is None for i in ids), "levels committed inside the group survived its rollback")
    return "two committed transactions undone by the group's rollback"


def group_needs_no_open_transaction(scratch):
    change = DB.Transaction(scratch.doc, "Paracore check: open")
    group = DB.TransactionGroup(scratch.doc, "Paracore check: late group")
    change.Start()
    try:
        refusal = site.refused(group.Start, InvalidOperationException)
    finally:
        site.ended(group)
        site.ended(change)
    expect(refusal is not None, "a transaction group started while a transaction was open")
    return f"group Start: {refusal}"


def group_cannot_end_with_open_transaction(scratch):
    group = DB.TransactionGroup(scratch.doc, "Paracore check: group")
    change = DB.Transaction(scratch.doc, "Paracore check: inside")
    group.Start()
    change.Start()
    try:
        refusal = site.refused(group.RollBack, InvalidOperationException)
    finally:
        site.ended(change)
        site.ended(group)
    expect(refusal is not None, "the group ended while a transaction inside it was open")
    return f"group RollBack: {refusal}"


def nested_groups_close_inner_first(scratch):
    outer = DB.TransactionGroup(scratch.doc, "Paracore check: outer")
    inner = DB.TransactionGroup(scratch.doc, "Paracore check: inner")
    outer.Start()
    inner.Start()
    try:
        refusal = site.refused(outer.RollBack, InvalidOperationException)
    finally:
        site.ended(inner)
        site.ended(outer)
    expect(refusal is not None, "the outer group ended while the inner one was open")
    return f"outer RollBack first: {refusal}"


def group_dispose_rolls_back(scratch):
    doc = scratch.doc
    group = DB.TransactionGroup(doc, "Paracore check: disposed group")
    group.Start()
    level_id = _committed_level(doc, 1000.0)
    group.Dispose()
    expect(doc.GetElement(level_id) is None, "the level committed in the disposed group stayed")
    return "Dispose rolled the group back"


# -- sub-transactions -------------------------------------------------------------------------------

def subtransaction_needs_a_transaction(scratch):
    sub = DB.SubTransaction(scratch.doc)
    refusal = site.refused(sub.Start, InvalidOperationException)
    site.ended(sub)
    expect(refusal is not None, "a sub-transaction started with no transaction open")
    return f"SubTransaction.Start: {refusal}"


def subtransaction_rollback_keeps_the_rest(scratch):
    doc = scratch.doc
    wall = _scratch_wall(doc)
    with transaction(doc, "Paracore check: outer"):
        _comments(wall).Set("kept")
        sub = DB.SubTransaction(doc)
        sub.Start()
        level_id = DB.Level.Create(doc, 1000.0).Id
        sub.RollBack()
    expect(_comments(wall).AsString() == "kept", "the change before the sub-transaction was lost")
    expect(doc.GetElement(level_id) is None, "the level of the rolled-back sub-transaction was committed")
    return "the sub-transaction's level undone, the transaction's Comments committed"


def subtransaction_commit_is_undone_with_its_transaction(scratch):
    doc = scratch.doc
    outer = DB.Transaction(doc, "Paracore check: outer")
    outer.Start()
    try:
        sub = DB.SubTransaction(doc)
        sub.Start()
        level_id = DB.Level.Create(doc, 1000.0).Id
        sub.Commit()
    finally:
        site.ended(outer)
    expect(doc.GetElement(level_id) is None, "a committed sub-transaction survived its transaction's rollback")
    return "the sub-transaction's commit went with the transaction's rollback"


def nested_subtransactions_close_inner_first(scratch):
    outer = DB.Transaction(scratch.doc, "Paracore check: outer")
    outer.Start()
    try:
        first, second = DB.SubTransaction(scratch.doc), DB.SubTransaction(scratch.doc)
        first.Start()
        second.Start()
        refusal = site.refused(first.Commit, InvalidOperationException)
        site.ended(second)
        site.ended(first)
    finally:
        site.ended(outer)
    expect(refusal is not None, "the outer sub-transaction committed while the inner one was open")
    return f"outer sub-transaction Commit first: {refusal}"


def commit_with_open_subtransaction(scratch):
    outer = DB.Transaction(scratch.doc, "Paracore check: outer")
    outer.Start()
    sub = DB.SubTransaction(scratch.doc)
    try:
        sub.Start()
        refusal = site.refused(outer.Commit, InvalidOperationException)
    finally:
        site.ended(sub)
        site.ended(outer)
    expect(refusal is not None, "the transaction committed while a sub-transaction was open")
    return f"Transaction.Commit: {refusal}"


# -- regeneration -----------------------------------------------------------------------------------

def regenerate_needs_a_transaction(scratch):
    refusal = site.refused(scratch.doc.Regenerate, InvalidOperationException)
    expect(refusal is not None, "Regenerate ran with no transaction open")
    return f"Regenerate outside a transaction: {refusal}"


def regenerate_updates_derived_values(scratch):
    doc = scratch.doc
    wall = _scratch_wall(doc)
    start = wall.Location.Curve.GetEndPoint(0)
    length = wall.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH)
    change = DB.Transaction(doc, "Paracore check: longer wall")
    change.Start()
    try:
        wall.Location.Curve = DB.Line.CreateBound(start, start.Add(DB.XYZ(35.0, 0.0, 0.0)))
        before = length.AsDouble()
        doc.Regenerate()
        after = length.AsDouble()
    finally:
        site.ended(change)
    expect(site.near(after, 35.0), f"Length reads {after:.4f} ft after Regenerate, not 35")
    return f"Length before Regenerate {before:.4f} ft, after {after:.4f} ft"


# -- internal units ---------------------------------------------------------------------------------

def internal_units_are_feet(scratch):
    metre = DB.UnitUtils.ConvertToInternalUnits(1.0, DB.UnitTypeId.Meters)
    expect(abs(metre - 1 / 0.3048) < 1e-12, f"1 m is {metre!r} internal units, not 1/0.3048 (feet)")
    wall = _scratch_wall(scratch.doc)
    length = wall.get_Parameter(DB.BuiltInParameter.CURVE_ELEM_LENGTH).AsDouble()
    expect(site.near(length, 20.0), f"a wall drawn 20 units long has Length {length:.6f}")
    return f"1 m = {metre:.10f} ft; a 20 ft wall reads {length:.4f}"


# The units each spec offers and what one of each is in internal units, by the published
# definitions (1 ft = 0.3048 m, 1 US survey ft = 1200/3937 m, 1 acre = 43,560 ft², 1 US gallon =
# 231 in³; slope internally rise/run). The composite formats convert as the unit they count in.
_FOOT, _SURVEY_FOOT = 0.3048, 1200 / 3937
VALID_UNITS = {
    "Length": {"Centimeters": 1 / 30.48, "Decimeters": 1 / 3.048, "Feet": 1.0, "FeetFractionalInches": 1.0,
               "FractionalInches": 1 / 12, "Inches": 1 / 12, "Meters": 1 / _FOOT, "MetersCentimeters": 1 / _FOOT,
               "Millimeters": 1 / 304.8, "UsSurveyFeet": _SURVEY_FOOT / _FOOT},
    "Area": {"Acres": 43560.0, "Hectares": 10_000 / _FOOT ** 2, "SquareCentimeters": 1 / 30.48 ** 2,
             "SquareFeet": 1.0, "SquareInches": 1 / 144, "SquareMeters": 1 / _FOOT ** 2,
             "SquareMillimeters": 1 / 304.8 ** 2},
    "Volume": {"CubicCentimeters": 1 / 30.48 ** 3, "CubicFeet": 1.0, "CubicInches": 1 / 1728,
               "CubicMeters": 1 / _FOOT ** 3, "CubicMillimeters": 1 / 304.8 ** 3, "CubicYards": 27.0,
               "Liters": 0.001 / _FOOT ** 3, "UsGallons": 231 / 1728},
    "Angle": {"Degrees": 3.141592653589793 / 180, "DegreesMinutes": 3.141592653589793 / 180,
              "Gradians": 3.141592653589793 / 200, "Radians": 1.0},
    "Slope": {"PerMille": 0.001, "Percentage": 0.01, "RatioTo1": 1.0, "RatioTo10": 0.1, "RatioTo12": 1 / 12,
              "RiseDividedBy1000Millimeters": 0.001, "RiseDividedBy10Feet": 0.1, "RiseDividedBy120Inches": 1 / 120,
              "RiseDividedBy12Inches": 1 / 12, "RiseDividedBy1Foot": 1.0,
              "SlopeDegrees": 0.017455064928217585,    # tan(1°)
              "OneToRatio": 1.0},                      # 1:1 is a rise of 1 over a run of 1
}


def valid_units_and_their_conversions(scratch):
    """UnitUtils.GetValidUnits lists, for each spec the spreadsheet writes, the units the stand-in
    offers, and ConvertToInternalUnits(1, unit) is the published definition (the spreadsheet writes
    and reads each through the same unit, so a difference here is the stand-in's, not Paracore's)."""
    wrong = []
    for spec, units in VALID_UNITS.items():
        valid = {unit.TypeId for unit in DB.UnitUtils.GetValidUnits(getattr(DB.SpecTypeId, spec))}
        expected = {getattr(DB.UnitTypeId, name).TypeId: name for name in units}
        if set(expected) != valid:
            wrong.append(f"{spec}: Revit offers {sorted(valid - set(expected))} more, "
                         f"{sorted(expected[t] for t in set(expected) - valid)} fewer")
        for name, internal in units.items():
            got = DB.UnitUtils.ConvertToInternalUnits(1.0, getattr(DB.UnitTypeId, name))
            if abs(got - internal) > 1e-12 * max(1.0, abs(internal)):
                wrong.append(f"1 {name} is {got!r} internal, not {internal!r}")
    units = scratch.doc.GetUnits()     # a copy: nothing here changes the document's units
    square_metres = DB.FormatOptions(DB.UnitTypeId.SquareMeters)
    refused = site.refused(lambda: units.SetFormatOptions(DB.SpecTypeId.Length, square_metres), ArgumentException)
    if refused is None:
        wrong.append("Units.SetFormatOptions took square metres for lengths")
    before = scratch.doc.GetUnits().GetFormatOptions(DB.SpecTypeId.Length).GetUnitTypeId().TypeId
    other = DB.UnitTypeId.Decimeters if before != DB.UnitTypeId.Decimeters.TypeId else DB.UnitTypeId.Feet
    options = units.GetFormatOptions(DB.SpecTypeId.Length)
    options.SetUnitTypeId(other)                       # a copy: the Units object keeps its own
    if units.GetFormatOptions(DB.SpecTypeId.Length).GetUnitTypeId().TypeId == other.TypeId:
        wrong.append("Units.GetFormatOptions returned the Units' own FormatOptions, not a copy")
    units.SetFormatOptions(DB.SpecTypeId.Length, options)
    now = scratch.doc.GetUnits().GetFormatOptions(DB.SpecTypeId.Length).GetUnitTypeId().TypeId
    if now != before:
        wrong.append(f"Document.GetUnits returned the document's own Units: its length unit became {now}")
    expect(not wrong, "; ".join(wrong))
    return f"{sum(len(u) for u in VALID_UNITS.values())} units of {len(VALID_UNITS)} specs as the stand-in has them"


def format_is_as_value_string(scratch):
    """UnitFormatUtils.Format(doc.GetUnits(), spec, value, False) writes a value as AsValueString writes a
    parameter of that spec holding it (a scratch wall's Length, Area and Volume); a spec that is not
    measurable and a value that is not finite are ArgumentExceptions."""
    wall = _scratch_wall(scratch.doc)
    units, shown, wrong = scratch.doc.GetUnits(), [], []
    for bip in (DB.BuiltInParameter.CURVE_ELEM_LENGTH, DB.BuiltInParameter.HOST_AREA_COMPUTED,
                DB.BuiltInParameter.HOST_VOLUME_COMPUTED):
        parameter = wall.get_Parameter(bip)
        if parameter is None or not parameter.HasValue:
            continue
        text = DB.UnitFormatUtils.Format(units, parameter.Definition.GetDataType(), parameter.AsDouble(), False)
        shown.append(text)
        if text != parameter.AsValueString():
            wrong.append(f"{parameter.Definition.Name}: Format gives {text!r}, "
                         f"AsValueString {parameter.AsValueString()!r}")
    text_spec = _comments(wall).Definition.GetDataType()        # Comments: text, not a measurable spec
    for spec, value, what in ((text_spec, 1.0, "a text spec"), (DB.SpecTypeId.Length, float("inf"), "infinity")):
        if site.refused(lambda s=spec, v=value: DB.UnitFormatUtils.Format(units, s, v, False), ArgumentException) is None:
            wrong.append(f"Format took {what}")
    expect(shown, "the scratch wall has no Length, Area or Volume with a value")
    expect(not wrong, "; ".join(wrong))
    return ", ".join(shown)


CHECKS = [
    ("modification outside a transaction is refused", modification_outside_a_transaction),
    ("one transaction at a time", one_transaction_at_a_time),
    ("a transaction needs a name", transaction_needs_a_name),
    ("a committed transaction starts again", transaction_restarts_after_commit),
    ("Commit needs a started transaction", commit_needs_a_started_transaction),
    ("RollBack discards the changes", rollback_discards_changes),
    ("Dispose rolls an open transaction back", dispose_rolls_back),
    ("a group's RollBack undoes its commits", group_rollback_undoes_commits),
    ("a group starts with no transaction open", group_needs_no_open_transaction),
    ("a group cannot end around an open transaction", group_cannot_end_with_open_transaction),
    ("nested groups close inner first", nested_groups_close_inner_first),
    ("Dispose rolls an open group back", group_dispose_rolls_back),
    ("a sub-transaction needs a transaction", subtransaction_needs_a_transaction),
    ("a sub-transaction's RollBack keeps the rest", subtransaction_rollback_keeps_the_rest),
    ("a committed sub-transaction goes with its transaction", subtransaction_commit_is_undone_with_its_transaction),
    ("nested sub-transactions close inner first", nested_subtransactions_close_inner_first),
    ("Commit with a sub-transaction open is refused", commit_with_open_subtransaction),
    ("Regenerate needs a transaction", regenerate_needs_a_transaction),
    ("Regenerate updates derived values", regenerate_updates_derived_values),
    ("internal units are feet", internal_units_are_feet),
    ("each spec's valid units and their conversions", valid_units_and_their_conversions),
    ("UnitFormatUtils.Format writes a value as AsValueString does", format_is_as_value_string),
]
