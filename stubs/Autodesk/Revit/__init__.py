"""Stand-in for the Autodesk.Revit namespace."""

__all__ = []
