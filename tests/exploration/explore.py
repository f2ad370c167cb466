"""Exploration: every tool on every sample building, with arguments generated from the tool's own
JSON schema and filled with what the model holds (its ids, levels, views, types, parameters).

A call runs as a user's does: through the agent (``Agent.run_calls``), its approval preview (the
call tried and rolled back) and the executor. Its outcome is a success or a refusal in words;
anything else is a problem (``Outcome.problems``):

* an exception other than a ToolError reached the result (a TypeError from the stand-in, a
  Revit API exception the tool did not put into words), in the call or in its preview;
* a traceback in the text, or a result the executor had to cut (the tool did not bound it);
* not exactly one result for the call; the working set holding ids that are not live elements.

After each call the model is put back (the stand-in's undo) with the view state the call may have
changed (active view, selection, temporary isolation), so each example starts from the same model.

Settings (``settings()``): CI runs a fixed, derandomized number of examples per tool and building;
``tasks.py explore --minutes N`` runs rounds with fresh seeds and more examples
(``PARACORE_EXPLORE_EXAMPLES``, ``PARACORE_EXPLORE_FOUND``: where the shrunk failing examples are
written, one JSON object per line, to be kept in regressions.json).
"""
from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from Autodesk.Revit import DB
from paracore.core import events as ev
from paracore.agent import ApprovalPolicy
from paracore.hosts.standin.sandbox import Sandbox, load_tools
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import ToolCallPart
from paracore.hosts.revit import executor, transactions
from paracore.hosts.revit.executor import MAX_RESULT_CHARS
from paracore.tools.framework import export_files
from paracore.core.linked import parse_linked
from paracore.revit import links
from paracore.tools.framework.registry import default_registry
from paracore.tools.framework.results import ToolError
from revit_standin.loader import resolve_model

BUILDINGS = ("duplex", "SampleHouse4", "Office_A_20110811", "LargeBuilding")
# The duplex with two samples linked into it, one moved and turned: explored with the tools that read
# inside links and the writing tools that must refuse linked elements (test_every_tool.py).
LINKED_HOST = "duplex+links"
HOST_LINKS = ("SampleHouse4@30,-5,90", "duplex@-40,0")
REGRESSIONS = Path(__file__).with_name("regressions.json")

CI_EXAMPLES = 10           # per tool and building, derandomized: the CI budget (< 90 s for the folder)
RESULT_BOUND = MAX_RESULT_CHARS + len("… (cut: 99999999999 more characters; ask for less)")
_TRACEBACK = re.compile(r'Traceback \(most recent call last\)|File "[^"]+", line \d+')
_BACKSTOP_CUT = "more characters; ask for less)"

load_tools()


def available(building: str) -> bool:
    models = ["duplex", *(link.split("@")[0] for link in HOST_LINKS)] if building == LINKED_HOST else [building]
    try:
        for model in models:
            resolve_model(model)
        return True
    except FileNotFoundError:
        return False


def open_sandbox(building: str) -> Sandbox:
    return Sandbox("duplex", links=HOST_LINKS) if building == LINKED_HOST else Sandbox(building)


def settings(examples: int | None = None) -> hypothesis_settings:
    """CI: ``examples`` (default CI_EXAMPLES), derandomized, no example database. Exploring
    (PARACORE_EXPLORE_EXAMPLES set): that many, random, the database kept between rounds."""
    exploring = os.environ.get("PARACORE_EXPLORE_EXAMPLES")
    common = dict(deadline=None, print_blob=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                         HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture])
    if exploring:
        return hypothesis_settings(max_examples=int(exploring), derandomize=False, **common)
    return hypothesis_settings(max_examples=examples or CI_EXAMPLES, derandomize=True, database=None, **common)


# -- running one call ---------------------------------------------------------------------------------------


@dataclass
class Outcome:
    name: str
    arguments: dict
    is_error: bool = False
    content: str = ""
    problems: list[str] = field(default_factory=list)


