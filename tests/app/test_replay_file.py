"""The replay file: the docs/replay.md example parses, and every malformed form says where and what."""
import json

import pytest

from paracore.llm.base import CancelToken, ModelRequest, final_response
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import Message, ToolResultPart
from paracore.app.replay_file import Replay, ReplayFileError, load_replay

# The example of docs/replay.md.
DESIGN_EXAMPLE = """\
{
  "model": "duplex",
  "turns": [
    {"user": "Create a 30-meter long curved wall.",
     "steps": [
       {"tool_calls": [{"id": "c1", "name": "create_curved_wall",
                        "arguments": {"level": "Level 1", "center": [0, 0], "radius": 10, "length": 30}}]},
       {"text": "Done. The curved wall is now your working set."}
     ]}
  ]
}
"""


def test_the_design_example_parses():
    replay = load_replay(DESIGN_EXAMPLE)
    assert isinstance(replay, Replay)
    assert replay.model == "duplex"
    (turn,) = replay.turns
    assert turn.user == "Create a 30-meter long curved wall."
    call = turn.steps[0].tool_calls[0]
    assert (call.id, call.name, call.approval) == ("c1", "create_curved_wall", None)
    assert call.arguments == {"level": "Level 1", "center": [0, 0], "radius": 10, "length": 30}
    assert turn.reply == "Done. The curved wall is now your working set."


def test_a_replay_loads_from_a_path_and_model_is_optional(tmp_path):
    path = tmp_path / "one.json"
    document = json.loads(DESIGN_EXAMPLE)
    del document["model"]
    path.write_text(json.dumps(document), encoding="utf-8-sig")  # as Notepad saves it
    assert load_replay(path).model is None
    assert load_replay(str(path)).turns[0].steps[1].text.startswith("Done.")


def test_the_scripted_model_plays_every_turn_with_the_files_approvals():
    replay = load_replay(json.dumps({"turns": [
        {"user": "Delete the doors.", "steps": [
            {"tool_calls": [{"id": "d1", "name": "delete_elements", "arguments": {"ids": [7]}, "approval": "deny"}]},
            {"text": "I did not delete them."}]},
        {"user": "Thanks.", "steps": [{"text": "You're welcome."}]},
    ]}))
    model = replay.scripted_model()
    assert isinstance(model, ScriptedModel) and model.approval_for("d1") == "deny"
    history = [Message.user_text(replay.turns[0].user)]
    for step_text in [None, "I did not delete them."]:
        response = final_response(model.stream(ModelRequest(system="", messages=history), CancelToken()))
        history.append(response.message)
        if step_text is None:
            history.append(Message.user_results([ToolResultPart(call_id="d1", name="delete_elements",
                                                                content="The user denied this call.", is_error=True)]))
        else:
            assert response.message.text == step_text
    model.assert_turn_complete(0)
    history.append(Message.user_text(replay.turns[1].user))
    final_response(model.stream(ModelRequest(system="", messages=history), CancelToken()))
    model.assert_complete()


def turns(*steps, user="Do it."):
    return json.dumps({"turns": [{"user": user, "steps": list(steps)}]})


CALL = {"id": "c1", "name": "create_wall", "arguments": {}}
REPLY = {"text": "Done."}


