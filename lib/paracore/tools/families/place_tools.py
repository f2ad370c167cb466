"""place_family_instances: instances of any loadable family type, each placed with the overload of
Document.Create.NewFamilyInstance its family's placement type takes (docs/REVIT_BEHAVIOUR.md,
"Families"):

- level-based (OneLevelBased, TwoLevelsBased): (XYZ, FamilySymbol, Level, StructuralType) at the
  point and the level's elevation plus offset, then turned by rotation about its vertical axis
  (ElementTransformUtils.RotateElement);
- wall-hosted: (XYZ, FamilySymbol, Element host, Level, StructuralType), the point on the wall's
  location line at the level plus offset;
- ceiling-, floor- or roof-hosted: (XYZ, FamilySymbol, XYZ referenceDirection, Element host,
  StructuralType), the direction giving the rotation;
- face-based (WorkPlaneBased): (Reference face, XYZ, XYZ referenceDirection, FamilySymbol) on the
  face of the host (HostObjectUtils: a ceiling's bottom face, a floor's or roof's top, a wall's side);
- line-based (CurveBased): (Curve, FamilySymbol, Level, StructuralType) along each line.

The type is activated first where Revit needs it (FamilySymbol.Activate). Where each instance
goes (points, lines, or the rooms, ceilings, floors and walls of the working set) and its host are
worked out before any change (placement.py). Read back in the transaction: each instance exists,
of the type, on the level, in the host asked (or none), at the point (and rotation) asked; any
difference, and any refusal by Revit, rolls the whole call back. On a workshared model the hosts
are the call's targets: a host a colleague holds is named and its instances left out.
Revit is imported inside the functions only.
"""
from __future__ import annotations

import math

from pydantic import BaseModel, Field

from paracore.core.units import Angle, Length, format_angle, format_length
from paracore.tools.families.family_types import find_family_symbol, placeable_kind, type_label
from paracore.tools.families.placement import MAX_INSTANCES, Placement, Plan, plan_placements
from paracore.tools.framework.lookup import category_of
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.framework.wording import listed
from paracore.tools.framework.worksharing_targets import leave_out_held

SHOWN_INSTANCES = 8     # instances described one by one in a result; the rest are counted


class PlaceFamilyInstancesArgs(BaseModel):
    family_type: str = Field(description="The type as 'Family: Type' (list_family_types), or a type or family name.")
    points: list[tuple[Length, Length]] | None = Field(
        None, max_length=MAX_INSTANCES,
        description="Where to place, in plan: [[x, y], ...] (project units or strings with a unit). "
                    "For a hosted family each point must be on its host.")
    lines: list[tuple[tuple[Length, Length], tuple[Length, Length]]] | None = Field(
        None, max_length=MAX_INSTANCES, description="For a line-based family: [[[x1, y1], [x2, y2]], ...].")
    at_working_set: bool = Field(
        False, description="One instance at each element of the working set: a room's point, the centre of a "
                           "ceiling, floor or roof, the middle of a wall (in it, for a hosted family).")
    level: str | None = Field(None, description="Level of the points and lines. Leave null with at_working_set "
                                                "or host_id (their own level).")
    host_id: int | None = Field(None, description="The wall, ceiling, floor or roof a hosted or face-based family "
                                                  "goes in. Leave null to find it at each point.")
    offset: Length | None = Field(None, description="Height above the level (level-based, wall-hosted, on a wall's "
                                                    "face). Default 0.")
    rotation: Angle = Field(0, description="Turn in plan, counter-clockwise (not for wall-hosted ones, which face "
                                           "out of their wall).")


def _prepared(ctx, args: PlaceFamilyInstancesArgs):
    symbol = find_family_symbol(ctx, args.family_type)
    kind = placeable_kind(symbol)
    return symbol, plan_placements(ctx, args, kind)


def _describe(ctx, args: PlaceFamilyInstancesArgs) -> str:
    symbol, plan = _prepared(ctx, args)
    hosts = plan.hosts
    where = f" in {_hosts_text(ctx, hosts)}" if hosts else f" on {_levels_text(plan)}"
    return (f"Place {len(plan.placements)} instance(s) of '{type_label(symbol)}' ({plan.kind.words}){where}"
            f"{'' if symbol.IsActive else ', activating the type first'}")


def _targets(ctx, args: PlaceFamilyInstancesArgs) -> list[int]:
    """The hosts the instances go into: Revit changes a host when it hosts a new instance."""
    try:
        _, plan = _prepared(ctx, args)
    except ToolError:
        return []   # the run says what is wrong
    return [ctx.id_value(h.Id) for h in plan.hosts]


