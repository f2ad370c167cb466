"""check_model: the checks a BIM manager runs before issuing a model, in one read-only call.

Each check returns findings: what is wrong, how many elements, a short sample of them (id and
name) and one line on how to fix it. Findings are bounded whatever the size of the model, and the
elements of one check's findings can go into the working set (``to_working_set``), so "fix
these" is the user's next sentence: set_parameter, renumbering or deleting then act on them.

Which parameters must be filled and which names are right are project rules, read from the
settings (``qa_required_parameters``, ``qa_view_name_pattern``, ``qa_sheet_number_pattern``), or from
a firm standard's front matter (``standard``: its required parameters and naming patterns, each
finding naming the standard it comes from; docs/STANDARDS.md).

Revit is imported inside the tool bodies only, so this module imports without Revit.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from paracore.core import standards as firm_standards
from paracore.core.display import display_text
from paracore.core.settings import Settings, load_settings
from paracore.core.units import format_angle, format_length
from paracore.core.working_set import singular
from paracore.tools.elements.element_query import parameter_names, shorten
from paracore.tools.framework.lookup import category_name, category_of, close_matches, resolve_category
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Page, ToolError, ToolOutput, check_offset, offset_field, working_set_output
from paracore.tools.worksharing.worksharing_tools import GRIDS_WORKSET, is_datum, is_model_element, user_worksets

CHECKS = ("warnings", "empty_parameters", "duplicate_marks", "naming", "unplaced_rooms", "unplaced_views", "links",
          "coordinates", "worksharing")
CheckName = Literal["warnings", "empty_parameters", "duplicate_marks", "naming", "unplaced_rooms",
                    "unplaced_views", "links", "coordinates", "worksharing"]
FoundBy = Literal["warnings", "empty_parameters", "duplicate_marks", "naming", "unplaced_rooms",
                  "unplaced_views", "links", "coordinates", "worksharing", "standard"]
STANDARD = "standard"     # the check of a firm standard's rules (the ``standard`` argument)
ALL_STANDARDS = "all"
SAMPLE = 4             # elements named per finding
BUDGET = 1800          # characters of the whole result (the bounded-result rule is 2,000)
MORE_LINE = 100        # characters kept per check for its "… and N more findings" line
# A link placed this close to origin-to-origin or to the shared coordinates' placement is placed so.
PLACED_DISTANCE = 0.01   # ft (3 mm)
PLACED_ANGLE = 1e-4      # radians (0.006°)
# View types that are not views a user places or names: browsers and Revit's internal views.
_NOT_USER_VIEWS = ("ProjectBrowser", "SystemBrowser", "Internal", "Undefined")
# Views that go on sheets by other means (schedule instances) or not at all: not "unplaced".
_NOT_PLACED_ON_SHEETS = _NOT_USER_VIEWS + ("Schedule", "PanelSchedule", "ColumnSchedule", "Report",
                                           "CostReport", "LoadsReport")


class CheckModelArgs(BaseModel):
    checks: list[CheckName] | None = Field(
        None, max_length=len(CHECKS),
        description="Which checks to run; leave null for all. warnings: Revit's warnings by kind; "
                    "empty_parameters: required parameters left empty (the project's settings); "
                    "duplicate_marks: elements of one category sharing a Mark; naming: view names and "
                    "sheet numbers against the project's patterns; unplaced_rooms; unplaced_views: views "
                    "on no sheet; links: Revit links, whether they are loaded and how each is placed "
                    "(origin to origin, by shared coordinates, or neither); coordinates: whether the "
                    "project has shared coordinates; worksharing (workshared models only): levels and grids off "
                    "their workset, elements on closed worksets, elements you still borrow, elements out of date "
                    "with central.")
    standard: str | None = Field(
        None, max_length=40, description="Also check a firm standard's rules (required parameters, naming "
                                         "patterns; 'all': every standard's); its findings name it. With no "
                                         "checks, only the standard's rules run.")
    to_working_set: FoundBy | None = Field(
        None, description="Replace the working set with ALL the elements this check found (e.g. "
                          "'empty_parameters', or 'standard'), so the next tool fixes them. Leave null to only look.")
    offset: int = offset_field()


@dataclass
class Finding:
    what: str                       # "Door with an empty Mark"
    ids: list[int]
    names: list[str]                # labels of the first elements, same order as ids
    fix: str
    count: int = 0                  # when the finding is not about elements (a link type), else len(ids)
    name_limit: int = 40            # characters of each name shown (a link's label carries its placement)

    @property
    def total(self) -> int:
        return self.count or len(self.ids)


@dataclass
class CheckResult:
    check: str
    findings: list[Finding] = field(default_factory=list)
    ok: str = "nothing found"       # said when there are no findings
    note: str = ""                  # a remark either way (a setting that names no category)

    @property
    def ids(self) -> list[int]:
        return list(dict.fromkeys(i for finding in self.findings for i in finding.ids))


# --- the tool -------------------------------------------------------------------------------------


@tool(working_set_policy="none")
def check_model(ctx, args: CheckModelArgs):
    """Check the model before issue: Revit's warnings by kind, required parameters left empty, duplicate
    Marks, view names and sheet numbers against the project's patterns, unplaced rooms, views on no
    sheet, links (loaded, placed where they belong), shared coordinates and, in a workshared model,
    worksets and borrowed or out-of-date elements (asked for by name elsewhere, it says it was skipped). Each finding has a count, a few element ids and
    how to fix it.

    With standard (a firm standard's name, or 'all') its required parameters and naming patterns are checked too,
    each finding naming the standard it comes from.

    With to_working_set (a check's name) all the elements that check found become the working set,
    so the next call (e.g. set_parameter) fixes them. Reads only; changes nothing in the model.
    """
    # All checks: worksharing's only in a workshared model (asked for by name elsewhere, it says it was skipped).
    everything = CHECKS if ctx.doc.IsWorkshared else tuple(c for c in CHECKS if c != "worksharing")
    chosen_standards = _standards(args.standard, args.to_working_set)
    checks = list(dict.fromkeys(args.checks or ([] if chosen_standards else everything)))
    if args.to_working_set and args.to_working_set != STANDARD and args.to_working_set not in checks:
        checks.append(args.to_working_set)  # asking for its elements means running it
    rules = _rules()
    results = [_RUNNERS[name](ctx, rules) for name in checks]
    if chosen_standards:
        results.append(_standard(ctx, chosen_standards))
    if args.offset and len(results) != 1:
        raise ToolError("offset pages one check's findings: give checks with that one check (e.g. "
                        "['warnings']), or standard alone.")
    text = _report(ctx, results, args.offset)
    if not args.to_working_set:
        return text
    chosen = next(r for r in results if r.check == args.to_working_set)
    if not chosen.ids:
        return text + f"\nThe {chosen.check} check found no elements, so the working set was not changed."
    sentence = (f"The working set is now the {len(chosen.ids):,} element{'s' if len(chosen.ids) != 1 else ''} "
                f"the {chosen.check} check found.")
    return ToolOutput(content=text + "\n" + sentence, working_set=working_set_output(chosen.ids, "replace", sentence))


def _standards(name: str | None, to_working_set: str | None) -> list:
    """The standards whose rules to check: the one named, every one with rules for 'all', none."""
    if not name or not name.strip():
        if to_working_set == STANDARD:
            raise ToolError("to_working_set 'standard' needs standard: the name of the standard whose rules to "
                            "check (use_standard lists them).")
        return []
    loaded = firm_standards.current()
    if name.strip().lower() == ALL_STANDARDS:
        return [standard for standard in loaded.standards if standard.has_rules]
    standard = loaded.find(name)
    if standard is None:
        raise ToolError(f"There is no standard {display_text(name.strip())!r}; the standards are: "
                        f"{', '.join(loaded.names()) or 'none'} (or 'all').")
    return [standard]


def _rules():
    """The project's QA settings; the defaults when the settings cannot be read (a check must run)."""
    try:
        return load_settings()
    except Exception:  # noqa: BLE001 - settings must never take a read-only check down
        return Settings()


# --- the report -----------------------------------------------------------------------------------


def _report(ctx, results: list[CheckResult], offset: int = 0) -> str:
    """One line per check, then as many findings under each as fit the budget, shared out a
    finding at a time so that one noisy check (300 kinds of warnings) cannot hide the others.
    One check alone pages its findings from ``offset``."""
    found = [r for r in results if r.findings]
    alone = len(results) == 1
    if alone:
        check_offset(offset, len(results[0].findings), "findings")
    head = (f"Checked '{display_text(ctx.doc.Title)}': {len(found)} of {len(results)} "
            f"check{'s' if len(results) != 1 else ''} found something.")
    ordered = found + [r for r in results if not r.findings]  # problems first
    details = {r.check: [_finding_line(f) for f in _by_size(r)[offset:]] for r in found}
    shown = dict.fromkeys(details, 0)
    # Room for each check's own line, and for a '… and N more' line under each that found something.
    used = len(head) + sum(len(_check_line(r)) + 1 for r in ordered) + MORE_LINE * len(found)
    for rank in range(max((len(lines) for lines in details.values()), default=0)):
        for check, lines in details.items():
            if shown[check] == rank and rank < len(lines) and used + len(lines[rank]) + 1 <= BUDGET:
                shown[check] += 1
                used += len(lines[rank]) + 1
    text = [head]
    for result in ordered:
        lines = details.get(result.check, [])
        rows = lines[:shown.get(result.check, 0)]
        page = Page(rows, offset, len(result.findings)) if alone else None
        text.append(_check_line(result) + (page.position() if page and result.findings else ""))
        text += rows
        rest = _by_size(result)[offset + len(rows):]
        if rest and page is not None:
            text.append(page.next_hint("findings"))
        elif rest:
            text.append(f"- … and {len(rest)} more finding{'s' if len(rest) != 1 else ''} "
                        f"({sum(f.total for f in rest):,} in all): check_model with this check alone lists more.")
    return "\n".join(text)


def _by_size(result: CheckResult) -> list[Finding]:
    return sorted(result.findings, key=lambda f: -f.total)


def _check_line(result: CheckResult) -> str:
    note = f" ({result.note})" if result.note else ""
    if not result.findings:
        return f"{result.check}: {result.ok}{note}."
    total = sum(f.total for f in result.findings)
    count = len(result.findings)
    return f"{result.check}: {total:,} in {count} finding{'s' if count != 1 else ''}{note}."


def _finding_line(finding: Finding) -> str:
    return f"- {finding.total:,} × {finding.what}{_sample(finding)} Fix: {finding.fix}"


def _sample(finding: Finding) -> str:
    if not finding.ids:
        return "."
    shown = ", ".join(f"{i} '{shorten(name, finding.name_limit)}'"
                      for i, name in zip(finding.ids[:SAMPLE], finding.names))
    more = f", … and {len(finding.ids) - SAMPLE:,} more" if len(finding.ids) > SAMPLE else ""
    return f": {shown}{more}."


def _finding(ctx, what: str, elements, fix: str) -> Finding:
    return Finding(what=what, ids=[ctx.id_value(e.Id) for e in elements],
                   names=[_label(e) for e in elements[:SAMPLE]], fix=fix)


def _label(element) -> str:
    try:
        return display_text(element.Name)
    except Exception:  # noqa: BLE001 - an element without a readable name still gets a line
        return ""


def _elements(ctx, bic) -> list:
    from Autodesk.Revit import DB
    return list(DB.FilteredElementCollector(ctx.doc).OfCategory(bic).WhereElementIsNotElementType())


# --- the checks -----------------------------------------------------------------------------------


def _warnings(ctx, rules) -> CheckResult:
    groups: dict[str, list] = defaultdict(list)
    for warning in ctx.doc.GetWarnings():
        groups[" ".join(warning.GetDescriptionText().split())].append(warning)
    result = CheckResult("warnings", ok="no warnings")
    for text, warnings in groups.items():
        ids = list(dict.fromkeys(ctx.id_value(i) for w in warnings for i in w.GetFailingElements()))
        names = [_label(ctx.doc.GetElement(ctx.element_id(i))) for i in ids[:SAMPLE]]
        result.findings.append(Finding(what=f"warning '{shorten(display_text(text), 70)}'", ids=ids, names=names,
                                       fix="open Manage > Warnings; the elements are listed by id.",
                                       count=len(warnings)))
    return result


def _empty_parameters(ctx, rules) -> CheckResult:
    result = CheckResult("empty_parameters", ok="every required parameter is filled")
    unknown, misspelled = _empty_in(ctx, rules.qa_required_parameters, result, "", "empty_parameters")
    notes = [f"no category named {shorten(', '.join(map(repr, unknown)), 120)} in the setting "
             "qa_required_parameters"] if unknown else []
    result.note = "; ".join(notes + [shorten("; ".join(misspelled), NOTE_LIMIT)] if misspelled else notes)
    return result


def _empty_in(ctx, required: dict, result: CheckResult, source: str, check: str,
              standard: str = "") -> tuple[list[str], list[str]]:
    """Add a finding per category and parameter left empty: on the instance, or, for a type parameter,
    one per type naming its instances. Returns the categories no category resolves to, and a note for
    each parameter neither an element of the category nor its type has (a typo: the closest names)."""
    unknown, misspelled = [], []
    for category, names in required.items():
        try:
            bic = resolve_category(ctx, category)
        except ToolError:
            unknown.append(category)  # a typo in the settings must not hide the other categories
            continue
        label = category_name(ctx, bic) or category
        elements = _elements(ctx, bic)
        types = _types_of(ctx, elements)
        type_of = {id(element): type_id for type_id, (_, members) in types.items() for element in members}
        for name in names:
            empty, by_type, found = _empty_parameter(elements, types, type_of, name)
            if empty:
                result.findings.append(_finding(
                    ctx, f"{source}{singular(label)} with an empty {name}", empty,
                    f"check_model to_working_set '{check}', then set_parameter {name}."))
            for type_id, instances in by_type.items():
                result.findings.append(_type_finding(ctx, types[type_id][0], instances, name, label, source, check))
            if elements and not found:
                misspelled.append(_no_such_parameter(ctx, name, label, elements, standard))
    return unknown, misspelled


def _types_of(ctx, elements) -> dict[int, tuple]:
    """type id -> (the type, the elements of it): a type parameter is read once per type."""
    types: dict[int, tuple] = {}
    for element in elements:
        type_id = ctx.id_value(element.GetTypeId())
        if type_id < 0:
            continue
        if type_id not in types:
            types[type_id] = (ctx.doc.GetElement(element.GetTypeId()), [])
        types[type_id][1].append(element)
    return types


def _empty_parameter(elements, types: dict, type_of: dict, name: str):
    """(elements whose own ``name`` is empty, type id -> its elements for each type whose ``name`` is
    empty, whether any element or type has the parameter at all). Revit's Properties show an element's
    type parameters with its own: a name the element lacks is looked up on its type. ``type_of``:
    id(element) -> its type id."""
    empty, by_type, found = [], {}, False
    type_empty: dict[int, bool | None] = {}     # type id -> its parameter is empty (None: it has none)
    for element in elements:
        parameter = element.LookupParameter(name)
        if parameter is not None:
            found = True
            if _is_empty(parameter):
                empty.append(element)
            continue
        type_id = type_of.get(id(element))
        if type_id is None:
            continue
        if type_id not in type_empty:
            element_type = types[type_id][0]
            on_type = element_type.LookupParameter(name) if element_type is not None else None
            type_empty[type_id] = None if on_type is None else _is_empty(on_type)
        if type_empty[type_id] is not None:
            found = True
        if type_empty[type_id]:
            by_type.setdefault(type_id, []).append(element)
    return empty, by_type, found


def _type_finding(ctx, element_type, instances: list, name: str, label: str, source: str, check: str) -> Finding:
    """One type whose type parameter ``name`` is empty; its ids and sample are the instances it leaves empty."""
    type_name = shorten(_label(element_type), 40)
    return _finding(ctx, f"{source}{singular(label)} type '{type_name}' (id {ctx.id_value(element_type.Id)}) "
                         f"with an empty {name} (a type parameter), for these {label.lower()}", instances,
                    f"set_parameter {name} with include_type_parameters true on one of them sets their type "
                    f"(check_model to_working_set '{check}' gathers them).")


PARAMETER_SAMPLE = 200   # elements (and their types) whose parameter names a typo is compared with
NOTE_LIMIT = 300         # characters of the parameters no element has, in a check's line


def _no_such_parameter(ctx, name: str, label: str, elements: list, standard: str) -> str:
    known = parameter_names(ctx, elements[:PARAMETER_SAMPLE])
    close = close_matches(name, known, n=3, cutoff=0.6) or close_matches(name.casefold(), known, n=3, cutoff=0.6)
    where = "; ".join(part for part in (standard, f"closest: {', '.join(map(repr, close))}" if close else "") if part)
    return f"no parameter {display_text(name)!r} on {label} or their types" + (f" ({where})" if where else "")


def _is_empty(parameter) -> bool:
    """A parameter the element has but nobody filled; an element without it is not checked."""
    from Autodesk.Revit import DB
    if parameter is None:
        return False
    if parameter.StorageType == DB.StorageType.String:
        return not (parameter.AsString() or "").strip()
    return not parameter.HasValue


def _duplicate_marks(ctx, rules) -> CheckResult:
    from Autodesk.Revit import DB
    by_mark: dict[tuple[str, str], list] = defaultdict(list)
    for element in DB.FilteredElementCollector(ctx.doc).WhereElementIsNotElementType():
        parameter = element.get_Parameter(DB.BuiltInParameter.ALL_MODEL_MARK)
        mark = (parameter.AsString() or "").strip() if parameter is not None else ""
        if mark:
            by_mark[(category_of(element), mark)].append(element)
    result = CheckResult("duplicate_marks", ok="no two elements of a category share a Mark")
    for (category, mark), elements in by_mark.items():
        if len(elements) > 1:
            result.findings.append(_finding(
                ctx, f"{category} sharing Mark '{shorten(display_text(mark), 30)}'", elements,
                "give each its own Mark (set_parameter Mark on one at a time)."))
    return result


def _naming(ctx, rules) -> CheckResult:
    from Autodesk.Revit import DB
    result = CheckResult("naming", ok="every view name and sheet number matches the project's patterns")
    view_rule, sheet_rule = re.compile(rules.qa_view_name_pattern), re.compile(rules.qa_sheet_number_pattern)
    views, sheets = [], []
    for view in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View):
        if view.IsTemplate:
            continue
        if isinstance(view, DB.ViewSheet):
            if not sheet_rule.match(view.SheetNumber):
                sheets.append(view)
        elif view.ViewType.ToString() not in _NOT_USER_VIEWS and not view_rule.match(view.Name):
            views.append(view)
    if views:
        result.findings.append(_finding(ctx, f"view named against the pattern {rules.qa_view_name_pattern}", views,
                                        "rename them (Name), or change qa_view_name_pattern in Settings."))
    if sheets:
        found = _finding(ctx, f"sheet numbered against the pattern {rules.qa_sheet_number_pattern}", sheets,
                         "renumber them (Sheet Number), or change qa_sheet_number_pattern in Settings.")
        found.names = [f"{display_text(s.SheetNumber)} - {_label(s)}" for s in sheets[:SAMPLE]]
        result.findings.append(found)
    return result


def _unplaced_rooms(ctx, rules) -> CheckResult:
    from Autodesk.Revit import DB
    rooms = _elements(ctx, DB.BuiltInCategory.OST_Rooms)
    result = CheckResult("unplaced_rooms", ok="no rooms in the model" if not rooms else "every room is placed")
    # Revit's "Not Placed" room has no location and no area; a room placed where no walls bound it
    # ("Not Enclosed") has a location but area 0: both are listed in a room schedule with no area.
    unplaced = [r for r in rooms if r.Location is None or not (getattr(r, "Area", 0) or 0) > 0]
    if unplaced:
        result.findings.append(_finding(ctx, "room not placed or not enclosed (area 0)", unplaced,
                                        "place them in a bounded area, or delete them (delete_elements)."))
    return result


def _unplaced_views(ctx, rules) -> CheckResult:
    from Autodesk.Revit import DB
    placed, views = set(), []
    for view in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View):
        if isinstance(view, DB.ViewSheet):
            placed.update(ctx.id_value(i) for i in view.GetAllPlacedViews())
        elif not (view.IsTemplate or isinstance(view, DB.ViewSchedule)
                  or view.ViewType.ToString() in _NOT_PLACED_ON_SHEETS):
            views.append(view)
    result = CheckResult("unplaced_views", ok="every view is on a sheet" if views else "no views to place")
    unplaced = [v for v in views if ctx.id_value(v.Id) not in placed]
    if unplaced:
        result.findings.append(_finding(ctx, "view on no sheet", unplaced,
                                        "place them with place_views_on_sheet, or delete the ones not needed."))
    return result


