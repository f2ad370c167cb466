"""Modification tools: set a parameter, change the type, move, copy, rotate and delete elements.

Every tool takes ``element_ids`` (the working set when left out), checks the whole call against
the document before changing anything, and raises a ToolError that lists the valid choices when
the call cannot work. The executor runs each call in its own transaction: an error rolls back
everything the call changed. Results are bounded (counts and a short sample) and read back: after
the commit, the tool's declared change (``ToolOutput.change``) re-reads the model and says what is
really there.

Decisions:
- ``set_parameter(preview=True)`` is a dry run: the values are set inside a SubTransaction,
  read back as Revit displays them, and the SubTransaction is rolled back, so the preview shows
  exactly what Revit would store and the executor's transaction commits nothing. It is still a
  writing call (the executor opens a transaction, the approval prompt says "Preview only"), and
  the step may leave an undo entry that changes nothing (the stand-in keeps one). A separate read-only tool would have duplicated
  set_parameter's arguments and could not show Revit's own conversion of the new value.
- Type parameters are refused unless ``include_type_parameters`` is true, with the number of
  instances the change would reach; read-only parameters are always refused.
- Working sets: copies join the working set (policy "add"); the other tools leave it as it is
  (deleted ids leave it anyway).
- Pinned elements are not moved or rotated (the user pinned them so they stay put); the
  error names them. Copying them is fine.
- Doors and windows go with their host wall when it moves, rotates or is copied, as in Revit.
- Read-back (tools/framework/read_back.py): each tool declares how to compare what it changed (positions,
  hosts, types, stored values) with the request; the executor, after a Regenerate, reads it
  back inside the transaction, and anything not as asked (a door moved across its wall stays in
  the wall; a value Revit stored rounded) is an error and the change is rolled back.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.core.units import Angle, Length, format_angle, format_length
from paracore.core.working_set import singular
from paracore.tools.framework.lookup import (
    _normal,
    category_of,
    category_summary,
    choices_text,
    did_you_mean,
    element_label,
    id_sample,
    selector_name,
    type_of,
)
from paracore.tools.parameters.parameter_values import (
    convert_value,
    find_named_parameter,
    holds_value,
    is_yes_no,
    parameter_spec,
    plain_number,
    stored_value,
)
from paracore.tools.framework.read_back import ReadBack, same_point, shown_length
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.framework.wording import unique_ids

SAMPLE = 5              # elements described one by one in a result
SHOWN_TEXT = 80         # characters of a text value quoted in a result (long values are cut with "…")
MATCH_TOLERANCE = 1e-6  # feet: a re-read position within this is where it was sent
_EMPTY = "(empty)"


# --- argument models ---------------------------------------------------------------------------

_IDS = ("Revit element ids (integers). Leave null to use the working set.")
_OFFSET = ("How far to move, as [dx, dy] or [dx, dy, dz] in plan (+x east, +y north, +z up): numbers "
           "in the project's units or strings with a unit, e.g. [2, 0] or ['3 m', '0 m', '1 m'].")


class SetParameterArgs(BaseModel):
    element_ids: list[int] | None = None   # left out: the working set (the docstring says it)
    name: str = Field(description="As in Properties, e.g. 'Comments', 'Mark', 'Base Offset'.")
    value: str | float | bool = Field(
        description="Text as is; a length in project units or with a unit ('2.5 m'); an angle in degrees; "
                    "yes/no as true/false; a level or another element by its name ('Level 2').")
    include_type_parameters: bool = Field(
        False, description="Allow changing a type parameter (e.g. a wall type's 'Fire Rating'): it changes every "
                           "instance of the type. Only when the user wants that.")
    preview: bool = Field(
        False, description="True: show old → new for a sample of the elements and change nothing.")


class ChangeTypeArgs(BaseModel):
    element_ids: list[int] | None = Field(None, description=_IDS)
    type_name: str = Field(
        description="The new type, as Revit names it: a wall or floor type name ('Exterior - Brick on "
                    "Block') or a family type as 'Family: Type' ('M_Single-Flush: 0864 x 2032mm'). It "
                    "must be a type of the elements' own category.")


class MoveElementsArgs(BaseModel):
    element_ids: list[int] | None = Field(None, description=_IDS)
    offset: list[Length] = Field(min_length=2, max_length=3, description=_OFFSET)


class CopyElementsArgs(BaseModel):
    element_ids: list[int] | None = Field(None, description=_IDS)
    offset: list[Length] = Field(
        min_length=2, max_length=3,
        description="Where the copies go relative to the originals, as [dx, dy] or [dx, dy, dz]: numbers "
                    "in the project's units or strings with a unit, e.g. ['0 m', '10 m'].")


class RotateElementsArgs(BaseModel):
    element_ids: list[int] | None = Field(None, description=_IDS)
    angle: Angle = Field(description="Rotation in plan, counter-clockwise seen from above: degrees, or a "
                                     "string with a unit ('90°', '-45 deg', '1.57 rad'). Negative turns clockwise.")
    center: tuple[Length, Length] | None = Field(
        None, description="Point in plan to rotate about, as [x, y]. Leave null for the centre of the "
                          "elements' extent (their location points and line ends).")


class DeleteElementsArgs(BaseModel):
    element_ids: list[int] | None = Field(None, description=_IDS)


# --- shared helpers ---------------------------------------------------------------------------------


def _targets(ctx, ids) -> list:
    if not ids:
        raise ToolError("element_ids is empty: give at least one element id, or leave it out to use "
                        "the working set.")
    return ctx.elements(unique_ids(ids))


def _noun(elements) -> str:
    """ "3 walls, 1 door" (the category summary, lower case, for sentences); types are named as
    types: "1 wall type ('Generic - 200mm')"."""
    from Autodesk.Revit import DB
    types = [e for e in elements if isinstance(e, DB.ElementType)]
    others = [e for e in elements if not isinstance(e, DB.ElementType)]
    parts = [category_summary(others).lower()] if others else []
    by_category: dict[str, list] = {}
    for element_type in types:
        by_category.setdefault(singular(category_of(element_type)).lower(), []).append(element_type)
    for kind, members in by_category.items():
        names = choices_text([f"'{selector_name(t)}'" for t in members], 3)
        parts.append(f"{len(members)} {kind} type{'s' if len(members) != 1 else ''} ({names})")
    return ", ".join(parts)


def _ids_text(ids) -> str:
    ids = list(ids)
    return f"id{'s' if len(ids) != 1 else ''} {id_sample(ids, where='')}"


def _it(elements) -> str:
    return "it" if len(elements) == 1 else "them"


def _fmt(ctx, feet: float) -> str:
    return format_length(feet, ctx.length_unit)


def _point(ctx, xyz, z: bool = False) -> str:
    values = [xyz.X, xyz.Y, xyz.Z] if z else [xyz.X, xyz.Y]
    return "(" + ", ".join(_fmt(ctx, v) for v in values) + ")"


def _hosted_inserts(ctx, elements) -> list:
    """The doors and windows hosted by the host objects among ``elements`` (not in ``elements``)."""
    from Autodesk.Revit import DB
    given = {ctx.id_value(e.Id) for e in elements}
    found = {}
    for element in elements:
        if isinstance(element, DB.HostObject):
            for insert_id in element.FindInserts(True, False, False, False):
                value = ctx.id_value(insert_id)
                if value not in given and value not in found:
                    found[value] = ctx.doc.GetElement(insert_id)
    return [e for e in found.values() if e is not None]


def _with_hosted(ctx, elements) -> str:
    hosted = _hosted_inserts(ctx, elements)
    return f" (and the {_noun(hosted)} hosted in {_it(elements)})" if hosted else ""


# --- positions: what move, copy and rotate change and read back ---------------------------------------


def _position(element):
    """The element's place in plan: an XYZ, a (start, end) pair, or None (floors, no location)."""
    from Autodesk.Revit import DB
    location = element.Location
    if isinstance(location, DB.LocationPoint):
        return location.Point
    if isinstance(location, DB.LocationCurve):
        curve = location.Curve
        return (curve.GetEndPoint(0), curve.GetEndPoint(1))
    if isinstance(element, DB.Grid):     # a grid has no LocationCurve: its Curve is where it is
        return (element.Curve.GetEndPoint(0), element.Curve.GetEndPoint(1))
    return None


