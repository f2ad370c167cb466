"""Machinery for tests: a section through a stand-in model, as a user would cut one in Revit.

The samples come from IFC files, whose views are the plans, a 3D view and schedules; a test cuts
a section with ``cut_section``, which calls ViewSection.CreateSection as a Revit add-in does, with
the project's section view family type, in the caller's open transaction.
"""
from __future__ import annotations


def section_type(document):
    """The document's section view family type (every stand-in project has one)."""
    from Autodesk.Revit.DB import FilteredElementCollector, ViewFamily, ViewFamilyType
    return next(t for t in FilteredElementCollector(document).OfClass(ViewFamilyType)
                if t.ViewFamily == ViewFamily.Section)


def cut_section(document, start, end, *, bottom: float = -5.0, top: float = 40.0, depth: float = 10.0):
    """A section along the plan line ``start`` -> ``end`` ((x, y) in feet), looking across it
    ``depth`` feet deep on each side, from ``bottom`` to ``top`` (feet of elevation): its right is
    the line's direction, its up the model's Z, its view direction (towards the viewer) their
    cross product, as the Revit SDK's section sample builds it."""
    from Autodesk.Revit.DB import XYZ, BoundingBoxXYZ, Transform, ViewSection
    along = XYZ(end[0] - start[0], end[1] - start[1], 0)
    length = along.GetLength()
    direction = along.Normalize()
    frame = Transform.CreateTranslation(XYZ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, 0))
    frame.BasisX, frame.BasisY = direction, XYZ.BasisZ
    frame.BasisZ = direction.CrossProduct(XYZ.BasisZ)
    box = BoundingBoxXYZ()
    box.Transform = frame
    box.Min, box.Max = XYZ(-length / 2, bottom, -depth), XYZ(length / 2, top, depth)
    return ViewSection.CreateSection(document, section_type(document).Id, box)