@tool(writes=True, working_set_policy="replace", describe=_describe, targets=_targets)
def place_family_instances(ctx, args: PlaceFamilyInstancesArgs):
    """Place instances of a loadable family type (furniture, casework, fixtures, lighting, equipment, generic
    models) as its family is placed: level-based at points on a level (offset, rotation); wall-, ceiling-,
    floor- or roof-hosted in the host found at each point (or host_id); face-based on a host's face;
    line-based along lines. at_working_set places one at each room, ceiling, floor or wall of the working set
    ("a light at the centre of every ceiling", "a desk in each room", "a basin in this wall"). Host, level,
    position and orientation are read back; a point off its host is refused and nothing is placed. The new
    instances replace the working set.
    """
    symbol, plan = _prepared(ctx, args)
    placements, held_note = _without_held_hosts(ctx, plan)
    if not symbol.IsActive:
        symbol.Activate()
        ctx.regenerate_mid_change()   # Revit places an activated type once it has regenerated
    ids = [_place(ctx, symbol, placement) for placement in placements]
    label = type_label(symbol)
    return ToolOutput(change=Change(
        action=f"Placing {len(ids)} instance(s) of '{label}'",
        hint="Check the points, the level and the host, then ask again.",
        compare=lambda read_back: _compare(ctx, read_back, symbol, ids, placements),
        report=lambda: _report(ctx, symbol, plan, ids, placements, held_note)))


def _without_held_hosts(ctx, plan: Plan) -> tuple[list[Placement], str]:
    hosts = plan.hosts
    if not hosts:
        return plan.placements, ""
    kept, note = leave_out_held(ctx, hosts, label=lambda h: f"{category_of(h).lower().rstrip('s')}")
    kept_ids = {ctx.id_value(h.Id) for h in kept}
    placements = [p for p in plan.placements if p.host is None or ctx.id_value(p.host.Id) in kept_ids]
    if not placements:
        raise ToolError(f"Not run: every host of this call is held by someone else.{note} Nothing was changed.")
    return placements, note


def _place(ctx, symbol, placement: Placement) -> int:
    from Autodesk.Revit import DB
    from Autodesk.Revit.DB.Structure import StructuralType
    create = ctx.doc.Create
    try:
        if placement.line is not None:
            instance = create.NewFamilyInstance(placement.line, symbol, placement.level, StructuralType.NonStructural)
        elif placement.host is None:
            instance = create.NewFamilyInstance(placement.point, symbol, placement.level, StructuralType.NonStructural)
            if abs(placement.rotation) > 1e-12:
                axis = DB.Line.CreateBound(placement.point, placement.point.Add(DB.XYZ.BasisZ))
                DB.ElementTransformUtils.RotateElement(ctx.doc, instance.Id, axis, placement.rotation)
        elif placement.face is not None:
            instance = create.NewFamilyInstance(_face(ctx, placement), placement.point, _face_direction(placement),
                                                symbol)
        elif isinstance(placement.host, DB.Wall):
            instance = create.NewFamilyInstance(placement.point, symbol, placement.host, placement.level,
                                                StructuralType.NonStructural)
        else:
            instance = create.NewFamilyInstance(placement.point, symbol, _plan_direction(placement.rotation),
                                                placement.host, StructuralType.NonStructural)
    except ToolError:
        raise
    except Exception as error:   # Revit's refusal (ArgumentException...): the whole call is rolled back
        raise ToolError(f"Revit refused to place '{type_label(symbol)}' at {placement.source}"
                        f"{_host_words(ctx, placement)}: {_reason(error)} Nothing was placed.") from None
    return ctx.id_value(instance.Id)


def _reason(error) -> str:
    message = str(getattr(error, "Message", "") or error).strip()
    return message if message.endswith(".") else message + "."


def _face(ctx, placement: Placement):
    from Autodesk.Revit import DB
    utils = DB.HostObjectUtils
    if placement.face == "bottom":
        faces = utils.GetBottomFaces(placement.host)
    elif placement.face == "top":
        faces = utils.GetTopFaces(placement.host)
    else:
        side = DB.ShellLayerType.Exterior if placement.face == "exterior" else DB.ShellLayerType.Interior
        faces = utils.GetSideFaces(placement.host, side)
    faces = list(faces)
    if not faces:
        raise ToolError(f"{category_of(placement.host)} {ctx.id_value(placement.host.Id)} has no {placement.face} face "
                        "to place on. Nothing was placed.")
    return faces[0]


def _plan_direction(rotation: float):
    from Autodesk.Revit import DB
    return DB.XYZ(math.cos(rotation), math.sin(rotation), 0)


def _face_direction(placement: Placement):
    """In a horizontal face: the rotation's direction; in a wall's side: along the wall."""
    from Autodesk.Revit import DB
    if placement.face in ("top", "bottom"):
        return _plan_direction(placement.rotation)
    normal = placement.host.Orientation
    return DB.XYZ(-normal.Y, normal.X, 0)


