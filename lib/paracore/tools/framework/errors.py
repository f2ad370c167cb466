"""Rendering an exception raised by a tool as a short text for the model.

Revit API failures arrive through pythonnet as .NET exceptions whose real reason is often an
`InnerException` ("TargetInvocationException <- caused by ArgumentException: ..."); Python
code chains with __cause__/__context__. The model needs the chain of messages, never a
traceback (noise, and it leaks paths) nor secrets that happen to be in a message.
"""
from __future__ import annotations

import re

__all__ = ["format_exception_for_model"]

_SEPARATOR = " <- caused by "

# A .NET message may carry its stack trace ("   at Autodesk.Revit.DB...") and Python text
# may carry a traceback; both stop at the first such line.
_TRACE_START = re.compile(
    r'^\s*(at \S|--- End of|Traceback \(most recent call last\)|File "[^"]*", line \d+)',
    re.MULTILINE,
)
# Header/assignment forms first, so "Authorization: Bearer sk-..." becomes "Authorization: ***".
_SECRETS = [
    (re.compile(r"(?i)\b((?:x-)?api[_-]?key|token|secret|password|authorization)(\s*[=:]\s*)"
                r"(?:(?:bearer|basic)\s+)?\S+"), r"\1\2***"),
    (re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"), r"\1***"),
    (re.compile(r"\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}"), r"\1-***"),
]


def format_exception_for_model(exc: BaseException | object, max_depth: int = 6,
                               max_message: int = 300) -> str:
    """"InvalidOperationException: ... <- caused by ArgumentException: ..." for `exc`'s chain."""
    parts: list[str] = []
    seen: set[int] = set()
    current: object | None = exc
    while current is not None and id(current) not in seen and len(parts) < max_depth:
        seen.add(id(current))  # chains can loop (an exception's context set to itself)
        parts.append(_one_exception(current, max_message))
        current = _cause_of(current)
    if current is not None and id(current) not in seen:
        parts.append("…")
    return _SEPARATOR.join(parts)


def _one_exception(exc: object, max_message: int) -> str:
    name = type(exc).__name__
    message = _message_of(exc)
    if len(message) > max_message:
        message = message[: max_message - 1] + "…"
    return f"{name}: {message}" if message else name


def _message_of(exc: object) -> str:
    # pythonnet exposes the .NET Message property; str() of a .NET exception may add the trace.
    message = getattr(exc, "Message", None)
    if not isinstance(message, str):
        try:
            message = str(exc)
        except Exception:  # a broken __str__ must not hide the original failure
            message = ""
    match = _TRACE_START.search(message)
    if match:
        message = message[: match.start()]
    message = " ".join(message.split())
    for pattern, replacement in _SECRETS:
        message = pattern.sub(replacement, message)
    return message


def _cause_of(exc: object) -> object | None:
    inner = getattr(exc, "InnerException", None)
    if inner is not None:
        return inner
    cause = getattr(exc, "__cause__", None)
    if cause is not None:
        return cause
    if getattr(exc, "__suppress_context__", False):
        return None
    return getattr(exc, "__context__", None)