def _points(position) -> list:
    if position is None:
        return []
    return list(position) if isinstance(position, tuple) else [position]


def _host_and_level(ctx, element) -> str:
    """ " in wall 312, Level 1": where Revit says the element is hosted and on which level."""
    from Autodesk.Revit import DB
    parts = []
    host = element.Host if isinstance(element, DB.FamilyInstance) else None
    if host is not None:
        parts.append(f"in {element_label(ctx, host)}")
    level = ctx.doc.GetElement(element.LevelId) if ctx.id_value(element.LevelId) != -1 else None
    if level is not None:
        parts.append(level.Name)
    return (" " + ", ".join(parts)) if parts else ""


def _position_text(ctx, position) -> str:
    if isinstance(position, tuple):
        return f"from {_point(ctx, position[0])} to {_point(ctx, position[1])}"
    return f"at {_point(ctx, position)}"


def _same_plan(a, b) -> bool:
    return abs(a.X - b.X) <= MATCH_TOLERANCE and abs(a.Y - b.Y) <= MATCH_TOLERANCE


def _movable(ctx, elements, verb: str, pinned_ok: bool = False) -> None:
    """Refuse elements that cannot be moved (no location) or should not be (pinned)."""
    from Autodesk.Revit import DB
    fixed = [e for e in elements if _position(e) is None and not isinstance(e, DB.Floor)]
    if fixed:
        ids = [ctx.id_value(e.Id) for e in fixed]
        hint = (" To raise or lower a level, set its 'Elevation' with set_parameter."
                if any(isinstance(e, DB.Level) for e in fixed) else "")
        they = "it has" if len(fixed) == 1 else "they have"
        raise ToolError(f"{len(fixed)} of the elements cannot be {verb}: {they} no location in the model "
                        f"({_noun(fixed)}; {_ids_text(ids)}). Leave {'it' if len(fixed) == 1 else 'them'} "
                        f"out of element_ids.{hint}")
    pinned = [] if pinned_ok else [e for e in elements if e.Pinned]
    if pinned:
        ids = [ctx.id_value(e.Id) for e in pinned]
        raise ToolError(f"{len(pinned)} of the elements {'is' if len(pinned) == 1 else 'are'} pinned "
                        f"({_noun(pinned)}; {_ids_text(ids)}), so nothing was {verb}. Ask the user to unpin "
                        f"{'it' if len(pinned) == 1 else 'them'} in Revit, or leave "
                        f"{'it' if len(pinned) == 1 else 'them'} out of element_ids.")


def _offset(ctx, values):
    from Autodesk.Revit import DB
    dx, dy, *rest = (ctx.length(v) for v in values)
    offset = DB.XYZ(dx, dy, rest[0] if rest else 0.0)
    if offset.IsZeroLength():
        raise ToolError("offset is zero: give how far to move, e.g. ['2 m', 0].")
    return offset


def _vector_text(ctx, vector) -> str:
    return _point(ctx, vector, z=abs(vector.Z) > 1e-12)


@dataclass
class _Snapshot:
    """Positions before the change of the elements given and of the inserts their hosts carry,
    to check the change after the commit."""

    ids: list[int]
    before: dict[int, object]
    hosted_ids: list[int] = field(default_factory=list)
    rotations: dict[int, float] = field(default_factory=dict)   # LocationPoint.Rotation before


def _snapshot(ctx, elements) -> _Snapshot:
    hosted = _hosted_inserts(ctx, elements)
    everything = list(elements) + hosted
    return _Snapshot(ids=[ctx.id_value(e.Id) for e in elements],
                     before={ctx.id_value(e.Id): _position(e) for e in everything},
                     hosted_ids=[ctx.id_value(e.Id) for e in hosted],
                     rotations={ctx.id_value(e.Id): _rotation(e) for e in everything})


def _rotation(element) -> float | None:
    from Autodesk.Revit import DB
    location = element.Location
    return location.Rotation if isinstance(location, DB.LocationPoint) else None


