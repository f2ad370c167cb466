"""Token economy of scripted sessions: what each request costs and how much of it a prompt cache
could reuse.

Two sessions run through the real agent on the duplex with the scripted model: the seed-000
demo (4 turns) and a 30-turn office session (bench/sessions/thirty_turns.json). The scripted
model records every ``ModelRequest``; each is turned into the exact body the Anthropic and the
OpenAI Responses adapters would send (bench/request_bodies.py). Per request and provider:

- input tokens: the o200k_base count (bench/tokens.py) of the whole body as sent — JSON syntax
  included, so an upper bound of what a provider's own tokenizer bills for the content;
- prefix share: the share of the body's bytes that is a byte-identical prefix of the previous
  request's body, raw and in the provider's cache order (see request_bodies);
- reusable tokens: the o200k count of that cache-order prefix, i.e. what a prompt cache could
  serve instead of reprocessing.

Also: the size of the tool definitions every request carries, what the list of the firm standards
adds to the system prompt (``standards_cost``), and the largest tool result.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path

import tokens
from measure import progress
from request_bodies import PROVIDERS, cache_order, capture_bodies, common_prefix, part_sizes, without_cache_markers

ROOT = Path(__file__).resolve().parents[1]
SEED_000 = ROOT / "lib" / "paracore" / "demos" / "seed000.json"
THIRTY_TURNS = ROOT / "bench" / "sessions" / "thirty_turns.json"
LABELS = {"anthropic": "Anthropic", "openai": "OpenAI Responses"}


@dataclass
class Body:
    """One request as one provider receives it, compared with the previous request."""

    size: int
    tokens: int
    raw_prefix: float | None = None      # shares of this body; None for the session's first request
    cache_prefix: float | None = None
    unmarked_prefix: float | None = None  # cache order without cache_control markers
    reusable_tokens: int = 0


@dataclass
class SessionRun:
    name: str
    turns: list                          # the replay's turns
    result: dict                         # paracore.app.replay.run_replay's result
    failed: list[str]
    turn_of_request: list[int]           # 0-based turn of each request
    bodies: dict[str, list[Body]] = field(default_factory=dict)
    parts: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)  # of the first body
    requests: list = field(default_factory=list)  # the ModelRequests the scripted model received


class RecordedReplay:
    """A replay whose scripted model is kept, so its requests can be read after ``run_replay``
    (which asks the replay for the model and does not hand it back)."""

    def __init__(self, replay) -> None:
        self.replay = replay
        self.turns = replay.turns
        self.model = replay.model
        self.toolsets = replay.toolsets
        self.workshared = replay.workshared
        self.links = replay.links
        self.scripted = replay.scripted_model()

    def scripted_model(self):
        return self.scripted


def run_session(name: str, path: Path) -> SessionRun:
    """Play the replay file on the duplex and measure every request it made, for both providers."""
    from paracore.app.replay_file import load_replay
    return run_replay_session(name, load_replay(path))


def run_replay_session(name: str, loaded, providers=PROVIDERS, defers_tools: bool = False,
                       rendered=lambda raw: raw) -> SessionRun:
    """Play a loaded replay on the duplex and measure every request it made, for ``providers``.
    ``defers_tools``: the scripted model takes deferred tools, as Anthropic's adapter does (the
    agent then sends every tool, toolsets that are off deferred); ``rendered`` turns a captured
    body into what the provider bills and caches (bench/toolset_economy.py)."""
    from paracore.app.replay import failed_turns, run_replay
    progress(f"token economy: {name}: replay")
    replay = RecordedReplay(loaded)
    replay.scripted.defers_tools = defers_tools
    result = run_replay(replay, trace=False)
    requests = replay.scripted.requests
    turn_of_step = [index for index, turn in enumerate(replay.turns) for _ in turn.steps]
    run = SessionRun(name, list(replay.turns), result, failed_turns(result), turn_of_step[:len(requests)],
                     requests=list(requests))
    for provider in providers:
        progress(f"token economy: {name}: {len(requests)} {LABELS[provider]} bodies")
        raw = [rendered(body) for body in capture_bodies(provider, requests)]
        run.bodies[provider] = measure_bodies(raw)
        run.parts[provider] = part_sizes(raw[0], tokens.count)
    return run


def measure_bodies(raw: list[bytes]) -> list[Body]:
    """Size, tokens and prefix shares of consecutive bodies."""
    measured = []
    previous = None
    for body in raw:
        cached = cache_order(body)
        unmarked = without_cache_markers(cached)
        entry = Body(len(body), tokens.count(body.decode("utf-8")))
        if previous is not None:
            previous_raw, previous_cached, previous_unmarked = previous
            entry.raw_prefix = common_prefix(previous_raw, body) / len(body)
            shared = common_prefix(previous_cached, cached)
            entry.cache_prefix = shared / len(cached)
            entry.unmarked_prefix = common_prefix(previous_unmarked, unmarked) / len(unmarked)
            # A cut inside a multi-byte character drops that character: the count stays a prefix's.
            entry.reusable_tokens = tokens.count(cached[:shared].decode("utf-8", errors="ignore"))
        measured.append(entry)
        previous = body, cached, unmarked
    return measured


# --------------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------------

def _pct(value: float) -> str:
    return f"{value:.1%}"


def _median_min(values: list[float]) -> str:
    return f"median {_pct(statistics.median(values))}, min {_pct(min(values))} (n={len(values)})"


def _first_of_turns(run: SessionRun) -> list[int]:
    """Indexes of the first request of each turn after the first (a new user message)."""
    return [i for i, turn in enumerate(run.turn_of_request) if i and run.turn_of_request[i - 1] != turn]


def largest_results(run: SessionRun) -> list[str]:
    """The session's largest tool result in tokens, and in characters when that is another one."""
    results = [(n, r["name"], len(r["content"]), tokens.count(r["content"]))
               for n, turn in enumerate(run.result["turns"], start=1) for r in turn["tool_results"]]
    by_tokens = max(results, key=lambda item: item[3])
    by_chars = max(results, key=lambda item: item[2])
    lines = ["Largest tool result: `{1}` in turn {0}, {2:,} characters, **{3:,} tokens**.".format(*by_tokens)]
    if by_chars != by_tokens:
        lines.append("Longest in characters: `{1}` in turn {0}, {2:,} characters, {3:,} tokens.".format(*by_chars))
    return lines