def _links(ctx, rules) -> CheckResult:
    from Autodesk.Revit import DB
    instances = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.RevitLinkInstance))
    types = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.RevitLinkType))
    if not instances and not types:
        return CheckResult("links", ok="no links")
    result = CheckResult("links", ok=f"{len(types)} linked model{'s' if len(types) != 1 else ''}, all loaded")
    unloaded = [t for t in types if not DB.RevitLinkType.IsLoaded(ctx.doc, t.Id)]
    if unloaded:
        result.findings.append(_finding(ctx, "link not loaded", unloaded,
                                        "reload it in Manage > Manage Links (or remove it)."))
    unused = {ctx.id_value(t.Id) for t in types} - {ctx.id_value(i.GetTypeId()) for i in instances}
    if unused:
        result.findings.append(Finding(what="link type with no instance placed", ids=sorted(unused), names=[
            _label(ctx.doc.GetElement(ctx.element_id(i))) for i in sorted(unused)[:SAMPLE]],
            fix="place an instance or remove the link in Manage Links."))
    _check_placements(ctx, instances, result)
    return result


def _check_placements(ctx, instances, result: CheckResult) -> None:
    """Each instance is placed origin to origin (identity), by shared coordinates (its transform
    is the one the two models' shared coordinates give), or neither: misplaced. A link that is not
    loaded has no document to compare with, so only its offset from the origin can be told."""
    kinds: dict[str, list] = defaultdict(list)
    for instance in instances:
        kinds[_placement(ctx, instance)].append(instance)
    result.note = ", ".join(f"{len(found)} {kind}" for kind, found in kinds.items() if kind in _PLACED_WELL)
    problems = {"misplaced": ("link placed neither origin to origin nor by shared coordinates",
                              "delete it and place the link again 'Auto - By Shared Coordinates' (or move it back)."),
                "unknown": ("link not loaded and moved from the host's origin: its placement cannot be checked",
                            "reload it (Manage Links), then check_model links again.")}
    for kind, (what, fix) in problems.items():
        if kinds.get(kind):
            found = _finding(ctx, what, kinds[kind], fix)
            found.names = [f"{_label(i)}, {_offset_text(ctx, i.GetTotalTransform())}" for i in kinds[kind][:SAMPLE]]
            found.name_limit = 110
            result.findings.append(found)


