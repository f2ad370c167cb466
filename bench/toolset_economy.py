"""Toolsets (docs/TOOLSETS.md): what the tool definitions cost per request for the core and for
each toolset, and how much of a 30-turn session's prompt a cache keeps when toolsets are turned on
mid-session.

The session is bench/sessions/thirty_turns.json played on the duplex through the real agent: as
recorded, with every tool sent in every request, and as a model that starts with the core would
play it (``with_toolsets``): before the first step that calls a tool of a toolset that is not on
yet, one step calls ``use_toolset`` for it. Every request is turned into the exact Anthropic and
OpenAI Responses bodies and measured as in the token-economy section (token_economy.py): o200k
tokens of the body, and the share of it (in cache order: tools, system prompt, messages) that is a
byte-identical prefix of the previous request's body.

Anthropic's adapter defers the tools of toolsets that are off (``defer_loading``) and use_toolset's
result loads them (``tool_reference`` blocks). Such a body is measured as Anthropic renders the
prompt it bills and caches (``rendered_anthropic``): deferred tools left out, each reference
replaced by the definition it loads, where it stands in the conversation. The same session with
the toolsets appended to the tools block instead (what the other providers get) is shown too.

    .venv/bin/python bench/toolset_economy.py      prints the section
"""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "lib"))
sys.path.insert(0, str(BENCH.parent / "stubs"))
sys.path.insert(0, str(BENCH))

import tokens  # noqa: E402
from request_bodies import PROVIDERS  # noqa: E402
from token_economy import LABELS, THIRTY_TURNS, SessionRun, run_replay_session  # noqa: E402

TARGET = 0.95   # the bar for the cache-order prefix share of a session that switches toolsets


# --------------------------------------------------------------------------------------------
# The session a core-first model plays
# --------------------------------------------------------------------------------------------

def with_toolsets(replay):
    """The replay with ``"toolsets": true`` and a ``use_toolset`` step before each step that calls
    a tool of a toolset not on yet (one call per toolset, in the order the step needs them)."""
    from paracore.app.replay_file import Replay
    from paracore.core.toolsets import USE_TOOLSET, toolset_of
    on: list[str] = []
    turns = []
    for number, turn in enumerate(replay.turns, start=1):
        steps = []
        for step in turn.steps:
            needed = [toolset_of(call.name) for call in step.tool_calls or []]
            new = [name for name in dict.fromkeys(needed) if name is not None and name not in on]
            if new:
                steps.append({"tool_calls": [{"id": f"toolset-{number}-{name}", "name": USE_TOOLSET,
                                              "arguments": {"name": name}} for name in new]})
                on += new
            steps.append(step.model_dump(exclude_none=True))
        turns.append({"user": turn.user, "steps": steps})
    return Replay.model_validate({"model": replay.model, "toolsets": True, "turns": turns})


def turned_on(replay) -> list[tuple[int, str]]:
    """(turn number, toolset) for every use_toolset call of the replay."""
    return [(number, call.arguments["name"]) for number, turn in enumerate(replay.turns, start=1)
            for step in turn.steps for call in step.tool_calls or [] if call.name == "use_toolset"]


# --------------------------------------------------------------------------------------------
# Definition tokens
# --------------------------------------------------------------------------------------------

def definition_rows() -> list[tuple[str, int, int, int]]:
    """(label, tools, bytes, o200k tokens) for the core, each toolset and the whole catalogue, as
    compact JSON of the registry's definitions (what ``definitions_json`` renders)."""
    from paracore.tools.framework.catalogue import load_tools
    from paracore.core import toolsets
    from paracore.tools.framework.registry import default_registry
    load_tools()
    registry = default_registry()

    def row(label: str, names: list[str]) -> tuple[str, int, int, int]:
        text = json.dumps([registry.get(name).definition() for name in names], ensure_ascii=False,
                          separators=(",", ":"))
        return label, len(names), len(text.encode("utf-8")), tokens.count(text)

    rows = [row("core (always sent)", toolsets.tools_sent(registry.names(), []))]
    for toolset in toolsets.TOOLSETS:
        names = [name for name in registry.names() if name in toolset.tools]
        rows.append(row(f"+ {toolset.name}", names))
    return rows + [row("every tool (each request before toolsets)", registry.names())]


# --------------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------------

def rendered_anthropic(raw: bytes) -> bytes:
    """An Anthropic body as the prompt it bills and caches: deferred tools are not in it, and a
    ``tool_reference`` block stands for the definition it loads, at its place in the conversation."""
    body = json.loads(raw)
    tools = body.get("tools", [])
    loads = {tool["name"]: {key: value for key, value in tool.items() if key != "defer_loading"} for tool in tools}
    body["tools"] = [tool for tool in tools if not tool.get("defer_loading")]

    def expand(value):
        if isinstance(value, dict):
            if value.get("type") == "tool_reference":
                return loads[value["tool_name"]]
            return {key: expand(item) for key, item in value.items()}
        if isinstance(value, list):
            return [expand(item) for item in value]
        return value
    body["messages"] = expand(body["messages"])
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def switch_requests(run: SessionRun) -> list[int]:
    """Indexes of the requests that follow a use_toolset step (the first with its tools)."""
    def after_use_toolset(request) -> bool:
        return any(getattr(part, "name", None) == "use_toolset" for part in request.messages[-1].parts)
    return [i for i, request in enumerate(run.requests) if i and after_use_toolset(request)]


