"""The central model that the stand-in's workshared documents share, and the colleagues who
work in it at the same time.

Revit keeps, in the central model, which user borrows (owns) each element and each element's
latest saved state; every user works in a local copy that knows central as of its last
synchronize or reload. The stand-in keeps only what the API lets a program see of that:

- ``owners``: element id -> the user who borrows it (``WorksharingUtils.GetCheckoutStatus``);
- ``versions``: element id -> how many times a change to it was saved to central; a local
  document remembers the versions it last reloaded, so an element changed in central since then
  is ``ModelUpdatesStatus.UpdatedInCentral``, and one deleted there ``DeletedInCentral``;
- ``workset_owners``: user workset id -> the user who made it editable; that user owns every
  element on it that nobody borrows (RelinquishOptions: "An element can be owned ... either by
  being checked out ("borrowed") or by belonging to a checked out workset");
- ``reachable``: False simulates a central the network cannot reach;
- ``locked_by``: a user whose synchronize holds central's lock: CheckoutElements then waits for
  the lock, or asks the TransactWithCentralOptions' lock callback (``WouldWaitForCentral``);
- ``detached``: a model opened detached from central (Document.IsDetached): there is no central to
  ask, and nothing is borrowed.

Colleagues are simulated by the helpers at the bottom (``colleague_borrows``, ``colleague_changes``,
``colleague_deletes``, ``colleague_edits_workset``): tests, replays and ``paracore mcp --model`` use them to open a sample as
a workshared model in which another user holds elements (``make_workshared``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from .errors import CannotOpen

DEFAULT_USER = "you"
GRIDS_WORKSET = "Shared Levels and Grids"
DEFAULT_WORKSET = "Workset1"


class CentralUnreachable(Exception):
    """Raised by the stand-in's central when ``reachable`` is False; the API members that talk to
    central turn it into the exception Revit documents for them."""


class WouldWaitForCentral(RuntimeError):
    """Raised where Revit would wait for central's lock and never return to the caller: Revit's
    CheckoutElements without a lock callback "will wait endlessly" while central is locked
    (TransactWithCentralOptions.SetLockCallback). The stand-in cannot wait; a test sees this."""


@dataclass
class Central:
    path: str
    owners: dict[int, str] = field(default_factory=dict)
    versions: dict[int, int] = field(default_factory=dict)
    deleted: set[int] = field(default_factory=set)
    workset_owners: dict[int, str] = field(default_factory=dict)   # user worksets made editable
    creators: dict[int, str] = field(default_factory=dict)         # who made each element that is in central
    changed_by: dict[int, str] = field(default_factory=dict)       # who last saved a change to it
    reachable: bool = True
    locked_by: str | None = None
    detached: bool = False

    def check_reachable(self) -> None:
        if not self.reachable:
            raise CentralUnreachable(f"The central model '{self.path}' cannot be reached.")

    def owner(self, element_id: int, workset_id: int | None = None) -> str | None:
        """Who owns the element: who borrows it, else who made its workset editable."""
        return self.owners.get(element_id) or self.workset_owners.get(workset_id)

    def borrow(self, user: str, element_ids: Iterable[int],
               workset_of: Callable[[int], int | None] = lambda element_id: None) -> list[int]:
        """Borrow for ``user`` what nobody else owns; the ids ``user`` owns afterwards. An element
        on a workset ``user`` made editable is theirs already: it is not borrowed as well."""
        self.check_reachable()
        owned = []
        for element_id in element_ids:
            holder = self.owner(element_id, workset_of(element_id))
            if holder is None:
                self.owners[element_id] = holder = user
            if holder == user:
                owned.append(element_id)
        return owned

    def relinquish(self, user: str, element_ids: Iterable[int] | None = None) -> list[int]:
        """Give back what ``user`` borrows (only ``element_ids`` when given); the ids given back."""
        self.check_reachable()
        mine = [i for i, holder in self.owners.items() if holder == user]
        if element_ids is not None:
            wanted = set(element_ids)
            mine = [i for i in mine if i in wanted]
        for element_id in mine:
            del self.owners[element_id]
        return sorted(mine)

    def save_changes(self, element_ids: Iterable[int], deleted_ids: Iterable[int] = ()) -> None:
        """A synchronize saved these changes: each element's version in central goes up."""
        for element_id in element_ids:
            self.versions[element_id] = self.versions.get(element_id, 0) + 1
            self.creators.setdefault(element_id, self.owners.get(element_id, DEFAULT_USER))
        for element_id in deleted_ids:
            self.deleted.add(element_id)
            self.owners.pop(element_id, None)


# -- simulated colleagues (tests, replays, the sandbox) --------------------------------------------


def make_workshared(document) -> Central:
    """Turn worksharing on in ``document`` as Revit's EnableWorksharing does (levels and grids on
    GRIDS_WORKSET, the rest on DEFAULT_WORKSET); its central model, for the helpers below."""
    document.EnableWorksharing(GRIDS_WORKSET, DEFAULT_WORKSET)
    return document._central



