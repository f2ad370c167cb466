import json
import threading
from datetime import datetime, timezone

import pytest

from _config_support import isolated  # noqa: F401 - fixture
from paracore.core.events import UsageReported
from paracore.llm.pricing import (
    PRICES_PATH,
    TurnUsage,
    UsageLog,
    UsageTotals,
    estimate_cost,
    find_price,
    format_cost,
    format_tokens,
    is_local_url,
    usage_log_path,
)
from paracore.core.messages import Usage


def test_cost_of_each_kind_of_token():
    usage = Usage(input_tokens=1_000_000, output_tokens=1_000_000, cache_write_tokens=1_000_000,
                  cache_read_tokens=1_000_000)
    assert estimate_cost("anthropic", "claude-sonnet-4-6", usage) == pytest.approx(3 + 15 + 3.75 + 0.3)
    assert estimate_cost("openai", "gpt-5.4", Usage(input_tokens=2000, output_tokens=500)) == pytest.approx(
        (2000 * 2.5 + 500 * 15) / 1e6)
    assert estimate_cost("gemini", "gemini-3.5-flash", Usage(cache_read_tokens=10_000)) == pytest.approx(0.0015)


@pytest.mark.parametrize("provider, model, base", [
    ("anthropic", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
    ("anthropic", "claude-haiku-4-5@20251001", "claude-haiku-4-5"),
    ("anthropic", "claude-opus-4-1-20250805", "claude-opus-4-1"),
    ("anthropic", "claude-3-5-haiku-latest", "claude-3-5-haiku"),
    ("openai", "gpt-5.4-2026-03-05", "gpt-5.4"),
    ("openai", "gpt-5-mini-2025-08-07", "gpt-5-mini"),
    ("openai", "GPT-4o-2024-08-06", "gpt-4o"),
    ("openai", "gpt-5.4-mini", "gpt-5.4-mini"),
    ("gemini", "models/gemini-3.5-flash", "gemini-3.5-flash"),
    ("gemini", "gemini-3-flash-preview", "gemini-3-flash"),
    ("gemini", "gemini-2.5-flash-preview-05-20", "gemini-2.5-flash"),
    ("gemini", "gemini-2.5-flash-lite", "gemini-2.5-flash-lite"),
])
def test_dated_and_aliased_variants_find_their_base_price(provider, model, base):
    price = find_price(provider, model)
    assert price is not None and price.model == base


@pytest.mark.parametrize("provider, model", [
    ("openai", "gpt-5.3"),                 # not gpt-5
    ("openai", "gpt-5-pro"),               # not gpt-5
    ("gemini", "gemini-3.5-flash-lite"),   # not gemini-3.5-flash
    ("anthropic", "claude-opus-4-9"),      # not claude-opus-4-something
    ("anthropic", "claude-sonnet-4"),      # too short to say which
    ("anthropic", "gpt-5.4"),              # another provider's model
    ("azure", "gpt-5.4"),                  # unknown provider
    ("openai", ""),
])
def test_unknown_models_have_no_price(provider, model):
    assert find_price(provider, model) is None
    assert estimate_cost(provider, model, Usage(input_tokens=100)) is None


def test_a_more_specific_model_is_not_priced_as_its_family():
    assert find_price("openai", "gpt-5.4-mini-2026-03-17").model == "gpt-5.4-mini"
    assert estimate_cost("openai", "gpt-5.4-mini", Usage(output_tokens=1_000_000)) == pytest.approx(4.5)


@pytest.mark.parametrize("url, local", [
    ("http://localhost:11434/v1", True), ("http://127.0.0.1:1234/v1", True), ("http://[::1]:8080", True),
    ("http://192.168.1.20:11434/v1", True), ("http://10.0.0.5:8000/v1", True), ("http://gpu-box.local:8000", True),
    ("https://api.deepseek.com/v1", False), ("https://openrouter.ai/api/v1", False), (None, False), ("", False),
])
def test_local_servers(url, local):
    assert is_local_url(url) is local


def test_local_models_cost_nothing_and_hosted_unknown_ones_are_unknown():
    usage = Usage(input_tokens=50_000, output_tokens=2_000)
    assert estimate_cost("openai-compatible", "qwen3:8b", usage, base_url="http://localhost:11434/v1") == 0.0
    assert estimate_cost("openai-compatible", "qwen3:8b", usage, base_url="https://api.example.com/v1") is None
    assert estimate_cost("openai-compatible", "qwen3:8b", usage) is None


def test_the_price_list_is_well_formed():
    document = json.loads(PRICES_PATH.read_text(encoding="utf-8"))
    assert document["format"] == "paracore-prices" and document["currency"] == "USD"
    datetime.strptime(document["checked"], "%Y-%m-%d")
    assert set(document["providers"]) == {"anthropic", "openai", "gemini", "openai-compatible"}
    for provider, section in document["providers"].items():
        assert section["source"]
        for name, price in section["models"].items():
            assert name == name.lower() and name.strip() == name, name
            assert set(price) <= {"input", "output", "cache_write", "cache_read", "estimate"}, name
            for kind in ("input", "output", "cache_write", "cache_read"):
                assert isinstance(price[kind], (int, float)) and price[kind] >= 0, (name, kind)
            assert price["cache_read"] <= price["input"] <= price["output"], name
            assert price["cache_write"] >= price["input"], name


# -- the usage log ------------------------------------------------------------------------------

def test_one_json_line_per_request_in_the_data_dir(isolated):
    log = UsageLog(session="s1")
    assert log.path == usage_log_path() == isolated.usage_log
    when = datetime(2026, 11, 22, 9, 30, 0, 123000, tzinfo=timezone.utc)
    entry = log.record(provider="anthropic", model="claude-sonnet-4-6",
                       usage=Usage(input_tokens=1200, output_tokens=300, cache_write_tokens=4000, cache_read_tokens=0),
                       latency_ms=1834.25, ttft_ms=412.0, timestamp=when)
    log.record(provider="openai-compatible", model="qwen3:8b", usage=Usage(input_tokens=10), latency_ms=5.0)
    lines = isolated.usage_log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first == entry
    assert list(first) == list(UsageLog.FIELDS)
    assert first["ts"] == "2026-11-22T09:30:00.123Z"
    assert first["cost_usd"] == pytest.approx((1200 * 3 + 300 * 15 + 4000 * 3.75) / 1e6)
    assert first["latency_ms"] == 1834.2 or first["latency_ms"] == 1834.3
    assert first["session"] == "s1"
    assert json.loads(lines[1])["cost_usd"] is None  # no base URL known: a local price is not assumed
    assert log.read() == [first, json.loads(lines[1])]


def test_a_log_that_knows_its_server_is_local_prices_it_at_zero(isolated):
    log = UsageLog(base_url="http://localhost:11434/v1")
    entry = log.record(provider="openai-compatible", model="qwen3:8b", usage=Usage(input_tokens=10))
    assert entry["cost_usd"] == 0.0
    assert len(entry["session"]) == 12  # an opaque key, made up when none is given


def test_the_log_records_agent_usage_events(isolated):
    event = UsageReported(turn=0, usage=Usage(input_tokens=5, output_tokens=7), provider="gemini",
                          model="gemini-3.5-flash", latency_ms=900.0, ttft_ms=None, cost_usd=0.5)
    entry = UsageLog().record_event(event, session="abc")
    assert entry["cost_usd"] == 0.5 and entry["ttft_ms"] is None and entry["session"] == "abc"
    assert entry["output_tokens"] == 7


def test_a_failing_disk_never_fails_the_turn(isolated, caplog):
    isolated.usage_log.mkdir(parents=True)  # a folder where the file should be
    log = UsageLog()
    assert log.record(provider="openai", model="gpt-5.4", usage=Usage()) is None
    assert log.record(provider="openai", model="gpt-5.4", usage=Usage()) is None
    assert caplog.text.count("Could not write the usage log") == 1


def test_concurrent_writers_never_tear_lines(isolated):
    log = UsageLog()

    def write():
        for _ in range(50):
            log.record(provider="openai", model="gpt-5.4", usage=Usage(input_tokens=1, output_tokens=1))

    threads = [threading.Thread(target=write) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = isolated.usage_log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 400 and all(json.loads(line)["model"] == "gpt-5.4" for line in lines)


# -- totals and the usage line ----------------------------------------------------------------------

def test_the_usage_line():
    totals = UsageTotals()
    totals.add(Usage(input_tokens=4_200, cache_read_tokens=8_100, output_tokens=450), 0.012)
    assert totals.line() == "tokens 12.3k in (8.1k cached) · 450 out · ~$0.012"


def test_turn_and_session_totals():
    usage = TurnUsage()
    first = usage.add(Usage(input_tokens=1000, output_tokens=100), provider="anthropic", model="claude-sonnet-4-6")
    assert first == pytest.approx((1000 * 3 + 100 * 15) / 1e6)
    usage.add(Usage(input_tokens=500, output_tokens=50), provider="anthropic", model="claude-sonnet-4-6")
    assert usage.turn.requests == 2 and usage.session.requests == 2
    assert usage.line() == "tokens 1.5k in · 150 out · ~$0.0067"
    usage.start_turn()
    assert usage.line() == "tokens 0 in · 0 out"
    usage.add(Usage(input_tokens=10, output_tokens=1), provider="openai", model="gpt-5.4", cost_usd=0.25)
    assert usage.turn.cost_usd == 0.25
    assert usage.session.usage == Usage(input_tokens=1510, output_tokens=151)
    assert usage.line("session") == "tokens 1.5k in · 151 out · ~$0.26"


def test_unpriced_calls_are_flagged_not_guessed():
    usage = TurnUsage()
    usage.add(Usage(input_tokens=100, output_tokens=10), provider="openai-compatible", model="mystery")
    assert usage.line() == "tokens 100 in · 10 out · unknown price"  # nothing known: said, not guessed
    usage.add(Usage(input_tokens=100, output_tokens=10), provider="openai", model="gpt-5.4", cost_usd=0.002)
    assert usage.line() == "tokens 200 in · 20 out · ~$0.0020+"  # at least this much


def test_local_models_show_zero_cost():
    usage = TurnUsage(base_url="http://localhost:1234/v1")
    usage.add(Usage(input_tokens=3000, output_tokens=200), provider="openai-compatible", model="llama-3.2-3b")
    assert usage.line() == "tokens 3.0k in · 200 out · ~$0"


def test_usage_events_are_counted():
    usage = TurnUsage()
    usage.add_event(UsageReported(usage=Usage(input_tokens=1, output_tokens=2), provider="openai", model="gpt-5.4",
                                  latency_ms=1.0, cost_usd=0.001))
    assert usage.session.cost_usd == 0.001 and usage.session.usage.output_tokens == 2


@pytest.mark.parametrize("count, text", [(0, "0"), (450, "450"), (999, "999"), (1000, "1.0k"), (12_345, "12.3k"),
                                         (999_949, "999.9k"), (999_950, "1.0M"), (2_345_678, "2.3M")])
def test_format_tokens(count, text):
    assert format_tokens(count) == text


@pytest.mark.parametrize("usd, text", [(0, "$0"), (0.012, "$0.012"), (0.0012, "$0.0012"), (0.5, "$0.50"),
                                       (0.099, "$0.099"), (1.5, "$1.50"), (12.345, "$12.35"), (3e-7, "$0.000000")])
def test_format_cost(usd, text):
    assert format_cost(usd) == text


def test_a_missing_or_damaged_price_list_means_unknown_costs(tmp_path, caplog):
    from paracore.llm.pricing import load_prices

    damaged = tmp_path / "prices.json"
    damaged.write_text('{"providers": {"openai": {"models": {"gpt-x": {"input": "cheap"}}}}}', encoding="utf-8")
    assert load_prices(str(damaged)) == {}
    assert load_prices(str(tmp_path / "missing.json")) == {}
    assert find_price("openai", "gpt-x", path=str(damaged)) is None
    assert "costs are not estimated" in caplog.text
