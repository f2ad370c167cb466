"""In-Revit checks of Revit's behaviour, one module per area (docs/REVIT_BEHAVIOUR.md names them).

Each module has ``CHECKS``: a list of ``(name, function)``; ``function(scratch)`` runs on Revit's
main thread inside its own transaction group, which run_checks.py rolls back afterwards, and
returns a short detail for the table or raises ``kit.CheckFailed`` saying what Revit did instead.
"""
import importlib
import os
import pkgutil


def all_checks():
    """[(module, name, function)] over every module of this package, in module order."""
    found = []
    for info in sorted(pkgutil.iter_modules([os.path.dirname(__file__)]), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name, function in getattr(module, "CHECKS", []):
            found.append((info.name, name, function))
    return found