_PLACED_WELL = ("origin to origin", "by shared coordinates")


def _placement(ctx, instance) -> str:
    from Autodesk.Revit import DB
    transform = instance.GetTotalTransform()
    origin, angle = transform.Origin, _angle(transform)
    if _same(origin, angle, (0.0, 0.0, 0.0), 0.0):
        return "origin to origin"
    linked = instance.GetLinkDocument() if DB.RevitLinkType.IsLoaded(ctx.doc, instance.GetTypeId()) else None
    if linked is None:
        return "unknown"
    expected_origin, expected_angle = _shared_placement(_position(ctx.doc), _position(linked))
    return "by shared coordinates" if _same(origin, angle, expected_origin, expected_angle) else "misplaced"


def _position(doc) -> tuple[float, float, float, float]:
    """East, north, elevation and angle of the document's internal origin in shared coordinates."""
    from Autodesk.Revit import DB
    position = doc.ActiveProjectLocation.GetProjectPosition(DB.XYZ.Zero)
    return position.EastWest, position.NorthSouth, position.Elevation, position.Angle


def _shared_placement(host, link) -> tuple[tuple[float, float, float], float]:
    """The link's transform into the host when both share coordinates: host^-1 * link, with
    shared = Rz(angle) * internal + (east, north, elevation) for each model."""
    dx, dy, dz = link[0] - host[0], link[1] - host[1], link[2] - host[2]
    cos, sin = math.cos(-host[3]), math.sin(-host[3])
    return (cos * dx - sin * dy, sin * dx + cos * dy, dz), link[3] - host[3]


