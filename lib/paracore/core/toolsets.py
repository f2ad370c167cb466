"""Which tools the model always has (the core) and which come in toolsets it turns on.

Sending all 60-odd definitions with every request costs ~10,000 tokens each time, most of them
for tools a conversation never calls. The core is what nearly every conversation needs (finding
elements, reading and setting parameters, the working set and the selection, the model's
levels, types and views) plus ``use_toolset``; the rest is grouped here by what the user wants
to do. This module is the one place that says where a tool belongs: a registered tool that is in
neither list fails tests/tools/test_toolsets.py, so every new tool must be placed here. Names of
tools not written yet may be listed already; only registered tools are ever sent.

The order of the tools sent never changes inside a conversation except by appending: the core
(sorted by name), then the pinned toolsets (Settings, in the order below), then the toolsets the
model turned on, in the order it turned them on. Providers cache the prompt as a prefix (tools,
then system prompt, then messages), so turning a toolset on keeps the cached core and pinned
definitions; docs/TOOLSETS.md has the details and bench/RESULTS.md the cost.

Installed packages add toolsets of their own (docs/PLUGINS.md): each entry point of the
``paracore.tools`` group is one toolset, named by the entry point, holding the tools its module
declares. paracore.tools.framework.plugins imports them and adds the toolsets here (``add_plugin_toolset``),
after Paracore's, which keep their names and tools. The names installed packages declare are read
from their metadata without importing them (``installed_plugin_names``): the settings may pin such a
toolset before any plugin is imported.

Pure data and small functions: imported by the settings, the agent and the tools, without Revit.
"""
from __future__ import annotations

import functools
import importlib.metadata
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

USE_TOOLSET = "use_toolset"
PLUGIN_GROUP = "paracore.tools"
"""The entry-point group through which installed packages bring tools (docs/PLUGINS.md)."""
NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
"""What a plugin's toolset may be called: it is typed in Settings and sent in use_toolset's enum."""

USE_STANDARD = "use_standard"

CORE: frozenset[str] = frozenset({
    USE_TOOLSET, USE_STANDARD,   # the firm's standards are read when a task calls for one (docs/STANDARDS.md)
    # the working set and the selection
    "get_working_set", "set_working_set", "add_to_working_set", "remove_from_working_set",
    "clear_working_set", "add_selection_to_working_set", "select_elements", "get_selection",
    "filter_working_set",
    # finding and reading elements; parameters are read and set in most conversations
    "search_elements", "get_element_info", "get_parameters", "set_parameter",
    # totals: "how much concrete, how many doors, what area by level" are asked in most conversations
    "get_quantities",
    # what the model holds
    "get_model_overview", "list_levels", "list_types", "list_views",
})


@dataclass(frozen=True)
class Toolset:
    name: str
    holds: str                 # what it is for, in a few words: use_toolset's description lists it
    tools: frozenset[str]
    package: str | None = None  # the installed package that brought it ("acme-tools 1.2"); None: Paracore's


TOOLSETS: tuple[Toolset, ...] = (
    Toolset("modelling", "create walls (straight, curved), floors, levels; place doors, windows; "
            "move, copy, rotate, delete, change type",
            frozenset({"create_wall", "create_curved_wall", "create_floor", "create_level", "place_doors_on_wall",
                       "place_windows_on_wall", "move_elements", "copy_elements", "rotate_elements",
                       "delete_elements", "change_type"})),
    Toolset("structure", "structural columns, beams, footings and wall foundations, at points, columns or grids",
            frozenset({"list_structural_types", "place_structural_columns", "place_beams", "place_footings",
                       "place_wall_foundations"})),
    Toolset("grids", "grids (arrays, lines, arcs): create, rename, extents, bubbles; rename and move levels",
            frozenset({"create_grids", "rename_grids", "set_grid_extents", "set_grid_bubbles", "rename_levels",
                       "move_levels"})),
    Toolset("views", "open, duplicate and 3D views, view templates; isolate and colour elements; a picture of a view",
            frozenset({"activate_view", "capture_view", "create_3d_view", "isolate_in_view", "reset_view_isolation",
                       "color_elements", "duplicate_view", "list_view_templates", "apply_view_template",
                       "create_view_template"})),
    Toolset("filters", "view filters: create from conditions, apply to views or templates (colour, line weight, "
            "halftone, hidden), list, remove",
            frozenset({"create_view_filter", "apply_view_filter", "list_view_filters", "remove_view_filter"})),
    Toolset("documentation", "sheets (list, create, place views); rename and renumber views, sheets, "
            "viewports; rooms, doors by room; tags, text notes, dimensions",
            frozenset({"create_sheet", "place_views_on_sheet", "list_sheets", "rename_views", "renumber_sheets",
                       "renumber_viewports", "place_rooms", "get_room_info", "renumber_elements", "tag_elements",
                       "add_text_note", "dimension_walls"})),
    Toolset("schedules", "schedules: create, read, add fields, sort, filter, export, compare; "
            "parameters in Excel (export, import edits)",
            frozenset({"create_schedule", "read_schedule", "add_schedule_field", "sort_schedule", "filter_schedule",
                       "export_schedule", "compare_schedules", "export_parameters", "import_parameters"})),
    Toolset("qa", "check before issue: warnings, required parameters, duplicate Marks, naming, "
            "unplaced rooms and views, links, coordinates; purge unused",
            frozenset({"get_warnings", "check_model", "purge_unused"})),
    Toolset("scripts", "find, inspect and run library scripts; run generated Python code",
            frozenset({"find_scripts", "inspect_script", "set_script_parameters", "run_script", "run_python"})),
    Toolset("worksharing", "list the worksets, move elements to another workset",
            frozenset({"list_worksets", "move_to_workset"})),
    Toolset("exports", "export sheets and views to files (PDF, DWG, DXF); the model to IFC or NWC",
            frozenset({"export_pdf", "export_cad", "export_model"})),
    Toolset("materials", "type layers (function, material, thickness, core); material takeoffs",
            frozenset({"get_type_layers", "material_takeoff"})),
    Toolset("families", "place loadable families (furniture, fixtures, lighting…) on a level, in a host, on a "
            "face, along a line or at rooms and ceilings; list their types; load .rfa files",
            frozenset({"list_family_types", "place_family_instances", "load_family"})),
)

