"""Finding things in the model for tools: levels, types by name, and short summaries of elements.

Every lookup fails with a ToolError that lists the valid choices (and the closest names), so the
model can correct its call. Summaries are bounded: counts and a few ids, never thousands.
"""
from __future__ import annotations

import difflib
import functools
import re
from collections import Counter

from paracore.core.display import display_text
from paracore.core.working_set import count_label, singular
from paracore.tools.framework.results import ToolError
from paracore.tools.framework.wording import listed

LISTED_CHOICES = 12     # names listed in an error message
SAMPLE_IDS = 10         # ids quoted inline in results
SHOWN_CATEGORIES = 8    # categories named in a summary


# --- finding levels and types ---------------------------------------------------------------------


def levels_by_elevation(ctx) -> list:
    from Autodesk.Revit import DB
    return sorted(DB.FilteredElementCollector(ctx.doc).OfClass(DB.Level), key=lambda lv: lv.Elevation)


def find_level(ctx, name: str):
    """The level called ``name`` (exact, then ignoring case), or a ToolError listing the levels."""
    levels = levels_by_elevation(ctx)
    found = _by_name(levels, name, lambda lv: lv.Name)
    if found is not None:
        return found
    if not levels:
        raise ToolError("The project has no levels. Create a level in Revit first, then ask again.")
    raise ToolError(f"No level named '{display_text(name)}'. Levels: {listed_levels(levels)}.")


def listed_levels(levels) -> str:
    """ "T/FDN, Level 1, …": the first LISTED_CHOICES names, then how many more (a tower has hundreds)."""
    names = [display_text(lv.Name) for lv in levels]
    text = ", ".join(names[:LISTED_CHOICES])
    if len(names) > LISTED_CHOICES:
        text += f", … and {len(names) - LISTED_CHOICES} more (list_levels shows them)"
    return text


def find_wall_type(ctx, name: str | None):
    """The wall type called ``name``; None means the project's default wall type (the one Revit
    offers for new walls), else the first basic wall type."""
    from Autodesk.Revit import DB
    wall_types = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.WallType))
    if not wall_types:
        raise ToolError("The project has no wall types. Load or create one in Revit, then ask again.")
    if name is None:
        default = ctx.doc.GetElement(ctx.doc.GetDefaultElementTypeId(DB.ElementTypeGroup.WallType))
        if isinstance(default, DB.WallType):
            return default
        basic = [t for t in wall_types if t.Kind == DB.WallKind.Basic]
        return (basic or wall_types)[0]
    found = _by_name(wall_types, name, lambda t: t.Name)
    if found is not None:
        return found
    raise ToolError(_no_such_type("wall type", name, [t.Name for t in wall_types]))


def door_label(symbol) -> str:
    """ "Family: Type", how Revit names a door type in its type selector."""
    return f"{symbol.FamilyName}: {symbol.Name}"


def find_door_type(ctx, name: str | None):
    """The door type called ``name`` ("Family: Type", a type name, or a family name)."""
    from Autodesk.Revit import DB
    return find_family_type(ctx, DB.BuiltInCategory.OST_Doors, "door", name)


def find_family_type(ctx, category, kind: str, name: str | None):
    """The family type of ``category`` called ``name`` ("Family: Type", a type name, or a
    family name; None: the first one). ``kind`` names it in messages ("door", "window")."""
    from Autodesk.Revit import DB
    symbols = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.FamilySymbol).OfCategory(category))
    if not symbols:
        raise ToolError(f"The project has no {kind} types. Load a {kind} family in Revit "
                        "(Insert > Load Family), then ask again.")
    if name is None:
        return symbols[0]
    key = _normal(name)
    for matches in ([s for s in symbols if _normal(door_label(s)) == key],
                    [s for s in symbols if _normal(s.Name) == key]):
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ToolError(f"Several {kind} types are named '{name}': "
                            f"{', '.join(door_label(s) for s in matches)}. Give {kind}_type as 'Family: Type'.")
    family = [s for s in symbols if _normal(s.FamilyName) == key]
    if family:
        return family[0]  # a family name alone: its first type (the result names it)
    labels = [door_label(s) for s in symbols]
    raise ToolError(_no_such_type(f"{kind} type", name, labels) + f" Give {kind}_type as 'Family: Type'.")


