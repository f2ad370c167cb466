"""The provider-neutral conversation: messages made of parts, token usage, history rules.

Every provider adapter (Anthropic, OpenAI Responses, OpenAI-compatible chat, Gemini) maps its
wire format to and from these types in its own module. The agent, the trace and the saved
sessions only ever see these.

A message is a role plus an ordered list of parts:

    user       TextPart, ToolResultPart   (tool results first, then any text; a result may
                                          carry pictures by reference, ``ToolResultPart.images``)
    assistant  TextPart, ThinkingPart, ToolCallPart   (in the order the provider produced them)

Order matters and is preserved: Anthropic wants thinking blocks passed back unchanged and in
place, OpenAI Responses wants reasoning items before the function calls they led to. All the
results of a parallel batch travel in one user message (OpenAI chat adapters split it into
``tool`` messages). Adapters drop empty text parts when sending: Anthropic refuses them.

Round-tripping provider extras
------------------------------
``ThinkingPart`` is provider-specific as a whole, so it says which provider made it
(``provider``) and keeps that provider's opaque data flat in ``provider_data``:

    Anthropic  thinking           text=thinking, signature=signature
               redacted_thinking  text="", redacted_data=data
    OpenAI     reasoning item     text=summary text, provider_data={"id": "rs_…",
               (Responses API)    "encrypted_content": "…", "summary": [...]}
    others     e.g. DeepSeek      text=reasoning_content

An adapter sends back only the thinking parts whose ``provider`` is its own and drops the
others (a signature means nothing to another vendor).

``ToolCallPart`` and ``TextPart`` are neutral, with optional extras in ``provider_data`` keyed
by provider name, so a session can switch provider and each adapter reads only its own key:

    ToolCallPart.provider_data = {"gemini": {"thought_signature": "…"},
                                  "openai": {"item_id": "fc_…"}}
    TextPart.provider_data     = {"gemini": {"thought_signature": "…"}}

History rules and consecutive messages
--------------------------------------
``validate_history`` *flags* two consecutive messages with the same role; it never merges
them, because a merge would hide the bug that produced them. The one legitimate case — the
user types after a cancelled turn whose calls were closed with error results — is handled by
``add_user_text``, which extends the trailing user message instead of adding a second one.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from paracore.core.images import ImagePart

# Why a model response ended; providers map their own reasons to these, events and traces report them.
StopReason = Literal["end_turn", "tool_use", "max_tokens", "refusal", "cancelled", "error"]

HISTORY_FORMAT = "paracore-history"
HISTORY_VERSION = 1


class _Part(BaseModel):
    # Frozen: a part is passed back to the provider exactly as received; nobody edits it.
    model_config = ConfigDict(frozen=True, extra="forbid")


class TextPart(_Part):
    """Plain text from the user or the assistant."""

    kind: Literal["text"] = "text"
    text: str
    provider_data: dict[str, Any] | None = None
    """Extras keyed by provider name, e.g. ``{"gemini": {"thought_signature": "…"}}``."""


class ThinkingPart(_Part):
    """The assistant's reasoning, kept so it can be passed back to the provider that made it."""

    kind: Literal["thinking"] = "thinking"
    text: str = ""
    signature: str | None = None
    """Anthropic's signature over the thinking text; must be sent back unchanged."""
    redacted_data: str | None = None
    """Anthropic ``redacted_thinking`` data (the text is then empty)."""
    provider: str | None = None
    """Which provider produced this part ("anthropic", "openai", …); others must drop it."""
    provider_data: dict[str, Any] | None = None
    """That provider's opaque data, flat (e.g. OpenAI's ``id`` and ``encrypted_content``)."""


class ToolCallPart(_Part):
    """The assistant asks for one tool call. ``id`` pairs it with its result."""

    kind: Literal["tool_call"] = "tool_call"
    id: str = Field(min_length=1)
    name: str
    arguments: dict[str, Any]
    raw_arguments: str | None = None
    """The argument text as the model wrote it, set only when it was not a JSON object
    (``arguments`` is then ``{}`` and the agent answers with an error result)."""
    provider_data: dict[str, Any] | None = None
    """Extras keyed by provider name, e.g. ``{"gemini": {"thought_signature": "…"}}``."""


