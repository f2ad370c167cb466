"""run_python on the stand-in duplex model, through the executor: the code runs on Revit's main
thread inside the executor's transaction; failures, transactions opened by the code and code
past its time budget leave the model unchanged."""
from __future__ import annotations

import threading
import time

import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.agent import ApprovalPolicy
from paracore.core.session import Session
from paracore.tools.scripts import code_tools
from paracore.tools.scripts.code_tools import BoundedOutput
from paracore.tools.framework.registry import default_registry

WALLS = DB.BuiltInCategory.OST_Walls


@pytest.fixture
def revit():
    revit = DuplexRevit()
    yield revit
    revit.close()


def comments(revit, ids) -> list:
    return revit.call(lambda: [revit.doc.GetElement(DB.ElementId(i)).LookupParameter("Comments").AsString()
                               for i in ids])


def level_count(revit) -> int:
    return revit.call(lambda: DB.FilteredElementCollector(revit.doc).OfClass(DB.Level).GetElementCount())


SET_COMMENTS = """\
walls = list(DB.FilteredElementCollector(doc).OfClass(DB.Wall))
for wall in walls[:3]:
    wall.LookupParameter("Comments").Set("checked")
print(f"{len(walls)} walls, 3 commented")
"""


# --- declaration and approval ---------------------------------------------------------------------


def test_run_python_always_asks_and_shows_the_code():
    spec = default_registry().get("run_python")
    assert (spec.writes, spec.needs_approval, spec.working_set_policy) == (True, True, "add")
    call = default_registry().prepare("run_python", {"code": "print(1)"})
    session = Session("t", "t")
    assert ApprovalPolicy(mode="never").needs_approval(call, session)
    session.always_allowed_tools.add("run_python")
    assert ApprovalPolicy().needs_approval(call, session)  # "always allow" does not cover code


def test_the_approval_prompt_shows_the_first_40_lines(revit):
    code = "\n".join(f"x{i} = {i}" for i in range(45))
    text = revit.describe("run_python", {"code": code})
    assert text.startswith("Run this Python code in Revit, inside one transaction (all its changes are undone if "
                           "it fails):\n```python\nx0 = 0\n")
    assert "x39 = 39\n```" in text and "x40" not in text
    assert text.endswith("… and 5 more lines.")


# --- running code ------------------------------------------------------------------------------------


def test_code_changes_the_model_and_its_output_comes_back(revit):
    walls = revit.ids(WALLS)
    text = revit.text("run_python", {"code": SET_COMMENTS})
    assert text.startswith("The code ran (") and "s) and its changes were committed." in text
    assert text.endswith(f"Output:\n{len(walls)} walls, 3 commented\n")
    assert comments(revit, walls[:3]) == ["checked"] * 3
    assert revit.undo_names() == ["Agent step"]


def test_elements_the_code_creates_join_the_working_set(revit):
    revit.session.working_set.replace(revit.ids(WALLS)[:1])
    before = revit.session.working_set.ids
    text = revit.text("run_python", {"code": "level = DB.Level.Create(doc, 40.0)\nprint(level.Name)"})
    new = [i for i in revit.session.working_set.ids if i not in before]
    assert len(new) == 1
    name = revit.call(lambda: revit.doc.GetElement(DB.ElementId(new[0])).Name)
    assert text.endswith(f"Output:\n{name}\n") and level_count(revit) == 5


def test_the_code_sees_the_working_set_and_can_set_it(revit):
    walls = revit.ids(WALLS)
    revit.session.working_set.replace(walls[:5])
    code = ("picked = [i for i in working_set if i % 2 == 0]\n"
            "set_working_set_output([doc.GetElement(DB.ElementId(i)) for i in picked], 'replace', 'even walls')\n")
    text = revit.text("run_python", {"code": code})
    even = [w for w in walls[:5] if w % 2 == 0]
    assert revit.session.working_set.ids == tuple(even)
    assert text.endswith(f"Working set (replace, {len(even)} ids): even walls")
    revit.text("run_python", {"code": f"set_working_set_output({walls[9]}, 'add')"})
    assert revit.session.working_set.ids == (*even, walls[9])


def test_set_working_set_output_refuses_unknown_ids_and_operations(revit):
    walls = revit.ids(WALLS)
    message = revit.error("run_python", {"code": f"set_working_set_output([{walls[0]}, 987654])"})
    assert message.startswith("The code failed at line 1 (`set_working_set_output(")
    assert "ValueError: these ids are not elements of the document: 987654" in message
    assert "operation must be one of replace, add, remove" in revit.error(
        "run_python", {"code": f"set_working_set_output([{walls[0]}], 'swap')"})
    assert revit.session.working_set.ids == ()


def test_an_exception_after_changes_rolls_everything_back(revit):
    walls = revit.ids(WALLS)
    code = SET_COMMENTS + "DB.Level.Create(doc, 50.0)\nvalue = {}['missing']\n"
    message = revit.error("run_python", {"code": code})
    assert message.startswith("The code failed at line 6 (`value = {}['missing']`): KeyError: 'missing'. "
                              "Nothing was changed: the transaction was rolled back.")
    assert message.endswith(f"Output before it stopped:\n{len(walls)} walls, 3 commented\n")
    assert comments(revit, walls[:3]) == [None] * 3 and level_count(revit) == 4
    assert revit.undo_names() == [] and revit.session.working_set.ids == ()


def test_the_line_is_the_codes_own_even_when_revit_raises(revit):
    code = "def make():\n    return DB.Wall.Create(doc, DB.Line.CreateBound(DB.XYZ(0, 0, 0), DB.XYZ(0, 0, 0)), " \
           "DB.ElementId(-1), False)\n\nmake()\n"
    message = revit.error("run_python", {"code": code})
    assert message.startswith("The code failed at line 2 (`return DB.Wall.Create(")


