"""In-Revit checks of worksharing: the rows of docs/REVIT_BEHAVIOUR.md ("Worksharing") that name
behaviour_checks/worksharing.py.

They run inside the runner's transaction group, which is rolled back; a group undoes no contact
with central, so no check here does anything in central that could stay behind if Revit behaved
otherwise than expected: the checkout check asks only for elements the user owns already, and the
edit check changes an element another user owns, which Revit must refuse (a wrong answer is
rolled back with the group). Checks that need a workshared model skip on one that is not, and the
other way round.

One check exercises Paracore itself: ``a_declined_preview_borrows_nothing`` runs Paracore's approval
preview on elements nobody owns and checks that none of them is borrowed afterwards. If it FAILS,
Revit did borrow them, and they stay borrowed (a transaction group does not undo a checkout): the
failure names them; give them back with Collaborate > Relinquish All Mine.
"""
from Autodesk.Revit import DB

from kit import expect, skip
from paracore.revit.dotnet import element_id_list

OWNED_BY_OTHER = "Can't edit the element until"


def _elements(doc):
    return DB.FilteredElementCollector(doc).WhereElementIsNotElementType().ToElements()


def _with_status(doc, wanted):
    """Elements whose cached checkout status is ``wanted`` (with a Comments parameter to change)."""
    found = []
    for element in _elements(doc):
        comments = element.get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
        if comments is not None and not comments.IsReadOnly and \
                DB.WorksharingUtils.GetCheckoutStatus(doc, element.Id) == wanted:
            found.append(element)
    return found


def inquiries_answer_in_a_model_that_is_not_workshared(scratch):
    doc = scratch.doc
    if doc.IsWorkshared:
        skip("the model is workshared")
    element = next(iter(_elements(doc)), None)
    if element is None:
        skip("the model has no elements")
    status = DB.WorksharingUtils.GetCheckoutStatus(doc, element.Id)
    updates = DB.WorksharingUtils.GetModelUpdatesStatus(doc, element.Id)
    workset = element.WorksetId
    expect(status == DB.CheckoutStatus.NotOwned, f"GetCheckoutStatus said {status}")
    expect(updates == DB.ModelUpdatesStatus.CurrentWithCentral, f"GetModelUpdatesStatus said {updates}")
    expect(workset == DB.WorksetId.InvalidWorksetId, f"an element's WorksetId is {workset.IntegerValue}")
    return f"GetCheckoutStatus: {status}; GetModelUpdatesStatus: {updates}; WorksetId: {workset.IntegerValue}"


def new_synchronize_options_relinquish_borrowed_elements(scratch):
    relinquish = DB.SynchronizeWithCentralOptions().GetRelinquishOptions()
    everything = relinquish is None or relinquish.CheckedOutElements   # null: "relinquish ... all elements"
    expect(everything, "new SynchronizeWithCentralOptions keep borrowed elements")
    return "relinquish options: " + ("null" if relinquish is None else f"CheckedOutElements={everything}")


def checkout_elements_inside_a_transaction(scratch):
    doc = scratch.doc
    if not doc.IsWorkshared:
        skip("the model is not workshared")
    owned = _with_status(doc, DB.CheckoutStatus.OwnedByCurrentUser)[:1]
    if not owned:
        skip("the user owns no element of the model (borrow one, then run the checks again)")
    transaction = DB.Transaction(doc, "Paracore check: checkout inside")
    transaction.Start()
    try:
        DB.WorksharingUtils.CheckoutElements(doc, element_id_list([owned[0].Id]))
        refusal = None
    except Exception as error:  # noqa: BLE001 - which exception Revit raises is what the check reports
        refusal = f"{type(error).__name__}: {error}"
    finally:
        transaction.RollBack()
    # Not documented either way; the stand-in lets it run, and Paracore checks out before its
    # transactions anyway, so this only tells whether a script may.
    expect(refusal is None, f"CheckoutElements was refused inside an open transaction ({refusal}); "
                            "the stand-in lets it run")
    return "ran inside an open transaction"


def checkout_elements_in_a_detached_model(scratch):
    doc = scratch.doc
    if not (doc.IsWorkshared and doc.IsDetached):
        skip("the model is not detached from central (open it with Detach from Central)")
    element = next(iter(_elements(doc)), None)
    if element is None:
        skip("the model has no elements")
    try:
        DB.WorksharingUtils.CheckoutElements(doc, element_id_list([element.Id]))
        refusal = None
    except Exception as error:  # noqa: BLE001 - which exception Revit raises is what the check reports
        refusal = f"{type(error).__name__}: {error}"
    expect(refusal is not None, "CheckoutElements ran in a detached model (the stand-in raises CentralModelException)")
    return f"refused: {refusal}"


