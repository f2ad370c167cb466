"""docs/REVIT_BEHAVIOUR.md stays honest: every row of its tables names a stand-in test that exists,
an in-Revit check that exists and is registered, and a source that is Autodesk's documentation or
says plainly that the behaviour is not documented (and then has an in-Revit check).

The ledger is read as text and the checks as source (ast): nothing here imports Revit's API, so
the test is cheap and runs first in the suite's order of failures worth reading.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
LEDGER = ROOT / "docs" / "REVIT_BEHAVIOUR.md"
CHECKS_FOLDER = ROOT / "tests" / "in_revit" / "behaviour_checks"

HEADER = ("Behaviour", "Source", "Stand-in test", "In-Revit check")
NOT_DOCUMENTED = "not documented"
NO_CHECK = "—"
AUTODESK_HOSTS = ("revitapidocs.com", "apidocs.co", "rvtdocs.com", "help.autodesk.com", "autodesk.com")
TEST_REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")
CHECK_REFERENCE = re.compile(r"^`behaviour_checks/(\w+)\.py::(\w+)`$")
LINK = re.compile(r"\]\((https?://[^)\s]+)\)")
QUOTE = re.compile(r"\"[^\"]{8,}\"")


@dataclass
class Row:
    line: int
    area: str
    behaviour: str
    source: str
    tests: str
    check: str


def rows(text: str) -> tuple[list[Row], list[str]]:
    """The rows of every table whose header is HEADER, and the problems of their shape."""
    found, problems = [], []
    area, in_table = "", False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            area, in_table = line[3:].strip(), False
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if tuple(cells) == HEADER:
            in_table = True
        elif in_table and not set("".join(cells)) <= {"-", ":"}:
            if len(cells) != len(HEADER):
                problems.append(f"line {number}: {len(cells)} cells, not {len(HEADER)} (a '|' inside a cell?)")
            else:
                found.append(Row(number, area, *cells))
    return found, problems


def row_problems(row: Row, root: Path = ROOT) -> list[str]:
    """What is wrong with one row: every reference must resolve, every source be Autodesk's or
    'not documented' with a check."""
    where = f"line {row.line} ({row.area}: {row.behaviour[:50]}...)"
    found = [f"{where}: {p}" for p in _source_problems(row) + _test_problems(row, root) + _check_problems(row, root)]
    if not row.behaviour:
        found.append(f"{where}: the behaviour is empty")
    return found


def _source_problems(row: Row) -> list[str]:
    if row.source.startswith(NOT_DOCUMENTED):
        return [] if CHECK_REFERENCE.match(row.check) else \
            ["a behaviour that is not documented needs an in-Revit check (behaviour_checks/<module>.py::<function>)"]
    links = LINK.findall(row.source)
    if not links:
        return [f"the source is neither an Autodesk documentation link nor '{NOT_DOCUMENTED}': {row.source[:60]!r}"]
    foreign = [url for url in links if not _autodesk(url)]
    problems = [f"the source links outside Autodesk's documentation: {url}" for url in foreign]
    if not QUOTE.search(row.source):
        problems.append("the source quotes nothing from the page (a remark in double quotes)")
    return problems


def _autodesk(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    return any(host == allowed or host.endswith("." + allowed) for allowed in AUTODESK_HOSTS)


def _test_problems(row: Row, root: Path) -> list[str]:
    references = TEST_REFERENCE.findall(row.tests)
    leftover = TEST_REFERENCE.sub("", row.tests).replace(",", "").strip()
    if not references or leftover:
        return [f"the stand-in test cell must be `tests/<path>.py::<test>`, several separated by ', ': {row.tests!r}"]
    problems = []
    for path, name in references:
        file = root / path
        if not file.is_file():
            problems.append(f"no test file {path}")
        elif name not in _functions(file):
            problems.append(f"{path} has no test {name}")
        elif not name.startswith("test_"):
            problems.append(f"{path}::{name} is not a test (pytest collects test_* only)")
    return problems


def _check_problems(row: Row, root: Path) -> list[str]:
    if row.check.startswith(NO_CHECK):
        return [] if row.check[len(NO_CHECK):].strip() else ["'—' must say why no in-Revit check can run"]
    match = CHECK_REFERENCE.match(row.check)
    if match is None:
        return ["the in-Revit check must be `behaviour_checks/<module>.py::<function>` or '—' and why: "
                f"{row.check!r}"]
    module, name = match.groups()
    file = root / CHECKS_FOLDER.relative_to(ROOT) / f"{module}.py"
    if not file.is_file():
        return [f"no check module behaviour_checks/{module}.py"]
    if name not in _functions(file):
        return [f"behaviour_checks/{module}.py has no function {name}"]
    if name not in _registered(file):
        return [f"behaviour_checks/{module}.py does not list {name} in CHECKS, so run_checks.py never runs it"]
    return []


def _functions(file: Path) -> set[str]:
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _registered(file: Path) -> set[str]:
    """The function names in the module's ``CHECKS = [("name", function), ...]``."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "CHECKS" for t in node.targets):
            return {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
    return set()


def ledger_problems(text: str, root: Path = ROOT) -> list[str]:
    found, problems = rows(text)
    for row in found:
        problems.extend(row_problems(row, root))
    return problems


# -- the ledger ---------------------------------------------------------------------------------------

def test_every_row_of_the_ledger_names_what_exists():
    assert ledger_problems(LEDGER.read_text(encoding="utf-8")) == []


def test_the_ledger_covers_the_areas_of_the_stand_in():
    found, _ = rows(LEDGER.read_text(encoding="utf-8"))
    areas = {row.area for row in found}
    assert {"Transactions", "Transaction groups", "Sub-transactions", "Regeneration", "Deletion", "Events",
            "Failures", "Dialogs", "Main thread and API context", "Internal units", "Parameters", "Locations",
            "Dimensions", "Rooms", "View isolation", "Views and sheets", "Posted commands"} <= areas
    assert len(found) >= 70
    headings = [line[3:] for line in LEDGER.read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
    assert {"Tags and annotation", "Undo, previews and events"} <= set(headings)


def test_every_not_documented_row_has_a_check_that_exists():
    found, _ = rows(LEDGER.read_text(encoding="utf-8"))
    undocumented = [row for row in found if row.source.startswith(NOT_DOCUMENTED)]
    assert len(undocumented) >= 20
    assert all(CHECK_REFERENCE.match(row.check) for row in undocumented)


# -- a broken table fails ------------------------------------------------------------------------------

GOOD = ("| Behaviour | Source | Stand-in test | In-Revit check |\n|---|---|---|---|\n"
        "| Dispose rolls back. | [Transaction class](https://rvtdocs.com/2025/308ebf8d): \"the default destructor "
        "will roll it back automatically\" | `tests/standin/test_transactions.py::"
        "test_disposing_an_uncommitted_transaction_rolls_it_back` | `behaviour_checks/core.py::dispose_rolls_back` |\n")


def _table(source, tests, check, area="Transactions"):
    return (f"## {area}\n\n| Behaviour | Source | Stand-in test | In-Revit check |\n|---|---|---|---|\n"
            f"| Something Revit does. | {source} | {tests} | {check} |\n")


TEST = "`tests/standin/test_transactions.py::test_disposing_an_uncommitted_transaction_rolls_it_back`"
CHECK = "`behaviour_checks/core.py::dispose_rolls_back`"
SOURCE = "[Transaction class](https://rvtdocs.com/2025/308ebf8d): \"the default destructor will roll it back\""


def test_a_good_row_has_no_problem():
    assert ledger_problems(GOOD) == []
    assert ledger_problems(_table(SOURCE, TEST, CHECK)) == []
    assert ledger_problems(_table("not documented", TEST, CHECK)) == []
    assert ledger_problems(_table(SOURCE, TEST, "— the API cannot read the undo list")) == []


def test_a_missing_stand_in_test_fails():
    [problem] = ledger_problems(_table(SOURCE, "`tests/standin/test_transactions.py::test_that_never_was`", CHECK))
    assert "has no test test_that_never_was" in problem
    [problem] = ledger_problems(_table(SOURCE, "`tests/standin/test_nowhere.py::test_x`", CHECK))
    assert "no test file tests/standin/test_nowhere.py" in problem
    [problem] = ledger_problems(_table(SOURCE, "test_disposing_an_uncommitted_transaction_rolls_it_back", CHECK))
    assert "must be `tests/<path>.py::<test>`" in problem


def test_a_missing_or_unregistered_check_fails(tmp_path):
    [problem] = ledger_problems(_table(SOURCE, TEST, "`behaviour_checks/core.py::no_such_check`"))
    assert "has no function no_such_check" in problem
    [problem] = ledger_problems(_table(SOURCE, TEST, "`behaviour_checks/nowhere.py::dispose_rolls_back`"))
    assert "no check module behaviour_checks/nowhere.py" in problem
    [problem] = ledger_problems(_table(SOURCE, TEST, "—"))
    assert "must say why" in problem
    folder = tmp_path / "tests" / "in_revit" / "behaviour_checks"
    folder.mkdir(parents=True)
    (folder / "area.py").write_text("def listed(scratch):\n    pass\n\n\ndef forgotten(scratch):\n    pass\n\n\n"
                                    "CHECKS = [(\"listed\", listed)]\n", encoding="utf-8")
    test_file = tmp_path / "tests" / "standin" / "test_area.py"
    test_file.parent.mkdir(parents=True)
    test_file.write_text("def test_area():\n    pass\n", encoding="utf-8")
    table = _table(SOURCE, "`tests/standin/test_area.py::test_area`", "`behaviour_checks/area.py::forgotten`")
    [problem] = ledger_problems(table, root=tmp_path)
    assert "does not list forgotten in CHECKS" in problem
    listed = _table(SOURCE, "`tests/standin/test_area.py::test_area`", "`behaviour_checks/area.py::listed`")
    assert ledger_problems(listed, root=tmp_path) == []


def test_a_not_documented_row_without_a_check_fails():
    [problem] = ledger_problems(_table("not documented", TEST, "— no way to check it"))
    assert "not documented needs an in-Revit check" in problem


def test_a_source_that_is_not_autodesks_documentation_fails():
    [problem] = ledger_problems(_table("[a forum](https://forums.example.com/t/1): \"Revit does this, trust me\"",
                                       TEST, CHECK))
    assert "links outside Autodesk's documentation: https://forums.example.com/t/1" in problem
    [problem] = ledger_problems(_table("[a lookalike](https://rvtdocs.com.example.org/x): \"the default destructor "
                                       "will roll it back\"", TEST, CHECK))
    assert "outside Autodesk's documentation" in problem
    [problem] = ledger_problems(_table("Revit does this, everyone knows", TEST, CHECK))
    assert "neither an Autodesk documentation link nor 'not documented'" in problem
    [problem] = ledger_problems(_table("[Transaction class](https://rvtdocs.com/2025/308ebf8d)", TEST, CHECK))
    assert "quotes nothing" in problem


def test_a_row_with_a_wrong_number_of_cells_fails():
    table = _table(SOURCE, TEST, CHECK).replace("| Something Revit does. |", "| Something | Revit does. |")
    [problem] = ledger_problems(table)
    assert "5 cells, not 4" in problem


def test_other_tables_and_an_empty_table_are_not_rows():
    text = ("## Notes\n\n| Cell | What it holds |\n|---|---|\n| Behaviour | one line |\n\n"
            "## Tags and annotation\n\n| Behaviour | Source | Stand-in test | In-Revit check |\n|---|---|---|---|\n")
    assert rows(text) == ([], [])