class _Unexpected:
    """Records the exceptions that reach a result without being a ToolError (the executor, and the
    transaction runner it shares with the preview, word a failure through ``describe_error``)."""

    def __init__(self) -> None:
        self.seen: list[BaseException] = []
        self._originals = (executor.describe_error, transactions.describe_error)

    def __enter__(self):
        original = self._originals[0]

        def describe(exc):
            if not isinstance(exc, ToolError):
                self.seen.append(exc)
            return original(exc)
        executor.describe_error = transactions.describe_error = describe
        return self

    def __exit__(self, *exc):
        executor.describe_error, transactions.describe_error = self._originals
        return False


class _LoggedFailures(logging.Handler):
    """Warnings and errors Paracore logged with an exception while the call ran (a preview or a
    description that failed on its own code)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        failed = record.exc_info and record.exc_info[1] is not None and not isinstance(record.exc_info[1], ToolError)
        if failed or _programming_error(record.getMessage()):
            self.records.append(record)


_PROGRAMMING_ERRORS = ("TypeError", "AttributeError", "KeyError", "IndexError", "NameError", "ZeroDivisionError",
                       "UnboundLocalError", "AssertionError", "RecursionError")


def _programming_error(message: str) -> bool:
    return any(f"{name}:" in message for name in _PROGRAMMING_ERRORS)


class Explorer:
    """One sample building open in a sandbox, its vocabulary, and calls that leave it as it was."""

    def __init__(self, building: str) -> None:
        self.building = building
        self.box = open_sandbox(building)
        self.doc = self.box.doc
        self.agent = self.box.agent(ScriptedModel([]), policy=ApprovalPolicy())  # writes are previewed, then run
        self.start_view = self.on_main_thread(lambda: self.box.host.uiapp.ActiveUIDocument.ActiveView.Name)
        self.vocabulary = self.on_main_thread(read_vocabulary, self.doc)
        self._add_documentation()
        self.vocabulary = self.on_main_thread(read_vocabulary, self.doc)
        self.undo_depth = self.on_main_thread(lambda: len(self.doc._journal.undo_history))

    def on_main_thread(self, fn, *args):
        return self.box.on_main_thread(fn, *args)

    def _add_documentation(self) -> None:
        """A schedule and a sheet with a view on it, as a project in progress has, so that the
        schedule and sheet tools have something to work on (the samples have neither). They are
        part of the model every example starts from."""
        category = "Doors" if "Doors" in self.vocabulary.ids_by_category else "Walls"
        setup = [("create_schedule", {"category": category, "name": "Exploration Schedule",
                                      "fields": ["Mark", "Level", "Comments"]}),
                 ("create_sheet", {"number": "X101", "name": "Exploration Sheet"}),
                 ("place_views_on_sheet", {"sheet": "X101", "views": [self.vocabulary.views[0]]})]
        for name, arguments in setup:
            outcome = self.call(name, arguments, restore=False)
            assert not outcome.is_error and not outcome.problems, (name, outcome.content, outcome.problems)

    @property
    def session(self):
        return self.box.session

    def call(self, name: str, arguments: dict, working_set=(), view: str | None = None,
             restore: bool = True) -> Outcome:
        """Run one call as the agent does; the outcome with its problems; then put the model back."""
        tally(f"tool calls: {self.building}")
        self.on_main_thread(self._prepare, list(working_set), view or self.start_view)
        outcome = Outcome(name, arguments)
        handler = _LoggedFailures()
        logging.getLogger("paracore").addHandler(handler)
        try:
            with _Unexpected() as unexpected:
                events = list(self.agent.run_calls([ToolCallPart(id="x1", name=name, arguments=arguments)]))
        except Exception as error:  # noqa: BLE001 - run_calls must never raise: a problem
            outcome.problems.append(f"run_calls raised {type(error).__name__}: {error}")
            events, unexpected = [], None
        finally:
            logging.getLogger("paracore").removeHandler(handler)
        finished = [e for e in events if isinstance(e, ev.ToolCallFinished)]
        if len(finished) != 1:
            outcome.problems.append(f"{len(finished)} results for one call")
        if finished:
            outcome.is_error, outcome.content = finished[0].is_error, finished[0].content
        outcome.problems += _content_problems(outcome.content)
        for exc in (unexpected.seen if unexpected else []):
            outcome.problems.append(f"an exception reached the result: {type(exc).__name__}: {str(exc)[:200]}")
        for record in handler.records:
            outcome.problems.append(f"logged: {record.getMessage()[:200]}")
        dead = self.on_main_thread(self._dead_working_set_ids)
        if dead:
            outcome.problems.append(f"the working set holds ids that are not live elements: {dead[:5]}")
        if restore:
            self.restore()
        return outcome

    def restore(self) -> None:
        self.on_main_thread(self._restore)

    # -- on the main thread --------------------------------------------------------------------------------
    def _prepare(self, working_set: list[int], view_name: str) -> None:
        uidoc = self.box.host.uiapp.ActiveUIDocument
        view = self.vocabulary.view_objects.get(view_name)
        if view is not None and uidoc.ActiveView.Id != view.Id:
            uidoc.ActiveView = view
        hosts = [i for i in working_set if isinstance(i, int)]
        live = [i for i in hosts if self.doc.GetElement(DB.ElementId(i)) is not None]
        wanted = [parse_linked(i) for i in working_set if isinstance(i, str)]
        linked = [found.linked for found in links.resolve_all(self.doc, [w for w in wanted if w])[0]]
        self.session.working_set.replace(live, source="exploration", linked=linked)

    def _restore(self) -> None:
        journal = self.doc._journal
        while len(journal.undo_history) > self.undo_depth:
            journal.undo()
        uidoc = self.box.host.uiapp.ActiveUIDocument
        for view in self.vocabulary.view_objects.values():
            if self.doc.GetElement(view.Id) is not None and view.IsTemporaryHideIsolateActive():
                view.DisableTemporaryViewMode(DB.TemporaryViewMode.TemporaryHideIsolate)
        uidoc.Selection.SetElementIds(_empty_ids())
        self.session.working_set.replace([], source="exploration")

    def _dead_working_set_ids(self) -> list:
        dead = [i for i in self.session.working_set.ids if self.doc.GetElement(DB.ElementId(i)) is None]
        return dead + [str(e) for e in self.session.working_set.linked
                       if not isinstance(self.doc.GetElement(DB.ElementId(e.link_id)), DB.RevitLinkInstance)]


def _empty_ids():
    from paracore.revit.dotnet import element_id_list
    return element_id_list([])


def _content_problems(content: str) -> list[str]:
    problems = []
    if _TRACEBACK.search(content):
        problems.append("a traceback reached the result")
    if len(content) > RESULT_BOUND:
        problems.append(f"the result is {len(content):,} characters, over the bound")
    elif _BACKSTOP_CUT in content:
        problems.append("the executor had to cut the result: the tool did not bound it")
    return problems


_explorers: dict[str, Explorer] = {}


def explorer(building: str) -> Explorer:
    """The building's explorer, kept open while the tests go on with it (opening a sample costs up
    to seconds; conftest.py orders the tests by building). One at a time: the stand-in has one
    main thread, the latest host's."""
    if building not in _explorers:
        close_all()
        _explorers[building] = Explorer(building)
    return _explorers[building]


