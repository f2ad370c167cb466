"""paracore.tools.framework.plugins, in this process: each way a package can fail leaves it out whole, with
one line that says what to do, and leaves Paracore's catalogue, toolsets and use_toolset as they
were. The modules are written to a temporary folder and named by entry points made here; the
registry is a copy of Paracore's, and the toolsets added are taken back after each test."""
from __future__ import annotations

import itertools
import textwrap
from importlib.metadata import EntryPoint

import pytest
from pydantic import BaseModel

from paracore.tools.framework.catalogue import load_tools
from paracore.core import toolsets
from paracore.tools.framework import toolset_tools
from paracore.tools.framework.plugins import load_plugins
from paracore.tools.framework.registry import Registry, default_registry, registering_into, tool

_numbers = itertools.count()

GOOD = textwrap.dedent('''
    """Read the firm's title blocks."""
    from pydantic import BaseModel
    from paracore.tools.framework.registry import tool

    class NoArgs(BaseModel):
        pass

    @tool
    def {name}(ctx, args: NoArgs) -> str:
        """Say which title block the firm uses."""
        return "A1 landscape"
''')


@pytest.fixture
def registry(monkeypatch) -> Registry:
    """Paracore's tools in a registry of their own; no plugin toolsets (and none left after)."""
    load_tools()
    monkeypatch.setattr(toolsets, "_plugin_toolsets", ())
    copy = Registry()
    for spec in default_registry().specs():
        copy.register(spec)
    return copy


@pytest.fixture
def write(tmp_path, monkeypatch):
    """write(source, entry_name) -> an entry point naming a new module with that source."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(source: str, name: str = "firm") -> EntryPoint:
        module = f"paracore_test_plugin_{next(_numbers)}"
        (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
        return EntryPoint(name=name, value=module, group=toolsets.PLUGIN_GROUP)
    return write


def test_a_plugin_s_tools_join_the_registry_as_its_toolset_and_use_toolset_names_it(registry, write):
    before = registry.get("use_toolset")
    report = load_plugins(registry, [write(GOOD.format(name="title_block"), "title_blocks")])
    assert report.problems == []
    assert [(t.name, t.holds, sorted(t.tools)) for t in report.loaded] == \
        [("title_blocks", "Read the firm's title blocks.", ["title_block"])]
    assert "title_block" in registry and toolsets.toolset_of("title_block") == "title_blocks"
    use_toolset = registry.get("use_toolset")
    assert use_toolset is not before
    assert use_toolset.parameters["properties"]["name"]["enum"] == [*toolsets.NAMES, "title_blocks"]
    assert use_toolset.description.endswith("\n- title_blocks: Read the firm's title blocks.")
    assert "title_block" not in default_registry()            # the registry given, only
    assert default_registry().get("use_toolset").parameters == before.parameters


def test_a_module_that_fails_half_way_leaves_none_of_its_tools(registry, write):
    source = GOOD.format(name="title_block") + "\nraise RuntimeError('the licence server did not answer')\n"
    report = load_plugins(registry, [write(source)])
    assert report.loaded == [] and "title_block" not in registry and toolsets.plugin_toolsets() == ()
    [line] = report.problems
    assert line == (f"The toolset 'firm' of the package that declares {write_value(line)} was left out: importing "
                    f"{write_value(line)} failed with RuntimeError: the licence server did not answer. Fix that in "
                    f"the package that declares {write_value(line)}, or uninstall it.")


def write_value(line: str) -> str:
    return line.split("declares ")[1].split(" ")[0]


@pytest.mark.parametrize("source, why", [
    ("import sys\nsys.exit(3)\n", "failed with SystemExit: 3"),
    ('"""No tools here."""\n', "declares no tools. Declare them with @tool"),
    (GOOD.format(name="title_block").replace('"""Read the firm\'s title blocks."""', ""), "has no docstring"),
    (GOOD.format(name="title_block").replace('"""Say which title block the firm uses."""', "pass"),
     "failed with TypeError: tool title_block: add a docstring"),
    (GOOD.format(name="search_elements"), "its tool search_elements has the name of one of Paracore's tools. "
                                          "Rename it (@tool(name=...))"),
])
def test_each_way_a_package_fails_is_one_line_and_paracore_goes_on(registry, write, source, why):
    names = registry.names()
    search = registry.get("search_elements")
    report = load_plugins(registry, [write(source)])
    [line] = report.problems
    assert why in line and "\n" not in line and line.startswith("The toolset 'firm' of ")
    assert registry.names() == names and registry.get("search_elements") is search
    assert toolsets.plugin_toolsets() == ()


