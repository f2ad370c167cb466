"""Stand-in for pythonnet's ``clr`` module: assembly references are a no-op outside Revit."""

__all__ = ["AddReference", "GetClrType"]


def AddReference(name):  # noqa: N802 - pythonnet's name
    """Revit's assemblies are already 'loaded': the stand-in packages are plain Python."""
    return None


def GetClrType(python_type):  # noqa: N802 - pythonnet's name
    """pythonnet returns the System.Type of a .NET class; the stand-in uses the class itself."""
    return python_type
