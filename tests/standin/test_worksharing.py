"""Worksharing in the stand-in (DB/_worksharing.py, DB/_worksets.py, revit_standin/central.py):
worksets, element ownership with a colleague in the same central, changes in central, and what
a commit, a synchronize and a relinquish do with them (docs/REVIT_BEHAVIOUR.md, "Worksharing")."""
from __future__ import annotations

import pytest
from Autodesk.Revit.DB import (BuiltInCategory, CheckoutStatus, ElementId, FilteredElementCollector,
                               FilteredWorksetCollector, ModelUpdatesStatus, RelinquishOptions,
                               SynchronizeWithCentralOptions, Transaction, TransactionGroup, TransactionStatus,
                               TransactWithCentralOptions, Wall, Workset, WorksetId, WorksetKind, WorksharingUtils)
from Autodesk.Revit.Exceptions import (ArgumentException, CentralFileCommunicationException,
                                       InvalidOperationException)
from System.Collections.Generic import List

from revit_standin import central as shared

MARIA = "maria"


@pytest.fixture
def workshared(duplex_rw):
    shared.make_workshared(duplex_rw)
    return duplex_rw


def wall_ids(doc, count: int = 5) -> list[ElementId]:
    return [wall.Id for wall in FilteredElementCollector(doc).OfClass(Wall)][:count]


def id_list(ids) -> List:
    listed = List[ElementId]()
    for element_id in ids:
        listed.Add(element_id)
    return listed


def set_comments(doc, ids, text: str = "changed"):
    transaction = Transaction(doc, "comments")
    transaction.Start()
    for element_id in ids:
        doc.GetElement(element_id).LookupParameter("Comments").Set(text)
    return transaction.Commit()


def comments(doc, ids) -> list[str]:
    return [doc.GetElement(i).LookupParameter("Comments").AsString() or "" for i in ids]


def status(doc, ids) -> list:
    return [WorksharingUtils.GetCheckoutStatus(doc, i) for i in ids]


def sync(doc, options: SynchronizeWithCentralOptions | None = None) -> None:
    doc.SynchronizeWithCentral(TransactWithCentralOptions(), options or SynchronizeWithCentralOptions())


# -- worksets ------------------------------------------------------------------------------------------


def test_a_model_that_is_not_workshared_has_no_worksets_and_no_ownership(doc):
    level = FilteredElementCollector(doc).OfCategory(BuiltInCategory.OST_Levels).FirstElement()
    assert not doc.IsWorkshared and doc.CanEnableWorksharing()
    assert level.WorksetId == WorksetId.InvalidWorksetId
    assert FilteredWorksetCollector(doc).OfKind(WorksetKind.UserWorkset).ToWorksets() == []
    # "the model is not validated to be workshared": the cached inquiries answer without an error
    assert WorksharingUtils.GetCheckoutStatus(doc, level.Id) == CheckoutStatus.NotOwned
    assert WorksharingUtils.GetWorksharingTooltipInfo(doc, level.Id).Owner == ""
    with pytest.raises(ArgumentException, match="not a workshared document"):
        WorksharingUtils.CheckoutElements(doc, id_list([level.Id]))


def test_enabling_worksharing_puts_levels_and_grids_on_their_workset_and_the_rest_on_the_other(workshared):
    worksets = {w.Name: w for w in FilteredWorksetCollector(workshared).OfKind(WorksetKind.UserWorkset)}
    assert set(worksets) == {"Shared Levels and Grids", "Workset1"} and workshared.IsWorkshared
    level = FilteredElementCollector(workshared).OfCategory(BuiltInCategory.OST_Levels).FirstElement()
    wall = workshared.GetElement(wall_ids(workshared, 1)[0])
    assert level.WorksetId == worksets["Shared Levels and Grids"].Id
    assert wall.WorksetId == worksets["Workset1"].Id == workshared.GetWorksetId(wall.Id)
    assert worksets["Workset1"].IsDefaultWorkset and worksets["Workset1"].Kind == WorksetKind.UserWorkset
    assert workshared.GetWorksetTable().GetActiveWorksetId() == worksets["Workset1"].Id
    with pytest.raises(InvalidOperationException, match="is a workshared document"):
        workshared.EnableWorksharing("A", "B")
    assert workshared._journal.undo_history == []   # "Undo history will be cleared"


