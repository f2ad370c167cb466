"""Seeded random turns on the duplex, for the fault-injection suite.

A turn is 0–4 tool steps (1–3 calls each, parallel calls in one step sometimes) ending with a
text reply. The *shape* of a turn (how many steps, how many calls, reads or writes) is drawn
when the turn is planned; the *arguments* are drawn when the agent asks for the step, from the
live model (``World``), the way a model picks ids from the results it has just read. So a
step can name the wall created one step earlier, and a cancel sweep can replay one shape many
times over a model that keeps changing.

Every call is a real tool of the catalogue with valid arguments (shapes from
lib/paracore/demos/*.json), except the occasional ``wrong`` call a model makes (a count of 0, an
unknown level) which the registry or the tool refuses.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

WRITES = ("create_wall", "place_doors", "set_parameter", "move", "delete")
# Weights: writes dominate, so that most steps reach a transaction (where the faults bite).
_ACTION_WEIGHTS = {
    "search": 3, "get_parameters": 2, "overview": 1, "element_info": 1, "working_set_add": 1,
    "working_set_remove": 1, "get_working_set": 0.5,
    "create_wall": 3, "place_doors": 2.5, "set_parameter": 3, "move": 1, "delete": 1.5, "wrong": 0.5,
}
CATEGORIES = ("Walls", "Doors", "Windows", "Rooms", "Floors", "Furniture")
LEVELS = ("Level 1", "Level 2")
PARAMETERS = ("Comments", "Mark", "Length", "Unconnected Height", "Level")
WORDS = ("done", "the", "walls", "doors", "are", "in", "place", "and", "your", "working", "set", "holds",
         "them", "now", "I", "checked", "model", "again", "nothing", "else", "changed")


@dataclass(frozen=True)
class World:
    """What the model "knows" when it writes a step: ids of live elements, read on the main thread."""

    walls: tuple[int, ...]
    doors: tuple[int, ...]
    created: tuple[int, ...]          # live walls, doors and windows the agent (or anyone) created
    created_walls: tuple[int, ...]
    working_set: tuple[int, ...]

    @classmethod
    def read(cls, sandbox, original_max_id: int) -> "World":
        def read():
            from Autodesk.Revit import DB
            from paracore.revit.context import id_value

            def ids(bic):
                collector = DB.FilteredElementCollector(sandbox.doc).OfCategory(bic).WhereElementIsNotElementType()
                return tuple(sorted(id_value(e.Id) for e in collector))
            walls = ids(DB.BuiltInCategory.OST_Walls)
            doors = ids(DB.BuiltInCategory.OST_Doors)
            windows = ids(DB.BuiltInCategory.OST_Windows)
            created = tuple(sorted(i for i in walls + doors + windows if i > original_max_id))
            return cls(walls, doors, created, tuple(i for i in walls if i > original_max_id),
                       tuple(sandbox.session.working_set.ids))
        return sandbox.on_main_thread(read)


@dataclass(frozen=True)
class StepShape:
    """One tool step: the kinds of its calls, in order (parallel calls when more than one)."""

    actions: tuple[str, ...]

    @property
    def writes(self) -> bool:
        return any(a in WRITES for a in self.actions)


@dataclass(frozen=True)
class TurnShape:
    steps: tuple[StepShape, ...]
    reply_words: int

    @property
    def step_count(self) -> int:
        """Model calls of the turn: the tool steps and the final text."""
        return len(self.steps) + 1


def draw_shape(rng: random.Random, max_steps: int = 4) -> TurnShape:
    """A turn's shape: 0–``max_steps`` tool steps (mostly 1–3), then a text reply."""
    count = rng.choices(range(max_steps + 1), weights=[1, 4, 4, 3, 2][:max_steps + 1])[0]
    steps = []
    for _ in range(count):
        calls = rng.choices((1, 2, 3), weights=(6, 3, 1))[0]   # parallel calls one step in three
        names = list(_ACTION_WEIGHTS)
        actions = tuple(rng.choices(names, weights=[_ACTION_WEIGHTS[n] for n in names], k=calls))
        steps.append(StepShape(actions))
    return TurnShape(tuple(steps), reply_words=rng.randint(1, 12))


