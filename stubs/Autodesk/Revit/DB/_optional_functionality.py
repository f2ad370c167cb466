"""OptionalFunctionalityUtils: which of Revit's optional exporters and importers are installed.

Autodesk: "A collection of utilities that can be used to determine if a particular set of
functionality is installed and available." The stand-in writes DXF (ezdxf) and IFC (IfcOpenShell)
and has no DWG or Navisworks exporter: it cannot write those formats, so it reports them missing
and ``Document.Export`` refuses them as Revit does then (OptionalFunctionalityNotAvailableException).
``INSTALLED`` is the stand-in's list (a test may mark an exporter installed to see a tool's checks
pass, with Document.Export replaced: the stand-in has no DWG or NWC writer to run).
"""
from __future__ import annotations

from revit_standin.guard import api_class

INSTALLED = {"DWG export": False, "DXF export": True, "IFC": True, "Navisworks exporter": False}


@api_class(thread_free=True)
class OptionalFunctionalityUtils:
    @staticmethod
    def IsDWGExportAvailable() -> bool:  # noqa: N802
        return INSTALLED["DWG export"]

    @staticmethod
    def IsDXFExportAvailable() -> bool:  # noqa: N802
        return INSTALLED["DXF export"]

    @staticmethod
    def IsIFCAvailable() -> bool:  # noqa: N802
        return INSTALLED["IFC"]

    @staticmethod
    def IsNavisworksExporterAvailable() -> bool:  # noqa: N802
        return INSTALLED["Navisworks exporter"]
