"""The order in which the test workers take the test files: the longest first.

pytest-xdist hands the files out (``--dist loadfile``, as ``tasks.py test`` runs the suite) in
order of their number of tests. A file with few but slow tests (the tool bounds, the bench smoke,
the packaging test) then starts late, and the run ends waiting for it on one worker while the
other cores idle. Handed out longest first (the longest-processing-time rule), the short files
fill the end instead.

Each worker puts its collected tests in this order (tests/conftest.py), and xdist hands the files
out in the order collected instead of reordering them (xdist sends a worker the positions of its
tests in the collection, so the order must be the workers' own, the same on every worker).

``SECONDS`` is what each of the slowest files took in a whole run of the suite on a 2-core machine
(3 workers, ``pytest --durations=0``, summed per file); the files not listed come after them, most
tests first, as xdist would hand them out. A time that is out of date costs only order: every
file still runs once, and which worker runs it changes nothing in it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

SECONDS = {
    "tests/robustness/test_stream_faults.py": 102,
    "tests/tools/test_tool_bounds.py": 72,
    "tests/robustness/test_fault_injection.py": 51,
    "tests/robustness/test_hostile_model_output.py": 44,
    "tests/mcp/test_end_to_end.py": 42,
    "tests/exploration/test_every_tool.py": 40,
    "tests/test_bench_smoke.py": 38,
    "tests/mcp/test_stdio.py": 37,
    "tests/robustness/test_hostile_properties.py": 29,
    "tests/app/test_cli_rough_edges.py": 18,
    "tests/test_vendoring.py": 17,
    "tests/app/test_sandbox_cli.py": 13,
    "tests/mcp/test_http.py": 12,
    "tests/mcp/test_typescript_client.py": 11,
    "tests/test_packaging.py": 11,
    "tests/exploration/test_damaged_ifc.py": 10,
    "tests/exploration/test_stateful.py": 9,
    "tests/test_in_revit_checks.py": 9,
    "tests/standin/test_building_cache.py": 8,
    "tests/llm/test_context_window.py": 8,
    "tests/llm/test_gemini.py": 8,
    "tests/test_tasks_parallel.py": 8,
    "tests/plugins/test_tool_plugins.py": 7,
    "tests/app/test_sandbox_silent_server.py": 7,
}


def file_of(nodeid: str) -> str:
    """The test file of a test id (``--dist loadfile``'s unit of work)."""
    return nodeid.split("::", 1)[0]


def longest_first(nodeids: Sequence[str]) -> list[str]:
    """The test ids, their files in the order to hand out; each file's tests in their own order."""
    counts = Counter(file_of(nodeid) for nodeid in nodeids)
    first_seen = {name: n for n, name in enumerate(dict.fromkeys(file_of(nodeid) for nodeid in nodeids))}
    rank = {name: n for n, name in enumerate(sorted(
        counts, key=lambda name: (-SECONDS.get(name, 0), -counts[name], first_seen[name])))}
    return sorted(nodeids, key=lambda nodeid: rank[file_of(nodeid)])   # stable: a file's tests keep their order
