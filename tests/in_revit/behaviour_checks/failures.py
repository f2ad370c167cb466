"""In-Revit checks of failure processing at commit: warnings, a failures preprocessor, rollback on
request, warnings kept in the document, and Paracore's own tool transaction collecting Revit's
warnings (the rows of docs/REVIT_BEHAVIOUR.md that name behaviour_checks/failures.py).

The failure every check provokes is Revit's duplicate-Mark warning: two scratch walls given the same
Mark. A warning, not an error: left alone, Revit shows it and commits.
"""
from Autodesk.Revit import DB

from behaviour_checks import _site as site
from kit import COMMENT, expect, transaction
from paracore.revit import dotnet
from paracore.revit.context import id_value

MARK = "Paracore check: duplicate"
WARNED = "Revit warnings:"   # how the executor passes Revit's warnings on in a tool's result


@dotnet.defined_once("Paracore.BehaviourChecks._FailureLog")
def _FailureLog():  # noqa: N802 - binds the class
    class _FailureLog(DB.IFailuresPreprocessor):
        """Records each failure's severity and text, then answers as ``answer(accessor)`` says."""

        __namespace__ = "Paracore.BehaviourChecks"

        seen = None     # list of (severity name, description)
        answer = None   # function(failures accessor) -> FailureProcessingResult

        def PreprocessFailures(self, failuresAccessor):  # noqa: N802, N803 - the .NET interface's names
            for failure in list(failuresAccessor.GetFailureMessages()):
                self.seen.append((str(failure.GetSeverity()), failure.GetDescriptionText()))
            return self.answer(failuresAccessor)

    return _FailureLog


def _log(answer):
    log = _FailureLog()
    log.seen = []
    log.answer = answer
    return log


def _delete_warnings(accessor):
    for failure in list(accessor.GetFailureMessages()):
        if failure.GetSeverity() == DB.FailureSeverity.Warning:
            accessor.DeleteWarning(failure)
    return DB.FailureProcessingResult.Continue


def _two_walls(doc):
    x, y = site.spot(doc)
    level = site.base_level(doc)
    with transaction(doc, "Paracore check: scratch walls"):
        return [site.wall(doc, level, (x, y + dy), (x + 20.0, y + dy)) for dy in (0.0, 30.0)]


def _mark(wall):
    return wall.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK)


def _same_mark(doc, walls, log=None, before_start=False):
    """Commit the same Mark on ``walls``, with ``log`` as the failures preprocessor set before or
    after Start; the transaction's status."""
    change = DB.Transaction(doc, "Paracore check: duplicate marks")
    if log is not None and before_start:
        _preprocess_with(change, log)
    change.Start()
    try:
        if log is not None and not before_start:
            _preprocess_with(change, log)
        for wall in walls:
            _mark(wall).Set(MARK)
        return change.Commit()
    finally:
        site.ended(change)


def _preprocess_with(change, log):
    change.SetFailureHandlingOptions(change.GetFailureHandlingOptions().SetFailuresPreprocessor(log))


def duplicate_mark_is_a_warning(scratch):
    log = _log(_delete_warnings)
    status = _same_mark(scratch.doc, _two_walls(scratch.doc), log)
    expect(log.seen, "no failure was posted for two walls with the same Mark")
    severities = {severity for severity, _ in log.seen}
    expect(all(s.endswith("Warning") for s in severities), f"the failures' severities: {severities}")
    expect(status == DB.TransactionStatus.Committed, f"the transaction ended {status}")
    return f"{log.seen[0][1]!r} ({len(log.seen)} failure(s), warnings)"


def preprocessor_sees_and_deletes_warnings(scratch):
    doc = scratch.doc
    walls = _two_walls(doc)
    log = _log(_delete_warnings)
    status = _same_mark(doc, walls, log)
    expect(log.seen, "the preprocessor set after Start saw no failure")
    expect(status == DB.TransactionStatus.Committed, f"the transaction ended {status}")
    expect(all(_mark(w).AsString() == MARK for w in walls), "the Marks were not committed")
    return f"saw {len(log.seen)} warning(s), deleted them, committed"


def preprocessor_rolls_back(scratch):
    doc = scratch.doc
    walls = _two_walls(doc)
    log = _log(lambda accessor: DB.FailureProcessingResult.ProceedWithRollBack)
    status = _same_mark(doc, walls, log)
    expect(status == DB.TransactionStatus.RolledBack, f"ProceedWithRollBack ended the transaction {status}")
    expect(not any(_mark(w).AsString() == MARK for w in walls), "a Mark of the rolled-back transaction stayed")
    return "ProceedWithRollBack: Commit returned RolledBack, the Marks were undone"


def warnings_stay_in_the_document(scratch):
    doc = scratch.doc
    walls = _two_walls(doc)
    status = _same_mark(doc, walls)
    expect(status == DB.TransactionStatus.Committed, f"a warning alone ended the transaction {status}")
    ours = {id_value(w.Id) for w in walls}
    kept = [w for w in doc.GetWarnings() if ours & {id_value(i) for i in w.GetFailingElements()}]
    expect(kept, "Document.GetWarnings() has no warning for the two walls")
    return f"GetWarnings: {kept[0].GetDescriptionText()!r}"


def _options_survive_start(doc):
    """Whether a preprocessor set before Start still runs at commit. Autodesk's Start page: "every
    time a transaction starts, Failure Handling Options will be reset to their default values"."""
    before = _log(_delete_warnings)
    _same_mark(doc, _two_walls(doc), before, before_start=True)
    return bool(before.seen)


def tool_call_reports_revit_warnings(scratch):
    doc = scratch.doc
    survive = _options_survive_start(doc)
    walls = _two_walls(doc)
    ids = [id_value(w.Id) for w in walls]
    content = scratch.call("set_parameter", {"element_ids": ids, "name": "Mark", "value": COMMENT})
    expect(all(_mark(w).AsString() == COMMENT for w in walls), f"set_parameter did not set both Marks: {content[:200]}")
    start = "kept by" if survive else "reset by"
    expect(WARNED in content, f"the tool's result does not pass on Revit's duplicate-Mark warning (failure "
           f"options set before Start were {start} Start): {content[:300]}")
    return f"options set before Start {start} Start; " + content.replace("\n", " | ")[:100]


def options_are_reset_by_start(scratch):
    """Documented (Transaction.Start), and what Paracore's tool transaction relies on by setting its
    failures preprocessor only after Start."""
    expect(not _options_survive_start(scratch.doc), "a failures preprocessor set before Start still ran at "
           "the commit: Start did not reset the failure handling options as its documentation says")
    return "a preprocessor set before Start did not run: Start reset the options"


CHECKS = [
    ("failure handling options are reset by Start", options_are_reset_by_start),
    ("a duplicate Mark is a warning at commit", duplicate_mark_is_a_warning),
    ("a preprocessor set after Start sees and deletes warnings", preprocessor_sees_and_deletes_warnings),
    ("ProceedWithRollBack rolls the transaction back", preprocessor_rolls_back),
    ("warnings left alone stay in the document", warnings_stay_in_the_document),
    ("a tool call reports Revit's warnings", tool_call_reports_revit_warnings),
]