def test_a_revit_rollback_at_commit_changes_nothing(revit):
    walls = revit.ids(WALLS)
    from revit_standin import faults
    faults.fail_next_commit(revit.doc)
    assert revit.error("run_python", {"code": SET_COMMENTS}).startswith("Revit rolled the change back")
    assert comments(revit, walls[:3]) == [None] * 3


@pytest.mark.parametrize("code, line", [
    ("t = DB.Transaction(doc, 'x')\nt.Start()\nt.Commit()", 1),
    ("x = 1\nfrom Autodesk.Revit.DB import Transaction as T\nwith T(doc, 'x') as t:\n    t.Start()", 3),
    ("import Autodesk\ng = Autodesk.Revit.DB.TransactionGroup(doc, 'g')", 2),
    ("s = DB.SubTransaction(doc)\ns.Start()", 1),
])
def test_code_that_opens_a_transaction_is_refused_before_it_runs(revit, code, line):
    walls = revit.ids(WALLS)
    message = revit.error("run_python", {"code": SET_COMMENTS + code})
    assert message.startswith("run_python already runs inside a transaction; remove Transaction(...)/Start()/Commit() "
                              f"from the code (line {line + 4}: `")
    assert message.endswith("Nothing was run.")
    assert comments(revit, walls[:3]) == [None] * 3


def test_a_transaction_started_some_other_way_meets_revits_refusal(revit):
    walls = revit.ids(WALLS)
    code = SET_COMMENTS + "make = getattr(DB, 'Trans' + 'action')\nt = make(doc, 'x')\nt.Start()\n"
    message = revit.error("run_python", {"code": code})
    assert message.startswith("run_python already runs inside a transaction; remove Transaction(...)/Start()/"
                              "Commit() from the code at line 7 (`t.Start()`). Nothing was changed: the transaction "
                              "was rolled back.")
    assert comments(revit, walls[:3]) == [None] * 3
    group = "g = getattr(DB, 'TransactionGr' + 'oup')(doc, 'g')\ng.Start()\n"
    assert revit.error("run_python", {"code": group}).startswith("run_python already runs inside a transaction")


# --- time budget and output ----------------------------------------------------------------------


@pytest.mark.parametrize("loop", [
    "while True:\n    pass",
    "n = 0\nwhile True:\n    try:\n        n += 1\n    except Exception:\n        pass",  # cannot swallow it
    "def spin():\n    while True:\n        yield 1\nfor _ in spin():\n    pass",
])
def test_code_past_its_time_budget_is_stopped_and_rolled_back(revit, monkeypatch, loop):
    monkeypatch.setattr(code_tools, "TIME_BUDGET_SECONDS", 0.3)
    walls = revit.ids(WALLS)
    started = time.perf_counter()
    message = revit.error("run_python", {"code": SET_COMMENTS + loop})
    assert time.perf_counter() - started < 5.0
    assert message.startswith("The code was too slow: it was still running after the 0.3-second time budget and "
                              "was stopped at line ")
    assert "Nothing was changed: the transaction was rolled back." in message
    assert comments(revit, walls[:3]) == [None] * 3


def test_the_tracer_is_removed_after_the_code(revit, monkeypatch):
    monkeypatch.setattr(code_tools, "TIME_BUDGET_SECONDS", 0.3)
    revit.error("run_python", {"code": "while True:\n    pass"})
    assert revit.call(lambda: __import__("sys").gettrace()) is None
    assert revit.text("run_python", {"code": "print('fine')"}).endswith("Output:\nfine\n")


def test_output_is_bounded(revit):
    text = revit.text("run_python", {"code": "print('x' * 10000, end='')"})
    output = text.split("Output:\n", 1)[1]
    assert output == "x" * 4000 + "\n… 6000 more characters"


def test_code_that_prints_nothing_and_exit(revit):
    assert revit.text("run_python", {"code": "x = 1"}).endswith("It printed nothing.")
    assert revit.text("run_python", {"code": "print('bye')\nimport sys\nsys.exit()"}).endswith("Output:\nbye\n")
    message = revit.error("run_python", {"code": "raise SystemExit(3)"})
    assert message.startswith("The code called exit(3).")


def test_syntax_errors_and_empty_code(revit):
    message = revit.error("run_python", {"code": "x = 1\nif x\n    print(x)"})
    assert message.startswith("The code does not compile: SyntaxError at line 2: ")
    assert message.endswith("(`if x`). Nothing was run.")
    assert revit.error("run_python", {"code": "   "}) == "code is empty: give the Python code to run."


def test_only_the_code_thread_output_is_captured():
    output = BoundedOutput(10)

    class Sink:
        text = ""

        def write(self, text):
            Sink.text += text
            return len(text)

        def flush(self):
            pass

    stream = output.stream(Sink())
    stream.write("mine ")
    worker = threading.Thread(target=lambda: stream.write("other thread"))
    worker.start()
    worker.join()
    stream.write("and more")
    assert output.text() == "mine and m\n… 3 more characters"
    assert Sink.text == "other thread"


def test_the_view_schedule_and_code_tool_modules_import_without_revit():
    import subprocess
    import sys
    from pathlib import Path
    lib = Path(__file__).resolve().parents[2] / "lib"
    script = ("import sys; sys.path[:0] = [sys.argv[1]]\n"
              "import paracore.tools.views.view_tools, paracore.tools.schedules.schedule_tools, paracore.tools.scripts.code_tools\n"
              "assert not any(m.split('.')[0] in ('Autodesk', 'System', 'clr') for m in sys.modules), "
              "sorted(m for m in sys.modules if m.startswith(('Autodesk', 'System')))\n")
    result = subprocess.run([sys.executable, "-c", script, str(lib)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
