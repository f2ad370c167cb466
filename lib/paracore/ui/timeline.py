"""The chat's timeline: its messages and tool cards in the order they happened. Pure Python.

One part of the chat's state (``paracore.ui.chat_state``): it owns the items and their lock, and
nothing else. Every mutating method returns the view parts it changed ("messages", "cards");
the chat state commits them (``paracore.ui.revisions``) and coordinates the other parts.

Each item has a ``rev`` that increases when it changes, so the view updates only the items that
changed (the streaming message). Cards of calls from MCP clients (``outside_card``) outlive the
chat's turn: the end of a turn does not cancel them, and a new or restored conversation keeps
those still waiting for the user.
"""
from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

from paracore.core import events as ev
from paracore.core.images import ImagePart, default_store
from paracore.core.messages import Message, TextPart, ThinkingPart, ToolCallPart, ToolResultPart
from paracore.ui.approvals import DECISIONS
from paracore.ui.frozen import freeze, pretty
from paracore.ui.revisions import Changed

Role = Literal["user", "assistant", "error", "notice"]
CardStatus = Literal["running", "done", "error", "denied", "cancelled"]

RESULT_PREVIEW_CHARS = 160
CONTEXT_PREFIX = "CONTEXT:"
"""The agent appends a CONTEXT block to each user message; the chat never shows it."""


@dataclass(frozen=True)
class CardPicture:
    """A picture a tool showed the model (capture_view), as the card shows it: a thumbnail of the
    stored file, which a click opens full size."""

    path: str
    width: int
    height: int
    description: str = ""


def card_pictures(images: Sequence[ImagePart]) -> tuple[CardPicture, ...]:
    """The pictures still in the store (a saved conversation may outlive a cleaned store)."""
    store = default_store()
    pictures = []
    for image in images:
        path = store.path(image.sha256)
        if path.is_file():
            pictures.append(CardPicture(str(path), image.width, image.height, image.description))
    return tuple(pictures)


@dataclass(frozen=True)
class ChatMessage:
    """A bubble of the conversation.

    role "user" / "assistant": the conversation; "error": a failed turn (``recoverable``: the
    user can simply send again); "notice": a line from Paracore itself ("Stopped.", a restore
    or save message).
    """

    id: str
    role: Role
    text: str = ""
    thinking: str = ""
    """The model's visible reasoning; shown collapsed under a "Thinking" expander."""
    thinking_expanded: bool = False
    streaming: bool = False
    """True while text still arrives (show a caret)."""
    turn: int | None = None
    recoverable: bool | None = None
    """For "error" messages."""
    rev: int = 0
    kind: Literal["message"] = "message"


@dataclass(frozen=True)
class ToolCard:
    """One tool call in the timeline, correlated by ``call_id``."""

    call_id: str
    name: str
    summary: str
    """One line: 'create_curved_wall("level": "Level 1", ...)'."""
    status: CardStatus = "running"
    arguments: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    arguments_json: str = "{}"
    """The arguments as pretty JSON, for the expander."""
    result: str | None = None
    """What went back to the model (None while running)."""
    result_preview: str = ""
    """The result's first line, shortened, for the collapsed card."""
    is_error: bool = False
    duration_ms: float | None = None
    approval: Literal["pending", "approve", "deny", "always"] | None = None
    """None: no approval was needed."""
    approval_description: str = ""
    approval_edits: Mapping[str, Any] | None = None
    """The values the user changed in the approval form, if any."""
    arguments_expanded: bool = False
    result_expanded: bool = False
    """Starts expanded for an error, so the user sees what went wrong."""
    progress: str = ""
    """While a long call runs (an export): the piece it is on, "3/50: A103 - Sections"."""
    pictures: tuple[CardPicture, ...] = ()
    """What the tool showed the model: a thumbnail each in the card, a click opens it full size."""
    turn: int | None = None
    rev: int = 0
    kind: Literal["card"] = "card"

    @property
    def id(self) -> str:
        return "call:" + self.call_id


Item = ChatMessage | ToolCard


