""".NET events as pythonnet shows them: ``app.DocumentChanged += handler`` and ``-=``.

The real API also has ``add_X``/``remove_X`` methods; API classes define those next to the
event and delegate to the same hook. Handlers are called with (sender, args), like a .NET
EventHandler. A failing handler is logged and does not stop the others, as in Revit.
"""
from __future__ import annotations

import logging

log = logging.getLogger("revit_standin.events")


class EventHook:
    def __init__(self, name: str):
        self.name = name
        self.handlers: list = []

    def __iadd__(self, handler):
        self.handlers.append(handler)
        return self

    def __isub__(self, handler):
        if handler in self.handlers:
            self.handlers.remove(handler)
        return self

    def fire(self, sender, args) -> None:
        for handler in list(self.handlers):
            try:
                handler(sender, args)
            except Exception:  # noqa: BLE001 - Revit isolates event handlers from each other
                log.exception("A handler of %s failed", self.name)


class RevitEvent:
    """Class attribute declaring a .NET event on an API class."""

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        hooks = obj.__dict__.setdefault("_event_hooks", {})
        return hooks.setdefault(self.name, EventHook(self.name))

    def __set__(self, obj, value):
        # `obj.E += h` reads the hook, adds to it, and assigns the same hook back.
        if value is not self.__get__(obj):
            raise AttributeError(f"{self.name} is an event: use += and -= to subscribe.")


class ApplicationWideEvent(RevitEvent):
    """An event Revit raises for the whole session on a wrapper class (UIApplication's
    DialogBoxShowing): every wrapper of one Application shares the handlers, since Revit hands
    out a new UIApplication wherever one is asked for (``uidoc.Application``, ``__revit__``)."""

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        hooks = obj._application.__dict__.setdefault("_session_event_hooks", {})
        return hooks.setdefault(self.name, EventHook(self.name))
