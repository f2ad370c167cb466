"""Worksharing: element ownership, changes in central, and the rules Revit applies to them.

The central model and the other users are ``revit_standin.central``; this module is the API a
program sees of them (``WorksharingUtils``, the status enums, ``RelinquishOptions``) and the
Document's worksharing members (``WorksharingDocument``, a base class of Document).

What the stand-in does, each with its row in docs/REVIT_BEHAVIOUR.md ("Worksharing"):

- ``GetCheckoutStatus``, ``GetModelUpdatesStatus`` and ``GetWorksharingTooltipInfo`` read what the
  local document *cached* at its last contact with central (enabling worksharing, a checkout, a
  relinquish, a commit, a synchronize): "a locally cached value which may not be up to date". A
  colleague's borrow or change since then is not seen there. They do not check that the document
  is workshared ("the model is not validated to be workshared"): in one that is not, nothing is
  owned and everything is current.
- ``CheckoutElements`` asks central: it returns the ids the current user owns afterwards (those
  nobody else owns, and those already owned), never the ones another user owns. An id that is not
  in the document is an ArgumentException. With a transaction open it works (Autodesk documents
  no refusal). While central is locked it asks the options' lock callback; without one Revit
  "waits endlessly", which the stand-in cannot: it raises ``WouldWaitForCentral``.
- Ownership through worksets: an element on a user workset someone made editable
  (``CheckoutWorksets``; ``central.colleague_edits_workset``) is theirs unless another user borrows it.
- A detached model (``central.open_detached``, Document.IsDetached) is workshared without a
  central: nothing is borrowed at commit, and CheckoutElements raises CentralModelException.
- A transaction that changes or deletes an element another user owns, or one changed or deleted
  in central since this document last reloaded, fails at commit with an error and is rolled
  back. An element nobody owns is borrowed by the current user when the change commits.
- ``SynchronizeWithCentral`` saves the local changes to central, reloads what changed there, and
  relinquishes what its options say (by default everything borrowed); ``RelinquishOwnership`` gives
  back borrowed elements except those changed since the last synchronize.
- With central unreachable (``central.reachable = False``), the members that talk to central raise
  ``CentralFileCommunicationException`` and change nothing.
"""
from __future__ import annotations

from revit_standin.central import (DEFAULT_USER, DEFAULT_WORKSET, GRIDS_WORKSET, Central, CentralUnreachable,
                                   WouldWaitForCentral)
from revit_standin.guard import api_class

from ._enums import BuiltInCategory, _RevitEnum
from ._failures import FailureSeverity, define_failure
from ._ids import ElementId
from ._worksets import WorksetId, _WorksetRecord

__all__ = ["CheckoutStatus", "ModelUpdatesStatus", "WorksharingTooltipInfo", "RelinquishOptions",
           "RelinquishedItems", "WorksharingUtils"]

# BuiltInFailures.EditingFailures' texts (OwnedByOther with the owner's name where Revit's says
# '[Partition Name]'; ReloadBeforeMakeEditable; CannotEditDeletedElements).
OWNED_BY_OTHER = define_failure(
    "owned-by-other-user", FailureSeverity.Error,
    "Can't edit the element until '{owner}' resaves the element to central and relinquishes it and you "
    "Reload Latest.")
UPDATED_IN_CENTRAL = define_failure(
    "updated-in-central", FailureSeverity.Error, "You must Reload Latest before editing the element.")
DELETED_IN_CENTRAL = define_failure(
    "deleted-in-central", FailureSeverity.Error, "Can't edit the element. It was deleted in the Central Model.")
# CannotBorrowBusyContention: what a commit meets when central cannot lend the element (the stand-in
# raises it for a central that cannot be reached; Revit's wording for that case is not documented).
CANNOT_BORROW = define_failure(
    "cannot-borrow", FailureSeverity.Error, "Can't obtain permission to edit the element. The Central Model is busy.")
_GRID_CATEGORIES = (BuiltInCategory.OST_Levels.value, BuiltInCategory.OST_Grids.value)
_PROHIBITED = "{}[]|;<>?`~"   # Revit: characters a workset name may not have


