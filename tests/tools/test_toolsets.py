"""Toolsets (docs/TOOLSETS.md): every tool is placed in the core or one toolset; the tools sent
keep a fixed order and only grow at the end; use_toolset turns a toolset on for the rest of the
conversation; pinned toolsets are on from the first request; a call to a tool that is off is an
error result that names its toolset, and the history stays valid."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from paracore.core import events as ev
from paracore.agent.build import build_agent
from paracore.tools.framework.catalogue import load_tools
from paracore.app.replay_file import load_replay
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import ToolCallPart, validate_history
from paracore.core.settings import Settings
from paracore.core import toolsets
from paracore.tools.framework.registry import default_registry


def registered() -> list[str]:
    load_tools()
    return default_registry().names()


def calls(*specs) -> dict:
    return {"tool_calls": [{"id": cid, "name": name, "arguments": args} for cid, name, args in specs]}


def text(value: str) -> dict:
    return {"text": value}


def tool_names(request) -> list[str]:
    return [tool.name for tool in request.tools]


def results(events) -> dict[str, ev.ToolCallFinished]:
    return {e.call_id: e for e in events if isinstance(e, ev.ToolCallFinished)}


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox("duplex") as box:
        yield box


@pytest.fixture
def fresh(sandbox):
    """The sandbox's session as a new conversation (toolsets off, empty history)."""
    sandbox.session.clear_conversation()
    yield sandbox
    sandbox.session.clear_conversation()


# -- the mapping -------------------------------------------------------------------------------

def test_every_registered_tool_is_in_the_core_or_a_toolset():
    unplaced = [name for name in registered() if not toolsets.is_placed(name)]
    assert not unplaced, (f"place these tools in lib/paracore/core/toolsets.py (CORE or a toolset): "
                          f"{', '.join(unplaced)}")


def test_no_tool_is_in_two_places():
    places = [toolsets.CORE, *(toolset.tools for toolset in toolsets.TOOLSETS)]
    seen: dict[str, int] = {}
    for index, names in enumerate(places):
        for name in names:
            assert name not in seen, f"{name} is in two places"
            seen[name] = index


def test_the_core_holds_what_nearly_every_conversation_needs():
    for name in ("search_elements", "get_element_info", "get_parameters", "get_working_set", "select_elements",
                 "get_model_overview", "list_levels", "list_types", "list_views", toolsets.USE_TOOLSET):
        assert name in toolsets.CORE
    assert set(toolsets.NAMES) == {"modelling", "views", "filters", "documentation", "schedules", "qa", "scripts",
                                   "worksharing", "exports", "materials", "grids", "structure", "families"}


def test_tools_being_written_have_their_toolset_already():
    expected = {"create_sheet": "documentation", "place_views_on_sheet": "documentation",
                "list_sheets": "documentation", "duplicate_view": "views", "export_schedule": "schedules",
                "compare_schedules": "schedules"}
    assert {name: toolsets.toolset_of(name) for name in expected} == expected


def test_use_toolset_describes_every_toolset_and_accepts_only_their_names():
    registered()
    spec = default_registry().get(toolsets.USE_TOOLSET)
    for toolset in toolsets.TOOLSETS:
        assert f"- {toolset.name}: {toolset.holds}" in spec.description
    assert spec.parameters["properties"]["name"]["enum"] == list(toolsets.NAMES)
    assert not spec.writes


# -- the order of the tools sent ----------------------------------------------------------------

def test_the_core_comes_first_sorted_then_toolsets_in_the_order_turned_on():
    names = registered()
    sent = toolsets.tools_sent(names, ["views", "modelling"])
    core = [name for name in sent if name in toolsets.CORE]
    assert sent[:len(core)] == sorted(core)
    views = sorted(n for n in names if toolsets.toolset_of(n) == "views")
    modelling = sorted(n for n in names if toolsets.toolset_of(n) == "modelling")
    assert sent[len(core):] == views + modelling


