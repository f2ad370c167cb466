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


def _tools_called_by(function) -> set[str]:
    """The tool names a scenario passes to ``b.call`` (read from its source, not by running it)."""
    tree = ast.parse(inspect.getsource(inspect.getmodule(function)))
    source = next(node for node in ast.walk(tree)
                  if isinstance(node, ast.FunctionDef) and node.name == function.__name__)
    return {node.args[0].value for node in ast.walk(source)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "call"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)}


def test_every_registered_tool_is_called_by_a_scenario():
    load_tools()
    helpers = [tool_bounds.Bounds.all_elements, tool_bounds.Bounds.all_walls,
               tool_bounds.Bounds.long_comments_on_every_wall, tool_bounds.many_sheets]
    called = set().union(*map(_tools_called_by, [*tool_bounds.SCENARIOS, tool_bounds.export_and_compare_every_wall,
                                                 tool_bounds.parameters_round_trip_on_every_wall, *helpers]))
    registered = set(default_registry().names())
    assert registered - called == set(), "every registered tool needs a scenario in bench/tool_bounds.py"
    assert called - registered == set(), "a scenario calls a tool that is not registered"
