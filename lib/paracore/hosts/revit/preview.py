"""Previews: what a writing call would change, found by running it and rolling it back.

Before the user is asked to approve a writing call, the call runs for real inside a transaction
group, through the executor's runner (``transactions.run_in_transaction``: the same start,
read-back and commit as the real run): its transaction is committed, so Revit processes
failures and reports (DocumentChanged) the elements added, modified and deleted; the changed
elements are read; then the group is rolled back, and the undo ledger is told so (Revit does
not document that a group's rollback raises DocumentChanged). The model is as it was, and no
undo entry is left. The approval then shows:

- per element, values before -> after (parameters, type, level, location), on a bounded sample;
- the elements that would be created and deleted, by category; for deletes, what Revit deletes
  along with the elements asked for (hosted doors, tags, dimensions); asked for are the call's
  element ids and its ``targets`` (purge_unused's unused elements). Revit's own elements (a
  floor's sketch, its plane and lines: ``user_elements``) are not counted, unless the call asked
  for them (a family, which has no category, purged by purge_unused);
- the Revit warnings the step would raise.

A call whose preview fails (the tool raises, or Revit would roll the change back) is answered
with that error and never offered for approval (docs/SAFETY.md).

The calls approved earlier in the same step run first inside the group, unmeasured: a step that
creates a level and then a wall on it previews the wall against the new level.

In a workshared model a commit borrows what it changes, and the group's rollback does not give it
back (docs/REVIT_BEHAVIOUR.md, "Worksharing"): the preview, and the earlier calls run before it,
try only the elements the user owns already (``ownership.owned_part``); the approval names the
others, which are borrowed only when the approved call runs (docs/WORKSHARING.md).

Main thread only (the bridge's Execute), like the executor.
"""
from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from paracore.core.display import display_text
from paracore.core.session import Session
from paracore.core.units import format_length
from paracore.core.working_set import singular
from paracore.hosts.revit import document_events, ownership, targets, undo_ledger
from paracore.hosts.revit.executor import MAX_RESULT_CHARS
from paracore.hosts.revit.step_guard import StepGuard
from paracore.hosts.revit.transactions import failures_text, run_in_transaction
from paracore.revit.api import DB
from paracore.revit.changes import ChangeRecorder
from paracore.revit.context import ToolContext, display_length_unit, element_id
from paracore.revit.user_elements import category_name, users_ids
from paracore.tools.elements.element_query import display_value
from paracore.tools.framework.registry import ELEMENT_IDS, PreparedCall

log = logging.getLogger("paracore.preview")

__all__ = ["Preview", "ValueChange", "preview_call", "SAMPLE_ELEMENTS"]

SAMPLE_ELEMENTS = 20   # modified elements whose values are read before and after
SHOWN_CHANGES = 6      # value-change lines in the approval
SHOWN_CATEGORIES = 5   # categories named per line
SHOWN_IDS = 8          # ids named for what a delete takes along
VALUE_TEXT = 40        # characters of one value
ERROR_FRAME = 300      # characters the agent puts around a failed preview's error


@dataclass(frozen=True)
class ValueChange:
    """One value that changes the same way on ``count`` of the sampled elements."""

    name: str
    before: str
    after: str
    count: int