MAX_ARGUMENT_DEPTH = 64
"""Deepest nesting of dicts and lists kept in a tool call's arguments. No tool takes more than a
few levels; JSON nested hundreds of levels deep breaks ``json.dumps`` and pydantic's serializer
(a RecursionError in every later request and every save), so deeper arguments are refused."""


def nesting_exceeds(value: Any, limit: int) -> bool:
    """Whether dicts and lists in ``value`` nest more than ``limit`` levels deep. Iterative: the
    value may be too deep for any recursive walk."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        # Only containers go on the stack: a list of 100,000 ids costs one pass, not 100,000 pops.
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class ToolResultPart(_Part):
    """The outcome of one tool call, sent back in the user message after the call."""

    kind: Literal["tool_result"] = "tool_result"
    call_id: str = Field(min_length=1)
    name: str
    """The tool's name; Gemini's function responses need it, and it makes traces readable."""
    content: str
    is_error: bool = False
    tool_references: tuple[str, ...] = ()
    """Deferred tools this result loads (use_toolset's, for a model that defers tools)."""
    images: tuple[ImagePart, ...] = ()
    """Pictures the tool shows the model (``capture_view``), by reference: the bytes are in the
    content store (``paracore.core.images``), so a saved session holds each one's hash only. Each
    adapter sends them the way its provider documents for tool results, or their description to a
    model without vision."""


Part = Annotated[Union[TextPart, ThinkingPart, ToolCallPart, ToolResultPart], Field(discriminator="kind")]

_ALLOWED_KINDS = {
    "user": {"text", "tool_result"},
    "assistant": {"text", "thinking", "tool_call"},
}


class Message(BaseModel):
    """One message of the conversation: a role and its ordered parts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Literal["user", "assistant"]
    parts: list[Part]

    @model_validator(mode="after")
    def _parts_fit_the_role(self) -> Message:
        # A tool call from the user or a result from the assistant is never meaningful,
        # so it is refused at construction rather than reported later.
        allowed = _ALLOWED_KINDS[self.role]
        wrong = sorted({p.kind for p in self.parts} - allowed)
        if wrong:
            raise ValueError(
                f"a {self.role} message cannot hold {', '.join(wrong)} parts; "
                f"it may hold only {', '.join(sorted(allowed))} parts"
            )
        return self

    @classmethod
    def user_text(cls, text: str) -> Message:
        """A user message with one text part."""
        return cls(role="user", parts=[TextPart(text=text)])

    @classmethod
    def assistant_text(cls, text: str) -> Message:
        """An assistant message with one text part."""
        return cls(role="assistant", parts=[TextPart(text=text)])

    @classmethod
    def user_results(cls, results: list[ToolResultPart]) -> Message:
        """The user message that answers a batch of tool calls (all results in one message)."""
        return cls(role="user", parts=list(results))

    @property
    def text(self) -> str:
        """All text parts joined (no separator: providers split text arbitrarily)."""
        return "".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def tool_calls(self) -> list[ToolCallPart]:
        return [p for p in self.parts if isinstance(p, ToolCallPart)]

    @property
    def tool_results(self) -> list[ToolResultPart]:
        return [p for p in self.parts if isinstance(p, ToolResultPart)]

    @property
    def thinking(self) -> list[ThinkingPart]:
        return [p for p in self.parts if isinstance(p, ThinkingPart)]


class Usage(BaseModel):
    """Tokens of one or more model calls.

    ``input_tokens`` counts only input billed at the normal rate: the prompt is
    ``input_tokens + cache_write_tokens + cache_read_tokens`` (Anthropic's convention; the
    OpenAI adapters subtract cached tokens from OpenAI's input count). ``output_tokens``
    includes reasoning tokens, which every provider bills as output.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
        )

    def __radd__(self, other: Any) -> Usage:
        # Lets sum(usages) start from 0.
        if other == 0:
            return self
        return self.__add__(other)

    @property
    def prompt_tokens(self) -> int:
        """Every input token, whatever its cache status."""
        return self.input_tokens + self.cache_write_tokens + self.cache_read_tokens


# --------------------------------------------------------------------------------------------
# History rules
# --------------------------------------------------------------------------------------------

def validate_history(messages: list[Message]) -> list[str]:
    """Return every violation of the pairing rules Anthropic and OpenAI both impose.

    An empty list means the history can be sent (once a user message ends it). The rules:
    roles alternate starting with user; no message is empty; in a user message tool results
    come before text; every tool call has exactly one result, in the message right after it,
    with the same tool name; results appear nowhere else; call ids are unique in the history;
    the history does not end with unanswered calls.
    """
    # Each message's calls and results, picked out of its parts once: the checks below read
    # most messages twice, and a history is checked before every request.
    calls = [message.tool_calls for message in messages]
    results = [message.tool_results for message in messages]
    problems: list[str] = []
    problems += _role_problems(messages)
    problems += _duplicate_call_id_problems(calls)
    for index, message in enumerate(messages):
        if message.role == "assistant":
            problems += _answer_problems(messages, calls, results, index)
        else:
            problems += _result_order_problems(message, index)
            problems += _orphan_result_problems(calls, results, index)
    return problems


def _role_problems(messages: list[Message]) -> list[str]:
    problems = []
    if messages and messages[0].role != "user":
        problems.append("messages[0] is an assistant message; a history must start with a user message")
    for index, message in enumerate(messages):
        if not message.parts:
            problems.append(f"messages[{index}] ({message.role}) has no parts; every message needs content")
        if index and message.role == messages[index - 1].role:
            problems.append(
                f"messages[{index}] and messages[{index - 1}] are both {message.role} messages; "
                "roles must alternate (put their parts in one message)"
            )
    return problems


def _duplicate_call_id_problems(calls: list[list[ToolCallPart]]) -> list[str]:
    counts = Counter(call.id for made in calls for call in made)
    return [
        f"tool call id {call_id!r} is used {n} times; call ids must be unique in a history"
        for call_id, n in counts.items()
        if n > 1
    ]


def _answer_problems(messages: list[Message], calls_of: list[list[ToolCallPart]],
                     results_of: list[list[ToolResultPart]], index: int) -> list[str]:
    """Every call of messages[index] must be answered exactly once by messages[index + 1]."""
    calls = calls_of[index]
    if not calls:
        return []
    if index + 1 == len(messages):
        names = ", ".join(f"{c.id!r} ({c.name})" for c in calls)
        return [f"messages[{index}] ends the history with unanswered tool calls: {names}"]
    answer = messages[index + 1]
    if answer.role != "user":
        return [f"messages[{index}] has tool calls but messages[{index + 1}] is not the user message with their results"]
    answers = results_of[index + 1]
    results = Counter(r.call_id for r in answers)
    problems = []
    for call in calls:
        n = results.get(call.id, 0)
        if n == 0:
            problems.append(f"tool call {call.id!r} ({call.name}) in messages[{index}] has no result in messages[{index + 1}]")
        elif n > 1:
            problems.append(f"tool call {call.id!r} ({call.name}) in messages[{index}] has {n} results in messages[{index + 1}]; it needs exactly one")
    problems += _name_mismatch_problems(calls, answers, index + 1)
    return problems


def _name_mismatch_problems(calls: list[ToolCallPart], results: list[ToolResultPart], index: int) -> list[str]:
    names = {c.id: c.name for c in calls}
    return [
        f"the result for call {r.call_id!r} in messages[{index}] names tool {r.name!r} but the call was to {names[r.call_id]!r}"
        for r in results
        if r.call_id in names and r.name != names[r.call_id]
    ]


def _orphan_result_problems(calls: list[list[ToolCallPart]], results: list[list[ToolResultPart]],
                            index: int) -> list[str]:
    """Results of messages[index] must answer calls of the message right before it."""
    if index == 0:
        return [
            f"tool result for {r.call_id!r} ({r.name}) in messages[0] answers no call; results must follow their calls"
            for r in results[0]
        ]
    if not results[index]:
        return []
    asked = {c.id for c in calls[index - 1]}
    return [
        f"tool result for {r.call_id!r} ({r.name}) in messages[{index}] does not answer a call of messages[{index - 1}]"
        for r in results[index]
        if r.call_id not in asked
    ]


def _result_order_problems(message: Message, index: int) -> list[str]:
    # Anthropic rejects a user message whose text comes before its tool results.
    seen_other = False
    for part in message.parts:
        if isinstance(part, ToolResultPart) and seen_other:
            return [f"messages[{index}] has text before a tool result; tool results must come first"]
        seen_other = seen_other or not isinstance(part, ToolResultPart)
    return []


# --------------------------------------------------------------------------------------------
# Repairs and helpers that keep a history valid
# --------------------------------------------------------------------------------------------

def close_dangling_calls(messages: list[Message], reason: str = "cancelled") -> list[Message]:
    """Answer every unanswered tool call with an error result whose content is ``reason``.

    Used after a cancel, so the history is valid for the next turn. Missing results go into
    the user message right after the call (before its text), or into a new user message when
    there is none. The input list is not changed; a new list is returned.
    """
    repaired = list(messages)
    index = 0
    while index < len(repaired):
        following = repaired[index + 1] if index + 1 < len(repaired) else None
        missing = _unanswered_calls(repaired[index], following)
        if missing:
            results = [ToolResultPart(call_id=c.id, name=c.name, content=reason, is_error=True) for c in missing]
            if following is not None and following.role == "user":
                repaired[index + 1] = _with_results(following, results)
            else:
                repaired.insert(index + 1, Message.user_results(results))
        index += 1
    return repaired


def _unanswered_calls(message: Message, following: Message | None) -> list[ToolCallPart]:
    if message.role != "assistant":
        return []
    answered = {r.call_id for r in following.tool_results} if following and following.role == "user" else set()
    return [c for c in message.tool_calls if c.id not in answered]


def _with_results(message: Message, results: list[ToolResultPart]) -> Message:
    """``message`` with ``results`` added after its existing results, before its text."""
    existing = message.tool_results
    others = [p for p in message.parts if not isinstance(p, ToolResultPart)]
    return Message(role="user", parts=[*existing, *results, *others])


def add_user_text(messages: list[Message], text: str) -> list[Message]:
    """Return the history with the user's new text added as the next user message.

    When the history already ends with a user message (the results that closed a cancelled
    turn, or a question the model never answered) the text joins that message, so roles keep
    alternating.
    """
    if messages and messages[-1].role == "user":
        last = messages[-1]
        return [*messages[:-1], Message(role="user", parts=[*last.parts, TextPart(text=text)])]
    return [*messages, Message.user_text(text)]


# --------------------------------------------------------------------------------------------
# Persistence
# --------------------------------------------------------------------------------------------

def dump_history(messages: list[Message]) -> str:
    """Serialise a history to JSON, deterministically: the same history gives the same bytes.

    One message per line (readable, diff-friendly). Fields keep their declared order,
    argument dicts keep the model's order, ``None`` fields are left out, non-ASCII stays as is.
    """
    lines = [_dump_json(m.model_dump(mode="json", exclude_none=True)) for m in messages]
    header = f'{{"format":"{HISTORY_FORMAT}","version":{HISTORY_VERSION},"messages":['
    if not lines:
        return header + "]}\n"
    return header + "\n" + ",\n".join(lines) + "\n]}\n"


def _dump_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def load_history(text: str) -> list[Message]:
    """Read a history written by ``dump_history``. Raises ``ValueError`` saying what is wrong.

    It checks the document's shape, not the pairing rules: call ``validate_history`` for those.
    """
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not a saved history: invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}") from None
    if not isinstance(document, dict) or document.get("format") != HISTORY_FORMAT:
        raise ValueError(f'not a saved history: expected a JSON object with "format": "{HISTORY_FORMAT}"')
    if document.get("version") != HISTORY_VERSION:
        raise ValueError(
            f"saved history version {document.get('version')!r} is not supported; this Paracore reads version {HISTORY_VERSION}"
        )
    raw = document.get("messages")
    if not isinstance(raw, list):
        raise ValueError('not a saved history: "messages" must be a list')
    return [Message.model_validate(m) for m in raw]
