"""The working-set quick buttons on the stand-in: the duplex open, each click run on Revit's main
thread (as a pushbutton runs), the Revit selection into the working set and back, isolation in
the active view, clear, and ids of deleted elements dropped.

What a test checks is re-read from the model and the session registry, not from the message."""
from __future__ import annotations

import pytest

from Autodesk.Revit import DB
from paracore.revit.dotnet import typed_list

from paracore.app.revit import quick_buttons
from paracore.core import session as sessions
from paracore.hosts.revit import document_events
from paracore.revit.documents import document_key
from revit_standin import faults, guard
from revit_standin.host import RevitHost


class Duplex:
    """The stand-in Revit with the duplex open; ``click`` runs a button on the main thread."""

    def __init__(self):
        guard.reset_main_thread()
        sessions.reset_registry_for_tests()
        self.host = RevitHost.start()
        self.doc = self.host.call(lambda: self.host.open("duplex"))
        self.uiapp = self.host.uiapp

    def close(self):
        self.host.stop()
        faults.clear()
        guard.reset_main_thread()
        sessions.reset_registry_for_tests()

    def call(self, fn):
        return self.host.call(fn)

    def click(self, button) -> str:
        return self.call(lambda: button(self.uiapp))

    # -- the model ----------------------------------------------------------------------------
    def ids(self, bic) -> list[int]:
        return self.call(lambda: [e.Id.Value for e in DB.FilteredElementCollector(self.doc).OfCategory(bic)
                                  .WhereElementIsNotElementType()])

    def select(self, ids) -> None:
        self.call(lambda: self.uiapp.ActiveUIDocument.Selection.SetElementIds(
            typed_list(DB.ElementId, [DB.ElementId(i) for i in ids])))

    def selection(self) -> list[int]:
        return self.call(lambda: [i.Value for i in self.uiapp.ActiveUIDocument.Selection.GetElementIds()])

    def working_set(self) -> list[int]:
        session = sessions.registry().get(self.call(lambda: document_key(self.doc)))
        return list(session.working_set.ids) if session is not None else []

    def view(self, name):
        return self.call(lambda: next(v for v in DB.FilteredElementCollector(self.doc).OfClass(DB.View)
                                      if v.Name == name))

    def activate(self, name) -> None:
        view = self.view(name)

        def set_active():
            self.uiapp.ActiveUIDocument.ActiveView = view
        self.call(set_active)

    def visible(self, view) -> set[int]:
        return self.call(lambda: {i.Value for i in DB.FilteredElementCollector(self.doc, view.Id)
                                  .WhereElementIsNotElementType().ToElementIds()})

    def delete(self, ids) -> None:
        def run():
            transaction = DB.Transaction(self.doc, "Delete (test)")
            transaction.Start()
            self.doc.Delete(typed_list(DB.ElementId, [DB.ElementId(i) for i in ids]))
            transaction.Commit()
        self.call(run)


@pytest.fixture
def revit():
    duplex = Duplex()
    yield duplex
    duplex.close()


@pytest.fixture
def walls(revit):
    return revit.ids(DB.BuiltInCategory.OST_Walls)


@pytest.fixture
def doors(revit):
    return revit.ids(DB.BuiltInCategory.OST_Doors)


# -- the selection into the working set ------------------------------------------------------------

def test_add_selection_puts_the_selected_elements_into_the_active_documents_session(revit, walls, doors):
    revit.select([walls[0], walls[1], doors[0]])

    message = revit.click(quick_buttons.add_selection)

    assert message == "Added 3 elements: 2 Walls, 1 Door. Working set: 3 elements (2 Walls, 1 Door)."
    assert revit.working_set() == [walls[0], walls[1], doors[0]]
    # The session is the registry's one for this document: the pane and the agent see the same set.
    key = revit.call(lambda: document_key(revit.doc))
    assert sessions.registry().get(key).title == revit.call(lambda: revit.doc.Title)


def test_adding_again_keeps_each_element_once_and_says_which_were_already_there(revit, walls):
    revit.select(walls[:2])
    revit.click(quick_buttons.add_selection)
    revit.select(walls[1:4])

    message = revit.click(quick_buttons.add_selection)

    assert message == "Added 2 elements: 2 Walls. (1 was already in it.) Working set: 4 elements (4 Walls)."
    assert revit.working_set() == walls[:4]
    assert revit.click(quick_buttons.add_selection) == (
        "All 3 selected elements are already in the working set. Working set: 4 elements (4 Walls).")


