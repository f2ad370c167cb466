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