class CheckoutStatus(_RevitEnum):
    OwnedByCurrentUser = 0
    OwnedByOtherUser = 1
    NotOwned = 2


class ModelUpdatesStatus(_RevitEnum):
    CurrentWithCentral = 0
    NotYetInCentral = 1
    DeletedInCentral = 2
    UpdatedInCentral = 3


class _Disposable:
    """IsValidObject and Dispose, as these small .NET objects have them (nothing to release here)."""

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return True

    def Dispose(self) -> None:  # noqa: N802
        pass


@api_class
class WorksharingTooltipInfo(_Disposable):
    def __init__(self, owner: str, creator: str, last_changed_by: str):
        self._owner, self._creator, self._last_changed_by = owner, creator, last_changed_by

    @property
    def Owner(self) -> str:  # noqa: N802
        return self._owner

    @property
    def Creator(self) -> str:  # noqa: N802
        return self._creator

    @property
    def LastChangedBy(self) -> str:  # noqa: N802
        return self._last_changed_by


@api_class
class RelinquishOptions(_Disposable):
    def __init__(self, relinquishEverything: bool):  # noqa: N803
        everything = bool(relinquishEverything)
        self.StandardWorksets = self.FamilyWorksets = self.ViewWorksets = everything
        self.UserWorksets = self.CheckedOutElements = everything


@api_class
class RelinquishedItems(_Disposable):
    def __init__(self, element_ids: list[int]):
        self._element_ids = element_ids

    def GetRelinquishedElements(self):  # noqa: N802
        """ICollection<ElementId>."""
        from System.Collections.Generic import List
        return List[ElementId]._of([ElementId(i) for i in self._element_ids])

    def GetRelinquishedWorksets(self):  # noqa: N802
        """ICollection<WorksetId>."""
        from System.Collections.Generic import List
        return List[WorksetId]._of([WorksetId(i) for i in getattr(self, "_workset_ids", [])])


def _invalid_operation(message: str):
    from Autodesk.Revit.Exceptions import InvalidOperationException
    return InvalidOperationException(message)


def _talking_to_central(document, action):
    """Run ``action(central)``; an unreachable central is Revit's communication exception."""
    from Autodesk.Revit.Exceptions import CentralFileCommunicationException, CentralModelException
    central = document._workshared_central()
    if central.detached:   # not documented: the stand-in's guess (an in-Revit check reports Revit's answer)
        raise CentralModelException("The document is detached from its central model: there is no central to ask.")
    try:
        return action(central)
    except CentralUnreachable as error:
        raise CentralFileCommunicationException(str(error)) from None


def _wait_for_lock(central: Central, options) -> None:
    """Central locked by another client's synchronize: ask the options' lock callback, as Revit does."""
    if central.locked_by is None:
        return
    from Autodesk.Revit.Exceptions import CentralModelContentionException
    callback = options.GetLockCallback() if options is not None else None
    if callback is None or callback.ShouldWaitForLockAvailability():
        raise WouldWaitForCentral(f"Central is locked by {central.locked_by}: Revit would wait until it is free.")
    raise CentralModelContentionException("The central model is locked by another client.")


