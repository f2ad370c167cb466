import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paracore.llm.context_window import (
    DEFAULT_CONTEXT_WINDOWS,
    estimate_tokens,
    history_budget,
    trim_history,
    trim_note,
    turn_starts,
)
from paracore.core.messages import (
    Message,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolResultPart,
    add_user_text,
    close_dangling_calls,
    validate_history,
)


# -- building histories ---------------------------------------------------------------------------

class _Ids:
    def __init__(self):
        self.n = 0

    def next(self):
        self.n += 1
        return f"call_{self.n}"


def turn(ids, text, steps=0, size=40, reply=True):
    """One user turn: the user's text, ``steps`` tool-call rounds, then (optionally) a reply."""
    messages = [Message.user_text(text)]
    for _ in range(steps):
        call = ToolCallPart(id=ids.next(), name="create_wall", arguments={"length": 10, "note": "x" * size})
        messages.append(Message(role="assistant", parts=[TextPart(text="Working on it."), call]))
        messages.append(Message.user_results([ToolResultPart(call_id=call.id, name="create_wall",
                                                             content="y" * size)]))
    if reply:
        messages.append(Message.assistant_text("Done. " + "z" * size))
    return messages


def history(turns=6, steps=1, size=40):
    ids = _Ids()
    messages = []
    for index in range(turns):
        messages += turn(ids, f"request {index}", steps=steps, size=size)
    assert validate_history(messages) == []
    return messages


def note_of(messages):
    first = messages[0].parts[0]
    return first.text if isinstance(first, TextPart) else None


# -- examples ---------------------------------------------------------------------------------------

def test_estimate_is_about_four_characters_per_token_of_json():
    messages = history(turns=2)
    text = json.dumps([m.model_dump(mode="json", exclude_none=True) for m in messages], separators=(",", ":"))
    assert estimate_tokens(messages) == math.ceil(len(text) / 4)
    assert estimate_tokens([]) == 1  # "[]"


def test_a_history_that_fits_is_returned_unchanged():
    messages = history()
    assert trim_history(messages, estimate_tokens(messages)) == messages
    assert trim_history(messages, 10**9) == messages
    assert trim_history([], 0) == []


def test_the_oldest_turns_go_whole_and_a_note_says_how_many():
    messages = history(turns=6, steps=2)
    per_turn = estimate_tokens(messages[:5])  # one turn: user, 2 x (call, results), reply
    out = trim_history(messages, per_turn * 3)
    assert validate_history(out) == []
    kept = len(out)
    assert out[1:] == messages[-kept + 1:]  # a suffix of the history ...
    original_first = messages[-kept]
    assert out[0].role == "user" and out[0].parts[1:] == original_first.parts  # ... led by the note
    dropped = len(turn_starts(messages)) - len(turn_starts(out))
    assert note_of(out) == f"(Earlier conversation trimmed: {dropped} turns.)"
    assert estimate_tokens(out) <= per_turn * 3
    assert out[-1] == messages[-1]


def test_the_newest_turn_is_kept_whole_even_when_it_alone_is_too_big():
    ids = _Ids()
    messages = turn(ids, "old") + turn(ids, "current", steps=3, size=2000, reply=False)
    out = trim_history(messages, 100)
    assert note_of(out) == "(Earlier conversation trimmed: 1 turn.)"
    assert out[1:] == messages[3:]
    assert validate_history(out) == []


def test_a_single_turn_cannot_be_trimmed():
    messages = turn(_Ids(), "only", steps=3, size=500)
    assert trim_history(messages, 10) == messages


def test_results_that_close_a_cancelled_turn_go_with_that_turn():
    ids = _Ids()
    messages = turn(ids, "first") + turn(ids, "cancelled", steps=1, reply=False)
    # the cancelled turn's last call had no result: the agent closes it, then the user types
    call = ToolCallPart(id=ids.next(), name="delete_walls", arguments={})
    messages.append(Message(role="assistant", parts=[call]))
    messages = close_dangling_calls(messages, reason="cancelled")
    messages = add_user_text(messages, "never mind, do this instead")
    messages += [Message.assistant_text("OK.")]
    assert validate_history(messages) == []
    assert isinstance(messages[-2].parts[0], ToolResultPart)  # results + text in one user message
    out = trim_history(messages, estimate_tokens(messages[-2:]) + 20)
    assert validate_history(out) == []
    assert [p.text for p in out[0].parts] == ["(Earlier conversation trimmed: 2 turns.)",
                                              "never mind, do this instead"]
    assert out[1:] == messages[-1:]


