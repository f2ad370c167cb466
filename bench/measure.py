"""What every benchmark section shares: repeated timing, median-and-spread text, progress lines.

Every figure in the report is the median over repeated runs with its min, max and n, so a reader
sees how noisy it is; timings use ``time.perf_counter`` (monotonic, sub-microsecond).
"""
from __future__ import annotations

import statistics
import sys
import time
from typing import Callable

_STARTED = time.perf_counter()


def timed(fn: Callable[[], object], repeat: int, before: Callable[[], object] | None = None) -> list[float]:
    """Seconds per call of ``fn``, ``repeat`` times; ``before`` (not timed) resets state first."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def number(value: float) -> str:
    """Three significant digits, without an exponent: 0.0127, 2.78, 136, 1,770."""
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def spread(values: list[float], scale: float = 1.0, unit: str = "s") -> str:
    """ "0.446 ms (min 0.432, max 0.722, n=5)": median first, then the spread."""
    median = statistics.median(values) * scale
    low, high = min(values) * scale, max(values) * scale
    return f"{number(median)} {unit} (min {number(low)}, max {number(high)}, n={len(values)})"


def ratio(large: list[float], small: list[float]) -> str:
    """The median of ``large`` over the median of ``small``, as "×12.3"."""
    return f"×{number(statistics.median(large) / statistics.median(small))}"


def progress(message: str) -> None:
    """One line on stderr with the time since the benchmark started (the report goes to stdout)."""
    print(f"[bench {time.perf_counter() - _STARTED:6.1f} s] {message}", file=sys.stderr, flush=True)


def replace_section(text: str, section: list[str], before: str | None = "## Token economy") -> str:
    """``text`` (bench/RESULTS.md) with the lines of the section ``section`` starts with replaced by
    ``section`` (put in before the heading ``before`` when the report has none yet; at the end
    when ``before`` is None)."""
    lines = text.split("\n")
    heading = section[0]
    if heading in lines:
        start = lines.index(heading)
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    else:
        start = end = lines.index(before) if before is not None else len(lines)
    return "\n".join(lines[:start] + section + lines[end:])


def write_alone(section: list[str], *, results, script: str, started, commit: str, write: bool, load=None) -> None:
    """Print ``section``, measured by ``script`` alone from ``started`` (a UTC datetime), with when and on
    which commit under its heading; with ``write``, replace it in ``results`` (bench/RESULTS.md), whose
    other sections keep the run in its header."""
    loaded = f", 1-minute load average at the start {load}" if load is not None else ""
    section[1:1] = ["", f"Measured alone (`python3 bench/{script} --write`), {started:%Y-%m-%d %H:%M} UTC, commit "
                        f"{commit}{loaded}; the rest of this report is from the run in its header."]
    print("\n".join(section))
    if write:
        results.write_text(replace_section(results.read_text(encoding="utf-8"), section), encoding="utf-8")
        progress(f"written to {results.name}")