def central_of(document) -> Central:
    central = getattr(document, "_central", None)
    if central is None:
        raise ValueError(f"'{document.Title}' is not workshared: call make_workshared(document) first.")
    return central


def colleague_borrows(document, user: str, element_ids: Iterable[int]) -> list[int]:
    """``user``, working in another local copy, borrows these elements (an edit they have not
    synchronized yet); the ids they now own."""
    return central_of(document).borrow(user, element_ids, document._workset_of)


def colleague_changes(document, user: str, element_ids: Iterable[int]) -> None:
    """``user`` changed these elements and synchronized: they are newer in central than in
    ``document`` until it reloads latest (and ``user`` relinquished them on the way)."""
    central = central_of(document)
    central.borrow(user, element_ids)
    central.save_changes(element_ids)
    central.changed_by.update({element_id: user for element_id in element_ids})
    central.relinquish(user, element_ids)


def colleague_edits_workset(document, user: str, workset_name: str) -> None:
    """``user`` made the user workset ``workset_name`` editable (Collaborate > Worksets > Editable:
    Yes): they own every element on it that nobody borrows, until they relinquish it."""
    workset_id = next((i for i, record in document._worksets.items() if record.name == workset_name), None)
    if workset_id is None:
        raise ValueError(f"'{document.Title}' has no user workset named {workset_name!r}.")
    central_of(document).workset_owners[workset_id] = user


def open_detached(document) -> Central:
    """``document`` as Revit opens a workshared model "detached from central" (Document.IsDetached):
    its worksets, no central to ask, nobody owning anything."""
    central = make_workshared(document)
    central.detached = True
    central.owners.clear()
    central.workset_owners.clear()
    document._learn_from_central()
    return central


def colleague_deletes(document, user: str, element_ids: Iterable[int]) -> None:
    """``user`` deleted these elements and synchronized."""
    central = central_of(document)
    central.borrow(user, element_ids)
    central.save_changes((), element_ids)


# -- a sample opened as a workshared model with a colleague in it (sandbox, replays, paracore mcp) -----

HOLDING_FORMAT = "USER:CATEGORY:COUNT[@LEVEL]"
"""How a colleague's borrowed elements are given on the command line and in replay files, e.g.
"maria:Walls:3@Level 1": Maria borrows the first three walls on Level 1 (lowest ids first)."""


class HoldingError(CannotOpen):
    """A colleague's elements that cannot be read or found: says what to give instead."""


@dataclass(frozen=True)
class Holding:
    user: str
    category: str    # as Revit names it: "Walls", "Doors"
    count: int
    level: str | None = None


def parse_holding(text: str) -> Holding:
    """``USER:CATEGORY:COUNT[@LEVEL]``; HoldingError saying what is wrong and the format."""
    spec, _, level = text.partition("@")
    parts = spec.split(":")
    problem = None
    if len(parts) != 3 or not all(part.strip() for part in parts):
        problem = "give the user, the category and how many, separated by ':'"
    elif not parts[2].strip().isdigit() or int(parts[2]) < 1:
        problem = f"{parts[2].strip()!r} is not a number of elements (1 or more)"
    if problem:
        raise HoldingError(f"cannot read the colleague's elements {text!r}: {problem}, as {HOLDING_FORMAT} "
                         "(e.g. maria:Walls:3@Level 1)")
    return Holding(parts[0].strip(), parts[1].strip(), int(parts[2]), level.strip() or None)


def hold(document, holding: Holding) -> list[int]:
    """Make ``document`` workshared (if it is not) with ``holding.user`` borrowing the elements the
    holding names, as when the local copy was opened after that colleague borrowed them; the ids.
    HoldingError when the model has fewer such elements."""
    from Autodesk.Revit.DB import FilteredElementCollector
    if document._central is None:
        make_workshared(document)
    levels = {}
    candidates = []
    for element in FilteredElementCollector(document).WhereElementIsNotElementType():
        category = element.Category
        if category is None or category.Name.lower() != holding.category.lower():
            continue
        if holding.level is not None:
            level_id = element.LevelId._value
            if level_id not in levels:
                level = document._elements.get(level_id)
                levels[level_id] = level.Name if level is not None else ""
            if levels[level_id].lower() != holding.level.lower():
                continue
        candidates.append(element._id)
    chosen = sorted(candidates)[:holding.count]
    if len(chosen) < holding.count:
        where = f" on {holding.level}" if holding.level else ""
        raise HoldingError(f"the model has {len(candidates)} {holding.category}{where}, fewer than the "
                           f"{holding.count} {holding.user} should hold: give fewer, or another category or level")
    colleague_borrows(document, holding.user, chosen)
    document._learn_from_central()
    return chosen
