"""Write a plan view or a sheet to a DXF file with ezdxf (Document.Export with DXFExportOptions).

What a plan is drawn as, one layer per category as Revit's default layer standard (AIA) names them
(``LAYERS``; the AIA CAD Layer Guidelines' names: A-WALL, A-DOOR, A-GLAZ, A-FLOR, A-ROOF, A-AREA,
G-ANNO-TTLB; the exact table Revit's export setup holds is read by the field kit):
- a wall: its outline, one closed polyline: its location line offset by half its width on each
  side (the location line taken as the wall's centre line, as `paracore view` draws it; a curtain
  wall as the thin band it draws);
- a door: its box across the wall (a closed polyline) and its swing (an arc): two entities;
- a window: its box across the wall: one closed polyline;
- a floor or roof: its boundary, a closed polyline;
- a room: its boundary, only when ExportingAreas is set ("Export rooms and areas as polylines").
Everything else the view shows (furniture, stairs...) is not drawn: say so where it matters.

Coordinates are the model's (internal, or shared with SharedCoords), in the options' TargetUnit
(Default: millimetres for a metric project, inches for an imperial one), $INSUNITS set to match.
A sheet is drawn on paper at 1:1: its title block's border (G-ANNO-TTLB) and, in each viewport's
box, the viewport's plan at the view's scale. Any other kind of view (section, 3D, schedule) the
stand-in does not draw: ``write`` returns False and writes nothing, as Export's "otherwise False".
"""
from __future__ import annotations

import math

from . import drawing

LAYERS = {"OST_Walls": "A-WALL", "OST_Doors": "A-DOOR", "OST_Windows": "A-GLAZ", "OST_Floors": "A-FLOR",
          "OST_Roofs": "A-ROOF", "OST_Rooms": "A-AREA", "OST_TitleBlocks": "G-ANNO-TTLB"}
# file units per foot and the DXF $INSUNITS code of each ExportUnit
_UNITS = {"Inch": (12.0, 1), "Foot": (1.0, 2), "Millimeter": (304.8, 4), "Centimeter": (30.48, 5),
          "Meter": (0.3048, 6)}


def write(view, path: str, options) -> bool:
    """Draw ``view`` into a new DXF file at ``path``; False (nothing written) for a view it cannot draw."""
    import ezdxf
    from Autodesk.Revit.DB import ViewType
    if view.ViewType not in (ViewType.FloorPlan, ViewType.CeilingPlan, ViewType.DrawingSheet):
        return False
    factor, insunits = _unit(view._document, options)
    document = ezdxf.new("R2018", setup=False)
    document.header["$INSUNITS"] = insunits
    for name in LAYERS.values():
        document.layers.add(name)
    space = document.modelspace()
    if view.ViewType == ViewType.DrawingSheet:
        _sheet(view, space, factor, options)
    else:
        shared = _shared(view._document) if options.SharedCoords else None
        _plan(view, space, options, lambda x, y: _to_file(x, y, factor, shared))
    document.saveas(path)
    return True


def _unit(document, options) -> tuple[float, int]:
    from Autodesk.Revit.DB import DisplayUnit
    name = options.TargetUnit.name
    if name == "Default":
        name = "Millimeter" if document.DisplayUnitSystem == DisplayUnit.METRIC else "Inch"
    return _UNITS[name]


def _shared(document):
    """Internal plan point -> shared coordinates (the active project location's)."""
    from Autodesk.Revit.DB import XYZ
    location = document.ActiveProjectLocation

    def convert(x: float, y: float) -> tuple[float, float]:
        position = location.GetProjectPosition(XYZ(x, y, 0.0))
        return position.EastWest, position.NorthSouth
    return convert


def _to_file(x: float, y: float, factor: float, shared) -> tuple[float, float]:
    if shared is not None:
        x, y = shared(x, y)
    return x * factor, y * factor


def _layer(element) -> str | None:
    from Autodesk.Revit.DB import BuiltInCategory
    category = element._state.get("category")
    return next((layer for name, layer in LAYERS.items() if getattr(BuiltInCategory, name).value == category), None)


# -- a plan ----------------------------------------------------------------------------------------------


