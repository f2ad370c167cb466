"""The chat's dockable pane: one IDockablePaneProvider per process, registered by startup.py.

pyRevit's own ``forms.register_dockable_panel`` does not work under CPython (pyrevit/forms/
_cpy_forms.py stubs it), so Paracore implements the interface itself. pythonnet turns a Python
class that implements a .NET interface into a .NET type named after ``__namespace__``; defining
it twice in one process fails with "Duplicate type name", so the class lives in this lib module
(never in a button script) and is made once per process (``dotnet.defined_once``).

Revit facts this relies on (Revit API docs):

- ``UIApplication.RegisterDockablePane(DockablePaneId, title, provider)`` raises
  ArgumentException when the id is already registered: pyRevit reloads run startup.py again,
  so ``register`` checks ``DockablePane.PaneIsRegistered`` first. pyRevit hands startup
  scripts a UIApplication as ``__revit__`` and registers its own panes through
  ``HOST_APP.uiapp.RegisterDockablePane`` (pyrevit/forms/__init__.py).
- Revit asks the provider for its content through ``SetupDockablePane(data)``: set
  ``data.FrameworkElement`` (and the initial dock state).
- ``uiapp.GetDockablePane(id)`` gives the pane; ``Show()``, ``Hide()`` and ``IsShown()``.
"""
from __future__ import annotations

import logging

from paracore.app.revit.chat_controller import ChatController
from paracore.hosts.revit import host_state
from paracore.revit import dotnet
from paracore.revit.api import UI, System
from paracore.ui import wpf_view

log = logging.getLogger("paracore.app.revit.pane")

PANE_GUID = "5d0c9e53-8f3b-4c1e-9a4f-6b2f1c7a9e21"
PANE_TITLE = "Paracore"


@dotnet.defined_once("Paracore.Pane.ChatPaneProvider")
def ChatPaneProvider():  # noqa: N802 - binds the class
    class ChatPaneProvider(UI.IDockablePaneProvider):
        """Gives Revit the chat's WPF content. No constructor arguments (pythonnet passes them to
        the .NET base); the content is built on the first SetupDockablePane, on the main thread."""

        __namespace__ = "Paracore.Pane"

        content = None  # the FrameworkElement Revit docks

        def SetupDockablePane(self, data):  # noqa: N802 - the .NET interface's name
            if self.content is None:
                self.content = _build_content()
            _describe_pane(data, self.content)

    return ChatPaneProvider


def _describe_pane(data, content) -> None:
    data.FrameworkElement = content
    try:
        data.VisibleByDefault = False
        state = UI.DockablePaneState()
        state.DockPosition = UI.DockPosition.Right
        data.InitialState = state
    except Exception:  # noqa: BLE001 - cosmetic: Revit picks a place itself
        log.warning("Could not set the chat pane's initial dock position", exc_info=True)


def _build_content():
    """The chat's root element; a plain message if the chat cannot be built (Doctor says why)."""
    try:
        chat = ChatController.create()
        host_state.state().chat = chat
        return chat.root
    except Exception as error:  # noqa: BLE001 - Revit must still get an element
        log.exception("Could not build the chat pane's content")
        host_state.state().record("pane_content", "failed", "The chat pane could not be built; "
                                  "run Doctor for details.", f"{type(error).__name__}: {error}")
        try:
            return wpf_view.message_content(
                f"Paracore could not build its chat pane ({type(error).__name__}: {error}). Click Doctor on "
                "the Paracore tab for details.")
        except Exception:  # noqa: BLE001 - no WPF at all: the registration fails and startup records it
            log.exception("Could not build even a message for the chat pane")
            raise error from None


def pane_id():
    return UI.DockablePaneId(System.Guid(PANE_GUID))


def is_registered() -> bool:
    try:
        return bool(UI.DockablePane.PaneIsRegistered(pane_id()))
    except Exception:  # noqa: BLE001
        return False


def register(uiapp) -> str:
    """Register the pane once per Revit process; returns what happened, for the startup log."""
    state = host_state.state()
    if state.pane_registered or is_registered():
        state.pane_registered = True
        return "already registered in this Revit session"
    provider = ChatPaneProvider()
    uiapp.RegisterDockablePane(pane_id(), PANE_TITLE, provider)
    state.pane_provider = provider  # keep the Python object alive as long as Revit uses it
    state.pane_registered = True
    return f"registered as '{PANE_TITLE}' ({PANE_GUID})"


def get(uiapp):
    """The registered pane, or None when it is not (startup failed or was skipped)."""
    if not (host_state.state().pane_registered or is_registered()):
        return None
    try:
        return uiapp.GetDockablePane(pane_id())
    except Exception:  # noqa: BLE001 - not registered after all
        log.warning("The chat pane is not available", exc_info=True)
        return None


def toggle(uiapp) -> str | None:
    """Show the pane if hidden, hide it if shown; "shown"/"hidden", or None without a pane."""
    pane = get(uiapp)
    if pane is None:
        return None
    if pane.IsShown():
        pane.Hide()
        return "hidden"
    pane.Show()
    return "shown"