@pytest.mark.parametrize("name, why", [
    ("views", "Paracore has a toolset of that name. Rename the entry point"),
    ("Firm Tools", "its entry point's name is not a toolset name"),
])
def test_a_toolset_name_that_is_taken_or_unfit_is_refused_before_the_module_is_imported(registry, write, name, why):
    entry_point = write(GOOD.format(name="title_block"), name)
    report = load_plugins(registry, [entry_point])
    [line] = report.problems
    assert why in line and "title_block" not in registry


def test_of_two_packages_declaring_one_tool_name_the_first_keeps_it(registry, write):
    first, second = write(GOOD.format(name="title_block"), "alpha"), write(GOOD.format(name="title_block"), "beta")
    report = load_plugins(registry, [second, first])   # loaded by toolset name, whatever the order found
    assert [t.name for t in report.loaded] == ["alpha"]
    [line] = report.problems
    assert line.startswith("The toolset 'beta' ") and f"its tool title_block ({first.value}'s) has a name already " \
                                                      "taken" in line
    assert registry.get("title_block").function.__module__ == first.value


def test_the_same_toolset_name_from_two_packages_keeps_the_first(registry, write):
    report = load_plugins(registry, [write(GOOD.format(name="one"), "firm"), write(GOOD.format(name="two"), "firm")])
    assert [sorted(t.tools) for t in report.loaded] == [["one"]]
    assert "has a toolset of that name" in report.problems[0] and "two" not in registry


# -- the toolsets and the settings ---------------------------------------------------------------

def test_the_settings_may_pin_an_installed_package_s_toolset_and_an_unknown_name_lists_it(monkeypatch):
    monkeypatch.setattr(toolsets, "installed_plugin_names", lambda: ("door_checks",))
    assert toolsets.check_names(["views", "door_checks"]) == ["views", "door_checks"]
    with pytest.raises(ValueError, match=f"unknown toolset 'sheets'; toolsets: {', '.join(toolsets.NAMES)}, door_checks"):
        toolsets.check_names(["sheets"])


def test_a_pinned_toolset_that_did_not_load_adds_nothing_and_breaks_nothing(registry):
    on = toolsets.order_on(("door_checks", "views"), [])
    assert on == ["views"]
    assert toolsets.tools_sent(registry.names(), ["door_checks", "views"]) == \
        toolsets.tools_sent(registry.names(), ["views"])


def test_a_plugin_toolset_comes_after_paracore_s_in_the_pinned_order(registry, write):
    load_plugins(registry, [write(GOOD.format(name="title_block"), "title_blocks")])
    assert toolsets.order_on(("title_blocks", "views"), []) == ["views", "title_blocks"]
    assert toolsets.tools_sent(registry.names(), ["title_blocks"])[-1] == "title_block"


class NoArgs(BaseModel):
    pass


def test_registering_into_sends_tool_declarations_to_another_registry_only_inside():
    staged = Registry()

    def staged_tool(ctx, args: NoArgs) -> str:
        """A tool declared while a package is imported."""
    with registering_into(staged):
        tool(staged_tool)
    assert staged.names() == ["staged_tool"] and "staged_tool" not in default_registry()
    assert toolset_tools.arguments_model(("a", "b")).model_json_schema()["properties"]["name"]["enum"] == ["a", "b"]
