"""Stand-in for Autodesk.Revit.Exceptions: the exception types Revit raises.

Their bases follow the real hierarchy; all derive from System.ApplicationException so that
``Message`` and ``InnerException`` behave as under pythonnet.
"""
from __future__ import annotations

import System as _System

__all__ = [
    "ApplicationException", "ArgumentException", "ArgumentNullException",
    "ArgumentOutOfRangeException", "ArgumentsInconsistentException", "InvalidOperationException",
    "InvalidObjectException", "ModificationOutsideTransactionException",
    "ModificationForbiddenException", "OperationCanceledException", "FileNotFoundException",
    "IOException", "FileAccessException", "InternalException", "CentralModelException",
    "CentralFileCommunicationException", "CentralModelContentionException", "InvalidPathArgumentException",
    # exports (Document.Export: DB/_cad_export.py, _ifc_export.py, _navisworks_export.py)
    "OptionalFunctionalityNotAvailableException", "DirectoryNotFoundException",
]


class ApplicationException(_System.ApplicationException):
    pass


class ArgumentException(ApplicationException):
    def __init__(self, message: str = "", paramName: str = "", innerException=None):  # noqa: N803
        super().__init__(message, innerException)
        self._param_name = paramName

    @property
    def ParamName(self) -> str:  # noqa: N802
        return self._param_name


class ArgumentNullException(ArgumentException):
    pass


class InvalidPathArgumentException(ArgumentException):
    pass


class ArgumentOutOfRangeException(ArgumentException):
    pass


class ArgumentsInconsistentException(ArgumentException):
    pass


class InvalidOperationException(ApplicationException):
    pass


class InvalidObjectException(InvalidOperationException):
    pass


class ModificationOutsideTransactionException(InvalidOperationException):
    pass


class ModificationForbiddenException(InvalidOperationException):
    pass


class OperationCanceledException(ApplicationException):
    pass


class IOException(ApplicationException):
    pass


class FileNotFoundException(IOException):
    pass


class InternalException(ApplicationException):
    pass


class CentralModelException(ApplicationException):
    """A workshared document's central model could not be used (DB/_worksharing.py)."""


class CentralFileCommunicationException(CentralModelException):
    """The central model could not be reached."""


class CentralModelContentionException(CentralModelException):
    """The central model is locked by another client (a lock callback said not to wait)."""


class FileAccessException(IOException):
    """A path that could not be accessed (Document.ExportImage: a folder that cannot be written)."""


class OptionalFunctionalityNotAvailableException(InvalidOperationException):
    """An optional part of Revit (the DWG or Navisworks exporter) is not installed."""


class DirectoryNotFoundException(IOException):
    """A folder that does not exist (Document.Export to DWG/DXF)."""
