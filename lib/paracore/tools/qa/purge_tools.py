"""purge_unused: Revit's Purge Unused, in one step the user approves.

What is unused is Revit's to say: ``Document.GetUnusedElements`` (Revit 2024+; Autodesk: "the list
of element ids that are not used and can be deleted from the document [...] available in the Purge
Unused window"). The tool never decides on its own that something is unused; it only narrows
Revit's answer (the kinds asked for, what colleagues hold) and checks Revit kept its word.

Decisions:
- One transaction, repeated until nothing more becomes unused: deleting an unused type can make
  its material unused (Autodesk's own example asks again after each Delete). At most MAX_PASSES
  passes; one undo entry, and any failure rolls every pass back.
- Read-back: each pass, every id Revit reports deleted must be one it called unused in that pass
  and of a kind the call includes (a family's types go with it, so a family is purged only with all
  its types); afterwards every one is gone, and the model's elements by category (lookup.model_counts)
  are what they were. Anything else is an error, and the transaction rolls back.
- Kinds come from the element's class (families, family types, system types, materials, view
  templates, filters, line patterns, fill patterns, other), so what a later Revit adds to Purge
  Unused is still named; ``kinds`` / ``exclude_kinds`` narrow them.
- ``dry_run`` runs the same passes inside a SubTransaction rolled back at once: the whole
  cascade is listed and nothing changes.
- Workshared models: elements others own, or changed in central, are left out and named; the
  first pass's ids are the tool's ``targets`` (tools/framework/worksharing_targets.py), later passes
  are checked element by element. A family is left out when one of its types is.
- Revit 2023 has no GetUnusedElements: the tool says so and what to do (Purge Unused in Revit's
  Manage tab), without guessing what is unused.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.revit.dotnet import element_id_set
from paracore.tools.framework import worksharing_targets as targets_of
from paracore.tools.framework.lookup import model_counts
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.framework.wording import listed, plural

Kind = Literal["families", "family types", "system types", "materials", "view templates", "filters",
               "line patterns", "fill patterns", "other"]
KINDS: tuple[str, ...] = ("families", "family types", "system types", "materials", "view templates", "filters",
                          "line patterns", "fill patterns", "other")
_SINGULAR = {"families": "family", "family types": "family type", "system types": "system type",
             "materials": "material", "view templates": "view template", "filters": "filter",
             "line patterns": "line pattern", "fill patterns": "fill pattern", "other": "other element"}
# Classes Revit has and the stand-in may not: named, not imported (a filter, a line pattern).
_BY_CLASS_NAME = {"ParameterFilterElement": "filters", "SelectionFilterElement": "filters",
                  "FilterElement": "filters", "LinePatternElement": "line patterns",
                  "FillPatternElement": "fill patterns"}
MAX_PASSES = 10     # purging cascades a few levels deep (type, material, asset); a bound, not a goal
NAMES_PER_KIND = 4  # names shown per kind in a result or an approval
NO_API_2023 = (
    "Revit {version}'s API has no Document.GetUnusedElements (Autodesk added it in Revit 2024), so "
    "Paracore cannot ask Revit what is unused here, and it does not guess. Nothing was changed. "
    "In Revit: Manage tab > Settings > Purge Unused lists the unused families, types and materials "
    "and deletes what you check; run it again until it lists nothing, as purging one element can "
    "leave another unused. Or open the model in Revit 2024 or later and ask again.")


class PurgeUnusedArgs(BaseModel):
    kinds: list[Kind] | None = Field(
        None, max_length=len(KINDS),
        description="Only these kinds of unused elements; null: every kind Revit lists. Deleting a family "
                    "deletes its types, so a family is purged only when all its types are too.")
    exclude_kinds: list[Kind] | None = Field(
        None, max_length=len(KINDS), description="Kinds to leave in the model (e.g. ['materials']).")
    dry_run: bool = Field(
        False, description="True: list what would be purged, cascade included, and change nothing.")


# --- what Revit calls unused ------------------------------------------------------------------------


def has_purge_api(doc) -> bool:
    """Whether the running Revit has GetUnusedElements (2024+); pythonnet reads a missing member as
    an AttributeError, so hasattr answers."""
    return hasattr(doc, "GetUnusedElements")


def _refuse_without_api(ctx) -> None:
    if not has_purge_api(ctx.doc):
        version = getattr(ctx.doc.Application, "VersionNumber", "") or "2023"
        raise ToolError(NO_API_2023.format(version=version))


def unused_ids(ctx) -> list[int]:
    """Every id Revit lists as unused now (an empty set of categories: all of them), sorted."""
    return sorted(ctx.id_value(i) for i in ctx.doc.GetUnusedElements(element_id_set([])))


def kept_unused(ctx, wanted: set[str]) -> list[int]:
    """Unused elements Revit will not delete (GetAllUnusedElements: "including elements that can't be
    deleted", less GetUnusedElements): a system family's last type, say. Of the wanted kinds."""
    every = {ctx.id_value(i) for i in ctx.doc.GetAllUnusedElements(element_id_set([]))}
    kept = sorted(every - set(unused_ids(ctx)))
    return [i for i in kept if kind_of(ctx.doc.GetElement(ctx.element_id(i))) in wanted]


def _kept_text(ctx, wanted: set[str]) -> str:
    kept = kept_unused(ctx, wanted)
    if not kept:
        return ""
    names = [f"'{_label(ctx.doc.GetElement(ctx.element_id(i)))}'" for i in kept]
    return (f" Revit keeps {plural(len(kept), 'more unused element')} it cannot delete (such as the last type "
            f"of a system family): {listed(names, NAMES_PER_KIND)}.")


def _passes(count: int) -> str:
    return f"{count} pass{'' if count == 1 else 'es'}"


def kind_of(element) -> str:
    from Autodesk.Revit import DB
    if isinstance(element, DB.Family):
        return "families"
    if isinstance(element, DB.FamilySymbol):
        return "family types"
    if isinstance(element, DB.Material):
        return "materials"
    if isinstance(element, DB.View):
        return "view templates" if element.IsTemplate else "other"
    named = _BY_CLASS_NAME.get(type(element).__name__)
    if named:
        return named
    return "system types" if isinstance(element, DB.ElementType) else "other"


def _wanted_kinds(args: PurgeUnusedArgs) -> set[str]:
    wanted = set(args.kinds) if args.kinds is not None else set(KINDS)
    return wanted - set(args.exclude_kinds or ())


def _label(element) -> str:
    family = getattr(element, "FamilyName", "") or ""
    name = element.Name
    return display_text(f"{family}: {name}" if family and family != name else name)


@dataclass
class _Pass:
    """What one pass asked Revit to delete, the types that go with its families, and what went."""

    asked: list[int]
    along: set[int] = field(default_factory=set)
    deleted: list[int] = field(default_factory=list)


@dataclass
class _Purge:
    """The passes' record: what went, by kind with names, and what was left out and why."""

    kinds: dict[int, str] = field(default_factory=dict)       # id -> kind, read before deleting
    labels: dict[int, str] = field(default_factory=dict)      # id -> name, read before deleting
    passes: list[_Pass] = field(default_factory=list)
    held: dict[int, str] = field(default_factory=dict)        # id -> "'name' (id, held by …)"
    skipped: Counter = field(default_factory=Counter)         # kind -> unused but not asked for
    unfinished: bool = False                                  # MAX_PASSES ran and Revit listed more
    with_types: int = 0                                       # families kept: their types were not asked for

    @property
    def deleted(self) -> list[int]:
        return [i for p in self.passes for i in p.deleted]


def _held(ctx, element) -> bool:
    """Another user holds it (or central changed it): at the run, as central answered for the targets
    (``left_out``), else as the local copy last learnt; in a preview also what the user does not
    borrow yet (``untried``: committing would borrow it)."""
    if not ctx.doc.IsWorkshared:
        return False
    value = ctx.id_value(element.Id)
    if value in ctx.untried:
        return True
    if ctx.left_out is not None and value in ctx.left_out:
        return True
    return targets_of.held_now(ctx, value)


def _note(ctx, purge: _Purge, value: int, element) -> str:
    """Read (once) what an element is and is called, before it can be deleted."""
    purge.labels.setdefault(value, _label(element))
    return purge.kinds.setdefault(value, kind_of(element))


def _hold(ctx, purge: _Purge, value: int, element) -> None:
    purge.held[value] = f"'{purge.labels[value]}' (id {value}, {targets_of.held_by(ctx, element)})"


def _batch(ctx, found: list[int], wanted: set[str], purge: _Purge, tried: set[int]) -> _Pass:
    """Of Revit's unused ids, those this pass deletes: of a wanted kind, not held, not tried before.
    A family takes its types along (Document.Delete): it goes only when family types are wanted and
    none of its types is held, and its types are then expected to go with it."""
    chosen, along = set(), set()
    for value in found:
        if value in tried:
            continue
        element = ctx.doc.GetElement(ctx.element_id(value))
        kind = _note(ctx, purge, value, element)
        if kind not in wanted:
            purge.skipped[kind] += 1
        elif _held(ctx, element):
            _hold(ctx, purge, value, element)
        elif kind != "families":
            chosen.add(value)
        elif _family_may_go(ctx, purge, element, wanted):
            chosen.add(value)
            along.update(ctx.id_value(i) for i in element.GetFamilySymbolIds())
    return _Pass(asked=sorted(chosen), along=along - chosen)


def _family_may_go(ctx, purge: _Purge, family, wanted: set[str]) -> bool:
    if family.GetFamilySymbolIds().Count and "family types" not in wanted:
        purge.with_types += 1
        return False
    free = True
    for type_id in family.GetFamilySymbolIds():
        element = ctx.doc.GetElement(type_id)
        value = ctx.id_value(type_id)
        _note(ctx, purge, value, element)
        if _held(ctx, element):
            _hold(ctx, purge, value, element)
            free = False
    return free


def _run_passes(ctx, wanted: set[str]) -> _Purge:
    """Delete what Revit calls unused, asking again after each Delete until nothing more goes."""
    purge, tried = _Purge(), set()
    for _ in range(MAX_PASSES):
        found = unused_ids(ctx)
        done = _batch(ctx, found, wanted, purge, tried)
        tried.update(found)
        if not done.asked:
            break
        done.deleted = [ctx.id_value(i) for i in ctx.doc.Delete(ctx.element_id_list(done.asked))]
        purge.passes.append(done)
        _check_pass(done, set(found), wanted, purge)
    else:
        purge.unfinished = bool(_batch(ctx, unused_ids(ctx), wanted, _Purge(), tried).asked)
    return purge


def _check_pass(done: _Pass, unused_now: set[int], wanted: set[str], purge: _Purge) -> None:
    """Revit deleted only what it called unused in this pass (or a purged family's types), of a kind
    the call asked for and nobody else holds: else the whole purge is rolled back (the ToolError
    ends the transaction)."""
    allowed = set(done.asked) | done.along
    extra = [i for i in done.deleted if i not in allowed and not (
        i in unused_now and purge.kinds.get(i) in wanted and i not in purge.held)]
    if extra:
        raise ToolError(
            f"Revit deleted {plural(len(extra), 'element')} that {'was' if len(extra) == 1 else 'were'} not "
            f"unused along with the purge (ids {listed([str(i) for i in extra], 8)}). Nothing was changed: the "
            "purge was rolled back. Purge fewer kinds (kinds), or use Purge Unused in Revit to see what it "
            "takes along.")


# --- the words ------------------------------------------------------------------------------------------


def _by_kind(ids, kinds: dict[int, str], labels: dict[int, str]) -> str:
    groups: dict[str, list[int]] = {}
    for value in ids:
        groups.setdefault(kinds.get(value, "other"), []).append(value)
    parts = []
    for kind in KINDS:
        members = groups.get(kind)
        if members:
            word = kind if len(members) != 1 else _SINGULAR[kind]
            names = listed([f"'{labels.get(i, i)}'" for i in members], NAMES_PER_KIND)
            parts.append(f"{len(members)} {word} ({names})")
    return "; ".join(parts)


def _kind_totals(ctx) -> Counter:
    """How many elements of each purgeable kind the model holds (types, families, materials...)."""
    from Autodesk.Revit import DB
    totals = Counter()
    collectors = [DB.FilteredElementCollector(ctx.doc).WhereElementIsElementType()] + [
        DB.FilteredElementCollector(ctx.doc).OfClass(cls) for cls in (DB.Family, DB.Material, DB.View)]
    for collector in collectors:
        for element in collector:
            kind = kind_of(element)
            if kind != "other":
                totals[kind] += 1
    return totals


def _totals_text(before: Counter, after: Counter) -> str:
    parts = [f"{kind} {before[kind]} → {after[kind]}" for kind in KINDS if before[kind] or after[kind]]
    return "; ".join(parts)


def _left_out_text(purge: _Purge, wanted: set[str]) -> str:
    text = ""
    if purge.unfinished:
        text += f" Revit still lists more after {_passes(MAX_PASSES)}: call again to go on."
    if purge.held:
        text += (f" Left out, as others hold them: {listed(list(purge.held.values()), 4)}. Once they are "
                 "synchronized and relinquished (or you Reload Latest), ask again.")
    if purge.skipped:
        kept = ", ".join(f"{n} {k if n != 1 else _SINGULAR[k]}" for k, n in purge.skipped.items())
        text += f" Unused but not asked for (kinds): {kept}."
    if purge.with_types:
        one = purge.with_types == 1
        text += (f" {purge.with_types} unused {'family' if one else 'families'} kept, as deleting "
                 f"{'it would delete its' if one else 'them would delete their'} types: add 'family types' to "
                 f"purge {'it' if one else 'them'}.")
    return text


def _describe_purge(ctx, args: PurgeUnusedArgs) -> str:
    if not has_purge_api(ctx.doc):
        return "Purge unused elements: not available in this Revit (GetUnusedElements is Revit 2024+)."
    wanted = _wanted_kinds(args)
    purge = _Purge()
    batch = _batch(ctx, unused_ids(ctx), wanted, purge, set()).asked
    if not batch:
        return "Purge unused elements: Revit lists none of the kinds asked for."
    how = "List (dry run, nothing deleted)" if args.dry_run else "Delete"
    return (f"{how} {plural(len(batch), 'unused element')}: {_by_kind(batch, purge.kinds, purge.labels)}; then "
            "whatever becomes unused once they are gone (e.g. the materials of deleted types), in the same step."
            + _left_out_text(purge, wanted))


def _purge_targets(ctx, args: PurgeUnusedArgs) -> list[int]:
    """In a workshared model, the first pass's ids are borrowed (deleting them changes them)."""
    if args.dry_run or not has_purge_api(ctx.doc):
        return []
    wanted = _wanted_kinds(args)
    return [i for i in unused_ids(ctx) if kind_of(ctx.doc.GetElement(ctx.element_id(i))) in wanted]


# --- the tool -------------------------------------------------------------------------------------------


@tool(writes=True, needs_approval=True, working_set_policy="none", describe=_describe_purge,
      targets=_purge_targets)
def purge_unused(ctx, args: PurgeUnusedArgs):
    """Purge unused families, types, materials and whatever else Revit's Purge Unused lists (Revit 2024+),
    in one step: Revit is asked again after each deletion until nothing more becomes unused (a deleted
    type's material). Nothing in use is deleted, and the result gives the counts before and after by kind.
    kinds / exclude_kinds narrow it; dry_run lists the whole cascade and changes nothing. Always asks the
    user first."""
    _refuse_without_api(ctx)
    wanted = _wanted_kinds(args)
    if not wanted:
        raise ToolError("kinds and exclude_kinds leave nothing to purge. Kinds: " + ", ".join(KINDS) + ".")
    before_counts, before_kinds = model_counts(ctx.doc), _kind_totals(ctx)
    if args.dry_run:
        return _dry_run(ctx, wanted, before_kinds)
    purge = _run_passes(ctx, wanted)
    deleted = purge.deleted
    if not deleted:
        return ("Revit lists nothing unused of the kinds asked for: nothing was purged." + _left_out_text(purge, wanted)
                + _kept_text(ctx, wanted))

    def compare(read_back: ReadBack) -> None:
        still = [i for i in deleted if ctx.doc.GetElement(ctx.element_id(i)) is not None]
        for value in still:
            read_back.same(f"element {value}", "existence", "purged", "still in the model")
        before, after = _by_category(before_counts), _by_category(model_counts(ctx.doc))
        for name in sorted(set(before) | set(after)):
            read_back.same(f"the model's {name}", "count", str(before.get(name, 0)), str(after.get(name, 0)))

    def report() -> str:
        after_kinds = _kind_totals(ctx)
        passes = len(purge.passes)
        text = (f"Purged {plural(len(deleted), 'unused element')} in {_passes(passes)}"
                f"{'' if passes == 1 else ' (each deletion left more unused)'}: "
                f"{_by_kind(deleted, purge.kinds, purge.labels)}. Before → after: "
                f"{_totals_text(before_kinds, after_kinds)}. The model's elements are as they were "
                f"({_counts_text(model_counts(ctx.doc))}).")
        return text + _left_out_text(purge, wanted) + _kept_text(ctx, wanted) + " It is one undo entry."

    return ToolOutput(change=Change(
        action="Purging unused elements", compare=compare, report=report,
        hint="Purge fewer kinds (kinds), or run Purge Unused in Revit to see what it would take along."))


def _by_category(rows) -> dict[str, int]:
    return {name: count for _bic, name, count in rows}


def _counts_text(rows) -> str:
    total = sum(count for _bic, _name, count in rows)
    categories = f"{len(rows)} {'category' if len(rows) == 1 else 'categories'}"
    return f"{plural(total, 'element', grouped=True)} in {categories}"


def _dry_run(ctx, wanted: set[str], before_kinds: Counter) -> str:
    """The whole cascade, found by purging inside a SubTransaction rolled back at once."""
    from Autodesk.Revit import DB
    trial = DB.SubTransaction(ctx.doc)
    trial.Start()
    try:
        purge = _run_passes(ctx, wanted)
        kept = _kept_text(ctx, wanted)      # what Revit would keep once the cascade is done
    finally:
        trial.RollBack()
    if not purge.deleted:
        return "Dry run: Revit lists nothing unused of the kinds asked for." + _left_out_text(purge, wanted) + kept
    holds = "; ".join(f"{kind} {before_kinds[kind]}" for kind in KINDS if before_kinds[kind])
    return (f"Dry run, nothing was deleted: a purge would delete {plural(len(purge.deleted), 'element')} in "
            f"{_passes(len(purge.passes))}: {_by_kind(purge.deleted, purge.kinds, purge.labels)}."
            f" The model holds {holds}." + _left_out_text(purge, wanted) + kept
            + " Call again with dry_run false to purge.")
