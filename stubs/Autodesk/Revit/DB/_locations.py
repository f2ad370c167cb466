"""Shared coordinates: the real API's ProjectLocation, ProjectPosition and BasePoint.

A project's shared coordinates are its active ProjectLocation's position at the internal origin:
east-west, north-south, elevation (feet) and the angle from project north to true north
(radians). A new Revit project's location is named "Internal" with every value 0: no shared
coordinates. The survey point marks the shared origin; the project base point stands at the
internal origin here (Revit 2020.2+ lets users move it; the stand-in never does).

The stand-in's convention, as the Revit SDK's samples compose it (translation after rotation):
shared = Rz(Angle) * internal + (EastWest, NorthSouth, Elevation).

The three elements get ids of their own (SITE_IDS), outside the counter that numbers the
model's elements, so that adding them did not renumber every element a replay names.
"""
from __future__ import annotations

import math

from revit_standin.guard import api_class

from ._element import Element
from ._elements import Instance
from ._enums import BuiltInCategory
from ._geometry import XYZ
from ._ids import ElementId

# ProjectLocation, project base point, survey point: fixed ids far above any model's own.
SITE_IDS = (2_000_000_001, 2_000_000_002, 2_000_000_003)


@api_class(thread_free=True)
class ProjectPosition:
    """East-west, north-south and elevation (feet) of a point in shared coordinates, and the
    angle from project north to true north (radians)."""

    def __init__(self, eastWest: float, northSouth: float, elevation: float, angle: float):  # noqa: N803
        self._values = (float(eastWest), float(northSouth), float(elevation), float(angle))

    @property
    def EastWest(self) -> float:  # noqa: N802
        return self._values[0]

    @property
    def NorthSouth(self) -> float:  # noqa: N802
        return self._values[1]

    @property
    def Elevation(self) -> float:  # noqa: N802
        return self._values[2]

    @property
    def Angle(self) -> float:  # noqa: N802
        return self._values[3]

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    def Dispose(self) -> None:  # noqa: N802
        pass

    def __repr__(self):
        return "<ProjectPosition E/W {:g} N/S {:g} elev {:g} angle {:g}>".format(*self._values)


@api_class
class ProjectLocation(Instance):
    def GetProjectPosition(self, point: XYZ) -> ProjectPosition:  # noqa: N802
        """The shared coordinates of an internal point, with the location's angle."""
        east, north, elevation, angle = self._state["position"]
        x, y = _rotated(point.X, point.Y, angle)
        return ProjectPosition(east + x, north + y, elevation + point.Z, angle)

    def SetProjectPosition(self, point: XYZ, position: ProjectPosition) -> None:  # noqa: N802
        """Give the internal point ``point`` the shared coordinates ``position`` (in a transaction)."""
        angle = position.Angle
        x, y = _rotated(point.X, point.Y, angle)
        self._update_state(position=(position.EastWest - x, position.NorthSouth - y,
                                     position.Elevation - point.Z, angle))


@api_class
class BasePoint(Element):
    @property
    def IsShared(self) -> bool:  # noqa: N802
        """True for the survey point, False for the project base point."""
        return self._state["category"] == BuiltInCategory.OST_SharedBasePoint.value

    @property
    def Position(self) -> XYZ:  # noqa: N802
        """Where the point is, in internal coordinates."""
        if not self.IsShared:
            return XYZ.Zero
        east, north, elevation, angle = active_project_location(self._document)._state["position"]
        x, y = _rotated(-east, -north, -angle)   # the internal point whose shared coordinates are 0
        return XYZ(x, y, -elevation)

    @property
    def SharedPosition(self) -> XYZ:  # noqa: N802
        """Where the point is, in shared coordinates."""
        shared = active_project_location(self._document).GetProjectPosition(self.Position)
        return XYZ(shared.EastWest, shared.NorthSouth, shared.Elevation)

    @property
    def Clipped(self) -> bool:  # noqa: N802
        return False

    @staticmethod
    def GetProjectBasePoint(document) -> "BasePoint":  # noqa: N802
        return document.GetElement(ElementId(SITE_IDS[1]))

    @staticmethod
    def GetSurveyPoint(document) -> "BasePoint":  # noqa: N802
        return document.GetElement(ElementId(SITE_IDS[2]))


def active_project_location(document) -> ProjectLocation:
    """Document.ActiveProjectLocation."""
    return document.GetElement(ElementId(SITE_IDS[0]))


def add_site(document, position=(0.0, 0.0, 0.0, 0.0)) -> None:
    """The project location and the two base points of a new or loaded project (loading only).
    ``position``: east, north, elevation (feet) and angle (radians) of the internal origin."""
    states = ((ProjectLocation, {"name": "Internal", "category": None, "position": tuple(position)}),
              (BasePoint, {"name": "Project Base Point", "category": BuiltInCategory.OST_ProjectBasePoint.value}),
              (BasePoint, {"name": "Survey Point", "category": BuiltInCategory.OST_SharedBasePoint.value}))
    for element_id, (cls, state) in zip(SITE_IDS, states):
        state["params"] = {}
        document._index(cls(document, element_id, state))


def _rotated(x: float, y: float, angle: float) -> tuple[float, float]:
    cos, sin = math.cos(angle), math.sin(angle)
    return cos * x - sin * y, sin * x + cos * y
