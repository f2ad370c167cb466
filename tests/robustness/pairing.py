"""The providers' pairing rules, checked on the request bodies the real adapters would send.

The robustness suites ask one question after every turn, whatever was injected: "if the user
typed one more message now, would Anthropic and OpenAI accept the request?" The bodies are
built by the adapters' own request mapping (no network), then checked against the rules each
provider documents:

* Anthropic Messages: roles alternate, starting and ending with ``user``; every ``tool_use`` is
  answered by a ``tool_result`` with its id in the very next message, the results opening that
  message in the order of the calls; no ``tool_result`` without its ``tool_use``; ids match
  ``^[a-zA-Z0-9_-]+$`` and are unique; no empty content and no blank text block.
* OpenAI Responses: every ``function_call`` has exactly one ``function_call_output`` with its
  ``call_id`` after it, and no output lacks its call.
* OpenAI Chat Completions: an assistant message with ``tool_calls`` is followed at once by one
  ``tool`` message per call, in order; no ``tool`` message anywhere else.
"""
from __future__ import annotations

import re
from typing import Any

from paracore.llm.anthropic_provider import AnthropicModel
from paracore.llm.base import ModelRequest
from paracore.llm.openai_chat import OpenAIChatModel
from paracore.llm.openai_responses import OpenAIResponsesModel
from paracore.core.messages import Message, add_user_text, validate_history

_ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
NEXT_USER_TEXT = "And now?"

# Adapters built once with dummy keys; only their request mapping is used, nothing is sent.
_ANTHROPIC = AnthropicModel("claude-sonnet-4-6", api_key="sk-ant-unused", base_url="http://127.0.0.1:9")
_RESPONSES = OpenAIResponsesModel("gpt-5", api_key="sk-unused", base_url="http://127.0.0.1:9")
_CHAT = OpenAIChatModel("local-model", base_url="http://127.0.0.1:9/v1")


def next_request(history: list[Message], text: str = NEXT_USER_TEXT) -> ModelRequest:
    """The request the agent would build if the user typed ``text`` now (no trimming, no tools)."""
    return ModelRequest(system="system", tools=[], messages=add_user_text(list(history), text),
                        max_output_tokens=1024)


def next_request_problems(history: list[Message]) -> list[str]:
    """Everything wrong with the next request, for the neutral history and the three wire formats."""
    request = next_request(history)
    problems = [f"neutral: {p}" for p in validate_history(request.messages)]
    problems += [f"anthropic: {p}" for p in anthropic_problems(_ANTHROPIC._map_request(request)["messages"])]
    problems += [f"openai responses: {p}" for p in responses_problems(_RESPONSES._map_request(request)["input"])]
    problems += [f"openai chat: {p}" for p in chat_problems(_CHAT._map_request(request)["messages"])]
    return problems


def anthropic_problems(messages: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    if not messages or messages[0]["role"] != "user" or messages[-1]["role"] != "user":
        problems.append("the messages must start and end with a user message")
    seen_ids: set[str] = set()
    for index, message in enumerate(messages):
        problems += _anthropic_message_problems(messages, index, seen_ids)
    return problems


def _anthropic_message_problems(messages: list[dict[str, Any]], index: int, seen_ids: set[str]) -> list[str]:
    message, problems = messages[index], []
    content = message["content"]
    if index and messages[index - 1]["role"] == message["role"]:
        problems.append(f"message {index}: two {message['role']} messages in a row")
    if not content:
        problems.append(f"message {index}: empty content")
    for block in content:
        if block["type"] == "text" and not block["text"].strip():
            problems.append(f"message {index}: blank text block")
    uses = [b for b in content if b["type"] == "tool_use"]
    for use in uses:
        if not _ANTHROPIC_ID.match(use["id"]) or use["id"] in seen_ids:
            problems.append(f"message {index}: tool_use id {use['id']!r} is malformed or repeated")
        seen_ids.add(use["id"])
    results = [b for b in content if b["type"] == "tool_result"]
    previous_uses = ([b["id"] for b in messages[index - 1]["content"] if b["type"] == "tool_use"]
                     if index and message["role"] == "user" else [])
    if results and [r["tool_use_id"] for r in results] != previous_uses:
        problems.append(f"message {index}: tool_result ids {[r['tool_use_id'] for r in results]} do not answer "
                        f"the previous message's tool_use ids {previous_uses} in order")
    if results and [b["type"] for b in content[:len(results)]] != ["tool_result"] * len(results):
        problems.append(f"message {index}: tool_result blocks must open the message")
    if uses:
        following = messages[index + 1]["content"] if index + 1 < len(messages) else []
        answered = [b.get("tool_use_id") for b in following if b["type"] == "tool_result"]
        if answered != [u["id"] for u in uses]:
            problems.append(f"message {index}: tool_use ids {[u['id'] for u in uses]} are not all answered "
                            "by the next message")
    return problems


def responses_problems(items: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    calls: dict[str, int] = {}
    outputs: dict[str, int] = {}
    for index, item in enumerate(items):
        if item["type"] == "function_call":
            if item["call_id"] in calls:
                problems.append(f"item {index}: function_call {item['call_id']!r} repeated")
            calls[item["call_id"]] = index
        elif item["type"] == "function_call_output":
            call_id = item["call_id"]
            if call_id not in calls:
                problems.append(f"item {index}: function_call_output {call_id!r} has no function_call before it")
            if call_id in outputs:
                problems.append(f"item {index}: function_call_output {call_id!r} repeated")
            outputs[call_id] = index
    problems += [f"function_call {c!r} has no function_call_output" for c in calls if c not in outputs]
    if not items or items[-1].get("role") != "user":
        problems.append("the input must end with the user's message")
    return problems


def chat_problems(messages: list[dict[str, Any]]) -> list[str]:
    problems: list[str] = []
    index = 0
    while index < len(messages):
        message = messages[index]
        calls = message.get("tool_calls") or []
        if message["role"] == "tool":
            problems.append(f"message {index}: a tool message not answering the assistant message before it")
        if calls:
            answers = messages[index + 1:index + 1 + len(calls)]
            if [(a["role"], a.get("tool_call_id")) for a in answers] != [("tool", c["id"]) for c in calls]:
                problems.append(f"message {index}: tool_calls {[c['id'] for c in calls]} are not answered by "
                                "the tool messages right after it, in order")
            index += 1 + len(answers)
            continue
        index += 1
    if not messages or messages[-1]["role"] != "user":
        problems.append("the messages must end with the user's message")
    return problems
