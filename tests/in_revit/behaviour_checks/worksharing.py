"""In-Revit checks of worksharing: the rows of docs/REVIT_BEHAVIOUR.md ("Worksharing") that name
behaviour_checks/worksharing.py.

They run inside the runner's transaction group, which is rolled back; a group undoes no contact
with central, so no check here does anything in central that could stay behind if Revit behaved
otherwise than expected: the checkout check asks only for elements the user owns already, and the
edit check changes an element another user owns, which Revit must refuse (a wrong answer is
rolled back with the group). Checks that need a workshared model skip on one that is not, and the
other way round.
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
    expect(refusal is not None, "CheckoutElements ran inside an open transaction (the stand-in refuses it)")
    return f"refused: {refusal}"


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


CHECKS = [
    ("inquiries answer in a model that is not workshared", inquiries_answer_in_a_model_that_is_not_workshared),
    ("new synchronize options relinquish borrowed elements", new_synchronize_options_relinquish_borrowed_elements),
    ("checkout elements inside a transaction", checkout_elements_inside_a_transaction),
    ("editing an element another user owns fails at commit", editing_an_element_another_user_owns_fails_at_commit),
]
