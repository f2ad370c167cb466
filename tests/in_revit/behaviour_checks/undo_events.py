"""In-Revit checks of what the undo ledger, the previews and the working set rest on where Autodesk's
documentation is silent (the "Undo, previews and events" rows of docs/REVIT_BEHAVIOUR.md):

- whether a transaction group's RollBack raises DocumentChanged, with which operation and names
  (its remarks: "raised whenever a Revit transaction is either committed, undone or redone");
- whether two reads of ``Document.Application`` give one object, equal ones, or neither, and that
  a handler attached through one read is detached through that same object;
- what DocumentChanged says at an assimilated group's commits and at Assimilate (the names Revit's
  Undo then reports cannot be read here: Undo runs after the runner's API call returns, and the
  runner's group is open; Undo last turn stops and names them when they match neither form);
- what Floor.Create adds besides the floor;
- end to end: a preview's rolled-back group leaves no entry in the undo ledger.

Each check runs inside the runner's rolled-back group; a probe group of its own is nested in it.
Probe handlers are attached through one object and always detached in ``finally``. Either answer
to an undocumented question passes when Paracore is right under it; the detail says which it was.
"""
from Autodesk.Revit import DB

from behaviour_checks import _site as site
from behaviour_checks.document_changed import Changes
from kit import expect, skip, transaction
from paracore.hosts.revit import document_events, undo_ledger
from paracore.revit.context import element_id, id_value
from paracore.revit.dotnet import typed_list
from paracore.hosts.revit.preview import preview_call
from paracore.revit.user_elements import is_internal
from paracore.tools.framework.registry import PreparedCall, default_registry

PROBE_ELEVATION = 1000.0      # feet: a probe level far above any model's levels


def _operation(call):
    return call["operation"].split(".")[-1]


def group_rollback_document_changed(scratch):
    doc = scratch.doc
    group = DB.TransactionGroup(doc, "Paracore check: preview group")
    with Changes(doc) as changes:
        group.Start()
        try:
            with transaction(doc, "Paracore check: tried"):
                level_id = id_value(DB.Level.Create(doc, PROBE_ELEVATION).Id)
            at_commit = list(changes.calls)
            group.RollBack()
        finally:
            site.ended(group)
    expect(len(at_commit) == 1 and _operation(at_commit[0]) == "TransactionCommitted"
           and level_id in at_commit[0]["added"], f"the commit inside the group raised {at_commit}")
    expect(doc.GetElement(element_id(level_id)) is None, "the level committed inside the group survived RollBack")
    after = changes.calls[len(at_commit):]
    if not after:
        return "RollBack raised no DocumentChanged (the preview and the executor tell the undo ledger themselves)"
    expect(len(after) == 1 and _operation(after[0]) == "TransactionGroupRolledBack",
           f"RollBack raised {[(_operation(c), c['names']) for c in after]}, not one TransactionGroupRolledBack")
    [event] = after
    where = "deleted" if level_id in event["deleted"] else "added" if level_id in event["added"] else "in no list"
    return f"RollBack raised TransactionGroupRolledBack, names {event['names']}, the level's id {where}"


class _Heard:
    """A probe handler that counts DocumentChanged of one document."""

    def __init__(self, doc):
        self._title = doc.Title
        self.count = 0
        self.handler = self._on_changed   # one bound method for += and -=

    def _on_changed(self, sender, args):
        if args.GetDocument().Title == self._title:
            self.count += 1


def application_wrappers(scratch):
    doc = scratch.doc
    first, second = doc.Application, doc.Application
    same, equal = first is second, first == second
    heard = _Heard(doc)
    first.DocumentChanged += heard.handler
    try:
        with transaction(doc, "Paracore check: heard"):
            DB.Level.Create(doc, PROBE_ELEVATION)
    finally:
        first.DocumentChanged -= heard.handler      # through the object it was attached through
    with transaction(doc, "Paracore check: not heard"):
        DB.Level.Create(doc, PROBE_ELEVATION + 10.0)
    expect(heard.count == 1, f"the probe handler heard {heard.count} commits (1 while attached, 0 after)")
    kind = "the same object" if same else "equal objects (Equals)" if equal else "new wrappers, not equal"
    return (f"doc.Application read twice: {kind}; a handler detached through the object it was attached "
            f"through is gone; Paracore's DocumentChanged handler is attached {document_events.subscriptions()} "
            "time(s) in this process")


