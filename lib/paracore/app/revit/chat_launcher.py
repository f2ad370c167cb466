"""What the Chat and Settings buttons do, and where the quick buttons report.

A pushbutton click runs on Revit's main thread, in API context, so the bridge can still be
created here if startup failed to (Doctor then says why it failed the first time).
"""
from __future__ import annotations

import logging

from paracore.app.revit import chat_controller, pane
from paracore.hosts.revit import host_state
from paracore.hosts.revit.bridge import Bridge
from paracore.ui import settings_view

log = logging.getLogger("paracore.revit.launcher")


def ensure_bridge(uiapp):
    """The process's bridge, created now if startup did not (main thread, API context)."""
    state = host_state.state()
    bridge = state.bridge
    if bridge is None or getattr(bridge, "_closed", False):
        state.bridge = bridge = Bridge(uiapp)
        state.record("bridge", "ok", "created by the Chat button (startup had not)")
    return bridge


def toggle_chat(uiapp) -> str:
    """Show or hide the dockable pane; without one, open the chat in a modeless window."""
    try:
        ensure_bridge(uiapp)
    except Exception:  # noqa: BLE001 - the chat still opens and says it cannot reach Revit
        log.exception("Could not create the ExternalEvent bridge")
    try:
        shown = pane.toggle(uiapp)
    except Exception:  # noqa: BLE001 - no pane (startup failed, or pythonnet refused the provider)
        log.warning("The dockable pane is not available", exc_info=True)
        shown = None
    if shown is not None:
        return f"The chat pane is {shown}."
    return f"The chat window is {chat_controller.show_window(uiapp)}."


def open_settings(uiapp) -> bool:
    """Show the Settings dialog; True when the user saved."""
    return settings_view.show_settings(uiapp)


def report(message: str) -> None:
    """Show a quick button's answer: in the chat when it is on screen, else in pyRevit's output."""
    if not message:
        return
    try:
        chat = host_state.state().chat
        if chat is not None and chat.is_visible():
            chat.state.add_notice(message)
            return
    except Exception:  # noqa: BLE001 - fall back to the output window
        log.debug("Could not show the message in the chat", exc_info=True)
    print(message)
