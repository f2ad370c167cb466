"""A fake of the few WPF types the chat view uses, for a smoke test of its Python off Windows.

This is not WPF: no layout, no rendering, no pythonnet conversions. ``XamlReader.Parse`` builds
plain objects from the XAML (names registered as ``FindName`` finds them), properties are a
dictionary, events are lists of handlers a test can ``fire``, collections are lists with
``Add``/``Clear``, and the ``Dispatcher`` queues ``BeginInvoke`` callbacks until the test pumps
them. What it catches is the view's own Python: typos, wrong call shapes, a handler that
raises, a render path never run, a thread rule broken (``CheckAccess``).

``install(monkeypatch)`` puts the fake System.Windows.* modules into ``sys.modules`` (next to
the stand-in's System, whose Action, Guid and String it reuses) for the duration of a test.
"""
from __future__ import annotations

import sys
import threading
import time
import types
import xml.etree.ElementTree as ET

X_NS = "{http://schemas.microsoft.com/winfx/2006/xaml}"
EVENTS = {"Click", "Checked", "Unchecked", "SelectionChanged", "PreviewKeyDown", "TextChanged", "Expanded",
          "Collapsed", "Closed", "Tick", "RequestNavigate"}
COLLECTIONS = {"Children", "Items", "Inlines", "ColumnDefinitions", "RowDefinitions", "SelectedItems"}


class Enum:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


def enum_type(name, *members):
    return type(name, (), {m: Enum(f"{name}.{m}") for m in members})


Visibility = enum_type("Visibility", "Visible", "Collapsed", "Hidden")
TextWrapping = enum_type("TextWrapping", "Wrap", "NoWrap")
FontStyles = enum_type("FontStyles", "Italic", "Normal")
FontWeights = enum_type("FontWeights", "Bold", "SemiBold", "Normal")
HorizontalAlignment = enum_type("HorizontalAlignment", "Left", "Right", "Center", "Stretch")
WindowState = enum_type("WindowState", "Normal", "Minimized", "Maximized")
DispatcherPriority = enum_type("DispatcherPriority", "Background", "Normal", "Input")
UriKind = enum_type("UriKind", "Absolute", "Relative")
Key = enum_type("Key", "Return", "A")


class ModifierKeys:
    Shift = Enum("ModifierKeys.Shift")
    NoModifier = Enum("ModifierKeys.None")


class _Modifiers:
    def __init__(self):
        self.held = set()

    def HasFlag(self, flag):  # noqa: N802
        return flag in self.held


class Keyboard:
    Modifiers = _Modifiers()


class Event:
    def __init__(self):
        self.handlers = []

    def __iadd__(self, handler):
        self.handlers.append(handler)
        return self

    def __isub__(self, handler):
        self.handlers.remove(handler)
        return self

    def fire(self, sender=None, args=None):
        for handler in list(self.handlers):
            handler(sender, args if args is not None else types.SimpleNamespace(Handled=False))


class Collection(list):
    def __init__(self, owner=None):
        super().__init__()
        self.owner = owner

    def Add(self, item):  # noqa: N802
        self.append(item)
        if isinstance(item, Element):
            item._props["Parent"] = self.owner

    def Clear(self):  # noqa: N802
        for item in self:
            if isinstance(item, Element):
                item._props["Parent"] = None
        self.clear()

    @property
    def Count(self):  # noqa: N802
        return len(self)


class Dispatcher:
    """Queues BeginInvoke callbacks; ``pump()`` runs them on the UI (test) thread."""

    def __init__(self):
        self.thread = threading.get_ident()
        self.queue = []
        self.lock = threading.Lock()
        self.posts = 0
        self.timers = []

    def CheckAccess(self):  # noqa: N802
        return threading.get_ident() == self.thread

    def BeginInvoke(self, priority, action):  # noqa: N802
        with self.lock:
            self.queue.append(action)
            self.posts += 1

    def pump(self):
        assert self.CheckAccess(), "the UI thread pumps"
        with self.lock:
            work, self.queue = self.queue, []
        for action in work:
            action()
        for timer in list(self.timers):
            if timer.IsEnabled:
                timer.Tick.fire(timer, None)
        return len(work)


DISPATCHER: Dispatcher | None = None