def test_turning_a_toolset_on_only_appends():
    names = registered()
    on: list[str] = []
    previous = toolsets.tools_sent(names, on)
    for name in ("schedules", "views", "qa", "modelling", "scripts", "documentation", "worksharing", "exports",
                 "materials", "filters", "grids", "structure", "families"):
        on = toolsets.order_on((), [*on, name])
        sent = toolsets.tools_sent(names, on)
        assert sent[:len(previous)] == previous
        previous = sent
    assert sorted(previous) == names


def test_pinned_toolsets_come_first_in_canonical_order_and_are_not_sent_twice():
    assert toolsets.order_on(("scripts", "views"), ["qa", "views"]) == ["views", "scripts", "qa"]


# -- settings -------------------------------------------------------------------------------------

def test_settings_pin_known_toolsets_only():
    assert Settings(pinned_toolsets=[" views", "schedules", "views"]).pinned_toolsets == ["views", "schedules"]
    with pytest.raises(ValidationError) as error:
        Settings(pinned_toolsets=["sheets"])
    assert "unknown toolset 'sheets'" in str(error.value) and "documentation" in str(error.value)


def test_pinned_toolsets_are_sent_from_the_first_request(fresh):
    model = ScriptedModel.from_turns([[text("Hello.")]])
    agent = build_agent(Settings(pinned_toolsets=["schedules"]), fresh.runtime, fresh.session, model=model)
    list(agent.run_turn("Hi"))
    sent = tool_names(model.requests[0])
    assert "create_schedule" in sent and "create_wall" not in sent
    assert sent == toolsets.tools_sent(registered(), ["schedules"])


# -- a conversation ----------------------------------------------------------------------------------

WALL = {"level": "Level 1", "start": [0, -20], "end": [8, -20]}
NOTHING_PINNED = Settings(pinned_toolsets=[])  # the defaults pin modelling


def test_a_call_to_a_tool_that_is_off_names_its_toolset_then_use_toolset_turns_it_on(fresh):
    model = ScriptedModel.from_turns([[
        calls(("c1", "create_wall", WALL)),
        calls(("c2", "use_toolset", {"name": "modelling"})),
        calls(("c3", "create_wall", WALL)),
        text("Done."),
    ]])
    agent = fresh.agent(model, toolsets=True, settings=NOTHING_PINNED)
    events = list(agent.run_turn("Draw a wall."))
    answers = results(events)
    assert answers["c1"].is_error and "modelling toolset, which is off" in answers["c1"].content
    assert 'use_toolset with name "modelling"' in answers["c1"].content
    assert not answers["c2"].is_error and "create_wall" in answers["c2"].content
    assert not answers["c3"].is_error, answers["c3"].content
    assert validate_history(fresh.session.history) == []
    first, second, third, _ = (tool_names(r) for r in model.requests)
    assert first == second == toolsets.tools_sent(registered(), [])
    assert third[:len(second)] == second and "create_wall" in third[len(second):]


def test_use_toolset_and_a_tool_of_it_in_the_same_step_the_tool_waits_for_the_next_step(fresh):
    model = ScriptedModel.from_turns([[
        calls(("c1", "use_toolset", {"name": "qa"}), ("c2", "get_warnings", {})),
        text("Turned on."),
    ]])
    answers = results(fresh.agent(model, toolsets=True).run_turn("Any warnings?"))
    assert not answers["c1"].is_error
    assert answers["c2"].is_error and "qa toolset" in answers["c2"].content
    assert validate_history(fresh.session.history) == []


def test_a_toolset_stays_on_for_the_conversation_and_goes_off_when_it_is_cleared(fresh):
    model = ScriptedModel.from_turns([
        [calls(("c1", "use_toolset", {"name": "views"})), text("On.")],
        [calls(("c2", "use_toolset", {"name": "views"})), text("Still on.")],
        [text("Later.")],
    ])
    agent = fresh.agent(model, toolsets=True, settings=NOTHING_PINNED)
    list(agent.run_turn("Views, please."))
    answers = results(agent.run_turn("Again."))
    assert "was already on" in answers["c2"].content
    assert "activate_view" in tool_names(model.requests[-1])
    fresh.session.clear_conversation()
    list(agent.run_turn("New conversation."))
    assert tool_names(model.requests[-1]) == toolsets.tools_sent(registered(), [])


