"""The same agent scenario through every provider adapter, with the same outcome.

Seed 000's four turns (curved wall, five doors on it, select them, a question) run through the
real agent on the Revit stand-in; the model is the real adapter (Anthropic, OpenAI Responses,
OpenAI-compatible Chat Completions, Gemini) talking through ``httpx2.MockTransport`` to a
scripted provider server that answers each request with the demo's next step in that
provider's streaming wire format (``wire_fakes``). Per provider the test checks what the user
and Revit see (working set, tool results, replies, a valid history, the usage with its cache
counts) and what went over the wire: every tool call paired with its result in that
provider's own format.

It also measures, per provider, the size of the scenario's second request and the share of it
that is a byte-identical prefix of the first request: written to
``.cache/provider-request-sizes.json`` and printed (``pytest -s``).
"""
from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from paracore.core import events as ev
from paracore.agent import approve_all
from paracore.core.messages import Usage, validate_history
from paracore.core.settings import Limits, Settings
from paracore.app.replay_file import load_replay
from paracore.hosts.standin.sandbox import Sandbox
from wire_fakes import PROVIDERS, Call, ScriptedProvider, Step, provider_usage, signature

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "lib" / "paracore" / "demos" / "seed000.json"
SIZES_FILE = ROOT / ".cache" / "provider-request-sizes.json"

# What the user sees after each turn of the demo.
EXPECTED_WORKING_SETS = ["1 Wall", "5 Doors", "5 Doors", "5 Doors"]


@pytest.fixture(autouse=True)
def no_ambient_configuration(monkeypatch):
    """The SDKs read these; none may point a test at a real endpoint or change its headers."""
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OPENAI_CUSTOM_HEADERS", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID",
                 "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "GOOGLE_GEMINI_BASE_URL",
                 "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_API_VERSION"):
        monkeypatch.delenv(name, raising=False)


def make_model(provider: str, server: ScriptedProvider):
    client = server.client()
    if provider == "anthropic":
        from paracore.llm.anthropic_provider import AnthropicModel
        return AnthropicModel("claude-sonnet-4-6", api_key="sk-ant-conformance-0000000000",
                              base_url="https://api.anthropic.test", http_client=client)
    if provider == "openai":
        from paracore.llm.openai_responses import OpenAIResponsesModel
        return OpenAIResponsesModel("gpt-5.4", api_key="sk-proj-conformance-000000000000",
                                    http_client=client)
    if provider == "openai-compatible":
        from paracore.llm.openai_chat import OpenAIChatModel
        return OpenAIChatModel("test-model", base_url="http://localhost:11434/v1", http_client=client)
    from paracore.llm.gemini import GeminiModel
    return GeminiModel("gemini-3.5-flash", api_key="AIzaSyCONFORMANCE-000000000000000",
                       base_url="https://gemini.test/", http_client=client)


def scripted_steps() -> tuple[list, list[Step]]:
    """The demo's turns, and its steps with a usage each: the first request writes the cache,
    every later one reads it (numbers distinct per step, so a mix-up shows)."""
    replay = load_replay(DEMO)
    steps = []
    for turn in replay.turns:
        for scripted in turn.steps:
            n = len(steps)
            usage = Usage(input_tokens=400 + 10 * n, output_tokens=30 + n,
                          cache_write_tokens=3000 if n == 0 else 0, cache_read_tokens=0 if n == 0 else 3000 + n)
            calls = tuple(Call(c.id, c.name, dict(c.arguments)) for c in scripted.tool_calls or ())
            steps.append(Step(calls=calls, text=scripted.text, usage=usage))
    return replay.turns, steps


# --------------------------------------------------------------------------------------------
# Tool calls and their results, as each provider's request body pairs them
# --------------------------------------------------------------------------------------------

Pair = tuple[str, str, bool]  # (call id, tool name, the result says error)


def anthropic_pairs(body: dict[str, Any]) -> list[Pair]:
    messages, pairs = body["messages"], []
    for index, message in enumerate(messages):
        uses = [b for b in message["content"] if b["type"] == "tool_use"]
        if not uses:
            continue
        assert message["role"] == "assistant"
        answer = messages[index + 1]
        assert answer["role"] == "user"
        results = answer["content"][:len(uses)]  # tool_result blocks first, in the order of the calls
        assert [r["type"] for r in results] == ["tool_result"] * len(uses)
        assert [r["tool_use_id"] for r in results] == [u["id"] for u in uses]
        pairs += [(u["id"], u["name"], bool(r.get("is_error"))) for u, r in zip(uses, results)]
    total = sum(b["type"] == "tool_result" for m in messages for b in m["content"])
    assert total == len(pairs), "a tool_result without its tool_use"
    return pairs