def _by_name(items, name: str, name_of):
    for same in (lambda a, b: a == b, lambda a, b: _normal(a) == _normal(b)):
        for item in items:
            if same(name_of(item), name):
                return item
    return None


def _normal(text: str) -> str:
    """Case, repeated spaces and spaces around ':' do not matter in names."""
    text = str(text)
    return _normal_long(text) if len(text) > _LONG_NAME else _normalise(text)


_LONG_NAME = 1000  # characters; no real name is this long, but the model may write 1 MB


@functools.lru_cache(maxsize=4)
def _normal_long(text: str) -> str:
    # A lookup compares the asked name with every candidate: a 1 MB name normalised for each of
    # 100 types froze Revit for seconds. Cached, but only a few: the cache holds them alive.
    return _normalise(text)


def _normalise(text: str) -> str:
    return re.sub(r"\s*:\s*", ": ", " ".join(text.split())).casefold()


def close_matches(word: str, possibilities, n: int = 3, cutoff: float = 0.6) -> list[str]:
    """``difflib.get_close_matches``, minus the cost of a huge word.

    difflib indexes every character of the word before comparing (a second for 1 MB of text),
    yet ratio() <= 2 * len(b) / (len(word) + len(b)): a word longer than
    ``longest * (2 / cutoff - 1)`` matches nothing, so it is not looked at."""
    possibilities = [str(p) for p in possibilities]
    longest = max(map(len, possibilities), default=0)
    if 0 < cutoff and len(word) > longest * (2 / cutoff - 1):
        return []
    return difflib.get_close_matches(word, possibilities, n, cutoff)


def _no_such_type(kind: str, name: str, names: list[str]) -> str:
    close = close_matches(name, names, n=3, cutoff=0.5)
    hint = f" Did you mean {' or '.join(repr(display_text(c)) for c in close)}?" if close else ""
    shown = listed([display_text(n) for n in names], LISTED_CHOICES)
    return f"No {kind} named '{display_text(name)}'.{hint} {kind.capitalize()}s: {shown}."


# --- summaries -------------------------------------------------------------------------------------


def category_of(element) -> str:
    """Revit's (plural) category name of an element: "Walls"; "Other" for uncategorised ones."""
    category = element.Category
    return category.Name if category is not None else "Other"


def category_summary(elements) -> str:
    """ "5 Doors, 1 Wall" for a list of elements, the largest count first."""
    counts = Counter(category_of(e) for e in elements)
    if not counts:
        return "nothing"
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    labels = [count_label(n, category) for category, n in ordered[:SHOWN_CATEGORIES]]
    hidden = len(ordered) - SHOWN_CATEGORIES
    if hidden > 0:
        labels.append(f"{hidden} other categor{'y' if hidden == 1 else 'ies'}")
    return ", ".join(labels)


def id_sample(ids, limit: int = SAMPLE_IDS, where: str = "in the working set") -> str:
    """ "101, 102, 103" or "101, 102, … and 17 more — in the working set"."""
    ids = list(ids)
    shown = ", ".join(str(i) for i in ids[:limit])
    if len(ids) > limit:
        shown += f", … and {len(ids) - limit} more"
        if where:
            shown += f" — {where}"
    return shown


def elements_by_id(ctx, ids) -> tuple[list, list[int]]:
    """The elements of ``ids`` that exist, and the ids that no longer do (read, never raises)."""
    found, missing = [], []
    for value in ids:
        element = ctx.doc.GetElement(ctx.element_id(value))
        if element is None:
            missing.append(value)
        else:
            found.append(element)
    return found, missing