@dataclass(frozen=True)
class Preview:
    """What a call would do to the model. ``error`` set: it would fail, and changes nothing."""

    error: str | None = None
    created: dict[str, int] = field(default_factory=dict)        # category -> count
    modified: dict[str, int] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)
    also_deleted: dict[int, str] = field(default_factory=dict)   # id -> category: not asked for
    changes: tuple[ValueChange, ...] = ()
    sampled: int = 0                                             # modified elements compared
    warnings: tuple[str, ...] = ()
    guarded: tuple[str, ...] = ()   # dialogs answered and saves refused (revit/step_guard.py)
    left_out: str = ""              # elements others own, left out of the call (hosts/revit/ownership.py)
    untried: str = ""               # elements nobody owns, not tried: trying would borrow them (ownership.py)
    refused: bool = False           # ``error`` is why the call cannot run at all; nothing was tried

    @property
    def modified_count(self) -> int:
        return sum(self.modified.values())

    def text(self) -> str:
        """The preview in words, for the approval prompt."""
        if self.error is not None:
            return f"It would fail: {self.error}"
        lines = [line for line in (self._counts_line("Creates", self.created),
                                   self._counts_line("Modifies", self.modified),
                                   self._counts_line("Deletes", self.deleted)) if line]
        lines += self._also_deleted_lines() + self._change_lines()
        if self.warnings:
            lines.append(f"Revit would warn: {failures_text(list(self.warnings))}")
        lines += self.guarded
        if not lines and self.untried:
            lines.append("Nothing was tried in this preview.")
        for note in (self.left_out, self.untried):
            if note:
                lines.append(note)
        return "\n".join(lines) if lines else "No change to the model."

    @staticmethod
    def _counts_line(verb: str, counts: dict[str, int]) -> str | None:
        if not counts:
            return None
        return f"{verb} {sum(counts.values()):,}: {_counts(counts)}"

    def _also_deleted_lines(self) -> list[str]:
        if not self.also_deleted:
            return []
        ids = sorted(self.also_deleted)
        shown = ", ".join(str(i) for i in ids[:SHOWN_IDS]) + (f", … {len(ids) - SHOWN_IDS} more"
                                                               if len(ids) > SHOWN_IDS else "")
        by_category = Counter(self.also_deleted.values())
        return [f"Revit also deletes what depends on them: {_counts(dict(by_category))} (ids {shown})"]

    def _change_lines(self) -> list[str]:
        if not self.changes:
            return []
        of = (f" (on the {self.sampled} of {self.modified_count:,} compared)"
              if self.sampled < self.modified_count else "")
        lines = [f"Values{of}:"]
        for change in self.changes[:SHOWN_CHANGES]:
            times = f" ×{change.count}" if change.count > 1 else ""
            lines.append(f"- {change.name}: {change.before} → {change.after}{times}")
        if len(self.changes) > SHOWN_CHANGES:
            lines.append(f"- … and {len(self.changes) - SHOWN_CHANGES} more kinds of change")
        return lines


def preview_call(uidoc, session: Session, call: PreparedCall,
                 earlier: Sequence[PreparedCall] = ()) -> Preview | None:
    """Run ``earlier`` then ``call`` in a transaction group that is rolled back; what ``call`` did.

    None when no preview can be made (the document is read-only, or a group cannot start): the
    approval then goes ahead without one, and the executor reports any failure as usual.
    """
    doc = uidoc.Document
    if doc.IsReadOnly:
        return None
    preview = _narrowed_preview(uidoc, session, call, earlier)
    if doc.IsWorkshared and preview is not None and preview.error and preview.error.startswith(ROLLED_BACK):
        # The copy's cache may be behind central: a failed commit can teach it who holds what (the
        # stand-in learns so; Revit does not document it), so try once more as the run would go.
        again = _narrowed_preview(uidoc, session, call, earlier)
        preview = again if again is None or not again.error or again.refused else \
            dataclasses.replace(again, error=f"{again.error}\n{WORKSHARED_HINT}")
    return preview


SCRIPT_NOT_TRIED = ("Not tried in this preview: in a workshared model, trying a script borrows from central every "
                    "element it changes (Revit checks an element out when a change to it is committed, and undoing "
                    "the preview does not give it back), also if you then decline; which elements a script changes "
                    "cannot be known before it runs. {name} runs, and borrows what it changes, only once you approve.")
ROLLED_BACK = "Revit would roll the change back: "   # a commit's failure, as opposed to the tool's own refusal
WORKSHARED_HINT = ("In a workshared model: check that central can be reached and who borrows these elements "
                   "(get_element_info), then ask again.")


def _narrowed_preview(uidoc, session: Session, call: PreparedCall, earlier: Sequence[PreparedCall]) -> Preview | None:
    # In a workshared model, as the executor will run it: without the elements others own (as far
    # as this copy knows; the executor asks central, and nothing is borrowed before the approval).
    doc = uidoc.Document
    if call.spec.runs_scripts and doc.IsWorkshared and not doc.IsDetached:
        return Preview(untried=SCRIPT_NOT_TRIED.format(name=call.name))   # what a script changes is unknown
    narrowed = ownership.from_cache(doc, call)
    if narrowed is not None and narrowed.call is None:
        return Preview(error=narrowed.note, refused=True)   # others hold every element: nothing to try
    refused = targets.refusal(doc, session, call)            # ... or every target (a view, a type)
    if refused is not None:
        return Preview(error=refused, refused=True)
    # Only what the user owns already is tried: a commit here would borrow the rest for good.
    tried, untried = ownership.owned_part(doc, call if narrowed is None else narrowed.call)
    untried_targets = targets.untried(doc, session, call)   # a tool whose elements are its targets (import)
    untried += untried_targets
    earlier = [part for part, _ in (ownership.owned_part(doc, ownership.as_it_will_run(doc, c)) for c in earlier)
               if part is not None]
    preview = _preview(uidoc, session, tried, earlier, frozenset(untried_targets)) if tried is not None else Preview()
    left_out = "\n".join(([narrowed.note] if narrowed is not None else []) + list(call.notes))
    if preview is None or not (left_out or untried):
        return preview
    return dataclasses.replace(preview, left_out=left_out,
                               untried=ownership.untried_note(call, untried) if untried else "")


