"""The scripted turns the undo tests play: two walls in two steps, one tool call each."""
from __future__ import annotations

WALL_A = {"level": "Level 1", "start": [0, 0], "end": [5, 0]}
WALL_B = {"level": "Level 1", "start": [0, 3], "end": [5, 3]}


def call(call_id, name, arguments):
    return {"id": call_id, "name": name, "arguments": arguments}


TWO_STEPS = [{"tool_calls": [call("a1", "create_wall", WALL_A)]},
             {"tool_calls": [call("a2", "create_wall", WALL_B)]},
             {"text": "Two walls."}]