def test_a_workset_name_with_a_prohibited_character_is_refused(doc):
    with pytest.raises(ArgumentException, match="character"):
        doc.EnableWorksharing("Levels [shared]", "Workset1")
    assert not doc.IsWorkshared


def test_worksharing_cannot_be_enabled_inside_a_transaction(doc):
    transaction = Transaction(doc, "inside")
    transaction.Start()
    with pytest.raises(InvalidOperationException, match="transaction phase left open"):
        doc.EnableWorksharing("Shared Levels and Grids", "Workset1")
    transaction.RollBack()
    assert not doc.IsWorkshared


def test_a_new_workset_needs_a_transaction_and_a_unique_name_and_new_elements_go_to_the_active_one(workshared):
    with pytest.raises(Exception, match="outside of transaction"):
        Workset.Create(workshared, "Interiors")
    transaction = Transaction(workshared, "workset")
    transaction.Start()
    interiors = Workset.Create(workshared, "Interiors")
    with pytest.raises(ArgumentException, match="not unique"):
        Workset.Create(workshared, "Interiors")
    workshared.GetWorksetTable().SetActiveWorksetId(interiors.Id)
    level = FilteredElementCollector(workshared).OfCategory(BuiltInCategory.OST_Levels).FirstElement()
    wall = Wall.Create(workshared, _line(), level.Id, False)
    assert transaction.Commit() == TransactionStatus.Committed
    assert wall.WorksetId == interiors.Id
    assert WorksharingUtils.GetModelUpdatesStatus(workshared, wall.Id) == ModelUpdatesStatus.NotYetInCentral
    assert status(workshared, [wall.Id]) == [CheckoutStatus.OwnedByCurrentUser]   # its creator's


def test_an_elements_workset_is_its_workset_parameter_and_changes_in_a_transaction(workshared):
    from Autodesk.Revit.DB import BuiltInParameter, StorageType
    worksets = {w.Name: w for w in FilteredWorksetCollector(workshared).OfKind(WorksetKind.UserWorkset)}
    wall = workshared.GetElement(wall_ids(workshared, 1)[0])
    parameter = wall.get_Parameter(BuiltInParameter.ELEM_PARTITION_PARAM)
    assert parameter.StorageType == StorageType.Integer and not parameter.IsReadOnly
    assert parameter.AsInteger() == worksets["Workset1"].Id.IntegerValue
    target = worksets["Shared Levels and Grids"].Id.IntegerValue
    with pytest.raises(Exception, match="outside of transaction"):
        parameter.Set(target)
    transaction = Transaction(workshared, "workset")
    transaction.Start()
    assert parameter.Set(target) and wall.WorksetId == worksets["Shared Levels and Grids"].Id
    assert not parameter.Set(999)   # not a user workset of the document
    transaction.RollBack()
    assert wall.WorksetId == worksets["Workset1"].Id


def test_view_specific_elements_views_and_types_cannot_change_workset(workshared):
    """Revit: "You cannot reassign view-specific elements from a view workset to another workset";
    views and types are on their own view and family worksets."""
    from Autodesk.Revit.DB import XYZ, BuiltInParameter, TextNote, TextNoteType, View
    view = next(v for v in FilteredElementCollector(workshared).OfClass(View) if not v.IsTemplate
                and v.ViewType.ToString() == "FloorPlan")
    transaction = Transaction(workshared, "note")
    transaction.Start()
    note_type = FilteredElementCollector(workshared).OfClass(TextNoteType).FirstElement()
    note = TextNote.Create(workshared, view.Id, XYZ(0, 0, 0), "note", note_type.Id)
    wall = workshared.GetElement(wall_ids(workshared, 1)[0])
    assert note.ViewSpecific and not wall.ViewSpecific
    for element in (note, view, workshared.GetElement(wall.GetTypeId())):
        parameter = element.get_Parameter(BuiltInParameter.ELEM_PARTITION_PARAM)
        assert parameter.IsReadOnly
        with pytest.raises(InvalidOperationException, match="read-only"):
            parameter.Set(0)
    transaction.RollBack()


