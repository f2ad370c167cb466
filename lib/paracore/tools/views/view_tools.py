"""View tools: isolate elements temporarily, reset the isolation, colour elements, open a view,
and create a 3D view (optionally boxed around elements). Selecting elements is select_elements
in working_set_tools.

Transactions (the executor opens one per tool with writes=True):
- color_elements and create_3d_view change the model (element overrides, a new view): writes=True.
- isolate_in_view and reset_view_isolation change the view's temporary hide/isolate state;
  isolate_in_view follows the same rule as the working-set buttons and the side panel
  (``paracore.revit.working_set_actions``, docs/WORKING_SET.md). Revit
  does not keep that state in the model (it is not saved, the user resets it from the view
  control bar), and its documentation does not say whether the API calls need a transaction;
  public add-ins (a C# peer among them) always call them inside one. They are
  declared writes=True so that they work either way; the cost is an undo entry (and the approval
  prompt for writes). The stand-in needs no transaction for them.
- activate_view is writes=False: Revit refuses to change the active view while a transaction
  is open (UIDocument.ActiveView, InvalidOperationException), so it must run outside one.

Every tool re-reads what it changed before answering. Revit is imported inside the tool bodies
only, so this module imports without Revit.
"""
from __future__ import annotations

import re

from pydantic import BaseModel, Field

from paracore.core.units import format_length
from paracore.revit import overrides
from paracore.revit import working_set_actions as actions
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.errors import format_exception_for_model
from paracore.tools.framework.lookup import category_summary, elements_by_id, find_view, id_sample, view_label, view_type_name
from paracore.tools.framework.names import refuse_bad_name
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.framework.wording import plural, unique_ids

SECTION_BOX_PADDING_M = 1.0     # metres around the elements, every side
DEFAULT_HEIGHT_M = 3.0          # metres above an element whose height is unknown (a storey)

COLOURS = {
    "red": (255, 0, 0), "green": (0, 160, 0), "blue": (0, 0, 255), "yellow": (255, 255, 0),
    "orange": (255, 128, 0), "purple": (128, 0, 128), "magenta": (255, 0, 255), "pink": (255, 105, 180),
    "cyan": (0, 255, 255), "brown": (139, 69, 19), "black": (0, 0, 0), "white": (255, 255, 255),
    "grey": (128, 128, 128), "gray": (128, 128, 128),
}
CLEAR_WORDS = ("none", "clear", "reset", "remove")


# --- argument models ---------------------------------------------------------------------------


class ElementsArgs(BaseModel):
    element_ids: list[int] | None = Field(
        None, description="Ids of the elements. Leave null to use the working set.")


class NoArgs(BaseModel):
    pass


class ColorElementsArgs(BaseModel):
    element_ids: list[int] | None = Field(
        None, description="Ids of the elements to colour. Leave null to use the working set.")
    color: str | list[int] = Field(
        description="The colour: a name (red, green, blue, yellow, orange, purple, magenta, pink, cyan, "
                    "brown, black, white, grey), [r, g, b] with 0-255 components, or '#RRGGBB'. "
                    "'none' removes the colour override.")


class ActivateViewArgs(BaseModel):
    view: str = Field(description="Name of the view to open, e.g. 'Level 1' or 'Door Schedule'; "
                                  "'Floor Plan: Level 1' when views of different kinds share a name; "
                                  "or the view's id.")


class Create3DViewArgs(BaseModel):
    name: str | None = Field(None, description="Name of the new 3D view. Leave null for Revit's default name.")
    element_ids: list[int] | None = Field(
        None, description="Elements to box: the view gets a section box around them (with 1 m of space "
                          "around). Leave null to box the working set (no box when it is empty); give [] "
                          "for a view of the whole model without a section box.")


# --- helpers -----------------------------------------------------------------------------------


def _active_view(ctx):
    view = ctx.uidoc.ActiveView if ctx.uidoc is not None else None
    if view is None:
        raise ToolError("There is no active view. Open a view in Revit (or call activate_view), then ask again.")
    return view


def _graphic_view(ctx, action: str):
    """The active view, when it shows model graphics (not a schedule)."""
    from Autodesk.Revit import DB
    view = _active_view(ctx)
    if isinstance(view, DB.TableView):
        raise ToolError(f"The active view '{view.Name}' is a {view_type_name(view).lower()}: elements cannot be "
                        f"{action} in it. Open a plan or 3D view first (activate_view), then ask again.")
    return view