def _same(origin, angle: float, expected_origin, expected_angle: float) -> bool:
    distance = math.dist((origin.X, origin.Y, origin.Z), expected_origin)
    turn = abs(math.remainder(angle - expected_angle, 2 * math.pi))
    return distance <= PLACED_DISTANCE and turn <= PLACED_ANGLE


def _angle(transform) -> float:
    return math.atan2(transform.BasisX.Y, transform.BasisX.X)


def _offset_text(ctx, transform) -> str:
    origin = transform.Origin
    moved = ", ".join(format_length(v, ctx.length_unit, digits=2) for v in (origin.X, origin.Y, origin.Z))
    return f"at ({moved}) rotated {format_angle(_angle(transform))}"


def _coordinates(ctx, rules) -> CheckResult:
    """Whether the project has shared coordinates: its internal origin's position in them."""
    from Autodesk.Revit import DB
    location = ctx.doc.ActiveProjectLocation
    east, north, elevation, angle = _position(ctx.doc)
    shared = max(abs(east), abs(north), abs(elevation), abs(angle)) >= 1e-9
    if not shared:
        status = (f"no shared coordinates: the shared origin is the internal origin "
                  f"(location '{shorten(display_text(location.Name), 40)}')")
    else:
        values = ", ".join(f"{axis} {format_length(v, ctx.length_unit, digits=2)}"
                           for axis, v in (("E/W", east), ("N/S", north), ("elevation", elevation)))
        status = (f"shared coordinates set (location '{shorten(display_text(location.Name), 40)}'): the internal "
                  f"origin is at {values}, project north {format_angle(angle)} from true north")
    result = CheckResult("coordinates", ok=status)
    links = list(DB.FilteredElementCollector(ctx.doc).OfClass(DB.RevitLinkInstance))
    if not shared and links:
        result.note = "no shared coordinates"
        result.findings.append(_finding(
            ctx, "link in a project without shared coordinates (none can be placed by them until it has some)", links,
            "acquire coordinates from the site or survey model (Manage > Coordinates > Acquire Coordinates)."))
    return result