# --- categories (query tools) ----------------------------------------------------------------------

CATEGORY_CHOICES = 25   # categories listed (with counts) when a category name is not found


def builtin_categories() -> list:
    """Every BuiltInCategory member named OST_*, once per value (Revit has aliases)."""
    from Autodesk.Revit import DB
    found = {}
    for name in dir(DB.BuiltInCategory):
        if name.startswith("OST_"):
            member = getattr(DB.BuiltInCategory, name, None)
            if member is not None:
                found.setdefault(int(member), member)
    return list(found.values())


def category_name(ctx, bic) -> str | None:
    """Revit's name of a built-in category in this document ("Walls"), None when it has none."""
    return _category_name(ctx.doc, bic)


def _category_name(doc, bic) -> str | None:
    from Autodesk.Revit import DB
    try:
        category = DB.Category.GetCategory(doc, bic)
    except Exception:  # noqa: BLE001 - Revit refuses some internal categories
        return None
    return category.Name if category is not None else None


def category_counts(ctx) -> list[tuple]:
    """[(BuiltInCategory, name, count of elements that are not types)] for the categories present
    in the model, the largest count first. One collector per category: the category index does
    the work."""
    rows = []
    for bic in builtin_categories():
        count = _instance_count(ctx, bic)
        if count:
            name = category_name(ctx, bic)
            if name:
                rows.append((bic, name, count))
    rows.sort(key=lambda row: (-row[2], row[1]))
    return rows


# Not counted as the model's elements: views and schedules are not building elements, and every
# project has exactly one project base point and one survey point, so they say nothing about it.
_NOT_MODEL_ELEMENTS = ("OST_Views", "OST_Schedules", "OST_ProjectBasePoint", "OST_SharedBasePoint", "OST_Materials")


def model_counts(doc) -> list[tuple]:
    """[(BuiltInCategory, name, count)] of the model's elements by category, the largest first:
    elements that are not types and have a category, views, schedules, the two base points and
    materials (a project holds hundreds, most unused) left out. The one definition of "the model's elements": the overview tool, `paracore model`,
    the replay's footer and the benchmarks all count with it."""
    from Autodesk.Revit import DB
    hidden = {int(getattr(DB.BuiltInCategory, name)) for name in _NOT_MODEL_ELEMENTS}
    rows = []
    for bic in builtin_categories():
        if int(bic) in hidden:
            continue
        count = DB.FilteredElementCollector(doc).OfCategory(bic).WhereElementIsNotElementType().GetElementCount()
        name = _category_name(doc, bic) if count else None
        if name:
            rows.append((bic, name, count))
    rows.sort(key=lambda row: (-row[2], row[1]))
    return rows


def model_element_count(doc) -> int:
    """How many elements the model has, as ``model_counts`` counts them."""
    return sum(count for _bic, _name, count in model_counts(doc))


def _category_key(name: str) -> str:
    """ "doors", "Door", " DOORS " all give "door"."""
    return singular(" ".join(str(name).split()).title()).casefold()


def resolve_category(ctx, name: str):
    """The BuiltInCategory the model means by ``name``: "Walls", "walls", "Door", "OST_Doors".

    When two categories have the name (Revit has two "Railings"), the one with more elements
    wins. A ToolError lists the categories present in the model, with their counts.
    """
    text = " ".join(str(name).split())
    if not text:
        raise ToolError(_no_such_category(ctx, name))
    key = text.casefold()
    members = builtin_categories()
    if key.startswith("ost_"):
        for bic in members:
            if bic.ToString().casefold() == key:
                return bic
        raise ToolError(_no_such_category(ctx, name))
    wanted = _category_key(text)
    named = [bic for bic in members if _category_key(category_name(ctx, bic) or "") == wanted]
    if len(named) > 1:  # the one the model uses most
        named.sort(key=lambda bic: -_instance_count(ctx, bic))
    if named:
        return named[0]
    compact = key.replace(" ", "")
    for bic in members:  # the enum name without its prefix: "GenericModel"
        if bic.ToString()[4:].casefold() == compact:
            return bic
    raise ToolError(_no_such_category(ctx, name))


