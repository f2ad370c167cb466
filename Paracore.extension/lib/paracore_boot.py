"""Bootstrap imported first by every Paracore script: puts the repository's lib/ on sys.path.

pyRevit only discovers *.extension and *.lib folders, so the package in <clone>/lib is not on the
path by itself. pyRevit keeps one interpreter for the whole Revit process: this runs once.
"""
import os
import sys

_EXTENSION = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_CLONE = os.path.dirname(_EXTENSION)
for _folder in (os.path.join(_CLONE, "lib"), os.path.join(_CLONE, "vendor")):
    if os.path.isdir(_folder) and _folder not in sys.path:
        sys.path.insert(0, _folder)
