"""Anthropic's adapter and toolsets (docs/TOOLSETS.md): tools of toolsets that are off go out
with ``defer_loading``, the cache breakpoint ends the tools that are loaded, and use_toolset's
result loads the toolset's tools with ``tool_reference`` blocks."""
from __future__ import annotations

from paracore.llm.anthropic_provider import AnthropicModel
from paracore.llm.base import ModelRequest, ToolDefinition
from paracore.llm.retry import RetryingModel
from paracore.core.messages import Message, TextPart, ToolCallPart, ToolResultPart

SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}


def model() -> AnthropicModel:
    return AnthropicModel("claude-sonnet-4-6", api_key="sk-ant-test-0000000000",
                          base_url="https://api.anthropic.invalid", http_client=None)


def tool(name: str, deferred: bool = False) -> ToolDefinition:
    return ToolDefinition(name=name, description=f"{name}.", parameters=SCHEMA, deferred=deferred)


def test_the_adapter_says_it_defers_tools_also_behind_the_retry_policy():
    assert model().defers_tools and RetryingModel(model()).defers_tools


def test_deferred_tools_carry_defer_loading_and_the_breakpoint_ends_the_loaded_ones():
    tools = [tool("search_elements"), tool("use_toolset"), tool("create_wall", True), tool("get_warnings", True)]
    body = model()._map_request(ModelRequest(system="S", tools=tools, messages=[Message.user_text("Hi")]))
    assert [t.get("defer_loading", False) for t in body["tools"]] == [False, False, True, True]
    assert [("cache_control" in t) for t in body["tools"]] == [False, True, False, False]


def test_a_result_with_tool_references_loads_them_after_its_text():
    call = ToolCallPart(id="c1", name="use_toolset", arguments={"name": "qa"})
    result = ToolResultPart(call_id="c1", name="use_toolset", content="The qa toolset is now on.",
                            tool_references=("get_warnings",))
    messages = [Message.user_text("Warnings?"), Message(role="assistant", parts=[call]),
                Message(role="user", parts=[result, TextPart(text="CONTEXT: none")])]
    body = model()._map_request(ModelRequest(system="S", tools=[tool("use_toolset"), tool("get_warnings", True)],
                                             messages=messages))
    block = body["messages"][2]["content"][0]
    assert block["type"] == "tool_result"
    assert block["content"] == [{"type": "text", "text": "The qa toolset is now on."},
                                {"type": "tool_reference", "tool_name": "get_warnings"}]


def test_without_deferred_tools_the_body_is_as_before():
    body = model()._map_request(ModelRequest(system="S", tools=[tool("a"), tool("b")],
                                             messages=[Message.user_text("Hi")]))
    assert body["tools"] == [{"name": "a", "description": "a.", "input_schema": SCHEMA},
                             {"name": "b", "description": "b.", "input_schema": SCHEMA,
                              "cache_control": {"type": "ephemeral"}}]