@api_class
class WorksharingUtils:
    @staticmethod
    def CheckoutElements(document, elementsToCheckout, options=None):  # noqa: N802, N803
        """"The ids of all specified elements that are now owned (but possibly out of date),
        including all that were owned prior to the function call"."""
        document._require_workshared_primary("elementsToCheckout")
        ids = [element_id._value for element_id in elementsToCheckout]
        if any(i not in document._elements for i in ids):
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("One or more elements in elementsToCheckout do not exist in the document.",
                                    "elementsToCheckout")

        def borrow(central: Central) -> list[int]:
            _wait_for_lock(central, options)
            return central.borrow(document._username(), ids, document._workset_of)
        owned = _talking_to_central(document, borrow)
        document._learn_from_central()
        # ICollection<ElementId>, or ISet<ElementId> from the overload with options: .NET collections
        # (Count; no Python set operators), as pythonnet hands them over.
        from System.Collections.Generic import HashSet, List
        owned_ids = [ElementId(i) for i in owned]
        return HashSet[ElementId]._of(owned_ids) if options is not None else List[ElementId]._of(owned_ids)

    @staticmethod
    def CheckoutWorksets(document, worksetsToCheckout, options=None):  # noqa: N802, N803
        """Makes the user worksets editable by the current user where nobody else has them: "Obtains
        ownership for the current user of as many specified worksets as possible"; the ids of those
        the user owns afterwards."""
        from Autodesk.Revit.Exceptions import ArgumentException
        document._require_workshared_primary("worksetsToCheckout")
        wanted = [w._value for w in worksetsToCheckout]
        if document._open_transaction is not None:
            raise ArgumentException("document has an open editing transaction and is accepting changes.", "document")
        if any(i not in document._worksets for i in wanted):
            raise ArgumentException("There are one or more ids with no corresponding workset.", "worksetsToCheckout")
        user = document._username()

        def make_editable(central: Central) -> list[int]:
            _wait_for_lock(central, options)
            central.check_reachable()
            owned = []
            for workset_id in wanted:
                if central.workset_owners.setdefault(workset_id, user) == user:
                    owned.append(workset_id)
            return owned
        owned = _talking_to_central(document, make_editable)
        document._learn_from_central()
        from System.Collections.Generic import HashSet
        return HashSet[WorksetId]._of([WorksetId(i) for i in owned])   # ISet<WorksetId>

    @staticmethod
    def GetCheckoutStatus(document, elementId: ElementId, *owner):  # noqa: N802, N803
        """The cached status. The C# overload with ``out string owner`` reaches Python as
        ``GetCheckoutStatus(doc, id, owner)`` and returns (status, owner): both are served here."""
        holder = document._cached_owner(elementId._value)
        if not holder:
            status = CheckoutStatus.NotOwned
        elif holder == document._username():
            status = CheckoutStatus.OwnedByCurrentUser
        else:
            status = CheckoutStatus.OwnedByOtherUser
        return (status, holder) if owner else status

    @staticmethod
    def GetModelUpdatesStatus(document, elementId: ElementId):  # noqa: N802, N803
        return document._model_updates_status(elementId._value, cached=True)

    @staticmethod
    def GetWorksharingTooltipInfo(document, elementId: ElementId):  # noqa: N802, N803
        """All strings empty for an element that does not exist (and, here, in a document that is
        not workshared)."""
        element_id, central = elementId._value, document._central
        if central is None or element_id not in document._elements:
            return WorksharingTooltipInfo("", "", "")
        return WorksharingTooltipInfo(document._cached_owner(element_id),
                                      central.creators.get(element_id, ""), central.changed_by.get(element_id, ""))

    @staticmethod
    def RelinquishOwnership(document, generalCategories, options=None):  # noqa: N802, N803
        document._require_workshared_primary("document")
        document._require_no_transaction("relinquish ownership")
        kept = document._unsynchronized_ids()
        user = document._username()

        def give_back(central: Central) -> tuple[list[int], list[int]]:
            worksets = []
            if generalCategories.UserWorksets:
                worksets = sorted(i for i, holder in central.workset_owners.items() if holder == user)
                for workset_id in worksets:
                    del central.workset_owners[workset_id]
            if not generalCategories.CheckedOutElements:
                return [], worksets
            mine = [i for i, holder in central.owners.items() if holder == user and i not in kept]
            return central.relinquish(user, mine), worksets
        given, worksets = _talking_to_central(document, give_back)
        document._learn_from_central()
        relinquished = RelinquishedItems(given)
        relinquished._workset_ids = worksets
        return relinquished