def a_declined_preview_borrows_nothing(scratch):
    """Paracore's approval previews of set_parameter (Comments), of a run_python script setting it and of
    color_elements, on up to three elements nobody owns, current with central: each is still owned by
    nobody afterwards, and unchanged, and the active view is owned as before."""
    from paracore.hosts.revit.preview import preview_call
    from paracore.tools.framework.registry import PreparedCall, default_registry
    doc = scratch.doc
    if not doc.IsWorkshared:
        skip("the model is not workshared")
    if doc.IsDetached:
        skip("the model is detached from central: nothing can be borrowed")
    utils = DB.WorksharingUtils
    free = [e for e in _with_status(doc, DB.CheckoutStatus.NotOwned)
            if utils.GetModelUpdatesStatus(doc, e.Id) == DB.ModelUpdatesStatus.CurrentWithCentral][:3]
    if not free:
        skip("no element with Comments is free (owned by nobody) and current with central")
    comments = [e.get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS) for e in free]
    before = [c.AsString() for c in comments]
    call = default_registry().prepare("set_parameter", {
        "element_ids": [e.Id.Value for e in free], "name": comments[0].Definition.Name, "value": "Paracore check"}, [])
    expect(isinstance(call, PreparedCall), f"set_parameter was refused: {getattr(call, 'message', call)}")
    shown = preview_call(scratch.uidoc, scratch.session, call)
    # A script changing the same elements, and colouring them in the active view (which changes the view).
    script = default_registry().prepare("run_python", {"code": "for i in working_set:\n    doc.GetElement("
                                        "DB.ElementId(i)).get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)"
                                        ".Set('Paracore check')"}, [e.Id.Value for e in free])
    colour = default_registry().prepare("color_elements", {"element_ids": [e.Id.Value for e in free], "color": "red"}, [])
    view = scratch.uidoc.ActiveView
    view_was = utils.GetCheckoutStatus(doc, view.Id) if view is not None else None
    for other in (script, colour):
        expect(isinstance(other, PreparedCall), f"{getattr(other, 'message', other)}")
        preview_call(scratch.uidoc, scratch.session, other)
    borrowed = [e.Id.Value for e in free if utils.GetCheckoutStatus(doc, e.Id) != DB.CheckoutStatus.NotOwned]
    expect(not borrowed, f"the preview borrowed ids {borrowed}: relinquish them (Collaborate > Relinquish All Mine)")
    expect(view is None or utils.GetCheckoutStatus(doc, view.Id) == view_was,
           "colouring's preview borrowed the active view: relinquish it (Collaborate > Relinquish All Mine)")
    expect([c.AsString() for c in comments] == before, "the preview left a change behind")
    said = shown.text().splitlines()[0] if shown is not None else "no preview"
    return (f"{len(free)} free elements previewed (set_parameter, run_python, color_elements), none borrowed "
            f"nor the view; the preview said: {said}")


def editing_an_element_another_user_owns_fails_at_commit(scratch):
    doc = scratch.doc
    if not doc.IsWorkshared:
        skip("the model is not workshared")
    theirs = _with_status(doc, DB.CheckoutStatus.OwnedByOtherUser)[:1]
    if not theirs:
        skip("no element of the model is owned by another user")
    element = theirs[0]
    comments = element.get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)
    before = comments.AsString()
    transaction = DB.Transaction(doc, "Paracore check: edit another user's element")
    transaction.Start()
    comments.Set("Paracore check")
    status = transaction.Commit()
    expect(status == DB.TransactionStatus.RolledBack, f"the commit ended {status}")
    expect(comments.AsString() == before, "the change stayed")
    return f"commit: {status}"


def _user_worksets(doc):
    return list(DB.FilteredWorksetCollector(doc).OfKind(DB.WorksetKind.UserWorkset))


def _workset_parameter_moved_in_a_transaction(doc, element, target):
    """Set ``element``'s Workset to ``target`` in a transaction that is rolled back (never
    committed: a commit would borrow the element in central); (Set's answer or error, WorksetId read
    inside the transaction)."""
    transaction = DB.Transaction(doc, "Paracore check: workset")
    transaction.Start()
    try:
        try:
            answer = element.get_Parameter(DB.BuiltInParameter.ELEM_PARTITION_PARAM).Set(target.Id.IntegerValue)
        except Exception as error:  # noqa: BLE001 - which exception Revit raises is what the check reports
            answer = f"{type(error).__name__}: {error}"
        return answer, element.WorksetId.IntegerValue
    finally:
        transaction.RollBack()