class Timeline:
    """The messages and cards, the last error, and the user text already on screen. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._items: list[Item] = []
        self._positions: dict[str, int] = {}   # item id -> index in the timeline
        self._message_count = 0
        self._outside: set[str] = set()         # call ids of outside_card cards, until they finish
        self._echo: str | None = None           # the user text begin_turn showed already
        self._last_error: ChatMessage | None = None

    # -- reading --------------------------------------------------------------------------------

    def read(self) -> tuple[tuple[Item, ...], ChatMessage | None]:
        """(the items, the last error), read together."""
        with self._lock:
            return tuple(self._items), self._last_error

    # -- a turn ---------------------------------------------------------------------------------

    def begin_turn(self, text: str) -> Changed:
        """Show the user's message before the turn's own ``TurnStarted`` arrives (which then skips it)."""
        with self._lock:
            changed = self._close_streaming()
            changed |= self._add_message("user", text=text)[1]
            self._echo = text
            self._last_error = None
            return changed

    def turn_started(self, user_text: str) -> Changed:
        with self._lock:
            self._last_error = None
            changed = self._close_streaming()
            if self._echo is not None and self._echo == user_text:
                self._echo = None  # begin_turn showed it already
            else:
                self._echo = None
                changed |= self._add_message("user", text=user_text)[1]
            return changed

    def stream(self, turn: int | None, *, text: str = "", thinking: str = "") -> Changed:
        """Text or reasoning of the model's answer, into the message that is streaming."""
        with self._lock:
            message, changed = self._open_assistant(turn)
            return changed | self._put(replace(message, text=message.text + text,
                                               thinking=message.thinking + thinking, rev=message.rev + 1))

    def turn_finished(self, event: ev.TurnFinished) -> Changed:
        with self._lock:
            changed = self._show_reply(event.reply, event.turn)
            notice = _STOP_NOTICES.get(event.stop_reason)
            if notice:
                changed |= self._add_message("notice", text=notice, turn=event.turn)[1]
            return changed

    def turn_failed(self, event: ev.TurnFailed) -> Changed:
        with self._lock:
            changed = self._close_streaming()
            message, added = self._add_message("error", text=event.error, turn=event.turn,
                                               recoverable=event.recoverable)
            self._last_error = message
            return changed | added

    def end_turn(self) -> Changed:
        """The chat's turn is over: its running cards are cancelled (an outside call's are not)."""
        with self._lock:
            changed = self._close_streaming()
            for card in [item for item in self._items if item.kind == "card" and item.status == "running"
                         and item.call_id not in self._outside]:
                changed |= self._put(replace(card, status="cancelled", rev=card.rev + 1))
            self._echo = None
            return changed

    def add_notice(self, text: str) -> Changed:
        with self._lock:
            return self._add_message("notice", text=text)[1]

    # -- cards ----------------------------------------------------------------------------------

    def call_started(self, event: ev.ToolCallStarted) -> Changed:
        with self._lock:
            changed = self._close_streaming()
            existing = self._card(event.call_id)
            fields = dict(name=event.name, summary=event.summary, arguments=freeze(event.arguments),
                          arguments_json=pretty(event.arguments), turn=event.turn)
            if existing is not None and existing.turn == event.turn:
                # It finished "before" it started.
                return changed | self._put(replace(existing, **fields, rev=existing.rev + 1))
            return changed | self._append(ToolCard(call_id=event.call_id, **fields))

    def approval_requested(self, event: ev.ApprovalRequested) -> Changed:
        with self._lock:
            card, changed = self._card_or_new(event.call_id, event.name, event.turn, event.arguments)
            return changed | self._put(replace(card, approval="pending", approval_description=event.description,
                                               rev=card.rev + 1))

    def settle(self, call_id: str, decision: str, edits: Mapping[str, Any] | None = None) -> Changed:
        """The card shows the user's (or the agent's) decision on its approval."""
        with self._lock:
            card = self._card(call_id)
            if card is None or decision not in DECISIONS:
                return set()
            frozen = freeze(edits) if edits else card.approval_edits
            if card.approval == decision and frozen == card.approval_edits:
                return set()
            return self._put(replace(card, approval=decision, approval_edits=frozen, rev=card.rev + 1))

    def call_progress(self, event: ev.ToolProgress) -> Changed:
        """A long call's card shows the piece it is on."""
        with self._lock:
            card = self._card(event.call_id)
            if card is None or card.status != "running":
                return set()
            return self._put(replace(card, progress=event.text, rev=card.rev + 1))

    def call_finished(self, event: ev.ToolCallFinished, decided: str | None = None) -> Changed:
        """The card shows the result. A still pending approval was answered without its
        ``ApprovalResolved`` (a cancel: "deny"), or by ``decided`` when the caller knows it."""
        with self._lock:
            card, changed = self._card_or_new(event.call_id, event.name, event.turn)
            approval = card.approval
            if approval == "pending":
                approval = decided or "deny"
            return changed | self._put(replace(
                card, status=event.status, result=event.content, result_preview=preview(event.content),
                is_error=event.is_error, duration_ms=event.duration_ms, approval=approval,
                pictures=card_pictures(event.images),
                result_expanded=card.result_expanded or event.status == "error", rev=card.rev + 1))

    def edit(self, item_id: str, change: Callable[[Any], Any]) -> Changed:
        """Replace the item ``item_id`` by ``change(item)`` (an expander opened or closed)."""
        with self._lock:
            position = self._positions.get(item_id)
            if position is None:
                return set()
            item = self._items[position]
            return self._put(replace(change(item), rev=item.rev + 1))

    # -- calls from outside the chat (MCP clients) --------------------------------------------

    def outside_card(self, request, who: str) -> Changed:
        """The card of a call an MCP client (``who``) asks the user to approve."""
        with self._lock:
            self._outside.add(request.call_id)
            return self._append(ToolCard(
                call_id=request.call_id, name=request.name, summary=f"{request.name} (from {who})",
                arguments=freeze(request.arguments), arguments_json=pretty(request.arguments),
                approval="pending", approval_description=request.description))

    def outside_progress(self, event: ev.ToolProgress) -> Changed:
        """The progress of an ``outside_card`` call (any other call is ignored)."""
        with self._lock:
            return self.call_progress(event) if event.call_id in self._outside else set()

    def outside_finished(self, event: ev.ToolCallFinished, decided: str | None) -> Changed:
        """The result of an ``outside_card`` call (any other call is ignored)."""
        with self._lock:
            if event.call_id not in self._outside:
                return set()
            self._outside.discard(event.call_id)
            return self.call_finished(event, decided)

    def expire_outside(self, call_id: str, text: str) -> Changed:
        """Nobody answered the outside call's approval in time: denied, and the card says why."""
        with self._lock:
            self._outside.discard(call_id)
            changed = self.settle(call_id, "deny")
            card = self._card(call_id)
            if card is not None:
                changed |= self._put(replace(card, status="cancelled", result=text, result_preview=preview(text),
                                             is_error=True, rev=card.rev + 1))
            return changed

    # -- a new or restored conversation -------------------------------------------------------

    def reset(self) -> Changed:
        """Empty the timeline but for the outside calls still waiting for the user."""
        with self._lock:
            kept = self._clear()
            for card in kept:
                self._append(card)
            return {"messages", "cards"}

    def show_history(self, history: Sequence[Message]) -> Changed:
        """Replace the timeline with a saved conversation (the outside calls still waiting stay)."""
        with self._lock:
            kept = self._clear()
            results = {r.call_id: r for m in history if m.role == "user" for r in m.tool_results}
            for message in history:
                if message.role == "user":
                    self._restore_user(message)
                else:
                    self._restore_assistant(message, results)
            self._close_streaming()
            for card in kept:  # an MCP client still waits for these: they stay on screen
                self._append(card)
            return {"messages", "cards"}

    # -- internals (the lock held) ------------------------------------------------------------

    def _clear(self) -> list[ToolCard]:
        kept = [item for item in self._items if item.kind == "card" and item.call_id in self._outside
                and item.approval == "pending"]
        self._items.clear()
        self._positions.clear()
        self._last_error = None
        return kept

    def _restore_user(self, message: Message) -> None:
        for part in message.parts:  # several texts: questions the model never answered
            if isinstance(part, TextPart) and part.text and not part.text.startswith(CONTEXT_PREFIX):
                self._add_message("user", text=part.text)

    def _restore_assistant(self, message: Message, results: Mapping[str, ToolResultPart]) -> None:
        current: ChatMessage | None = None
        for part in message.parts:
            if isinstance(part, (TextPart, ThinkingPart)) and (part.text or "").strip():
                if current is None:
                    current = self._add_message("assistant")[0]
                if isinstance(part, TextPart):
                    current = replace(current, text=current.text + part.text)
                else:
                    current = replace(current, thinking=current.thinking + part.text)
                self._put(current)
            elif isinstance(part, ToolCallPart):
                current = None
                self._append(restored_card(part, results.get(part.id)))

    @staticmethod
    def _part(item: Item) -> str:
        return "messages" if item.kind == "message" else "cards"

    def _append(self, item: Item) -> Changed:
        self._positions[item.id] = len(self._items)
        self._items.append(item)
        return {self._part(item)}

    def _put(self, item: Item) -> Changed:
        self._items[self._positions[item.id]] = item
        return {self._part(item)}

    def _add_message(self, role: Role, **fields) -> tuple[ChatMessage, Changed]:
        self._message_count += 1
        message = ChatMessage(id=f"m{self._message_count}", role=role, **fields)
        return message, self._append(message)

    def _open_assistant(self, turn: int | None) -> tuple[ChatMessage, Changed]:
        """The assistant message text streams into: the last item if it is one still streaming."""
        last = self._items[-1] if self._items else None
        if last is not None and last.kind == "message" and last.role == "assistant" and last.streaming:
            return last, set()
        changed = self._close_streaming()
        message, added = self._add_message("assistant", streaming=True, turn=turn)
        return message, changed | added

    def _close_streaming(self) -> Changed:
        for item in reversed(self._items):
            if item.kind == "message" and item.streaming:
                return self._put(replace(item, streaming=False, rev=item.rev + 1))
        return set()

    def _card(self, call_id: str) -> ToolCard | None:
        position = self._positions.get("call:" + call_id)
        return self._items[position] if position is not None else None  # type: ignore[return-value]

    def _card_or_new(self, call_id: str, name: str, turn: int | None,
                     arguments: dict | None = None) -> tuple[ToolCard, Changed]:
        """The call's card; made now for a call whose start was never seen (events arrive
        complete, but be kind)."""
        card = self._card(call_id)
        if card is not None:
            return card, set()
        card = ToolCard(call_id=call_id, name=name, summary=name, turn=turn, arguments=freeze(arguments or {}),
                        arguments_json=pretty(arguments or {}))
        return card, self._append(card)

    def _show_reply(self, reply: str, turn: int | None) -> Changed:
        """Make sure the final reply is on screen. It is the text of the turn's last model
        response, which normally streamed already (it may be followed by that step's cards); a
        reply the agent wrote itself (the step limit) did not stream."""
        changed = self._close_streaming()
        if not reply:
            return changed
        last = self._last_assistant_of_turn(turn)
        if last is not None:
            if last.text == reply:
                return changed
            if last.text and reply.startswith(last.text) and last is self._items[-1]:
                return changed | self._put(replace(last, text=reply, rev=last.rev + 1))
        return changed | self._add_message("assistant", text=reply, turn=turn)[1]

    def _last_assistant_of_turn(self, turn: int | None) -> ChatMessage | None:
        for item in reversed(self._items):
            if item.kind == "message" and item.role in ("user", "assistant"):
                if item.role == "user" or item.turn != turn:
                    return None
                return item
        return None


