"""Stand-in for Autodesk.Revit.DB.Architecture: rooms."""
from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB._elements import SpatialElement as _SpatialElement

__all__ = ["Room"]


@_api_class
class Room(_SpatialElement):
    pass


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
