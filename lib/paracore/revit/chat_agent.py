"""The chat pane's agent for one document's session, built on the agent's worker thread.

``TurnRunner`` (paracore.ui.turn_runner) wants an agent when the pane is built, on the UI thread.
A real ``Agent`` cannot be built there: the model comes from the settings (which the user may
change between two turns) and the prompt's facts are read from Revit through ``bridge.call``,
which only a worker thread may do (the UI thread is Revit's main thread and must never wait on
a future). ``ChatAgent`` is what the runner gets: on each turn, on the worker, it (re)builds the
real agent when the settings changed, then runs the turn. A configuration problem becomes the
turn's ``TurnFailed`` with the message that says what to do ("Open Paracore's Settings...").
"""
from __future__ import annotations

import importlib
import logging
import pkgutil
import threading
from collections.abc import Callable, Iterator
from typing import Any

from .. import events as ev

log = logging.getLogger("paracore.revit.chat_agent")

_tools_loaded = False
_tools_lock = threading.Lock()


def load_tools() -> None:
    """Import every tool module once, so that the default registry is complete."""
    global _tools_loaded
    with _tools_lock:
        if _tools_loaded:
            return
        from .. import tools
        for module in pkgutil.iter_modules(tools.__path__):
            importlib.import_module(f"{tools.__name__}.{module.name}")
        _tools_loaded = True


def _settings():
    from ..settings import load_settings
    return load_settings()


def _model(settings):
    from ..llm.providers import create_model
    return create_model(settings)


class ChatAgent:
    """Looks like an ``Agent`` to the TurnRunner (``run_turn``, ``approver``, ``session``)."""

    def __init__(self, session, bridge, uiapp=None, *, settings_loader: Callable[[], Any] | None = None,
                 model_factory: Callable[[Any], Any] | None = None, timeout: float = 120.0) -> None:
        """``settings_loader`` and ``model_factory`` default to ``load_settings`` and
        ``providers.create_model`` (looked up at each turn)."""
        self.session = session
        self.bridge = bridge
        self.uiapp = uiapp if uiapp is not None else bridge.uiapp
        self.approver = None          # set by the TurnRunner: its state's approval gate
        self.settings_loader = settings_loader
        self.model_factory = model_factory
        self.timeout = timeout
        self.turn_index = 0
        self._agent = None
        self._built_for = None        # the settings the agent was built with

    def run_turn(self, user_text: str, cancel=None) -> Iterator[Any]:
        """Worker thread only (it waits on Revit through the bridge)."""
        try:
            agent = self._agent_for_turn()
        except Exception as error:  # noqa: BLE001 - every failure becomes the turn's end, never a crash
            log.warning("Could not prepare the agent: %s", error)
            yield ev.TurnStarted(turn=self.turn_index, user_text=user_text)
            yield ev.TurnFailed(turn=self.turn_index, error=_message(error), recoverable=True)
            self.turn_index += 1
            return
        try:
            yield from agent.run_turn(user_text, cancel)
        finally:
            self.turn_index = agent.turn_index

    def _agent_for_turn(self):
        settings = (self.settings_loader or _settings)()
        if self._agent is None or settings != self._built_for:
            self._agent = self._build(settings)
            self._built_for = settings
        self._agent.approver = self.approver or self._agent.approver
        self._agent.turn_index = self.turn_index
        return self._agent

    def _build(self, settings):
        from ..agent import Agent, AgentLimits, ApprovalPolicy
        from ..prompts import PromptBuilder
        from ..tools.registry import default_registry
        from .runtime import RevitRuntime

        load_tools()
        model = (self.model_factory or _model)(settings)
        runtime = RevitRuntime(self.uiapp, self.bridge, self.session, timeout=self.timeout)
        prompts = PromptBuilder(runtime.prompt_facts())
        limits = getattr(settings, "limits", None)
        agent_limits = AgentLimits() if limits is None else AgentLimits(
            max_steps=limits.max_steps, max_output_tokens=limits.max_output_tokens,
            context_window_tokens=limits.context_window_tokens)
        policy = ApprovalPolicy(mode=getattr(settings, "approval_policy", "ask_writes"))
        kwargs = {"approver": self.approver} if self.approver is not None else {}
        return Agent(model=model, registry=default_registry(), session=self.session, revit=runtime,
                     prompts=prompts, policy=policy, limits=agent_limits, turn_index=self.turn_index, **kwargs)


def _message(error: Exception) -> str:
    message = getattr(error, "message", None)
    if isinstance(message, str) and message:
        return message
    return f"{type(error).__name__}: {error}"