def _worksharing(ctx, rules) -> CheckResult:
    """In a workshared model: levels and grids off their workset, elements on a closed workset,
    elements the current user still borrows, elements out of date with central (as the local copy
    last learnt it: nothing here asks central)."""
    from Autodesk.Revit import DB
    doc = ctx.doc
    if not doc.IsWorkshared:
        return CheckResult("worksharing", ok="skipped, the model is not workshared")
    worksets = user_worksets(doc)
    result = CheckResult("worksharing", ok="levels and grids on their workset; nothing on a closed workset, "
                                           "borrowed by you or out of date with central")
    datum_workset = next((w for w in worksets if w.name == GRIDS_WORKSET), None)
    closed = {w.id: w.name for w in worksets if not w.is_open}
    editable = {w.id for w in worksets if w.editable}   # owned through the workset, not borrowed (RelinquishOptions)
    datums, on_closed, mine, on_editable, stale = [], [], [], [], []
    utils = DB.WorksharingUtils
    out_of_date = (DB.ModelUpdatesStatus.UpdatedInCentral, DB.ModelUpdatesStatus.DeletedInCentral)
    for element in DB.FilteredElementCollector(doc).WhereElementIsNotElementType():
        model = is_model_element(element)
        if model and datum_workset is not None and is_datum(element) \
                and element.WorksetId.IntegerValue != datum_workset.id:
            datums.append(element)
        if model and element.WorksetId.IntegerValue in closed:
            on_closed.append(element)
        if utils.GetCheckoutStatus(doc, element.Id) == DB.CheckoutStatus.OwnedByCurrentUser:
            (on_editable if element.WorksetId.IntegerValue in editable else mine).append(element)
        if utils.GetModelUpdatesStatus(doc, element.Id) in out_of_date:
            stale.append(element)
    if datum_workset is None:
        result.note = f"no workset is named '{GRIDS_WORKSET}', so levels and grids were not checked"
    elif datums:
        result.findings.append(_finding(ctx, f"level or grid not on '{GRIDS_WORKSET}'", datums,
                                        f"move_to_workset them to '{GRIDS_WORKSET}'."))
    if on_closed:
        names = shorten(", ".join(sorted({closed[e.WorksetId.IntegerValue] for e in on_closed})), 60)
        result.findings.append(_finding(ctx, f"element on a closed workset ({display_text(names)}), not shown here",
                                        on_closed, "open the workset (Collaborate > Worksets) to see and check them."))
    if mine:
        result.findings.append(_finding(
            ctx, "element you borrow", mine,
            "when done, Synchronize with Central and relinquish borrowed elements, so others can edit them "
            "(Paracore never synchronizes)."))
    if on_editable:
        result.findings.append(_finding(
            ctx, "element on a workset you made editable", on_editable,
            "when done, Synchronize with Central and relinquish your user-created worksets, so others can edit "
            "their elements (Paracore never synchronizes)."))
    if stale:
        result.findings.append(_finding(ctx, "element changed or deleted in central since you last reloaded", stale,
                                        "Reload Latest (Collaborate > Reload Latest) before changing them."))
    return result


