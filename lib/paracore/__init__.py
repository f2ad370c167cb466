"""Paracore: a conversational automation agent for Autodesk Revit."""

__version__ = "0.1.0"