def standards_cost(listing: str | None = None) -> tuple[int, int, int]:
    """What the list of the firm standards adds to the system prompt: (standards, bytes, o200k tokens),
    the difference between the prompt rendered with the list and without it. ``listing``: the bundled
    standards' list unless given."""
    from paracore.core import standards
    from paracore.core.prompts import PromptBuilder
    loaded = standards.load_standards(None)
    listing = listing if listing is not None else loaded.listing()
    facts = {"revit_version": "2026", "document_title": "duplex", "length_unit": "m"}
    without = PromptBuilder(facts).system_prompt()
    with_list = PromptBuilder({**facts, "standards": listing}).system_prompt()
    count = sum(1 for line in listing.splitlines() if line.startswith("- "))
    return count, len(with_list.encode()) - len(without.encode()), tokens.count(with_list) - tokens.count(without)


def tool_definitions(run: SessionRun) -> list[str]:
    """What every request carries whatever the conversation: tool definitions and system prompt."""
    from tool_catalogue import definitions
    count, size, token_count = definitions()
    lines = ["### Fixed part of every request", "",
             f"- Tool definitions: {count} tools, {size:,} bytes, **{token_count:,} tokens** as the registry "
             f"renders them (`definitions_json()`, compact JSON)"]
    for provider in PROVIDERS:
        tools_size, tools_tokens = run.parts[provider]["tools"]
        system_size, system_tokens = run.parts[provider]["system"]
        lines.append(f"- In the {LABELS[provider]} body: tools {tools_size:,} bytes / {tools_tokens:,} tokens, "
                     f"system prompt {system_size:,} bytes / {system_tokens:,} tokens")
    count, size, token_count = standards_cost()
    lines.append(f"- Of the system prompt, the list of the firm standards ({count} bundled standards, names and "
                 f"descriptions; their texts come with use_standard): {size:,} bytes, **{token_count:,} tokens**")
    return lines + [""]