def _compare_positions(ctx, read_back: ReadBack, snapshot: _Snapshot, expected_of, turn: float = 0.0) -> None:
    """Compare where every element (and every insert its host carries) is with where it was sent;
    ``turn`` is the rotation a point-based element should have gained."""
    for value in snapshot.ids + snapshot.hosted_ids:
        element = ctx.doc.GetElement(ctx.element_id(value))
        before = snapshot.before[value]
        if before is None:
            continue
        subject = element_label(ctx, element) if element is not None else f"element {value}"
        now = _position(element) if element is not None else None
        if isinstance(before, tuple):
            read_back.points(subject, "location line", [expected_of(p) for p in before],
                             list(now) if isinstance(now, tuple) else None)
        else:
            read_back.point(subject, "location", expected_of(before), now if not isinstance(now, tuple) else None)
        if turn and snapshot.rotations.get(value) is not None and element is not None:
            read_back.angle(subject, "rotation", snapshot.rotations[value] + turn, _rotation(element))


def _stays_in_host_hint(ctx, snapshot: _Snapshot, read_back: ReadBack, offset=None) -> str:
    """What to do when a door or window given on its own did not go where it was sent."""
    from Autodesk.Revit import DB
    hosted = {}
    differing = {d.subject for d in read_back.differences}
    for value in snapshot.ids:
        element = ctx.doc.GetElement(ctx.element_id(value))
        host = getattr(element, "Host", None) if isinstance(element, DB.FamilyInstance) else None
        if host is not None and element_label(ctx, element) in differing:
            hosted[value] = host
            break   # the hint names the first one
    if not hosted:
        return "Check the elements' hosts and constraints, then ask again."
    value, host = next(iter(hosted.items()))
    text = (f"A door or window stays in its host: {element_label(ctx, ctx.doc.GetElement(ctx.element_id(value)))} "
            f"is in {element_label(ctx, host)}, so Revit keeps only the part of the change along the wall.")
    curve = host.Location.Curve if isinstance(host.Location, DB.LocationCurve) else None
    if offset is not None and isinstance(curve, DB.Line):
        along = curve.Direction.Multiply(offset.DotProduct(curve.Direction))
        if along.GetLength() > 1e-6:
            text += f" To slide it along the wall, move it by {_point(ctx, along)}."
    return text + (" To put it elsewhere, move or rotate the wall with it, or delete it and place a new one "
                   "in another wall (place_doors_on_wall / place_windows_on_wall).")


def _check_positions(ctx, snapshot: _Snapshot, expected_of, ids=None) -> tuple[list, list, list]:
    """Re-read the elements: (placed as expected, placed elsewhere, not checkable) as elements."""
    placed, elsewhere, unchecked = [], [], []
    for value in snapshot.ids if ids is None else ids:
        element = ctx.doc.GetElement(ctx.element_id(value))
        if element is None:
            raise ToolError(f"Element {value} is no longer in the model after the change.")
        before, now = snapshot.before[value], _position(element)
        if before is None or now is None:
            unchecked.append(element)
            continue
        expected = [expected_of(p) for p in _points(before)]
        (placed if all(_same_plan(a, b) for a, b in zip(expected, _points(now))) else elsewhere).append(element)
    return placed, elsewhere, unchecked


def _sample_positions(ctx, elements) -> str:
    lines = [f"{element_label(ctx, e)} {_position_text(ctx, _position(e))}{_host_and_level(ctx, e)}"
             for e in elements[:SAMPLE] if _position(e) is not None]
    if not lines:
        return ""
    more = f"; … and {len(elements) - SAMPLE} more" if len(elements) > SAMPLE else ""
    return " Now: " + "; ".join(lines) + more + "."


def _placement_report(ctx, snapshot, expected_of, where: str) -> tuple[str, list]:
    """(the sentence saying where the elements are now, the elements re-read)."""
    placed, elsewhere, unchecked = _check_positions(ctx, snapshot, expected_of)
    total = len(snapshot.ids)
    text = (f" {len(placed)} of {total} {'is' if total == 1 else 'are'} now at "
            f"{'its' if total == 1 else 'their'} {where} position{'' if total == 1 else 's'}.")
    if snapshot.hosted_ids:
        went, _, _ = _check_positions(ctx, snapshot, expected_of, snapshot.hosted_ids)
        n = len(snapshot.hosted_ids)
        text += (f" The {n} door{'s' if n != 1 else ''}/window{'s' if n != 1 else ''} hosted in "
                 f"{'it' if total == 1 else 'them'}: {len(went)} of {n} went with "
                 f"{'it' if total == 1 else 'them'}.")
    if elsewhere:
        ids = [ctx.id_value(e.Id) for e in elsewhere]
        text += (f" {len(elsewhere)} ended up elsewhere ({id_sample(ids, where='')}): doors and windows "
                 "stay in their host wall and slide along it.")
    if unchecked:
        text += f" {len(unchecked)} ({category_summary(unchecked)}) have no location point or line to check."
    return text, placed + elsewhere


# --- set_parameter -------------------------------------------------------------------------------------



@dataclass
class _Target:
    """One parameter to set: on an element given, or on the type of elements given."""

    owner: object              # the element that carries the parameter (an instance or a type)
    parameter: object
    new: object = None         # the value to store (float, int, str, or an element id int)
    shown: str = ""            # the new value as written back to the model ("2.50 m")


@dataclass
class _ParameterPlan:
    name: str
    elements: list
    targets: list[_Target]
    on_types: bool = False     # the parameter is a type parameter
    instances: int = 0         # instances of those types in the model
    skipped: list = field(default_factory=list)


def _instances_of(ctx, element_type) -> int:
    from Autodesk.Revit import DB
    collector = DB.FilteredElementCollector(ctx.doc).WhereElementIsNotElementType()
    if element_type.Category is not None:
        collector = collector.OfCategoryId(element_type.Category.Id)
    return sum(1 for e in collector if e.GetTypeId() == element_type.Id)