def close_all() -> None:
    for box in _explorers.values():
        box.box.close()
    _explorers.clear()


# -- what the model holds -----------------------------------------------------------------------------------


@dataclass
class Vocabulary:
    """Names and ids found in one model, for arguments that mean something there."""

    ids_by_category: dict[str, list[int]]
    type_ids: list[int]
    view_ids: list[int]
    levels: list[str]
    views: list[str]                 # graphic views
    schedules: list[str]
    sheets: list[str]                # numbers and names
    templates: list[str]
    categories: list[str]
    types_by_category: dict[str, list[str]]
    parameters: list[str]
    schedule_fields: list[str]
    scripts: list[str]
    view_objects: dict = field(default_factory=dict)   # name -> View (the stand-in's objects)
    links: list[str] = field(default_factory=list)      # the loaded links' names, as the tools take them
    linked_ids: list[str] = field(default_factory=list)  # elements inside them, LINK:ID
    extent: tuple[float, float, float, float] = (-50.0, -50.0, 50.0, 50.0)   # x0, y0, x1, y1 in feet
    rooms: list[str] = field(default_factory=list)       # rooms' numbers and names (search_elements' room)

    @property
    def all_ids(self) -> list[int]:
        return sorted({i for ids in self.ids_by_category.values() for i in ids})