def _graphic_elements(ctx, ids):
    """(elements a view can show, ids left out: types, views and other non-graphic elements)."""
    from Autodesk.Revit import DB
    elements = ctx.elements(ids)  # a ToolError lists ids that do not exist
    shown, skipped = [], []
    for value, element in zip(ids, elements):
        if isinstance(element, (DB.ElementType, DB.View)) or element.Category is None:
            skipped.append(value)
        else:
            shown.append(element)
    return shown, skipped


def _skipped_note(skipped) -> str:
    if not skipped:
        return ""
    return (f" Left out {plural(len(skipped), 'id')} that are not elements shown in views "
            f"(types, views...): {id_sample(skipped, where='')}.")


# --- isolation ---------------------------------------------------------------------------------


def _describe_isolate(ctx, args: ElementsArgs) -> str:
    view = ctx.uidoc.ActiveView
    return (f"Temporarily isolate {plural(len(args.element_ids or []), 'element')} in view "
            f"'{view.Name if view is not None else '?'}' (everything else is hidden until the isolation is reset).")


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_isolate,
      previewable=False, changes=lambda args: False)   # view state: the elements isolated do not change
def isolate_in_view(ctx, args: ElementsArgs):
    """Temporarily isolate elements in the active view: only they stay visible.

    Like Revit's Temporary Hide/Isolate > Isolate Element: nothing in the model changes and the
    isolation is not saved; undo it with reset_view_isolation (or the view's "Reset Temporary
    Hide/Isolate"). An earlier temporary isolation of the view is replaced. Elements the view does
    not show (another level, cropped out) are left out. Leave element_ids out to isolate the
    working set. The working set does not change.
    """
    ids = unique_ids(args.element_ids)
    if not ids:
        raise ToolError("element_ids is empty: give the elements to isolate, or call reset_view_isolation "
                        "to show everything again.")
    view = _graphic_view(ctx, "isolated")
    elements, skipped = _graphic_elements(ctx, ids)
    if not elements:
        raise ToolError(f"None of the ids can be isolated: {id_sample(skipped, where='')} are types or views, "
                        "not elements shown in views.")
    # The rule (reset first, isolate what the view shows) is the buttons' and the panel's too.
    outcome = actions.isolate(ctx.doc, view, [ctx.id_value(e.Id) for e in elements])
    if not outcome.done:
        return _nothing_isolated(ctx, outcome) + _skipped_note(skipped)
    view_id = view.Id

    def isolated():
        current = ctx.doc.GetElement(view_id)
        if current is None or not current.IsTemporaryHideIsolateActive():
            raise ToolError(f"Revit did not isolate the elements: view '{view.Name}' has no temporary "
                            "isolation.")
        return current, actions.visible_ids(ctx.doc, current)

    def compare(read_back: ReadBack) -> None:
        _, visible = isolated()
        for value in outcome.done:
            read_back.same(f"element {value}", "visibility", "shown", "shown" if value in visible else "hidden")

    def report() -> str:
        current, visible = isolated()
        found, _ = elements_by_id(ctx, [i for i in outcome.done if i in visible])
        text = (f"Isolated {plural(len(found), 'element')} ({category_summary(found)}) in view "
                f"'{current.Name}': everything else is temporarily hidden.")
        if outcome.reset:
            text += " (The view's earlier temporary hide/isolate was reset first.)"
        left_out = outcome.skipped_ids(actions.NOT_IN_VIEW)
        if left_out:
            text += (f" Left out {plural(len(left_out), 'element')} this view does not show "
                     f"({id_sample(left_out, where='')}): they are outside it (another level, or cropped); "
                     "a 3D view shows them (create_3d_view, activate_view).")
        return text + _skipped_note(skipped) + " Call reset_view_isolation to show everything again."

    return ToolOutput(change=Change(
        action=f"Isolating in view '{view.Name}'", compare=compare, report=report,
        hint="Check the view's filters and visibility settings (they can hide the elements), then ask again."))


def _nothing_isolated(ctx, outcome) -> str:
    """Not an error: the view's earlier isolation was reset, as a button's would be; the
    transaction commits so that all three surfaces leave the view the same."""
    found, _ = elements_by_id(ctx, outcome.requested)
    text = (f"Nothing was isolated: none of the {plural(len(found), 'element')} ({category_summary(found)}) "
            f"is shown in view '{outcome.view_name}' (another level, or cropped out).")
    if outcome.reset:
        text += " The view's earlier temporary hide/isolate was reset, so it shows all its elements."
    return text + " Open a view that shows them (activate_view; create_3d_view makes one that shows everything)."


def _describe_reset(ctx, args: NoArgs) -> str:
    view = ctx.uidoc.ActiveView
    return f"Reset the temporary hide/isolate of view '{view.Name if view is not None else '?'}'."