@pytest.mark.parametrize("button", [quick_buttons.add_selection, quick_buttons.remove_selection,
                                    quick_buttons.replace_with_selection])
def test_an_empty_selection_says_nothing_is_selected_and_changes_nothing(revit, walls, button):
    revit.select(walls[:2])
    revit.click(quick_buttons.add_selection)
    revit.select([])

    message = revit.click(button)

    assert message.startswith("Nothing is selected in Revit.")
    assert revit.working_set() == walls[:2]


def test_remove_selection_takes_only_members_out(revit, walls, doors):
    revit.select(walls[:3] + doors[:1])
    revit.click(quick_buttons.add_selection)
    revit.select([walls[1], doors[0], walls[5]])

    message = revit.click(quick_buttons.remove_selection)

    assert message == ("Removed 2 elements: 1 Door, 1 Wall. (1 selected was not in it.) "
                       "Working set: 2 elements (2 Walls).")
    assert revit.working_set() == [walls[0], walls[2]]
    assert revit.call(lambda: revit.doc.GetElement(DB.ElementId(walls[1]))) is not None  # still in the model
    revit.select([walls[7]])
    assert revit.click(quick_buttons.remove_selection) == (
        "The selected element is not in the working set; nothing changed. Working set: 2 elements (2 Walls).")


def test_replace_with_selection_makes_the_selection_the_whole_working_set(revit, walls, doors):
    revit.select(walls[:3])
    revit.click(quick_buttons.add_selection)
    revit.select(doors[:2])

    message = revit.click(quick_buttons.replace_with_selection)

    assert message == "The working set is now the 2 selected elements: 2 Doors."
    assert revit.working_set() == doors[:2]


# -- the working set into Revit --------------------------------------------------------------------

def test_selection_to_working_set_and_back(revit, walls, doors):
    chosen = [doors[1], walls[2], walls[3]]
    revit.select(chosen)
    revit.click(quick_buttons.add_selection)
    revit.select([walls[9]])  # the user selects something else meanwhile

    message = revit.click(quick_buttons.select_working_set)

    assert message == "Selected 3 elements in Revit: 2 Walls, 1 Door."
    assert revit.selection() == chosen
    assert revit.working_set() == chosen  # selecting does not change the set


def test_select_and_isolate_an_empty_working_set_say_so(revit, walls):
    revit.select(walls[:1])

    assert revit.click(quick_buttons.select_working_set) == "The working set is empty: nothing to select."
    assert revit.click(quick_buttons.isolate_working_set) == "The working set is empty: nothing to isolate."
    assert revit.selection() == walls[:1]


def test_isolate_skips_what_the_active_view_does_not_show(revit, walls):
    revit.activate("Level 1")
    plan = revit.view("Level 1")
    on_level_1 = sorted(revit.visible(plan) & set(walls))[:3]
    elsewhere = [w for w in walls if w not in revit.visible(plan)][:2]
    assert len(on_level_1) == 3 and len(elsewhere) == 2
    revit.select(on_level_1 + elsewhere)
    revit.click(quick_buttons.add_selection)

    message = revit.click(quick_buttons.isolate_working_set)

    assert message.startswith("Isolated 3 elements in view 'Level 1': 3 Walls. Skipped 2 elements this view "
                              f"does not show ({elsewhere[0]}, {elsewhere[1]})")
    assert revit.call(plan.IsTemporaryHideIsolateActive)
    assert revit.visible(plan) == set(on_level_1)
    assert revit.working_set() == on_level_1 + elsewhere  # isolating does not change the set


def test_isolate_again_replaces_the_previous_isolation(revit, walls):
    revit.activate("{3D}")
    view = revit.view("{3D}")
    revit.select(walls[:2])
    revit.click(quick_buttons.replace_with_selection)
    revit.click(quick_buttons.isolate_working_set)
    revit.select(walls[2:5])
    revit.click(quick_buttons.replace_with_selection)

    message = revit.click(quick_buttons.isolate_working_set)

    assert message.startswith("Isolated 3 elements in view '{3D}': 3 Walls.")
    assert revit.visible(view) == set(walls[2:5])  # not hidden by the first isolation


