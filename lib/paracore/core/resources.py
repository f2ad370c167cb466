"""Where Paracore's own files are: found through the package (``importlib.resources``), the same
way in a clone (pyRevit's ``lib/`` on ``sys.path``, an editable install) and in a non-editable
install (``pip install .``). Nothing else in the package finds a file by climbing parent folders
from ``__file__`` (tests/test_layout.py checks it).

- Package data, shipped in the wheel (pyproject's ``package-data``) and in ``lib/paracore/`` in a
  clone: ``tools/scripts/bundled/`` (the scripts that ship with Paracore, in the script library: they
  import Revit inside ``run`` only, as tool bodies do), ``demos/`` (replay files),
  ``data/``.
- Two folders sit at the clone's top level and are copied into a wheel by setup.py's build step:
  the prompt templates (``templates/``, a part of the product one reads and edits apart from the
  code; ``paracore/templates/`` in a wheel) and the Revit stand-in (``stubs/``, outside every
  folder on ``sys.path`` so that nothing can mistake it for Revit; ``paracore/_standin/`` in a
  wheel, which the sandbox puts on ``sys.path`` at run time, and nothing else does). The copy in
  the package wins; a clone (pyRevit's, an editable install) has none and reads its own folder.
- The clone: the folder holding ``Paracore.extension/`` and ``lib/paracore/`` (this package),
  which pyRevit loads and where ``vendor/`` and ``requirements/`` are. A non-editable install has
  none (``clone()`` is None).
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["package_path", "templates", "bundled_scripts", "demo", "clone", "standin"]

PACKAGE = "paracore"
STANDIN_IN_PACKAGE = "_standin"      # where setup.py puts the stand-in inside a wheel
TEMPLATES_IN_PACKAGE = "templates"   # where setup.py puts the clone's templates/ inside a wheel


def package_path(*parts: str) -> Path:
    """A file or folder of the package, as a real path (Paracore is always installed unzipped:
    jinja2, the script loader and ``sys.path`` need folders)."""
    return Path(str(files(PACKAGE).joinpath(*parts))).resolve()


def templates() -> Path:
    """The folder of the jinja2 prompt templates: the wheel's copy inside the package, else the
    clone's ``templates/``."""
    return _copied_or_in_clone(TEMPLATES_IN_PACKAGE, "templates", "system.md.j2", "The prompt templates")


def bundled_scripts() -> Path:
    """The script library that ships with Paracore (users add folders in Settings.script_folders)."""
    return package_path("tools", "scripts", "bundled")


def demo(name: str = "seed000") -> Path:
    """A replay file of ``demos/``: the working-set scenario by default."""
    return package_path("demos", f"{name}.json")


def clone() -> Path | None:
    """The Paracore clone this package runs from (``<clone>/lib/paracore``), or None when it is
    installed into site-packages."""
    package = package_path()
    lib = package.parent
    if lib.name != "lib" or package.name != PACKAGE:
        return None
    root = lib.parent
    return root if (root / "Paracore.extension").is_dir() else None


def standin() -> Path:
    """The folder that holds the Revit stand-in (``Autodesk``, ``System``, ``clr``,
    ``revit_standin``): the wheel's copy inside the package, else the clone's ``stubs/``."""
    return _copied_or_in_clone(STANDIN_IN_PACKAGE, "stubs", "revit_standin", "The Revit stand-in")


def _copied_or_in_clone(in_package: str, in_clone: str, marker: str, what: str) -> Path:
    """A top-level folder of the clone that setup.py copies into a wheel: the package's copy when
    it holds ``marker``, else the clone's folder."""
    packaged = package_path(in_package)
    if (packaged / marker).exists():
        return packaged
    root = clone()
    if root is not None and (root / in_clone / marker).exists():
        return root / in_clone
    raise RuntimeError(
        f"{what} could not be found: neither {packaged} (an installed Paracore) nor a clone's {in_clone}/ "
        f"beside {package_path().parent}. Reinstall Paracore (pip install <clone>) or run from a clone "
        "(python3 tasks.py demo).")