@api_class
class WorksharingDocument:
    """Document's worksharing members (a base class of Document, kept in its own module)."""

    _central: Central | None = None

    @property
    def IsWorkshared(self) -> bool:  # noqa: N802
        return self._central is not None

    @property
    def IsDetached(self) -> bool:  # noqa: N802
        """A workshared model opened detached from central: it has no central model."""
        return self._central is not None and self._central.detached

    def CanEnableWorksharing(self) -> bool:  # noqa: N802
        return not self.IsWorkshared

    def EnableWorksharing(self, worksetNameGridLevel: str, worksetName: str) -> None:  # noqa: N802, N803
        """Revit: "The document's Undo history will be cleared by this command"."""
        from Autodesk.Revit.Exceptions import ArgumentException
        for argument, name in (("worksetNameGridLevel", worksetNameGridLevel), ("worksetName", worksetName)):
            if not name or any(c in _PROHIBITED for c in name):
                raise ArgumentException(f"The workset name {name!r} is empty or has a character worksets may not "
                                        f"have ({' '.join(_PROHIBITED)}).", argument)
        if self.IsWorkshared:
            raise _invalid_operation("This Document is a workshared document.")
        if self._transaction_phase_open():
            raise _invalid_operation("There is a transaction phase left open (such as a transaction, "
                                     "sub-transaction of transaction group) at the time of invoking this method.")
        self._start_worksharing(Central(self._path or self._title), worksetNameGridLevel, worksetName)
        self._journal.undo_history.clear()
        self._journal.redo_history.clear()

    def GetWorksetTable(self):  # noqa: N802
        from ._worksets import WorksetTable
        return WorksetTable(self)

    def HasAllChangesFromCentral(self) -> bool:  # noqa: N802
        """Asks central (so it learns what central holds now)."""
        central = self._workshared_central()
        _talking_to_central(self, Central.check_reachable)
        self._learn_from_central()
        return not any(self._model_updates_status(i) in (ModelUpdatesStatus.UpdatedInCentral,
                                                         ModelUpdatesStatus.DeletedInCentral)
                       for i in (set(central.versions) | central.deleted) & set(self._elements))

    # -- the stand-in's machinery --------------------------------------------------------------------
    def _start_worksharing(self, central: Central, grids_name: str = GRIDS_WORKSET,
                           other_name: str = DEFAULT_WORKSET) -> None:
        self._central = central
        self._worksets = {}
        grids = self._add_workset(grids_name)
        other = self._add_workset(other_name, is_default=True)
        self._active_workset = other
        for element in self._elements.values():
            workset = grids if element._state.get("category") in _GRID_CATEGORIES else other
            element._state = {**element._state, "workset": workset}
            central.creators.setdefault(element._id, self._username())
        self._seen_versions = dict(central.versions)
        self._unsynchronized: set[int] = set()
        self._learn_from_central()

    def _add_workset(self, name: str, is_default: bool = False) -> int:
        workset_id = max(self._worksets, default=-1) + 1
        self._worksets[workset_id] = _WorksetRecord(name, is_default=is_default)
        return workset_id

    def _username(self) -> str:
        application = self._application
        return getattr(application, "Username", DEFAULT_USER) if application is not None else DEFAULT_USER

    def _workshared_central(self) -> Central:
        if self._central is None:
            raise _invalid_operation("The document is not workshared.")
        return self._central

    def _require_workshared_primary(self, argument: str) -> None:
        from Autodesk.Revit.Exceptions import ArgumentException
        if self._central is None:
            raise ArgumentException("document is not a workshared document.", argument)

    def _require_no_transaction(self, what: str) -> None:
        if self._transaction_phase_open():
            raise _invalid_operation(f"Cannot {what}: Operation is not permitted when there is any open "
                                     "sub-transaction, transaction, or transaction group.")

    def _learn_from_central(self) -> None:
        """What the local document caches of central (who owns what, which versions central
        holds, what was deleted there): read at each contact with central."""
        central = self._central
        self._ownership_cache = dict(central.owners)
        self._workset_owners_cache = dict(central.workset_owners)
        self._central_versions_cache = dict(central.versions)
        self._central_deleted_cache = set(central.deleted)

    def _workset_of(self, element_id: int) -> int | None:
        element = self._elements.get(element_id)
        return element._state.get("workset") if element is not None else None

    def _cached_owner(self, element_id: int) -> str:
        """Who owns the element as this copy last learnt: who borrows it, else its workset's owner."""
        return (getattr(self, "_ownership_cache", {}).get(element_id)
                or getattr(self, "_workset_owners_cache", {}).get(self._workset_of(element_id)) or "")

    def _unsynchronized_ids(self) -> set[int]:
        return set(getattr(self, "_unsynchronized", ()))

    def _model_updates_status(self, element_id: int, cached: bool = False) -> ModelUpdatesStatus:
        """Where the element stands against central: as central is now, or (``cached``) as this
        document last learnt it."""
        central = self._central
        if central is None:
            return ModelUpdatesStatus.CurrentWithCentral
        deleted = self._central_deleted_cache if cached else central.deleted
        versions = self._central_versions_cache if cached else central.versions
        if element_id in deleted:
            return ModelUpdatesStatus.DeletedInCentral
        if element_id not in central.creators:
            return ModelUpdatesStatus.NotYetInCentral
        if versions.get(element_id, 0) > self._seen_versions.get(element_id, 0):
            return ModelUpdatesStatus.UpdatedInCentral
        return ModelUpdatesStatus.CurrentWithCentral

    def _ownership_failures(self, changed: list[int], deleted: list[int]):
        """The errors committing these changes meets in central (none for a new element)."""
        from ._failures import FailureMessage
        if self._central is None or self._central.detached:
            return []
        failures, user = [], self._username()
        for element_id in [*changed, *deleted]:
            if self._model_updates_status(element_id) == ModelUpdatesStatus.NotYetInCentral:
                continue
            owner = self._central.owner(element_id, self._workset_of(element_id))
            if not self._central.reachable and owner != user:
                failure = FailureMessage(CANNOT_BORROW)
            elif owner not in (None, user):
                failure = FailureMessage(OWNED_BY_OTHER)
                failure._text = failure.GetDescriptionText().format(owner=owner)
            elif self._model_updates_status(element_id) == ModelUpdatesStatus.DeletedInCentral:
                failure = FailureMessage(DELETED_IN_CENTRAL)
            elif self._model_updates_status(element_id) == ModelUpdatesStatus.UpdatedInCentral:
                failure = FailureMessage(UPDATED_IN_CENTRAL)
            else:
                continue
            failure._failing = [element_id]
            failure._resolvable = False
            failures.append(failure)
        if failures and self._central.reachable:
            self._learn_from_central()   # the editing request that failed told it who owns what
        return failures

    def _committed(self, changed: list[int], deleted: list[int]) -> None:
        """A commit went through: what it changed or made is borrowed (a new element is its
        creator's), and waits for the next synchronize."""
        if self._central is None:
            return
        user = self._username()
        self._unsynchronized |= set(changed) | set(deleted)
        if not self._central.reachable or self._central.detached:   # only what the user owns already could commit
            return
        self._central.borrow(user, changed, self._workset_of)
        self._learn_from_central()

    def _synchronize(self, relinquish: RelinquishOptions | None) -> None:
        """Save the local changes to central, reload what changed there, relinquish."""
        central, user = self._workshared_central(), self._username()

        def synchronize(central: Central) -> None:
            central.check_reachable()
            alive = [i for i in self._unsynchronized if i in self._elements]
            gone = [i for i in self._unsynchronized if i not in self._elements and i in central.creators]
            for element_id in alive:
                central.creators.setdefault(element_id, user)
                central.changed_by[element_id] = user
            central.save_changes(alive, gone)
            self._unsynchronized = set()
            if relinquish is None or relinquish.CheckedOutElements:
                central.relinquish(user)
            if relinquish is None or relinquish.UserWorksets:
                for workset_id in [i for i, holder in central.workset_owners.items() if holder == user]:
                    del central.workset_owners[workset_id]
        _talking_to_central(self, synchronize)
        self._reload_latest(central)

    def _reload_latest(self, central: Central) -> None:
        """What changed in central is now here; an element deleted there is gone here too."""
        for element_id in central.deleted & set(self._elements):
            self._unindex(self._elements[element_id])
        self._seen_versions = dict(central.versions)
        self._learn_from_central()