def _standard(ctx, chosen: list) -> CheckResult:
    """A firm standard's rules: its required parameters and its naming patterns (``re.search``: a
    pattern anchors itself with ^ and $). Each finding starts with the standard's name."""
    names = ", ".join(standard.name for standard in chosen)
    result = CheckResult(STANDARD, ok=f"the model follows {names}" if chosen else "no standard has rules to check")
    unknown, misspelled = [], []
    for standard in chosen:
        source = f"[{standard.name}] "
        categories, parameters = _empty_in(ctx, standard.required_parameters, result, source, STANDARD,
                                           standard.name)
        unknown += [f"{category} ({standard.name})" for category in categories]
        misspelled += parameters
        for target, pattern in standard.naming.items():
            try:
                found = _named_against(ctx, target, re.compile(pattern), standard.name)
            except ToolError:
                unknown.append(f"{target.split('.')[0]} ({standard.name})")
                continue
            except _NoSuchParameter as missing:
                misspelled.append(str(missing))
                continue
            if found:
                what, elements, labels = found
                finding = _finding(ctx, f"{source}{what} against the pattern {pattern}", elements,
                                   f"follow use_standard '{standard.name}' (check_model to_working_set 'standard' "
                                   "gathers them).")
                finding.names = labels
                result.findings.append(finding)
    notes = [f"checked {names}"] if chosen else []
    if unknown:
        notes.append(f"no category named {shorten(', '.join(unknown), 120)}")
    result.note = "; ".join(notes + [shorten("; ".join(misspelled), NOTE_LIMIT)] if misspelled else notes)
    return result