@tool(writes=True, working_set_policy="none", describe=_describe_reset, previewable=False)
def reset_view_isolation(ctx, args: NoArgs):
    """Show everything again in the active view: ends the temporary hide/isolate (isolate_in_view)."""
    from Autodesk.Revit import DB
    view = _graphic_view(ctx, "isolated or shown again")
    if not view.IsTemporaryHideIsolateActive():
        return f"Nothing to reset: view '{view.Name}' has no temporary hide/isolate."
    view.DisableTemporaryViewMode(DB.TemporaryViewMode.TemporaryHideIsolate)
    view_id = view.Id

    def reset():
        current = ctx.doc.GetElement(view_id)
        if current.IsTemporaryHideIsolateActive():
            raise ToolError(f"View '{current.Name}' still has a temporary hide/isolate after the reset.")
        return current

    def report() -> str:
        return f"Reset the temporary hide/isolate: view '{reset().Name}' shows all its elements again."

    # Nothing to record: a view still isolated is the ToolError itself, in the transaction and after it.
    return ToolOutput(change=Change(compare=lambda read_back: reset(), report=report))


# --- colour --------------------------------------------------------------------------------------


def parse_color(value) -> tuple[int, int, int] | None:
    """(r, g, b) from a name, [r, g, b] or '#RRGGBB'; None for 'none' (remove the override)."""
    if isinstance(value, (list, tuple)):
        if len(value) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in value):
            raise ToolError(f"color as a list must be three integers from 0 to 255, [r, g, b]; got {list(value)}.")
        return tuple(value)
    text = str(value).strip().casefold().replace(" ", "")
    if text in CLEAR_WORDS:
        return None
    if text in COLOURS:
        return COLOURS[text]
    match = re.fullmatch(r"#?([0-9a-f]{6})", text)
    if match:
        digits = match.group(1)
        return tuple(int(digits[i:i + 2], 16) for i in (0, 2, 4))
    match = re.fullmatch(r"(?:rgb)?\(?(\d{1,3}),(\d{1,3}),(\d{1,3})\)?", text)
    if match and all(0 <= int(c) <= 255 for c in match.groups()):
        return tuple(int(c) for c in match.groups())
    raise ToolError(f"Unknown color {value!r}. Give a name ({', '.join(n for n in COLOURS if n != 'gray')}), "
                    "[r, g, b] with 0-255 components, '#RRGGBB', or 'none' to remove the colour.")


def _colour_text(rgb) -> str:
    name = next((n for n, c in COLOURS.items() if c == tuple(rgb)), None)
    hex_code = "#{:02X}{:02X}{:02X}".format(*rgb)
    return f"{name} ({hex_code})" if name else hex_code


def _describe_color(ctx, args: ColorElementsArgs) -> str:
    view = ctx.uidoc.ActiveView
    try:
        rgb = parse_color(args.color)
    except ToolError:  # the call itself will say what is wrong with the colour
        rgb = tuple(args.color) if isinstance(args.color, list) else args.color
        what = f"Colour {rgb!r}:"
    else:
        what = "Remove the colour override of" if rgb is None else f"Colour {_colour_text(rgb)}:"
    return (f"{what} {plural(len(args.element_ids or []), 'element')} in view "
            f"'{view.Name if view is not None else '?'}'.")


def _color_targets(ctx, args: ColorElementsArgs) -> list[int]:
    """What colouring changes: the active view (its overrides), not the elements (a workshared model
    borrows the view, hosts/revit/targets.py)."""
    view = ctx.doc.ActiveView
    return targets_of.ids_of(ctx, [view]) if view is not None else []


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_color,
      targets=_color_targets, changes=lambda args: False)
