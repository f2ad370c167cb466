"""What an export takes: sheets by number, name or number range, views by name, a saved view/sheet
set, or the working set's sheets and views.

``ExportChoiceArgs`` holds the fields every export tool shares (a tool's args model inherits it);
``chosen_views(ctx, args)`` turns them into the views to export, in order, or refuses with the
valid choices listed (a few, and how to list the rest). Sheets run in their sheet-number order
where a range or "all" chose them, in the order given where they were named.

What Revit can export: a sheet that is not a placeholder (a placeholder sheet has no paper), and
a view that ``View.CanBePrinted`` (not a template nor a browser). The views of a saved set
(``ViewSheetSet``: Revit's Print/Export "view/sheet sets") are its ``OrderedViewList`` (2023+,
"Ordered views."), in the set's order.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

import re

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.tools.documentation.sheet_tools import find_sheet
from paracore.tools.framework.lookup import find_view, view_label, view_type_name
from paracore.tools.framework.results import ToolError
from paracore.tools.framework.wording import listed, plural

LISTED = 8                 # choices named in a refusal
NAME = 60                  # characters of a name quoted
_RANGE = re.compile(r"^\s*(\S+?)\s*(?:-|–|\.\.|to)\s*(\S+)\s*$", re.IGNORECASE)
_NUMBERED = re.compile(r"^(.*?)(\d+)$")


class ExportChoiceArgs(BaseModel):
    """The fields naming what to export; give one of them, or none for the working set's views."""
    sheets: list[str] | None = Field(
        None, description="Sheets by number or name ('A101', 'A101 - Plans'), number ranges ('A101-A105'), "
                          "or ['all'].")
    views: list[str] | None = Field(None, description="Views (not sheets) by name, e.g. 'Level 1'.")
    view_set: str | None = Field(None, description="A saved view/sheet set of the model, by name.")


def chosen_views(ctx, args: ExportChoiceArgs) -> list:
    """The sheets and views ``args`` names, without repeats, each one Revit can export."""
    given = [name for name, value in (("sheets", args.sheets), ("views", args.views),
                                      ("view_set", args.view_set)) if value]
    if len(given) > 1:
        raise ToolError(f"Give one of sheets, views or view_set, not {' and '.join(given)}.")
    if args.sheets:
        chosen = _sheets_named(ctx, args.sheets)
    elif args.views:
        chosen = [_exportable_view(ctx, name) for name in args.views]
    elif args.view_set:
        chosen = _set_views(ctx, args.view_set)
    else:
        chosen = _working_set_views(ctx)
    unique = list({ctx.id_value(view.Id): view for view in chosen}.values())
    return [_exportable(view) for view in unique]


def noun(views) -> str:
    """What an export's pieces are called in its results: sheets, views, or both."""
    from Autodesk.Revit import DB
    if all(isinstance(v, DB.ViewSheet) for v in views):
        return "sheet"
    return "view" if not any(isinstance(v, DB.ViewSheet) for v in views) else "sheet or view"


def label(view) -> str:
    """ "A101 - Plans" for a sheet, "Floor Plan: Level 1" for a view."""
    from Autodesk.Revit import DB
    if isinstance(view, DB.ViewSheet):
        return f"{view.SheetNumber} - {view.Name}"
    return view_label(view)


def file_label(view) -> str:
    """ "A101 - Plans" for a sheet, "Floor Plan - Level 1" for a view: a name for its file."""
    from Autodesk.Revit import DB
    return label(view) if isinstance(view, DB.ViewSheet) else f"{view_type_name(view)} - {view.Name}"


def all_sheets(ctx) -> list:
    """The model's sheets that can be exported (placeholders have no paper), by sheet number."""
    from Autodesk.Revit import DB
    sheets = [s for s in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewSheet)
              if not s.IsTemplate and not s.IsPlaceholder]
    return sorted(sheets, key=lambda s: _number_key(s.SheetNumber))


def _sheets_named(ctx, names: list[str]) -> list:
    sheets = []
    for name in names:
        text = " ".join(str(name).split())
        if text.casefold() in ("all", "*", "all sheets"):
            found = all_sheets(ctx)
            if not found:
                raise ToolError("The project has no sheets to export. Create them with create_sheet and place "
                                "views with place_views_on_sheet, or export views by name (views).")
            sheets += found
        elif _is_range(ctx, text):
            sheets += _sheet_range(ctx, text)
        else:
            sheets.append(find_sheet(ctx, text))
    return sheets