# -- read-back -------------------------------------------------------------------------------------------------------
def _compare(ctx, read_back: ReadBack, symbol, ids: list[int], placements: list[Placement]) -> None:
    from Autodesk.Revit import DB
    for value, placement in zip(ids, placements):
        instance = ctx.doc.GetElement(ctx.element_id(value))
        subject = f"instance {value} ({placement.source})"
        if not isinstance(instance, DB.FamilyInstance):
            read_back.same(subject, "existence", "in the model", "not in the model")
            continue
        read_back.same(subject, "type", type_label(symbol), type_label(instance.Symbol))
        if placement.level_given:
            read_back.same(subject, "level", placement.level.Name, _level_name(ctx, instance))
        read_back.same(subject, "host", _host_name(ctx, placement.host), _host_name(ctx, _real_host(instance)))
        if placement.face is not None:
            read_back.same(subject, "host face", "a face of its host", "none" if instance.HostFace is None else
                           "a face of its host")
        location = instance.Location
        if placement.line is not None:
            curve = location.Curve if isinstance(location, DB.LocationCurve) else None
            read_back.points(subject, "line", [placement.line.GetEndPoint(0), placement.line.GetEndPoint(1)],
                             None if curve is None else [curve.GetEndPoint(0), curve.GetEndPoint(1)])
            continue
        point = location.Point if isinstance(location, DB.LocationPoint) else None
        read_back.point(subject, "location", placement.point, point, z=placement.z_known)
        if placement.turns and point is not None:
            read_back.angle(subject, "rotation", placement.rotation, location.Rotation)


def _real_host(instance):
    from Autodesk.Revit import DB
    host = instance.Host
    return None if host is None or isinstance(host, DB.Level) else host   # a level is no host


def _host_name(ctx, host) -> str:
    return "none" if host is None else f"{category_of(host).lower().rstrip('s')} {ctx.id_value(host.Id)}"


def _level_name(ctx, instance) -> str:
    level = ctx.doc.GetElement(instance.LevelId)
    return level.Name if level is not None else "none"


# -- the result --------------------------------------------------------------------------------------------------------
def _report(ctx, symbol, plan: Plan, ids: list[int], placements: list[Placement], held_note: str) -> str:
    from Autodesk.Revit import DB
    rows = []
    for value, placement in zip(ids, placements):
        instance = ctx.doc.GetElement(ctx.element_id(value))
        if not isinstance(instance, DB.FamilyInstance):
            raise ToolError(f"Instance {value} ({placement.source}) is not in the model: it was not placed.")
        rows.append(_instance_row(ctx, value, instance, placement))
    shown = listed(rows, SHOWN_INSTANCES, "; ")
    kind = plan.kind.words
    text = (f"Placed {len(ids)} instance(s) of '{type_label(symbol)}' ({category_of(symbol)}, {kind}): {shown}. "
            f"Ids: {listed([str(i) for i in ids], 20)}.")
    if set(ctx.session.working_set.ids) == set(ids):
        text += " They are now the working set."
    return text + "".join(f" {note}" for note in plan.notes) + held_note


def _instance_row(ctx, value: int, instance, placement: Placement) -> str:
    from Autodesk.Revit import DB
    level = ctx.doc.GetElement(instance.LevelId) or placement.level   # a face-based one may have no level
    location = instance.Location
    host = _real_host(instance)
    where = f" in {_host_name(ctx, host)}" if host is not None else ""
    if isinstance(location, DB.LocationCurve):
        ends = [location.Curve.GetEndPoint(i) for i in (0, 1)]
        return f"{value} from {_xy(ctx, ends[0])} to {_xy(ctx, ends[1])} on {level.Name}"
    point = location.Point
    height = format_length(point.Z - level.Elevation, ctx.length_unit)
    facing = instance.FacingOrientation
    return (f"{value} at {_xy(ctx, point)}{where} on {level.Name}, {height} above it, "
            f"facing {format_angle(math.atan2(facing.Y, facing.X) % (2 * math.pi))}")


def _xy(ctx, point) -> str:
    return f"({format_length(point.X, ctx.length_unit)}, {format_length(point.Y, ctx.length_unit)})"


def _host_words(ctx, placement: Placement) -> str:
    return f" in {_host_name(ctx, placement.host)}" if placement.host is not None else ""


def _hosts_text(ctx, hosts) -> str:
    return listed([_host_name(ctx, h) for h in hosts], 6)


def _levels_text(plan: Plan) -> str:
    return listed(sorted({p.level.Name for p in plan.placements}), 4)