_STOP_NOTICES = {
    "cancelled": "Stopped.",
    "max_tokens": "The reply was cut off: the model reached its output limit.",
    "refusal": "The model declined to answer.",
}


def preview(content: str) -> str:
    """A result's first non-empty line, shortened for the collapsed card."""
    line = next((line.strip() for line in content.splitlines() if line.strip()), "")
    return line if len(line) <= RESULT_PREVIEW_CHARS else line[:RESULT_PREVIEW_CHARS - 1] + "…"


_DENIED_PREFIX = "The user denied this call"
_CANCELLED_PREFIXES = ("Cancelled by the user", "Not run:")


def restored_card(call: ToolCallPart, result: ToolResultPart | None) -> ToolCard:
    """A card for a call of a saved conversation (its status inferred from the result)."""
    if result is None:
        status, content = "cancelled", None
    elif not result.is_error:
        status, content = "done", result.content
    elif result.content.startswith(_DENIED_PREFIX):
        status, content = "denied", result.content
    elif result.content.startswith(_CANCELLED_PREFIXES):
        status, content = "cancelled", result.content
    else:
        status, content = "error", result.content
    summary = json.dumps(call.arguments, ensure_ascii=False, separators=(", ", ": "))
    return ToolCard(call_id=call.id, name=call.name, summary=f"{call.name}({summary[1:-1][:120]})", status=status,
                    arguments=freeze(call.arguments), arguments_json=pretty(call.arguments), result=content,
                    result_preview=preview(content or ""), is_error=status != "done",
                    pictures=card_pictures(result.images) if result is not None else ())