def assimilated_group_names(scratch):
    doc = scratch.doc
    group = DB.TransactionGroup(doc, "Paracore check: step")
    with Changes(doc) as changes:
        group.Start()
        try:
            for name, elevation in (("Paracore check: first", PROBE_ELEVATION), ("Paracore check: second",
                                                                                PROBE_ELEVATION + 10.0)):
                with transaction(doc, name):
                    DB.Level.Create(doc, elevation)
            commits = len(changes.calls)
            group.Assimilate()
        finally:
            site.ended(group)
    names = [c["names"] for c in changes.calls]
    expect(commits == 2 and names[:2] == [["Paracore check: first"], ["Paracore check: second"]],
           f"the group's commits raised {names[:commits]}")
    at_assimilate = [(_operation(c), c["names"]) for c in changes.calls[2:]]
    return (f"each commit named by its transaction; Assimilate raised {at_assimilate or 'nothing'}; the names Undo "
            "reports for the entry are read by Undo last turn (it accepts the group's name or its transactions')")


def _floor_type(doc):
    found = next(iter(DB.FilteredElementCollector(doc).OfClass(DB.FloorType)), None)
    if found is None:
        skip("the model has no floor type")
    return found


def floor_create_adds(scratch):
    doc = scratch.doc
    level = site.base_level(doc)
    x, y = site.spot(doc)
    corners = [(x, y), (x + 10.0, y), (x + 10.0, y + 8.0), (x, y + 8.0)]
    edges = [site.line(corners[i], corners[(i + 1) % 4], level.Elevation) for i in range(4)]
    floor_type = _floor_type(doc)
    with Changes(doc) as changes:
        with transaction(doc, "Paracore check: floor"):
            floor = DB.Floor.Create(doc, typed_list(DB.CurveLoop, [DB.CurveLoop.Create(typed_list(DB.Curve, edges))]),
                                    floor_type.Id, level.Id)
    [call] = changes.calls
    floor_id, sketch_id = id_value(floor.Id), id_value(floor.SketchId)
    others = [doc.GetElement(element_id(i)) for i in call["added"] if i != floor_id]
    expect(floor_id in call["added"], "the floor is not among the added ids")
    expect(sketch_id in call["added"], f"the floor's sketch {sketch_id} is not among the added ids")
    users = [_kind(e) for e in others if not is_internal(e)]
    expect(not users, f"Floor.Create added elements Paracore would count as the user's: {users}")
    kinds = sorted(_kind(e) for e in others)
    counted = ", ".join(f"{kinds.count(k)} {k}" for k in dict.fromkeys(kinds))
    return f"Floor.Create added the floor and {len(others)} more: {counted}"


def _kind(element):
    category = element.Category.Name if element.Category is not None else "no category"
    return f"{type(element).__name__} ({category})"


def preview_leaves_no_ledger_entry(scratch):
    doc = scratch.doc
    prepared = default_registry().prepare("create_level", {"elevation": f"{PROBE_ELEVATION:g} ft"}, ())
    expect(isinstance(prepared, PreparedCall), f"create_level was refused: {getattr(prepared, 'message', prepared)}")
    ledger = undo_ledger.ledger_for(doc)
    before = list(ledger.undo)
    preview = preview_call(scratch.uidoc, scratch.session, prepared)
    expect(preview is not None and preview.error is None, f"the preview failed: {preview and preview.error}")
    expect(ledger.undo == before and not ledger.working, f"the ledger kept {ledger.undo[len(before):]}")
    return f"preview: {preview.text()!r}; the undo ledger is as before"


CHECKS = [
    ("a group's RollBack: DocumentChanged or none", group_rollback_document_changed),
    ("Document.Application read twice; detaching through the same object", application_wrappers),
    ("an assimilated group: DocumentChanged at its commits and at Assimilate", assimilated_group_names),
    ("Floor.Create adds the floor, its sketch and what else", floor_create_adds),
    ("a preview's rolled-back group leaves no undo-ledger entry", preview_leaves_no_ledger_entry),
]
