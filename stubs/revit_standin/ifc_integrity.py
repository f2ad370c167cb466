"""Tell a whole IFC file from a damaged one before the reader builds a building from it.

The rule is the reader's (see :mod:`revit_standin.ifc_reader`): a file loads only when it is
whole; anything else is one :class:`IfcReadError` that says where the damage is (a line of the
file) and what to do. The checks, cheapest first:

1. the file begins with ``ISO-10303-21;`` and ends with ``END-ISO-10303-21;`` (a file cut short
   by an interrupted export, copy or download has no end);
2. ifcopenshell parses it without an error or a warning in its log: a syntax error, an entity
   the schema does not know, a reference to an instance the file does not define, an
   enumeration value or a number of attributes the schema does not allow, an instance defined
   twice. ifcopenshell drops such an instance or reference and goes on, so the model would be
   silently smaller: its log is the only trace of it;
3. every attribute holds what the schema declares for it, as far as references go: a reference
   names an instance of the class (or one of the classes of a select) the attribute expects, and
   an attribute that takes no instance (a name, a number) holds none. The syntax allows any
   reference anywhere and ifcopenshell does not check them, so a placement relative to a point,
   or a wall placed by an axis placement instead of an object placement, would otherwise load as
   a misplaced wall (the reader cannot follow it, and falls back to the origin). The check covers
   every attribute of every instance, so also every reference the reader follows. So are the
   schema's upper bounds on how many instances may refer to one (its inverse attributes: an
   element in one spatial structure at most, an IFC2X3 property set defined by one relationship),
   which a reference moved to another instance of the right class breaks; except the two that
   Revit's own exports break (``_REVIT_BREAKS``);
4. the spatial structure is whole: an IfcProject, every storey part of the project's building
   (IfcRelAggregates up to the IfcProject), every element and space in a storey, building or site
   (IfcRelContainedInSpatialStructure) or part of another element (IfcRelAggregates). Revit's
   exports write these relationships last; a file that lost them still parses;
5. every GlobalId is 22 characters of IFC's base64 alphabet (0-9, A-Z, a-z, _ and $), the first
   0 to 3 (it holds the GUID's top two bits): the schema's IfcGloballyUniqueId, which
   ifcopenshell parses as any text. Every GlobalId of the four sample exports meets it, so a
   flipped byte that makes one leave the alphabet is damage, not an author's choice.

What the checks cannot see, the reader reports: a value the reader cannot use although its kind
is right is an :func:`unreadable` error naming the instance. A changed digit or letter that leaves
a valid value (a coordinate, a name), or a reference moved to another instance of a class the
attribute accepts (another point, another placement), cannot be told from the author's intent,
and loads as it is.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from dataclasses import dataclass
from typing import Callable, Iterable, Optional

import ifcopenshell
import ifcopenshell.ifcopenshell_wrapper

from .errors import CannotOpen

_START = b"ISO-10303-21"
_END = b"END-ISO-10303-21;"
_AGAIN = "export or copy it again"
_TAIL = 4096
# "[error] [2026-01-01 10:00:00] message" or "[warning] [GEO234] [2026-01-01 10:00:00] message", whose
# message may go on over the next lines (the instance it is about: "#12=IfcAxis2Placement3D(...)").
_LOG_ENTRY = re.compile(r"^\[(\w+)\](?: \[\w+\])? \[[^\]]*\] ", re.MULTILINE)
_PROBLEM_LEVELS = ("error", "warning")
_AT_OFFSET = re.compile(r" at offset (\d+)")
_FOR_INSTANCE = re.compile(r"instance (?:with name )?#(\d+)|#(\d+)=")
# What is not itself a Revit element, so needs no place in the spatial structure.
_NOT_PLACED = ("IfcFeatureElement", "IfcVirtualElement")
_PART_OF = ("IfcRelAggregates", "IfcRelNests")


class IfcReadError(CannotOpen):
    """The file cannot be read as an IFC building; says which file and what is wrong."""

    def __init__(self, path, problem: str):
        problem = _printable(" ".join(problem.split()))   # one line, whatever the damaged bytes were
        super().__init__(f"cannot read IFC file '{path}': {problem}")
        self.path = str(path)
        self.problem = problem


def open_whole(path: Path) -> ifcopenshell.file:
    """The parsed file, or IfcReadError when it is not whole (checks 1 to 4 above)."""
    _check_ends(path)
    model = _parse(path)
    _check_references(model, path)
    _check_spatial_structure(model, path)
    _check_global_ids(model, path)
    return model


def check_log(path: Path) -> None:
    """IfcReadError for the problems ifcopenshell logged since the last check (values it could
    only read when the reader asked for them)."""
    problems = _logged_problems()
    if problems:
        raise IfcReadError(path, f"{_short(_where(path, _telling(problems)))}{_more(len(problems) - 1)}; {_AGAIN}")


def unreadable(path: Path, instance, error: Exception) -> IfcReadError:
    """The error for an instance the reader could not read although the checks passed."""
    what = "the file"
    if instance is not None:
        line = _line_of_instance(path, instance.id())
        what = f"the {instance.is_a()} #{instance.id()}" + (f" at line {line}" if line else "")
    return IfcReadError(path, f"{what} cannot be read ({type(error).__name__}: {_short(str(error))}): the file "
                              f"is damaged or was not written by Revit; {_AGAIN}")


# -- 1. beginning and end --------------------------------------------------------------------------------

def _check_ends(path: Path) -> None:
    if not path.exists():
        raise IfcReadError(path, "no such file")
    if not path.is_file():
        raise IfcReadError(path, "not a file")
    with path.open("rb") as stream:
        head = stream.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
        size = stream.seek(0, 2)
        stream.seek(max(0, size - _TAIL))
        tail = stream.read().rstrip(b" \t\r\n\x1a")   # \x1a: the end-of-file mark of old DOS tools
    # Only STEP text (.ifc) is supported; ifcXML and ifcZIP are not Revit's default.
    if not head.startswith(_START):
        raise IfcReadError(path, "not an IFC STEP file (it does not begin with 'ISO-10303-21')")
    if not tail.endswith(_END):
        raise IfcReadError(path, f"it ends at line {_line_count(path)} without 'END-ISO-10303-21;': it was cut "
                                 f"short (an interrupted export, copy or download?); {_AGAIN}")


# -- 2. what ifcopenshell logs while it parses ------------------------------------------------------------

def _parse(path: Path) -> ifcopenshell.file:
    # The log is process-wide: ifcopenshell.validate leaves it in JSON ("@todo restore log format"),
    # and earlier reads may have left entries in it. So is the feature validate turns on while it runs
    # (and leaves on when it fails) that gives a derived attribute ("*") a value of its own, which the
    # reference check would take for a wrong reference and the reader for a value.
    ifcopenshell.ifcopenshell_wrapper.set_log_format_text()
    ifcopenshell.ifcopenshell_wrapper.set_feature("use_attribute_value_derived", False)
    _logged_problems()
    try:
        model = ifcopenshell.open(str(path))
    except Exception as error:  # ifcopenshell raises its own, unrelated error classes
        problems = _logged_problems()
        detail = _short(_where(path, _telling(problems)) if problems else str(error)) + _more(len(problems) - 1)
        raise IfcReadError(path, f"ifcopenshell could not parse it: {detail}; {_AGAIN}") from error
    check_log(path)
    return model


def _logged_problems() -> list[str]:
    """The errors and warnings in ifcopenshell's log (which reading empties), each on one line."""
    log = ifcopenshell.get_log()
    starts = list(_LOG_ENTRY.finditer(log)) + [None]
    return [" ".join(log[entry.end():after.start() if after else len(log)].split())
            for entry, after in zip(starts, starts[1:]) if entry.group(1) in _PROBLEM_LEVELS]