def color_elements(ctx, args: ColorElementsArgs):
    """Colour elements in the active view (a graphic override of their lines and surfaces).

    Only this view changes; the elements themselves do not. color 'none' removes the override.
    Leave element_ids out to colour the working set. The working set does not change.
    """
    from Autodesk.Revit import DB
    rgb = parse_color(args.color)
    ids = unique_ids(args.element_ids)
    if not ids:
        raise ToolError("element_ids is empty: give the elements to colour.")
    view = _graphic_view(ctx, "coloured")
    elements, skipped = _graphic_elements(ctx, ids)
    if not elements:
        raise ToolError(f"None of the ids can be coloured: {id_sample(skipped, where='')} are types or views.")
    if (not_tried := targets_of.not_tried(ctx, view)) is not None:   # committing would borrow the view
        return not_tried
    # Revit draws an element the view cuts (a wall in a plan) with its cut lines and pattern, one
    # seen with its projection lines and surface pattern, and a pattern colour only with a fill
    # pattern: both are coloured, filled with the model's solid fill (paracore.revit.overrides).
    solid = overrides.solid_fill_pattern_id(ctx.doc) if rgb is not None else None
    settings = overrides.colour_overrides(rgb, solid) if rgb is not None else DB.OverrideGraphicSettings()
    expected = overrides.expected_colours(rgb, solid)
    coloured = [ctx.id_value(e.Id) for e in elements]
    for element in elements:
        view.SetElementOverrides(element.Id, settings)
    view_id = view.Id

    def held(current, value) -> dict:
        return overrides.override_colours(current.GetElementOverrides(ctx.element_id(value)))

    def compare(read_back: ReadBack) -> None:
        current = ctx.doc.GetElement(view_id)
        for value in coloured:
            got = held(current, value)
            for what, asked in expected.items():
                pattern = what.endswith("fill pattern")
                read_back.same(f"element {value}", what if pattern else f"{what} colour", asked, got[what],
                               shown=_pattern_text if pattern else _rgb_text)

    def report() -> str:
        current = ctx.doc.GetElement(view_id)
        done = [value for value in coloured if held(current, value) == expected]
        found, _ = elements_by_id(ctx, done)
        if rgb is None:
            text = (f"Removed the colour override of {plural(len(done), 'element')} ({category_summary(found)}) "
                    f"in view '{current.Name}'.")
        else:
            text = (f"Coloured {plural(len(done), 'element')} ({category_summary(found)}) "
                    f"{_colour_text(rgb)} in view '{current.Name}'.")
            if solid is None:
                text += (" Only their lines are coloured: surfaces are not filled because the model has no solid "
                         "fill pattern.")
        taken = set(done)
        missed = [i for i in coloured if i not in taken]
        if missed:
            text += f" {len(missed)} did not take the colour: {id_sample(missed, where='')}."
        return text + _skipped_note(skipped)

    return ToolOutput(change=Change(
        action=f"Colouring {plural(len(coloured), 'element')} in view '{view.Name}'", compare=compare, report=report,
        hint="Check that the view allows overrides (a view template may lock them), then ask again."))


def _rgb_text(rgb) -> str:
    return _colour_text(rgb) if rgb is not None else "no colour"


def _pattern_text(pattern_id) -> str:
    return "none" if pattern_id is None else f"fill pattern {pattern_id}"


# --- views ---------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def activate_view(ctx, args: ActivateViewArgs):
    """Open a view (plan, 3D view, schedule...) in Revit by its name: it becomes the active view.

    An unknown name is an error that lists the project's views.
    """
    view = find_view(ctx, args.view)
    current = ctx.uidoc.ActiveView
    if current is not None and current.Id == view.Id:
        return f"'{view_label(view)}' is already the active view."
    try:
        ctx.uidoc.ActiveView = view
    except Exception as exc:  # noqa: BLE001 - Revit says why it cannot switch now
        raise ToolError(f"Revit could not open '{view_label(view)}' now: {format_exception_for_model(exc)}. "
                        "Try again in the next step, or open it in Revit.") from None
    active = ctx.uidoc.ActiveView
    if active is None or active.Id != view.Id:
        raise ToolError(f"Revit did not open '{view_label(view)}': the active view is still "
                        f"'{view_label(active) if active is not None else 'none'}'.")
    return f"Opened '{view_label(active)}': it is now the active view."


def _describe_3d(ctx, args: Create3DViewArgs) -> str:
    text = f"Create a 3D view{f' named {args.name!r}' if args.name else ''}"
    if args.element_ids:
        text += f" with a section box around {plural(len(args.element_ids), 'element')}"
    return text + "."


@tool(writes=True, working_set_policy="none", describe=_describe_3d,
      changes=lambda args: False)   # a new view boxed around the elements: they do not change
