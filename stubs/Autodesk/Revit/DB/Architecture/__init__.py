"""Stand-in for Autodesk.Revit.DB.Architecture: rooms."""
from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB._elements import SpatialElement as _SpatialElement

__all__ = ["Room"]


@_api_class
class Room(_SpatialElement):
    pass
