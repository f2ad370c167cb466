"""Tools from other installed packages (docs/PLUGINS.md): two real packages, the example firm's
(example_tool_package/: a ``door_checks`` toolset of two tools) and a broken one
(broken_tool_package/: a module that fails to import after declaring a tool, and one whose tool
takes the name of Paracore's ``search_elements``), are installed with pip into a folder of their
own and put on PYTHONPATH for a Paracore run in a subprocess (so this process's registry stays
Paracore's own). The example's tools are in the catalogue, in the toolsets the Settings offer and
the chat turns on, and over MCP, where a call runs on the stand-in; the broken ones are left out
whole, each reported in one line, and Paracore runs on."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from paracore.core import toolsets

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PACKAGES = ("example_tool_package", "broken_tool_package")
EXAMPLE_TOOLS = ["check_door_marks", "count_doors_by_level"]
LEFT_OUT = ["licence_status", "firm_search"]
TIMEOUT = 120

PROBE = r"""
import json, sys
from paracore.core.settings import Settings
from paracore.ui.settings_view import FormValues, SettingsForm
# The Settings pin an installed package's toolset before any package is imported (read from metadata).
pinned = Settings(pinned_toolsets=["door_checks", "views"]).pinned_toolsets
imported_by_settings = "paracore_example_tools" in sys.modules
hint = SettingsForm(Settings()).pinned_toolsets_hint()
saved = SettingsForm(Settings()).settings_from(FormValues(provider="anthropic", pinned_toolsets="door_checks")).pinned_toolsets

from paracore.tools.framework.catalogue import load_tools, plugin_problems
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.scripted import ScriptedModel
from paracore.core import toolsets
from paracore.tools.framework.registry import default_registry
load_tools()
registry = default_registry()

def calls(*specs):
    return {"tool_calls": [{"id": cid, "name": name, "arguments": args} for cid, name, args in specs]}

with Sandbox("duplex") as box:
    model = ScriptedModel.from_turns([[
        calls(("c1", "count_doors_by_level", {})),
        calls(("c2", "use_toolset", {"name": "door_checks"})),
        calls(("c3", "count_doors_by_level", {}), ("c4", "check_door_marks", {"pattern": "^A"})),
        {"text": "Done."},
    ]])
    agent = box.agent(model, toolsets=True, settings=Settings(pinned_toolsets=[]))
    finished = {e.call_id: {"error": e.is_error, "content": e.content} for e in agent.run_turn("Doors?")
                if type(e).__name__ == "ToolCallFinished"}
    sent = [[tool.name for tool in request.tools] for request in model.requests]
    pinned_model = ScriptedModel.from_turns([[{"text": "Hello."}]])
    list(box.agent(pinned_model, toolsets=True, settings=Settings(pinned_toolsets=["door_checks"])).run_turn("Hi"))
    sent_pinned = [tool.name for tool in pinned_model.requests[0].tools]
    deferring = ScriptedModel.from_turns([[calls(("d1", "use_toolset", {"name": "door_checks"})),
                                           calls(("d2", "count_doors_by_level", {})), {"text": "Done."}]])
    deferring.defers_tools = True   # as Anthropic's adapter: toolsets that are off go out deferred
    box.session.clear_conversation()
    deferred_run = {e.call_id: e.is_error for e in box.agent(deferring, toolsets=True, settings=Settings(
        pinned_toolsets=[])).run_turn("Doors?") if type(e).__name__ == "ToolCallFinished"}
    deferred = {tool.name: tool.deferred for tool in deferring.requests[0].tools}
    loaded_by_use_toolset = sorted(deferring.requests[1].messages[-1].tool_results[0].tool_references)