def _plan_parameter(ctx, args: SetParameterArgs) -> _ParameterPlan:
    """Find the parameter on each element (or its type) and check the call; reads only."""
    from Autodesk.Revit import DB
    elements = _targets(ctx, args.element_ids)
    instance_hits, type_hits, skipped = [], {}, []
    for element in elements:
        parameter = find_named_parameter(element, args.name)
        if parameter is not None:
            instance_hits.append(_Target(element, parameter))
            continue
        element_type = type_of(ctx, element)
        type_parameter = find_named_parameter(element_type, args.name) if element_type is not None else None
        if type_parameter is not None:
            type_hits.setdefault(ctx.id_value(element_type.Id), _Target(element_type, type_parameter))
        else:
            skipped.append(element)
    if not instance_hits and not type_hits:
        raise ToolError(_unknown_parameter(ctx, args.name, elements))

    # A type parameter, or the parameter of a type given by id: every instance of the type changes.
    types = [t.owner for t in type_hits.values()] + [t.owner for t in instance_hits
                                                      if isinstance(t.owner, DB.ElementType)]
    instances = sum(_instances_of(ctx, t) for t in types)
    if type_hits and not args.include_type_parameters:
        names = [selector_name(t.owner) for t in type_hits.values()]
        which = (f"of the type '{names[0]}'" if len(names) == 1
                 else f"of {len(names)} types ({choices_text(names, 5)})")
        raise ToolError(
            f"'{args.name}' is a type parameter {which}: changing it changes every instance of "
            f"{'that type' if len(names) == 1 else 'these types'} in the model — {instances} "
            f"element{'s' if instances != 1 else ''}, not only the {len(elements)} given. Call "
            "set_parameter again with include_type_parameters=true if the user wants that; to change "
            "only some elements, give them another type with change_type.")
    targets = instance_hits + list(type_hits.values())
    read_only = [t for t in targets if t.parameter.IsReadOnly]
    if read_only:
        owners = [t.owner for t in read_only]
        raise ToolError(
            f"'{read_only[0].parameter.Definition.Name}' is read-only on {_noun(owners)}: Revit computes it "
            "(from the geometry, the type or other parameters) and it cannot be set. Change what it is "
            "computed from instead (e.g. move or re-create the element, or change its type).")
    for target in targets:
        target.new = convert_value(ctx, target.parameter, args.value, args.name)
    return _ParameterPlan(name=targets[0].parameter.Definition.Name, elements=elements, targets=targets,
                          on_types=bool(types), instances=instances, skipped=skipped)


def _unknown_parameter(ctx, name: str, elements) -> str:
    instance_names, type_names = [], []
    for element in elements[:20]:
        for parameter in element.Parameters:
            instance_names.append(parameter.Definition.Name)
        element_type = type_of(ctx, element)
        if element_type is not None:
            type_names += [p.Definition.Name for p in element_type.Parameters]
    instance_names = list(dict.fromkeys(instance_names))
    type_names = [n for n in dict.fromkeys(type_names) if n not in instance_names]
    text = f"No parameter named '{name}' on {_noun(elements)}.{did_you_mean(name, instance_names + type_names)}"
    text += f" Their parameters: {choices_text(instance_names, 20)}."
    if type_names:
        text += f" Type parameters (need include_type_parameters=true): {choices_text(type_names, 10)}."
    return text


def _given(value) -> str:
    """The value as the model gave it, for sentences: 'text', 3, 2.5, true."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return plain_number(value) if isinstance(value, float) else f"'{_clip(str(value))}'"


def _clip(text: str) -> str:
    """A value for a sentence: one line, unsafe characters escaped, long texts (a page of
    Comments) cut, so results stay short and a value cannot pass for a line of the result."""
    return display_text(text, SHOWN_TEXT)


def _shown(ctx, parameter) -> str:
    """The parameter's value as Revit displays it (a long text cut to SHOWN_TEXT characters)."""
    from Autodesk.Revit import DB
    storage = parameter.StorageType
    if storage == DB.StorageType.String:
        text = parameter.AsString()
        return f"'{_clip(text)}'" if text else _EMPTY
    if storage == DB.StorageType.ElementId:
        element = ctx.doc.GetElement(parameter.AsElementId())
        return f"'{_clip(element.Name)}'" if element is not None else "(none)"
    text = parameter.AsValueString()
    return _clip(text) if text else _EMPTY


def _set(ctx, target: _Target, name: str) -> None:
    from Autodesk.Revit import DB
    new = ctx.element_id(target.new) if target.parameter.StorageType == DB.StorageType.ElementId else target.new
    if not target.parameter.Set(new):
        raise ToolError(f"Revit refused the value for '{name}' on {element_label(ctx, target.owner)}.")


def _subject(ctx, plan: _ParameterPlan) -> str:
    """ "12 walls" or "the type 'Exterior - Brick on Block' (23 instances)"."""
    if not plan.on_types:
        return _noun([t.owner for t in plan.targets])
    types = list(dict.fromkeys(selector_name(t.owner) for t in plan.targets))
    what = f"the type '{types[0]}'" if len(types) == 1 else f"{len(types)} types ({choices_text(types, 5)})"
    return f"{what} — this changes {plan.instances} instance{'s' if plan.instances != 1 else ''}"


def _describe_set_parameter(ctx, args: SetParameterArgs) -> str:
    try:
        plan = _plan_parameter(ctx, args)
    except ToolError:
        count = len(args.element_ids or [])
        return f"Set '{args.name}' to {_given(args.value)} on {count} element{'s' if count != 1 else ''}"
    text = f"Set '{plan.name}' to {_given(args.value)} on {_subject(ctx, plan)}"
    return ("Preview only, nothing changes: " + text[0].lower() + text[1:]) if args.preview else text


def _set_parameter_targets(ctx, args: SetParameterArgs) -> list[int]:
    """With include_type_parameters, what the call changes may be the elements' types, not the elements:
    the ids it changes, for a workshared model to borrow (hosts/revit/targets.py). Otherwise none: its
    element_ids are what it changes (or, with preview, nothing is)."""
    if args.preview or not args.include_type_parameters or not ctx.doc.IsWorkshared:
        return []
    present = [i for i in args.element_ids or () if ctx.doc.GetElement(ctx.element_id(i)) is not None]
    plan = _plan_parameter(ctx, args.model_copy(update={"element_ids": present}))   # missing ids: left out, named
    return list(dict.fromkeys(ctx.id_value(t.owner.Id) for t in plan.targets))


