#! python3
"""Doctor: checks Paracore's installation inside Revit and says what to do about each problem.

Title and tooltip: bundle.yaml. The checks are paracore.app.doctor; the report goes to pyRevit's
output window (sys.stdout).
"""
import paracore_boot  # noqa: F401 - first: makes the repository's lib/ importable
import sys

from paracore.app.doctor import run_doctor

run_doctor(__revit__, sys.stdout)  # noqa: F821 - pyRevit's builtin: the UIApplication