def read_vocabulary(doc) -> Vocabulary:
    elements = list(DB.FilteredElementCollector(doc).WhereElementIsNotElementType())
    ids_by_category: dict[str, list[int]] = {}
    for element in elements:
        if element.Category is not None and not isinstance(element, DB.View):
            ids_by_category.setdefault(element.Category.Name, []).append(element.Id.Value)
    views = [v for v in DB.FilteredElementCollector(doc).OfClass(DB.View)]
    graphic = [v for v in views if not v.IsTemplate and not isinstance(v, DB.TableView)
               and v.ViewType != DB.ViewType.DrawingSheet]
    types = list(DB.FilteredElementCollector(doc).WhereElementIsElementType())
    types_by_category: dict[str, list[str]] = {}
    for element_type in types:
        if element_type.Category is not None:
            types_by_category.setdefault(element_type.Category.Name, []).append(element_type.Name)
    return Vocabulary(
        ids_by_category=ids_by_category,
        type_ids=[t.Id.Value for t in types][:50],
        view_ids=[v.Id.Value for v in views],
        levels=[lv.Name for lv in DB.FilteredElementCollector(doc).OfClass(DB.Level)],
        views=[v.Name for v in graphic],
        schedules=[v.Name for v in views if isinstance(v, DB.ViewSchedule)],
        sheets=[text for v in views if isinstance(v, DB.ViewSheet) for text in (v.SheetNumber, v.Name)],
        templates=[v.Name for v in views if v.IsTemplate],
        categories=sorted(ids_by_category),
        types_by_category=types_by_category,
        parameters=_parameter_names(elements[:400]),
        schedule_fields=_schedule_fields(views),
        scripts=_script_names(),
        view_objects={v.Name: v for v in views if not v.IsTemplate},
        extent=_extent(elements),
        rooms=_room_words(doc),
        **_links_of(doc))


def _room_words(doc) -> list[str]:
    """The rooms' numbers and names, as search_elements' room condition takes them."""
    rooms = DB.FilteredElementCollector(doc).OfCategory(DB.BuiltInCategory.OST_Rooms).WhereElementIsNotElementType()
    words = []
    for room in rooms:
        name = room.get_Parameter(DB.BuiltInParameter.ROOM_NAME)
        words += [text for text in (room.Number, name.AsString() if name is not None else None) if text]
    return sorted(set(words))


def _links_of(doc) -> dict:
    """The names a link answers to and a few elements inside each, for ``link`` and ``linked_ids``."""
    from paracore.revit import links
    names, linked = [], []
    for link in links.links(doc):
        file_name = link.label.split(" : ")[0]
        names += [link.label, file_name, file_name.removesuffix(".rvt")]
        if link.document is not None:
            inside = DB.FilteredElementCollector(link.document).WhereElementIsNotElementType()
            linked += [f"{link.id}:{e.Id.Value}" for e in list(inside)[:40] if e.Category is not None]
    return {"links": names, "linked_ids": linked}


def _parameter_names(elements) -> list[str]:
    """Every parameter name seen, the common ones (on a tenth of the elements or more) first."""
    seen: dict[str, int] = {}
    for element in elements:
        for parameter in element.Parameters:
            seen[parameter.Definition.Name] = seen.get(parameter.Definition.Name, 0) + 1
    return sorted(seen, key=lambda name: (seen[name] * 10 < len(elements), name))


def _schedule_fields(views) -> list[str]:
    names: set[str] = set()
    for schedule in (v for v in views if isinstance(v, DB.ViewSchedule)):
        definition = schedule.Definition
        for index in range(definition.GetFieldCount()):
            names.add(definition.GetField(index).GetName())
    return sorted(names)


def _script_names() -> list[str]:
    from paracore.scripts.library import default_library
    try:
        return sorted(script.name for script in default_library().scripts)
    except Exception:  # noqa: BLE001 - a library the sandbox cannot read: no script names, still explored
        return []


def _extent(elements) -> tuple[float, float, float, float]:
    xs, ys = [], []
    for element in elements:
        location = element.Location
        point = getattr(location, "Point", None)
        if point is not None:
            xs.append(point.X)
            ys.append(point.Y)
    if not xs:
        return (-50.0, -50.0, 50.0, 50.0)
    return (min(xs), min(ys), max(xs), max(ys))