use_toolset = registry.get("use_toolset")
print(json.dumps({
    "pinned": pinned, "imported_by_settings": imported_by_settings, "hint": hint, "saved": saved,
    "names": registry.names(), "problems": plugin_problems(),
    "toolset": {t.name: sorted(t.tools) for t in toolsets.plugin_toolsets()},
    "holds": {t.name: t.holds for t in toolsets.plugin_toolsets()},
    "enum": use_toolset.parameters["properties"]["name"]["enum"], "described": use_toolset.description,
    "search_elements": registry.get("search_elements").function.__module__,
    "finished": finished, "sent": sent, "sent_pinned": sent_pinned,
    "deferred_run": deferred_run, "deferred": deferred, "loaded_by_use_toolset": loaded_by_use_toolset,
    "core": sorted(toolsets.CORE),
}))
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The two packages installed with pip into a folder of their own (offline, no isolation, from
    copies: a build leaves build/ and egg-info beside its source)."""
    base = tmp_path_factory.mktemp("plugins")
    for name in PACKAGES:
        shutil.copytree(HERE / name, base / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc",
                                                                                "*.egg-info", "build"))
    target = base / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                           "--no-index", "--target", str(target), *(str(base / name) for name in PACKAGES)],
                          capture_output=True, text=True, timeout=TIMEOUT,
                          env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"))
    assert done.returncode == 0, f"pip install failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert (target / "paracore_example_tools").is_dir() and (target / "paracore_broken_tools").is_dir()
    return target


def environment(site: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT / "lib")]))


def run(site: Path, *command: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, *command], capture_output=True, text=True, timeout=TIMEOUT,
                          env=environment(site), cwd=str(ROOT))
    assert done.returncode == 0, f"exited with {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def probed(site) -> dict:
    done = run(site, "-c", PROBE)
    return {**json.loads(done.stdout), "stderr": done.stderr}


def test_the_package_s_tools_are_in_the_catalogue_as_a_toolset_of_their_own(probed):
    assert set(EXAMPLE_TOOLS) <= set(probed["names"])
    assert probed["toolset"] == {"door_checks": EXAMPLE_TOOLS}
    assert probed["holds"]["door_checks"].startswith("Check the doors against the firm's standards")
    assert probed["enum"][-1] == "door_checks" and probed["enum"][:-1] == list(toolsets.NAMES)  # Paracore's, then the plugin's
    assert f"- door_checks: {probed['holds']['door_checks']}" in probed["described"]


def test_the_settings_offer_and_pin_the_package_s_toolset_before_it_is_imported(probed):
    assert probed["pinned"] == ["door_checks", "views"]
    assert not probed["imported_by_settings"], "validating the settings imported a package"
    assert "door_checks" in probed["hint"] and "modelling" in probed["hint"]
    assert probed["saved"] == ["door_checks"]


def test_the_chat_turns_the_package_s_toolset_on_and_runs_its_tools_on_the_stand_in(probed):
    finished, sent = probed["finished"], probed["sent"]
    assert finished["c1"]["error"] and 'use_toolset with name "door_checks"' in finished["c1"]["content"]
    assert not finished["c2"]["error"] and "check_door_marks, count_doors_by_level" in finished["c2"]["content"]
    assert finished["c3"] == {"error": False, "content": "14 doors (Level 1: 6, Level 2: 8)."}
    assert not finished["c4"]["error"] and finished["c4"]["content"].startswith("7 door Marks break ^A: ids ")
    assert not set(EXAMPLE_TOOLS) & set(sent[0]) and sent[0] == sent[1]
    assert sent[2][:len(sent[1])] == sent[1] and sent[2][len(sent[1]):] == EXAMPLE_TOOLS
    assert probed["sent_pinned"][-2:] == EXAMPLE_TOOLS


def test_a_model_that_defers_tools_gets_the_package_s_tools_deferred_until_use_toolset_loads_them(probed):
    assert probed["deferred_run"] == {"d1": False, "d2": False}
    assert all(probed["deferred"][name] for name in EXAMPLE_TOOLS)
    assert not probed["deferred"]["search_elements"]
    assert probed["loaded_by_use_toolset"] == EXAMPLE_TOOLS


def test_a_broken_package_is_left_out_whole_and_reported_in_one_line_each(probed):
    assert not set(LEFT_OUT) & set(probed["names"]), "a tool of a package that failed was registered"
    assert probed["search_elements"] == "paracore.tools.elements.query_tools"
    licensed, clashing = sorted(probed["problems"], reverse=True)
    assert licensed == ("The toolset 'licensed' of paracore-broken-tools 0.1 was left out: importing "
                        "paracore_broken_tools.licensed failed with ModuleNotFoundError: No module named "
                        "'paracore_no_such_licence_client'. Fix that in paracore-broken-tools, or uninstall it "
                        "(pip uninstall paracore-broken-tools).")
    assert clashing == ("The toolset 'clashing' of paracore-broken-tools 0.1 was left out: its tool "
                        "search_elements has the name of one of Paracore's tools. Rename it (@tool(name=...)) in "
                        "paracore-broken-tools, or uninstall it (pip uninstall paracore-broken-tools).")
    assert probed["stderr"].count("was left out") == 2   # logged as warnings too


def test_the_command_line_reports_a_broken_package_and_goes_on(site):
    done = run(site, "-m", "paracore", "tools-doc")
    assert "### count_doors_by_level" in done.stdout or "count_doors_by_level" in done.stdout
    assert "licence_status" not in done.stdout
    problems = [line for line in done.stderr.splitlines() if "was left out" in line]
    assert len(problems) == 2 and all("paracore-broken-tools" in line for line in problems), done.stderr


# -- over MCP: `paracore mcp --model duplex` over stdio ---------------------------------------------

@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
async def test_mcp_clients_see_the_package_s_tools_and_a_call_runs_on_the_stand_in(site, tmp_path):
    import mcp_types as types
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    env = dict(environment(site), PARACORE_DATA_DIR=str(tmp_path / "data"))
    server = StdioServerParameters(command=sys.executable, args=["-m", "paracore", "mcp", "--model", "duplex"],
                                   env=env, cwd=str(ROOT))
    client = Client(server, mode="legacy", client_info=types.Implementation(name="pytest-client", version="1.0"),
                    cache=None)
    with anyio.fail_after(TIMEOUT):
        async with client as session:
            listed_first = {tool.name for tool in (await session.list_tools()).tools}
            counted = await session.call_tool("count_doors_by_level", {})   # by name: turns its toolset on
            checked = await session.call_tool("check_door_marks", {"pattern": "^[AB]"})
            refused = await session.call_tool("check_door_marks", {"pattern": "("})
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert not set(EXAMPLE_TOOLS) & listed_first   # a package's toolset is off at first, as Paracore's are
    assert set(EXAMPLE_TOOLS) <= set(tools) and not set(LEFT_OUT) & set(tools)
    assert tools["count_doors_by_level"].annotations.read_only_hint
    assert tools["check_door_marks"].input_schema["properties"]["pattern"]["description"].startswith("A regular")
    assert not counted.is_error and counted.content[0].text == "14 doors (Level 1: 6, Level 2: 8)."
    assert not checked.is_error and checked.content[0].text == "Every door Mark matches ^[AB]."
    assert refused.is_error and "'(' is not a regular expression" in refused.content[0].text