def test_an_element_may_be_moved_to_a_closed_workset(workshared):
    """Not documented either way; Paracore's move_to_workset refuses it (the elements would not be shown)."""
    from Autodesk.Revit.DB import BuiltInParameter
    transaction = Transaction(workshared, "workset")
    transaction.Start()
    closed = Workset.Create(workshared, "Closed here")
    transaction.Commit()
    workshared._worksets[closed.Id.IntegerValue].is_open = False
    assert not workshared.GetWorksetTable().GetWorkset(closed.Id).IsOpen
    wall = workshared.GetElement(wall_ids(workshared, 1)[0])
    transaction.Start()
    assert wall.get_Parameter(BuiltInParameter.ELEM_PARTITION_PARAM).Set(closed.Id.IntegerValue)
    assert transaction.Commit() == TransactionStatus.Committed and wall.WorksetId == closed.Id


def test_a_model_that_is_not_workshared_has_no_workset_parameter(duplex_rw):
    doc = duplex_rw
    from Autodesk.Revit.DB import BuiltInParameter
    wall = doc.GetElement(wall_ids(doc, 1)[0])
    assert wall.get_Parameter(BuiltInParameter.ELEM_PARTITION_PARAM) is None


def _line():
    from Autodesk.Revit.DB import XYZ, Line
    return Line.CreateBound(XYZ(0, -40, 0), XYZ(20, -40, 0))


# -- ownership -----------------------------------------------------------------------------------------


def test_the_checkout_status_is_what_the_local_copy_last_learnt_and_checking_out_asks_central(workshared):
    walls = wall_ids(workshared)
    shared.colleague_borrows(workshared, MARIA, [w.Value for w in walls[:2]])
    assert status(workshared, walls) == [CheckoutStatus.NotOwned] * 5      # cached: Maria's borrow not seen yet
    owned = WorksharingUtils.CheckoutElements(workshared, id_list(walls))
    assert {i.Value for i in owned} == {w.Value for w in walls[2:]}       # never another user's elements
    assert status(workshared, walls) == [CheckoutStatus.OwnedByOtherUser] * 2 + [CheckoutStatus.OwnedByCurrentUser] * 3
    assert WorksharingUtils.GetWorksharingTooltipInfo(workshared, walls[0]).Owner == MARIA
    assert WorksharingUtils.GetCheckoutStatus(workshared, walls[0], "") == (CheckoutStatus.OwnedByOtherUser, MARIA)
    with pytest.raises(ArgumentException, match="do not exist"):
        WorksharingUtils.CheckoutElements(workshared, id_list([ElementId(999_999)]))


def test_checking_out_inside_a_transaction_works_and_relinquishing_there_is_refused(workshared):
    # CheckoutElements lists no exception for an open transaction (RelinquishOwnership does): not
    # refused on a guess (docs/REVIT_BEHAVIOUR.md, a row with an in-Revit check).
    transaction = Transaction(workshared, "inside")
    transaction.Start()
    walls = wall_ids(workshared, 2)
    owned = WorksharingUtils.CheckoutElements(workshared, id_list(walls))
    assert set(owned) == set(walls) and status(workshared, walls) == [CheckoutStatus.OwnedByCurrentUser] * 2
    with pytest.raises(InvalidOperationException, match="transaction"):
        WorksharingUtils.RelinquishOwnership(workshared, RelinquishOptions(True), TransactWithCentralOptions())
    with pytest.raises(ArgumentException, match="open editing transaction"):   # CheckoutWorksets documents it
        WorksharingUtils.CheckoutWorksets(workshared, _workset_ids([_workset(workshared, "Workset1").Id]))
    transaction.RollBack()


