"""The one build step pyproject.toml cannot declare: the Revit stand-in goes into the wheel.

The stand-in (stubs/: Autodesk, System, clr, revit_standin) lives at the clone's top level, outside
lib/, so that no folder on sys.path makes it importable by itself: nothing may mistake it for Revit.
A non-editable install still needs it (the sandbox, `paracore demo`), so the wheel carries a copy as
data in paracore/_standin/ — a folder of the package, not a package itself and not on sys.path;
paracore.core.resources.standin() finds it and the sandbox puts it on sys.path at run time. An editable
install (and pyRevit's clone) read the clone's stubs/ instead, so nothing is copied for those.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

STUBS = Path(__file__).resolve().parent / "stubs"
TARGET = ("paracore", "_standin")  # paracore.core.resources.STANDIN_IN_PACKAGE


class BuildPyWithStandin(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return
        if not (STUBS / "revit_standin").is_dir():
            raise FileNotFoundError(f"The Revit stand-in is missing: {STUBS}")
        target = Path(self.build_lib).joinpath(*TARGET)
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(STUBS, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildPyWithStandin})
