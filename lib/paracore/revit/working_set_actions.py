"""The working-set actions, written once: change the set (add, remove, replace; with the Revit
selection or given ids), clear it, drop deleted ids, select its elements, isolate them.

Three surfaces use them: the ribbon's quick buttons (``paracore.app.revit.quick_buttons``), the chat pane's
side panel (``panel_actions``) and the agent's tools (``tools/working_set/working_set_tools.py``,
``tools/views/view_tools.py``). An action returns an ``Outcome`` (what it acted on, what it skipped and
why); a surface only words it. Everything here runs on Revit's main thread in API context.

Changing the set: a button or the panel changes the session's set at once, so it passes
``source`` (the change log's "who"). A tool passes none: the executor applies the tool's
``ToolOutput.working_set`` after its transaction commits (docs/WORKING_SET.md), so the tool only
hands the outcome on.

Isolating (docs/WORKING_SET.md, "Isolating"): the view's temporary hide/isolate is reset first,
then the ids the view shows are isolated, the others reported; nothing is isolated when the view
shows none of them. The transaction is the caller's: a tool runs inside the executor's, a button
or the panel asks for one of its own (``own_transaction=True``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from paracore.core.linked import LinkedElement
from paracore.revit import links, selection
from paracore.revit.api import DB
from paracore.revit.context import id_value
from paracore.revit.dotnet import element_id_list

Operation = Literal["add", "remove", "replace"]

# Why an id was skipped (keys of Outcome.skipped).
ALREADY_IN = "already in the working set"
NOT_IN = "not in the working set"
NOT_SELECTED = "not selected by Revit"
NOT_IN_VIEW = "not shown in the view"      # another level, cropped out, a type or a non-model element
MISSING = "no longer in the model"

# Why nothing was tried (Outcome.refused).
EMPTY = "nothing to act on"
NOTHING_SELECTED = "nothing is selected in Revit"
NO_VIEW = "there is no active view"
NOT_A_MODEL_VIEW = "the view does not show model elements"   # a schedule, a template

ISOLATE_TRANSACTION = "Paracore: isolate working set"


@dataclass(frozen=True)
class Outcome:
    """What one action did, for a surface to word. Ids keep the order they were given in."""
    requested: tuple[int, ...] = ()     # the ids the action was asked to act on
    done: tuple[int, ...] = ()          # those it acted on: added, removed, cleared, dropped, selected, isolated
    skipped: dict[str, tuple[int, ...]] = field(default_factory=dict)   # why -> ids
    before: tuple[int, ...] = ()        # the working set before the action
    after: tuple[int, ...] = ()         # and once the action is applied (by the executor, for a tool)
    refused: str | None = None          # why nothing was tried (EMPTY, NOTHING_SELECTED, NO_VIEW, ...)
    view_name: str = ""                 # isolate: the view acted in
    reset: bool = False                 # isolate: an earlier temporary hide/isolate was reset first
    linked: tuple[LinkedElement, ...] = ()   # with the selection: elements the user picked inside links

    def skipped_ids(self, *reasons: str) -> tuple[int, ...]:
        """The ids skipped for any of ``reasons`` (every reason when none is given)."""
        return tuple(i for why, ids in self.skipped.items() if not reasons or why in reasons for i in ids)


def _unique(ids) -> tuple[int, ...]:
    return tuple(dict.fromkeys(int(i) for i in ids))


def _skipped(by_reason: dict) -> dict[str, tuple[int, ...]]:
    """The reasons that have ids, each with its ids as a tuple."""
    return {why: tuple(ids) for why, ids in by_reason.items() if ids}


# -- changing the working set ------------------------------------------------------------------


def change(working_set, operation: Operation, ids, source: str | None = None) -> Outcome:
    """Add ``ids`` to the set, remove them from it, or make them the whole set.

    ``done`` is what changes: for add the ids not yet in the set, for remove the members, for
    replace all ``ids``. The set changes only when ``source`` is given (see the module's doc).
    """
    ids, before = _unique(ids), tuple(working_set.ids)
    members = set(before)
    if operation == "add":
        done = tuple(i for i in ids if i not in members)
        skipped, after = _skipped({ALREADY_IN: [i for i in ids if i in members]}), before + done
    elif operation == "remove":
        done = tuple(i for i in ids if i in members)
        skipped = _skipped({NOT_IN: [i for i in ids if i not in members]})
        gone = set(done)
        after = tuple(i for i in before if i not in gone)
    elif operation == "replace":
        done, skipped, after = ids, {}, ids
    else:
        raise ValueError(f"operation must be add, remove or replace; got {operation!r}")
    if source is not None and after != before:
        getattr(working_set, operation)(done, source=source)  # WorkingSet.add / .remove / .replace
    return Outcome(requested=ids, done=done, skipped=skipped, before=before, after=after)


def change_with_selection(uidoc, working_set, operation: Operation, source: str | None = None) -> Outcome:
    """``change`` with the elements selected in Revit, and those picked inside links (``linked``:
    they join or leave the set as linked elements); refused when nothing is selected."""
    ids, linked = selection.selected_ids(uidoc), tuple(links.selected_linked(uidoc.Document, uidoc))
    if not ids and not linked:
        before = tuple(working_set.ids)
        return Outcome(before=before, after=before, refused=NOTHING_SELECTED)
    if not linked:
        return change(working_set, operation, ids, source)
    outcome = change(working_set, operation, ids)      # worded here; applied below, with the linked ones
    if source is not None:
        getattr(working_set, operation)(outcome.done, source=source, linked=linked)
    return replace(outcome, linked=linked)


def clear(working_set, source: str | None = None) -> Outcome:
    """Empty the set (``done``: the ids it held); refused when it is already empty."""
    before = tuple(working_set.ids)
    if not before:
        return Outcome(refused=EMPTY)
    if source is not None:
        working_set.clear(source=source)
    return Outcome(requested=before, done=before, before=before, after=())


def prune_deleted(doc, working_set) -> Outcome:
    """Drop the ids whose elements no longer exist (``done``: the ids dropped).

    DocumentChanged normally does it (revit/document_events.py); this covers a session that
    missed the event, so a surface never acts on a deleted id.
    """
    before = tuple(working_set.ids)
    _, missing = selection.existing(doc, before)
    if missing:
        working_set.discard_deleted(missing)
    return Outcome(requested=before, done=tuple(missing), before=before, after=tuple(working_set.ids))


# -- the working set into Revit ----------------------------------------------------------------


def select(uidoc, ids) -> Outcome:
    """Make ``ids`` the Revit selection (``[]`` clears it); ``done`` is what Revit reports selected."""
    ids = _unique(ids)
    selected = tuple(selection.select(uidoc, ids))
    chosen = set(selected)
    return Outcome(requested=ids, done=selected,
                   skipped=_skipped({NOT_SELECTED: [i for i in ids if i not in chosen]}))


def isolate(doc, view, ids, *, own_transaction: bool = False) -> Outcome:
    """Temporarily isolate, in ``view``, those of ``ids`` it shows (the rule: module doc).

    Refused, with nothing changed, when ``ids`` is empty or the view shows no model elements.
    Ids of deleted elements are skipped without touching the view. ``own_transaction``: the
    caller is not inside a transaction (a button, the panel), so open one; the API documentation
    does not say whether temporary hide/isolate needs one, and inside one it works either way.
    """
    ids = _unique(ids)
    refused = EMPTY if not ids else _view_refusal(view)
    if refused:
        return Outcome(requested=ids, refused=refused, view_name=view.Name if view is not None else "")
    _, missing = selection.existing(doc, ids)
    if len(missing) == len(ids):
        return Outcome(requested=ids, skipped=_skipped({MISSING: missing}), view_name=view.Name)
    if not own_transaction:
        return _isolate_shown(doc, view, ids, missing)
    transaction = DB.Transaction(doc, ISOLATE_TRANSACTION)
    transaction.Start()
    try:
        outcome = _isolate_shown(doc, view, ids, missing)
        transaction.Commit()
    except BaseException:
        if transaction.HasStarted() and not transaction.HasEnded():
            transaction.RollBack()
        raise
    return outcome


def _view_refusal(view) -> str | None:
    if view is None:
        return NO_VIEW
    if view.IsTemplate or isinstance(view, DB.TableView):
        return NOT_A_MODEL_VIEW
    return None


def _isolate_shown(doc, view, ids, missing) -> Outcome:
    # Reset first: the user asks for a new isolation, so what the old one hides counts as shown.
    reset = view.IsTemporaryHideIsolateActive()
    if reset:
        view.DisableTemporaryViewMode(DB.TemporaryViewMode.TemporaryHideIsolate)
    visible = visible_ids(doc, view)
    shown = tuple(i for i in ids if i in visible)
    if shown:
        view.IsolateElementsTemporary(element_id_list(shown))
    gone = set(missing)
    hidden = [i for i in ids if i not in visible and i not in gone]
    return Outcome(requested=ids, done=shown, skipped=_skipped({NOT_IN_VIEW: hidden, MISSING: missing}),
                   view_name=view.Name, reset=reset)


def visible_ids(doc, view) -> set[int]:
    """Ids of the elements ``view`` shows now (its level, its crop, temporary hide/isolate applied)."""
    collector = DB.FilteredElementCollector(doc, view.Id).WhereElementIsNotElementType()
    return {id_value(eid) for eid in collector.ToElementIds()}
