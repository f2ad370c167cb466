"""Stand-in for Autodesk.Revit.DB.Architecture: rooms."""
from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB._elements import SpatialElement as _SpatialElement

__all__ = ["Room"]


@_api_class
class Room(_SpatialElement):
    def IsPointInRoom(self, point) -> bool:  # noqa: N802
        """Whether the point lies in the room's enclosed region (in plan; the stand-in's rooms
        have no height limit)."""
        from Autodesk.Revit.DB._spatial import region_of
        region = region_of(self)
        return region is not None and region.contains(point.X, point.Y)


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
