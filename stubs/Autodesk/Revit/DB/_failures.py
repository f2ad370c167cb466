"""Failures (warnings and errors) that Revit raises when a transaction is committed.

Failures posted during a transaction are processed at commit: an IFailuresPreprocessor set on
the transaction sees them first and may delete warnings, resolve errors or ask for a rollback;
an error left unresolved rolls the transaction back; warnings left in place stay in the
document (Document.GetWarnings).
"""
from __future__ import annotations

import uuid

from revit_standin.guard import api_class

from ._enums import FailureProcessingResult, FailureSeverity
from ._ids import ElementId

_DEFINITIONS: dict = {}


@api_class(thread_free=True)
class FailureDefinitionId:
    def __init__(self, guid=None):
        self._guid = str(guid) if guid is not None else str(uuid.uuid4())

    @property
    def Guid(self):  # noqa: N802
        return self._guid

    def __eq__(self, other):
        return isinstance(other, FailureDefinitionId) and other._guid == self._guid

    def __hash__(self):
        return hash(self._guid)


@api_class(thread_free=True)
class FailureDefinition:
    """Registry entry: severity and description text of a failure kind."""

    def __init__(self, failure_id, severity, message):
        self._id, self._severity, self._message = failure_id, severity, message

    @staticmethod
    def CreateFailureDefinition(id, severity, messageString):  # noqa: N802, N803, A002
        definition = FailureDefinition(id, severity, messageString)
        _DEFINITIONS[id] = definition
        return definition



def define_failure(name: str, severity: FailureSeverity, text: str) -> FailureDefinitionId:
    """Stand-in helper: a named failure kind with a stable id."""
    failure_id = FailureDefinitionId(uuid.uuid5(uuid.NAMESPACE_URL, f"paracore-standin/{name}"))
    FailureDefinition.CreateFailureDefinition(failure_id, severity, text)
    return failure_id


DUPLICATE_MARK = define_failure("duplicate-mark", FailureSeverity.Warning,
                                "Elements have duplicate 'Mark' values.")
INSTANCE_NOT_CUTTING = define_failure("insert-outside-host", FailureSeverity.Warning,
                                      "Can't cut instance out of Wall.")
INJECTED_ERROR = define_failure("injected-error", FailureSeverity.Error,
                                "Revit could not complete the operation (simulated failure).")


@api_class(thread_free=True)
class FailureMessage:
    def __init__(self, id):  # noqa: A002
        if id not in _DEFINITIONS:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("The failure definition id is not registered.", "id")
        self._definition = _DEFINITIONS[id]
        self._failing: list[int] = []
        self._text = self._definition._message
        self._resolvable = True   # False: deleting the failing elements would fail the same way

    def SetFailingElements(self, idsToHighlight):  # noqa: N802, N803
        self._failing = [i._value for i in idsToHighlight]
        return self

    def SetFailingElement(self, id: ElementId):  # noqa: N802, A002
        self._failing = [id._value]
        return self

    def GetFailingElements(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[ElementId]._of([ElementId(i) for i in self._failing])

    def GetSeverity(self):  # noqa: N802
        return self._definition._severity

    def GetDescriptionText(self) -> str:  # noqa: N802
        return self._text

    def GetFailureDefinitionId(self):  # noqa: N802
        return self._definition._id

    def HasResolutions(self) -> bool:  # noqa: N802
        # The stand-in's errors can always be resolved by deleting the failing elements.
        return self.GetSeverity() == FailureSeverity.Error and bool(self._failing) and self._resolvable


@api_class
class FailureMessageAccessor:
    def __init__(self, message: FailureMessage):
        self._message = message
        self._resolved = False
        self._dismissed = False

    def GetSeverity(self):  # noqa: N802
        return self._message.GetSeverity()

    def GetDescriptionText(self) -> str:  # noqa: N802
        return self._message.GetDescriptionText()

    def GetFailingElementIds(self):  # noqa: N802
        return self._message.GetFailingElements()

    def GetFailureDefinitionId(self):  # noqa: N802
        return self._message.GetFailureDefinitionId()

    def HasResolutions(self) -> bool:  # noqa: N802
        return self._message.HasResolutions()


@api_class
class FailuresAccessor:
    """What a failures preprocessor sees of the failures of the transaction being committed."""

    def __init__(self, document, transaction_name: str, messages):
        self._document = document
        self._transaction_name = transaction_name
        self._accessors = [FailureMessageAccessor(m) for m in messages]

    def GetDocument(self):  # noqa: N802
        return self._document

    def GetTransactionName(self) -> str:  # noqa: N802
        return self._transaction_name

    def GetFailureMessages(self, severity=None):  # noqa: N802
        from System.Collections.Generic import List
        live = [a for a in self._accessors if not a._dismissed and not a._resolved]
        if severity is not None:
            live = [a for a in live if a.GetSeverity() == severity]
        return List[FailureMessageAccessor]._of(live)

    def GetSeverity(self):  # noqa: N802
        live = self.GetFailureMessages()
        return max((a.GetSeverity() for a in live), key=lambda s: s.value, default=FailureSeverity.Warning)

    def DeleteWarning(self, failure: FailureMessageAccessor) -> None:  # noqa: N802
        if failure.GetSeverity() != FailureSeverity.Warning:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("Only warnings can be deleted; resolve errors instead.", "failure")
        failure._dismissed = True

    def DeleteAllWarnings(self) -> None:  # noqa: N802
        for accessor in self._accessors:
            if accessor.GetSeverity() == FailureSeverity.Warning:
                accessor._dismissed = True

    def ResolveFailure(self, failure: FailureMessageAccessor) -> None:  # noqa: N802
        if not failure.HasResolutions():
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException("This failure has no resolution.")
        self._document.Delete(failure.GetFailingElementIds())
        failure._resolved = True

    def _unresolved_errors(self):
        return [a for a in self._accessors if not a._resolved and a.GetSeverity() != FailureSeverity.Warning]

    def _remaining_warnings(self):
        return [a._message for a in self._accessors
                if not a._dismissed and a.GetSeverity() == FailureSeverity.Warning]


@api_class
class IFailuresPreprocessor:
    """Interface: implement PreprocessFailures(failuresAccessor) -> FailureProcessingResult."""

    def PreprocessFailures(self, failuresAccessor):  # noqa: N802, N803
        return FailureProcessingResult.Continue


@api_class
class FailureHandlingOptions:
    def __init__(self):
        self._preprocessor = None
        self._clear_after_rollback = False

    def SetFailuresPreprocessor(self, preprocessor):  # noqa: N802
        self._preprocessor = preprocessor
        return self

    def GetFailuresPreprocessor(self):  # noqa: N802
        return self._preprocessor

    def SetClearAfterRollback(self, bFlag: bool):  # noqa: N802, N803
        self._clear_after_rollback = bool(bFlag)
        return self

    def GetClearAfterRollback(self) -> bool:  # noqa: N802
        return self._clear_after_rollback
