"""Tools from other installed packages: the ``paracore.tools`` entry-point group (docs/PLUGINS.md).

A package declares, in its pyproject.toml,

    [project.entry-points."paracore.tools"]
    acme = "acme_paracore.tools"

and the module it names declares its tools with ``@tool``, as Paracore's own do; its docstring's
first paragraph says what they are for. Each entry point is one toolset, named by the entry point:
the model turns it on with use_toolset, the user may pin it in Settings, MCP clients see its tools.

Loading never takes Paracore down. A package whose module fails to import, declares no tools, has
no docstring, or takes a name that is already taken (a toolset's, or a tool's, Paracore's or
another package's) is left out whole: its tools are declared into a registry of their own while
it is imported (``registering_into``) and join the catalogue only when all is well. Each such
package is reported in one line that names it and says what to do.
"""
from __future__ import annotations

import importlib.metadata
import inspect
import logging
from dataclasses import dataclass, field
from typing import Iterable

from paracore.core import toolsets
from paracore.core.toolsets import Toolset
from paracore.tools.framework import toolset_tools
from paracore.tools.framework.registry import Registry, registering_into

__all__ = ["PluginReport", "load_plugins"]

log = logging.getLogger("paracore.plugins")
_MOST_SHOWN = 300   # characters of an import error shown in the one line


@dataclass
class PluginReport:
    """What loading the installed packages' tools gave: the toolsets added, and one line per
    package left out (also logged as a warning)."""

    loaded: list[Toolset] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class _LeftOut(Exception):
    """Why a plugin was left out, then what to do about it."""

    def __init__(self, why: str, todo: str) -> None:
        super().__init__(f"{why}. {todo}")


def load_plugins(registry: Registry, entry_points: Iterable | None = None) -> PluginReport:
    """Import every ``paracore.tools`` entry point (``entry_points``, by default the installed
    ones) and add its tools to ``registry`` and its toolset to paracore.core.toolsets.

    Run it once per process, after Paracore's own tools are registered, so that a clash is always
    the package's (paracore.tools.framework.catalogue.load_tools does)."""
    found = entry_points if entry_points is not None else importlib.metadata.entry_points(group=toolsets.PLUGIN_GROUP)
    report = PluginReport()
    for entry_point in sorted(found, key=lambda ep: (ep.name, ep.value)):
        try:
            report.loaded.append(_load(entry_point, registry))
        except _LeftOut as left_out:
            line = f"The toolset {entry_point.name!r} of {_package(entry_point)} was left out: {left_out}."
            log.warning("%s", line)
            report.problems.append(line)
    if report.loaded and toolsets.USE_TOOLSET in registry:
        toolset_tools.declare(registry)   # its enum and description name the new toolsets
    return report


def _load(entry_point, registry: Registry) -> Toolset:
    name, value = entry_point.name, entry_point.value
    if not toolsets.NAME.fullmatch(name):
        raise _LeftOut("its entry point's name is not a toolset name (1-40 lower-case letters, digits, '_' or '-', "
                       "starting with a letter)", _todo(entry_point, "Rename the entry point"))
    existing = toolsets.find(name)
    if existing is not None:
        raise _LeftOut(f"{existing.package or 'Paracore'} has a toolset of that name",
                       _todo(entry_point, "Rename the entry point"))
    declared = Registry()
    try:
        with registering_into(declared):
            loaded = entry_point.load()
    except (Exception, SystemExit) as error:  # noqa: BLE001 - a package's import must never stop Paracore
        raise _LeftOut(f"importing {value} failed with {_one_line(error)}", _todo(entry_point, "Fix that")) from None
    if not len(declared):
        raise _LeftOut(f"{value} declares no tools",
                       _todo(entry_point, "Declare them with @tool (from paracore.tools.framework.registry import tool)"))
    holds = _first_paragraph(inspect.getdoc(loaded))
    if not holds:
        raise _LeftOut(f"{value} has no docstring", _todo(entry_point, "Say in its docstring what its tools are "
                                                           "for (the model reads it in use_toolset's description)"))
    taken = [spec.name for spec in declared.specs() if spec.name in registry or toolsets.is_placed(spec.name)]
    if taken:
        raise _LeftOut(f"{_names_taken(taken, registry)}", _todo(entry_point, f"Rename {'them' if len(taken) > 1 else 'it'} (@tool(name=...))"))
    toolset = Toolset(name, holds, frozenset(declared.names()), package=_package(entry_point))
    toolsets.add_plugin_toolset(toolset)
    for spec in declared.specs():
        registry.register(spec)
    return toolset


def _package(entry_point) -> str:
    """The distribution that declared ``entry_point``, with its version: "acme-tools 1.2"."""
    dist = getattr(entry_point, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else f"the package that declares {entry_point.value}"


def _todo(entry_point, change: str) -> str:
    """"<Change> in acme-tools, or uninstall it (pip uninstall acme-tools)"."""
    dist = getattr(entry_point, "dist", None)
    if dist is None:
        return f"{change} in the package that declares {entry_point.value}, or uninstall it"
    return f"{change} in {dist.name}, or uninstall it (pip uninstall {dist.name})"


def _names_taken(names: list[str], registry: Registry) -> str:
    """"its tool search_elements has the name of one of Paracore's tools", and the like."""
    owners = []
    for name in names:
        spec = registry.get(name)
        module = spec.function.__module__ if spec is not None else "paracore."   # a name Paracore keeps
        owners.append(f"{name} (Paracore's)" if module.startswith("paracore.") else f"{name} ({module}'s)")
    if len(names) == 1 and owners[0].endswith("(Paracore's)"):
        return f"its tool {names[0]} has the name of one of Paracore's tools"
    return f"its tools {', '.join(owners)} have names already taken" if len(names) > 1 else \
        f"its tool {owners[0]} has a name already taken"


def _first_paragraph(text: str | None) -> str:
    return " ".join((text or "").strip().split("\n\n")[0].split())


def _one_line(error: BaseException) -> str:
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= _MOST_SHOWN else text[:_MOST_SHOWN - 1] + "…"