def create_3d_view(ctx, args: Create3DViewArgs):
    """Create a new isometric 3D view, optionally with a section box around some elements.

    element_ids left out means the working set (a view of the whole model when it is empty); []
    means the whole model. The box encloses the elements' locations (points and location lines)
    with 1 m of space on every side, up to their height (3 m above elements whose height is
    unknown). The view is not opened: call activate_view with its name to show it.
    """
    from Autodesk.Revit import DB
    family_type = next((t for t in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewFamilyType)
                        if t.ViewFamily == DB.ViewFamily.ThreeDimensional), None)
    if family_type is None:
        raise ToolError("The project has no 3D view type, so no 3D view can be created.")
    name = " ".join(args.name.split()) if args.name else None
    if args.name is not None and not name:
        raise ToolError("name is empty: give a name for the view, or leave it null.")
    if name:
        taken = [v for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View3D) if v.Name == name]
        if taken:
            raise ToolError(f"A 3D view named '{name}' already exists (id {ctx.id_value(taken[0].Id)}). "
                            "Choose another name, or open it with activate_view.")
        refuse_bad_name(name, "name")
    box, boxed, skipped = (None, [], [])
    if args.element_ids:
        box, boxed, skipped = _section_box(ctx, unique_ids(args.element_ids))

    view = DB.View3D.CreateIsometric(ctx.doc, family_type.Id)
    if name:
        view.Name = name
    if box is not None:
        view.SetSectionBox(box)
    view_id = ctx.id_value(view.Id)

    def created():
        found = ctx.doc.GetElement(ctx.element_id(view_id))
        if found is None:
            raise ToolError("The 3D view is not in the model: it was not created.")
        return found

    def compare(read_back: ReadBack) -> None:
        new_view = created()
        if name:
            read_back.same(f"view {view_id}", "name", f"'{name}'", f"'{new_view.Name}'")
        if box is not None:
            kept = new_view.GetSectionBox() if new_view.IsSectionBoxActive else None
            if kept is None:
                read_back.same(f"view {view_id}", "section box", "on", "none")
            else:
                read_back.point(f"view {view_id}", "section box low corner", box.Min, kept.Min, z=True)
                read_back.point(f"view {view_id}", "section box high corner", box.Max, kept.Max, z=True)

    def report() -> str:
        new_view = created()
        text = f"Created the 3D view '{new_view.Name}' (id {view_id})"
        if new_view.IsSectionBoxActive:
            section = new_view.GetSectionBox()
            low, high = section.Min, section.Max
            unit = ctx.length_unit
            size = ", ".join(format_length(v, unit) for v in (high.X - low.X, high.Y - low.Y, high.Z - low.Z))
            text += (f" with a section box around {plural(len(boxed), 'element')} "
                     f"({size} wide, deep and high)")
        elif box is not None:
            text += ", but Revit did not keep the section box"
        text += ". Call activate_view to open it."
        if skipped:
            text += (f" Left out of the box {plural(len(skipped), 'element')} without a location: "
                     f"{id_sample(skipped, where='')}.")
        return text

    return ToolOutput(change=Change(
        action="Creating the 3D view", compare=compare, report=report,
        hint="Check the name (it must be new) and the elements for the box, then ask again."))


def _section_box(ctx, ids):
    """(BoundingBoxXYZ around the elements' locations, ids boxed, ids without a location)."""
    from Autodesk.Revit import DB
    elements = ctx.elements(ids)
    points, boxed, skipped = [], [], []
    for value, element in zip(ids, elements):
        found = location_points(element)
        if not found:
            skipped.append(value)
            continue
        boxed.append(value)
        height = height_of(element)
        points += found + [DB.XYZ(p.X, p.Y, p.Z + height) for p in found]
    if not points:
        raise ToolError(f"None of the elements has a location (a point or a line), so no section box "
                        f"can be placed around them: {id_sample(skipped, where='')}. Give element_ids [] "
                        "for a view of the whole model.")
    pad = SECTION_BOX_PADDING_M / 0.3048
    box = DB.BoundingBoxXYZ()
    box.Min = DB.XYZ(min(p.X for p in points) - pad, min(p.Y for p in points) - pad, min(p.Z for p in points) - pad)
    box.Max = DB.XYZ(max(p.X for p in points) + pad, max(p.Y for p in points) + pad, max(p.Z for p in points) + pad)
    return box, boxed, skipped


def location_points(element) -> list:
    """Points of an element's location: its point, or points along its location line."""
    from Autodesk.Revit import DB
    location = element.Location
    if isinstance(location, DB.LocationPoint):
        return [location.Point]
    if isinstance(location, DB.LocationCurve):
        curve = location.Curve
        if isinstance(curve, DB.Line):
            return [curve.GetEndPoint(0), curve.GetEndPoint(1)]
        return [curve.Evaluate(i / 16.0, True) for i in range(17)]  # arcs bulge past their ends
    return []


def height_of(element) -> float:
    """How far an element rises above its location, in feet (a storey when unknown)."""
    from Autodesk.Revit import DB
    for bip in (DB.BuiltInParameter.WALL_USER_HEIGHT_PARAM, DB.BuiltInParameter.INSTANCE_HEAD_HEIGHT_PARAM):
        parameter = element.get_Parameter(bip)
        if parameter is not None and parameter.StorageType == DB.StorageType.Double and parameter.AsDouble() > 0:
            return parameter.AsDouble()
    return DEFAULT_HEIGHT_M / 0.3048
