"""Posting Revit commands: RevitCommandId, PostableCommand (the two the stand-in runs: Undo, Redo).

``UIApplication.PostCommand`` queues the command; Revit runs it when control returns to Revit
from the current API context (revit_standin.host runs it when the current ExternalEvent handler
or queued call has returned). Only one posted command may be pending at a time.
"""
from __future__ import annotations

from revit_standin.guard import api_class as _api_class

from Autodesk.Revit.DB._enums import _RevitEnum


class PostableCommand(_RevitEnum):
    """Values as in the real API (RevitAPIUI); the stand-in knows Undo and Redo only."""
    Redo = 33031
    Undo = 33032


_COMMAND_NAMES = {PostableCommand.Undo: "ID_EDIT_UNDO", PostableCommand.Redo: "ID_EDIT_REDO"}


@_api_class
class RevitCommandId:
    def __init__(self, command: PostableCommand):
        self._command = command

    @staticmethod
    def LookupPostableCommandId(postableCommand):  # noqa: N802, N803
        if postableCommand not in _COMMAND_NAMES:
            return None  # Revit returns null for a command it cannot find
        return RevitCommandId(postableCommand)

    @staticmethod
    def LookupCommandId(name: str):  # noqa: N802
        command = next((c for c, n in _COMMAND_NAMES.items() if n == name), None)
        return RevitCommandId(command) if command is not None else None

    @property
    def Name(self) -> str:  # noqa: N802
        return _COMMAND_NAMES[self._command]

    @property
    def Id(self) -> int:  # noqa: N802
        return int(self._command)

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    def __eq__(self, other):
        return isinstance(other, RevitCommandId) and other._command == self._command

    def __hash__(self):
        return hash(self._command)