def test_a_history_trimmed_before_keeps_counting():
    messages = history(turns=8)
    once = trim_history(messages, estimate_tokens(messages) // 2)
    first_count = len(turn_starts(messages)) - len(turn_starts(once))
    twice = trim_history(once, estimate_tokens(once) // 2)
    second_count = len(turn_starts(once)) - len(turn_starts(twice))
    assert note_of(twice) == trim_note(first_count + second_count)
    assert sum(isinstance(p, TextPart) and p.text.startswith("(Earlier") for p in twice[0].parts) == 1


def test_thinking_and_parallel_calls_stay_with_their_results():
    ids = _Ids()
    messages = []
    for index in range(5):
        a, b = ids.next(), ids.next()
        messages += [
            Message.user_text(f"turn {index}"),
            Message(role="assistant", parts=[ThinkingPart(text="hmm", signature="sig", provider="anthropic"),
                                             ToolCallPart(id=a, name="t", arguments={}),
                                             ToolCallPart(id=b, name="u", arguments={})]),
            Message.user_results([ToolResultPart(call_id=a, name="t", content="1"),
                                  ToolResultPart(call_id=b, name="u", content="2")]),
            Message.assistant_text("ok"),
        ]
    for budget in range(0, estimate_tokens(messages) + 10, 7):
        assert validate_history(trim_history(messages, budget)) == []


def test_a_custom_token_counter_is_used():
    messages = history(turns=5)
    out = trim_history(messages, 8, count_tokens=len)  # one "token" per message
    assert len(out) <= 8 and validate_history(out) == []


def test_the_cut_stays_put_while_the_history_grows_so_the_cached_prefix_survives():
    """Growing a conversation turn by turn past the window: the front moves rarely, in jumps."""
    ids = _Ids()
    full = []
    budget = 3000
    cuts, calls = [], 0
    for index in range(60):
        full += turn(ids, f"request {index}", steps=1, size=60)
        out = trim_history(full, budget)
        calls += 1
        assert estimate_tokens(out) <= budget
        assert validate_history(out) == []
        cuts.append(len(full) - len(out))  # where the kept suffix starts
    changes = sum(1 for a, b in zip(cuts, cuts[1:]) if a != b)
    trimmed_calls = sum(1 for c in cuts if c)
    assert trimmed_calls >= 30
    # dropping one turn per call would move the front on every trimmed call; chunks move it ~1 in 3
    assert changes <= trimmed_calls // 3
    # and each jump drops several turns at once
    assert max(b - a for a, b in zip(cuts, cuts[1:])) >= 3 * 5


def test_history_budget_leaves_room_for_everything_else():
    budget = history_budget(100_000, system="s" * 4000, tools=[{"name": "t", "parameters": {}}],
                            max_output_tokens=4096)
    assert budget == 90_000 - 1000 - math.ceil(len('{"name":"t","parameters":{}}') / 4) - 4096
    assert history_budget(1000, system="x" * 10_000) == 0
    assert set(DEFAULT_CONTEXT_WINDOWS) == {"anthropic", "openai", "gemini", "openai-compatible"}


# -- the property ------------------------------------------------------------------------------------

_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=60)


@st.composite
def valid_histories(draw):
    ids = _Ids()
    messages = []
    n_turns = draw(st.integers(min_value=1, max_value=7))
    for index in range(n_turns):
        last = index == n_turns - 1
        messages = add_user_text(messages, draw(_text))  # joins the results of a cancelled turn
        steps = draw(st.integers(min_value=0, max_value=3))
        for _ in range(steps):
            calls = [ToolCallPart(id=ids.next(), name=draw(st.sampled_from(["a", "b"])),
                                  arguments={"v": draw(_text)})
                     for _ in range(draw(st.integers(min_value=1, max_value=3)))]
            parts = ([TextPart(text=draw(_text))] if draw(st.booleans()) else []) + calls
            messages.append(Message(role="assistant", parts=parts))
            messages.append(Message.user_results([ToolResultPart(call_id=c.id, name=c.name, content=draw(_text),
                                                                 is_error=draw(st.booleans())) for c in calls]))
        # a turn ends with a reply, or (cancelled, or the one in progress) with tool results
        if steps == 0 or draw(st.booleans()):
            if not (last and draw(st.booleans())):
                messages.append(Message.assistant_text(draw(_text)))
    assert validate_history(messages) == [], validate_history(messages)
    return messages


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_trimming_any_valid_history_gives_a_valid_suffix_of_whole_turns_that_fits(data):
    messages = data.draw(valid_histories())
    total = estimate_tokens(messages)
    budget = data.draw(st.integers(min_value=0, max_value=total + 20))
    out = trim_history(messages, budget)

    assert validate_history(out) == []
    if total <= budget:
        assert out == messages
        return
    starts = turn_starts(messages)
    if len(starts) == 1:
        assert out == messages  # one turn: nothing to drop
        return
    # a suffix of whole turns: it begins at a turn start, and all after its first message is untouched
    cut = len(messages) - len(out)
    assert cut in starts and cut > 0
    assert out[1:] == messages[cut + 1:]
    original = messages[cut]
    assert out[0].role == "user"
    assert out[0].parts[0] == TextPart(text=trim_note(sum(1 for s in starts if s < cut)))
    assert out[0].parts[1:] == [p for p in original.parts if not isinstance(p, ToolResultPart)]
    # fits, unless only the newest turn is left
    assert estimate_tokens(out) <= budget or cut == starts[-1]


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_trimming_is_stable_under_appending(data):
    """Appending a message never moves the cut backwards, and usually not at all."""
    messages = data.draw(valid_histories())
    budget = data.draw(st.integers(min_value=50, max_value=max(50, estimate_tokens(messages))))
    before = len(messages) - len(trim_history(messages, budget))
    grown = add_user_text(messages, "one more") if messages[-1].role == "assistant" else \
        [*messages, Message.assistant_text("one more")]
    after = len(grown) - len(trim_history(grown, budget))
    assert after >= before