def responses_pairs(body: dict[str, Any]) -> list[Pair]:
    items, pairs, index = body["input"], [], 0
    while index < len(items):
        run_end = index
        while run_end < len(items) and items[run_end]["type"] == "function_call":
            run_end += 1
        calls = items[index:run_end]
        if not calls:
            index += 1
            continue
        outputs = items[run_end:run_end + len(calls)]  # right after the calls, in their order
        assert [o["type"] for o in outputs] == ["function_call_output"] * len(calls)
        assert [o["call_id"] for o in outputs] == [c["call_id"] for c in calls]
        pairs += [(c["call_id"], c["name"], o["output"].startswith("Error:")) for c, o in zip(calls, outputs)]
        index = run_end + len(calls)
    total = sum(item["type"] == "function_call_output" for item in items)
    assert total == len(pairs), "a function_call_output without its function_call"
    return pairs


def chat_pairs(body: dict[str, Any]) -> list[Pair]:
    messages, pairs = body["messages"], []
    for index, message in enumerate(messages):
        calls = message.get("tool_calls") or []
        if not calls:
            continue
        assert message["role"] == "assistant"
        answers = messages[index + 1:index + 1 + len(calls)]  # one tool message per call, in order
        assert [a["role"] for a in answers] == ["tool"] * len(calls)
        assert [a["tool_call_id"] for a in answers] == [c["id"] for c in calls]
        pairs += [(c["id"], c["function"]["name"], a["content"].startswith("Error:")) for c, a in zip(calls, answers)]
    total = sum(m["role"] == "tool" for m in messages)
    assert total == len(pairs), "a tool message without its assistant tool_calls"
    return pairs


def gemini_pairs(body: dict[str, Any]) -> list[Pair]:
    contents, pairs = body["contents"], []
    for index, content in enumerate(contents):
        calls = [p for p in content["parts"] if "functionCall" in p]
        if not calls:
            continue
        assert content["role"] == "model"
        # Gemini 3 wants the thought signature back on the part that carried it.
        first = calls[0]
        assert _b64(first["thoughtSignature"]) == _b64(signature(first["functionCall"]["id"]))
        answer = contents[index + 1]
        assert answer["role"] == "user"
        responses = [p.get("functionResponse") for p in answer["parts"][:len(calls)]]
        assert all(responses), "the functionResponse parts must open the next user content"
        assert [(r["name"], r.get("id")) for r in responses] == [
            (c["functionCall"]["name"], c["functionCall"].get("id")) for c in calls]
        pairs += [(c["functionCall"]["id"], c["functionCall"]["name"], "error" in r["response"])
                  for c, r in zip(calls, responses)]
    total = sum("functionResponse" in p for c in contents for p in c["parts"])
    assert total == len(pairs), "a functionResponse without its functionCall"
    return pairs


def _b64(text: str) -> bytes:
    standard = text.replace("-", "+").replace("_", "/")
    return base64.b64decode(standard + "=" * (-len(standard) % 4))


PAIRS = {"anthropic": anthropic_pairs, "openai": responses_pairs, "openai-compatible": chat_pairs,
         "gemini": gemini_pairs}


# --------------------------------------------------------------------------------------------
# Request sizes
# --------------------------------------------------------------------------------------------

CONVERSATION_KEYS = ("messages", "input", "contents")
SYSTEM_KEYS = ("system", "instructions", "systemInstruction")


def static_first(raw: bytes) -> bytes:
    """The body re-serialized (compact JSON) with what is fixed for a session first: the other
    settings, the tool list, the system prompt; the conversation last. That is the order of the
    prompt the provider caches (Anthropic documents tools -> system -> messages; OpenAI and
    Gemini cache a prefix of the prompt they render, static instructions and tools first). The
    key order of the JSON sent does not matter to any of them; the SDKs put the conversation
    before the tools."""
    body = json.loads(raw)
    late = ("tools", *SYSTEM_KEYS, *CONVERSATION_KEYS)
    ordered = {k: v for k, v in body.items() if k not in late}
    ordered.update({k: body[k] for k in late if k in body})
    return json.dumps(ordered, ensure_ascii=False, separators=(",", ":")).encode()