def _preview(uidoc, session: Session, call: PreparedCall, earlier: Sequence[PreparedCall],
             untried_targets: frozenset[int] = frozenset()) -> Preview | None:
    doc = uidoc.Document
    group = DB.TransactionGroup(doc, "Paracore preview")
    # paracore_work: the preview's commits, rolled back with its group, are not the user's edits.
    with document_events.previewing(doc), undo_ledger.paracore_work(doc) as ledger:
        mark = ledger.work_mark()
        try:
            group.Start()
        except Exception:  # noqa: BLE001 - e.g. an edit mode Revit will not leave: no preview
            log.info("No preview: the transaction group did not start", exc_info=True)
            return None
        try:
            for before in (c for c in earlier if c.spec.writes):
                with StepGuard(getattr(uidoc, "Application", None), doc):
                    _run(_context(uidoc, session, before), before)
            measured = _measure(doc, ToolContext(doc=doc, uidoc=uidoc, session=session, untried=untried_targets), call)
        finally:
            _roll_back(group)
            # Its commits are gone, whether or not Revit raised DocumentChanged for the rollback
            # (and, should RollBack fail, Revit rolls the open group back at the end of Execute).
            undo_ledger.group_rolled_back(doc, mark)
    return _finish(doc, measured)


def _context(uidoc, session: Session, call: PreparedCall) -> ToolContext:
    """The context an earlier call of the step is run in: without the targets nobody owns (targets.untried)."""
    untried = frozenset(targets.untried(uidoc.Document, session, call))
    return ToolContext(doc=uidoc.Document, uidoc=uidoc, session=session, untried=untried)


def _measure(doc, ctx: ToolContext, call: PreparedCall) -> "Preview | _Measured":
    """Run ``call`` in its own committed transaction; read what changed (the group is still open)."""
    # Dialogs are answered and saves refused as in the real run (step_guard.py), so the preview
    # sees what the step will do, and never stops Revit on a modal dialog.
    asked = _asked_ids(call) | targets.target_ids(doc, ctx.session, call)    # read before the change
    with ChangeRecorder(doc.Application, doc) as recorder, \
            StepGuard(getattr(ctx.uidoc, "Application", None), doc) as guard:
        error = _run(ctx, call)
    if error is not None:
        return Preview(error=_bounded_error("\n".join([error, *guard.report()])))
    modified = users_ids(doc, recorder.modified)
    sample = modified[:SAMPLE_ELEMENTS]
    return _Measured(deleted=recorder.deleted, sample=sample, after={i: _snapshot(doc, i) for i in sample},
                     created=_categories(doc, recorder.added), modified=_categories(doc, modified),
                     warnings=tuple(dict.fromkeys(ctx.warnings)), asked=asked,
                     guarded=tuple(guard.report()))


def _bounded_error(text: str) -> str:
    """The failure as the model reads it, inside the result bound with the agent's "Not run: …"
    around it (an argument a megabyte long is quoted back by the tool's error)."""
    limit = MAX_RESULT_CHARS - ERROR_FRAME
    return text if len(text) <= limit else text[:limit] + f"… (cut: {len(text) - limit} more characters)"


def _run(ctx: ToolContext, call: PreparedCall) -> str | None:
    """Run the call in a transaction and commit it, as the executor does; the error text when it
    fails (a script's sys.exit() too), else None."""
    done = run_in_transaction(ctx, call)
    if done.refused is not None:
        return f"{ROLLED_BACK}{done.refused}"
    return done.error


