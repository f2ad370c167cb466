"""The provider-neutral message model: parts, history rules, repairs and persistence."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from paracore.core.messages import (
    Message,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolResultPart,
    Usage,
    add_user_text,
    close_dangling_calls,
    dump_history,
    load_history,
    validate_history,
)


def call(id, name="create_wall", **arguments):
    return ToolCallPart(id=id, name=name, arguments=arguments)


def result(call_id, name="create_wall", content="ok", is_error=False):
    return ToolResultPart(call_id=call_id, name=name, content=content, is_error=is_error)


def assistant(*parts):
    return Message(role="assistant", parts=list(parts))


def user(*parts):
    return Message(role="user", parts=list(parts))


def good_history():
    """A two-turn conversation with thinking, a parallel batch and an error result."""
    return [
        Message.user_text("Create two walls."),
        assistant(
            ThinkingPart(text="Two walls on Level 1.", signature="sig==", provider="anthropic"),
            TextPart(text="Creating them."),
            call("c1", level="Level 1"),
            call("c2", level="Level 1"),
        ),
        user(result("c1"), result("c2", content="No level named 'L3'. Levels: Level 1, Roof.", is_error=True)),
        Message.assistant_text("One wall is done; the other failed."),
        Message.user_text("Thanks."),
        Message.assistant_text("You're welcome."),
    ]


# ---- parts and messages --------------------------------------------------------------------

def test_message_helpers_read_parts_by_kind():
    history = good_history()
    assert history[0].text == "Create two walls."
    assert history[0].role == "user"
    assert [c.id for c in history[1].tool_calls] == ["c1", "c2"]
    assert history[1].text == "Creating them."
    assert history[1].thinking[0].signature == "sig=="
    assert [r.call_id for r in history[2].tool_results] == ["c1", "c2"]
    assert history[2].tool_results[1].is_error
    assert Message.user_results([result("c9")]).parts == [result("c9")]


def test_text_joins_all_text_parts_without_separator():
    message = assistant(TextPart(text="Hel"), call("c1"), TextPart(text="lo"))
    assert message.text == "Hello"


@pytest.mark.parametrize(
    "role, part",
    [("user", call("c1")), ("user", ThinkingPart(text="hm")), ("assistant", result("c1"))],
)
def test_a_part_in_the_wrong_role_is_refused(role, part):
    with pytest.raises(ValidationError, match="cannot hold"):
        Message(role=role, parts=[part])


def test_parts_are_discriminated_by_kind_when_loaded():
    message = Message.model_validate(
        {"role": "assistant", "parts": [{"kind": "thinking", "redacted_data": "xyz", "provider": "anthropic"},
                                        {"kind": "tool_call", "id": "c1", "name": "n", "arguments": {}}]}
    )
    assert isinstance(message.parts[0], ThinkingPart) and message.parts[0].redacted_data == "xyz"
    assert isinstance(message.parts[1], ToolCallPart)


def test_parts_are_frozen():
    part = TextPart(text="a")
    with pytest.raises(ValidationError):
        part.text = "b"


def test_usage_adds_and_sums():
    a = Usage(input_tokens=10, output_tokens=2, cache_write_tokens=3, cache_read_tokens=4)
    b = Usage(input_tokens=1, output_tokens=1, cache_write_tokens=1, cache_read_tokens=1)
    assert a + b == Usage(input_tokens=11, output_tokens=3, cache_write_tokens=4, cache_read_tokens=5)
    assert sum([a, b]) == a + b
    assert Usage() + Usage() == Usage()
    assert a.prompt_tokens == 17


# ---- validate_history: good forms ------------------------------------------------------------

def test_a_good_history_has_no_problems():
    assert validate_history(good_history()) == []


def test_an_empty_history_and_a_single_question_are_valid():
    assert validate_history([]) == []
    assert validate_history([Message.user_text("Hi")]) == []


def test_results_may_be_followed_by_text_in_the_same_user_message():
    history = [Message.user_text("go"), assistant(call("c1")), user(result("c1"), TextPart(text="and then?"))]
    assert validate_history(history) == []


def test_results_may_come_in_any_order():
    history = [Message.user_text("go"), assistant(call("c1"), call("c2")), user(result("c2"), result("c1"))]
    assert validate_history(history) == []


# ---- validate_history: each bad form -------------------------------------------------------

def only(problems):
    assert len(problems) == 1, problems
    return problems[0]


def test_history_must_start_with_user():
    problem = only(validate_history([Message.assistant_text("Hello"), Message.user_text("Hi")]))
    assert "must start with a user message" in problem


def test_consecutive_user_messages_are_flagged_not_merged():
    history = [Message.user_text("a"), Message.user_text("b")]
    problem = only(validate_history(history))
    assert "messages[1] and messages[0] are both user messages" in problem
    assert len(history) == 2


def test_consecutive_assistant_messages_are_flagged():
    history = [Message.user_text("a"), Message.assistant_text("b"), Message.assistant_text("c")]
    assert "both assistant messages" in only(validate_history(history))


def test_an_empty_message_is_flagged():
    assert "has no parts" in only(validate_history([Message(role="user", parts=[])]))


def test_a_call_without_result_is_flagged():
    history = [Message.user_text("go"), assistant(call("c1"), call("c2")), user(result("c1"))]
    assert only(validate_history(history)) == "tool call 'c2' (create_wall) in messages[1] has no result in messages[2]"


def test_a_duplicated_result_is_flagged():
    history = [Message.user_text("go"), assistant(call("c1")), user(result("c1"), result("c1"))]
    assert "has 2 results" in only(validate_history(history))


def test_an_extra_result_is_flagged():
    history = [Message.user_text("go"), assistant(call("c1")), user(result("c1"), result("zz"))]
    assert only(validate_history(history)) == "tool result for 'zz' (create_wall) in messages[2] does not answer a call of messages[1]"


def test_a_result_not_right_after_its_call_is_flagged():
    history = [
        Message.user_text("go"), assistant(call("c1")), user(result("c1")),
        Message.assistant_text("done"), user(result("c1")),
    ]
    assert "messages[4] does not answer a call of messages[3]" in only(validate_history(history))


def test_a_result_in_the_first_message_is_flagged():
    assert "answers no call" in only(validate_history([user(result("c1"))]))


def test_results_after_a_user_message_are_flagged():
    history = [Message.user_text("go"), assistant(call("c1")), user(result("c1")), user(result("c1"))]
    problems = validate_history(history)
    assert any("both user messages" in p for p in problems)
    assert any("messages[3] does not answer a call of messages[2]" in p for p in problems)


def test_calls_followed_by_an_assistant_message_are_flagged():
    history = [Message.user_text("go"), assistant(call("c1")), Message.assistant_text("oops")]
    problems = validate_history(history)
    assert "messages[1] has tool calls but messages[2] is not the user message with their results" in problems


def test_unanswered_calls_at_the_end_are_flagged():
    history = [Message.user_text("go"), assistant(call("c1"), call("c2", name="move"))]
    assert only(validate_history(history)) == "messages[1] ends the history with unanswered tool calls: 'c1' (create_wall), 'c2' (move)"


def test_text_before_results_is_flagged():
    history = [Message.user_text("go"), assistant(call("c1")), user(TextPart(text="wait"), result("c1"))]
    assert "tool results must come first" in only(validate_history(history))


def test_a_result_naming_another_tool_is_flagged():
    history = [Message.user_text("go"), assistant(call("c1")), user(result("c1", name="delete"))]
    assert "names tool 'delete' but the call was to 'create_wall'" in only(validate_history(history))


def test_a_call_id_reused_in_a_later_turn_is_flagged():
    history = [
        Message.user_text("go"), assistant(call("c1")), user(result("c1")),
        assistant(call("c1")), user(result("c1")),
    ]
    assert "tool call id 'c1' is used 2 times" in only(validate_history(history))


# ---- repairs -------------------------------------------------------------------------------

def test_close_dangling_calls_answers_calls_at_the_end():
    history = [Message.user_text("go"), assistant(call("c1"), call("c2"))]
    closed = close_dangling_calls(history)
    assert validate_history(closed) == []
    assert closed[-1] == user(
        ToolResultPart(call_id="c1", name="create_wall", content="cancelled", is_error=True),
        ToolResultPart(call_id="c2", name="create_wall", content="cancelled", is_error=True),
    )
    assert len(history) == 2  # the input is not changed


def test_close_dangling_calls_completes_a_partial_batch_before_its_text():
    history = [Message.user_text("go"), assistant(call("c1"), call("c2")), user(result("c1"), TextPart(text="hm"))]
    closed = close_dangling_calls(history, reason="The user cancelled the turn before this call ran.")
    assert validate_history(closed) == []
    assert [p.kind for p in closed[2].parts] == ["tool_result", "tool_result", "text"]
    assert closed[2].parts[1].content == "The user cancelled the turn before this call ran."
    assert closed[2].parts[1].is_error


def test_close_dangling_calls_inserts_results_before_a_following_assistant_message():
    history = [Message.user_text("go"), assistant(call("c1")), Message.assistant_text("later")]
    closed = close_dangling_calls(history)
    assert [m.role for m in closed] == ["user", "assistant", "user", "assistant"]
    assert closed[2].tool_results[0].call_id == "c1"


def test_close_dangling_calls_leaves_a_valid_history_alone():
    assert close_dangling_calls(good_history()) == good_history()


def test_add_user_text_after_a_cancelled_turn_keeps_roles_alternating():
    closed = close_dangling_calls([Message.user_text("go"), assistant(call("c1"))])
    history = add_user_text(closed, "Never mind, do something else.")
    assert validate_history(history) == []
    assert len(history) == 3
    assert history[-1].text == "Never mind, do something else."


def test_add_user_text_appends_a_message_after_an_assistant_reply():
    history = add_user_text(good_history(), "One more.")
    assert len(history) == 7 and history[-1] == Message.user_text("One more.")
    assert add_user_text([], "Hi") == [Message.user_text("Hi")]


# ---- persistence ---------------------------------------------------------------------------

def provider_rich_history():
    """Everything the provider adapters must round-trip, in one history."""
    return [
        Message.user_text("Ünïcode ✓ and \"quotes\""),
        assistant(
            ThinkingPart(text="plan", signature="EqQBCkYIBx==", provider="anthropic"),
            ThinkingPart(redacted_data="EmwKAhgBEgy3va3pzix==", provider="anthropic"),
            ThinkingPart(text="summary", provider="openai",
                         provider_data={"id": "rs_1", "encrypted_content": "gAAAA", "summary": [{"type": "summary_text", "text": "summary"}]}),
            TextPart(text="Working.", provider_data={"gemini": {"thought_signature": "CiQB"}}),
            ToolCallPart(id="call_1", name="create_wall", arguments={"z": 1, "a": None, "nested": {"y": [1.5, 2]}},
                         provider_data={"gemini": {"thought_signature": "Cx=="}, "openai": {"item_id": "fc_1"}}),
            ToolCallPart(id="call_2", name="move", arguments={}, raw_arguments="{not json"),
        ),
        user(result("call_1"), ToolResultPart(call_id="call_2", name="move", content="Arguments were not valid JSON.", is_error=True)),
        Message.assistant_text("Done."),
    ]


def test_history_round_trips_byte_identically():
    history = provider_rich_history()
    text = dump_history(history)
    loaded = load_history(text)
    assert loaded == history
    assert dump_history(loaded) == text


def test_round_trip_keeps_part_order_and_argument_order():
    loaded = load_history(dump_history(provider_rich_history()))
    assert [p.kind for p in loaded[1].parts] == ["thinking", "thinking", "thinking", "text", "tool_call", "tool_call"]
    assert list(loaded[1].tool_calls[0].arguments) == ["z", "a", "nested"]
    assert loaded[1].tool_calls[0].arguments["a"] is None


def test_dump_is_one_message_per_line_and_leaves_out_none_fields():
    text = dump_history(good_history())
    lines = text.splitlines()
    assert lines[0] == '{"format":"paracore-history","version":1,"messages":['
    assert len(lines) == 2 + len(good_history())
    assert '"provider_data"' not in text and '"redacted_data"' not in text
    assert json.loads(text)["messages"][0] == {"role": "user", "parts": [{"kind": "text", "text": "Create two walls."}]}


def test_empty_history_round_trips():
    assert load_history(dump_history([])) == []


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", "invalid JSON at line 1, column 2"),
        ("[]", '"format": "paracore-history"'),
        ('{"format": "paracore-history", "version": 9, "messages": []}', "version 9 is not supported"),
        ('{"format": "paracore-history", "version": 1, "messages": {}}', '"messages" must be a list'),
    ],
)
def test_load_history_says_what_is_wrong(text, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[")):
        load_history(text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(), children, max_size=3),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(arguments=st.dictionaries(st.text(), json_values, max_size=4), text=st.text(), content=st.text())
def test_any_json_arguments_and_text_round_trip(arguments, text, content):
    history = [
        Message.user_text(text),
        assistant(ToolCallPart(id="c1", name="t", arguments=arguments)),
        user(result("c1", name="t", content=content)),
    ]
    dumped = dump_history(history)
    assert load_history(dumped) == history
    assert dump_history(load_history(dumped)) == dumped
