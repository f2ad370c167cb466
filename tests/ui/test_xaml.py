"""The chat's XAML, checked without WPF: what XamlReader.Parse needs, and what the view looks up.

pyRevit's CPython engine cannot compile code-behind, so the XAML is loaded with
System.Windows.Markup.XamlReader.Parse. That rules out ``x:Class`` and event attributes
(``Click="OnClick"`` needs a code-behind method): events are wired in Python. And every element
the Python code finds by name must exist as ``x:Name`` in the XAML it loads, or the pane fails
only inside Revit. Both are checked here, statically: each XAML file is well-formed XML, and
the names come from the modules' ``XAML_NAMES`` and from any ``FindName("...")`` literal.
"""
from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "lib" / "paracore"
XAML_DIR = PACKAGE / "ui" / "xaml"
XAML_FILES = sorted(XAML_DIR.glob("*.xaml"))
CODE_FOLDERS = (PACKAGE / "ui", PACKAGE / "revit")

WPF_NS = "http://schemas.microsoft.com/winfx/2006/xaml/presentation"
X_NS = "http://schemas.microsoft.com/winfx/2006/xaml"

# Routed and CLR events of WPF elements: as XML attributes they name a code-behind handler.
WPF_EVENTS = frozenset("""
    Click Checked Unchecked Indeterminate Loaded Unloaded Initialized TextChanged TextInput SelectionChanged
    SelectedItemChanged KeyDown KeyUp PreviewKeyDown PreviewKeyUp PreviewTextInput MouseDown MouseUp
    MouseLeftButtonDown MouseLeftButtonUp MouseRightButtonDown MouseRightButtonUp MouseDoubleClick MouseMove
    MouseEnter MouseLeave MouseWheel PreviewMouseDown PreviewMouseUp PreviewMouseLeftButtonDown
    PreviewMouseLeftButtonUp PreviewMouseRightButtonDown PreviewMouseRightButtonUp PreviewMouseMove
    PreviewMouseWheel PreviewMouseDoubleClick GotFocus LostFocus GotKeyboardFocus LostKeyboardFocus
    PreviewGotKeyboardFocus PreviewLostKeyboardFocus GotMouseCapture LostMouseCapture ValueChanged Expanded
    Collapsed Closing Closed Activated Deactivated ContentRendered SourceInitialized StateChanged
    LocationChanged SizeChanged LayoutUpdated DataContextChanged IsVisibleChanged IsEnabledChanged
    IsKeyboardFocusedChanged IsKeyboardFocusWithinChanged IsMouseOverChanged FocusableChanged PasswordChanged
    ScrollChanged Scroll DropDownOpened DropDownClosed ContextMenuOpening ContextMenuClosing ToolTipOpening
    ToolTipClosing Selected Unselected RequestNavigate RequestBringIntoView Navigated Navigating
    LoadCompleted DragEnter DragLeave DragOver Drop PreviewDragEnter PreviewDragLeave PreviewDragOver
    PreviewDrop GiveFeedback QueryContinueDrag DragStarted DragDelta DragCompleted TouchDown TouchUp TouchMove
    TouchEnter TouchLeave StylusDown StylusUp StylusMove ManipulationStarted ManipulationDelta
    ManipulationCompleted SourceUpdated TargetUpdated Tick Opened Error ImageFailed MediaOpened MediaEnded
    MediaFailed CellEditEnding RowEditEnding Sorting AutoGeneratingColumn BeginningEdit CurrentCellChanged
    SelectedCellsChanged Filter CanExecute Executed PreviewCanExecute PreviewExecuted
""".split())