# -- arguments from the schema --------------------------------------------------------------------------------

JUNK_IDS = (0, -1, 1, 7, 999_999_999, 2**31, 2**53)
TEMP = Path(tempfile.mkdtemp(prefix="paracore-exploration-"))
# Exported files go to the exploration's own folder, never the user's Documents (relative paths land there).
export_files.documents_folder = lambda: TEMP / "Documents"
UNITS = ("m", "mm", "cm", "ft", "in", "'", "\"", "metres", "yd", "")
SNIPPETS = ("print('hello')", "result = 1 + 1", "x = [e for e in range(3)]\nprint(x)", "raise ValueError('boom')",
            "import math\nprint(math.pi)", "doc.Title", "1/0", "while False: pass", "def f(:\n  pass", "")
POINT_NAMES = {"start", "end", "center", "position", "offset", "at"}
ID_LIST_NAMES = {"element_ids", "room_ids", "wall_ids"}


def arguments(name: str, vocabulary: Vocabulary):
    """A strategy for the arguments of tool ``name``: its schema, filled from ``vocabulary``.

    Three examples in four are plausible (names and ids of this model, well-formed points and
    lengths), so the calls get past validation into the tool and Revit; the fourth is wild (any
    text, numbers at the edges, wrong lengths of lists), for the refusals."""
    schema = default_registry().get(name).parameters
    plausible, wild = _object(schema, vocabulary, name, False), _object(schema, vocabulary, name, True)
    return st.sampled_from((False, False, False, True)).flatmap(lambda w: wild if w else plausible)


def _object(schema: dict, vocabulary: Vocabulary, tool: str, wild: bool):
    properties = schema.get("properties", {})
    drawn = {}
    for key, sub in properties.items():
        value = _property(key, sub, vocabulary, tool, wild)
        if _is_optional(sub):
            value = st.sampled_from((_OMIT, None, 1, 1)).flatmap(
                lambda pick, value=value: value if pick == 1 else st.just(pick))
        drawn[key] = value
    return st.fixed_dictionaries(drawn).map(lambda d: {k: v for k, v in d.items() if v is not _OMIT})


_OMIT = object()


def _is_optional(schema: dict) -> bool:
    return any(branch.get("type") == "null" for branch in schema.get("anyOf", []))


def _without_null(schema: dict) -> dict:
    branches = [b for b in schema.get("anyOf", []) if b.get("type") != "null"]
    if "anyOf" in schema and len(branches) == 1:
        return {**branches[0], "description": schema.get("description", "")}
    if "anyOf" in schema:
        return {**schema, "anyOf": branches}
    return schema


def _property(key: str, schema: dict, vocabulary: Vocabulary, tool: str, wild: bool):
    schema = _without_null(schema)
    known = _from_vocabulary(key, schema, vocabulary, tool, wild)
    if known is None:
        return _from_schema(schema, vocabulary, tool, wild)
    return st.one_of(known, _from_schema(schema, vocabulary, tool, wild)) if wild else known


