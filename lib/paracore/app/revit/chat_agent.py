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

import logging
from collections.abc import Callable, Iterator
from typing import Any

from paracore.agent.build import build_agent, build_model
from paracore.core import events as ev
from paracore.core.settings import load_settings
from paracore.hosts.revit.runtime import RevitRuntime
from paracore.llm.providers import create_model

log = logging.getLogger("paracore.app.revit.chat_agent")

def _settings():
    return load_settings()


def _model(settings):
    return create_model(settings)


class ChatAgent:
    """Looks like an ``Agent`` to the TurnRunner (``run_turn``, ``approver``, ``session``)."""

    def __init__(self, session, bridge, uiapp=None, *, settings_loader: Callable[[], Any] | None = None,
                 model_factory: Callable[[Any], Any] | None = None, timeout: float = 120.0) -> None:
        """``settings_loader`` and ``model_factory`` default to ``load_settings`` and
        ``providers.create_model`` (looked up at each turn); the agent is put together by
        ``paracore.agent.build``."""
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

        runtime = RevitRuntime(self.uiapp, self.bridge, self.session, timeout=self.timeout)
        model = build_model(settings, model_factory=self.model_factory or _model)
        return build_agent(settings, runtime, self.session, self.approver, model=model,
                           turn_index=self.turn_index)


def _message(error: Exception) -> str:
    message = getattr(error, "message", None)
    if isinstance(message, str) and message:
        return message
    return f"{type(error).__name__}: {error}"