def workset_parameter_moves_an_element(scratch):
    doc = scratch.doc
    if not doc.IsWorkshared:
        skip("the model is not workshared")
    worksets = [w for w in _user_worksets(doc) if w.IsOpen]
    wall = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Wall)), None)
    if wall is None or len(worksets) < 2:
        skip("the model needs a wall and two open user worksets")
    parameter = wall.get_Parameter(DB.BuiltInParameter.ELEM_PARTITION_PARAM)
    expect(parameter is not None, "a wall has no Workset parameter")
    expect(parameter.StorageType == DB.StorageType.Integer, f"its storage is {parameter.StorageType}")
    expect(parameter.AsInteger() == wall.WorksetId.IntegerValue,
           f"it reads {parameter.AsInteger()}, the WorksetId is {wall.WorksetId.IntegerValue}")
    expect(not parameter.IsReadOnly, "a wall's Workset is read-only")
    target = next(w for w in worksets if w.Id.IntegerValue != wall.WorksetId.IntegerValue)
    answer, now = _workset_parameter_moved_in_a_transaction(doc, wall, target)
    expect(answer is True and now == target.Id.IntegerValue, f"Set answered {answer}; the wall is on {now}")
    return f"Set({target.Id.IntegerValue}) answered {answer}; WorksetId then {now}"


def workset_parameter_is_read_only_on_view_specific_elements_views_and_types(scratch):
    doc = scratch.doc
    if not doc.IsWorkshared:
        skip("the model is not workshared")
    view_specific = next((e for e in _elements(doc) if e.ViewSpecific), None)
    view = next((v for v in DB.FilteredElementCollector(doc).OfClass(DB.View) if not v.IsTemplate), None)
    wall_type = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.WallType)), None)
    seen = []
    for label, element in (("view-specific element", view_specific), ("view", view), ("wall type", wall_type)):
        if element is None:
            continue
        parameter = element.get_Parameter(DB.BuiltInParameter.ELEM_PARTITION_PARAM)
        read_only = parameter is None or parameter.IsReadOnly
        expect(read_only, f"the Workset of a {label} ({element.Id}) is not read-only")
        seen.append(f"{label}: {'no parameter' if parameter is None else 'read-only'}")
    if not seen:
        skip("the model has no view-specific element, view or wall type")
    return "; ".join(seen)


def workset_parameter_in_a_model_that_is_not_workshared(scratch):
    doc = scratch.doc
    if doc.IsWorkshared:
        skip("the model is workshared")
    wall = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Wall)), None)
    if wall is None:
        skip("the model has no wall")
    parameter = wall.get_Parameter(DB.BuiltInParameter.ELEM_PARTITION_PARAM)
    expect(parameter is None, f"a wall has a Workset parameter reading {parameter.AsInteger() if parameter else ''}")
    return "no Workset parameter"


def workset_parameter_set_to_a_closed_workset(scratch):
    doc = scratch.doc
    if not doc.IsWorkshared:
        skip("the model is not workshared")
    closed = [w for w in _user_worksets(doc) if not w.IsOpen]
    wall = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.Wall)), None)
    if not closed or wall is None:
        skip("the model needs a wall and a closed user workset (close one when opening the model)")
    answer, now = _workset_parameter_moved_in_a_transaction(doc, wall, closed[0])
    expect(answer is True and now == closed[0].Id.IntegerValue,
           f"Set answered {answer}; the wall is on {now} (the stand-in lets it move)")
    return f"Set to the closed workset answered {answer}; WorksetId then {now}"


CHECKS = [
    ("inquiries answer in a model that is not workshared", inquiries_answer_in_a_model_that_is_not_workshared),
    ("new synchronize options relinquish borrowed elements", new_synchronize_options_relinquish_borrowed_elements),
    ("checkout elements inside a transaction", checkout_elements_inside_a_transaction),
    ("checkout elements in a detached model", checkout_elements_in_a_detached_model),
    ("a declined preview borrows nothing", a_declined_preview_borrows_nothing),
    ("editing an element another user owns fails at commit", editing_an_element_another_user_owns_fails_at_commit),
    ("workset parameter moves an element", workset_parameter_moves_an_element),
    ("workset parameter is read-only on view-specific elements, views and types",
     workset_parameter_is_read_only_on_view_specific_elements_views_and_types),
    ("workset parameter in a model that is not workshared", workset_parameter_in_a_model_that_is_not_workshared),
    ("workset parameter set to a closed workset", workset_parameter_set_to_a_closed_workset),
]