_DEFAULTS = {
    "Visibility": Visibility.Visible, "IsEnabled": True, "Text": "", "IsVisible": True, "VerticalOffset": 0.0,
    "ScrollableHeight": 0.0, "Parent": None, "SelectedIndex": -1, "Password": "", "IsExpanded": False,
    "Content": None, "Child": None, "ToolTip": None, "WindowState": WindowState.Normal,
}


class Element:
    tag = "Element"

    def __init__(self, *args):
        object.__setattr__(self, "_props", {})
        object.__setattr__(self, "_events", {})
        object.__setattr__(self, "_collections", {})
        object.__setattr__(self, "_names", {})
        self._props["Dispatcher"] = DISPATCHER
        if args and self.tag == "Run":
            self._props["Text"] = args[0]
        elif args and self.tag == "Hyperlink":
            self.Inlines.Add(args[0])

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in EVENTS:
            return self._events.setdefault(name, Event())
        if name in COLLECTIONS:
            return self._collections.setdefault(name, Collection(self))
        if name in self._props:
            return self._props[name]
        if name in _DEFAULTS:
            return _DEFAULTS[name]
        raise AttributeError(f"fake {self.tag} has no {name}")

    def __setattr__(self, name, value):
        if name in EVENTS:
            if value is not self._events.get(name):
                raise AttributeError(f"{name} is an event: use += (the fake saw an assignment)")
            return
        if name in ("Content", "Child") and isinstance(value, Element):
            value._props["Parent"] = self
        if name in ("Content", "Child") and value is None and isinstance(self._props.get(name), Element):
            self._props[name]._props["Parent"] = None
        self._props[name] = value

    # FrameworkElement / controls
    def FindName(self, name):  # noqa: N802
        return self._names.get(name)

    def ScrollToEnd(self):  # noqa: N802
        self._props["scrolled_to_end"] = self._props.get("scrolled_to_end", 0) + 1

    # Window
    def Show(self):  # noqa: N802
        self._props["IsVisible"] = True

    def ShowDialog(self):  # noqa: N802
        hook = self._props.get("on_show_dialog")
        if hook is not None:
            hook(self)
        return True

    def Close(self):  # noqa: N802
        self._props["IsVisible"] = False
        self.Closed.fire(self, None)

    def Activate(self):  # noqa: N802
        self._props["activated"] = self._props.get("activated", 0) + 1
        return True


def element_class(tag):
    return type(tag, (Element,), {"tag": tag})


class Grid(element_class("Grid")):
    @staticmethod
    def SetRow(element, row):  # noqa: N802
        element._props["Grid.Row"] = row

    @staticmethod
    def SetColumn(element, column):  # noqa: N802
        element._props["Grid.Column"] = column


class DispatcherTimer(element_class("DispatcherTimer")):
    def __init__(self, priority=None, dispatcher=None):
        super().__init__()
        self._props["IsEnabled"] = False
        (dispatcher or DISPATCHER).timers.append(self)

    def Start(self):  # noqa: N802
        self._props["IsEnabled"] = True

    def Stop(self):  # noqa: N802
        self._props["IsEnabled"] = False


class XamlReader:
    parsed = 0

    @staticmethod
    def Parse(text):  # noqa: N802
        XamlReader.parsed += 1
        root_xml = ET.fromstring(text)
        names = {}

        def build(node):
            tag = node.tag.rsplit("}", 1)[-1]
            element = element_class(tag)()
            object.__setattr__(element, "_names", names)
            for attribute, value in node.attrib.items():
                if attribute == f"{X_NS}Name":
                    assert value not in names, f"duplicate name {value}"
                    names[value] = element
                    element._props["Name"] = value
                elif attribute == "Visibility":
                    element._props["Visibility"] = getattr(Visibility, value)
                elif not attribute.startswith("{") and ":" not in attribute and attribute not in EVENTS:
                    element._props[attribute] = value
            for child in node:
                child_tag = child.tag.rsplit("}", 1)[-1]
                if "." in child_tag:  # a property element: Grid.ColumnDefinitions, ListView.View, ...
                    prop = child_tag.split(".", 1)[1]
                    for grandchild in child:
                        built = build(grandchild)
                        if prop in COLLECTIONS:
                            getattr(element, prop).Add(built)
                    continue
                built = build(child)
                if tag in ("Border", "Window", "UserControl", "ScrollViewer", "Expander"):
                    setattr(element, "Child" if tag == "Border" else "Content", built)
                else:
                    element.Children.Add(built)
            return element

        return build(root_xml)