@dataclass
class _Measured:
    """A call measured inside the group; its "before" side is read once the group is rolled back."""

    deleted: list[int]
    sample: list[int]
    after: dict[int, dict[str, str]]
    created: dict[str, int]
    modified: dict[str, int]
    warnings: tuple[str, ...]
    asked: set[int]
    guarded: tuple[str, ...]     # the dialogs the step guard answered, the saves it refused


def _roll_back(group) -> None:
    try:
        group.RollBack()
    except Exception:  # noqa: BLE001 - Revit rolls an open group back at the end of Execute anyway
        log.exception("The preview's transaction group could not be rolled back")


def _finish(doc, measured) -> Preview:
    """The Preview, with the "before" values read from the restored model."""
    if isinstance(measured, Preview):
        return measured
    before = {i: _snapshot(doc, i) for i in measured.sample}
    # Read once the group is rolled back: they exist again. What the call asked to delete counts
    # whatever it is (a family has no category, yet purge_unused deletes it by name).
    deleted = [i for i in measured.deleted if i in measured.asked or i in users_ids(doc, [i])]
    also = {i: _category(doc, i) for i in deleted if i not in measured.asked}
    return Preview(created=measured.created, modified=measured.modified,
                   deleted=dict(Counter(_category(doc, i) for i in deleted).most_common()), also_deleted=also,
                   changes=tuple(_value_changes(measured.sample, before, measured.after)),
                   sampled=len(measured.sample), warnings=measured.warnings, guarded=measured.guarded)


# -- reading elements ------------------------------------------------------------------------------


def _asked_ids(call: PreparedCall) -> set[int]:
    ids = getattr(call.args, ELEMENT_IDS, None) if call.spec.takes_element_ids else None
    return set(ids or ())


def _category(doc, value: int) -> str:
    """The element's category; "Families" for a family (Revit gives a Family no category: its
    FamilyCategory is its instances'), "Other" for anything else without one."""
    element = doc.GetElement(element_id(value))
    name = category_name(element)
    if name is None and isinstance(element, DB.Family):
        return "Families"
    return name or "Other"


def _categories(doc, ids: Sequence[int]) -> dict[str, int]:
    """Counts per category of the user's elements among ``ids`` (Revit's own are left out)."""
    return dict(Counter(_category(doc, i) for i in users_ids(doc, ids)).most_common())


def _snapshot(doc, value: int) -> dict[str, str]:
    """An element's values as the user sees them: parameters, type, level and location."""
    element = doc.GetElement(element_id(value))
    if element is None:
        return {}
    values = {p.Definition.Name: display_value(p) for p in element.Parameters}
    type_element = doc.GetElement(element.GetTypeId())
    if type_element is not None:
        values["Type"] = type_element.Name
    level = doc.GetElement(element.LevelId) if element.LevelId is not None else None
    if level is not None:
        values["Level"] = level.Name
    values["Location"] = _location_text(doc, element.Location)
    return values


def _location_text(doc, location) -> str:
    unit = display_length_unit(doc)

    def point(xyz) -> str:
        return "(" + ", ".join(format_length(v, unit) for v in (xyz.X, xyz.Y, xyz.Z)) + ")"

    if isinstance(location, DB.LocationPoint):
        return point(location.Point)
    if isinstance(location, DB.LocationCurve):
        curve = location.Curve
        return f"{point(curve.GetEndPoint(0))} to {point(curve.GetEndPoint(1))}"
    return ""


def _value_changes(sample: Sequence[int], before: dict, after: dict) -> list[ValueChange]:
    """The changes on the sampled elements, alike ones merged, the most frequent first."""
    counts: Counter = Counter()
    for value in sample:
        old, new = before.get(value, {}), after.get(value, {})
        for name in dict.fromkeys([*old, *new]):
            if old.get(name, "") != new.get(name, ""):
                counts[(name, _short(old.get(name, "(none)")), _short(new.get(name, "(none)")))] += 1
    return [ValueChange(name, old, new, n) for (name, old, new), n in counts.most_common()]


def _short(text: str) -> str:
    return display_text(text or "(empty)", VALUE_TEXT)


def _counts(counts: dict[str, int]) -> str:
    items = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    text = ", ".join(f"{n:,} {(name if n != 1 else singular(name)).lower()}" for name, n in items[:SHOWN_CATEGORIES])
    return text + (f", and {len(items) - SHOWN_CATEGORIES} more categories" if len(items) > SHOWN_CATEGORIES else "")
