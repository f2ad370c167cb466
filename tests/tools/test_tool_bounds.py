"""The bounded-result rule, for every registered tool, on the duplex grown to 10,000 elements.

What a tool sends back to the model must stay a few hundred tokens whatever the size of the
model: counts, a short sample, "… and N more", never one line per element. The scenarios and the
bounds are bench/tool_bounds.py's: each calls tools the way that touches as much of the model as
it can, through the executor the agent uses, and holds every result to its bound (2,000
characters; run_python and run_script: their documented OUTPUT_LIMIT plus their own sentences).

Here every scenario runs on its own freshly grown model, so none depends on what another changed
or on the order they run in. The benchmark runs them all on the duplex grown to 100,000 elements
and reports the largest results (bench/RESULTS.md, .cache/tool-result-sizes.json).
"""
from __future__ import annotations

import ast
import functools
import inspect
import sys
from pathlib import Path

import pytest

from paracore.core import standards
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.scripts import code_tools, script_tools
from paracore.tools.framework import export_files
from paracore.tools.framework.registry import ToolCallError, default_registry

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # the bench modules import each other by name

import tool_bounds  # noqa: E402

SIZE = 10_000


@pytest.fixture
def bounds():
    """A duplex grown to SIZE and populated (bench/tool_bounds.populate), for this test alone."""
    sandbox = tool_bounds.open_model(SIZE)
    try:
        yield tool_bounds.Bounds(sandbox, SIZE)
    finally:
        sandbox.close()


@pytest.mark.parametrize("scenario", tool_bounds.SCENARIOS, ids=lambda scenario: scenario.__name__)
def test_every_result_is_bounded(bounds, scenario):
    scenario(bounds)
    assert bounds.calls, "the scenario called no tool"


def test_export_and_compare_every_wall(bounds, tmp_path, monkeypatch):
    documents = tmp_path / "Documents"
    monkeypatch.setattr(export_files, "documents_folder", lambda: documents)
    tool_bounds.export_and_compare_every_wall(bounds, documents)


def test_the_bounds_are_the_documented_output_limits():
    assert tool_bounds.BOUNDS == {"run_python": code_tools.OUTPUT_LIMIT + 400,
                                  "run_script": script_tools.OUTPUT_LIMIT + 400,
                                  "use_standard": standards.TEXT_LIMIT + 400}
    assert tool_bounds.BOUND == 2_000


def test_refused_calls_are_bounded_too():
    load_tools()
    registry = default_registry()
    junk = {"element_ids": "9" * 5_000, "unexpected": "x" * 5_000, "count": "y" * 5_000, "name": ["z" * 5_000]}
    for name in registry.names():
        refused = registry.prepare(name, junk, ())
        assert isinstance(refused, ToolCallError), name
        assert len(refused.message) <= tool_bounds.BOUND, f"{name}: {len(refused.message)} characters\n" \
                                                          f"{refused.message[:3000]}"
    unknown = registry.prepare("make_coffee_" + "please_" * 700, {}, ())
    assert isinstance(unknown, ToolCallError)
    assert len(unknown.message) <= tool_bounds.BOUND, unknown.message[:3000]


# -- every tool has a scenario ----------------------------------------------------------------------------
# The scenarios are written by hand (each calls its tools the way that touches the most of a big model), so a
# tool registered without one would go unmeasured: below, each registered tool is a test of its own, named
# after it, that fails until a scenario calls it and gets a result (not only a refusal).

HELPERS = [tool_bounds.Bounds.all_elements, tool_bounds.Bounds.all_walls, tool_bounds.Bounds.long_comments_on_every_wall,
           tool_bounds.many_sheets, tool_bounds.export_and_compare_every_wall,
           tool_bounds.parameters_round_trip_on_every_wall]
"""What the scenarios call that calls tools itself: its calls count as theirs (a helper missing here makes
its tools look uncalled: add it)."""


def _calls_in(function) -> list[tuple[str, bool]]:
    """(tool, refusal expected) for each ``b.call("tool", ..., error=...)`` in ``function``'s source, read
    without running it: ``error=True`` written out is a refusal; any other ``error`` may be a result."""
    tree = ast.parse(inspect.getsource(inspect.getmodule(function)))
    source = next(node for node in ast.walk(tree)
                  if isinstance(node, ast.FunctionDef) and node.name == function.__name__)
    return [(node.args[0].value, any(keyword.arg == "error" and isinstance(keyword.value, ast.Constant)
                                     and keyword.value.value is True for keyword in node.keywords))
            for node in ast.walk(source)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "call"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)]


@functools.lru_cache(maxsize=1)
def scenario_calls() -> dict[str, set[bool]]:
    """Each tool the scenarios call, with whether its calls expect a refusal (True), a result (False) or both."""
    calls: dict[str, set[bool]] = {}
    for function in [*tool_bounds.SCENARIOS, *HELPERS]:
        for name, refused in _calls_in(function):
            calls.setdefault(name, set()).add(refused)
    return calls


load_tools()   # the tools are the parameters below: those registered when the tests are collected


@pytest.mark.parametrize("name", sorted(default_registry().names()))
def test_every_registered_tool_has_a_scenario_that_measures_its_result(name):
    outcomes = scenario_calls().get(name, set())
    assert outcomes, (f"{name} is registered but no scenario of bench/tool_bounds.py calls it, so the size of "
                      f"what it returns on a big model is not measured: add a scenario to SCENARIOS that calls "
                      f"{name} the way that touches the most of the model (every element, every wall, long names)")
    assert False in outcomes, (f"the scenarios call {name} only to be refused (error=True): add a call that gets "
                               "a result, so that its largest result is measured against the bound")


def test_every_tool_a_scenario_calls_is_registered():
    assert set(scenario_calls()) - set(default_registry().names()) == set(), \
        "a scenario of bench/tool_bounds.py calls a tool that is not registered"