def _leave_out_held(ctx, plan: _ParameterPlan) -> str:
    """Drop the targets a workshared model does not let this user change now, naming each with why, and
    those a preview must not try (worksharing_targets.leave_out_held)."""
    owners = {ctx.id_value(t.owner.Id): t.owner for t in plan.targets}
    kept, note = targets_of.leave_out_held(ctx, list(owners.values()), lambda e: element_label(ctx, e))
    keep = set(targets_of.ids_of(ctx, kept))
    plan.targets = [t for t in plan.targets if ctx.id_value(t.owner.Id) in keep]
    return note


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_set_parameter,
      changes=lambda args: not args.preview and not args.include_type_parameters, targets=_set_parameter_targets)
def set_parameter(ctx, args: SetParameterArgs):
    """Set one parameter to one value on elements (the working set when element_ids is left out).

    Instance parameters are found first; a type parameter is refused unless include_type_parameters
    is true (the error says how many instances it would change). Read-only parameters are refused;
    elements without the parameter are skipped and counted. The result re-reads every parameter and
    says how many hold the new value.
    """
    plan = _plan_parameter(ctx, args)
    held_note = _leave_out_held(ctx, plan) if args.include_type_parameters else ""
    if not plan.targets:     # a preview: none of them is the user's yet (the approval says so)
        return f"Not tried: none of what it changes is borrowed by you yet.{held_note}"
    old = [_shown(ctx, t.parameter) for t in plan.targets[:SAMPLE]]
    if args.preview:
        return _preview(ctx, plan, old)
    for target in plan.targets:
        _set(ctx, target, plan.name)
    ids = [(ctx.id_value(t.owner.Id), t.new) for t in plan.targets]
    subject = _subject(ctx, plan)
    skipped = _skipped_note(ctx, plan) + held_note

    def compare(read_back: ReadBack) -> None:
        for value, new, owner, parameter, holds in _stored_values(ctx, plan.name, ids):
            if not holds:
                asked = _stored_text(ctx, plan.targets[0].parameter, new)
                got = _stored_text(ctx, parameter, stored_value(ctx, parameter)) if parameter is not None else "no such parameter"
                read_back.same(f"{element_label(ctx, owner)}" if owner is not None else f"element {value}",
                               f"'{plan.name}'", asked, got)

    def report() -> str:
        holding, differing, shown = [], [], None
        for value, _, _, parameter, holds in _stored_values(ctx, plan.name, ids):
            if holds:
                holding.append(value)
                shown = shown or _shown(ctx, parameter)
            else:
                differing.append(value)
        text = f"Set '{plan.name}' on {subject}: {len(holding)} of {len(ids)} now read {shown or _given(args.value)}"
        text += "." if not differing else (f"; {len(differing)} do not ({id_sample(differing, where='')}).")
        changes = [f"{element_label(ctx, t.owner)}: {o} → {shown}" for t, o in zip(plan.targets, old)
                   if ctx.id_value(t.owner.Id) in holding]
        if changes:
            text += " " + "; ".join(changes) + (f"; … and {len(ids) - len(changes)} more" if len(ids) > len(changes) else "") + "."
        return text + skipped

    return ToolOutput(change=Change(
        action=f"Setting '{plan.name}' to {_given(args.value)} on {subject}", compare=compare, report=report,
        hint="Revit stores only what the element allows (a family's formula, a value range or a type catalogue "
             "may round or clamp a value): read the allowed values with get_parameters, then ask again with one "
             "of them."))


def _stored_values(ctx, name: str, ids: list[tuple[int, object]]):
    """(id, value asked, element, its parameter ``name``, whether it holds the value) for each element set."""
    for value, new in ids:
        owner = ctx.doc.GetElement(ctx.element_id(value))
        parameter = find_named_parameter(owner, name) if owner is not None else None
        yield value, new, owner, parameter, parameter is not None and holds_value(ctx, parameter, new)


def _stored_text(ctx, parameter, raw) -> str:
    """A stored value (internal units, ids as ints) in display units, to compare asked and read back."""
    from Autodesk.Revit import DB
    storage = parameter.StorageType
    if storage == DB.StorageType.String:
        return f"'{_clip(raw)}'" if raw else _EMPTY
    if storage == DB.StorageType.ElementId:
        element = ctx.doc.GetElement(ctx.element_id(raw)) if raw != -1 else None
        return f"'{_clip(element.Name)}'" if element is not None else "(none)"
    if storage == DB.StorageType.Integer:
        return ("yes" if raw else "no") if is_yes_no(parameter) else str(raw)
    spec = parameter_spec(parameter)
    if not math.isfinite(raw):
        return shown_length(raw, ctx.length_unit)   # "not a number", "infinity"
    if spec == DB.SpecTypeId.Length:
        return _fmt(ctx, raw)
    if spec == DB.SpecTypeId.Angle:
        return format_angle(raw)
    if DB.UnitUtils.IsMeasurableSpec(spec):
        return f"{DB.UnitUtils.ConvertFromInternalUnits(raw, parameter.GetUnitTypeId()):.6g}"
    return f"{raw:.6g}"


def _preview(ctx, plan: _ParameterPlan, old: list[str]) -> str:
    """Set the values in a SubTransaction, read them back as Revit shows them, roll it back."""
    from Autodesk.Revit import DB
    before = [stored_value(ctx, t.parameter) for t in plan.targets[:SAMPLE]]
    sub = DB.SubTransaction(ctx.doc)
    sub.Start()
    try:
        for target in plan.targets:
            _set(ctx, target, plan.name)
        new = [_shown(ctx, t.parameter) for t in plan.targets[:SAMPLE]]
    finally:
        sub.RollBack()
    unchanged = sum(1 for t, b in zip(plan.targets, before) if stored_value(ctx, t.parameter) == b)
    lines = [f"{element_label(ctx, t.owner)}: {o} → {n}" for t, o, n in zip(plan.targets, old, new)]
    more = f"; … and {len(plan.targets) - len(lines)} more" if len(plan.targets) > len(lines) else ""
    text = (f"Preview, nothing was changed: setting '{plan.name}' on {_subject(ctx, plan)} would give "
            + "; ".join(lines) + more + ".")
    if unchanged != len(lines):
        text += " (Reading back after the preview found some values changed: check the model.)"
    return text + _skipped_note(ctx, plan) + " Call set_parameter without preview to apply it."


