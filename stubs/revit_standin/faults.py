"""Fault injection for tests: make the next commit of a document fail as Revit would.

``fail_next_commit(doc)`` posts an error at the next commit of ``doc``; with no failures
preprocessor resolving it, the transaction is rolled back (Commit returns RolledBack).

``store_differently(doc, name, how)`` makes ``Parameter.Set`` of the parameter ``name`` store
``how(value)`` instead of the value, and still return True: what Revit does when a family's
formula, a value range or a type catalogue rounds or clamps a value. Tools must notice it when
they read the value back.

``silent_group_rollbacks(doc)``: from now on, a transaction group rolled back in ``doc`` raises
no DocumentChanged. The stand-in raises TransactionGroupRolledBack by default; Revit's
documentation does not say whether it does ("raised whenever a Revit transaction is either
committed, undone or redone"), so code must be right either way.

``fail_export_of(doc, view_id)``: Document.Export does not export that view (a view Revit fails
to print); it writes the others and returns False, as Autodesk documents ("False if exporting of
any view fails, even if some views might have been exported successfully").
"""
from __future__ import annotations

import weakref

_pending: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_dialogs: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_stored: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # document -> {name: how}
_silent_rollbacks: "weakref.WeakSet" = weakref.WeakSet()                # documents
_failing_exports: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # document -> {view id}


def fail_next_commit(document, count: int = 1) -> None:
    _pending[document] = _pending.get(document, 0) + count


def take_commit_failures(document) -> list:
    if not _pending.get(document):
        return []
    _pending[document] -= 1
    from Autodesk.Revit.DB._failures import INJECTED_ERROR, FailureMessage
    return [FailureMessage(INJECTED_ERROR)]


def store_differently(document, name: str, how) -> None:
    _stored.setdefault(document, {})[name] = how


def stored_value(document, name: str, value):
    """The value Parameter.Set stores for ``name``: ``value`` unless a test said otherwise."""
    how = _stored.get(document, {}).get(name)
    return value if how is None else how(value)


def show_dialog_during_next_commit(document, dialog_id: str, message: str, buttons=("OK", "Cancel"),
                                   default: str | None = None, kind: str = "task dialog",
                                   rolls_back_on=("Cancel", "Close")) -> None:
    """Queue a dialog for the next commit of ``document``. ``buttons`` and ``default`` are names
    ("OK", "Cancel", "Yes", "No", "Close", ...); the default is the first button. ``kind`` is
    "task dialog", "message box" or "dialog box" (which takes any non-zero answer)."""
    from .dialogs import BUTTON_NAMES, MESSAGE, MESSAGE_BOX_BUTTONS, Dialog
    codes = {name: code for code, name in BUTTON_NAMES.items()}
    button_codes = tuple(codes[name] for name in buttons)
    # A message box's Windows type says which buttons it has (MB_OKCANCEL = 1, MB_YESNO = 4, ...).
    dialog_type = next((t for t, b in MESSAGE_BOX_BUTTONS.items() if b == button_codes), 0) if kind == MESSAGE else 0
    dialog = Dialog(kind, dialog_id, message, button_codes, codes[default] if default else button_codes[0],
                    dialog_type)
    _dialogs.setdefault(document, []).append((dialog, {codes[name] for name in rolls_back_on}))


def take_commit_dialogs(document) -> list:
    return _dialogs.pop(document, [])


def silent_group_rollbacks(document) -> None:
    _silent_rollbacks.add(document)


def group_rollback_raises_event(document) -> bool:
    return document not in _silent_rollbacks


def fail_export_of(document, view_id: int) -> None:
    _failing_exports.setdefault(document, set()).add(int(view_id))


def export_fails(document, view_id: int) -> bool:
    return int(view_id) in _failing_exports.get(document, ())


def clear() -> None:
    _failing_exports.clear()
    _pending.clear()
    _dialogs.clear()
    _stored.clear()
    _silent_rollbacks.clear()