def _plan(view, space, options, place) -> None:
    from Autodesk.Revit.DB import Curve
    for element in (view._document._elements[i] for i in view._visible_ids()):
        layer = _layer(element)
        if layer == "A-WALL" and isinstance(element._state.get("location"), Curve):
            curtain = drawing._is_curtain_wall(element)     # drawn as the band `paracore view` draws
            width = drawing.CURTAIN_WALL_FT if curtain else float(element.Width or 0.5)
            outline = drawing._wall_outline(drawing._curve_points(element._state["location"]), width)
            _polygon(space, outline, layer, place)
        elif layer in ("A-DOOR", "A-GLAZ"):
            _opening(element, space, layer, place)
        elif layer in ("A-FLOR", "A-ROOF"):
            for loop in element._state.get("boundary") or ():
                _polygon(space, [(p[0], p[1]) for p in loop], layer, place)
        elif layer == "A-AREA" and options.ExportingAreas:
            outline = drawing._room_outline(element)
            if outline:
                _polygon(space, outline, layer, place)


def _polygon(space, points, layer: str, place) -> None:
    space.add_lwpolyline([place(x, y) for x, y in points], close=True, dxfattribs={"layer": layer})


def _opening(opening, space, layer: str, place) -> None:
    """A door's or window's box across its host wall; a door's swing as an arc from its hinge."""
    from Autodesk.Revit.DB import XYZ, Curve
    point = opening._state.get("location")
    if not isinstance(point, XYZ):
        return
    host = opening._document._elements.get(opening._state.get("host_id"))
    curve = host._state.get("location") if host is not None else None
    angle, thickness = opening._state.get("rotation", 0.0), 0.5
    if isinstance(curve, Curve):
        a, b = curve.GetEndPoint(0), curve.GetEndPoint(1)
        angle, thickness = math.atan2(b.Y - a.Y, b.X - a.X), float(host.Width or 0.5)
    tx, ty = math.cos(angle), math.sin(angle)
    nx, ny = -ty, tx
    half, deep = drawing._opening_width(opening) / 2, thickness / 2
    corners = [(point.X + sx * tx * half + sn * nx * deep, point.Y + sx * ty * half + sn * ny * deep)
               for sx, sn in ((-1, 1), (1, 1), (1, -1), (-1, -1))]
    _polygon(space, corners, layer, place)
    if layer == "A-DOOR":   # the leaf swings a quarter turn from the hinge, counter-clockwise from the wall
        hinge, width = corners[0], 2 * half
        centre = place(*hinge)
        opened = place(hinge[0] + width * tx, hinge[1] + width * ty)
        closed = place(hinge[0] + width * nx, hinge[1] + width * ny)
        start = math.degrees(math.atan2(opened[1] - centre[1], opened[0] - centre[0]))
        end = math.degrees(math.atan2(closed[1] - centre[1], closed[0] - centre[0]))
        space.add_arc(centre, math.dist(centre, opened), start, end, dxfattribs={"layer": layer})


# -- a sheet ---------------------------------------------------------------------------------------------


def _sheet(sheet, space, factor: float, options) -> None:
    outline = sheet.Outline
    (u0, v0), (u1, v1) = (outline.Min.U, outline.Min.V), (outline.Max.U, outline.Max.V)
    if u1 > u0 and v1 > v0:
        _polygon(space, [(u0, v0), (u1, v0), (u1, v1), (u0, v1)], "G-ANNO-TTLB",
                 lambda x, y: (x * factor, y * factor))
    from Autodesk.Revit.DB import ViewPlan
    for viewport in sheet._viewports():
        view = sheet._document._elements.get(viewport._state["view_id"])
        if not isinstance(view, ViewPlan):
            continue   # the stand-in draws plans only (module docstring)
        centre = viewport.GetBoxCenter()
        mx, my = _middle(view)
        scale = max(int(view.Scale), 1)

        def place(x, y, centre=centre, mx=mx, my=my, scale=scale):
            return ((centre.X + (x - mx) / scale) * factor, (centre.Y + (y - my) / scale) * factor)
        _plan(view, space, options, place)


def _middle(view) -> tuple[float, float]:
    """The middle of what the plan shows: the centre of its viewport's box on a sheet."""
    from Autodesk.Revit.DB._sheets import _points_of
    points = [p for i in view._model_ids() for p in _points_of(view._document._elements[i])]
    if not points:
        return 0.0, 0.0
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
