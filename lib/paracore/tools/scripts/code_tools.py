"""run_python: Python code that the model writes, run inside Revit.

For what no atomic tool does (a C# peer's "ExecuteCode", docs/ARCHITECTURE.md). The code runs on Revit's main thread,
in a fresh namespace holding:

    doc, uidoc                the active Document and UIDocument
    DB, UI                    Autodesk.Revit.DB and Autodesk.Revit.UI
    working_set               the working set's element ids (a list of int)
    set_working_set_output(ids, operation="replace", message="")
                              make ids (ints, ElementIds or elements) the working set ("add" and
                              "remove" too) once the code has run

Rules, and why:
- Always asks the user first (needs_approval), showing the code (``describe``).
- One transaction, owned by the tool: run_python is a writing tool, so the executor opens the
  Transaction before the code runs and commits it after; the code must not open its own.
  Code that calls Transaction(...), SubTransaction(...) or TransactionGroup(...) is refused
  before it runs; one that starts a transaction some other way meets Revit's refusal
  (InvalidOperationException), reported with the same message. Any exception rolls the
  whole transaction back: nothing the code did stays.
- print() output (stdout and stderr, from the main thread only) is captured and bounded.
- A time budget (TIME_BUDGET_SECONDS): Revit's main thread cannot be interrupted from another
  thread, so a tracer (sys.settrace) checks the clock between the code's own lines and raises
  CodeTooSlow there (a BaseException, so that `except Exception` in the code does not swallow
  it). It cannot stop a single long call that never returns to the code (a Revit API call,
  time.sleep), nor code that catches BaseException.
- Elements the code creates join the working set (policy "add") unless the code calls
  set_working_set_output; printing a seed-000 payload (JSON) works too.

Revit is imported inside the tool body only, so this module imports without Revit.
"""
from __future__ import annotations

import ast
import io
import sys
import threading
import time
from contextlib import redirect_stderr, redirect_stdout

from pydantic import BaseModel, Field

from paracore.tools.framework.errors import format_exception_for_model
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput, working_set_output

TIME_BUDGET_SECONDS = 10.0      # the code is stopped after this long (configurable: set this attribute)
OUTPUT_LIMIT = 4000             # characters of printed output kept
MESSAGE_LIMIT = 300             # characters of a set_working_set_output message quoted in the result
DESCRIBE_LINES = 40             # lines of code shown in the approval prompt
CODE_FILENAME = "<run_python>"
_TRANSACTION_CLASSES = ("Transaction", "SubTransaction", "TransactionGroup")
TRANSACTION_MESSAGE = ("run_python already runs inside a transaction; remove Transaction(...)/Start()/Commit() "
                       "from the code")
_OPERATIONS = ("replace", "add", "remove")


class RunPythonArgs(BaseModel):
    code: str = Field(
        description="Python 3 code to run in Revit. In scope: doc, uidoc, DB (Autodesk.Revit.DB), UI, "
                    "working_set (list of element ids) and set_working_set_output(ids, operation='replace', "
                    "message=''). Do NOT open a Transaction: the code already runs inside one. Use print() "
                    "to report results.")


class CodeTooSlow(BaseException):
    """Raised inside the code when it runs past its time budget (not an Exception on purpose)."""


# --- the tool ------------------------------------------------------------------------------------


def _describe(ctx, args: RunPythonArgs) -> str:
    lines = args.code.rstrip().splitlines()
    shown = "\n".join(lines[:DESCRIBE_LINES])
    text = ("Run this Python code in Revit, inside one transaction (all its changes are undone if it "
            f"fails):\n```python\n{shown}\n```")
    if len(lines) > DESCRIBE_LINES:
        text += f"\n… and {len(lines) - DESCRIBE_LINES} more lines."
    return text


