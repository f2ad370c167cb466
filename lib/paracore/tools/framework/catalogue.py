"""The whole tool catalogue: every tool module of Paracore's (the modules of each package of
``paracore.tools``: the domains, and the framework's own use_toolset), then those of installed
packages (the ``paracore.tools`` entry points, docs/PLUGINS.md), loaded once into the default registry."""
from __future__ import annotations

import importlib
import pkgutil
import threading

from paracore import tools
from paracore.tools.framework.plugins import PluginReport, load_plugins
from paracore.tools.framework.registry import default_registry

_tools_lock = threading.Lock()
_plugins: PluginReport | None = None   # None until the tools are loaded


def load_tools() -> None:
    """Import every tool module once, so that the default registry holds the whole catalogue:
    Paracore's own first, then the installed packages' (a package that fails is left out and
    reported, see ``plugin_problems``; it never stops Paracore)."""
    global _plugins
    with _tools_lock:
        if _plugins is not None:
            return
        for module in pkgutil.walk_packages(tools.__path__, f"{tools.__name__}."):
            importlib.import_module(module.name)
        _plugins = load_plugins(default_registry())


def plugin_problems() -> list[str]:
    """One line per installed package whose tools were left out, saying what to do (they are
    logged as warnings too); empty before ``load_tools``."""
    return list(_plugins.problems) if _plugins is not None else []
