"""Colour overrides that show in Revit: color_elements and capture_view's highlight build them here.

An element the view cuts (a wall, a column in a plan at its cut plane, in a section where the
plane crosses it) is drawn with its cut lines and cut pattern; one seen from a distance with its
projection lines and surface pattern. A pattern colour shows only with a fill pattern set, and an
override takes drafting patterns only (View.SetElementOverrides: "Fill pattern must be a drafting
pattern."). So a colour is given to both: projection and cut line colours, and, with the
document's solid fill drafting pattern, the surface and cut foreground patterns and their colours
(docs/REVIT_BEHAVIOUR.md, "Graphic overrides").

The solid fill is looked up by its name in Revit's English templates, "<Solid fill>"; failing
that (a template in another language, a renamed pattern), the first drafting pattern whose
FillPattern.IsSolidFill. A document without one gets line colours only, and the caller says so.
Everything here runs on Revit's main thread.
"""
from __future__ import annotations

from paracore.revit.api import DB
from paracore.revit.context import id_value

SOLID_FILL = "<Solid fill>"


def solid_fill_pattern_id(doc):
    """The id of ``doc``'s solid fill drafting pattern, or None when it has none."""
    drafting = DB.FillPatternTarget.Drafting
    found = DB.FillPatternElement.GetFillPatternElementByName(doc, drafting, SOLID_FILL)
    if found is None:
        for element in DB.FilteredElementCollector(doc).OfClass(DB.FillPatternElement):
            pattern = element.GetFillPattern()
            if pattern.IsSolidFill and pattern.Target == drafting:
                found = element
                break
    return found.Id if found is not None else None


def colour_overrides(rgb, fill_pattern_id=None):
    """The OverrideGraphicSettings that draw an element in ``rgb`` (r, g, b), cut or in projection:
    both line colours, and with ``fill_pattern_id`` (a solid fill) both foreground patterns in it."""
    colour = DB.Color(*rgb)
    settings = DB.OverrideGraphicSettings().SetProjectionLineColor(colour).SetCutLineColor(colour)
    if fill_pattern_id is not None:
        settings.SetSurfaceForegroundPatternId(fill_pattern_id).SetSurfaceForegroundPatternColor(colour) \
            .SetCutForegroundPatternId(fill_pattern_id).SetCutForegroundPatternColor(colour)
    return settings


def colour_of(color):
    """(r, g, b) of a Revit Color, or None for a colour that is not set (Color.IsValid False)."""
    return (color.Red, color.Green, color.Blue) if color.IsValid else None


def override_colours(settings) -> dict:
    """What an element's overrides hold, by the names the read-back uses: each line and pattern
    colour as (r, g, b) or None, and each foreground fill pattern's id (None when not set)."""
    return {
        "projection line": colour_of(settings.ProjectionLineColor),
        "cut line": colour_of(settings.CutLineColor),
        "surface pattern": colour_of(settings.SurfaceForegroundPatternColor),
        "cut pattern": colour_of(settings.CutForegroundPatternColor),
        "surface fill pattern": _pattern(settings.SurfaceForegroundPatternId),
        "cut fill pattern": _pattern(settings.CutForegroundPatternId),
    }


def expected_colours(rgb, fill_pattern_id=None) -> dict:
    """What ``override_colours`` reads of ``colour_overrides(rgb, fill_pattern_id)``; of no override
    at all when ``rgb`` is None."""
    filled = rgb if rgb is not None and fill_pattern_id is not None else None
    pattern = id_value(fill_pattern_id) if rgb is not None and fill_pattern_id is not None else None
    return {"projection line": rgb, "cut line": rgb, "surface pattern": filled, "cut pattern": filled,
            "surface fill pattern": pattern, "cut fill pattern": pattern}


def _pattern(element_id):
    value = id_value(element_id)
    return None if value == -1 else value