@tool(writes=True, needs_approval=True, working_set_policy="add", describe=_describe, runs_scripts=True)
def run_python(ctx, args: RunPythonArgs):
    """Run Python code in Revit for what no other tool does (always asks the user first).

    In scope: doc, uidoc, DB, UI, working_set (ids) and set_working_set_output(ids, operation,
    message). The code runs inside one transaction that this tool opens and commits: never start
    a Transaction yourself. Any exception undoes everything the code did. print() what the user
    should know (output is capped at 4,000 characters). Code running longer than 10 seconds is
    stopped. Elements the code creates join the working set, unless it calls set_working_set_output.
    """
    from Autodesk.Revit import DB, UI

    code = args.code
    source_lines = code.splitlines()
    tree = _parse(code, source_lines)
    opened = _transaction_line(tree)
    if opened is not None:
        raise ToolError(f"{TRANSACTION_MESSAGE} (line {opened}: `{_line(source_lines, opened)}`). "
                        "Nothing was run.")

    output = BoundedOutput(OUTPUT_LIMIT)
    result: dict = {}
    namespace = {
        "__name__": "__run_python__",
        "doc": ctx.doc, "uidoc": ctx.uidoc, "DB": DB, "UI": UI,
        "working_set": list(ctx.session.working_set.ids),
        "set_working_set_output": _working_set_setter(ctx, result),
    }
    budget = TIME_BUDGET_SECONDS
    started = time.perf_counter()
    try:
        with redirect_stdout(output.stream(sys.stdout)), redirect_stderr(output.stream(sys.stderr)):
            _run_with_budget(compile(tree, CODE_FILENAME, "exec"), namespace, budget)
    except CodeTooSlow as exc:
        raise ToolError(
            f"The code was too slow: it was still running after the {budget:g}-second time budget and was "
            f"stopped at line {exc.args[0]} (`{_line(source_lines, exc.args[0])}`). Nothing was changed: "
            "the transaction was rolled back. Make it do less work per call (narrow the "
            "FilteredElementCollector, handle fewer elements at a time)." + output.note()) from None
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise ToolError(f"The code called exit({exc.code!r}). Nothing was changed: the transaction was "
                            "rolled back." + output.note()) from None
    except BaseException as exc:  # noqa: BLE001 - every failure undoes the code's changes
        raise ToolError(_failure_message(exc, source_lines) + output.note()) from None
    elapsed = time.perf_counter() - started

    payload = result.get("payload")

    def report() -> str:
        lines = [f"The code ran ({elapsed:.2f} s) and its changes were committed."]
        text = output.text()
        lines.append(f"Output:\n{text}" if text.strip() else "It printed nothing.")
        if payload is not None:
            message = payload.display_message
            if len(message) > MESSAGE_LIMIT:
                message = message[:MESSAGE_LIMIT - 1] + "…"
            lines.append(f"Working set ({payload.operation}, {len(payload.element_ids)} ids)"
                         + (f": {message}" if message else "."))
        return "\n".join(lines)

    # Nothing to compare (the tool cannot know what the code meant): the result is read after the commit.
    return ToolOutput(change=Change(report=report), working_set=payload)


# --- checking the code before it runs --------------------------------------------------------------


def _parse(code: str, source_lines: list[str]) -> ast.Module:
    if not code.strip():
        raise ToolError("code is empty: give the Python code to run.")
    try:
        return ast.parse(code, CODE_FILENAME, "exec")
    except SyntaxError as exc:
        line = exc.lineno or 0
        raise ToolError(f"The code does not compile: SyntaxError at line {line}: {exc.msg} "
                        f"(`{_line(source_lines, line)}`). Nothing was run.") from None


def _transaction_line(tree: ast.Module) -> int | None:
    """The first line that creates a Transaction, SubTransaction or TransactionGroup, if any.

    Catches Transaction(doc), DB.Transaction(doc), Autodesk.Revit.DB.TransactionGroup(doc) and
    names imported under an alias (`from Autodesk.Revit.DB import Transaction as T`).
    """
    names = set(_TRANSACTION_CLASSES)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names |= {alias.asname or alias.name for alias in node.names if alias.name in _TRANSACTION_CLASSES}
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            function = node.func
            if (isinstance(function, ast.Name) and function.id in names) or \
                    (isinstance(function, ast.Attribute) and function.attr in _TRANSACTION_CLASSES):
                lines.append(node.lineno)
    return min(lines) if lines else None


# --- running it ------------------------------------------------------------------------------------


def _run_with_budget(compiled, namespace: dict, seconds: float) -> None:
    """exec the code; CodeTooSlow(line) once it runs past ``seconds`` (checked between its lines)."""
    deadline = time.perf_counter() + seconds
    clock = time.perf_counter

    def local_trace(frame, event, arg):
        if event == "line" and clock() > deadline:
            raise CodeTooSlow(frame.f_lineno)
        return local_trace

    def global_trace(frame, event, arg):
        # Only the code's own frames are traced: Revit API calls and libraries run at full speed
        # and are never interrupted half-way.
        return local_trace if frame.f_code.co_filename == CODE_FILENAME else None

    previous = sys.gettrace()
    sys.settrace(global_trace)
    try:
        exec(compiled, namespace)  # noqa: S102 - running the model's code is this tool's purpose
    finally:
        sys.settrace(previous)