class _NoSuchParameter(Exception):
    """A naming rule's parameter that no element of its category, nor its type, has (a typo)."""


def _named_against(ctx, target: str, rule: re.Pattern, standard: str = ""):
    """(what, elements, labels of the first ones) whose name or value does not match ``rule``; None if all do."""
    from Autodesk.Revit import DB
    if target in ("Views", "Sheets", "Sheet names"):
        found = []
        for view in DB.FilteredElementCollector(ctx.doc).OfClass(DB.View):
            if view.IsTemplate:
                continue
            if isinstance(view, DB.ViewSheet):
                value = view.SheetNumber if target == "Sheets" else view.Name if target == "Sheet names" else None
            else:
                value = view.Name if target == "Views" and view.ViewType.ToString() not in _NOT_USER_VIEWS else None
            if value is not None and not rule.search(value or ""):
                found.append((view, value))
        what = {"Views": "view named", "Sheets": "sheet numbered", "Sheet names": "sheet named"}[target]
    else:
        category, parameter = target.split(".", 1)
        bic = resolve_category(ctx, category.strip())
        label = category_name(ctx, bic) or category
        found, elements, has_it = [], _elements(ctx, bic), False
        types = _types_of(ctx, elements)
        type_of = {id(element): type_id for type_id, (_, members) in types.items() for element in members}
        for element in elements:
            found_parameter = _parameter_or_types(element, types, type_of, parameter.strip())
            has_it = has_it or found_parameter is not None
            value = _value_text(found_parameter)
            if value and not rule.search(value):   # an empty value is required_parameters' business
                found.append((element, value))
        if elements and not has_it:
            raise _NoSuchParameter(_no_such_parameter(ctx, parameter.strip(), label, elements, standard))
        what = f"{singular(label)} whose {parameter.strip()} is"
    if not found:
        return None
    labels = [f"{shorten(display_text(value), 30)}" for _, value in found[:SAMPLE]]
    return what, [element for element, _ in found], labels


def _parameter_or_types(element, types: dict, type_of: dict, name: str):
    """The element's parameter ``name``, else its type's (as Revit's Properties show them), else None."""
    parameter = element.LookupParameter(name)
    if parameter is not None:
        return parameter
    type_id = type_of.get(id(element))
    element_type = types[type_id][0] if type_id is not None else None
    return element_type.LookupParameter(name) if element_type is not None else None


def _value_text(parameter) -> str:
    from Autodesk.Revit import DB
    if parameter is None:
        return ""
    if parameter.StorageType == DB.StorageType.String:
        return (parameter.AsString() or "").strip()
    return (parameter.AsValueString() or "").strip()


_RUNNERS = {"warnings": _warnings, "empty_parameters": _empty_parameters, "duplicate_marks": _duplicate_marks,
            "naming": _naming, "unplaced_rooms": _unplaced_rooms, "unplaced_views": _unplaced_views,
            "links": _links, "coordinates": _coordinates, "worksharing": _worksharing}