def _telling(problems: list[str]) -> str:
    """The first problem that says where it is (ifcopenshell may say "nullptr passed" first)."""
    return next((p for p in problems if _AT_OFFSET.search(p) or _FOR_INSTANCE.search(p)), problems[0])


def _where(path: Path, message: str) -> str:
    """The log message, led by the line of the file it is about."""
    offset = _AT_OFFSET.search(message)
    if offset:
        return f"line {_line_at(path, int(offset.group(1)))}: {message[:offset.start()]}{message[offset.end():]}"
    instance = _FOR_INSTANCE.search(message)
    line = _line_of_instance(path, int(instance.group(1) or instance.group(2))) if instance else None
    return f"line {line}: {message}" if line else message


def _short(text: str, limit: int = 300) -> str:
    """At most ``limit`` characters: a message can quote a whole damaged instance."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _more(count: int) -> str:
    return f" (and {count} more problem{'s' if count > 1 else ''})" if count > 0 else ""


# -- 3. every reference of the class its attribute expects -------------------------------------------------

def _check_references(model: ifcopenshell.file, path: Path) -> None:
    """IfcReadError naming the first instance (in the file's order) with an attribute holding what the
    schema does not allow it, as far as references go; then the first one more instances refer to
    than the schema allows (module docstring, check 3)."""
    plans = _AttributePlans(model.schema_identifier)
    wrong, referrers = [], {}
    for class_name in model.types():
        plan = plans.of(class_name)
        for instance in model.by_type(class_name, include_subtypes=False):
            for index, expected, bounded in plan:
                value = instance[index]
                if value is None:
                    continue
                if not expected.allows(value):
                    wrong.append((instance, index, expected, value))
                elif bounded:
                    _count_referrers(instance, index, value, bounded, referrers)
    if not wrong:
        _check_referrer_counts(model, path, referrers)
        return
    instance, index, expected, value = min(wrong, key=lambda found: found[0].id())
    attribute = instance.attribute_name(index)
    verb = "holds" if isinstance(value, tuple) else "is"
    found = _described(_first_wrong(value, expected))
    raise IfcReadError(path, f"{_short(_where_instance(path, instance))}'s {attribute} {verb} {found}, where "
                             f"{model.schema} expects {expected.name}{_more(len(wrong) - 1)}: the file is "
                             f"damaged or was not written by Revit; {_AGAIN}")


# Inverse attributes whose upper bound Revit's own exports break, so a whole file may too:
# SampleHouse4 (Revit 2015) styles some solids twice (StyledByItem), LargeBuilding (Revit 2021)
# shares property sets among types (DefinesType). The reader follows neither bound.
_REVIT_BREAKS = frozenset({"StyledByItem", "DefinesType"})


@dataclass(frozen=True)
class _Bound:
    """An inverse attribute with an upper bound: at most ``most`` instances may refer to an instance
    of ``target`` through the attribute it is counted for."""
    target: str        # the class that declares the inverse
    inverse: str       # its name ("ContainedInStructure")
    most: int


def _count_referrers(instance, index: int, value, bounded: tuple, referrers: dict) -> None:
    """Count ``instance`` as a referrer of each instance ``value`` names, for the bounds that apply."""
    for target in (value if isinstance(value, tuple) else (value,)):
        if isinstance(target, ifcopenshell.entity_instance) and target.id():
            for bound in bounded:
                if target.is_a(bound.target):
                    referrers.setdefault((target.id(), bound), []).append((instance, index))


def _check_referrer_counts(model, path: Path, referrers: dict) -> None:
    """IfcReadError naming the first instance more instances refer to than an inverse's bound allows."""
    over = sorted(((target, bound, found) for (target, bound), found in referrers.items()
                   if len(found) > bound.most), key=lambda item: item[0])
    if not over:
        return
    target, bound, found = over[0]
    instance, (first, index) = model.by_id(target), found[0]
    names = " and ".join(f"#{referrer.id()}" for referrer, _ in found[:3]) + (" …" if len(found) > 3 else "")
    raise IfcReadError(path, f"{_short(_where_instance(path, instance))} is in the {first.attribute_name(index)} of "
                             f"{len(found)} {first.is_a()} ({names}), where {model.schema} allows at most "
                             f"{bound.most} (its {bound.inverse}){_more(len(over) - 1)}: the file is damaged or "
                             f"was not written by Revit; {_AGAIN}")


@dataclass(frozen=True)
class _Expected:
    """What an attribute may hold, as far as references go: instances of ``classes`` (and their
    subclasses), and plain values (names, numbers, typed values of a select) when ``plain``."""
    name: str                   # said in the message: "an IfcObjectPlacement"
    classes: frozenset
    plain: bool
    is_a: Callable[[str, frozenset], bool]   # (class name, classes) -> whether the class is one of them

    def allows(self, value) -> bool:
        if isinstance(value, tuple):
            return all(self.allows(item) for item in value)
        if isinstance(value, ifcopenshell.entity_instance):
            if value.id() == 0:      # a typed value (IFCLABEL('x')) where a select allows one
                return self.plain
            return self.is_a(value.is_a(), self.classes)
        return self.plain


class _AttributePlans:
    """Per class, what each of its attributes may hold and the bounds counted through it; built from
    the schema once per class."""

    def __init__(self, schema_name: str):
        self.schema = ifcopenshell.ifcopenshell_wrapper.schema_by_name(schema_name)
        self._plans: dict = {}
        self._is_a = functools.lru_cache(maxsize=None)(self._subclass_of_any)
        self._bounds = self._inverse_bounds()

    def of(self, class_name: str) -> tuple:
        """((attribute index, what it may hold, the bounds counted through it), ...)."""
        plan = self._plans.get(class_name)
        if plan is None:
            declaration = self.schema.declaration_by_name(class_name)
            plan = self._plans[class_name] = tuple(
                (index, self._expected(attribute.type_of_attribute()),
                 self._bounds_through(declaration, attribute.name()))
                for index, attribute in enumerate(declaration.all_attributes()))
        return plan

    def _inverse_bounds(self) -> dict:
        """{(declaring class, attribute): (_Bound, ...)} for every inverse with an upper bound."""
        bounds: dict = {}
        for entity in self.schema.entities():
            for inverse in entity.inverse_attributes():
                if inverse.bound2() < 0 or inverse.name() in _REVIT_BREAKS:
                    continue
                key = (inverse.entity_reference().name(), inverse.attribute_reference().name())
                bound = _Bound(entity.name(), inverse.name(), inverse.bound2())
                if bound not in bounds.setdefault(key, ()):
                    bounds[key] += (bound,)
        return bounds

    def _bounds_through(self, declaration, attribute: str) -> tuple:
        """The bounds counted through ``attribute`` of instances of ``declaration`` (or its supertypes)."""
        found = ()
        while declaration is not None:
            found += self._bounds.get((declaration.name(), attribute), ())
            declaration = declaration.supertype()
        return found

    def _expected(self, declared) -> _Expected:
        classes, plain = _leaves(declared)
        return _Expected(_name_of(declared, classes), frozenset(classes), plain, self._is_a)

    def _subclass_of_any(self, class_name: str, classes: frozenset) -> bool:
        declaration = self.schema.declaration_by_name(class_name)
        while declaration is not None:
            if declaration.name() in classes:
                return True
            declaration = declaration.supertype()
        return False


def _leaves(declared) -> tuple[set, bool]:
    """(entity classes, whether plain values are allowed) of a declared attribute type."""
    wrapper = ifcopenshell.ifcopenshell_wrapper
    while isinstance(declared, wrapper.named_type):
        declared = declared.declared_type()
    if isinstance(declared, wrapper.entity):
        return {declared.name()}, False
    if isinstance(declared, wrapper.aggregation_type):
        return _leaves(declared.type_of_element())
    if isinstance(declared, wrapper.select_type):
        classes, plain = set(), False
        for item in declared.select_list():
            item_classes, item_plain = _leaves(item)
            classes |= item_classes
            plain = plain or item_plain
        return classes, plain
    return set(), True     # a defined type, an enumeration, a simple type


def _name_of(declared, classes: set) -> str:
    """"an IfcObjectPlacement", "an IfcAxis2Placement (IfcAxis2Placement2D or IfcAxis2Placement3D)",
    "an IfcLabel": what the attribute's declaration calls what it holds."""
    wrapper = ifcopenshell.ifcopenshell_wrapper
    while isinstance(declared, wrapper.aggregation_type):
        declared = declared.type_of_element()
    while isinstance(declared, wrapper.named_type):
        declared = declared.declared_type()
    name = declared.name() if hasattr(declared, "name") else str(declared)
    if isinstance(declared, wrapper.select_type) and 1 < len(classes) <= 4:
        return f"an {name} ({' or '.join(sorted(classes))})"
    return f"an {name}" if name[:1] in "AEIOUaeiou" else f"a {name}"


def _first_wrong(value, expected: _Expected):
    """The item of an aggregate the attribute does not allow (the value itself when not an aggregate)."""
    if isinstance(value, tuple):
        return next((_first_wrong(item, expected) for item in value if not expected.allows(item)), value)
    return value


def _described(value) -> str:
    if isinstance(value, ifcopenshell.entity_instance) and value.id():
        return f"#{value.id()}, an {value.is_a()}"
    return _short(repr(value.wrappedValue if isinstance(value, ifcopenshell.entity_instance) else value), 60)


def _where_instance(path: Path, instance) -> str:
    line = _line_of_instance(path, instance.id())
    return (f"line {line}: " if line else "") + f"{instance.is_a()} #{instance.id()}"


# -- 4. the spatial structure ------------------------------------------------------------------------------

def _check_spatial_structure(model: ifcopenshell.file, path: Path) -> None:
    project = model.by_type("IfcProject")
    if not project:
        raise IfcReadError(path, f"it has no IfcProject: it is not a building model, or it is damaged; {_AGAIN}")
    for storey in model.by_type("IfcBuildingStorey"):
        if not _in_project(storey):
            raise IfcReadError(path, f"storey '{storey.Name}' ({_at(path, storey)}) is part of no building of the "
                                     f"project: the file's relationships are missing or damaged; {_AGAIN}")
    unplaced = sorted(_unplaced(model), key=lambda product: product.id())   # the first in the file first
    if unplaced:
        first = unplaced[0]
        raise IfcReadError(path, f"{len(unplaced)} element(s) are in no storey, building or site (the first: "
                                 f"{first.is_a()} '{first.Name}', {_at(path, first)}): the file's relationships "
                                 f"are missing or damaged; {_AGAIN}")


_GLOBAL_ID = re.compile(r"[0-3][0-9A-Za-z_$]{21}\Z")


def _check_global_ids(model: ifcopenshell.file, path: Path) -> None:
    """IfcReadError naming the first instance (in the file's order) whose GlobalId is not a GUID in
    IFC's base64 (module docstring, check 5)."""
    wrong = [root for root in model.by_type("IfcRoot") if not _GLOBAL_ID.match(root.GlobalId or "")]
    if wrong:
        first = min(wrong, key=lambda root: root.id())
        raise IfcReadError(path, f"{first.is_a()} ({_at(path, first)}) has the GlobalId "
                                 f"'{_printable(str(first.GlobalId))[:40]}', which is not 22 characters of IFC's "
                                 f"base64{_more(len(wrong) - 1)}: the file is damaged; {_AGAIN}")


def _in_project(product, depth: int = 0) -> bool:
    """Whether the aggregation chain above ``product`` ends at an IfcProject."""
    if product.is_a("IfcProject"):
        return True
    if depth > 8:   # a damaged file can aggregate in a circle
        return False
    return any(rel.RelatingObject is not None and _in_project(rel.RelatingObject, depth + 1)
               for rel in getattr(product, "Decomposes", ()) or ())


def _unplaced(model: ifcopenshell.file) -> Iterable:
    """Elements and spaces neither contained in the spatial structure nor part of something.

    Read from the relationships rather than each product's inverse attributes: many times faster.
    """
    placed = {product.id() for rel in model.by_type("IfcRelContainedInSpatialStructure")
              for product in rel.RelatedElements}
    # IFC2X3 spaces have no ContainedInStructure: they are aggregated into their storey.
    placed.update(part.id() for cls in _PART_OF for rel in model.by_type(cls) for part in rel.RelatedObjects)
    placed.update(product.id() for cls in _NOT_PLACED for product in model.by_type(cls))
    for product in [*model.by_type("IfcElement"), *model.by_type("IfcSpace")]:
        if product.id() not in placed:
            yield product


def _at(path: Path, instance) -> str:
    line = _line_of_instance(path, instance.id())
    return f"line {line}" if line else f"#{instance.id()}"


def _printable(text: str) -> str:
    """``text`` with control characters and undecodable bytes (which ifcopenshell's log passes on
    as surrogates) written as escapes: a damaged file's bytes must not reach the terminal."""
    return "".join(char if char.isprintable() else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:   # the surrogate Python decodes an undecodable byte to
        code -= 0xDC00
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# -- lines of the file (only computed for a message) --------------------------------------------------------

def _line_count(path: Path) -> int:
    """The number of the file's last line (an editor's count: a final newline starts no line)."""
    newlines, last = 0, b"\n"
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            newlines, last = newlines + chunk.count(b"\n"), chunk[-1:]
    return newlines + (last != b"\n")


def _line_at(path: Path, offset: int) -> int:
    with path.open("rb") as stream:
        return stream.read(offset).count(b"\n") + 1


def _line_of_instance(path: Path, instance_id: int) -> Optional[int]:
    """The line that defines ``#instance_id``, or None."""
    pattern = re.compile(rb"^\s*#%d\s*=" % instance_id)
    with path.open("rb") as stream:
        for number, line in enumerate(stream, start=1):
            if pattern.match(line):
                return number
    return None
