"""What the in-Revit run must leave as it found it, as one comparable value: every element's id
and a cheap fingerprint, and the state the tools touch outside the model (the active view, the
selection, each view's temporary hide/isolate, the user's working set).

run_checks.py takes one before the checks and one after, and its last row names what differs.
Revit offers no API to read the undo history, so that part is checked on the stand-in only.
"""
from Autodesk.Revit import DB

from paracore.revit import selection
from paracore.revit.context import id_value

# Parameters read for each element: what the tools write most (set_parameter, renumber_elements).
FINGERPRINT_PARAMETERS = (("Mark", DB.BuiltInParameter.ALL_MODEL_MARK),
                          ("Comments", DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS))
DIGITS = 6  # feet: a micro-foot; a rollback restores the exact values


def take(uidoc, session):
    """{"elements": {id: fingerprint}, "active view", "selection", "isolated views", "working set"}."""
    doc = uidoc.Document
    active = uidoc.ActiveView
    elements = {id_value(e.Id): fingerprint(e) for e in DB.FilteredElementCollector(doc).WhereElementIsNotElementType()}
    # Types: only whether they are there and their names (no check edits a type's parameters).
    elements.update((id_value(t.Id), (("type name", _guarded(lambda t=t: t.Name)),))
                    for t in DB.FilteredElementCollector(doc).WhereElementIsElementType())
    return {
        "elements": elements,
        "active view": id_value(active.Id) if active is not None else None,
        "selection": sorted(selection.selected_ids(uidoc)),
        "isolated views": sorted(id_value(v.Id) for v in isolated_views(doc)),
        "working set": list(session.working_set.ids),
    }


def differences(before, after, limit=6):
    """What differs between two ``take`` results, in short phrases; [] when nothing does."""
    found = []
    old, new = before["elements"], after["elements"]
    gone, added = sorted(old.keys() - new.keys()), sorted(new.keys() - old.keys())
    if gone:
        found.append(f"{len(gone)} element(s) gone: {_sample(gone)}")
    if added:
        found.append(f"{len(added)} element(s) added: {_sample(added)}")
    changed = [i for i in sorted(old.keys() & new.keys()) if old[i] != new[i]]
    for value in changed[:limit]:
        found.append(f"element {value} changed: {_changed_fields(old[value], new[value])}")
    if len(changed) > limit:
        found.append(f"… and {len(changed) - limit} more changed elements")
    for key in ("active view", "selection", "isolated views", "working set"):
        if before[key] != after[key]:
            found.append(f"{key}: {before[key]} before, {after[key]} after")
    return found


def fingerprint(element):
    """(category, type, level, location, name, parameters): cheap to read, and changed by any tool
    that moves, retypes, renames or edits an element."""
    return (("category", _guarded(lambda: _category_id(element))),
            ("type", _guarded(lambda: id_value(element.GetTypeId()))),
            ("level", _guarded(lambda: id_value(element.LevelId))),
            ("location", _guarded(lambda: _location(element.Location))),
            ("name", _guarded(lambda: element.Name)),
            *((name, _guarded(lambda bip=bip: _parameter_text(element, bip))) for name, bip in FINGERPRINT_PARAMETERS))


def isolated_views(doc):
    """The views in a temporary hide/isolate (templates cannot have one)."""
    found = []
    for view in DB.FilteredElementCollector(doc).OfClass(DB.View):
        if view.IsTemplate:
            continue
        try:
            if view.IsTemporaryHideIsolateActive():
                found.append(view)
        except Exception:  # noqa: BLE001, S112 - a view kind without temporary modes: none to find
            continue
    return found


def _category_id(element):
    category = element.Category
    return id_value(category.Id) if category is not None else None


def _location(location):
    if isinstance(location, DB.LocationPoint):
        return ("point", _xyz(location.Point), _guarded(lambda: round(location.Rotation, DIGITS)))
    if isinstance(location, DB.LocationCurve):
        curve = location.Curve
        if curve is None or not curve.IsBound:
            return ("curve", None)
        return ("curve", _xyz(curve.GetEndPoint(0)), _xyz(curve.GetEndPoint(1)))
    return None


def _xyz(point):
    return (round(point.X, DIGITS), round(point.Y, DIGITS), round(point.Z, DIGITS))


def _parameter_text(element, bip):
    parameter = element.get_Parameter(bip)
    return parameter.AsString() if parameter is not None else None


def _guarded(read):
    """A value Revit refuses to give for this element is fingerprinted as "?" (the same before
    and after), not an error that would stop the snapshot."""
    try:
        return read()
    except Exception:  # noqa: BLE001
        return "?"


def _changed_fields(old, new):
    if len(old) != len(new):  # an element type became an instance or back: say both
        return f"{old!r} -> {new!r}"
    return "; ".join(f"{key} {a!r} -> {b!r}" for (key, a), (_, b) in zip(old, new) if a != b)


def _sample(ids, shown=5):
    text = ", ".join(str(i) for i in ids[:shown])
    return text + (f", … and {len(ids) - shown} more" if len(ids) > shown else "")