def test_isolate_when_the_view_shows_none_of_them_isolates_nothing(revit, walls):
    revit.activate("Roof")
    roof = revit.view("Roof")
    hidden = [w for w in walls if w not in revit.visible(roof)][:2]
    revit.select(hidden)
    revit.click(quick_buttons.add_selection)

    message = revit.click(quick_buttons.isolate_working_set)

    assert message.startswith("None of the 2 elements of the working set is shown in view 'Roof'")
    assert not revit.call(roof.IsTemporaryHideIsolateActive)


def test_clear_empties_the_working_set_and_keeps_the_elements(revit, walls, doors):
    revit.select(walls[:2] + doors[:1])
    revit.click(quick_buttons.add_selection)

    message = revit.click(quick_buttons.clear_working_set)

    assert message == "Cleared the working set (it held 3 elements: 2 Walls, 1 Door). The elements stay in the model."
    assert revit.working_set() == []
    assert revit.call(lambda: revit.doc.GetElement(DB.ElementId(doors[0]))) is not None
    assert revit.click(quick_buttons.clear_working_set) == "The working set is already empty."


# -- deleted elements -------------------------------------------------------------------------------

def test_a_button_drops_ids_of_elements_deleted_behind_its_back(revit, walls):
    revit.select(walls[:4])
    revit.click(quick_buttons.add_selection)
    revit.delete(walls[1:3])  # nobody listens to DocumentChanged here

    message = revit.click(quick_buttons.select_working_set)

    assert message == ("Selected 2 elements in Revit: 2 Walls. "
                       "2 elements that no longer exist were dropped from the working set.")
    assert revit.working_set() == [walls[0], walls[3]]
    assert revit.selection() == [walls[0], walls[3]]


def test_with_document_changed_subscribed_deleted_ids_leave_at_once(revit, walls):
    revit.call(lambda: document_events.subscribe(revit.host.application))
    try:
        revit.select(walls[:3])
        revit.click(quick_buttons.add_selection)
        revit.delete([walls[0]])
        assert revit.working_set() == walls[1:3]
        assert revit.click(quick_buttons.clear_working_set) == (
            "Cleared the working set (it held 2 elements: 2 Walls). The elements stay in the model.")
    finally:
        revit.call(lambda: document_events.unsubscribe(revit.host.application))


# -- no document ------------------------------------------------------------------------------------

def test_without_an_open_project_the_buttons_say_so():
    guard.reset_main_thread()
    host = RevitHost.start()
    try:
        for button in (quick_buttons.add_selection, quick_buttons.isolate_working_set,
                       quick_buttons.clear_working_set):
            assert host.call(lambda: button(host.uiapp)) == quick_buttons.NO_DOCUMENT
        assert quick_buttons.add_selection(None) == quick_buttons.NO_DOCUMENT
    finally:
        host.stop()
        guard.reset_main_thread()


def test_a_revit_error_becomes_a_message_not_a_traceback(revit, walls, monkeypatch):
    from paracore.revit import selection

    def refuse(uidoc, ids):
        raise RuntimeError("The selection is locked by another command.")

    monkeypatch.setattr(selection, "select", refuse)
    revit.select(walls[:1])
    revit.click(quick_buttons.add_selection)

    assert revit.click(quick_buttons.select_working_set) == (
        "Could not select the working set: The selection is locked by another command.")


def test_add_selection_keeps_the_elements_picked_inside_a_link_as_linked(revit, walls):
    from revit_standin.links import link_model, parse_link

    def pick():
        instance = link_model(revit.doc, parse_link("SampleHouse4@30,-5,90"))
        doors = DB.FilteredElementCollector(instance.GetLinkDocument()).OfCategory(
            DB.BuiltInCategory.OST_Doors).WhereElementIsNotElementType().ToElements()
        picked = [DB.Reference(d).CreateLinkReference(instance) for d in doors[:2]]
        picked.append(DB.Reference(revit.doc.GetElement(DB.ElementId(walls[0]))))
        revit.uiapp.ActiveUIDocument.Selection.SetReferences(typed_list(DB.Reference, picked))
    revit.call(pick)

    message = revit.click(quick_buttons.add_selection)

    assert message == ("Added the selection: 1 element and 2 linked (2 Doors in SampleHouse4.rvt : 1). "
                       "Working set: 3 elements (1 Wall, 2 linked Doors).")
    session = sessions.registry().get(revit.call(lambda: document_key(revit.doc)))
    assert revit.working_set() == [walls[0]] and len(session.working_set.linked) == 2
    message = revit.click(quick_buttons.replace_with_selection)
    assert message.startswith("The working set is now the selection: 1 element and 2 linked")