def test_without_toolsets_every_tool_is_sent_and_callable(fresh):
    model = ScriptedModel.from_turns([[calls(("c1", "get_warnings", {})), text("Done.")]])
    answers = results(fresh.agent(model).run_turn("Warnings?"))
    assert not answers["c1"].is_error
    assert tool_names(model.requests[0]) == registered()


def test_outside_calls_reach_every_tool_even_with_toolsets(fresh):
    agent = fresh.agent(ScriptedModel.from_turns([]), toolsets=True)
    call = ToolCallPart(id="m1", name="get_warnings", arguments={})
    answers = results(agent.run_calls([call]))
    assert not answers["m1"].is_error


def test_a_replay_file_may_start_with_the_core_tools(tmp_path):
    path = tmp_path / "replay.json"
    path.write_text('{"toolsets": true, "turns": [{"user": "Hi", "steps": [{"text": "Hello."}]}]}',
                    encoding="utf-8")
    assert load_replay(path).toolsets is True


# -- deferred loading (Anthropic) -----------------------------------------------------------------

def deferring(steps) -> ScriptedModel:
    model = ScriptedModel.from_turns(steps)
    model.defers_tools = True   # as AnthropicModel: toolsets that are off are sent deferred
    return model


def test_a_model_that_defers_gets_every_tool_with_the_toolsets_off_deferred_in_one_order(fresh):
    model = deferring([[
        calls(("c1", "use_toolset", {"name": "modelling"})),
        calls(("c2", "create_wall", WALL)),
        text("Done."),
    ]])
    answers = results(fresh.agent(model, toolsets=True, settings=NOTHING_PINNED).run_turn("Draw a wall."))
    assert not answers["c2"].is_error, answers["c2"].content
    first, second, third = (r.tools for r in model.requests)
    assert first == second == third   # the tools block never changes: the prompt cache keeps it
    assert sorted(tool.name for tool in first) == registered()
    assert {tool.name for tool in first if not tool.deferred} == set(toolsets.tools_sent(registered(), []))
    [result] = model.requests[1].messages[-1].tool_results
    modelling = sorted(n for n in registered() if toolsets.toolset_of(n) == "modelling")
    assert sorted(result.tool_references) == modelling
    assert validate_history(fresh.session.history) == []


def test_pinned_toolsets_are_not_deferred(fresh):
    model = deferring([[text("Hello.")]])
    agent = build_agent(Settings(pinned_toolsets=["qa"]), fresh.runtime, fresh.session, model=model)
    list(agent.run_turn("Hi"))
    loaded = [tool.name for tool in model.requests[0].tools if not tool.deferred]
    assert loaded == toolsets.tools_sent(registered(), ["qa"])


def test_a_deferred_tool_is_still_off_until_use_toolset(fresh):
    model = deferring([[calls(("c1", "get_warnings", {})), text("Off.")]])
    answers = results(fresh.agent(model, toolsets=True).run_turn("Warnings?"))
    assert answers["c1"].is_error and "qa toolset" in answers["c1"].content


def test_docs_toolsets_table_lists_exactly_the_tools_of_each_toolset():
    """docs/TOOLSETS.md's table names, for the core and each toolset, exactly the tools this module
    places there (reserved names included), and no toolset is missing from it."""
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "TOOLSETS.md").read_text(encoding="utf-8")
    rows = {}
    for line in doc.splitlines():
        match = re.match(r"^\| (core \(always on\)|`(\w+)`) \| (.*) \|$", line)
        if match:
            rows[match.group(2) or "core"] = set(re.findall(r"`(\w+)`", match.group(3)))
    expected = {"core": set(toolsets.CORE), **{t.name: set(t.tools) for t in toolsets.TOOLSETS}}
    assert rows == expected
