"""The one build step pyproject.toml cannot declare: two top-level folders of the clone go into the wheel.

- The Revit stand-in (stubs/: Autodesk, System, clr, revit_standin) lives at the clone's top level,
  outside lib/, so that no folder on sys.path makes it importable by itself: nothing may mistake it
  for Revit. A non-editable install still needs it (the sandbox, `paracore demo`), so the wheel
  carries a copy as data in paracore/_standin/ — a folder of the package, not a package itself and
  not on sys.path; paracore.core.resources.standin() finds it and the sandbox puts it on sys.path at run
  time.
- The prompt templates (templates/) sit at the top level as a part of the product one reads and
  edits apart from the code; the wheel carries them in paracore/templates/, where
  paracore.core.resources.templates() finds them.

An editable install (and pyRevit's clone) read the clone's folders instead, so nothing is copied for
those.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
# (folder of the clone, where it goes in the package, a file or folder it must hold): the targets
# are paracore.core.resources.STANDIN_IN_PACKAGE and TEMPLATES_IN_PACKAGE.
COPIED = (
    ("stubs", ("paracore", "_standin"), "revit_standin"),
    ("templates", ("paracore", "templates"), "system.md.j2"),
)


class BuildPyWithTopLevelFolders(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return
        for folder, target_parts, marker in COPIED:
            source = ROOT / folder
            if not (source / marker).exists():
                raise FileNotFoundError(f"{source / marker} is missing: the wheel needs the clone's {folder}/")
            target = Path(self.build_lib).joinpath(*target_parts)
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildPyWithTopLevelFolders})
