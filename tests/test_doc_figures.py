"""The numbers the docs give agree with the tree (issue 36: tool counts 59 / 59 / 62 / 65 / 64, core
tokens ~4,700 / ~5,400, 360 exploration tests, 40 vendored packages, all said of the same tree).

Each figure the README and docs/ give is listed below with where it is and what it counts; the test
reads the figure out of the text and compares it with the truth, measured now:

- tool counts: the tool registry (``paracore.tools.framework.registry``), and what ``paracore mcp`` lists;
- token figures: the bench that measures them (bench/toolset_economy.py for the definitions the chat
  sends, bench/mcp_roundtrip.py for an MCP client's tools/list; bench/RESULTS.md prints both): an
  "about" figure must be within ABOUT of the measurement;
- the exploration suite's size: pytest's collection of tests/exploration;
- the vendored packages: tools/vendor.py's lock (requirements/revit.txt).

A figure whose sentence was reworded is not silently skipped: its pattern must still match once.
docs/TOOLS.md is generated (``paracore tools-doc``; tests/app/test_tools_reference.py checks it).
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ABOUT = 0.05   # an "about N" figure is within 5% of what the bench measures
NUMBER_WORDS = {"three": 3, "four": 4, "five": 5, "six": 6}


@dataclass(frozen=True)
class Figure:
    file: str
    pattern: str          # a regular expression whose groups are the figures, in the order of ``truths``
    truths: tuple[str, ...]
    about: bool = False   # "about 4,700 tokens": within ABOUT; else exact

    def found(self) -> list[int]:
        text = " ".join((ROOT / self.file).read_text(encoding="utf-8").split())
        matches = re.findall(self.pattern, text)
        assert len(matches) == 1, (f"{self.file}: the figure {self.pattern!r} is found {len(matches)} times: "
                                   "update FIGURES in tests/test_doc_figures.py with the docs' new wording")
        groups = matches[0] if isinstance(matches[0], tuple) else (matches[0],)
        return [NUMBER_WORDS[group] if group in NUMBER_WORDS else int(group.replace(",", "")) for group in groups]


FIGURES = (
    Figure("README.md", r"core tools first \(about ([\d,]+) tokens\)", ("mcp first tokens",), about=True),
    Figure("README.md", r"`--all-tools` lists all (\d+) at once", ("mcp all tools",)),
    Figure("README.md", r"`--all-tools` lists all \d+ at once \(about ([\d,]+) tokens[;)]", ("mcp all tokens",),
           about=True),
    Figure("README.md", r"and (\d+) in the exploration suite", ("exploration tests",)),
    Figure("README.md", r"into `vendor\\` \((\d+) packages", ("vendored packages",)),
    Figure("docs/MCP.md", r"`use_toolset`, (\d+) tools and about [\d,]+ tokens instead of (\d+)",
           ("mcp first tools", "mcp all tools")),
    Figure("docs/MCP.md", r"\d+ tools and about ([\d,]+) tokens instead of \d+ and ([\d,]+)",
           ("mcp first tokens", "mcp all tokens"), about=True),
    Figure("docs/TOOLSETS.md", r"the catalogue now holds (\d+)", ("tools",)),
    Figure("docs/TOOLSETS.md", r"A default request is then the core and modelling, about ([\d,]+) tokens instead "
                               r"of every tool's ([\d,]+)", ("core and modelling tokens", "every tool tokens"),
           about=True),
    Figure("docs/TOOLSETS.md", r"\(bench/RESULTS\.md, Toolsets, at (\d+) tools\)", ("tools",)),
    Figure("docs/STANDARDS.md", r"The list of the (\w+) bundled standards adds \*\*(\d+) tokens\*\* "
                                r"\(o200k_base; ([\d,]+) bytes\)",
           ("standards listed", "standards list tokens", "standards list bytes")),
    Figure("docs/STANDARDS.md", r"its definition costs about (\d+) tokens in every request \((\d+) in an MCP",
           ("use_standard tokens", "use_standard tokens over MCP"), about=True),
    Figure("docs/TOOLS.md", r"do not edit by hand\. (\d+) tools\.", ("tools",)),
)


# --- the truth ---------------------------------------------------------------------------------------------

def _bench_path() -> None:
    for folder in (ROOT / "bench", ROOT / "tests" / "support"):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))


@lru_cache(maxsize=None)
def definition_rows() -> dict[str, tuple[int, int]]:
    """label -> (tools, o200k tokens) of the definitions the chat sends (bench/toolset_economy.py)."""
    _bench_path()
    import toolset_economy
    return {label: (tools, tokens) for label, tools, _, tokens in toolset_economy.definition_rows()}


@lru_cache(maxsize=None)
def mcp_body(all_tools: bool) -> str:
    """The tools/list an MCP client gets (bench/mcp_roundtrip.py), first or with --all-tools, as JSON,
    from a server on loopback."""
    _bench_path()
    import anyio
    import mcp_roundtrip
    from mcp_support import http_server
    with http_server(all_tools=all_tools) if all_tools else http_server() as server:
        return anyio.run(mcp_roundtrip._listed, server.url)


def mcp_listing(all_tools: bool) -> tuple[int, int]:
    """(tools, o200k tokens) of that listing."""
    _bench_path()
    import tokens
    body = mcp_body(all_tools)
    return len(json.loads(body)["tools"]), tokens.count(body)


def tool_tokens(name: str, over_mcp: bool) -> int:
    """o200k tokens of one tool's definition: as the registry renders it for the chat (compact JSON), or
    as it stands in an MCP client's tools/list."""
    _bench_path()
    import tokens
    if over_mcp:
        [listed] = [tool for tool in json.loads(mcp_body(False))["tools"] if tool["name"] == name]
        return tokens.count(json.dumps(listed, ensure_ascii=False))
    from paracore.tools.framework.registry import default_registry
    registry_tools()
    definition = default_registry().get(name).definition()
    return tokens.count(json.dumps(definition, ensure_ascii=False, separators=(",", ":")))


