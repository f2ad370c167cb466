"""One MCP tool call on its own worker thread, and its line back to the client's user.

A backend's ``call`` blocks (Revit's main thread, an approval), so the server never runs it on
its event loop. The call runs on a daemon thread of its own rather than in the request's task:
on the 2026-07-28 protocol an approval ends the request (``input_required``) and the call waits,
parked, for the client's retry that carries the answer.

The thread talks to the event loop through one memory stream of :class:`Asked`,
:class:`Progressed` and :class:`Done` items (sent with ``anyio.from_thread``, the loop's token).
An approval the agent needs on the thread (``ask_the_client``, the stand-in's approver) is such
an item plus a future the loop side answers: with an elicitation, or a refusal. Whatever happens
to the request (the client disconnects, the approval is never answered), the future gets an
answer within ``timeout`` seconds, so the thread finishes the call: run, or not run.
"""
from __future__ import annotations

import concurrent.futures
import contextvars
import math
import threading
from dataclasses import dataclass
from typing import Any, Callable

import anyio
import anyio.from_thread
import anyio.lowlevel

from paracore.agent import ApprovalRequest, Decision
from paracore.mcp.backend import CallResult
from paracore.llm.base import CancelToken
from paracore.mcp.calls import Heartbeat

NO_ELICITATION = ("Not run: {name} changes the model and needs the user's approval, but this MCP client "
                  "cannot ask its user (it does not support elicitation). To allow writes in the stand-in, "
                  "restart the server with `paracore mcp --model ... --approve-writes`, or use a client that "
                  "supports elicitation.")
TIMED_OUT = ("Not run: nobody answered the approval for {name} within {seconds:g} s. Ask the user to answer "
             "the approval prompt, then call {name} again.")
CLIENT_GONE = "Not run: the MCP client went away before the approval for {name} was answered."
CANCELLED = ("Not run: the MCP client cancelled {name} (notifications/cancelled) before its approval was answered. "
             "Call {name} again to be asked again.")
DECLINED = "Not run: the user declined {name}. Do not retry it; ask the user what to do instead."


@dataclass(frozen=True)
class Asked:
    """The call needs the user's approval; answer ``future`` with a Decision."""

    request: ApprovalRequest
    future: concurrent.futures.Future


@dataclass(frozen=True)
class Progressed:
    sentence: str


@dataclass(frozen=True)
class Done:
    result: CallResult


_CURRENT: contextvars.ContextVar[CallInFlight | None] = contextvars.ContextVar("paracore_mcp_call", default=None)


def ask_the_client(request: ApprovalRequest) -> Decision:
    """The stand-in's approver: ask the user of the MCP client whose call this is. Called on the
    call's worker thread, by the agent; blocks until the client answers or the time is up."""
    call = _CURRENT.get()
    if call is None:  # not run through the server: nobody to ask
        return "deny"
    return call.ask(request)


UNREAD_PROGRESS = 4   # heartbeats left unread before more are skipped


class CallInFlight:
    """``run(progress, cancel)`` on a worker thread; the loop side reads :meth:`next` until :class:`Done`."""

    def __init__(self, run: Callable[[Callable[[str], None], CancelToken], CallResult], *, timeout: float,
                 heartbeat: float = 5.0, grace: float = 1.0, binding: Any = None):
        self._run = run
        self.binding = binding   # the tool, arguments and client of the call (parked.CallBinding)
        self.timeout = timeout
        self._grace = grace  # the loop side's own timeout answers first, with the same words
        self._heartbeat = heartbeat
        self._token = anyio.lowlevel.current_token()  # created on the loop, by the request's handler
        # Unbounded, so the final Done is never refused for room; heartbeats are kept few instead.
        self._send, self._receive = anyio.create_memory_object_stream[Any](math.inf)
        self._refusal: str | None = None  # why an approval was refused, said instead of "the user denied"
        self._abandoned = False
        self._lock = threading.Lock()
        self._put_back: list[Any] = []   # read again before the stream (see put_back)
        self.cancel = CancelToken()      # set when the client cancels: a long call stops between pieces

    # -- the loop's side ---------------------------------------------------------------------------
    def start(self) -> None:
        context = contextvars.copy_context()
        context.run(_CURRENT.set, self)
        threading.Thread(target=context.run, args=(self._work,), name="paracore-mcp-call", daemon=True).start()

    async def next(self) -> Asked | Progressed | Done:
        if self._put_back:
            return self._put_back.pop(0)
        return await self._receive.receive()

    def put_back(self, item: Asked | Progressed | Done) -> None:
        """``item`` is what ``next`` returns next (a reader that stopped at it leaves it to another)."""
        self._put_back.append(item)

    def refuse(self, asked: Asked, reason: str) -> None:
        """Answer an approval with no: ``reason`` becomes the call's result."""
        with self._lock:
            self._refusal = self._refusal or reason
        answer(asked.future, "deny")

    def abandon(self, reason: str) -> None:
        """The request is gone: every approval from now on is refused with ``reason``."""
        with self._lock:
            self._refusal = self._refusal or reason
            self._abandoned = True
        self._receive.close()

    # -- the worker's side ---------------------------------------------------------------------------
    def ask(self, request: ApprovalRequest) -> Decision:
        if self._abandoned:
            return "deny"
        asked = Asked(request, concurrent.futures.Future())
        if not self._post(asked):
            self._refuse_here(CLIENT_GONE.format(name=request.name))
            return "deny"
        try:
            return asked.future.result(timeout=self.timeout + self._grace)
        except concurrent.futures.TimeoutError:
            self._refuse_here(TIMED_OUT.format(name=request.name, seconds=self.timeout))
            asked.future.cancel()
            return "deny"

    def _work(self) -> None:
        with Heartbeat(self._progress, every=self._heartbeat) as say:
            try:
                result = self._run(say, self.cancel)
            except Exception as error:  # noqa: BLE001 - the client gets an error result, never silence
                result = CallResult(f"The call failed: {type(error).__name__}: {error}", is_error=True)
        self._post(Done(self._with_refusal(result)))

    def _progress(self, sentence: str) -> None:
        """A heartbeat, unless several wait unread already (a 2026-07-28 call parked for its
        client's retry): a waiting client needs the latest word, not every one of them."""
        if self._send.statistics().current_buffer_used < UNREAD_PROGRESS:
            self._post(Progressed(sentence))

    def _with_refusal(self, result: CallResult) -> CallResult:
        with self._lock:
            refusal = self._refusal
        if refusal and result.is_error:
            return CallResult(refusal, is_error=True)
        return result

    def _refuse_here(self, reason: str) -> None:
        with self._lock:
            self._refusal = self._refusal or reason

    def _post(self, item) -> bool:
        """Hand ``item`` to the loop side; False when nobody reads any more (request or loop gone)."""
        try:
            anyio.from_thread.run_sync(self._send.send_nowait, item, token=self._token)
            return True
        except Exception:  # noqa: BLE001 - closed stream, full stream or a stopped loop: nobody listens
            return False


def answer(future: concurrent.futures.Future, decision: Decision) -> None:
    if not future.done():
        try:
            future.set_result(decision)
        except concurrent.futures.InvalidStateError:  # the worker gave up waiting at that instant
            pass
