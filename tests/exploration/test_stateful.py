"""A stateful exploration of the duplex: turns that mix working-set, selection, view (activate,
isolate, reset), writing and undo calls, and the user's own edits, in orders nobody scripted.
Each turn goes through the agent as a user's does (the model's tool calls, approvals with their
previews, the executor, the history). After every step these invariants hold:

* the working set holds only live ids;
* the active view's temporary isolation is what the last tool said ("Isolated N" shows exactly
  those N, a reset shows everything, "Nothing to reset" only when nothing was isolated);
* Undo last turn restores the model as it was before the turn, and the working set, or refuses
  and changes nothing (a user's edit above the turn);
* the history passes Anthropic's and OpenAI's pairing rules.
"""
from __future__ import annotations

import json

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from Autodesk.Revit import DB
from explore import explorer, settings, tally
from paracore.core import events as ev
from paracore.llm.scripted import ScriptedModel
from paracore.hosts.revit import undo_turn
from paracore.revit import working_set_actions
from pairing import next_request_problems
from revit_standin import snapshot

BUILDING = "duplex"
WRITES = ("set_parameter", "move_elements", "create_wall", "delete_elements", "place_doors_on_wall")


def model_elements(box) -> str:
    """The model as JSON, without its undo and redo lists (an undone turn leaves a redo entry)."""
    state = json.loads(box.on_main_thread(snapshot.document_state, box.doc))
    return json.dumps(state["elements"], sort_keys=True)


