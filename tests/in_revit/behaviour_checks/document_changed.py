"""In-Revit checks of Application.DocumentChanged: when Revit raises it and what it reports (the
rows of docs/REVIT_BEHAVIOUR.md that name behaviour_checks/document_changed.py). Undo, redo and a
group's rollback are checked with the undo ledger's rows, not here.
"""
from Autodesk.Revit import DB

from behaviour_checks import _site as site
from kit import expect, transaction
from paracore.revit.context import id_value


class Changes:
    """Records every DocumentChanged of one document while open: dicts of operation, ids, names."""

    def __init__(self, doc):
        self._doc = doc
        self._application = doc.Application   # one wrapper for += and -=
        self._handler = self._on_changed       # one bound method for += and -=
        self.calls = []

    def __enter__(self):
        self._application.DocumentChanged += self._handler
        return self

    def __exit__(self, *exc):
        self._application.DocumentChanged -= self._handler
        return False

    def _on_changed(self, sender, args):
        if args.GetDocument().Title != self._doc.Title:
            return
        self.calls.append({
            "operation": str(args.Operation), "names": list(args.GetTransactionNames()),
            "added": {id_value(i) for i in args.GetAddedElementIds()},
            "modified": {id_value(i) for i in args.GetModifiedElementIds()},
            "deleted": {id_value(i) for i in args.GetDeletedElementIds()}})


def _wall(doc, offset=0.0):
    x, y = site.spot(doc)
    with transaction(doc, "Paracore check: scratch wall"):
        return site.wall(doc, site.base_level(doc), (x, y + offset), (x + 20.0, y + offset))


def _comments(element):
    return element.get_Parameter(DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS)


def document_changed_at_commit(scratch):
    doc = scratch.doc
    kept, removed = _wall(doc), _wall(doc, offset=30.0)
    removed_id = id_value(removed.Id)
    with Changes(doc) as changes:
        with transaction(doc, "Paracore check: mixed"):
            level = DB.Level.Create(doc, 1000.0)
            _comments(kept).Set("changed")
            doc.Delete(removed.Id)
            expect(changes.calls == [], "DocumentChanged came before the commit")
    expect(len(changes.calls) == 1, f"{len(changes.calls)} DocumentChanged events for one commit")
    [call] = changes.calls
    expect(call["operation"].endswith("TransactionCommitted"), f"operation {call['operation']}")
    expect(id_value(level.Id) in call["added"], "the new level is not among the added ids")
    expect(id_value(kept.Id) in call["modified"], "the wall whose Comments changed is not among the modified ids")
    expect(removed_id in call["deleted"], "the deleted wall is not among the deleted ids")
    expect(call["names"] == ["Paracore check: mixed"], f"transaction names {call['names']}")
    return f"one event: {len(call['added'])} added, {len(call['modified'])} modified, {len(call['deleted'])} deleted"


def no_document_changed_for_a_rollback(scratch):
    doc = scratch.doc
    with Changes(doc) as changes:
        discarded = DB.Transaction(doc, "Paracore check: discarded")
        discarded.Start()
        DB.Level.Create(doc, 1000.0)
        discarded.RollBack()
    expect(changes.calls == [], f"a rolled-back transaction raised DocumentChanged: {changes.calls}")
    return "no event for the rollback"


def document_changed_reports_net_changes(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    with Changes(doc) as changes:
        with transaction(doc, "Paracore check: net"):
            temporary = DB.Level.Create(doc, 1000.0)
            temporary_id = id_value(temporary.Id)
            doc.Delete(temporary.Id)
            created = DB.Level.Create(doc, 1010.0)
            created.Elevation = 1011.0
            _comments(wall).Set("a")
            _comments(wall).Set("b")
    [call] = changes.calls
    created_id = id_value(created.Id)
    expect(temporary_id not in call["added"] | call["deleted"] | call["modified"],
           "a level added and deleted in the same transaction was reported")
    expect(created_id in call["added"] and created_id not in call["modified"],
           "a level added then modified was not reported as added only")
    expect(id_value(wall.Id) in call["modified"], "the wall changed twice is not reported as modified")
    return "added-then-deleted not reported; added-then-modified reported as added"


def empty_commit_raises_no_document_changed(scratch):
    with Changes(scratch.doc) as changes:
        with transaction(scratch.doc, "Paracore check: nothing"):
            pass
    expect(changes.calls == [], f"a commit that changed nothing raised DocumentChanged: {changes.calls}")
    return "no event for an empty commit"


def document_changed_inside_a_group(scratch):
    doc = scratch.doc
    group = DB.TransactionGroup(doc, "Paracore check: assimilated")
    with Changes(doc) as changes:
        group.Start()
        try:
            for name, elevation in (("Paracore check: first", 1000.0), ("Paracore check: second", 1010.0)):
                with transaction(doc, name):
                    DB.Level.Create(doc, elevation)
            at_commits = [c["names"] for c in changes.calls]
            group.Assimilate()
        finally:
            site.ended(group)
    expect(at_commits == [["Paracore check: first"], ["Paracore check: second"]],
           f"events at the group's commits: {at_commits}")
    expect(len(changes.calls) == 2, f"Assimilate raised DocumentChanged too: {changes.calls[2:]}")
    return "one event per commit inside the group, none at Assimilate"


CHECKS = [
    ("DocumentChanged at commit: added, modified, deleted, name", document_changed_at_commit),
    ("no DocumentChanged for a rolled-back transaction", no_document_changed_for_a_rollback),
    ("DocumentChanged reports net changes", document_changed_reports_net_changes),
    ("no DocumentChanged for an empty commit", empty_commit_raises_no_document_changed),
    ("DocumentChanged inside a group: at each commit, not at Assimilate", document_changed_inside_a_group),
]
