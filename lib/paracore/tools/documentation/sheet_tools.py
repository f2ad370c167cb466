"""Sheet tools: create a sheet with a title block, place views on it without overlap, list sheets.

Where views go: inside the title block's drawing area, which is the sheet (ViewSheet.Outline,
the title block's extent) less a border (20 mm on the binding edge, 10 mm elsewhere, ISO 5457)
and the title strip on the right (180 mm, at most 30 % of the sheet's width), as on Revit's
metric title blocks. The API has no notion of a drawing area, so this is the tool's rule.

How they are laid out: each view is placed once (Viewport.Create), the document regenerated,
then its box measured as Revit reports it (GetBoxOutline: its crop region at its scale); then
every viewport of the sheet, those already there included, is arranged in a grid or a row with
a gap between boxes (SetBoxCenter). The regeneration comes first because a new element's values
are not to be trusted before it: Autodesk's Document.Regenerate example reads a new instance's
location and notes "this data is incorrect because the new geometry has not yet been
regenerated" (what a viewport's outline is then is not documented). If they cannot all fit, the
tool raises: the executor rolls the step's transaction back, so no viewport is left placed.
After the commit the outlines are re-read and checked: inside the area, no two overlapping on
the sheet (compared in X and Y: a viewport's outline is flat, and Outline.Intersects with a
negative tolerance asks for an overlap "in each coordinate", Z included, so it never sees one).

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.tools.framework.lookup import close_matches, find_view, names_match, pick_by_name, type_label, view_label, view_type_name
from paracore.tools.framework.names import refuse_bad_name
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput, offset_field, page_of, working_set_output
from paracore.tools.framework.wording import listed, plural

MM = 1 / 304.8                 # feet per millimetre (sheets are measured in feet on paper)
BINDING_MARGIN = 20 * MM
BORDER = 10 * MM
TITLE_STRIP = 180 * MM
TITLE_STRIP_SHARE = 0.3
GAP = 10 * MM                  # between two viewports' boxes
OVERLAP = 1e-6                 # feet of paper two boxes may share (rounding) without overlapping
SHOWN_SHEETS = 15              # sheets listed by list_sheets (a page; offset reads the next)
SHEETS_BUDGET = 1700           # characters of their rows
SHOWN_VIEWS = 5                # views named per sheet
SHOWN_SHEET_VIEWS = 20         # views listed, one a row, for list_sheets' one sheet (a page)
LISTED_CHOICES = 12            # names listed in an error
MAX_VIEWS = 50                 # views placed in one call
NAME = 60                      # characters of a name quoted in a result


# --- argument models ---------------------------------------------------------------------------


class CreateSheetArgs(BaseModel):
    number: str = Field(description="Sheet number, e.g. 'A101'; it must not be used by another sheet.")
    name: str = Field(description="Sheet name, e.g. 'Floor Plans'.")
    title_block: str | None = Field(
        None, description="Title block type: 'Family: Type' (e.g. 'A1 metric: A1'), a type or a family name. "
                          "Leave null for the project's first title block.")


class PlaceViewsArgs(BaseModel):
    sheet: str = Field(description="The sheet: its number ('A101'), its name, or its id.")
    views: list[str | int] | None = Field(
        None, description="Views to place: names ('Level 1', 'Floor Plan: Level 1') or ids. Leave null to "
                          "place the views in the working set.")
    layout: Literal["grid", "row"] = Field(
        "grid", description="'grid' (rows and columns, as square as fits) or 'row' (side by side).")


class ListSheetsArgs(BaseModel):
    sheet: str | None = Field(None, description="Only this sheet (number or name): every view placed on it.")
    offset: int = offset_field()


# --- finding sheets and title blocks ---------------------------------------------------------------


def _sheets(ctx) -> list:
    from Autodesk.Revit import DB
    sheets = [s for s in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewSheet) if not s.IsTemplate]
    return sorted(sheets, key=lambda s: s.SheetNumber.casefold())


def _sheet_label(sheet) -> str:
    """ "A101 - Floor Plans", as the Project Browser names a sheet."""
    return f"{display_text(sheet.SheetNumber, NAME)} - {display_text(sheet.Name, NAME)}"


def find_sheet(ctx, text: str):
    """The sheet with this number, name ("A101 - Plans" too) or id; a ToolError lists the sheets."""
    sheets = _sheets(ctx)
    wanted = " ".join(str(text).split())
    found = pick_by_name(
        ctx, sheets, wanted,
        (lambda s: s.SheetNumber == wanted, lambda s: names_match(s.SheetNumber, wanted),
         lambda s: names_match(s.Name, wanted), lambda s: names_match(f"{s.SheetNumber} - {s.Name}", wanted)),
        lambda matches: (f"Several sheets are named '{display_text(wanted, NAME)}': "
                         f"{listed([_sheet_label(s) for s in matches], LISTED_CHOICES)}. "
                         "Give the sheet by its number."))
    if found is not None:
        return found
    if not sheets:
        raise ToolError("The project has no sheets yet. Create one with create_sheet.")
    close = close_matches(wanted, [s.Name for s in sheets] + [s.SheetNumber for s in sheets], n=3, cutoff=0.6)
    hint = f" Did you mean {' or '.join(repr(display_text(c, NAME)) for c in close)}?" if close else ""
    raise ToolError(f"No sheet numbered or named '{display_text(wanted, NAME)}'.{hint} "
                    f"Sheets: {listed([_sheet_label(s) for s in sheets], LISTED_CHOICES)}.")


def _title_blocks(ctx) -> list:
    from Autodesk.Revit import DB
    return list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.FamilySymbol)
                .OfCategory(DB.BuiltInCategory.OST_TitleBlocks))


def find_title_block(ctx, name: str | None):
    """The title block type called ``name`` ("Family: Type", a type or a family name); None: the first."""
    blocks = _title_blocks(ctx)
    if not blocks:
        raise ToolError("The project has no title blocks. Load one in Revit (Insert > Load Family > Titleblocks), "
                        "then ask again.")
    if name is None:
        return blocks[0]
    for matches in ([b for b in blocks if names_match(type_label(b), name)],
                    [b for b in blocks if names_match(b.Name, name)],
                    [b for b in blocks if names_match(b.FamilyName, name)]):
        if matches:
            return matches[0]
    labels = [type_label(b) for b in blocks]
    close = close_matches(str(name), labels, n=3, cutoff=0.5)
    hint = f" Did you mean {' or '.join(repr(display_text(c, NAME)) for c in close)}?" if close else ""
    raise ToolError(f"No title block named '{display_text(name, NAME)}'.{hint} "
                    f"Title blocks: {listed([display_text(label, NAME) for label in labels], LISTED_CHOICES)}.")


def _title_block_of(ctx, sheet):
    """The title block instance on a sheet (None for a sheet without one)."""
    from Autodesk.Revit import DB
    return (DB.FilteredElementCollector(ctx.doc, sheet.Id).OfCategory(DB.BuiltInCategory.OST_TitleBlocks)
            .WhereElementIsNotElementType().FirstElement())


def _title_block_label(ctx, sheet) -> str:
    instance = _title_block_of(ctx, sheet)
    symbol = ctx.doc.GetElement(instance.GetTypeId()) if instance is not None else None
    return display_text(type_label(symbol), NAME) if symbol is not None else "no title block"


# --- sizes and the drawing area ----------------------------------------------------------------------


def _mm(feet: float) -> str:
    return f"{feet / MM:.0f}"


def _size(width: float, height: float) -> str:
    return f"{_mm(width)} x {_mm(height)} mm"


def drawing_area(sheet) -> tuple[float, float, float, float] | None:
    """(left, bottom, right, top) in sheet feet where views may go; None when the sheet is empty."""
    outline = sheet.Outline
    width, height = outline.Max.U - outline.Min.U, outline.Max.V - outline.Min.V
    if width <= 0 or height <= 0:
        return None
    strip = min(TITLE_STRIP, TITLE_STRIP_SHARE * width)
    left, right = outline.Min.U + BINDING_MARGIN, outline.Max.U - BORDER - strip
    bottom, top = outline.Min.V + BORDER, outline.Max.V - BORDER
    return (left, bottom, right, top) if right > left and top > bottom else None


def _box_size(viewport) -> tuple[float, float]:
    outline = viewport.GetBoxOutline()
    low, high = outline.MinimumPoint, outline.MaximumPoint
    return high.X - low.X, high.Y - low.Y


def _rectangle(outline) -> tuple[float, float, float, float]:
    low, high = outline.MinimumPoint, outline.MaximumPoint
    return low.X, low.Y, high.X, high.Y


def overlap(a, b) -> bool:
    """Whether two (left, bottom, right, top) boxes on a sheet overlap by more than OVERLAP (touching does not)."""
    return (min(a[2], b[2]) - max(a[0], b[0]) > OVERLAP) and (min(a[3], b[3]) - max(a[1], b[1]) > OVERLAP)


# --- the layout (pure: sizes in, centres out) ----------------------------------------------------------


def grid_centres(sizes, columns: int, area) -> list[tuple[float, float]] | None:
    """Centres of boxes laid out left to right, top to bottom in ``columns`` columns, the block
    centred in ``area``; None when it does not fit."""
    left, bottom, right, top = area
    rows = [sizes[i:i + columns] for i in range(0, len(sizes), columns)]
    widths = [max(row[c][0] for row in rows if c < len(row)) for c in range(min(columns, len(sizes)))]
    heights = [max(h for _, h in row) for row in rows]
    total_w = sum(widths) + GAP * (len(widths) - 1)
    total_h = sum(heights) + GAP * (len(heights) - 1)
    if total_w > right - left or total_h > top - bottom:
        return None
    x0 = left + (right - left - total_w) / 2
    y = top - (top - bottom - total_h) / 2
    centres = []
    for row, row_height in zip(rows, heights):
        x = x0
        for column_width in widths[:len(row)]:
            centres.append((x + column_width / 2, y - row_height / 2))
            x += column_width + GAP
        y -= row_height + GAP
    return centres


def layout(sizes, kind: str, area) -> list[tuple[float, float]] | None:
    """Centres for the boxes in a row, or in the squarest grid that fits; None if none fits."""
    n = len(sizes)
    if kind == "row":
        return grid_centres(sizes, n, area)
    square = math.ceil(math.sqrt(n))
    for columns in sorted(range(1, n + 1), key=lambda c: (abs(c - square), -c)):
        centres = grid_centres(sizes, columns, area)
        if centres is not None:
            return centres
    return None


def _what_does_not_fit(names, sizes, kind: str, area) -> list[str]:
    """The views past the first that fit, in order (the first n that fit together are kept)."""
    for count in range(len(sizes) - 1, -1, -1):
        if count == 0 or layout(sizes[:count], kind, area) is not None:
            return names[count:]
    return names


# --- tools ---------------------------------------------------------------------------------------------


def _describe_create(ctx, args: CreateSheetArgs) -> str:
    block = f" with title block {args.title_block!r}" if args.title_block else ""
    return f"Create sheet {args.number!r} - {args.name!r}{block}."


@tool(writes=True, working_set_policy="replace", describe=_describe_create)
def create_sheet(ctx, args: CreateSheetArgs):
    """Create a sheet with a number, a name and a title block (the project's first when left out).

    A number another sheet already has is refused. The new sheet becomes the working set; put
    views on it with place_views_on_sheet.
    """
    from Autodesk.Revit import DB
    number, name = " ".join(args.number.split()), " ".join(args.name.split())
    if not number or not name:
        raise ToolError("number and name must not be empty: give the sheet a number (e.g. 'A101') and a name.")
    refuse_bad_name(number, "sheet number")
    refuse_bad_name(name, "sheet name")
    taken = next((s for s in _sheets(ctx) if s.SheetNumber.casefold() == number.casefold()), None)
    if taken is not None:
        raise ToolError(f"Sheet number '{display_text(number, NAME)}' is already used by sheet "
                        f"'{_sheet_label(taken)}' (id {ctx.id_value(taken.Id)}). Choose another number, "
                        f"or place views on that sheet with place_views_on_sheet.")
    block = find_title_block(ctx, args.title_block)
    sheet = DB.ViewSheet.Create(ctx.doc, block.Id)
    sheet.SheetNumber = number
    sheet.Name = name
    sheet_id = ctx.id_value(sheet.Id)
    block_label = display_text(type_label(block), NAME)

    def created():
        found = ctx.doc.GetElement(ctx.element_id(sheet_id))
        if not isinstance(found, DB.ViewSheet):
            raise ToolError("The sheet is not in the model: it was not created.")
        return found

    def compare(read_back: ReadBack) -> None:
        new_sheet, subject = created(), f"sheet {sheet_id}"
        read_back.same(subject, "number", f"'{number}'", f"'{new_sheet.SheetNumber}'")
        read_back.same(subject, "name", f"'{name}'", f"'{new_sheet.Name}'")
        read_back.same(subject, "title block", block_label, _title_block_label(ctx, new_sheet))

    def report() -> str:
        new_sheet = created()
        outline = new_sheet.Outline
        size = _size(outline.Max.U - outline.Min.U, outline.Max.V - outline.Min.V)
        return (f"Created sheet '{_sheet_label(new_sheet)}' (id {sheet_id}) with title block "
                f"{_title_block_label(ctx, new_sheet)} ({size}). "
                "It is now the working set. Place views on it with place_views_on_sheet.")

    return ToolOutput(change=Change(action=f"Creating sheet '{number}'", compare=compare, report=report,
                                    hint="Check the number (it must be new), the name and the title block, then "
                                         "ask again."),
                      working_set=working_set_output([sheet_id], "replace", f"Created sheet {number}."))


def _views_to_place(ctx, args: PlaceViewsArgs) -> list:
    """The views asked for (names or ids), or the views in the working set."""
    from Autodesk.Revit import DB
    if args.views is None:
        in_set = [ctx.doc.GetElement(ctx.element_id(i)) for i in ctx.session.working_set.ids]
        views = [v for v in in_set if isinstance(v, DB.View) and not isinstance(v, DB.ViewSheet)]
        if not views:
            raise ToolError("views is null and the working set holds no views: name the views to place, "
                            "e.g. views=['Level 1', 'Level 2'].")
    else:
        if not args.views:
            raise ToolError("views is empty: name the views to place, e.g. views=['Level 1', 'Level 2'].")
        views = [find_view(ctx, str(v)) for v in args.views[:MAX_VIEWS + 1]]
    if len(views) > MAX_VIEWS:
        raise ToolError(f"Too many views: place at most {MAX_VIEWS} in one call (a sheet holds a few).")
    ids = [ctx.id_value(v.Id) for v in views]
    twice = sorted({display_text(view_label(v), NAME) for v, i in zip(views, ids) if ids.count(i) > 1})
    if twice:
        raise ToolError(f"views names {', '.join(twice)} more than once: give each view once.")
    return views


def _why_not(ctx, view) -> str:
    """Why Revit will not put ``view`` on a sheet."""
    from Autodesk.Revit import DB
    label = f"'{display_text(view_label(view), NAME)}'"
    if isinstance(view, DB.ViewSheet):
        return f"{label} is a sheet"
    if view.IsTemplate:
        return f"{label} is a view template"
    if isinstance(view, DB.ViewSchedule):
        return f"{label} is a schedule (schedules go on sheets as schedule instances, which this tool does not place)"
    for viewport in DB.FilteredElementCollector(ctx.doc).OfClass(DB.Viewport):
        if viewport.ViewId == view.Id:
            sheet = ctx.doc.GetElement(viewport.SheetId)
            return f"{label} is already on sheet '{_sheet_label(sheet)}' (a view goes on one sheet only)"
    return f"{label} cannot be placed on a sheet"


def _describe_place(ctx, args: PlaceViewsArgs) -> str:
    what = listed([repr(str(v)) for v in args.views], SHOWN_VIEWS) if args.views else "the views in the working set"
    return f"Place {what} on sheet {args.sheet!r} ({args.layout} layout)."


@tool(writes=True, working_set_policy="replace", describe=_describe_place)
def place_views_on_sheet(ctx, args: PlaceViewsArgs):
    """Place views on a sheet, inside its title block's drawing area, without overlapping.

    layout 'grid' arranges them in rows and columns (as square as fits), 'row' side by side;
    viewports already on the sheet are arranged with them. A view goes on one sheet only. When
    they cannot all fit, none is placed and the result says which do not fit (try a larger title
    block, fewer views or 'grid'). The new viewports become the working set.
    """
    from Autodesk.Revit import DB
    sheet = find_sheet(ctx, args.sheet)
    area = drawing_area(sheet)
    if area is None:
        raise ToolError(f"Sheet '{_sheet_label(sheet)}' has no title block, so it has no drawing area. "
                        "Create a sheet with a title block (create_sheet), then place the views on it.")
    views = _views_to_place(ctx, args)
    refused = [_why_not(ctx, v) for v in views if not DB.Viewport.CanAddViewToSheet(ctx.doc, sheet.Id, v.Id)]
    if refused:
        raise ToolError("Nothing was placed: " + "; ".join(refused[:LISTED_CHOICES])
                        + (f"; … and {len(refused) - LISTED_CHOICES} more" if len(refused) > LISTED_CHOICES else "")
                        + ". Leave those views out, or duplicate a view to put it on a second sheet.")
    existing = [ctx.doc.GetElement(i) for i in sheet.GetAllViewports()]
    centre = DB.XYZ((area[0] + area[2]) / 2, (area[1] + area[3]) / 2, 0)
    # Placed first, regenerated, then measured: the box Revit gives a viewport is the size to lay out.
    created = [DB.Viewport.Create(ctx.doc, sheet.Id, v.Id, centre) for v in views]
    ctx.regenerate_mid_change()
    viewports = existing + created
    sizes = [_box_size(v) for v in viewports]
    centres = layout(sizes, args.layout, area)
    if centres is None:
        raise ToolError(_does_not_fit(ctx, sheet, viewports, sizes, args.layout, area))
    for viewport, (x, y) in zip(viewports, centres):
        viewport.SetBoxCenter(DB.XYZ(x, y, 0))
    sheet_id = ctx.id_value(sheet.Id)
    new_ids = [ctx.id_value(v.Id) for v in created]
    asked = {ctx.id_value(v.Id): (ctx.id_value(v.ViewId), DB.XYZ(x, y, 0)) for v, (x, y) in zip(viewports, centres)}

    # Sheet coordinates are paper feet: the differences are shown in mm of paper, whatever the project's units.
    return ToolOutput(change=Change(
        action="Placing the views", hint="Check that the views can go on this sheet, then ask again.", length_unit="mm",
        compare=lambda read_back: _compare_viewports(ctx, read_back, sheet_id, asked),
        report=lambda: _check_sheet(ctx, sheet_id, new_ids, moved=len(existing))),
        working_set=working_set_output(new_ids, "replace", f"Placed {len(new_ids)} views."))


def _viewport_name(ctx, viewport) -> str:
    view = ctx.doc.GetElement(viewport.ViewId)
    return f"'{display_text(view_label(view), NAME)}'" if view is not None else f"viewport {ctx.id_value(viewport.Id)}"


def _does_not_fit(ctx, sheet, viewports, sizes, kind: str, area) -> str:
    names = [f"{_viewport_name(ctx, v)} ({_size(*s)})" for v, s in zip(viewports, sizes)]
    left_out = _what_does_not_fit(names, sizes, kind, area)
    return (f"Nothing was placed: the views do not all fit in the drawing area of sheet '{_sheet_label(sheet)}' "
            f"({_size(area[2] - area[0], area[3] - area[1])}) in a {kind}. "
            f"They do not fit: {listed(left_out, LISTED_CHOICES)}. "
            "Use a larger title block (create_sheet), place fewer views, use layout 'grid', or change the views' "
            "scale.")


def _compare_viewports(ctx, read_back: ReadBack, sheet_id: int, asked: dict) -> None:
    """Each viewport: on the sheet, showing its view, centred where the layout put it."""
    for viewport_id, (view_id, centre) in asked.items():
        viewport = ctx.doc.GetElement(ctx.element_id(viewport_id))
        subject = f"viewport {viewport_id}"
        if viewport is None:
            read_back.same(subject, "existence", "on the sheet", "not in the model")
            continue
        read_back.same(subject, "sheet", sheet_id, ctx.id_value(viewport.SheetId))
        read_back.same(subject, "view", view_id, ctx.id_value(viewport.ViewId))
        read_back.point(subject, "centre on the sheet", centre, viewport.GetBoxCenter())


def _check_sheet(ctx, sheet_id: int, new_ids: list[int], moved: int) -> str:
    """Re-read the sheet's viewports: each inside the drawing area, no two overlapping."""
    from Autodesk.Revit import DB
    sheet = ctx.doc.GetElement(ctx.element_id(sheet_id))
    area = drawing_area(sheet)
    viewports = [ctx.doc.GetElement(i) for i in sheet.GetAllViewports()]
    missing = [i for i in new_ids if all(ctx.id_value(v.Id) != i for v in viewports)]
    if missing:
        raise ToolError(f"Revit did not keep {len(missing)} of the viewports on sheet '{_sheet_label(sheet)}'.")
    frame = DB.Outline(DB.XYZ(area[0], area[1], 0), DB.XYZ(area[2], area[3], 0))
    outlines = [v.GetBoxOutline() for v in viewports]
    outside = [_viewport_name(ctx, v) for v, o in zip(viewports, outlines) if not frame.ContainsOtherOutline(o, 1e-6)]
    boxes = [_rectangle(o) for o in outlines]
    overlapping = [f"{_viewport_name(ctx, viewports[i])} and {_viewport_name(ctx, viewports[j])}"
                   for i in range(len(boxes)) for j in range(i + 1, len(boxes)) if overlap(boxes[i], boxes[j])]
    if outside or overlapping:
        raise ToolError(f"The viewports on sheet '{_sheet_label(sheet)}' are not laid out as asked: "
                        f"outside the drawing area: {listed(outside, LISTED_CHOICES) or 'none'}; "
                        f"overlapping: {listed(overlapping, LISTED_CHOICES) or 'none'}.")
    placed = [v for v in viewports if ctx.id_value(v.Id) in new_ids]
    shown = listed([f"{_viewport_name(ctx, v)} ({_size(*_box_size(v))})" for v in placed], SHOWN_VIEWS)
    text = (f"Placed {plural(len(placed), 'view')} on sheet '{_sheet_label(sheet)}': {shown}. "
            f"All {len(viewports)} viewports are inside the drawing area "
            f"({_size(area[2] - area[0], area[3] - area[1])}) and none overlaps.")
    if moved:
        text += f" The {plural(moved, 'viewport')} already on the sheet moved to make room (re-arranged with them)."
    return text + " The new viewports are now the working set."


@tool(working_set_policy="none")
def list_sheets(ctx, args: ListSheetsArgs):
    """List the project's sheets: number, name, title block and the views placed on each.

    Many sheets: the count and the first ones by number. With sheet: every view placed on that sheet.
    """
    if args.sheet is not None:
        return _sheet_views(ctx, find_sheet(ctx, args.sheet), args.offset)
    sheets = _sheets(ctx)
    if not sheets:
        return "The project has no sheets. Create one with create_sheet."

    def row(sheet) -> str:
        placed = [ctx.doc.GetElement(i) for i in sheet.GetAllPlacedViews()]
        names = sorted(display_text(v.Name, NAME) for v in placed if v is not None)
        views = plural(len(names), "view") + (f" ({listed(names, SHOWN_VIEWS)})" if names else "")
        if len(names) > SHOWN_VIEWS:
            views = views[:-1] + f" (list_sheets with sheet '{display_text(sheet.SheetNumber, NAME)}' lists them))"
        label = f"{_sheet_label(sheet)} (id {ctx.id_value(sheet.Id)})"
        return f"- {label}: {_title_block_label(ctx, sheet)}; {views}"

    page = page_of(sheets, args.offset, row, SHEETS_BUDGET, SHOWN_SHEETS, "sheets")
    first = f"; the first {len(page.rows)} by number" if page.rest and not page.offset else ""
    lines = [plural(len(sheets), "sheet") + first + page.position() + ":", *page.rows]
    if page.rest:
        lines.append(page.next_hint())
    return "\n".join(lines)


def _sheet_views(ctx, sheet, offset: int) -> str:
    """Every view placed on ``sheet``, by name, a page from ``offset``."""
    placed = [v for v in (ctx.doc.GetElement(i) for i in sheet.GetAllPlacedViews()) if v is not None]
    label = f"sheet '{_sheet_label(sheet)}' (id {ctx.id_value(sheet.Id)})"
    if not placed:
        return f"No views are placed on {label}. Place some with place_views_on_sheet."
    placed.sort(key=lambda v: display_text(v.Name, NAME).casefold())
    page = page_of(placed, offset, lambda v: f"- '{display_text(v.Name, NAME)}' · {view_type_name(v)} · id "
                                             f"{ctx.id_value(v.Id)}", SHEETS_BUDGET, SHOWN_SHEET_VIEWS, "views")
    lines = [f"{plural(len(placed), 'view')} on {label}{page.position()}:", *page.rows]
    if page.rest:
        lines.append(page.next_hint())
    return "\n".join(lines)