class BrushConverter:
    def ConvertFromString(self, text):  # noqa: N802
        return text


class WindowInteropHelper:
    def __init__(self, window):
        self.window = window
        self.Owner = None


class TimeSpan:
    @staticmethod
    def FromMilliseconds(ms):  # noqa: N802
        return ("TimeSpan", ms)

    @staticmethod
    def FromSeconds(seconds):  # noqa: N802
        return ("TimeSpan", seconds * 1000)


class Uri:
    def __init__(self, text, kind=None):
        self.AbsoluteUri = text


class BitmapImage:
    """Records what the view set; ``EndInit`` checks the file is there (as WPF's OnLoad reads it)."""

    def __init__(self):
        self.UriSource = None
        self.frozen = False

    def BeginInit(self):  # noqa: N802
        pass

    def EndInit(self):  # noqa: N802
        import os
        if not os.path.isfile(self.UriSource.AbsoluteUri):
            raise FileNotFoundError(self.UriSource.AbsoluteUri)

    def Freeze(self):  # noqa: N802
        self.frozen = True


class _DictionaryFactory:
    def __getitem__(self, types_):
        return dict


def _module(name, **members):
    module = types.ModuleType(name)
    module.__dict__.update(members)
    return module


def install(monkeypatch) -> Dispatcher:
    """Fake WPF in sys.modules for this test; returns the UI thread's Dispatcher."""
    global DISPATCHER
    import System
    import System.Collections.Generic as generic
    DISPATCHER = Dispatcher()
    controls = {tag: element_class(tag) for tag in (
        "Border", "StackPanel", "TextBlock", "TextBox", "Expander", "Button", "ColumnDefinition", "RowDefinition",
        "Separator", "Window")}
    modules = {
        "System.Windows": _module("System.Windows", Visibility=Visibility, TextWrapping=TextWrapping,
                                  FontStyles=FontStyles, FontWeights=FontWeights, WindowState=WindowState,
                                  HorizontalAlignment=HorizontalAlignment, Window=controls["Window"],
                                  Thickness=lambda *a: ("Thickness",) + a, CornerRadius=lambda *a: ("CornerRadius",) + a,
                                  GridLength=lambda value: ("GridLength", value)),
        "System.Windows.Markup": _module("System.Windows.Markup", XamlReader=XamlReader),
        "System.Windows.Threading": _module("System.Windows.Threading", DispatcherTimer=DispatcherTimer,
                                            DispatcherPriority=DispatcherPriority),
        "System.Windows.Controls": _module("System.Windows.Controls", Grid=Grid, **controls),
        "System.Windows.Documents": _module("System.Windows.Documents", Run=element_class("Run"),
                                            Hyperlink=element_class("Hyperlink")),
        "System.Windows.Media": _module("System.Windows.Media", BrushConverter=BrushConverter,
                                        FontFamily=lambda name: ("FontFamily", name)),
        "System.Windows.Media.Imaging": _module("System.Windows.Media.Imaging", BitmapImage=BitmapImage,
                                                BitmapCacheOption=enum_type("BitmapCacheOption", "OnLoad", "Default")),
        "System.Windows.Input": _module("System.Windows.Input", Key=Key, Keyboard=Keyboard, ModifierKeys=ModifierKeys),
        "System.Windows.Interop": _module("System.Windows.Interop", WindowInteropHelper=WindowInteropHelper),
    }
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(System, "Windows", modules["System.Windows"], raising=False)
    monkeypatch.setattr(System, "TimeSpan", TimeSpan, raising=False)
    monkeypatch.setattr(System, "Uri", Uri, raising=False)
    monkeypatch.setattr(System, "UriKind", UriKind, raising=False)
    monkeypatch.setattr(generic, "Dictionary", _DictionaryFactory(), raising=False)
    Keyboard.Modifiers.held.clear()
    return DISPATCHER


def pump_until(dispatcher: Dispatcher, condition, timeout: float = 20.0, what: str = "the condition"):
    """Pump the UI thread's queue (and tick running timers, like the GIL pump) until ``condition()``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dispatcher.pump()
        if condition():
            dispatcher.pump()
            return
        time.sleep(0.002)
    raise AssertionError(f"timed out waiting for {what}")
