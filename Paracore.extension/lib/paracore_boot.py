"""Bootstrap imported first by every Paracore script: makes the repository's lib/ (and vendor/,
and plugins/: packages that bring tools of their own, docs/PLUGINS.md) importable, now and later.

pyRevit only discovers *.extension and *.lib folders, so the package in <clone>/lib is not on the
path by itself. Putting it on ``sys.path`` once is not enough: pyRevit's CPython engine
(pyRevitLabs.PyRevit.Runtime/CPythonEngine.cs, ``SetupSearchPaths``) REPLACES ``sys.path`` before
every script it runs with the list it stored when the engine started, plus that script's bundle
paths. ``sys.modules`` survives (one interpreter per Revit process), so ``import paracore`` keeps
working, but a module imported for the first time later — an SDK imported when the first model
is created, on the agent's worker thread, after another button ran — would not be found.

So, besides adding the folders to ``sys.path`` whenever this module is imported, a finder that
knows them is put on ``sys.meta_path`` (which pyRevit leaves alone), once per process:

- it comes before the path search and answers for the top-level names found in Paracore's
  folders, so a vendored package wins over another extension's copy of the same name (a
  different pydantic or httpx2 on pyRevit's paths would break Paracore); other names fall
  through to the normal search;
- it answers ``find_distributions`` too: ``importlib.metadata`` asks every meta-path finder, and
  without it the vendored packages' metadata is invisible once ``sys.path`` is replaced, so
  entry-point based packages lose their plugins (keyring's backends, for one).
"""
import importlib.machinery
import importlib.metadata
import os
import sys

_EXTENSION = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_CLONE = os.path.dirname(_EXTENSION)
# In this order: a plugin installed with its own copy of a vendored package gets Paracore's.
FOLDERS = tuple(f for f in (os.path.join(_CLONE, name) for name in ("lib", "vendor", "plugins")) if os.path.isdir(f))


class ParacorePathFinder:
    """Finds top-level modules in Paracore's folders when ``sys.path`` no longer lists them."""

    paracore_finder = True  # how ensure_paths() recognises an instance installed earlier

    def __init__(self, folders):
        self.folders = list(folders)

    def find_spec(self, fullname, path=None, target=None):
        if path is not None:  # a submodule: its package's __path__ already knows where to look
            return None
        return importlib.machinery.PathFinder.find_spec(fullname, self.folders)

    def find_distributions(self, context=None):
        """The vendored distributions' metadata (importlib.metadata), wherever sys.path points."""
        context = context or importlib.metadata.DistributionFinder.Context()
        ours = importlib.metadata.DistributionFinder.Context(name=context.name, path=self.folders)
        return importlib.machinery.PathFinder.find_distributions(ours)

    def invalidate_caches(self):
        importlib.machinery.PathFinder.invalidate_caches()


def _path_search_index():
    """Where the standard path search sits in sys.meta_path (after the built-in and frozen
    importers, which must keep answering for the standard library)."""
    for index, finder in enumerate(sys.meta_path):
        if finder is importlib.machinery.PathFinder:
            return index
    return len(sys.meta_path)


def ensure_paths():
    """Put Paracore's folders on sys.path and make sure its finder is installed."""
    for folder in reversed(FOLDERS):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    if not any(getattr(finder, "paracore_finder", False) for finder in sys.meta_path):
        sys.meta_path.insert(_path_search_index(), ParacorePathFinder(FOLDERS))


ensure_paths()