def standards_cost() -> tuple[int, int, int]:
    """(standards, bytes, o200k tokens) the bundled standards' list adds to the system prompt."""
    _bench_path()
    import token_economy
    return token_economy.standards_cost()


@lru_cache(maxsize=None)
def exploration_tests() -> int:
    """How many tests pytest collects in tests/exploration (they are added by other work: never a constant)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-qq", "-p", "no:randomly",
                           "-p", "no:cacheprovider", "tests/exploration"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    counts = re.findall(r"^tests/\S+: (\d+)$", done.stdout, flags=re.M)
    assert done.returncode == 0 and counts, done.stdout[-2000:] + done.stderr[-2000:]
    return sum(map(int, counts))


def vendored_packages() -> int:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import vendor
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return len(vendor.read_lock())


def registry_tools() -> int:
    from paracore.tools.framework.catalogue import load_tools
    from paracore.tools.framework.registry import default_registry
    load_tools()
    return len(default_registry().names())


TRUTHS = {
    "tools": registry_tools,
    "mcp first tools": lambda: mcp_listing(False)[0],
    "mcp first tokens": lambda: mcp_listing(False)[1],
    "mcp all tools": lambda: mcp_listing(True)[0],
    "mcp all tokens": lambda: mcp_listing(True)[1],
    "core and modelling tokens": lambda: definition_rows()["core (always sent)"][1]
    + definition_rows()["+ modelling"][1],
    "every tool tokens": lambda: definition_rows()["every tool (each request before toolsets)"][1],
    "use_standard tokens": lambda: tool_tokens("use_standard", over_mcp=False),
    "use_standard tokens over MCP": lambda: tool_tokens("use_standard", over_mcp=True),
    "standards listed": lambda: standards_cost()[0],
    "standards list bytes": lambda: standards_cost()[1],
    "standards list tokens": lambda: standards_cost()[2],
    "exploration tests": exploration_tests,
    "vendored packages": vendored_packages,
}


def agrees(given: int, measured: int, about: bool) -> bool:
    return abs(given - measured) <= ABOUT * measured if about else given == measured


# --- tests -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("figure", FIGURES, ids=lambda figure: f"{figure.file}:{'+'.join(figure.truths)}")
def test_each_figure_the_docs_give_is_what_the_tree_measures(figure):
    given = figure.found()
    measured = [TRUTHS[truth]() for truth in figure.truths]
    wrong = [f"{truth}: the docs say {g:,}, the tree has {m:,}" for truth, g, m in zip(figure.truths, given, measured)
             if not agrees(g, m, figure.about)]
    assert not wrong, f"{figure.file}: " + "; ".join(wrong)


def test_the_registry_and_the_mcp_listing_agree_on_what_all_tools_means():
    """--all-tools lists every registered tool but use_toolset (nothing to turn on): the docs' two counts."""
    assert mcp_listing(True)[0] == registry_tools() - 1


def test_an_about_figure_must_be_close_and_a_count_exact():
    assert agrees(4_700, 4_699, about=True) and not agrees(5_400, 4_699, about=True)
    assert agrees(65, 65, about=False) and not agrees(64, 65, about=False)