def _instance_count(ctx, bic) -> int:
    from Autodesk.Revit import DB
    return DB.FilteredElementCollector(ctx.doc).OfCategory(bic).WhereElementIsNotElementType().GetElementCount()


def _no_such_category(ctx, name: str) -> str:
    present = category_counts(ctx)
    names = [label for _bic, label, _count in present]
    asked = str(name).strip().title()
    close = (close_matches(asked, names, n=3, cutoff=0.85)
             or close_matches(asked, names, n=3, cutoff=0.6))
    if not close:
        absent = {category_name(ctx, bic) for bic in builtin_categories()} - set(names) - {None}
        close = close_matches(asked, sorted(absent), n=2, cutoff=0.75)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    shown = listed([f"{label} ({count:,})" for _bic, label, count in present], CATEGORY_CHOICES)
    listing = f" Categories in the model: {shown}." if present else " The model has no elements."
    return f"No category named '{display_text(name)}'.{hint}{listing}"


# --- levels and types by name, with bounded errors (query tools) -------------------------------------


def find_level_near(ctx, name: str):
    """Like find_level, but the error suggests close names and stays short on a model with
    hundreds of levels."""
    levels = levels_by_elevation(ctx)
    found = _by_name(levels, name, lambda lv: lv.Name)
    if found is not None:
        return found
    if not levels:
        raise ToolError("The project has no levels. Create a level in Revit first, then ask again.")
    names = [lv.Name for lv in levels]
    close = close_matches(name, names, n=3, cutoff=0.6)
    hint = f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    message = f"No level named '{display_text(name)}'.{hint} Levels: {listed_levels(levels)}."
    raise ToolError(message)


def type_label(element_type) -> str:
    """ "Family: Type" as Revit's type selector names it; the type name when there is no family."""
    family = getattr(element_type, "FamilyName", "") or ""
    return f"{family}: {element_type.Name}" if family else element_type.Name


def natural_order(text: str) -> list:
    """A sort key that compares the digits in names as numbers, as the Project Browser sorts: A2
    before A10, room 9 before room 10."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part.casefold()) for part in re.split(r"(\d+)", text)]


def names_match(a: str, b: str) -> bool:
    """Names compare ignoring case, repeated spaces and spaces around ':'."""
    return _normal(a) == _normal(b)


# --- views and schedules (view and schedule tools) ---------------------------------------------------

_VIEW_TYPE_NAMES = (("FloorPlan", "Floor Plan"), ("CeilingPlan", "Ceiling Plan"), ("ThreeD", "3D View"),
                    ("Schedule", "Schedule"), ("Elevation", "Elevation"))


# Revit's own views (the browsers' panes and internal views): a collector returns them, nobody opens them.
_INTERNAL_VIEW_TYPES = ("ProjectBrowser", "SystemBrowser", "Internal", "Undefined")


def view_type_name(view) -> str:
    """ "Floor Plan", "3D View", "Schedule": the kind of a view as the Project Browser names it."""
    from Autodesk.Revit import DB
    for member, label in _VIEW_TYPE_NAMES:
        if view.ViewType == getattr(DB.ViewType, member):
            return label
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", str(view.ViewType.ToString()))


def view_label(view) -> str:
    """ "Floor Plan: Level 1": a view's kind and name (names are unique per kind only)."""
    return f"{view_type_name(view)}: {view.Name}"


def all_views(ctx) -> list:
    """The project's views that a user can open (templates left out), by kind then name."""
    from Autodesk.Revit import DB
    views = [v for v in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View)
             if not v.IsTemplate and str(v.ViewType.ToString()) not in _INTERNAL_VIEW_TYPES]
    return sorted(views, key=lambda v: (view_type_name(v), v.Name.casefold()))


