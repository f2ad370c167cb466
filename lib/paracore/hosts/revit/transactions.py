"""One writing tool call in its own Revit transaction: the runner the executor and the preview share.

``run_in_transaction`` is the write protocol, in one place for every tool:

1. start the transaction, named after the tool, and only then have its failures collected
   instead of Revit's dialogs ("every time a transaction starts, Failure Handling Options will be
   reset to their default values", Transaction.Start);
2. run the tool: it changes the model and declares what it changed (``results.Change``);
3. regenerate the document once and read the change back (``read_back.read_back_change``): a
   difference from the request is the tool's ToolError;
4. commit; a tool that raised (a read-back difference, a script's ``sys.exit()``) or a start Revit
   refused rolls the transaction back, and so does Revit itself at commit when errors are left.

The undo ledger hears of the commits through Revit's DocumentChanged (``document_events``), as it
hears of the user's; the transaction group around a step (the executor's, the preview's) tells it
of the group's rollback itself.

After the commit the executor reads the change back once more (``read_back_after_commit``) for the
result the model is told. Main thread only (the bridge's Execute), like its callers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paracore.revit import dotnet
from paracore.revit.api import DB
from paracore.revit.context import ToolContext
from paracore.tools.framework.errors import format_exception_for_model
from paracore.tools.framework.read_back import read_back_change
from paracore.tools.framework.registry import PreparedCall
from paracore.tools.framework.results import ToolError, ToolOutput
from paracore.tools.framework.wording import unique

__all__ = ["Transacted", "run_in_transaction", "read_back_in_transaction", "read_back_after_commit",
           "describe_error", "failures_text"]


@dataclass(frozen=True)
class Transacted:
    """How a call's transaction ended: committed with the tool's ``output``, or not (``error`` or
    ``refused`` says why; the model is as it was)."""

    output: Any = None
    error: str | None = None     # the tool raised, or Revit would not start the transaction
    refused: str | None = None   # Revit rolled the commit back: its reasons


def run_in_transaction(ctx: ToolContext, call: PreparedCall) -> Transacted:
    """Run ``call`` in its own transaction, read its change back, and commit (module docstring).

    Never leaves the transaction open: whatever the tool raises (BaseException too) rolls it back
    and becomes ``error``.
    """
    errors: list[str] = []
    transaction = DB.Transaction(ctx.doc, _transaction_title(call.name))
    try:
        # Inside the try: Revit may refuse to start it (a modal edit mode, say).
        _start(transaction, ctx.warnings, errors)
        output = call.run(ctx)
        read_back_in_transaction(ctx, output)
        status = transaction.Commit()
    # BaseException too: a script calling sys.exit() must not leave the transaction open.
    except BaseException as exc:  # noqa: BLE001 - undo this tool's work and say why
        _roll_back_if_open(transaction)
        return Transacted(error=describe_error(exc))
    if status != DB.TransactionStatus.Committed:
        return Transacted(refused=failures_text(errors) or "Revit gave no reason")
    return Transacted(output=output)


def read_back_in_transaction(ctx: ToolContext, output: Any) -> None:
    """Let Revit settle the tool's change (joins, hosts, constraints) and read it back, still inside
    the tool's transaction: a difference raises the ToolError that rolls the call back.

    The one Regenerate of the write protocol; a tool with nothing to compare (a script) is left
    alone."""
    change = output.change if isinstance(output, ToolOutput) else None
    if change is None or change.compare is None:
        return
    ctx.doc.Regenerate()
    read_back_change(change, ctx.length_unit, in_transaction=True)


def read_back_after_commit(ctx: ToolContext, output: Any) -> Any:
    """The result the model reads: the tool's change read back from the committed model (a
    difference now raises a ToolError saying the change was kept), or the tool's content."""
    if not isinstance(output, ToolOutput):
        return output
    if output.change is None:
        return output.content
    return read_back_change(output.change, ctx.length_unit, in_transaction=False)


def describe_error(exc: BaseException) -> str:
    """A ToolError is written for the model; anything else is rendered with its cause chain."""
    return str(exc) if isinstance(exc, ToolError) else format_exception_for_model(exc)


SHOWN_FAILURES = 5      # distinct Revit warnings (or errors) quoted in a result
FAILURE_TEXT = 200      # characters of one quoted warning


def failures_text(texts: list[str]) -> str:
    """ "A; B; … and 12 more": the distinct texts, a few of them, each cut to a sentence's length
    (code can make Revit post hundreds; the result stays short)."""
    distinct = unique(texts)
    shown = [t if len(t) <= FAILURE_TEXT else t[:FAILURE_TEXT - 1] + "…" for t in distinct[:SHOWN_FAILURES]]
    if len(distinct) > SHOWN_FAILURES:
        shown.append(f"… and {len(distinct) - SHOWN_FAILURES} more")
    return "; ".join(shown)


# -- the transaction -------------------------------------------------------------------------------


def _start(transaction, warnings: list, errors: list) -> None:
    """Start ``transaction``, then have its failures collected into ``warnings`` and ``errors``
    instead of Revit's dialogs. In that order: "every time a transaction starts, Failure Handling
    Options will be reset to their default values" (Transaction.Start), so options set before
    Start would be lost, and Revit would show its own warning and error dialogs at the commit."""
    transaction.Start()
    options = transaction.GetFailureHandlingOptions()
    options.SetFailuresPreprocessor(_failure_collector(warnings, errors))
    options.SetClearAfterRollback(True)  # no "transaction rolled back" dialog either
    transaction.SetFailureHandlingOptions(options)


def _transaction_title(tool_name: str) -> str:
    """A readable transaction name: "create_wall" -> "Create wall"."""
    return tool_name.replace("_", " ").strip().capitalize() or "Paracore"


def _roll_back_if_open(transaction) -> None:
    if transaction.GetStatus() == DB.TransactionStatus.Started:
        transaction.RollBack()


# -- Revit failures ----------------------------------------------------------------------------


@dotnet.defined_once("Paracore.Transactions._FailureCollector")
def _FailureCollector():  # noqa: N802 - binds the class
    class _FailureCollector(DB.IFailuresPreprocessor):
        """Records failure texts at commit: warnings are kept as text and deleted, errors reported.

        A .NET type, made once per process (see `dotnet.defined_once`). No constructor
        arguments: the runner sets ``warnings`` and ``errors`` after creating it.
        """

        __namespace__ = "Paracore.Transactions"

        warnings = None  # list: texts of the warnings deleted (the ToolContext's list)
        errors = None    # list: texts of the errors that make Revit roll the transaction back

        def PreprocessFailures(self, failuresAccessor):  # noqa: N802, N803 - the .NET interface's names
            return _preprocess_failures(failuresAccessor, self.warnings, self.errors)

    return _FailureCollector


def _preprocess_failures(failures_accessor, warnings: list, errors: list):
    """Keep warnings as text and delete them; with errors left, ask for the rollback ourselves:
    "Continue" would make Revit show its modal error dialog in the middle of an agent step."""
    for failure in list(failures_accessor.GetFailureMessages()):
        text = failure.GetDescriptionText()
        if failure.GetSeverity() == DB.FailureSeverity.Warning:
            warnings.append(text)
            failures_accessor.DeleteWarning(failure)
        else:
            errors.append(text)
    if errors:
        return DB.FailureProcessingResult.ProceedWithRollBack
    return DB.FailureProcessingResult.Continue


def _failure_collector(warnings: list, errors: list) -> _FailureCollector:
    collector = _FailureCollector()
    collector.warnings = warnings
    collector.errors = errors
    return collector