def test_a_commit_that_changes_another_users_element_fails_whole_and_says_who_owns_it(workshared):
    walls = wall_ids(workshared)
    shared.colleague_borrows(workshared, MARIA, [walls[0].Value])
    assert set_comments(workshared, walls) == TransactionStatus.RolledBack
    assert comments(workshared, walls) == [""] * 5                          # nothing half-changed
    assert workshared._last_rollback_reasons == [
        "Can't edit the element until 'maria' resaves the element to central and relinquishes it and you "
        "Reload Latest."]
    assert status(workshared, walls[1:]) == [CheckoutStatus.NotOwned] * 4   # a failed commit borrows nothing


def test_an_element_changed_in_central_since_the_last_reload_cannot_be_changed_until_reload(workshared):
    walls = wall_ids(workshared)
    shared.colleague_changes(workshared, "li", [walls[1].Value])
    # cached: not seen until the document next asks central
    assert WorksharingUtils.GetModelUpdatesStatus(workshared, walls[1]) == ModelUpdatesStatus.CurrentWithCentral
    assert not workshared.HasAllChangesFromCentral()                         # asks central
    assert WorksharingUtils.GetModelUpdatesStatus(workshared, walls[1]) == ModelUpdatesStatus.UpdatedInCentral
    assert set_comments(workshared, walls[1:2]) == TransactionStatus.RolledBack
    assert workshared._last_rollback_reasons == ["You must Reload Latest before editing the element."]
    assert WorksharingUtils.GetWorksharingTooltipInfo(workshared, walls[1]).LastChangedBy == "li"
    sync(workshared)                                                        # reloads latest
    assert WorksharingUtils.GetModelUpdatesStatus(workshared, walls[1]) == ModelUpdatesStatus.CurrentWithCentral
    assert set_comments(workshared, walls[1:2]) == TransactionStatus.Committed


def test_an_element_nobody_owns_is_borrowed_when_its_change_commits_and_given_back_at_synchronize(workshared):
    walls = wall_ids(workshared, 2)
    assert set_comments(workshared, walls) == TransactionStatus.Committed
    assert status(workshared, walls) == [CheckoutStatus.OwnedByCurrentUser] * 2
    assert workshared.Application.Username == shared.DEFAULT_USER
    sync(workshared)
    assert status(workshared, walls) == [CheckoutStatus.NotOwned] * 2
    assert WorksharingUtils.GetWorksharingTooltipInfo(workshared, walls[0]).LastChangedBy == shared.DEFAULT_USER


def test_a_synchronize_that_keeps_borrowed_elements_and_a_relinquish_that_keeps_unsaved_changes(workshared):
    walls = wall_ids(workshared, 3)
    WorksharingUtils.CheckoutElements(workshared, id_list(walls))
    options = SynchronizeWithCentralOptions()
    options.SetRelinquishOptions(RelinquishOptions(False))
    sync(workshared, options)
    assert status(workshared, walls) == [CheckoutStatus.OwnedByCurrentUser] * 3
    set_comments(workshared, walls[:1])                                     # changed, not synchronized
    given = WorksharingUtils.RelinquishOwnership(workshared, RelinquishOptions(True), TransactWithCentralOptions())
    assert {i.Value for i in given.GetRelinquishedElements()} == {w.Value for w in walls[1:]}
    assert status(workshared, walls) == [CheckoutStatus.OwnedByCurrentUser] + [CheckoutStatus.NotOwned] * 2


def test_an_element_deleted_in_central_is_gone_after_reload(workshared):
    wall = wall_ids(workshared, 1)[0]
    shared.colleague_deletes(workshared, MARIA, [wall.Value])
    assert set_comments(workshared, [wall]) == TransactionStatus.RolledBack
    assert workshared._last_rollback_reasons == ["Can't edit the element. It was deleted in the Central Model."]
    assert not workshared.HasAllChangesFromCentral()
    assert WorksharingUtils.GetModelUpdatesStatus(workshared, wall) == ModelUpdatesStatus.DeletedInCentral
    sync(workshared)
    assert workshared.GetElement(wall) is None and workshared.HasAllChangesFromCentral()


def test_synchronizing_is_refused_while_a_transaction_group_is_open(workshared):
    group = TransactionGroup(workshared, "step")
    group.Start()
    with pytest.raises(InvalidOperationException, match="transaction"):
        sync(workshared)
    group.RollBack()