def _skipped_note(ctx, plan: _ParameterPlan) -> str:
    if not plan.skipped:
        return ""
    ids = [ctx.id_value(e.Id) for e in plan.skipped]
    return (f" {len(ids)} element{'s' if len(ids) != 1 else ''} ({category_summary(plan.skipped)}) "
            f"{'have' if len(ids) != 1 else 'has'} no parameter '{plan.name}' and "
            f"{'were' if len(ids) != 1 else 'was'} left alone: {id_sample(ids, where='')}.")


# --- change_type -------------------------------------------------------------------------------------------


def _types_for(ctx, element) -> list:
    """The types ``element`` may take (its category's types that Revit accepts for it)."""
    from Autodesk.Revit import DB
    candidates = DB.FilteredElementCollector(ctx.doc).OfCategoryId(element.Category.Id).WhereElementIsElementType()
    return [t for t in candidates if element.IsValidType(t.Id)]


def _match_type(types, name: str):
    key = _normal(name)
    for matches in ([t for t in types if selector_name(t) == name], [t for t in types if _normal(selector_name(t)) == key],
                    [t for t in types if _normal(t.Name) == key]):
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ToolError(f"Several types are named '{name}': {choices_text(selector_name(t) for t in matches)}. "
                            "Give type_name as 'Family: Type'.")
    return None


def _plan_change_type(ctx, args: ChangeTypeArgs):
    from Autodesk.Revit import DB
    elements = _targets(ctx, args.element_ids)
    untyped = [e for e in elements if isinstance(e, DB.ElementType) or e.Category is None
               or ctx.id_value(e.GetTypeId()) == -1]
    if untyped:
        ids = [ctx.id_value(e.Id) for e in untyped]
        raise ToolError(f"{len(untyped)} of the elements have no type to change ({category_summary(untyped)}; "
                        f"ids {id_sample(ids, where='')}). Leave them out of element_ids.")
    by_category: dict[str, list] = {}
    for element in elements:
        by_category.setdefault(category_of(element), []).append(element)
    new_types = {}
    for category, members in by_category.items():
        types = _types_for(ctx, members[0])
        found = _match_type(types, args.type_name)
        if found is None:
            labels = [selector_name(t) for t in types]
            others = "" if len(by_category) == 1 else f" (for the {_noun(members)} among the elements)"
            raise ToolError(f"No {singular(category).lower()} type named '{args.type_name}'{others}."
                            f"{did_you_mean(args.type_name, labels)} {singular(category)} types: {choices_text(labels)}.")
        new_types[category] = found
    return elements, new_types


def _describe_change_type(ctx, args: ChangeTypeArgs) -> str:
    elements, _ = _plan_change_type(ctx, args)
    return f"Change {_noun(elements)} to the type '{args.type_name}'"


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_change_type)
def change_type(ctx, args: ChangeTypeArgs):
    """Give elements another type of their own category (e.g. walls to another wall type, doors to
    another door size). Lists the valid types when type_name is not one. The result re-reads each
    element's type.
    """
    elements, new_types = _plan_change_type(ctx, args)
    old = Counter(selector_name(ctx.doc.GetElement(e.GetTypeId())) for e in elements)
    changes = []
    already = 0
    for element in elements:
        new_type = new_types[category_of(element)]
        if element.GetTypeId() == new_type.Id:
            already += 1
        else:
            element.ChangeTypeId(new_type.Id)
        changes.append((ctx.id_value(element.Id), ctx.id_value(new_type.Id), selector_name(new_type)))

    def compare(read_back: ReadBack) -> None:
        for value, _, label in changes:
            element = ctx.doc.GetElement(ctx.element_id(value))
            got = selector_name(ctx.doc.GetElement(element.GetTypeId())) if element is not None else "no element"
            read_back.same(f"{element_label(ctx, element)}" if element is not None else f"element {value}", "type",
                           f"'{label}'", f"'{got}'")

    def report() -> str:
        now = [ctx.doc.GetElement(ctx.element_id(value)) for value, _, _ in changes]
        right = [e for e, (_, type_id, _) in zip(now, changes)
                 if e is not None and ctx.id_value(e.GetTypeId()) == type_id]
        labels = list(dict.fromkeys(label for _, _, label in changes))
        was = ", ".join(f"{n} '{label}'" for label, n in old.most_common(3))
        if len(old) > 3:
            was += f" and {len(old) - 3} other types"
        text = (f"Changed the type of {_noun(elements)} to '{' / '.join(labels)}': {len(right)} of "
                f"{len(changes)} now have it (before: {was}).")
        if already:
            text += f" {already} already had it."
        wrong = [value for (value, type_id, _), e in zip(changes, now)
                 if e is None or ctx.id_value(e.GetTypeId()) != type_id]
        if wrong:
            text += f" These do not: {id_sample(wrong, where='')}."
        return text

    return ToolOutput(change=Change(
        action=f"Changing the type of {_noun(elements)} to '{args.type_name}'", compare=compare, report=report,
        hint="Revit keeps a type it cannot swap (a hosted element whose host does not fit it, a type of another "
             "family kind): check the elements and the type with get_element_info."))


# --- move, copy, rotate ------------------------------------------------------------------------------------


def _describe_move(ctx, args: MoveElementsArgs) -> str:
    elements = _targets(ctx, args.element_ids)
    return f"Move {_noun(elements)}{_with_hosted(ctx, elements)} by {_vector_text(ctx, _offset(ctx, args.offset))}"


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_move,
      takes_along_hosted=True)