@dataclass
class StepPlanner:
    """Writes the steps of one turn, lazily: step i is drawn when the model is asked for it.

    ``world`` reads the live model; ``call_prefix`` makes call ids unique in the session
    (Anthropic wants ^[a-zA-Z0-9_-]+$). A step, once drawn, is kept: a restarted stream plays
    the same step again, as a provider answering the same request would.
    """

    shape: TurnShape
    rng: random.Random
    world: Any                      # () -> World
    call_prefix: str
    _steps: dict[int, dict] = field(default_factory=dict)

    def step(self, index: int) -> dict:
        if index not in self._steps:
            self._steps[index] = self._draw(index)
        return self._steps[index]

    def drawn(self, index: int) -> bool:
        return index in self._steps

    def _draw(self, index: int) -> dict:
        if index >= len(self.shape.steps):
            words = [self.rng.choice(WORDS) for _ in range(self.shape.reply_words)]
            return {"text": " ".join(words).capitalize() + "."}
        world = self.world()
        calls = [self._call(action, world, f"{self.call_prefix}_s{index}_c{n}")
                 for n, action in enumerate(self.shape.steps[index].actions)]
        return {"tool_calls": calls}

    # -- one call per action ---------------------------------------------------------------------

    def _call(self, action: str, world: World, call_id: str) -> dict:
        name, arguments = getattr(self, f"_{action}")(world)
        return {"id": call_id, "name": name, "arguments": arguments}

    def _some(self, ids, most: int = 3) -> list[int]:
        ids = list(ids)
        return self.rng.sample(ids, self.rng.randint(1, min(most, len(ids)))) if ids else []

    def _ids_or_working_set(self, ids) -> list[int] | None:
        """Explicit ids, or None (the working set) one time in three, as models do."""
        chosen = self._some(ids)
        return None if not chosen or self.rng.random() < 0.33 else chosen

    def _search(self, world):
        arguments = {"category": self.rng.choice(CATEGORIES), "level": self.rng.choice(LEVELS + (None,)),
                     "to_working_set": self.rng.choice(("replace", "add", None))}
        return "search_elements", arguments

    def _get_parameters(self, world):
        names = self.rng.sample(PARAMETERS, self.rng.randint(1, 3))
        return "get_parameters", {"element_ids": self._ids_or_working_set(world.walls + world.doors),
                                  "names": names}

    def _overview(self, world):
        return "get_model_overview", {}

    def _element_info(self, world):
        return "get_element_info", {"element_ids": self._ids_or_working_set(world.created or world.doors)}

    def _working_set_add(self, world):
        return "add_to_working_set", {"element_ids": self._some(world.created + world.doors) or [1]}

    def _working_set_remove(self, world):
        return "remove_from_working_set", {"element_ids": self._some(world.working_set or world.walls)}

    def _get_working_set(self, world):
        return "get_working_set", {}

    def _create_wall(self, world):
        x, y = self.rng.randint(-60, -12), self.rng.randint(-30, 30)
        length = self.rng.randint(4, 12)
        arguments = {"level": self.rng.choice(LEVELS), "start": [f"{x} m", f"{y} m"],
                     "end": [f"{x + length} m", f"{y} m"]}
        if self.rng.random() < 0.3:
            arguments["height"] = f"{self.rng.choice((2500, 3000, 3500))} mm"
        return "create_wall", arguments

    def _place_doors(self, world):
        # The wall just created (the working set after create_wall), an explicit wall, or null.
        walls = world.created_walls or world.walls   # none left when a delete took the working set's walls
        wall_id = None if not walls or self.rng.random() < 0.4 else self.rng.choice(walls)
        return "place_doors_on_wall", {"wall_id": wall_id, "count": self.rng.randint(1, 3)}

    def _set_parameter(self, world):
        name = self.rng.choice(("Comments", "Comments", "Mark"))
        value = f"{name[0]}-{self.rng.randint(1, 999)}"
        return "set_parameter", {"element_ids": self._ids_or_working_set(world.created or world.walls),
                                 "name": name, "value": value, "preview": self.rng.random() < 0.15}

    def _move(self, world):
        offset = [f"{self.rng.randint(-2, 2)} m", f"{self.rng.randint(-2, 2)} m"]
        return "move_elements", {"element_ids": self._ids_or_working_set(world.created_walls), "offset": offset}

    def _delete(self, world):
        return "delete_elements", {"element_ids": self._ids_or_working_set(world.created)}

    def _wrong(self, world):
        """A call a model gets wrong: the registry or the tool refuses it with an error result."""
        return self.rng.choice((
            ("place_doors_on_wall", {"wall_id": None, "count": 0}),
            ("create_wall", {"level": "Level 9", "start": [0, 0], "end": [5, 0]}),
            ("set_parameter", {"element_ids": [999_999], "name": "Comments", "value": "x"}),
            ("get_parameters", {"element_ids": "all", "names": ["Mark"]}),
            ("no_such_tool", {}),
        ))


def user_text(rng: random.Random) -> str:
    return rng.choice(("Add a wall and some doors.", "Tidy up the comments.", "What is in the working set?",
                       "Move the new walls a bit.", "Delete what you made.", "Mark the doors."))
