"""What model calls cost: prices, the per-request usage log, and the running totals the UI shows.

* ``estimate_cost(provider, model, usage)`` prices one call from ``paracore/data/prices.json``
  (the only place that holds prices). None when the model is unknown; 0 for a model served by
  a local OpenAI-compatible server (Ollama, LM Studio).
* ``UsageLog`` appends one JSON line per model call to ``usage.jsonl`` in the user's data
  directory (``PARACORE_DATA_DIR`` overrides it): when, which model, tokens, timings, cost and
  an opaque session key. Never a key, never any message content; a failing disk never fails
  a turn.
* ``TurnUsage`` accumulates per turn and per session, for the usage line
  ``tokens 12.3k in (8.1k cached) · 450 out · ~$0.012``.
"""
from __future__ import annotations

import ipaddress
import json
import logging
import math
import re
import threading
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from paracore.core.messages import Usage
from paracore.core.paths import data_dir
from paracore.llm.base import redact_secrets

log = logging.getLogger(__name__)

PRICES_PATH = Path(__file__).resolve().parent.parent / "data" / "prices.json"
USAGE_LOG_FILENAME = "usage.jsonl"


# --------------------------------------------------------------------------------------------
# Prices
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Price:
    """USD per million tokens of each kind, for one model."""

    model: str
    """The price list's name for the model (the prefix that matched)."""
    input: float
    output: float
    cache_write: float
    cache_read: float
    estimate: bool = False
    """True when the price comes from third-party lists, not the provider's own page."""

    def cost(self, usage: Usage) -> float:
        return (usage.input_tokens * self.input + usage.output_tokens * self.output
                + usage.cache_write_tokens * self.cache_write + usage.cache_read_tokens * self.cache_read) / 1_000_000


@lru_cache(maxsize=4)
def load_prices(path: str | None = None) -> dict[str, dict[str, Price]]:
    """provider -> model prefix -> Price, read once from the price list.

    A missing or damaged list is logged and read as empty (every cost unknown): a price list
    must never fail a turn.
    """
    source = Path(path or PRICES_PATH)
    try:
        document = json.loads(source.read_text(encoding="utf-8"))
        table: dict[str, dict[str, Price]] = {}
        for provider, section in document["providers"].items():
            table[provider] = {
                name.lower(): Price(model=name, input=float(p["input"]), output=float(p["output"]),
                                    cache_write=float(p.get("cache_write", p["input"])),
                                    cache_read=float(p.get("cache_read", p["input"])),
                                    estimate=bool(p.get("estimate", False)))
                for name, p in section.get("models", {}).items()
            }
        return table
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        log.warning("Could not read the price list %s (%s); costs are not estimated.", source, error)
        return {}


# What may follow a price list's name in a real model id and still be the same model: a date
# or snapshot number (-20250929, -2026-03-05, @20250929, -001), a channel word (-latest,
# -preview-05-20, -exp), or an Ollama/OpenRouter tag (:8b, :free). Not "-mini" or ".4":
# gpt-5.4-mini is not priced like gpt-5.4, nor gpt-5.4 like gpt-5.
_VARIANT_SUFFIX = re.compile(r"^(?:[-@_]\d{3,}|[-@_](?:latest|preview|exp|experimental|stable)\b|:)", re.IGNORECASE)


def normalize_model_name(model: str) -> str:
    name = model.strip().lower()
    if name.startswith("models/"):  # the Gemini API names models "models/gemini-…"
        name = name[len("models/"):]
    return name


def find_price(provider: str, model: str, *, path: str | None = None) -> Price | None:
    """The price of ``model``: an exact entry, else the longest entry it extends by a variant suffix."""
    models = load_prices(path).get(provider)
    if not models or not model:
        return None
    name = normalize_model_name(model)
    if name in models:
        return models[name]
    matches = [key for key in models if name.startswith(key) and _VARIANT_SUFFIX.match(name[len(key):])]
    return models[max(matches, key=len)] if matches else None