NAMES: tuple[str, ...] = tuple(toolset.name for toolset in TOOLSETS)
"""Paracore's own toolsets; ``names()`` adds those installed packages brought."""
_plugin_toolsets: tuple[Toolset, ...] = ()   # replaced whole, never changed in place: readers need no lock


def all_toolsets() -> tuple[Toolset, ...]:
    """Paracore's toolsets, then those installed packages brought, in the order they were loaded."""
    return TOOLSETS + _plugin_toolsets


def plugin_toolsets() -> tuple[Toolset, ...]:
    return _plugin_toolsets


def names() -> tuple[str, ...]:
    """Every toolset there is (what use_toolset accepts), Paracore's first."""
    return tuple(toolset.name for toolset in all_toolsets())


def find(name: str) -> Toolset | None:
    return next((toolset for toolset in all_toolsets() if toolset.name == name), None)


def add_plugin_toolset(toolset: Toolset) -> None:
    """Add a toolset an installed package brought; ValueError if its name or a tool is taken."""
    global _plugin_toolsets
    if not NAME.fullmatch(toolset.name):
        raise ValueError(f"toolset name {toolset.name!r} must be 1-40 lower-case letters, digits, '_' or '-', "
                         "starting with a letter")
    if find(toolset.name) is not None:
        raise ValueError(f"a toolset named {toolset.name!r} already exists")
    placed = sorted(name for name in toolset.tools if is_placed(name))
    if placed:
        raise ValueError(f"tools already placed elsewhere: {', '.join(placed)}")
    _plugin_toolsets = (*_plugin_toolsets, toolset)


@functools.lru_cache(maxsize=1)
def installed_plugin_names() -> tuple[str, ...]:
    """The toolset names installed packages declare (their ``paracore.tools`` entry points), read
    from their metadata without importing them; read once per process (a package installed
    later is seen after a restart, as its tools are)."""
    return tuple(sorted({entry_point.name for entry_point in importlib.metadata.entry_points(group=PLUGIN_GROUP)
                         if NAME.fullmatch(entry_point.name) and entry_point.name not in NAMES}))


def pinnable_names() -> tuple[str, ...]:
    """What Settings may pin: every toolset there is, and those installed packages declare
    whether or not they are imported yet (a package that then fails to load adds no tools and is
    reported; pinning its name is no error)."""
    return tuple(dict.fromkeys([*names(), *installed_plugin_names()]))


def toolset_of(tool_name: str) -> str | None:
    """The toolset holding ``tool_name``; None for a core tool or a tool placed nowhere."""
    return next((toolset.name for toolset in all_toolsets() if tool_name in toolset.tools), None)


def is_placed(tool_name: str) -> bool:
    return tool_name in CORE or toolset_of(tool_name) is not None


def check_names(names: Iterable[str]) -> list[str]:
    """The names as given, without duplicates; ValueError naming the valid ones for an unknown one."""
    names = list(dict.fromkeys(names))
    known = set(NAMES)
    unknown = [name for name in names if name not in known]
    if unknown:  # only then: most settings pin Paracore's toolsets, which need no look at installed packages
        valid = pinnable_names()
        unknown = [name for name in unknown if name not in valid]
        if unknown:
            raise ValueError(f"unknown toolset {', '.join(map(repr, unknown))}; toolsets: {', '.join(valid)}")
    return names


def order_on(pinned: Sequence[str], turned_on: Sequence[str]) -> list[str]:
    """The toolsets on, in the order their tools are sent: pinned ones in canonical order first
    (they are on from the first request), then the ones turned on, in the order they were. A
    pinned toolset that is not there (an installed package that failed to load) is left out."""
    pinned_in_order = [name for name in names() if name in pinned]
    return list(dict.fromkeys([*pinned_in_order, *turned_on]))


def tools_sent(registered: Iterable[str], toolsets_on: Sequence[str]) -> list[str]:
    """The registered tools to send, in their fixed order: core (and any tool placed nowhere, so a
    tool is never hidden by mistake) sorted by name, then each toolset's tools sorted by name."""
    registered = sorted(registered)
    first = [name for name in registered if toolset_of(name) is None]
    later = [name for toolset in map(find, toolsets_on) if toolset is not None
             for name in registered if name in toolset.tools]
    return first + later


def describe_toolsets() -> str:
    """One line per toolset, for use_toolset's description."""
    return "\n".join(f"- {toolset.name}: {toolset.holds}" for toolset in all_toolsets())