class DuplexSession(RuleBasedStateMachine):
    """One chat on the duplex; hypothesis picks the turns."""

    @initialize()
    def start(self):
        self.ex = explorer(BUILDING)
        self.ex.restore()
        self.box = self.ex.box
        self.box.session.history.clear()
        self.vocabulary = self.ex.vocabulary
        self.walls = list(self.vocabulary.ids_by_category["Walls"])
        self.plans = [name for name, view in self.vocabulary.view_objects.items()
                      if name in self.vocabulary.views]
        # view name -> isolated? (None: unknown). restore() reset every view: nothing is isolated.
        self.expected_isolation: dict[str, bool | None] = {name: False for name in self.plans}
        # Per view: the ids the last isolate left visible. Elements deleted since then (by a tool or by
        # the user) leave the view, so the invariant compares with the isolated ids still alive.
        self.isolated_ids: dict[str, set[int]] = {}
        self.undoable: list[tuple[str, list[int]]] = []       # before each writing turn: model, working set
        self.user_edited = False
        self.turns = 0
        self.agent = self.box.agent(ScriptedModel([]))   # one agent, as the pane keeps; each turn its own script

    def teardown(self):
        if hasattr(self, "ex"):
            self.ex.restore()
            self.box.session.history.clear()

    # -- helpers ----------------------------------------------------------------------------------------
    def live(self, ids) -> list[int]:
        return self.box.on_main_thread(lambda: [i for i in ids if self.box.doc.GetElement(DB.ElementId(i))])

    def active_view(self) -> str:
        return self.box.on_main_thread(lambda: self.box.host.uiapp.ActiveUIDocument.ActiveView.Name)

    def turn(self, name: str, arguments: dict) -> ev.ToolCallFinished:
        tally("state machine steps")
        before = (model_elements(self.box), list(self.box.session.working_set.ids)) if name in WRITES else None
        self.agent.model = ScriptedModel([{"tool_calls": [{"id": f"t{self.turns}", "name": name,
                                                           "arguments": arguments}]}, {"text": "Done."}])
        self.turns += 1
        events = list(self.agent.run_turn(f"Please {name}."))
        assert isinstance(events[-1], (ev.TurnFinished, ev.TurnFailed)), events[-1]
        [finished] = [e for e in events if isinstance(e, ev.ToolCallFinished)]
        if name in WRITES and not finished.is_error:
            self.undoable.append(before)
            self.user_edited = False
        return finished

    # -- working set and selection ------------------------------------------------------------------------
    @rule(ids=st.lists(st.integers(0, 10_000), max_size=5), operation=st.sampled_from(["add", "remove", "set"]))
    def change_working_set(self, ids, operation):
        pool = self.walls + self.vocabulary.ids_by_category.get("Doors", [])
        chosen = [pool[i % len(pool)] for i in ids]
        tool = {"add": "add_to_working_set", "remove": "remove_from_working_set", "set": "set_working_set"}[operation]
        self.turn(tool, {"element_ids": chosen})

    @rule()
    def select_the_working_set(self):
        self.turn("select_elements", {})

    # -- views -----------------------------------------------------------------------------------------------
    @rule(index=st.integers(0, 50))
    def activate(self, index):
        view = self.plans[index % len(self.plans)]
        finished = self.turn("activate_view", {"view": view})
        assert not finished.is_error, finished.content

    @rule(count=st.integers(1, 6), of_working_set=st.booleans())
    def isolate(self, count, of_working_set):
        view = self.active_view()
        shown = self.box.on_main_thread(lambda: sorted(working_set_actions.visible_ids(
            self.box.doc, self.box.host.uiapp.ActiveUIDocument.ActiveView)))
        arguments = {} if of_working_set else {"element_ids": (shown + self.walls)[:count]}
        finished = self.turn("isolate_in_view", arguments)
        if finished.content.startswith("Isolated"):
            self.expected_isolation[view] = True
            isolated = self.box.on_main_thread(lambda: set(working_set_actions.visible_ids(
                self.box.doc, self.box.host.uiapp.ActiveUIDocument.ActiveView)))
            assert len(isolated) == int(finished.content.split()[1]), \
                f"isolate said {finished.content.split()[1]} elements; '{view}' shows {len(isolated)}"
            self.isolated_ids[view] = isolated
        elif finished.content.startswith("Nothing was isolated"):
            self.expected_isolation[view] = False
        if "reset first" in finished.content:
            assert self.expected_isolation.get(view) is not False, \
                f"isolate said an earlier isolation of '{view}' was reset, but there was none"

    @rule()
    def reset(self):
        view = self.active_view()
        finished = self.turn("reset_view_isolation", {})
        if finished.content.startswith("Nothing to reset"):
            assert self.expected_isolation.get(view) is not True, \
                f"'{view}' was isolated by the last isolate, yet reset found nothing: {finished.content}"
        else:
            assert finished.content.startswith("Reset the temporary"), finished.content
        self.expected_isolation[view] = False

    # -- writes ------------------------------------------------------------------------------------------------
    @rule(index=st.integers(0, 500), comment=st.sampled_from(["A", "Checked", "ü", ""]))
    def set_comments(self, index, comment):
        wall = self.live([self.walls[index % len(self.walls)]])
        self.turn("set_parameter", {"element_ids": wall or None, "name": "Comments", "value": comment})

    @rule(dx=st.integers(-3, 3))
    def move_the_working_set(self, dx):
        self.turn("move_elements", {"offset": [f"{dx} m", "0 m"]})

    @rule(x=st.integers(-20, 20), length=st.integers(1, 8))
    def create_a_wall(self, x, length):
        self.turn("create_wall", {"level": "Level 1", "start": [f"{x} m", "40 m"], "end": [f"{x + length} m", "40 m"]})

    @rule(count=st.integers(1, 3))
    def doors_on_a_wall(self, count):
        ids = list(self.box.session.working_set.ids)
        walls = [i for i in self.live(ids) if i in set(self.walls)] or self.live(self.walls[:1])
        if walls:
            self.turn("place_doors_on_wall", {"wall_id": walls[0], "count": count})

    @rule()
    def delete_the_working_set(self):
        self.turn("delete_elements", {})

    # -- the user ----------------------------------------------------------------------------------------------
    @rule(index=st.integers(0, 500))
    def user_deletes_an_element(self, index):
        """The user deletes an element in Revit, outside any turn: it leaves the working set."""
        tally("state machine steps")
        def delete():
            doc = self.box.doc
            target = self.walls[index % len(self.walls)]
            if doc.GetElement(DB.ElementId(target)) is None:
                return
            transaction = DB.Transaction(doc, "User: delete")
            transaction.Start()
            doc.Delete(DB.ElementId(target))
            transaction.Commit()
        self.box.on_main_thread(delete)
        self.user_edited = True

    # -- undo ----------------------------------------------------------------------------------------------------
    @precondition(lambda self: bool(getattr(self, "undoable", None)))
    @rule()
    def undo_last_turn(self):
        tally("state machine steps")
        before_model = model_elements(self.box)
        before_ids = list(self.box.session.working_set.ids)
        result = undo_turn.undo_last_turn(self.box.runtime)
        if self.user_edited:
            assert not result.done, "Undo last turn undid a turn under the user's own edit"
        if not result.done:
            assert model_elements(self.box) == before_model, f"a refused undo changed the model: {result.message}"
            assert list(self.box.session.working_set.ids) == before_ids
            if not self.user_edited:
                self.undoable.clear()   # e.g. the turn's step left no entry: nothing left to compare
            return
        model, working_set = self.undoable.pop()
        after = model_elements(self.box)
        assert after == model, "Undo last turn did not restore the model: " + "; ".join(
            snapshot.differences(json.dumps({"elements": json.loads(model), "undo": [], "redo": []}),
                                 json.dumps({"elements": json.loads(after), "undo": [], "redo": []}), 5))
        assert list(self.box.session.working_set.ids) == self.live(working_set)
        self.expected_isolation = {view: None for view in self.expected_isolation}

    # -- invariants ------------------------------------------------------------------------------------------------
    @invariant()
    def the_working_set_holds_live_ids_only(self):
        if hasattr(self, "box"):
            ids = list(self.box.session.working_set.ids)
            assert self.live(ids) == ids, f"dead ids in the working set: {sorted(set(ids) - set(self.live(ids)))}"

    @invariant()
    def the_active_views_isolation_is_what_the_last_tool_said(self):
        if not hasattr(self, "box"):
            return
        view = self.active_view()
        expected = self.expected_isolation.get(view)
        if expected is None:
            return
        active, visible = self.box.on_main_thread(lambda: (
            self.box.host.uiapp.ActiveUIDocument.ActiveView.IsTemporaryHideIsolateActive(),
            working_set_actions.visible_ids(self.box.doc, self.box.host.uiapp.ActiveUIDocument.ActiveView)))
        assert active == expected, f"view '{view}': isolation {active}, the last tool said {expected}"
        if expected and view in self.isolated_ids:
            alive = set(self.live(sorted(self.isolated_ids[view])))
            assert set(visible) == alive, (f"view '{view}' shows {sorted(visible)}; the last isolate left "
                                           f"{sorted(alive)} of its elements alive")

    @invariant()
    def the_history_passes_the_providers_pairing_rules(self):
        if hasattr(self, "box"):
            assert next_request_problems(list(self.box.session.history)) == []


DuplexSession.TestCase.settings = settings(examples=20)
DuplexSession.TestCase.settings = DuplexSession.TestCase.settings.__class__(
    DuplexSession.TestCase.settings, stateful_step_count=15)
test_a_session_on_the_duplex_keeps_its_invariants = DuplexSession.TestCase


def test_an_isolated_element_deleted_since_leaves_the_view_and_the_isolation_holds():
    """Found by a long exploration run: the working set's delete took one of the six isolated
    elements away, and the view rightly showed five; the invariant now follows the deletions."""
    state = DuplexSession()
    try:
        state.start()
        state.change_working_set(ids=[0, 35, 234], operation="add")
        state.activate(index=18)
        state.isolate(count=6, of_working_set=False)
        state.select_the_working_set()
        isolated = state.isolated_ids[state.active_view()]
        state.delete_the_working_set()
        assert len(state.live(sorted(isolated))) < len(isolated), "the case needs an isolated element deleted"
        state.the_active_views_isolation_is_what_the_last_tool_said()
        state.the_working_set_holds_live_ids_only()
    finally:
        state.teardown()
