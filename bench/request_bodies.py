"""The bytes the Anthropic and OpenAI (Responses) adapters would send, captured without a network.

Each neutral ``ModelRequest`` (as the scripted model recorded it) goes through the real adapter's
``stream()``: the adapter maps it (``_map_request``) and hands it to the provider's SDK, which
serializes it (compact JSON, its own key order) and sends it to an ``httpx2.MockTransport``. The
transport keeps the body and answers HTTP 400, so nothing leaves the process and the adapter
raises a ``ModelError`` that is expected here. The bodies are therefore byte for byte what the
provider would receive (the provider conformance test reads the same bytes the same way).

Prompt caching reuses the longest prefix of a request that an earlier request already sent, so
two shares are measured against the previous request:

- raw: the common prefix of the two bodies as sent. The SDKs write the conversation
  (``messages`` / ``input``) before the tools and the system prompt, so this is small;
- cache order: both bodies re-serialized with the fixed parts first (other settings, tools,
  system prompt) and the conversation last — the order in which the providers build the prompt
  they cache (Anthropic documents tools → system → messages; OpenAI caches a prefix of the
  rendered prompt, instructions and tools first). The JSON key order does not matter to them.
"""
from __future__ import annotations

import json
from typing import Any, Callable

PROVIDERS = ("anthropic", "openai")
CONVERSATION_KEYS = ("messages", "input", "contents")
SYSTEM_KEYS = ("system", "instructions", "systemInstruction")


def adapter(provider: str, client) -> Any:
    """The real adapter with a dummy key, talking to ``client`` only."""
    if provider == "anthropic":
        from paracore.llm.anthropic_provider import AnthropicModel
        return AnthropicModel("claude-sonnet-4-6", api_key="sk-ant-bench-0000000000",
                              base_url="https://api.anthropic.invalid", http_client=client)
    from paracore.llm.openai_responses import OpenAIResponsesModel
    return OpenAIResponsesModel("gpt-5.4", api_key="sk-proj-bench-000000000000",
                                base_url="https://api.openai.invalid/v1", http_client=client)


def capture_bodies(provider: str, requests: list) -> list[bytes]:
    """The raw body the adapter's SDK sends for each request, in order."""
    import httpx2

    from paracore.llm.base import CancelToken, ModelError
    bodies: list[bytes] = []

    def keep_and_refuse(request: httpx2.Request) -> httpx2.Response:
        bodies.append(request.read())
        return httpx2.Response(400, json={"type": "error", "error": {"type": "invalid_request_error",
                                                                     "message": "captured by the benchmark"}})

    model = adapter(provider, httpx2.Client(transport=httpx2.MockTransport(keep_and_refuse)))
    for number, request in enumerate(requests, start=1):
        try:
            for _event in model.stream(request, CancelToken()):
                pass
        except ModelError:
            pass  # the 400 above: the body is captured
        if len(bodies) != number:
            raise RuntimeError(f"{provider}: request {number} sent {len(bodies) - number + 1} bodies, expected 1")
    return bodies


def cache_order(raw: bytes) -> bytes:
    """The body as compact JSON with the fixed parts first and the conversation last (as
    ``static_first`` in tests/llm/test_provider_conformance.py)."""
    body = json.loads(raw)
    late = ("tools", *SYSTEM_KEYS, *CONVERSATION_KEYS)
    ordered = {key: value for key, value in body.items() if key not in late}
    ordered.update({key: body[key] for key in late if key in body})
    return json.dumps(ordered, ensure_ascii=False, separators=(",", ":")).encode()


def without_cache_markers(ordered: bytes) -> bytes:
    """A cache-order body without Anthropic's ``cache_control`` breakpoint markers. The adapter
    moves its rolling breakpoints every request (the last message and the user message before
    it), so a marker present in one request is gone from the next; this shows how much of the
    difference is only the markers."""
    def strip(value):
        if isinstance(value, dict):
            return {key: strip(item) for key, item in value.items() if key != "cache_control"}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value
    return json.dumps(strip(json.loads(ordered)), ensure_ascii=False, separators=(",", ":")).encode()


def common_prefix(a: bytes, b: bytes) -> int:
    """Length of the longest common prefix; a binary search over C-speed slice comparisons."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def part_sizes(raw: bytes, count: Callable[[str], int]) -> dict[str, tuple[int, int]]:
    """(bytes, tokens) of the tools and the system prompt inside one body, as compact JSON."""
    body = json.loads(raw)
    sizes = {}
    for name, keys in (("tools", ("tools",)), ("system", SYSTEM_KEYS)):
        value = next((body[key] for key in keys if key in body), None)
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":")) if value is not None else ""
        sizes[name] = (len(text.encode()), count(text))
    return sizes