def test_a_central_that_cannot_be_reached_changes_nothing_and_says_so(workshared):
    walls = wall_ids(workshared, 2)
    set_comments(workshared, walls)
    shared.central_of(workshared).reachable = False
    with pytest.raises(CentralFileCommunicationException):
        WorksharingUtils.CheckoutElements(workshared, id_list(wall_ids(workshared, 4)))
    with pytest.raises(CentralFileCommunicationException):
        sync(workshared)
    shared.central_of(workshared).reachable = True
    assert status(workshared, wall_ids(workshared, 4)) == [CheckoutStatus.OwnedByCurrentUser] * 2 + \
        [CheckoutStatus.NotOwned] * 2                                       # the failed checkout took nothing
    assert workshared._unsynchronized == {w.Value for w in walls}           # the failed sync saved nothing


def test_with_central_unreachable_a_commit_changes_what_the_user_owns_and_fails_whole_on_the_rest(workshared):
    walls = wall_ids(workshared, 3)
    set_comments(workshared, walls[:1], "mine")                        # the user borrows the first
    shared.central_of(workshared).reachable = False
    assert set_comments(workshared, walls[:1], "offline") == TransactionStatus.Committed
    assert set_comments(workshared, walls, "all") == TransactionStatus.RolledBack
    assert comments(workshared, walls) == ["offline", "", ""]
    assert workshared._last_rollback_reasons == ["Can't obtain permission to edit the element. The Central Model "
                                                 "is busy."] * 2


# -- a sample opened with a colleague in it (sandbox, replays, paracore mcp --workshared) ------------------


def test_a_holding_is_read_from_its_text_and_a_bad_one_says_the_format():
    assert shared.parse_holding("maria:Walls:3@Level 1") == shared.Holding("maria", "Walls", 3, "Level 1")
    assert shared.parse_holding("li:Doors:1") == shared.Holding("li", "Doors", 1, None)
    for bad in ("maria:Walls", "maria:Walls:three", "maria::3", "maria:Walls:0"):
        with pytest.raises(shared.HoldingError, match="USER:CATEGORY:COUNT"):
            shared.parse_holding(bad)


def test_the_colleague_holds_the_first_elements_of_the_category_on_the_level_and_the_copy_knows_it(duplex_rw):
    held = shared.hold(duplex_rw, shared.parse_holding("maria:Walls:3@Level 1"))
    level_1 = [w.Id.Value for w in FilteredElementCollector(duplex_rw).OfClass(Wall)
               if duplex_rw.GetElement(w.LevelId).Name == "Level 1"]
    assert held == sorted(level_1)[:3] and duplex_rw.IsWorkshared
    assert status(duplex_rw, [ElementId(i) for i in held]) == [CheckoutStatus.OwnedByOtherUser] * 3
    with pytest.raises(shared.HoldingError, match="fewer than the 300"):
        shared.hold(duplex_rw, shared.parse_holding("li:Walls:300"))


# -- issue 36: a rolled-back group keeps what its commits borrowed; worksets made editable; a locked
# central; a detached model ------------------------------------------------------------------------


def test_a_commit_inside_a_rolled_back_group_borrows_and_the_rollback_does_not_give_it_back(workshared):
    walls = wall_ids(workshared, 3)
    group = TransactionGroup(workshared, "a preview")
    group.Start()
    assert set_comments(workshared, walls) == TransactionStatus.Committed
    group.RollBack()
    assert comments(workshared, walls) == [""] * 3                                  # the change is gone
    assert status(workshared, walls) == [CheckoutStatus.OwnedByCurrentUser] * 3     # the borrow is not


def _workset(doc, name: str):
    return next(w for w in FilteredWorksetCollector(doc).OfKind(WorksetKind.UserWorkset) if w.Name == name)


