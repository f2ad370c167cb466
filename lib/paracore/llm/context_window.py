"""Keeping the history inside the model's context window, without breaking the provider's cache.

``trim_history(messages, budget_tokens)`` returns the history unchanged while it fits. Once it
does not, it drops the OLDEST turns, whole: a turn is a user message with text and everything
up to the next one (assistant steps, tool calls and their results), so a tool call never
loses its result and the output passes ``validate_history``. The newest turn is always kept.
The first kept user message gets a leading note, "(Earlier conversation trimmed: N turns.)",
as an extra text part of that same message, so roles still alternate.

Why drop in chunks
------------------
Providers cache the request's prefix (Anthropic's cache breakpoints, OpenAI's and Gemini's
automatic prefix caching): a request that starts with the same bytes as the last one pays
about a tenth for them. Any change at the front of the history — dropping one more turn —
makes the whole history a cache miss again. Dropping "just enough" on every call would
therefore move the front on every call once the window is full, and every call would pay
full price for the entire history.

Instead the amount to drop is rounded up to a multiple of a chunk (``drop_fraction`` of the
budget, a quarter by default) and the cut is the first turn boundary past that amount. The
function is stateless, yet the cut stays put while the history grows by less than a chunk:
the old turns' sizes do not change, so the same boundary is chosen call after call and the
cached prefix stays valid; after one chunk of growth the cut jumps forward by about a chunk.
The price is that, right after a jump, up to a chunk less history is kept than would fit.

Token counts are estimates (~4 characters per token of the messages' JSON), conservative for
English and code; pass ``count_tokens`` to use a real tokenizer.
"""
from __future__ import annotations

import json
import math
import re
from typing import Callable, Iterable, Sequence

from pydantic import BaseModel

from paracore.core.messages import Message, TextPart, ToolResultPart
from paracore.llm.pictures import image_tokens

CHARS_PER_TOKEN = 4
DEFAULT_DROP_FRACTION = 0.25

TokenCounter = Callable[[Sequence[Message]], int]

# A conservative window for each provider, when the settings give none. Local servers often
# run with a small context (Ollama's default num_ctx is a few thousand tokens), so set
# Limits.context_window_tokens to what the server is configured for.
DEFAULT_CONTEXT_WINDOWS: dict[str, int] = {
    "anthropic": 200_000,
    "openai": 272_000,
    "gemini": 1_000_000,
    "openai-compatible": 32_768,
}

_NOTE = "(Earlier conversation trimmed: {n} {turns}.)"
_NOTE_PATTERN = re.compile(r"^\(Earlier conversation trimmed: (\d+) turns?\.\)$")


def trim_note(turns: int) -> str:
    return _NOTE.format(n=turns, turns="turn" if turns == 1 else "turns")


def estimate_tokens(messages: Iterable[Message]) -> int:
    """About 4 characters per token of the messages' JSON (what the adapters send, roughly), plus
    each picture of a tool result at its providers' published price (``pictures.image_tokens``):
    a picture travels as bytes the JSON of its reference does not show."""
    messages = list(messages)
    sizes = [_json_chars(m) for m in messages]
    chars = sum(sizes) + max(len(sizes) - 1, 0) + 2  # the list's brackets and commas
    images = sum(image_tokens(i) for m in messages for r in m.tool_results for i in r.images)
    return math.ceil(chars / CHARS_PER_TOKEN) + images


def _json_chars(message: Message) -> int:
    try:
        return len(json.dumps(message.model_dump(mode="json", exclude_none=True),
                              ensure_ascii=False, separators=(",", ":")))
    except (ValueError, RecursionError):
        # A tool call whose arguments are nested a few hundred levels deep (the model wrote them)
        # is past pydantic's and json's depth limits. Measured without recursing instead: an
        # estimate that raised would fail every later request of the session.
        return _approximate_json_chars(message)


def _approximate_json_chars(value: object) -> int:
    """About as many characters as ``value``'s compact JSON, walked with an explicit stack."""
    total, pending = 0, [value]
    while pending:
        item = pending.pop()
        if isinstance(item, BaseModel):        # a message or a part: its fields, shallowly
            item = {name: getattr(item, name) for name in type(item).model_fields}
        if isinstance(item, dict):
            total += 1 + 2 * len(item)         # braces, colons and commas
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            total += 1 + len(item)             # brackets and commas
            pending.extend(item)
        elif isinstance(item, str):
            total += len(item) + 2
        elif isinstance(item, int) and not isinstance(item, bool):
            total += int(item.bit_length() * 0.30103) + 2  # str() refuses ints of 4,300+ digits
        else:
            total += len(str(item))
    return total


