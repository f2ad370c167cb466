"""Worksharing tools: the worksets of a workshared model, and moving elements between them.

list_worksets reads the user worksets (open or closed, editable, owner, default, active, how many
elements each holds). move_to_workset changes elements' workset through Revit's "Workset" parameter
(``BuiltInParameter.ELEM_PARTITION_PARAM``, the WorksetId's integer), in the executor's transaction,
and reads each element's workset back. The helpers at the bottom say where one element stands
(its workset, who owns it and whether by borrowing it or through its workset made editable,
whether it is current with central) for get_element_info and check_model.

Decisions (docs/WORKSHARING.md, docs/REVIT_BEHAVIOUR.md "Worksharing"):
- A model that is not workshared is an answer for list_worksets and a refusal for move_to_workset,
  both saying the model has no worksets.
- Elements other users own (borrowed, or on a workset they made editable), or changed in central
  since the last reload, are left out of the call and named before it runs (hosts/revit/ownership.py narrows every writing call that takes
  ``element_ids``); this tool does not check them again.
- Elements whose workset Revit does not let change (view-specific elements, views, types: their
  "Workset" parameter is read-only) are left out and named; a call left with none is refused.
- A closed workset is refused: Revit shows no element of a closed workset ("Elements in open
  worksets are visible in the project, elements in closed worksets are not"), so moved elements
  would vanish from every view of this user. Whether Revit refuses it is not documented.
- Another user owning the target workset does not stop the move (Revit: "You can add elements to
  worksets you do not own").

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from pydantic import BaseModel, Field

from paracore.core.display import display_text
from paracore.tools.framework.lookup import _normal, category_summary, close_matches, element_label, id_sample
from paracore.tools.modelling.modify_tools import _noun, _targets
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput, offset_field, page_of
from paracore.tools.framework.wording import listed, plural

GRIDS_WORKSET = "Shared Levels and Grids"   # where Revit puts levels and grids when worksharing is enabled
ROW_BUDGET = 1300
SAMPLE = 5
NOT_WORKSHARED = ("'{title}' is not workshared: it has no worksets, and every element can be changed without "
                  "borrowing it. (Worksharing is turned on in Revit with Collaborate > Worksets.)")


class ListWorksetsArgs(BaseModel):
    offset: int = offset_field()


class MoveToWorksetArgs(BaseModel):
    element_ids: list[int] | None = Field(None, description="Revit element ids (integers). Leave null to use the "
                                                            "working set.")
    workset: str = Field(description="The user workset to move them to, by its name as Revit shows it "
                                     "(Collaborate > Worksets), e.g. 'Shared Levels and Grids'. list_worksets lists them.")


# --- reading worksets -------------------------------------------------------------------------------


@dataclass(frozen=True)
class WorksetInfo:
    id: int
    name: str
    is_open: bool
    editable: bool
    owner: str
    default: bool


def user_worksets(doc) -> list[WorksetInfo]:
    """The document's user worksets, in Revit's order (none in a model that is not workshared)."""
    from Autodesk.Revit import DB
    return [WorksetInfo(w.Id.IntegerValue, w.Name, w.IsOpen, w.IsEditable, w.Owner, w.IsDefaultWorkset)
            for w in DB.FilteredWorksetCollector(doc).OfKind(DB.WorksetKind.UserWorkset)]


def is_model_element(element) -> bool:
    """An element that lives on a user workset in Revit: not a type, a view or a view-specific one."""
    from Autodesk.Revit import DB
    return not (element.ViewSpecific or isinstance(element, (DB.View, DB.ElementType)))


def elements_by_workset(ctx) -> dict[int, list[int]]:
    """User workset id -> the ids of the model elements on it (one pass over the model)."""
    from Autodesk.Revit import DB
    found: dict[int, list[int]] = {}
    for element in DB.FilteredElementCollector(ctx.doc).WhereElementIsNotElementType():
        if is_model_element(element):
            found.setdefault(element.WorksetId.IntegerValue, []).append(ctx.id_value(element.Id))
    return found


def find_workset(ctx, name: str) -> WorksetInfo:
    """The user workset named ``name`` (exactly, then ignoring case and spacing); a ToolError
    listing the names when there is none."""
    worksets = user_worksets(ctx.doc)
    for same in (lambda w: w.name == name, lambda w: _normal(w.name) == _normal(name)):
        found = [w for w in worksets if same(w)]
        if found:
            return found[0]
    names = [w.name for w in worksets]
    close = close_matches(name, names, n=3, cutoff=0.5)
    hint = f" Did you mean {' or '.join(repr(display_text(c)) for c in close)}?" if close else ""
    raise ToolError(f"No user workset is named '{display_text(name, 80)}'.{hint} The model's worksets: "
                    f"{listed([repr(display_text(n)) for n in names], 20)}. Give one of these names (list_worksets "
                    "lists them with their state); a new workset is made in Revit (Collaborate > Worksets > New).")


def workset_name(worksets: list[WorksetInfo], value: int) -> str:
    return next((w.name for w in worksets if w.id == value), f"workset {value}")


@dataclass(frozen=True)
class Standing:
    """Where one element of a workshared model stands: its workset, who borrows it, central."""

    workset: str
    owner: str          # "" nobody, else the user who owns it (borrows it, or has its workset editable)
    mine: bool          # the current user owns it
    central: str        # "" current with central, else what is out of step
    creator: str
    last_changed_by: str
    through_workset: bool = False   # owned because its workset is editable by the owner, not borrowed
    detached: bool = False          # the model is open detached from central: nobody can borrow anything

    @property
    def holder(self) -> str:
        return "you" if self.mine else display_text(self.owner, 40)

    def ownership(self) -> str:
        """ "borrowed by maria", "its workset is editable by you", or "not borrowed"."""
        if self.detached:
            return "detached from central (nothing is borrowed)"
        if not self.owner and not self.mine:
            return "not borrowed"
        return f"its workset is editable by {self.holder}" if self.through_workset else f"borrowed by {self.holder}"

    def text(self) -> str:
        """ "workset 'Workset1' · borrowed by maria · changed in central (Reload Latest) · last changed by li"."""
        parts = [f"workset '{display_text(self.workset, 60)}'", self.ownership()]
        if self.central:
            parts.append(self.central)
        if self.last_changed_by:
            parts.append(f"last changed by {display_text(self.last_changed_by, 40)}")
        elif self.creator:
            parts.append(f"created by {display_text(self.creator, 40)}")
        return " · ".join(parts)


CENTRAL_WORDS = {"UpdatedInCentral": "changed in central since you last reloaded (Reload Latest)",
                 "DeletedInCentral": "deleted in central (Reload Latest)",
                 "NotYetInCentral": "not yet in central (new here)"}


def standing(ctx, element, worksets: list[WorksetInfo]) -> Standing:
    """What the local copy last learnt from central about ``element`` (reads only; no call to central)."""
    from Autodesk.Revit import DB
    utils = DB.WorksharingUtils
    status = utils.GetCheckoutStatus(ctx.doc, element.Id)
    info = utils.GetWorksharingTooltipInfo(ctx.doc, element.Id)
    central = utils.GetModelUpdatesStatus(ctx.doc, element.Id)
    workset = next((w for w in worksets if w.id == element.WorksetId.IntegerValue), None)
    owner = info.Owner or ("another user" if status == DB.CheckoutStatus.OwnedByOtherUser else "")
    # Revit (RelinquishOptions): an element is owned "either by being checked out ("borrowed") or by
    # belonging to a checked out workset"; a workset's ownership covers an element its owner borrowed too.
    return Standing(workset=workset.name if workset else workset_name(worksets, element.WorksetId.IntegerValue),
                    owner=owner, mine=status == DB.CheckoutStatus.OwnedByCurrentUser,
                    central=CENTRAL_WORDS.get(central.ToString(), ""),
                    creator=info.Creator, last_changed_by=info.LastChangedBy,
                    through_workset=bool(owner) and workset is not None and workset.owner == owner,
                    detached=ctx.doc.IsDetached)


# --- list_worksets ----------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def list_worksets(ctx, args: ListWorksetsArgs):
    """List the user worksets of a workshared model: open or closed, editable by you or owned by whom,
    the default and the active one (where new elements go), and how many model elements each holds.
    On a model that is not workshared it says so. Reads only.
    """
    doc = ctx.doc
    if not doc.IsWorkshared:
        return NOT_WORKSHARED.format(title=display_text(doc.Title))
    worksets = user_worksets(doc)
    active = doc.GetWorksetTable().GetActiveWorksetId().IntegerValue
    counts = elements_by_workset(ctx)

    def row(workset) -> str:
        parts = [f"- '{display_text(workset.name, 60)}'", "open" if workset.is_open else "CLOSED"]
        if workset.editable:
            parts.append("editable by you")
        elif workset.owner:
            parts.append(f"editable by {display_text(workset.owner, 40)}")
        if workset.default:
            parts.append("default")
        if workset.id == active:
            parts.append("ACTIVE")
        parts.append(plural(len(counts.get(workset.id, ())), "element", grouped=True))
        parts.append(f"id {workset.id}")
        return " · ".join(parts)

    page = page_of(worksets, args.offset, row, ROW_BUDGET, len(worksets), "user worksets")
    user = display_text(doc.Application.Username, 40)
    detached = (" It is open detached from central: there is no central to borrow from, and its changes stay "
                "in this file until it is saved as a new central (File > Save As, Make this a Central Model)."
                if doc.IsDetached else "")
    lines = [f"'{display_text(doc.Title)}' is workshared; you are '{user}'.{detached} "
             f"{plural(len(worksets), 'user workset', grouped=True)}{page.position()}:", *page.rows]
    if page.rest:
        lines.append(page.next_hint())
    lines.append("New elements go to the ACTIVE workset. Move elements with move_to_workset.")
    return "\n".join(lines)


# --- move_to_workset ------------------------------------------------------------------------------------


@dataclass
class _MovePlan:
    workset: WorksetInfo
    to_move: list          # elements to move
    already: list          # elements on the workset already
    fixed: list            # elements whose workset cannot change
    before: Counter        # workset name -> how many of to_move were on it


def _plan_move(ctx, args: MoveToWorksetArgs) -> _MovePlan:
    from Autodesk.Revit import DB
    doc = ctx.doc
    if not doc.IsWorkshared:
        raise ToolError(NOT_WORKSHARED.format(title=display_text(doc.Title)) + " Nothing to move.")
    workset = find_workset(ctx, args.workset)
    if not workset.is_open:
        raise ToolError(f"The workset '{display_text(workset.name)}' is closed in this local copy: elements moved to "
                        "it would disappear from every view here (Revit shows no element of a closed workset). Open "
                        "it first (Collaborate > Worksets, Opened: Yes), then ask again; nothing was changed.")
    elements = _targets(ctx, args.element_ids)
    worksets = user_worksets(doc)
    to_move, already, fixed, before = [], [], [], Counter()
    for element in elements:
        parameter = element.get_Parameter(DB.BuiltInParameter.ELEM_PARTITION_PARAM)
        if parameter is None or parameter.IsReadOnly:
            fixed.append(element)
        elif element.WorksetId.IntegerValue == workset.id:
            already.append(element)
        else:
            to_move.append(element)
            before[workset_name(worksets, element.WorksetId.IntegerValue)] += 1
    if not to_move and not already:
        raise ToolError(f"None of the elements can change workset: {_fixed_reason(ctx, fixed)} Nothing was changed. "
                        "Give model elements (walls, doors, levels, grids...).")
    return _MovePlan(workset, to_move, already, fixed, before)


def _fixed_reason(ctx, fixed) -> str:
    ids = [ctx.id_value(e.Id) for e in fixed]
    return (f"{_noun(fixed)} (ids {id_sample(ids, where='')}) stay on the workset Revit gives them: view-specific "
            "elements (tags, text, dimensions) are on their view's workset, views and types on their own, and "
            "their 'Workset' is read-only.")


def _describe_move_to_workset(ctx, args: MoveToWorksetArgs) -> str:
    try:
        plan = _plan_move(ctx, args)
    except ToolError:
        count = len(args.element_ids or [])
        return f"Move {plural(count, 'element')} to the workset '{display_text(args.workset, 60)}'"
    moving = _noun(plan.to_move) if plan.to_move else "no elements"
    return f"Move {moving} to the workset '{display_text(plan.workset.name, 60)}'"


@tool(writes=True, working_set_policy="none", needs_element_ids=True, describe=_describe_move_to_workset)
def move_to_workset(ctx, args: MoveToWorksetArgs):
    """Move elements to another user workset of a workshared model (the working set when element_ids is
    left out), by setting their 'Workset' parameter.

    Elements other users borrow, or changed in central since your last reload, are left out and named;
    so are elements whose workset Revit does not let change (tags, text, dimensions and other
    view-specific elements, views, types). A closed workset, an unknown name (the names are listed)
    and a model that is not workshared are refused. The result re-reads each element's workset.
    """
    from Autodesk.Revit import DB
    plan = _plan_move(ctx, args)
    target = plan.workset
    for element in plan.to_move:
        if not element.get_Parameter(DB.BuiltInParameter.ELEM_PARTITION_PARAM).Set(target.id):
            raise ToolError(f"Revit refused the workset '{display_text(target.name)}' for {element_label(ctx, element)}. "
                            "Nothing was changed; check the element with get_element_info.")
    moved = [ctx.id_value(e.Id) for e in plan.to_move]
    subject = _noun(plan.to_move) if plan.to_move else "no elements"
    name = display_text(target.name, 60)

    def now_on(value: int):
        element = ctx.doc.GetElement(ctx.element_id(value))
        return element, (element.WorksetId.IntegerValue if element is not None else None)

    def compare(read_back: ReadBack) -> None:
        worksets = user_worksets(ctx.doc)
        for value in moved:
            element, workset_id = now_on(value)
            got = workset_name(worksets, workset_id) if workset_id is not None else "no element"
            read_back.same(element_label(ctx, element) if element is not None else f"element {value}", "workset",
                           f"'{target.name}'", f"'{got}'")

    def report() -> str:
        on = [value for value in moved if now_on(value)[1] == target.id]
        if moved:
            was = ", ".join(f"{n} on '{display_text(w, 40)}'" for w, n in plan.before.most_common(3))
            text = f"Moved {subject} to the workset '{name}': {len(on)} of {len(moved)} are now on it (before: {was})."
        else:
            text = f"Nothing to move: the elements are on the workset '{name}' already."
        if plan.already and moved:
            text += f" {plural(len(plan.already), 'element')} {'was' if len(plan.already) == 1 else 'were'} on it already."
        if plan.fixed:
            text += f" Left out: {_fixed_reason(ctx, plan.fixed)}"
        datums = [e for e in plan.to_move if is_datum(e)]
        if datums and target.name != GRIDS_WORKSET:
            text += (f" Note: {category_summary(datums).lower()} usually stay on '{GRIDS_WORKSET}', so that "
                     "whoever edits other worksets does not hold them.")
        return text

    return ToolOutput(change=Change(
        action=f"Moving {subject} to the workset '{name}'", compare=compare, report=report,
        hint="Check the elements with get_element_info (their workset and who borrows them), then ask again."))


def is_datum(element) -> bool:
    from Autodesk.Revit import DB
    category = element.Category
    return category is not None and category.BuiltInCategory in (DB.BuiltInCategory.OST_Levels,
                                                                 DB.BuiltInCategory.OST_Grids)