def test_a_workset_a_colleague_made_editable_holds_its_elements_for_them(workshared):
    walls = wall_ids(workshared, 2)
    shared.colleague_edits_workset(workshared, MARIA, "Workset1")
    workshared._learn_from_central()
    workset = _workset(workshared, "Workset1")
    assert workset.Owner == MARIA and not workset.IsEditable
    assert status(workshared, walls) == [CheckoutStatus.OwnedByOtherUser] * 2
    assert WorksharingUtils.GetCheckoutStatus(workshared, walls[0], "") == (CheckoutStatus.OwnedByOtherUser, MARIA)
    assert WorksharingUtils.GetWorksharingTooltipInfo(workshared, walls[0]).Owner == MARIA
    assert list(WorksharingUtils.CheckoutElements(workshared, id_list(walls))) == []
    assert set_comments(workshared, walls) == TransactionStatus.RolledBack
    assert "'maria' resaves the element" in workshared._last_rollback_reasons[0]


def test_a_workset_the_user_makes_editable_owns_its_elements_without_borrowing_them(workshared):
    walls = wall_ids(workshared, 2)
    workset = _workset(workshared, "Workset1")
    made = WorksharingUtils.CheckoutWorksets(workshared, _workset_ids([workset.Id]))
    assert list(made) == [workset.Id] and _workset(workshared, "Workset1").IsEditable
    assert status(workshared, walls) == [CheckoutStatus.OwnedByCurrentUser] * 2
    assert WorksharingUtils.GetWorksharingTooltipInfo(workshared, walls[0]).Owner == "you"
    assert set_comments(workshared, walls) == TransactionStatus.Committed
    assert shared.central_of(workshared).owners.get(walls[0].Value) is None   # owned through the workset
    shared.colleague_borrows(workshared, MARIA, [walls[1].Value])              # refused: the workset is yours
    assert shared.central_of(workshared).owners.get(walls[1].Value) is None


def _workset_ids(ids):
    listed = List[WorksetId]()
    for workset_id in ids:
        listed.Add(workset_id)
    return listed


def test_a_locked_central_with_a_lock_callback_that_gives_up_raises_contention(workshared):
    from Autodesk.Revit.DB import ICentralLockedCallback
    from Autodesk.Revit.Exceptions import CentralModelContentionException
    from System.Collections.Generic import HashSet

    class GiveUp(ICentralLockedCallback):
        asked = 0

        def ShouldWaitForLockAvailability(self):  # noqa: N802
            self.asked += 1
            return False
    callback = GiveUp()
    shared.central_of(workshared).locked_by = "li"
    walls = wall_ids(workshared, 2)
    with pytest.raises(shared.WouldWaitForCentral):      # no callback: Revit waits "endlessly"
        WorksharingUtils.CheckoutElements(workshared, id_list(walls))
    options = TransactWithCentralOptions()
    options.SetLockCallback(callback)
    assert options.GetLockCallback() is callback
    ids = HashSet[ElementId]()
    for wall in walls:
        ids.Add(wall)
    with pytest.raises(CentralModelContentionException):
        WorksharingUtils.CheckoutElements(workshared, ids, options)
    assert callback.asked == 1 and status(workshared, walls) == [CheckoutStatus.NotOwned] * 2
    shared.central_of(workshared).locked_by = None
    assert set(WorksharingUtils.CheckoutElements(workshared, ids, options)) == set(walls)


def test_a_detached_model_is_workshared_without_a_central_and_borrows_nothing(duplex_rw):
    shared.open_detached(duplex_rw)
    walls = wall_ids(duplex_rw, 2)
    assert duplex_rw.IsWorkshared and duplex_rw.IsDetached
    assert set_comments(duplex_rw, walls) == TransactionStatus.Committed
    assert status(duplex_rw, walls) == [CheckoutStatus.NotOwned] * 2


def test_relinquishing_user_worksets_gives_back_the_workset_and_its_elements(workshared):
    walls = wall_ids(workshared, 1)
    workset = _workset(workshared, "Workset1")
    WorksharingUtils.CheckoutWorksets(workshared, _workset_ids([workset.Id]))
    options = RelinquishOptions(False)
    options.UserWorksets = True
    given = WorksharingUtils.RelinquishOwnership(workshared, options, TransactWithCentralOptions())
    assert list(given.GetRelinquishedWorksets()) == [workset.Id] and not _workset(workshared, "Workset1").IsEditable
    assert status(workshared, walls) == [CheckoutStatus.NotOwned]
