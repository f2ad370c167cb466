#!/usr/bin/env python3
"""Figures about the tool catalogue: how many tools, what their definitions cost in every request,
and the largest result a tool sent back on the duplex grown to 100,000 elements.

    .venv/bin/python bench/tool_catalogue.py

The definitions are what every request to a provider carries (registry.definitions_json(), the
bytes the prompt cache keys on); tokens are o200k_base (bench/tokens.py). The largest results come
from .cache/tool-result-sizes.json, written by bench/tool_bounds.py (and by the full benchmark):

    .venv/bin/python bench/tool_bounds.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / ".cache" / "tool-result-sizes.json"
sys.path.insert(0, str(ROOT / "lib"))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def definitions() -> tuple[int, int, int]:
    """(number of tools, bytes, o200k tokens) of the tool definitions sent to a provider."""
    import tokens
    from paracore.tools.framework.catalogue import load_tools
    from paracore.tools.framework.registry import default_registry
    load_tools()
    registry = default_registry()
    text = registry.definitions_json()
    return len(registry), len(text.encode("utf-8")), tokens.count(text)


def largest_results(path: Path = RESULTS) -> list[str]:
    if not path.exists():
        return [f"Largest tool result: no {path.relative_to(ROOT)} yet (run bench/tool_bounds.py)."]
    data = json.loads(path.read_text(encoding="utf-8"))
    tools = data["tools"]
    ranked = sorted(tools.items(), key=lambda item: -item[1]["chars"])
    lines = [f"Largest tool results on the {data['model']} ({data['elements']:,} elements, "
             f"{data.get('calls', '?')} calls, bound {data['bound_chars']:,} characters unless noted):"]
    for name, entry in ranked[:5]:
        note = f" — OVER its bound of {entry['bound']:,}" if entry.get("over_bound") else \
            (f" (bound {entry['bound']:,})" if entry["bound"] != data["bound_chars"] else "")
        lines.append(f"  {name:24s} {entry['chars']:7,} chars {entry['tokens']:7,} tokens{note}")
    within = [(n, e) for n, e in ranked if not e.get("over_bound")]
    if within and within[0] != ranked[0]:
        name, entry = within[0]
        lines.append(f"Largest within its bound: {name}, {entry['chars']:,} characters, {entry['tokens']:,} tokens.")
    plain = [(n, e) for n, e in within if e["bound"] == data["bound_chars"]]
    if plain:
        name, entry = plain[0]
        lines.append(f"Largest under the {data['bound_chars']:,}-character rule: {name}, {entry['chars']:,} "
                     f"characters, {entry['tokens']:,} tokens.")
    return lines


def main() -> int:
    count, size, token_count = definitions()
    print(f"Tools: {count}")
    print(f"Tool definitions sent with every request: {size:,} bytes, {token_count:,} o200k tokens "
          f"({size / count:,.0f} bytes, {token_count / count:,.0f} tokens per tool)")
    print("\n".join(largest_results()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