def common_prefix(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    for index in range(n):
        if a[index] != b[index]:
            return index
    return n


@pytest.fixture(scope="module")
def request_sizes():
    """Collected per provider; written and printed once the module's tests are done."""
    sizes: dict[str, dict[str, Any]] = {}
    yield sizes
    if not sizes:
        return
    SIZES_FILE.parent.mkdir(parents=True, exist_ok=True)
    previous = {}
    if SIZES_FILE.exists():  # a run of one provider keeps the others' figures
        try:
            previous = json.loads(SIZES_FILE.read_text(encoding="utf-8")).get("providers", {})
        except ValueError:
            previous = {}
    document = {
        "scenario": "seed000: request 1 = turn 1's first call, request 2 = the call after create_curved_wall ran",
        "prefix_share": "longest common prefix of the raw bytes of request 1 and request 2 / bytes of request 2",
        "static_first_prefix_share": "the same with both bodies re-serialized as compact JSON with the fixed parts "
                                     "first (settings, tools, system prompt) and the conversation last: the prompt "
                                     "order providers cache; the raw bodies put the conversation first",
        "providers": {**previous, **sizes},
    }
    SIZES_FILE.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"\nSecond request of the demo, per provider (written to {SIZES_FILE.relative_to(ROOT)}):")
    print(f"  {'provider':<18} {'request 1':>10} {'request 2':>10} {'common prefix':>14} {'share':>7}"
          f" {'static-first share':>19}")
    for provider, row in sizes.items():
        print(f"  {provider:<18} {row['first_request_bytes']:>10} {row['second_request_bytes']:>10} "
              f"{row['common_prefix_bytes']:>14} {row['prefix_share']:>7.1%} {row['static_first_prefix_share']:>19.1%}")


# --------------------------------------------------------------------------------------------
# The scenario
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("provider", PROVIDERS)
def test_seed000_runs_the_same_through_every_provider_adapter(provider, request_sizes):
    turns, steps = scripted_steps()
    server = ScriptedProvider(provider, steps)
    model = make_model(provider, server)
    usages: list[Usage] = []

    with Sandbox("duplex") as sandbox:
        # Every tool is sent here (toolsets off, unlike the product's default): about 31,000 tokens of
        # definitions, more than a local server's default 32,768-token window leaves for them and the
        # history, which would then be trimmed. The window of a larger local model keeps the seed whole.
        settings = Settings(limits=Limits(context_window_tokens=131_072))
        agent = sandbox.agent(model, approver=approve_all, settings=settings)
        step = 0
        for number, turn in enumerate(turns):
            events = list(agent.run_turn(turn.user))
            failures = [e.error for e in events if isinstance(e, ev.TurnFailed)]
            assert not failures, f"{provider}, turn {number + 1}: {failures}"

            scripted_calls = [c for s in turn.steps for c in s.tool_calls or ()]
            results = [e for e in events if isinstance(e, ev.ToolCallFinished)]
            assert [(r.call_id, r.name) for r in results] == [(c.id, c.name) for c in scripted_calls]
            assert [r.content for r in results if r.is_error] == []

            [finished] = [e for e in events if isinstance(e, ev.TurnFinished)]
            assert (finished.reply, finished.stop_reason) == (turn.reply, "end_turn")
            last_step_deltas = events[max(i for i, e in enumerate(events) if isinstance(e, ev.StatusChanged)
                                          and e.text == ev.STATUS_THINKING):]
            assert "".join(e.text for e in last_step_deltas if isinstance(e, ev.TextDelta)) == turn.reply

            assert sandbox.session.working_set.summary() == EXPECTED_WORKING_SETS[number]
            assert validate_history(sandbox.session.history) == []
            usages += [e.usage for e in events if isinstance(e, ev.UsageReported)]
            step += len(turn.steps)
            assert len(server.raw_bodies) == step, f"{provider}: one request per scripted step"

        from paracore.revit.context import id_value
        selected = sandbox.on_main_thread(
            lambda: sorted(id_value(i) for i in sandbox.host.uiapp.ActiveUIDocument.Selection.GetElementIds()))
        assert selected == sorted(sandbox.session.working_set.ids)

    assert server.remaining == 0
    # The tokens each response reported, cache reads and writes included, reach the agent unchanged.
    assert usages == [provider_usage(provider, s.usage) for s in steps]

    # On the wire: request i carries every call made before it, each paired with its result.
    bodies = server.bodies
    for index, body in enumerate(bodies):
        expected = [(c.id, c.name, False) for s in steps[:index] for c in s.calls]
        assert PAIRS[provider](body) == expected, f"{provider}, request {index + 1}"

    first, second = server.raw_bodies[0], server.raw_bodies[1]
    shared = common_prefix(first, second)
    share = shared / len(second)
    first_static, second_static = static_first(first), static_first(second)
    static_share = common_prefix(first_static, second_static) / len(second_static)
    request_sizes[provider] = {"first_request_bytes": len(first), "second_request_bytes": len(second),
                               "common_prefix_bytes": shared, "prefix_share": round(share, 4),
                               "static_first_prefix_share": round(static_share, 4)}
    assert len(second) > len(first)
    # The second request only appends the call and its result: tools, system prompt and the
    # first user message are byte-identical (a volatile system prompt or tool list would not be).
    assert static_share > 0.9, f"{provider}: only {static_share:.1%} of request 2 repeats request 1"