def pick_by_name(ctx, elements, text: str, tests, several):
    """The one element that passes the first of ``tests`` (strictest first: exact name, then
    looser forms) any element passes, or the element whose id is ``text``; None when none does.
    Several passing the same test: a ToolError with ``several(matches)``."""
    for test in tests:
        matches = [e for e in elements if test(e)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise ToolError(several(matches))
    if text.isdigit():
        return next((e for e in elements if ctx.id_value(e.Id) == int(text)), None)
    return None


def find_view(ctx, name: str, views=None, kind: str = "view"):
    """The view called ``name`` ("Level 1", "Floor Plan: Level 1", or its id), or a ToolError
    listing the views. A name shared by views of different kinds is an error that lists them."""
    views = all_views(ctx) if views is None else views
    text = " ".join(str(name).split())
    found = pick_by_name(
        ctx, views, text,
        (lambda v: v.Name == text, lambda v: _normal(v.Name) == _normal(text),
         lambda v: _normal(view_label(v)) == _normal(text)),
        lambda matches: (f"Several {kind}s are named '{display_text(name)}': "
                         f"{', '.join(repr(display_text(view_label(v))) for v in matches)}. Give the {kind} as "
                         f"'{view_label(matches[0])}' (kind: name), or by its id."))
    if found is not None:
        return found
    if not views:
        raise ToolError(f"The project has no {kind}s.")
    labels = [v.Name for v in views] if kind == "schedule" else [view_label(v) for v in views]
    close = close_matches(text, [v.Name for v in views], n=3, cutoff=0.5)
    hint = f" Did you mean {' or '.join(repr(display_text(c)) for c in close)}?" if close else ""
    shown = listed([display_text(label) for label in labels], LISTED_CHOICES)
    raise ToolError(f"No {kind} named '{display_text(name)}'.{hint} {kind.capitalize()}s: {shown}.")


def find_schedule(ctx, name: str):
    """The schedule called ``name`` (or with this id), or a ToolError listing the schedules."""
    from Autodesk.Revit import DB
    schedules = sorted(DB.FilteredElementCollector(ctx.doc).OfClass(DB.ViewSchedule), key=lambda s: s.Name.casefold())
    schedules = [s for s in schedules if not s.IsTemplate]
    if not schedules:
        raise ToolError(f"No schedule named '{display_text(name)}': the project has no schedules yet. "
                        "Create one with create_schedule.")
    return find_view(ctx, name, schedules, kind="schedule")


def choices_text(names, limit: int = LISTED_CHOICES) -> str:
    return listed([display_text(name) for name in names], limit)


def did_you_mean(name: str, names) -> str:
    close = close_matches(name, list(names), n=3, cutoff=0.5)
    if not close:
        close = [n for n in names if _normal(name) in _normal(n) or _normal(n) in _normal(name)][:3]
    return f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def element_label(ctx, element) -> str:
    """ "wall 312", or "wall type 'Generic - 200mm'": the singular category and id, for samples."""
    from Autodesk.Revit import DB
    kind = singular(category_of(element)).lower()
    if isinstance(element, DB.ElementType):
        return f"{kind} type '{selector_name(element)}'"
    return f"{kind} {ctx.id_value(element.Id)}"


def selector_name(element_type) -> str:
    """How Revit's type selector names a type: "Family: Type" for family types, else the name."""
    from Autodesk.Revit import DB
    if isinstance(element_type, DB.FamilySymbol):
        return f"{element_type.FamilyName}: {element_type.Name}"
    return element_type.Name


def type_of(ctx, element):
    """The element's type, or None for a type itself and an element without one."""
    from Autodesk.Revit import DB
    if isinstance(element, DB.ElementType):
        return None
    type_id = element.GetTypeId()
    return ctx.doc.GetElement(type_id) if ctx.id_value(type_id) != -1 else None
