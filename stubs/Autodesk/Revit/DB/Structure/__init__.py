"""Stand-in for Autodesk.Revit.DB.Structure (what family placement needs)."""
from Autodesk.Revit.DB._enums import _RevitEnum

__all__ = ["StructuralType"]


class StructuralType(_RevitEnum):
    NonStructural = 0
    Beam = 1
    Brace = 2
    Column = 3
    Footing = 4
    UnknownFraming = 5


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