estimate = estimate_tokens


def estimate_text_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def history_budget(context_window_tokens: int, *, system: str = "", tools: Iterable[object] = (),
                   max_output_tokens: int | None = None, safety_fraction: float = 0.1) -> int:
    """Tokens left for the messages: the window minus the system prompt, the tool schemas, the
    reply's room and a safety margin (estimates are estimates)."""
    fixed = estimate_text_tokens(system)
    for tool in tools:
        dump = tool.model_dump(mode="json") if hasattr(tool, "model_dump") else tool
        fixed += estimate_text_tokens(json.dumps(dump, ensure_ascii=False, separators=(",", ":")))
    reserve = max_output_tokens or 0
    return max(0, int(context_window_tokens * (1 - safety_fraction)) - fixed - reserve)


def turn_starts(messages: Sequence[Message]) -> list[int]:
    """Indexes of the messages that begin a user turn: user messages that hold text.

    A user message holding only tool results continues the turn. One holding results *and*
    text (the user typed after a cancelled turn) begins a turn; its results answer the turn
    before, so they go when that turn goes.
    """
    return [i for i, m in enumerate(messages)
            if m.role == "user" and any(isinstance(p, TextPart) for p in m.parts)]


def trim_history(messages: Sequence[Message], budget_tokens: int, count_tokens: TokenCounter = estimate_tokens,
                 *, drop_fraction: float = DEFAULT_DROP_FRACTION) -> list[Message]:
    """The newest whole turns that fit ``budget_tokens``, led by a note saying how many were dropped.

    Returns a new list (the input is not changed). If even the newest turn alone does not fit,
    it is returned alone: dropping part of a turn would break it.
    """
    messages = list(messages)
    total = count_tokens(messages)
    if total <= budget_tokens:
        return messages
    cuts = [i for i in turn_starts(messages) if i > 0]
    if not cuts:
        return messages  # one turn: nothing can be dropped
    earlier = _earlier_trimmed(messages)

    # Size of everything before each cut, summed turn by turn so it never depends on what
    # follows (that is what keeps the chosen cut stable while the history grows).
    before: list[int] = []
    running, start = 0, 0
    for cut in cuts:
        running += count_tokens(messages[start:cut])
        before.append(running)
        start = cut

    note_cost = count_tokens([Message.user_text(trim_note(len(cuts) + earlier))])
    need = total + note_cost - budget_tokens
    chunk = max(1, int(budget_tokens * drop_fraction))
    target = math.ceil(need / chunk) * chunk
    first = next((k for k, size in enumerate(before) if size >= target), len(cuts) - 1)

    for k in range(first, len(cuts)):  # normally one pass; more only if the estimate was short
        trimmed = _cut(messages, cuts[k], earlier + _turns_before(messages, cuts[k]))
        if count_tokens(trimmed) <= budget_tokens or k == len(cuts) - 1:
            return trimmed
    raise AssertionError("unreachable")


def _turns_before(messages: list[Message], cut: int) -> int:
    # Messages before the first turn start (not in a valid history) count as one turn.
    starts = [i for i in turn_starts(messages) if i < cut]
    return len(starts) + (1 if not starts or starts[0] > 0 else 0)


def _earlier_trimmed(messages: list[Message]) -> int:
    """Turns an earlier trim already dropped (its note leads the first message)."""
    first = messages[0].parts[0] if messages and messages[0].parts else None
    if isinstance(first, TextPart):
        match = _NOTE_PATTERN.match(first.text)
        if match:
            return int(match.group(1))
    return 0


def _cut(messages: list[Message], cut: int, dropped_turns: int) -> list[Message]:
    first = messages[cut]
    # Its tool results answer calls of the dropped turn; an old note would be stale.
    kept_parts = [p for p in first.parts if not isinstance(p, ToolResultPart)
                  and not (isinstance(p, TextPart) and _NOTE_PATTERN.match(p.text))]
    lead = Message(role="user", parts=[TextPart(text=trim_note(dropped_turns)), *kept_parts])
    return [lead, *messages[cut + 1:]]
