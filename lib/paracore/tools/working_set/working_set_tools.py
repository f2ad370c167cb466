"""Working-set tools: show, set, add to, remove from and clear the working set; bring the Revit
selection into it; select its elements in Revit.

None of these tools write the model (no transaction). What they do is written once in
``paracore.revit.working_set_actions`` (the quick buttons and the side panel use it too); a tool
words the outcome. The ones that change the working set return an explicit
``ToolOutput.working_set`` (docs/WORKING_SET.md), which the executor applies; auto-capture is only
for tools that create elements.

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from paracore.core.linked import LinkedElement, parse_all_linked
from paracore.core.working_set import singular
from paracore.revit import links, working_set_actions as actions
from paracore.tools.framework.linked_arguments import HOST_OR_LINKED_HELP, HostOrLinkedIds, LinkedIds
from paracore.tools.framework.linked_arguments import describe as describe_linked
from paracore.tools.framework.lookup import category_of, category_summary, elements_by_id, id_sample
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError, ToolOutput, offset_field, page_of, working_set_output
from paracore.tools.framework.wording import plural, unique_ids

SHOWN_IDS = 20          # ids listed one per line by get_working_set
ROW_BUDGET = 1300       # characters of those lines; the rest are paged (offset)


def _member_line(ctx, linked, element) -> str:
    """A working-set member's line: a linked element (LinkedElement) or one of this model's."""
    if linked is not None:
        return f"- {linked} {singular(linked.category)} in '{linked.link_name}'"
    return _element_line(ctx, element)


def _element_line(ctx, element) -> str:
    """ "- 312 Door 'M_Single-Flush: 0864 x 2032mm'": id, category, and type (with its family)."""
    from Autodesk.Revit import DB
    name = element.Name
    if isinstance(element, DB.FamilyInstance):
        name = f"{element.Symbol.FamilyName}: {name}"
    return f"- {ctx.id_value(element.Id)} {singular(category_of(element))} '{name}'"


def _state_sentence(ctx, ids) -> str:
    if not ids:
        return "The working set is now empty."
    elements, missing = elements_by_id(ctx, ids)
    text = f"The working set now holds {plural(len(ids), 'element')}: {category_summary(elements)}"
    if missing:
        text += f" (and {len(missing)} that no longer {'exists' if len(missing) == 1 else 'exist'} in the model)"
    return text + "."


def _update(outcome, operation: str, message: str, linked=()) -> ToolOutput:
    """The tool's answer and the update the executor applies after the commit. It names the ids
    given (remove: only the members), so the change log shows what the model asked for."""
    ids = outcome.done if operation == "remove" else outcome.requested
    return ToolOutput(content=message, working_set=working_set_output(ids, operation, message, linked=linked))


def _readable_linked(ctx, linked_ids) -> list[LinkedElement]:
    """The linked elements ``linked_ids`` names, described; ToolError naming any that cannot be read."""
    if not linked_ids:
        return []
    try:
        wanted = parse_all_linked(linked_ids)
    except ValueError as error:
        raise ToolError(f"linked_ids: {error}") from None
    found, unread = links.resolve_all(ctx.doc, wanted)
    if unread:
        raise ToolError("These linked elements cannot be read: " + "; ".join(unread[:5])
                        + ". Nothing was changed. Find them again with search_elements and link.")
    return [f.linked for f in found]


def _linked_sentence(linked) -> str:
    return f"{len(linked)} linked element{'' if len(linked) == 1 else 's'} ({describe_linked(linked)})"


# --- argument models ---------------------------------------------------------------------------


class NoArgs(BaseModel):
    pass  # no docstring: it would become a description in the schema


class ElementIdsArgs(BaseModel):
    element_ids: HostOrLinkedIds | None = Field(
        None, min_length=1, description="e.g. [312045, 312046]. " + HOST_OR_LINKED_HELP)
    linked_ids: LinkedIds = None


class WorkingSetPageArgs(BaseModel):
    offset: int = offset_field()


class SelectionModeArgs(BaseModel):
    mode: Literal["add", "replace", "remove"] = Field(
        "add",
        description="'add' the selected elements to the working set, 'replace' it with them, or 'remove' them.")


class SelectElementsArgs(BaseModel):
    element_ids: HostOrLinkedIds | None = Field(   # left out: the working set (the docstring)
        None, description="[] clears the Revit selection. " + HOST_OR_LINKED_HELP)
    linked_ids: LinkedIds = None


# --- reading -------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def get_working_set(ctx, args: WorkingSetPageArgs):
    """Show what the working set holds (the elements the user works on; tools that take element_ids
    act on it when it is left out): counts by category and the first ids with their names."""
    ids, linked = list(ctx.session.working_set.ids), list(ctx.session.working_set.linked)
    if not ids and not linked:
        return ("The working set is empty. Create elements, or call add_selection_to_working_set "
                "after the user selects elements in Revit.")
    elements, missing = elements_by_id(ctx, ids) if ids else ([], [])
    # One listing, this model's elements then the linked ones, paged by one offset.
    members = [(None, e) for e in elements] + [(e, None) for e in linked]
    page = page_of(members, args.offset, lambda m: _member_line(ctx, *m), ROW_BUDGET, SHOWN_IDS, "elements")
    host_rows = page.rows[:max(len(elements) - page.offset, 0)]
    lines = []
    if ids:
        lines.append(f"The working set holds {plural(len(ids), 'element')}{page.position()}: "
                     f"{category_summary(elements)}.")
        lines += host_rows
    if linked:
        linked_rows = page.rows[len(host_rows):]
        lines.append(f"{'It also holds' if ids else 'The working set holds'} {_linked_sentence(linked)}"
                     f"{'' if ids else page.position()}, read-only here (write tools leave them out)"
                     + (":" if linked_rows else "."))
        lines += linked_rows
    if page.rest:
        lines.append(page.next_hint("in the working set"))
    if missing:
        verb = "exists" if len(missing) == 1 else "exist"
        lines.append(f"{plural(len(missing), 'id')} no longer {verb} in the model: {id_sample(missing, where='')}.")
    return "\n".join(lines)


# --- changing the working set ------------------------------------------------------------------


@tool(working_set_policy="none", needs_element_ids=True)
def set_working_set(ctx, args: ElementIdsArgs):
    """Replace the working set with the given elements.

    Use it when the user names the elements to work on from now on ("work on walls 101 and 102").
    """
    ids = unique_ids(args.element_ids or [])
    elements = ctx.elements(ids)  # a ToolError lists ids that do not exist
    linked = _readable_linked(ctx, args.linked_ids)
    parts = [f"{plural(len(ids), 'element')}: {category_summary(elements)} (ids {id_sample(ids, where='')})"] if ids else []
    parts += [_linked_sentence(linked)] if linked else []
    message = f"The working set is now these {' and '.join(parts)}."
    return ToolOutput(content=message, working_set=working_set_output(ids, "replace", message, linked=linked))


@tool(working_set_policy="none", needs_element_ids=True)
def add_to_working_set(ctx, args: ElementIdsArgs):
    """Add elements to the working set (ids already in it are kept once)."""
    ctx.elements(args.element_ids or [])  # a ToolError lists ids that do not exist
    linked = _readable_linked(ctx, args.linked_ids)
    outcome = actions.change(ctx.session.working_set, "add", args.element_ids or [])
    if linked:
        new = [element for element in linked if element not in set(ctx.session.working_set.linked)]
        message = (f"Added {_linked_sentence(new)} to the working set." if new else
                   "The working set already holds these linked elements.")
        if outcome.done:
            message += f" Added {plural(len(outcome.done), 'element')} of this model too."
        return _update(outcome, "add", message, linked=linked)
    if not outcome.done:
        message = "The working set already holds all of these elements; nothing changed."
    else:
        message = f"Added {plural(len(outcome.done), 'element')} ({category_summary(ctx.elements(outcome.done))}) " \
                  "to the working set"
        already = len(outcome.skipped_ids(actions.ALREADY_IN))
        if already:
            message += f"; {already} {'was' if already == 1 else 'were'} already in it"
        message += ". " + _state_sentence(ctx, outcome.after)
    return _update(outcome, "add", message)


@tool(working_set_policy="none", needs_element_ids=True)
def remove_from_working_set(ctx, args: ElementIdsArgs):
    """Remove elements from the working set. The elements stay in the Revit model."""
    outcome = actions.change(ctx.session.working_set, "remove", args.element_ids or [])
    if args.linked_ids:
        return _remove_linked(ctx, outcome, args.linked_ids)
    if not outcome.done:
        raise ToolError(
            f"None of the ids {id_sample(outcome.requested, where='')} is in the working set, so nothing was "
            f"removed. Call get_working_set to see its ids.")
    message = f"Removed {plural(len(outcome.done), 'element')} from the working set"
    outside = outcome.skipped_ids(actions.NOT_IN)
    if outside:
        message += f" ({len(outside)} of the ids given were not in it)"
    message += ". " + _state_sentence(ctx, outcome.after)
    return _update(outcome, "remove", message)


def _remove_linked(ctx, outcome, linked_ids) -> ToolOutput:
    try:
        wanted = parse_all_linked(linked_ids)
    except ValueError as error:
        raise ToolError(f"linked_ids: {error}") from None
    members = [element for element in ctx.session.working_set.linked if element in set(wanted)]
    if not members and not outcome.done:
        raise ToolError("None of these elements is in the working set, so nothing was removed. "
                        "Call get_working_set to see what it holds.")
    removed = ([_linked_sentence(members)] if members else []) + \
              ([plural(len(outcome.done), 'element')] if outcome.done else [])
    return _update(outcome, "remove", f"Removed {' and '.join(removed)} from the working set.", linked=members)


@tool(working_set_policy="none")
def clear_working_set(ctx, args: NoArgs):
    """Empty the working set. The elements stay in the Revit model."""
    outcome = actions.clear(ctx.session.working_set)
    linked = ctx.session.working_set.linked
    if outcome.refused and not linked:
        content = "The working set was already empty."
    else:
        elements, _ = elements_by_id(ctx, outcome.done)
        held = ([category_summary(elements)] if outcome.done else []) + ([_linked_sentence(linked)] if linked else [])
        content = f"Cleared the working set (it held {' and '.join(held)})."
    return ToolOutput(content=content, working_set=working_set_output([], "replace", "Cleared the working set."))


@tool(working_set_policy="none")
def add_selection_to_working_set(ctx, args: SelectionModeArgs):
    """Bring the elements the user selected in Revit into the working set: for "the selected ...",
    "my selection", "these" about elements picked in Revit.
    """
    outcome = actions.change_with_selection(ctx.uidoc, ctx.session.working_set, args.mode)
    if outcome.refused:
        raise ToolError("Nothing is selected in Revit. Select elements first, then ask again.")
    if outcome.linked:
        return _selection_with_linked(ctx, outcome, outcome.linked, args.mode)
    selected = outcome.requested
    what = f"the {plural(len(selected), 'selected element')} ({category_summary(ctx.elements(selected))})"
    if args.mode == "add":
        message = f"Added {what} to the working set."
    elif args.mode == "replace":
        message = f"Replaced the working set with {what}."
    elif not outcome.done:
        raise ToolError(f"None of {what} is in the working set, so nothing was removed. "
                        "Call get_working_set to see what it holds.")
    else:
        message = f"Removed {plural(len(outcome.done), 'selected element')} from the working set."
    message += " " + _state_sentence(ctx, outcome.after)
    return _update(outcome, args.mode, message)


def _selection_with_linked(ctx, outcome, linked, mode: str) -> ToolOutput:
    """The selection holds elements the user picked inside links: they join the set as linked."""
    parts = ([f"{plural(len(outcome.requested), 'element')} ({category_summary(ctx.elements(outcome.requested))})"]
             if outcome.requested else []) + [_linked_sentence(linked)]
    what = " and ".join(parts)
    message = {"add": f"Added the selected {what} to the working set.",
               "replace": f"Replaced the working set with the selected {what}.",
               "remove": f"Removed the selected {what} from the working set."}[mode]
    return _update(outcome, mode, message, linked=linked)


# --- the Revit selection -------------------------------------------------------------------------


@tool(working_set_policy="none", needs_element_ids=True)
def select_elements(ctx, args: SelectElementsArgs):
    """Select elements in the active Revit view (replacing the user's current selection).

    Leave element_ids out to select the working set ("select them in Revit").
    The working set does not change.
    """
    ids = unique_ids(args.element_ids or [])
    host_elements = ctx.elements(ids)  # a ToolError lists ids that do not exist
    if args.linked_ids:
        return _select_with_linked(ctx, host_elements, args.linked_ids)
    outcome = actions.select(ctx.uidoc, ids)
    selected = list(outcome.done)
    if not ids:
        return "Cleared the Revit selection." if not selected else \
            f"Revit still has {plural(len(selected), 'element')} selected: {id_sample(selected, where='')}."
    elements, _ = elements_by_id(ctx, selected)
    not_selected = outcome.skipped_ids(actions.NOT_SELECTED)
    source = " — the working set" if set(ids) == set(ctx.session.working_set.ids) else ""
    if not not_selected:
        return (f"Selected {plural(len(selected), 'element')} in Revit{source}: "
                f"{category_summary(elements)}.")
    return (f"Revit selected {len(selected)} of the {len(ids)} elements ({category_summary(elements)}); "
            f"these could not be selected: {id_sample(not_selected, where='')}.")


def _select_with_linked(ctx, host_elements, linked_ids) -> str:
    """Select host and linked elements together (Revit 2023+: Selection.SetReferences)."""
    try:
        wanted = parse_all_linked(linked_ids)
    except ValueError as error:
        raise ToolError(f"linked_ids: {error}") from None
    found, unread = links.resolve_all(ctx.doc, wanted)
    if not found and not host_elements:
        raise ToolError("None of these linked elements can be read: " + "; ".join(unread[:5])
                        + ". Find them again with search_elements and link.")
    host, linked = links.select_with_links(ctx.uidoc, host_elements, found)
    in_set = set(ctx.session.working_set.linked) == set(wanted)
    text = (f"Selected {_linked_sentence([f.linked for f in found if f.linked in set(linked)])}"
            + (f" and {plural(len(host), 'element')} of this model" if host else "")
            + (" — the working set" if in_set and not host_elements else "") + " in Revit.")
    missed = [str(f.linked) for f in found if f.linked not in set(linked)]
    if missed:
        text += f" Revit did not select {', '.join(missed[:5])}."
    if unread:
        text += " Not selected: " + "; ".join(unread[:5]) + "."
    return text