def _from_vocabulary(key: str, schema: dict, v: Vocabulary, tool: str, wild: bool = False):
    """Values that mean something in this model, for the argument names the tools use."""
    some = _sample_or_text if wild else _sample
    if key in ID_LIST_NAMES:
        return _id_lists(v, key)
    if key == "wall_id":
        return st.one_of(st.sampled_from(v.ids_by_category.get("Walls") or [0]), _an_id(v))
    if key == "level":
        return some(v.levels)
    if key == "room":
        return some(v.rooms or ["A101", "Kitchen"])
    if key in ("view", "sheet"):
        names = v.views + v.schedules if key == "view" else v.sheets
        return st.one_of(some(names), st.sampled_from(v.view_ids).map(str))
    if key == "views":
        return st.lists(st.one_of(some(v.views), st.sampled_from(v.view_ids)), max_size=6)
    if key in ("schedule", "a", "b"):
        return some(v.schedules)
    if key == "template":
        return some(v.templates)
    if key == "category":
        return st.one_of(some(v.categories), st.sampled_from(
            ["Wall", "doors", "OST_Walls", "Rooms", "Structural Columns", "Views", "Sheets", "Curtain Walls"]))
    if key in ("type_name", "wall_type", "door_type", "window_type", "floor_type", "tag_type", "title_block"):
        category = {"wall_type": "Walls", "door_type": "Doors", "window_type": "Windows", "floor_type": "Floors",
                    "title_block": "Title Blocks"}.get(key)
        names = v.types_by_category.get(category, []) if category else \
            [n for names in v.types_by_category.values() for n in names]
        return some(names or ["Generic - 200mm"])
    if key in ("parameter", "field") or (key == "name" and tool in ("set_parameter",)):
        return st.one_of(some(v.parameters[:12]), some(v.parameters[:12]), some(v.parameters + v.schedule_fields))
    if key in ("names", "fields"):
        return st.lists(st.one_of(some(v.parameters[:12]), some(v.parameters + v.schedule_fields)), max_size=5)
    if key == "quantity":
        return st.one_of(some(["Count", "Volume", "Area", "Length", "Perimeter"]), some(v.parameters[:12]))
    if key == "group_by":
        return st.one_of(some(["type", "level", "room", "category", "element"]), some(v.parameters[:12]))
    if key == "script":
        return some(v.scripts or ["No such script"])
    if key == "path":
        return st.sampled_from(["out.csv", "sub/dir/out.txt", "out", "ü ñ.csv", "x" * 200 + ".csv", "x" * 300,
                                "sub/" + "y" * 300 + "/out.csv", ""]).map(lambda name: str(TEMP / name) if name else "")
    if key == "code":
        return st.sampled_from(SNIPPETS)
    if key == "link" and v.links:
        return some(v.links + ["all"])
    if key == "linked_ids" and v.linked_ids:
        return st.lists(st.one_of(st.sampled_from(v.linked_ids), st.sampled_from(v.linked_ids),
                                  st.sampled_from(["9999:1", "1:2:3", "door", "-4:5"])), max_size=6)
    if key == "offset" and schema.get("type") == "integer":   # a listing's page: the first, a later one, past the end
        return st.one_of(st.just(0), st.sampled_from([1, 5, 8, 10, 15, 20, 40]), st.integers(0, 10**6))
    if key in POINT_NAMES and schema.get("type") == "array":
        return _point(v, wild=wild)
    if key == "boundary":
        return st.lists(_point(v, size=2, wild=wild), min_size=0 if wild else 3, max_size=6)
    if key == "function" and tool in ("search_elements", "filter_working_set"):   # a layer condition's
        return some(["Thermal/Air Layer", "Structure", "Substrate", "Finish 1", "Finish 2", "Membrane Layer",
                     "insulation"])
    if key == "material_contains":
        return some(["insulation", "membrane", "concrete", "plasterboard", "Brick"])
    if key == "thickness":
        return st.one_of(_length_text(plausible=True), st.floats(0, 1, allow_nan=False))
    if key == "value":
        return st.one_of(some(v.levels + ["Yes", "No", "Concrete", "1 m", "2400 mm", "3'", "-1 m", "0", "1e9 m"]),
                         st.integers(-5, 100), st.floats(-1e4, 1e4, allow_nan=False), st.booleans())
    return None


def _sample(names):
    return st.sampled_from(list(names)) if names else st.sampled_from(["Level 1", "Walls"])


def _sample_or_text(names):
    """Mostly a real name; sometimes a near miss or any text (the tools must refuse it in words)."""
    real = st.sampled_from(list(names)) if names else st.text(max_size=20)
    near = real.map(lambda n: n.upper()) | real.map(lambda n: n[:-1]) | real.map(lambda n: f" {n} ")
    return st.one_of(real, real, real, near, st.text(max_size=30))


def _id_lists(v: Vocabulary, key: str):
    pools = [ids for ids in v.ids_by_category.values() if ids]
    preferred = {"room_ids": "Rooms", "wall_ids": "Walls"}.get(key)
    if preferred and v.ids_by_category.get(preferred):
        pools = [v.ids_by_category[preferred]] * 3 + pools
    pool = st.sampled_from(pools)
    of_one_category = pool.flatmap(lambda ids: st.lists(st.sampled_from(ids), min_size=1, max_size=8))
    mixed = st.lists(_an_id(v), max_size=8)
    everything = pool.map(list)
    return st.one_of(of_one_category, of_one_category, mixed, everything, st.just([]))


