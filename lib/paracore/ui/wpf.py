"""WPF plumbing shared by Paracore's windows (the chat view, the Settings dialog, the Doctor's probe).

- loads XAML with ``System.Windows.Markup.XamlReader.Parse`` (no x:Class, no event attributes)
  and finds the named elements a module lists in its ``XAML_NAMES``;
- subscribes event handlers in Python, every one guarded: an exception escaping into WPF's
  dispatcher can take Revit down;
- the ``GilPump``: pyRevit's CPython engine never releases the GIL while Revit idles on its main
  thread (PythonEngine.Initialize without BeginAllowThreads, pyRevitLabs.PyRevit.Runtime/
  CPythonEngine.cs), so a Python worker thread would stall; a DispatcherTimer whose tick sleeps a
  few ms lets it run.

System.Windows is imported lazily, inside functions: the module imports anywhere (the tests read
the views' ``XAML_NAMES``), but only runs in Revit.
"""
from __future__ import annotations

import functools
import logging
import time
from pathlib import Path
from typing import Callable

log = logging.getLogger("paracore.ui.wpf")

XAML_DIR = Path(__file__).resolve().parent / "xaml"

PUMP_INTERVAL_MS = 10      # the GIL pump's tick
PUMP_SLICE_S = 0.003       # how long each tick lets other Python threads run

_wpf_loaded = False


def load_wpf() -> None:
    """Reference WPF's assemblies (already loaded in Revit; pythonnet wants them referenced)."""
    global _wpf_loaded
    if _wpf_loaded:
        return
    import clr
    for assembly in ("PresentationFramework", "PresentationCore", "WindowsBase", "System.Xaml"):
        try:
            clr.AddReference(assembly)
        except Exception:  # noqa: BLE001 - System.Xaml is part of WindowsBase on some runtimes
            log.debug("Could not reference %s", assembly, exc_info=True)
    _wpf_loaded = True


@functools.lru_cache(maxsize=None)
def read_xaml(filename: str) -> str:
    """The text of ``xaml/<filename>`` (read once: a tool card is parsed for every call)."""
    return (XAML_DIR / filename).read_text(encoding="utf-8")


def parse_xaml(filename: str):
    """A new element tree from ``xaml/<filename>``."""
    load_wpf()
    from System.Windows.Markup import XamlReader
    return XamlReader.Parse(read_xaml(filename))


class Named:
    """The named elements of a parsed XAML tree, as attributes: every name ``names`` (the loading
    module's XAML_NAMES) lists for ``filename``."""

    def __init__(self, root, filename: str, names: dict[str, tuple[str, ...]]) -> None:
        self.root = root
        missing = []
        for name in names[filename]:
            element = root.FindName(name)
            if element is None:
                missing.append(name)
            else:
                setattr(self, name, element)
        if missing:
            raise LookupError(f"{filename} has no element named {', '.join(missing)}; "
                              "the XAML and the module's XAML_NAMES disagree.")


def guarded(what: str, fn: Callable) -> Callable:
    """``fn`` wrapped so that an exception is logged instead of escaping into WPF."""
    def handler(*args):
        try:
            return fn(*args)
        except Exception:  # noqa: BLE001 - see the module docstring
            log.exception("The chat view failed to %s", what)
    return handler


def on(event, what: str, fn: Callable) -> None:
    """Subscribe ``fn(sender, args)`` to a .NET event, guarded."""
    event += guarded(what, fn)


def brush(color: str):
    from System.Windows.Media import BrushConverter
    return BrushConverter().ConvertFromString(color)


def visibility(visible: bool):
    from System.Windows import Visibility
    return Visibility.Visible if visible else Visibility.Collapsed


def wrap():
    from System.Windows import TextWrapping
    return TextWrapping.Wrap


def text_block(text: str):
    """A wrapped TextBlock showing ``text``."""
    from System.Windows.Controls import TextBlock
    block = TextBlock()
    block.Text = text
    block.TextWrapping = wrap()
    return block


class GilPump:
    """A DispatcherTimer whose tick sleeps ``slice_s``: while it runs, other Python threads run.

    Idle Revit holds the GIL on its main thread (see the module docstring). Run it only while
    a worker has something to do; each tick costs the UI thread a few milliseconds.
    """

    def __init__(self, dispatcher, interval_ms: float = PUMP_INTERVAL_MS, slice_s: float = PUMP_SLICE_S) -> None:
        from System import TimeSpan
        from System.Windows.Threading import DispatcherPriority, DispatcherTimer
        self.slice = slice_s
        self.ticks = 0
        self._timer = DispatcherTimer(DispatcherPriority.Background, dispatcher)
        self._timer.Interval = TimeSpan.FromMilliseconds(interval_ms)
        on(self._timer.Tick, "pump the GIL", self._tick)

    def _tick(self, sender, args) -> None:
        self.ticks += 1
        time.sleep(self.slice)  # releases the GIL: the agent's worker (and HTTP) threads advance

    @property
    def running(self) -> bool:
        return bool(self._timer.IsEnabled)

    def start(self) -> None:
        if not self._timer.IsEnabled:
            self._timer.Start()

    def stop(self) -> None:
        if self._timer.IsEnabled:
            self._timer.Stop()