def _working_set_setter(ctx, result: dict):
    from Autodesk.Revit import DB

    def set_working_set_output(ids, operation: str = "replace", message: str = "") -> None:
        """Make ``ids`` the working set once the code has run ("add" or "remove" them instead)."""
        if operation not in _OPERATIONS:
            raise ValueError(f"operation must be one of {', '.join(_OPERATIONS)}, not {operation!r}")
        items = [ids] if isinstance(ids, (int, DB.ElementId, DB.Element)) else list(ids)
        values = []
        for item in items:
            if isinstance(item, DB.Element):
                item = item.Id
            if isinstance(item, DB.ElementId):
                values.append(ctx.id_value(item))
            elif isinstance(item, int) and not isinstance(item, bool):
                values.append(int(item))
            else:
                raise TypeError(f"set_working_set_output takes element ids (int or ElementId) or elements, "
                                f"not {type(item).__name__}")
        missing = [v for v in values if ctx.doc.GetElement(ctx.element_id(v)) is None]
        if missing:
            raise ValueError(f"these ids are not elements of the document: {', '.join(map(str, missing[:10]))}")
        result["payload"] = working_set_output(values, operation, str(message or ""))

    return set_working_set_output


def _failure_message(exc: BaseException, source_lines: list[str]) -> str:
    line = _code_line(exc)
    where = f" at line {line} (`{_line(source_lines, line)}`)" if line else ""
    if _is_nested_transaction(exc):
        return f"{TRANSACTION_MESSAGE}{where}. Nothing was changed: the transaction was rolled back."
    return (f"The code failed{where}: {format_exception_for_model(exc)}. Nothing was changed: the "
            "transaction was rolled back.")


def _is_nested_transaction(exc: BaseException) -> bool:
    """Revit's refusal to start a transaction (or a group) while the tool's is open."""
    message = str(getattr(exc, "Message", None) or exc).casefold()
    return type(exc).__name__ == "InvalidOperationException" and "transaction" in message and "start" in message


def _code_line(exc: BaseException) -> int | None:
    """The innermost line of the code (not of Revit or a library) where ``exc`` was raised."""
    line, tb = None, exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == CODE_FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _line(source_lines: list[str], number: int | None, width: int = 100) -> str:
    if not number or not 1 <= number <= len(source_lines):
        return ""
    text = source_lines[number - 1].strip()
    return text if len(text) <= width else text[: width - 1] + "…"


# --- captured output ---------------------------------------------------------------------------------


class BoundedOutput:
    """What the code prints: the first ``limit`` characters, and how many more there were.

    Only writes from the thread that runs the code are captured; other threads (the agent's,
    the UI's) keep writing to the real streams while sys.stdout is redirected.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._parts: list[str] = []
        self._kept = 0
        self.dropped = 0
        self._thread = threading.get_ident()

    def write(self, text: str) -> int:
        room = self.limit - self._kept
        if room > 0:
            self._parts.append(text[:room])
            self._kept += min(len(text), room)
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def stream(self, fallback) -> "_ThreadStream":
        return _ThreadStream(self, fallback)

    def text(self) -> str:
        text = "".join(self._parts)
        if self.dropped:
            text += f"\n… {self.dropped} more characters"
        return text

    def note(self, limit: int = 1000) -> str:
        """The output for an error message: at most ``limit`` characters of it."""
        text = "".join(self._parts)
        if not text.strip():
            return ""
        more = self.dropped + max(0, len(text) - limit)
        text = text[:limit] + (f"\n… {more} more characters" if more else "")
        return f"\nOutput before it stopped:\n{text}"


class _ThreadStream(io.TextIOBase):
    def __init__(self, output: BoundedOutput, fallback) -> None:
        self._output = output
        self._fallback = fallback

    @property
    def encoding(self) -> str:
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        text = str(text)
        if threading.get_ident() == self._output._thread:
            return self._output.write(text)
        if self._fallback is not None:
            return self._fallback.write(text)
        return len(text)

    def flush(self) -> None:
        if threading.get_ident() != self._output._thread and self._fallback is not None:
            self._fallback.flush()
