"""Stand-in for the Autodesk namespace (see revit_standin for the machinery behind it)."""

__all__ = []
