"""The error for a mistake the model can fix: raised by tools and by the Revit API kit under them."""
from __future__ import annotations


class ToolError(Exception):
    """A mistake in the call that the model can fix: the message says how."""