def move_elements(ctx, args: MoveElementsArgs):
    """Move elements by an offset [dx, dy] or [dx, dy, dz] (the working set when element_ids is left out).

    Doors and windows move with their host wall; a door or window moved on its own stays in its
    wall: only a move along the wall works, and a move with a part across the wall is an error
    that changes nothing and gives the along-wall part. Moving up or down changes the elements'
    offsets from their level (a wall's Base Offset, a window's Sill Height). Pinned elements are
    refused. The result re-reads where the elements are, their host and level; anything not where
    it was sent is an error and nothing moves.
    """
    from Autodesk.Revit import DB

    elements = _targets(ctx, args.element_ids)
    _movable(ctx, elements, "moved")
    offset = _offset(ctx, args.offset)
    snapshot = _snapshot(ctx, elements)
    DB.ElementTransformUtils.MoveElements(ctx.doc, ctx.element_id_list(snapshot.ids), offset)
    moved = f"Moved {_noun(elements)} by {_vector_text(ctx, offset)}."

    def report() -> str:
        placement, now = _placement_report(ctx, snapshot, lambda p: p.Add(offset), "new")
        return moved + placement + _sample_positions(ctx, now)

    return ToolOutput(change=Change(
        action=f"Moving {_noun(elements)} by {_vector_text(ctx, offset)}", report=report,
        compare=lambda read_back: _compare_positions(ctx, read_back, snapshot, lambda p: p.Add(offset)),
        hint=lambda read_back: _stays_in_host_hint(ctx, snapshot, read_back, offset)))


def _describe_copy(ctx, args: CopyElementsArgs) -> str:
    elements = _targets(ctx, args.element_ids)
    return f"Copy {_noun(elements)}{_with_hosted(ctx, elements)} by {_vector_text(ctx, _offset(ctx, args.offset))}"


@tool(writes=True, working_set_policy="add", needs_element_ids=True, describe=_describe_copy,
      changes=lambda args: False)   # the originals are read: copying changes none of them
def copy_elements(ctx, args: CopyElementsArgs):
    """Copy elements by an offset [dx, dy] or [dx, dy, dz] (the working set when element_ids is left out).

    Copying a wall copies the doors and windows it hosts, as in Revit. The copies join the
    working set. The result lists the new ids and re-reads where the copies are.
    """
    from Autodesk.Revit import DB

    elements = _targets(ctx, args.element_ids)
    _movable(ctx, elements, "copied", pinned_ok=True)
    offset = _offset(ctx, args.offset)
    hosted = _hosted_inserts(ctx, elements)
    originals = _snapshot(ctx, elements)
    new_ids = [ctx.id_value(i) for i in DB.ElementTransformUtils.CopyElements(
        ctx.doc, ctx.element_id_list([e.Id for e in elements]), offset)]
    copied = f"Copied {_noun(elements)}" + (f" with the {_noun(hosted)} hosted in {_it(elements)}" if hosted else "")

    def report() -> str:
        copies, missing = [], []
        for value in new_ids:
            element = ctx.doc.GetElement(ctx.element_id(value))
            (copies.append(element) if element is not None else missing.append(value))
        if not copies:
            raise ToolError("Revit reported copies, but none of them is in the model.")
        text = (f"{copied} by {_vector_text(ctx, offset)}: {len(copies)} new element"
                f"{'s' if len(copies) != 1 else ''} ({category_summary(copies)}), ids {id_sample(new_ids)}.")
        if missing:
            text += f" {len(missing)} reported copies are not in the model: {id_sample(missing, where='')}."
        in_set = set(ctx.session.working_set.ids)
        if all(ctx.id_value(e.Id) in in_set for e in copies):
            text += " They joined the working set."
        return text + _sample_positions(ctx, copies)

    return ToolOutput(change=Change(
        action=f"Copying {_noun(elements)} by {_vector_text(ctx, offset)}", report=report,
        compare=lambda read_back: _compare_copies(ctx, read_back, originals, new_ids, offset),
        hint="Check the elements' hosts and constraints, then ask again."))


def _compare_copies(ctx, read_back: ReadBack, originals: _Snapshot, new_ids: list[int], offset) -> None:
    """Each copy must sit where an original of its category sits, shifted by ``offset`` (Revit does
    not say which copy is of which original), and a copied door or window must be hosted by a copy.
    The shifted originals are indexed by a grid cell of their first point, so 20,000 copies are
    matched in linear time."""
    from Autodesk.Revit import DB
    read_back.same("the copy", "number of new elements", len(originals.before), len(new_ids))
    expected = _shifted_by_cell(ctx, originals, offset)
    for value in new_ids:
        copy = ctx.doc.GetElement(ctx.element_id(value))
        if copy is None:
            read_back.same(f"copy {value}", "existence", "in the model", "not in the model")
            continue
        now = _points(_position(copy))
        if now:
            candidates = [t for t in _near_cells(expected, category_of(copy), now[0]) if len(t) == len(now)]
            if candidates and not any(all(same_point(a, b) for a, b in zip(t, now)) for t in candidates):
                read_back.points(element_label(ctx, copy), "location", candidates[0], now)
            elif not candidates:
                read_back.same(element_label(ctx, copy), "location", f"an original's place moved by {_vector_text(ctx, offset)}",
                               " to ".join(read_back.format_point(p) for p in now))
        host = copy.Host if isinstance(copy, DB.FamilyInstance) else None
        if host is not None and ctx.id_value(host.Id) in originals.ids:  # its wall was copied too
            read_back.same(element_label(ctx, copy), "host", "the copy of its wall", element_label(ctx, host))


CELL = 1e-3   # feet: the grid that indexes copies' expected places (far above LENGTH_TOLERANCE)


def _cell(point) -> tuple[int, int]:
    return (math.floor(point.X / CELL), math.floor(point.Y / CELL))


def _shifted_by_cell(ctx, originals: _Snapshot, offset) -> dict:
    """{(category, cell of the first point): [shifted points of each original there]}."""
    index: dict = {}
    for value, before in originals.before.items():
        points = [p.Add(offset) for p in _points(before)]
        if points:
            element = ctx.doc.GetElement(ctx.element_id(value))
            index.setdefault((category_of(element), _cell(points[0])), []).append(points)
    return index


def _near_cells(index: dict, category: str, point) -> list:
    """The shifted originals of ``category`` whose first point is in the 3 x 3 cells around ``point``."""
    x, y = _cell(point)
    return [t for dx in (-1, 0, 1) for dy in (-1, 0, 1) for t in index.get((category, (x + dx, y + dy)), ())]


def _center(ctx, elements, given):
    """The rotation centre: the one given, or the middle of the elements' location points."""
    from Autodesk.Revit import DB
    if given is not None:
        return DB.XYZ(ctx.length(given[0]), ctx.length(given[1]), 0.0)
    points = [p for e in elements for p in _points(_position(e))]
    if not points:
        raise ToolError("These elements have no location points to find their centre from: give center "
                        "as [x, y].")
    xs, ys = [p.X for p in points], [p.Y for p in points]
    return DB.XYZ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, 0.0)