def reusable_share(bodies) -> float:
    return sum(b.reusable_tokens for b in bodies) / sum(b.tokens for b in bodies)


def _pct(value: float) -> str:
    return f"{value:.1%}"


def session_table(columns: list[tuple[str, list, list[int]]]) -> list[str]:
    """One column per (label, bodies, indexes of the requests that add a toolset)."""
    lines = ["| | " + " | ".join(label for label, _, _ in columns) + " |", "|---|" + "---|" * len(columns)]

    def row(label: str, cell) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(bodies, at) for _, bodies, at in columns) + " |")

    row("requests", lambda b, at: f"{len(b)}")
    row("input tokens, first request", lambda b, at: f"{b[0].tokens:,}")
    row("input tokens per request, median", lambda b, at: f"{statistics.median(x.tokens for x in b):,.0f}")
    row("input tokens, whole session", lambda b, at: f"{sum(x.tokens for x in b):,}")
    row("cache-order prefix share, requests 2+, median / min",
        lambda b, at: f"{_pct(statistics.median(x.cache_prefix for x in b[1:]))} / "
                      f"{_pct(min(x.cache_prefix for x in b[1:]))}")
    row("cache-order prefix share of the requests that add a toolset",
        lambda b, at: ", ".join(_pct(b[i].cache_prefix) for i in at) or "—")
    row("**tokens a prefix cache could reuse, whole session (cache order)**",
        lambda b, at: f"**{_pct(reusable_share(b))}** ({sum(x.reusable_tokens for x in b):,} of "
                      f"{sum(x.tokens for x in b):,})")
    return lines


def toolset_section(every: SessionRun | None = None) -> list[str]:
    """The whole section (plays the 30-turn session as recorded unless ``every`` is given)."""
    from paracore.app.replay_file import load_replay
    recorded = load_replay(THIRTY_TURNS)
    every = every or run_replay_session("30-turn session, every tool", recorded)
    variant = with_toolsets(recorded)
    deferred = run_replay_session("30-turn session, toolsets deferred", variant, providers=("anthropic",),
                                  defers_tools=True, rendered=rendered_anthropic)
    appended = run_replay_session("30-turn session, toolsets appended", variant)
    switches = switch_requests(appended)
    columns = [(f"{LABELS[p]}, every tool", every.bodies[p], []) for p in PROVIDERS] + [
        ("**Anthropic, core + toolsets deferred**", deferred.bodies["anthropic"], switches),
        ("Anthropic, core + toolsets appended (not used)", appended.bodies["anthropic"], switches),
        ("**OpenAI Responses, core + toolsets appended**", appended.bodies["openai"], switches)]
    rows = definition_rows()
    lines = ["## Toolsets", "",
             "The model gets the core tools, the toolsets the user pinned in Settings and the ones it turned "
             "on with `use_toolset`, in a fixed order that only grows at the end (docs/TOOLSETS.md). Definition "
             "tokens: o200k count of the registry's compact JSON definitions (the same rendering as *Fixed part "
             "of every request* above).", "",
             "| tools sent | tools | bytes | o200k tokens |", "|---|---:|---:|---:|"]
    lines += [f"| {label} | {count} | {size:,} | {count_tokens:,} |" for label, count, size, count_tokens in rows]
    names = ", ".join(f"turn {number}: {name}" for number, name in turned_on(variant))
    lines += ["", "### 30-turn session that turns toolsets on", "",
              f"The 30-turn session as recorded (every tool in every request) and as a model that starts with "
              f"the core plays it: a `use_toolset` step before the first call into each toolset ({names}); "
              f"failed turns: {len(deferred.failed) + len(appended.failed) or 'none'}. Deferred (Anthropic): the "
              "tools block never changes, the toolset's definitions arrive in use_toolset's result. Appended "
              "(OpenAI, and the other providers): the request after use_toolset shares the core tools (and the "
              "toolsets already on) with the request before; the system prompt and the conversation are "
              "processed again once.", ""]
    lines += session_table(columns)
    shares = {"Anthropic (deferred)": reusable_share(deferred.bodies["anthropic"]),
              "OpenAI Responses (appended)": reusable_share(appended.bodies["openai"])}
    verdict = "at or above" if min(shares.values()) >= TARGET else "BELOW"
    lines += ["", "Tokens a prefix cache could reuse with toolsets switching: "
              f"{', '.join(f'{label} {_pct(share)}' for label, share in shares.items())} — {verdict} the "
              f"{TARGET:.0%} bar.", ""]
    return lines


if __name__ == "__main__":
    print("\n".join(toolset_section()))