def session_summary(run: SessionRun) -> list[str]:
    turns, requests = len(run.turns), len(run.turn_of_request)
    lines = [f"### {run.name}", "",
             f"{turns} turns, {requests} requests (one per model step); failed turns: "
             f"{len(run.failed) if run.failed else 'none'}.", "",
             "| | " + " | ".join(LABELS[p] for p in PROVIDERS) + " |", "|---|" + "---|" * len(PROVIDERS)]

    def row(label: str, cell) -> None:
        lines.append(f"| {label} | " + " | ".join(cell(run.bodies[p]) for p in PROVIDERS) + " |")

    if requests <= 10:
        row("input tokens, each request", lambda b: ", ".join(f"{x.tokens:,}" for x in b))
    row("input tokens per request", lambda b: f"min {min(x.tokens for x in b):,}, median "
        f"{statistics.median(x.tokens for x in b):,.0f}, max {max(x.tokens for x in b):,}")
    row("input tokens, whole session", lambda b: f"{sum(x.tokens for x in b):,}")
    row("request body size", lambda b: f"{min(x.size for x in b):,} – {max(x.size for x in b):,} bytes")
    row("raw-body prefix share, requests 2+", lambda b: _median_min([x.raw_prefix for x in b[1:]]))
    row("cache-order prefix share, requests 2+", lambda b: _median_min([x.cache_prefix for x in b[1:]]))
    firsts = _first_of_turns(run)
    row("cache-order prefix share, first request of turns 2+",
        lambda b: _median_min([b[i].cache_prefix for i in firsts]))
    row("cache-order prefix share ignoring `cache_control` markers, requests 2+",
        lambda b: _median_min([x.unmarked_prefix for x in b[1:]]))
    row("tokens a prefix cache could reuse (cache order)", lambda b: f"{sum(x.reusable_tokens for x in b):,} of "
        f"{sum(x.tokens for x in b):,} ({sum(x.reusable_tokens for x in b) / sum(x.tokens for x in b):.1%})")
    return lines + ["", *largest_results(run), ""]


def per_turn_table(run: SessionRun) -> list[str]:
    """Per turn: requests, tokens of its first and last request, and its lowest prefix shares."""
    header = "| turn | user | tools called | requests | " + " | ".join(
        f"{LABELS[p]} tokens (first → last) | {LABELS[p]} prefix share raw / cache order (min)" for p in PROVIDERS)
    lines = [header + " | largest result (tokens) |", "|---:|---|---|---:|" + "---:|---|" * len(PROVIDERS) + "---:|"]
    for number, (turn, played) in enumerate(zip(run.turns, run.result["turns"]), start=1):
        indexes = [i for i, t in enumerate(run.turn_of_request) if t == number - 1]
        user = turn.user if len(turn.user) <= 48 else turn.user[:47] + "…"
        called = ", ".join(dict.fromkeys(r["name"] for r in played["tool_results"])) or "—"
        cells = [str(number), user.replace("|", "\\|"), called, str(len(indexes))]
        for provider in PROVIDERS:
            bodies = [run.bodies[provider][i] for i in indexes]
            cells.append(f"{bodies[0].tokens:,} → {bodies[-1].tokens:,}")
            compared = [b for b in bodies if b.cache_prefix is not None]
            cells.append(f"{_pct(min(b.raw_prefix for b in compared))} / {_pct(min(b.cache_prefix for b in compared))}"
                         if compared else "— (first request)")
        sizes = [tokens.count(r["content"]) for r in played["tool_results"]]
        cells.append(f"{max(sizes):,}" if sizes else "—")
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def token_section(runs: list[SessionRun] | None = None) -> list[str]:
    """The whole token-economy section of the report (runs the default sessions unless given)."""
    runs = runs or [run_session(name, path) for name, path in default_sessions()]
    lines = ["## Token economy", "",
             "Scripted sessions on the duplex, through the real agent. Every request the model received is "
             "turned into the exact body the Anthropic and the OpenAI Responses adapters send (captured from the "
             "SDK by a mock transport, no network). Tokens are tiktoken `o200k_base` counts of those JSON bodies "
             "(JSON syntax included). The prefix share of a request is the share of its bytes that is a "
             "byte-identical prefix of the previous request: *raw* as the SDK sends it (Anthropic: the "
             "conversation before tools and system prompt; OpenAI Responses: the instructions first, the "
             "conversation and the tools last), and in *cache order* (settings, tools, system prompt, then the conversation — "
             "the order the providers cache a prompt in). The reusable tokens are the o200k count of the "
             "cache-order prefix. In the Anthropic bodies the cache-order prefix ends where the adapter's "
             "rolling `cache_control` breakpoint (on the last message and the user message before it) was "
             "taken off an older message; the row *ignoring `cache_control` markers* shows the share without "
             "them. The OpenAI Responses body has no markers: each body's conversation is the previous one "
             "with the new items appended.", ""]
    lines += tool_definitions(runs[0])
    for run in runs:
        lines += session_summary(run)
        if len(run.turns) > 4:
            lines += ["Per turn of the session: the tokens of its first and last request, the lowest prefix "
                      "shares among its requests, and its largest tool result.", ""]
            lines += per_turn_table(run)
    return lines


def default_sessions() -> list[tuple[str, Path]]:
    return [("Seed-000 demo", SEED_000), ("30-turn scripted session", THIRTY_TURNS)]