def _is_range(ctx, text: str) -> bool:
    """ "A101-A105" (two numbers with one prefix) is a range unless a sheet is numbered or named so."""
    from Autodesk.Revit import DB
    match = _RANGE.match(text)
    ends = [_NUMBERED.match(end) for end in match.groups()] if match else []
    if not ends or None in ends or ends[0].group(1).casefold() != ends[1].group(1).casefold():
        return False
    for sheet in DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewSheet):
        if text.casefold() in (sheet.SheetNumber.casefold(), sheet.Name.casefold(),
                               f"{sheet.SheetNumber} - {sheet.Name}".casefold()):
            return False
    return True


def _sheet_range(ctx, text: str) -> list:
    """The sheets numbered from the range's first to its last number, in the Project Browser's order:
    same prefix, then a number, and between the two ends. A sheet inserted with a suffix (A101a,
    A101.1) is inside, where the browser lists it: A101-A103 takes A101, A101a, A102, A103."""
    first, last = _RANGE.match(text).groups()
    prefix = _NUMBERED.match(first).group(1).casefold()
    low, high = sorted((_number_key(first), _number_key(last)))
    sheets = all_sheets(ctx)
    inside = [s for s in sheets if _has_prefix(s.SheetNumber, prefix) and low <= _number_key(s.SheetNumber) <= high]
    if not inside:
        raise ToolError(f"No sheet is numbered in the range '{display_text(text, NAME)}'. "
                        f"Sheets: {_sheet_list(sheets)}.")
    return inside


def _exportable_view(ctx, name: str):
    return find_view(ctx, name)


def _set_views(ctx, name: str) -> list:
    from Autodesk.Revit import DB
    sets = sorted(DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewSheetSet), key=lambda s: s.Name.casefold())
    wanted = " ".join(str(name).split()).casefold()
    found = next((s for s in sets if " ".join(s.Name.split()).casefold() == wanted), None)
    if found is None:
        if not sets:
            raise ToolError(f"The model has no saved view/sheet sets, so there is no '{display_text(name, NAME)}'. "
                            "Name the sheets (sheets, e.g. ['A101-A105'] or ['all']) or the views instead.")
        raise ToolError(f"No view/sheet set named '{display_text(name, NAME)}'. Sets: "
                        f"{listed([display_text(s.Name, NAME) for s in sets], LISTED)}.")
    views = list(found.OrderedViewList)
    if not views:
        raise ToolError(f"The view/sheet set '{display_text(found.Name, NAME)}' is empty.")
    return views


def _working_set_views(ctx) -> list:
    from Autodesk.Revit import DB
    ids = list(ctx.session.working_set.ids)
    views = [e for e in (ctx.doc.GetElement(ctx.element_id(i)) for i in ids)
             if isinstance(e, DB.View) and not e.IsTemplate]
    if views:
        return views
    held = f"the working set holds {plural(len(ids), 'element')} but no sheet or view" if ids else \
        "the working set is empty"
    raise ToolError(f"Nothing to export: {held}. Give sheets (numbers, names, a range such as 'A101-A105', or "
                    f"['all']), views by name, or a saved view/sheet set. Sheets: {_sheet_list(all_sheets(ctx))}.")


def _exportable(view):
    """``view`` if Revit can export it, else a refusal that says why."""
    from Autodesk.Revit import DB
    if isinstance(view, DB.ViewSheet) and view.IsPlaceholder:
        raise ToolError(f"Sheet '{display_text(label(view), NAME)}' is a placeholder sheet: it has no paper to "
                        "export. Leave it out.")
    if view.IsTemplate or not view.CanBePrinted:
        raise ToolError(f"'{display_text(label(view), NAME)}' cannot be exported (Revit cannot print this kind of "
                        "view). Export a sheet or a plan, section, elevation, 3D view or drafting view.")
    return view


def _sheet_list(sheets) -> str:
    if not sheets:
        return "none yet (create_sheet makes one)"
    return listed([display_text(label(s), NAME) for s in sheets], LISTED)


def _has_prefix(number: str, prefix: str) -> bool:
    """Whether a sheet number is ``prefix`` (case-folded) followed by a digit: A101a for 'A', not AB101."""
    rest = number.casefold()[len(prefix):] if number.casefold().startswith(prefix) else ""
    return rest[:1].isdigit()


def _number_key(number: str) -> tuple:
    """Sheet numbers in their natural order: A2 before A10."""
    return tuple((0, int(part)) if part.isdigit() else (1, part.casefold())
                 for part in re.findall(r"\d+|\D+", number))