def is_local_url(url: str | None) -> bool:
    """Whether ``url`` points at this machine or a private network (where a model server is free)."""
    if not url:
        return False
    host = (urlsplit(url if "://" in url else f"http://{url}").hostname or "").lower()
    if host in ("localhost", "host.docker.internal") or host.endswith((".local", ".localhost", ".lan", ".internal")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def estimate_cost(provider: str, model: str, usage: Usage, *, base_url: str | None = None) -> float | None:
    """The cost in USD of one call, or None when the model's price is unknown.

    An ``openai-compatible`` model not in the price list costs 0 when ``base_url`` is local
    (Ollama, LM Studio); without a base URL it is unknown.
    """
    price = find_price(provider, model)
    if price is not None:
        return price.cost(usage)
    if provider == "openai-compatible" and is_local_url(base_url):
        return 0.0
    return None


# --------------------------------------------------------------------------------------------
# The usage log
# --------------------------------------------------------------------------------------------

def usage_log_path() -> Path:
    return data_dir() / USAGE_LOG_FILENAME


def new_session_key() -> str:
    """An opaque id that groups a session's requests in the log (no document name, no user)."""
    return uuid.uuid4().hex[:12]


class UsageLog:
    """Appends one JSON line per model call. Thread-safe; a write failure is logged, never raised."""

    FIELDS = ("ts", "provider", "model", "input_tokens", "output_tokens", "cache_write_tokens",
              "cache_read_tokens", "latency_ms", "ttft_ms", "cost_usd", "session")

    def __init__(self, path: Path | None = None, *, session: str | None = None, base_url: str | None = None):
        self.path = Path(path) if path is not None else usage_log_path()
        self.session = session or new_session_key()
        self.base_url = base_url
        """Used to price local models at 0 when a record comes without a cost."""
        self._lock = threading.Lock()
        self._warned = False

    def record(self, *, provider: str, model: str, usage: Usage, latency_ms: float | None = None,
               ttft_ms: float | None = None, cost_usd: float | None = None, session: str | None = None,
               timestamp: datetime | None = None) -> dict[str, Any] | None:
        """Append one request's line; returns what was written (None if the write failed)."""
        if cost_usd is None:
            cost_usd = estimate_cost(provider, model, usage, base_url=self.base_url)
        when = (timestamp or datetime.now(timezone.utc)).astimezone(timezone.utc)
        entry = {
            "ts": when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            # names only, scrubbed anyway: a key pasted into the model field must not reach the disk
            "provider": redact_secrets(str(provider))[:64],
            "model": redact_secrets(str(model))[:128],
            "input_tokens": int(usage.input_tokens),
            "output_tokens": int(usage.output_tokens),
            "cache_write_tokens": int(usage.cache_write_tokens),
            "cache_read_tokens": int(usage.cache_read_tokens),
            "latency_ms": None if latency_ms is None else round(float(latency_ms), 1),
            "ttft_ms": None if ttft_ms is None else round(float(ttft_ms), 1),
            "cost_usd": None if cost_usd is None else round(float(cost_usd), 8),
            "session": redact_secrets(str(session or self.session))[:64],
        }
        line = json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n"
        try:
            with self._lock:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with open(self.path, "a", encoding="utf-8", newline="\n") as handle:
                    handle.write(line)
        except OSError as error:
            if not self._warned:  # once per log: a full disk must not flood the log either
                log.warning("Could not write the usage log %s: %s", self.path, error)
                self._warned = True
            return None
        return entry

    def record_event(self, event: Any, *, session: str | None = None) -> dict[str, Any] | None:
        """Append the line for an agent ``UsageReported`` event."""
        return self.record(provider=event.provider, model=event.model, usage=event.usage,
                           latency_ms=event.latency_ms, ttft_ms=event.ttft_ms, cost_usd=event.cost_usd,
                           session=session)

    def read(self) -> list[dict[str, Any]]:
        """Every well-formed line of the log (a torn last line is skipped)."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        entries = []
        for line in lines:
            try:
                entries.append(json.loads(line))
            except ValueError:
                continue
        return entries


# --------------------------------------------------------------------------------------------
# Running totals and the usage line
# --------------------------------------------------------------------------------------------

@dataclass
class UsageTotals:
    """Tokens and cost of some model calls."""

    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    """The sum over the calls whose price is known."""
    requests: int = 0
    unpriced: int = 0
    """Calls whose price is unknown (their cost is not in ``cost_usd``)."""

    def add(self, usage: Usage, cost_usd: float | None) -> None:
        self.usage = self.usage + usage
        self.requests += 1
        if cost_usd is None:
            self.unpriced += 1
        else:
            self.cost_usd += cost_usd

    def line(self) -> str:
        """``tokens 12.3k in (8.1k cached) · 450 out · ~$0.012``."""
        usage = self.usage
        text = f"tokens {format_tokens(usage.prompt_tokens)} in"
        if usage.cache_read_tokens:
            text += f" ({format_tokens(usage.cache_read_tokens)} cached)"
        text += f" · {format_tokens(usage.output_tokens)} out"
        if self.requests and self.unpriced < self.requests:
            # "+": some calls used a model without a price, so the real cost is higher
            text += f" · ~{format_cost(self.cost_usd)}" + ("+" if self.unpriced else "")
        elif self.requests:
            text += " · unknown price"  # not "$0": the price table does not know this model
        return text


class TurnUsage:
    """Usage of the current turn and of the whole session. Thread-safe (worker adds, UI reads)."""

    def __init__(self, *, base_url: str | None = None) -> None:
        self.base_url = base_url
        self.turn = UsageTotals()
        self.session = UsageTotals()
        self._lock = threading.Lock()

    def start_turn(self) -> None:
        with self._lock:
            self.turn = UsageTotals()

    def add(self, usage: Usage, *, provider: str, model: str, cost_usd: float | None = None) -> float | None:
        """Count one call; its cost is estimated unless given. Returns the cost counted."""
        if cost_usd is None:
            cost_usd = estimate_cost(provider, model, usage, base_url=self.base_url)
        with self._lock:
            self.turn.add(usage, cost_usd)
            self.session.add(usage, cost_usd)
        return cost_usd

    def add_event(self, event: Any) -> float | None:
        """Count an agent ``UsageReported`` event."""
        return self.add(event.usage, provider=event.provider, model=event.model, cost_usd=event.cost_usd)

    def line(self, scope: Literal["turn", "session"] = "turn") -> str:
        with self._lock:
            return (self.turn if scope == "turn" else self.session).line()


def format_tokens(count: int) -> str:
    """450, 12.3k, 1.2M."""
    if count < 1000:
        return str(count)
    if count < 999_950:
        return f"{count / 1000:.1f}k"
    return f"{count / 1_000_000:.1f}M"


def format_cost(usd: float) -> str:
    """Two significant digits under a dollar ($0.012, $0.0012), cents above ($1.25); $0 for free."""
    if usd <= 0:
        return "$0"
    if usd >= 1:
        return f"${usd:.2f}"
    decimals = min(6, max(2, 1 - math.floor(math.log10(usd))))
    return f"${usd:.{decimals}f}"