def _an_id(v: Vocabulary):
    return st.one_of(st.sampled_from(v.all_ids), st.sampled_from(v.all_ids), st.sampled_from(v.type_ids or [0]),
                     st.sampled_from(v.view_ids), st.sampled_from(JUNK_IDS))


def _point(v: Vocabulary, size: int | None = None, wild: bool = False):
    x0, y0, x1, y1 = v.extent
    if not wild:
        coordinate = st.one_of(st.floats(min(x0, y0) - 20, max(x1, y1) + 20, allow_nan=False).map(lambda f: round(f, 2)),
                               _length_text(plausible=True))
        return st.lists(coordinate, min_size=size or 2, max_size=size or 2)
    coordinate = st.one_of(st.floats(min(x0, y0) - 30, max(x1, y1) + 30, allow_nan=False),
                           st.integers(-10, 10), _length_text(), st.sampled_from([1e7, -1e7, 0.0]))
    if size is None:
        return st.lists(coordinate, min_size=2, max_size=3) | st.lists(coordinate, max_size=4)
    return st.lists(coordinate, min_size=size, max_size=size)


def _length_text(plausible: bool = False):
    if plausible:
        return st.tuples(st.integers(-30, 30), st.sampled_from(("m", "ft", "mm"))).map(
            lambda t: f"{t[0] * (1000 if t[1] == 'mm' else 1)} {t[1]}")
    number = st.one_of(st.integers(-100, 100), st.floats(-1e3, 1e3, allow_nan=False).map(lambda f: round(f, 3)))
    return st.tuples(number, st.sampled_from(UNITS)).map(lambda t: f"{t[0]} {t[1]}".strip())


def _from_schema(schema: dict, v: Vocabulary, tool: str, wild: bool):
    """A value the schema allows: a modest one, or (wild) anything up to the edges."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of([_from_schema(branch, v, tool, wild) for branch in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "object":
        return _object(schema, v, tool, wild)
    if kind == "array":
        items = schema.get("items", {})
        inner = _property("item", items, v, tool, wild) if items else st.none()
        return st.lists(inner, max_size=6 if wild else 3)
    if kind == "integer":
        return st.one_of(st.integers(-3, 30), st.sampled_from([0, 1, 2**31, -2**31, 10**9])) if wild \
            else st.integers(1, 12)
    if kind == "number":
        if not wild:
            return st.floats(0.5, 20, allow_nan=False).map(lambda f: round(f, 2))
        return st.one_of(st.floats(-100, 100, allow_nan=False), st.integers(-5, 50),
                         st.sampled_from([0.0, 1e-9, 1e9, -1e9]))
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        if not wild:
            return st.one_of(_length_text(plausible=True), st.sampled_from(["A", "Paracore", "Level 1", "101"]))
        return st.one_of(st.text(max_size=30), _length_text(), st.sampled_from(["", " ", "Level 1", "Walls", "x" * 300]))
    return st.none()


# -- failing examples kept -------------------------------------------------------------------------------------


TALLY: dict[str, int] = {}   # what was tried: "calls: duplex", "state machine steps", "IFC cuts", ...


def tally(what: str, count: int = 1) -> None:
    TALLY[what] = TALLY.get(what, 0) + count


def past_deadline() -> bool:
    """While exploring (tasks.py explore), whether the run's time is up: the tests not yet begun
    are skipped, so the last round ends on time with its findings written."""
    deadline = os.environ.get("PARACORE_EXPLORE_DEADLINE")
    return bool(deadline) and time.time() > float(deadline)


def record_failure(case: dict) -> None:
    """While exploring, write the failing example (the last one written per tool and building is
    the shrunk one: hypothesis replays it last)."""
    path = os.environ.get("PARACORE_EXPLORE_FOUND")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(case, ensure_ascii=False, default=str) + "\n")


def regressions() -> list[dict]:
    return json.loads(REGRESSIONS.read_text(encoding="utf-8")) if REGRESSIONS.exists() else []