def _rotated(center, angle: float):
    cos, sin = math.cos(angle), math.sin(angle)

    def expected(point):
        from Autodesk.Revit import DB
        dx, dy = point.X - center.X, point.Y - center.Y
        return DB.XYZ(center.X + cos * dx - sin * dy, center.Y + sin * dx + cos * dy, point.Z)
    return expected


def _describe_rotate(ctx, args: RotateElementsArgs) -> str:
    elements = _targets(ctx, args.element_ids)
    center = _center(ctx, elements, args.center)
    return (f"Rotate {_noun(elements)}{_with_hosted(ctx, elements)} by {format_angle(ctx.angle(args.angle))} "
            f"about {_point(ctx, center)}")


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_rotate,
      takes_along_hosted=True)
def rotate_elements(ctx, args: RotateElementsArgs):
    """Rotate elements in plan about a vertical axis (the working set when element_ids is left out).

    Positive angles turn counter-clockwise seen from above. The axis goes through center, or
    through the middle of the elements' extent when center is left out. Doors and windows turn
    with their host wall. Pinned elements are refused. The result re-reads where the elements are.
    """
    from Autodesk.Revit import DB

    elements = _targets(ctx, args.element_ids)
    _movable(ctx, elements, "rotated")
    angle = ctx.angle(args.angle)
    if abs(angle) < 1e-12:
        raise ToolError("angle is zero: give the rotation, e.g. '90°' (counter-clockwise) or '-90°'.")
    center = _center(ctx, elements, args.center)
    snapshot = _snapshot(ctx, elements)
    axis = DB.Line.CreateBound(center, DB.XYZ(center.X, center.Y, 1.0))
    DB.ElementTransformUtils.RotateElements(ctx.doc, ctx.element_id_list(snapshot.ids), axis, angle)
    rotated = (f"Rotated {_noun(elements)} by {format_angle(angle)} "
               f"({'counter-clockwise' if angle > 0 else 'clockwise'}) about {_point(ctx, center)}.")

    def report() -> str:
        placement, now = _placement_report(ctx, snapshot, _rotated(center, angle), "rotated")
        return rotated + placement + _sample_positions(ctx, now)

    return ToolOutput(change=Change(
        action=f"Rotating {_noun(elements)} by {format_angle(angle)} about {_point(ctx, center)}", report=report,
        compare=lambda read_back: _compare_positions(ctx, read_back, snapshot, _rotated(center, angle), turn=angle),
        hint=lambda read_back: _stays_in_host_hint(ctx, snapshot, read_back)))


# --- delete_elements -----------------------------------------------------------------------------------------


def _deletion_dry_run(ctx, requested: list[int]) -> dict[int, str]:
    """Every id Revit deletes along with ``requested`` (hosted doors and windows, tags, dimensions,
    instances of a deleted type...), with its category. Found by deleting in a sub-transaction
    that is rolled back at once: Revit alone knows its dependency rules."""
    from Autodesk.Revit import DB
    trial = DB.SubTransaction(ctx.doc)
    trial.Start()
    try:
        ids = [ctx.id_value(i) for i in ctx.doc.Delete(ctx.element_id_list(requested))]
    finally:
        trial.RollBack()
    return {i: category_of(ctx.doc.GetElement(ctx.element_id(i))) for i in ids}


def _describe_delete(ctx, args: DeleteElementsArgs) -> str:
    # What else Revit would delete is found by the approval's preview (revit/preview.py).
    elements = _targets(ctx, args.element_ids)
    return f"Delete {_noun(elements)} ({_ids_text(ctx.id_value(e.Id) for e in elements)})"


@tool(writes=True, needs_approval=True, working_set_policy="none", needs_element_ids=True,
      describe=_describe_delete, takes_along_hosted=True)
def delete_elements(ctx, args: DeleteElementsArgs):
    """Delete elements from the model (the working set when element_ids is left out). Always asks
    the user first.

    Revit also deletes what depends on them: the doors and windows hosted in a wall, the tags and
    dimensions on them, every instance of a deleted type, everything on a deleted level. The result
    reports the ids Revit deleted, the dependent ones included, and re-reads that they are gone.
    """
    elements = _targets(ctx, args.element_ids)
    requested = [ctx.id_value(e.Id) for e in elements]
    what = _noun(elements)
    # Read before deleting: afterwards the elements cannot say what they were.
    kinds = _deletion_dry_run(ctx, requested)
    deleted = [ctx.id_value(i) for i in ctx.doc.Delete(ctx.element_id_list(requested))]
    given = set(requested)
    cascaded = [i for i in deleted if i not in given]

    def still_there() -> list[int]:
        return [i for i in deleted if ctx.doc.GetElement(ctx.element_id(i)) is not None]

    def compare(read_back: ReadBack) -> None:
        for value in requested:
            exists = ctx.doc.GetElement(ctx.element_id(value)) is not None
            read_back.same(f"element {value}", "existence", "deleted", "still in the model" if exists else "deleted")
        for value in still_there():
            if value not in given:
                read_back.same(f"element {value}", "existence", "deleted (Revit reported it)", "still in the model")

    def report() -> str:
        still = still_there()
        text = f"Deleted {what} ({_ids_text(requested)})."
        if cascaded:
            counts = Counter(kinds.get(i, "Other") for i in cascaded)
            summary = ", ".join(f"{n} {category if n != 1 else singular(category)}".lower()
                                for category, n in counts.most_common())
            text += (f" Revit also deleted {len(cascaded)} element{'s' if len(cascaded) != 1 else ''} that "
                     f"depended on {_it(elements)}: {summary} ({_ids_text(cascaded)}).")
        gone = len(deleted) - len(still)
        text += f" {gone} of {len(deleted)} {'is' if len(deleted) == 1 else 'are'} gone from the model."
        if still:
            text += f" These still exist: {id_sample(still, where='')}."
        return text

    return ToolOutput(change=Change(
        action=f"Deleting {what}", compare=compare, report=report,
        hint="Check whether the elements are pinned, in a group or owned by another element, then ask again."))