def xaml_tree(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def xaml_names(path: Path) -> list[str]:
    names = []
    for element in xaml_tree(path).iter():
        for attribute, value in element.attrib.items():
            if attribute in (f"{{{X_NS}}}Name", "Name"):
                names.append(value)
    return names


def test_there_is_xaml_to_check():
    assert {p.name for p in XAML_FILES} >= {"chat_pane.xaml", "tool_card.xaml", "settings_window.xaml"}


@pytest.mark.parametrize("path", XAML_FILES, ids=lambda p: p.name)
def test_xaml_is_well_formed_wpf_xml(path):
    root = xaml_tree(path)  # raises ParseError if not well-formed
    assert root.tag.startswith(f"{{{WPF_NS}}}"), f"{path.name}: the root must be in WPF's namespace, got {root.tag}"
    text = path.read_text(encoding="utf-8")
    assert not text.startswith("\ufeff"), f"{path.name} starts with a BOM"
    assert f'xmlns:x="{X_NS}"' in text


@pytest.mark.parametrize("path", XAML_FILES, ids=lambda p: p.name)
def test_xaml_has_no_code_behind(path):
    """No x:Class / x:Code / x:Subclass, no event attributes, no EventSetter: nothing that needs
    compiled code-behind, which XamlReader.Parse cannot provide."""
    problems = []
    for element in xaml_tree(path).iter():
        tag = local(element.tag)
        if element.tag.startswith(f"{{{X_NS}}}") and tag in ("Code", "XData"):
            problems.append(f"<x:{tag}> element")
        if tag == "EventSetter":
            problems.append("<EventSetter> (needs a code-behind handler)")
        for attribute in element.attrib:
            name = local(attribute)
            if attribute.startswith(f"{{{X_NS}}}") and name in ("Class", "Subclass", "ClassModifier", "FieldModifier"):
                problems.append(f"x:{name} on <{tag}>")
            event = name.rsplit(".", 1)[-1]  # Button.Click="..." is an attached event
            if event in WPF_EVENTS or name == "Handler":
                problems.append(f'{name}="..." on <{tag}>')
    assert not problems, f"{path.name}: " + "; ".join(problems)


@pytest.mark.parametrize("path", XAML_FILES, ids=lambda p: p.name)
def test_xaml_names_are_unique(path):
    names = xaml_names(path)
    duplicates = sorted({n for n in names if names.count(n) > 1})
    assert not duplicates, f"{path.name}: XamlReader.Parse refuses duplicate names: {duplicates}"


# -- what the Python code looks up --------------------------------------------------------------

class ModuleLookups:
    """What one module declares (XAML_NAMES) and looks up (FindName literals), from its AST."""

    def __init__(self, path: Path):
        self.path = path
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        constants[target.id] = node.value.value
        self.declared: dict[str, tuple[str, ...]] = {}
        for node in tree.body:
            target, value = None, None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign):
                target, value = node.target, node.value
            if isinstance(target, ast.Name) and target.id.endswith("XAML_NAMES") and isinstance(value, ast.Dict):
                for key, names in zip(value.keys, value.values):
                    filename = key.value if isinstance(key, ast.Constant) else constants[key.id]
                    self.declared[filename] = tuple(ast.literal_eval(names))
        self.find_name_literals = sorted({
            node.args[0].value for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "FindName"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)})
        text = path.read_text(encoding="utf-8")
        self.xaml_mentions = sorted(set(re.findall(r"[\"']([A-Za-z_]+\.xaml)[\"']", text)))


def lookup_modules() -> list[ModuleLookups]:
    modules = [ModuleLookups(p) for folder in CODE_FOLDERS for p in sorted(folder.glob("*.py"))]
    return [m for m in modules if m.declared or m.find_name_literals or m.xaml_mentions]


def test_the_views_declare_their_lookups():
    declaring = {m.path.name for m in lookup_modules() if m.declared}
    assert {"wpf_view.py", "settings_view.py"} <= declaring


@pytest.mark.parametrize("module", lookup_modules(), ids=lambda m: m.path.name)
def test_every_name_looked_up_exists_in_the_xaml_it_loads(module):
    for filename, names in module.declared.items():
        path = XAML_DIR / filename
        assert path.is_file(), f"{module.path.name} loads {filename}, which is not in {XAML_DIR}"
        present = set(xaml_names(path))
        missing = [n for n in names if n not in present]
        assert not missing, f"{module.path.name} looks up {missing} in {filename}, which has no such x:Name"
    loaded = {n for names in module.declared.values() for n in names}
    available = {n for filename in module.declared for n in xaml_names(XAML_DIR / filename)}
    for literal in module.find_name_literals:
        assert literal in available, (f"{module.path.name} calls FindName({literal!r}), which none of the XAML "
                                      f"it loads ({', '.join(module.declared) or 'none'}) defines")
        assert literal in loaded or not module.declared, f"{literal!r} should be listed in XAML_NAMES"
    for mention in module.xaml_mentions:
        assert (XAML_DIR / mention).is_file(), f"{module.path.name} mentions {mention}, which does not exist"


def test_every_xaml_file_is_loaded_by_some_module():
    loaded = {filename for m in lookup_modules() for filename in m.declared}
    orphans = [p.name for p in XAML_FILES if p.name not in loaded]
    assert not orphans, f"XAML nobody loads (or whose names nobody declares): {orphans}"


def test_the_chat_pane_has_what_the_issue_asks_for():
    names = set(xaml_names(XAML_DIR / "chat_pane.xaml")) | set(xaml_names(XAML_DIR / "tool_card.xaml"))
    required = {
        "ConversationPanel", "StopButton", "StatusText", "UsageText", "InputBox", "SendButton",
        "NewConversationButton", "WorkingSetCounts", "WorkingSetList", "WsSelectButton", "WsIsolateButton",
        "WsRemoveButton", "WsClearButton",  # the pane
        "ArgumentsExpander", "ResultExpander", "ApproveButton", "DenyButton", "AlwaysButton",  # a tool card
    }
    assert required <= names, sorted(required - names)
    card = xaml_tree(XAML_DIR / "tool_card.xaml")
    always = next(e for e in card.iter() if e.get(f"{{{X_NS}}}Name") == "AlwaysButton")
    assert "session" in always.get("Content", "").lower()
    listing = next(e for e in xaml_tree(XAML_DIR / "chat_pane.xaml").iter()
                   if e.get(f"{{{X_NS}}}Name") == "WorkingSetList")
    assert listing.get("SelectionMode") in ("Extended", "Multiple")
    headers = [e.get("Header") for e in listing.iter() if local(e.tag) == "GridViewColumn"]
    assert headers == ["Id", "Category", "Name"]


def test_the_settings_window_never_shows_a_key_back():
    window = xaml_tree(XAML_DIR / "settings_window.xaml")
    key = next(e for e in window.iter() if e.get(f"{{{X_NS}}}Name") == "KeyBox")
    assert local(key.tag) == "PasswordBox"
    assert local(window.tag) == "Window"