@pytest.mark.parametrize(
    "text, problems",
    [
        pytest.param('{"turns": [\n  {"user": "x", "steps": [}]}', ["not valid JSON: line 2, column 27: Expecting value"], id="invalid JSON"),
        pytest.param("", ['the file is empty; a replay is a JSON object {"turns": [...]}'], id="empty"),
        pytest.param("[]", ['the file must be a JSON object {"turns": [...]}, not a list'], id="not an object"),
        pytest.param("{}", ['"turns" is missing'], id="no turns key"),
        pytest.param('{"turns": {}}', ['"turns" must be a list (got an object)'], id="turns not a list"),
        pytest.param('{"turns": []}', ['"turns" is empty; add at least one {"user": "...", "steps": [...]} turn'], id="no turns"),
        pytest.param('{"model": 3, "turns": [], "title": "x"}',
                     ['"model" must be a string (got the number 3)', 'unknown key "title"; expected "model", "toolsets" and "turns"'],
                     id="bad top-level keys"),
        pytest.param('{"turns": ["hello"]}', ['turn 1: the turn must be a JSON object (got "hello")'], id="turn not an object"),
        pytest.param(json.dumps({"turns": [{"steps": [REPLY]}]}), ['turn 1: "user" is missing'], id="no user"),
        pytest.param(turns(REPLY, user=""), ['turn 1: "user" must not be empty'], id="empty user"),
        pytest.param(json.dumps({"turns": [{"user": "x"}]}), ['turn 1: "steps" is missing'], id="no steps key"),
        pytest.param(turns(), ['turn 1: "steps" is empty; end the turn with a {"text": "..."} step (the reply)'], id="no steps"),
        pytest.param(turns({"text": "a", "tool_calls": [CALL]}),
                     ['turn 1, step 1: a step must have either "tool_calls" or "text"; this one has both'], id="both"),
        pytest.param(turns({}, REPLY),
                     ['turn 1, step 1: a step must have either "tool_calls" or "text"; this one has neither'], id="neither"),
        pytest.param(turns({"tool_calls": []}, REPLY),
                     ['turn 1, step 1: "tool_calls" is empty; list at least one call, or make this a {"text": ...} step'],
                     id="empty tool_calls"),
        pytest.param(turns(REPLY, {"tool_calls": [CALL]}, REPLY),
                     ["turn 1, step 1: a text step must be the last step of its turn (it is the turn's reply); "
                      "move it to the end or remove the steps after it"], id="text not last"),
        pytest.param(turns({"tool_calls": [CALL]}),
                     ['turn 1 ends with a tool_calls step; add a final {"text": "..."} step with the reply'], id="no final text"),
        pytest.param(turns({"tool_calls": [CALL, CALL]}, REPLY),
                     ['turn 1, step 1, tool call 2: call id "c1" is already used by turn 1, step 1, tool call 1; '
                      "call ids must be unique across the file"], id="duplicate id in a step"),
        pytest.param(json.dumps({"turns": [{"user": "a", "steps": [{"tool_calls": [CALL]}, REPLY]},
                                           {"user": "b", "steps": [{"tool_calls": [CALL]}, REPLY]}]}),
                     ['turn 2, step 1, tool call 1: call id "c1" is already used by turn 1, step 1, tool call 1; '
                      "call ids must be unique across the file"], id="duplicate id across turns"),
        pytest.param(turns({"tool_calls": [dict(CALL, arguments=[1, 2])]}, REPLY),
                     ['turn 1, step 1, tool call 1: "arguments" must be a JSON object (got a list)'], id="arguments not an object"),
        pytest.param(turns({"tool_calls": [{"name": "x", "arguments": {}}]}, REPLY),
                     ['turn 1, step 1, tool call 1: "id" is missing'], id="call without id"),
        pytest.param(turns({"tool_calls": [{"id": "c1", "arguments": {}}]}, REPLY),
                     ['turn 1, step 1, tool call 1: "name" is missing'], id="call without name"),
        pytest.param(turns({"tool_calls": [{"id": "c1", "name": "x"}]}, REPLY),
                     ['turn 1, step 1, tool call 1: "arguments" is missing'], id="call without arguments"),
        pytest.param(turns({"tool_calls": [{"id": 1, "name": "x", "arguments": {}}]}, REPLY),
                     ['turn 1, step 1, tool call 1: "id" must be a string (got the number 1)'], id="numeric id"),
        pytest.param(turns({"tool_calls": [dict(CALL, approval="maybe")]}, REPLY),
                     ['turn 1, step 1, tool call 1: "approval" must be "approve" or "deny" (got "maybe")'], id="bad approval"),
        pytest.param(turns({"tool_calls": [dict(CALL, aproval="deny")]}, REPLY),
                     ['turn 1, step 1, tool call 1: unknown key "aproval"; expected "id", "name", "arguments" and optionally "approval"'],
                     id="misspelt key"),
        pytest.param(turns({"text": 5}), ['turn 1, step 1: "text" must be a string (got the number 5)'], id="text not a string"),
    ],
)
def test_a_malformed_replay_names_the_place_and_what_is_expected(text, problems):
    with pytest.raises(ReplayFileError) as raised:
        load_replay(text)
    assert raised.value.problems == problems
    assert str(raised.value).startswith("invalid replay file (given as text):\n  - ")


def test_all_problems_are_reported_at_once():
    text = json.dumps({"turns": [{"user": "", "steps": [{"tool_calls": []}, {}]}]})
    with pytest.raises(ReplayFileError) as raised:
        load_replay(text)
    assert len(raised.value.problems) == 3


def test_a_missing_file_is_a_clear_error(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(ReplayFileError, match="the file does not exist; check the path") as raised:
        load_replay(missing)
    assert raised.value.source == str(missing)


def test_a_file_path_is_named_in_the_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(ReplayFileError, match=f"invalid replay file {path}:\n  - not valid JSON: line 1, column 2"):
        load_replay(path)


def test_replay_file_error_is_a_value_error():
    assert issubclass(ReplayFileError, ValueError)


def test_a_failed_call_counts_unless_the_script_denies_it_or_expects_it_to_fail():
    from paracore.app.replay import failed_calls
    replay = load_replay(json.dumps({"turns": [{"user": "go", "steps": [
        {"tool_calls": [{"id": "a", "name": "create_wall", "arguments": {}},
                        {"id": "b", "name": "delete_elements", "arguments": {}, "approval": "deny"},
                        {"id": "c", "name": "move_elements", "arguments": {}, "expect_error": True},
                        {"id": "d", "name": "list_levels", "arguments": {}}]},
        {"text": "Done."}]}]}))
    result = {"turns": [{"tool_results": [
        {"id": "a", "name": "create_wall", "is_error": True, "content": "No level named 'L9'.\nLevels: L1"},
        {"id": "b", "name": "delete_elements", "is_error": True, "content": "The user denied this call."},
        {"id": "c", "name": "move_elements", "is_error": True, "content": "Nothing to move."},
        {"id": "d", "name": "list_levels", "is_error": False, "content": "L1"}]}]}
    assert failed_calls(result, replay) == ["turn 1: create_wall failed: No level named 'L9'."]
