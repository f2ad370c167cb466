"""The parameter table, model side: which columns, what each cell holds, and each row's check value.

export_parameters builds its sheets here and import_parameters reads cells back through the same
functions, so a value exported and re-read unchanged is never taken for an edit.

What a cell holds (``cell_value``): text as is; a yes/no as "Yes"/"No"; a whole number as a
number; a measured value (length, area, angle...) as a number in the parameter's display unit,
named in the column's header; another element (a level, a material) by its name.

The check value of a row (``check_value``) has two parts, "IDENTITY.VALUES":
- IDENTITY is a hash of the element's UniqueId and id: a row whose id was changed by hand, or
  that comes from another model, does not match the element its id names now;
- VALUES is a hash of the row's editable cells as exported: when the model's values no longer
  give it, the element changed in Revit since the export, and the row's edits could undo that
  change, so they are not applied (export again and redo them).
A hash is not a signature: it stops slips, not someone who means to forge a row.

Revit is imported inside the functions only, so this module imports without Revit.
"""
from __future__ import annotations

import decimal
import hashlib
import json
import math
import re
from dataclasses import dataclass, replace

from paracore.tools.framework.lookup import choices_text, did_you_mean, type_of
from paracore.tools.parameters.parameter_sheet import READ_ONLY, TYPE_MARK, Column
from paracore.tools.parameters.parameter_units import cell_number, is_measured, unit_symbol
from paracore.tools.parameters.parameter_values import find_named_parameter, is_yes_no
from paracore.tools.framework.results import ToolError

DEFAULT_COLUMNS = 40          # parameters chosen at most when none are named
# Context shown on the elements' sheet when no parameter is named (read-only there).
CONTEXT_PARAMETERS = ("Family and Type", "Level")
TYPE_CONTEXT_PARAMETERS = ("Family Name", "Type Name")
_LEFT_OUT = ("IfcGUID",)      # built-in, but an identifier of the IFC exchange, not something to edit


@dataclass(frozen=True)
class TableColumn:
    """A column of one sheet: how it is written, and whether it is read on the element or its type."""

    column: Column
    on_type: bool              # the parameter is the type's (on the elements' sheet: shown, not edited)


# --- columns ----------------------------------------------------------------------------------------


def choose_columns(ctx, elements: list, types: list, names: list[str] | None) -> tuple[list[TableColumn], list[TableColumn]]:
    """(the elements' sheet's columns, the Types sheet's columns): the parameters named, each on
    the sheet it belongs to, or when none are named the editable built-in ones all elements share."""
    if names:
        instance, type_columns = _named_columns(ctx, elements, types, names)
    else:
        instance = [_column(ctx, elements, name, on_type=False) for name in _editable_builtins(elements)]
        type_columns = [_column(ctx, types, name, on_type=True) for name in _editable_builtins(types)]
    return (_with_context(ctx, elements, instance, CONTEXT_PARAMETERS, on_type=False)[:DEFAULT_COLUMNS],
            _with_context(ctx, types, type_columns, TYPE_CONTEXT_PARAMETERS, on_type=True)[:DEFAULT_COLUMNS])


def _with_context(ctx, owners, columns: list[TableColumn], context: tuple[str, ...], on_type: bool) -> list[TableColumn]:
    """``columns`` after the context columns that say which element or type a row is (read-only
    there: "Family and Type", "Level"), those all owners have and not already among them."""
    if not columns:
        return columns
    chosen = {c.column.name for c in columns}
    first = [_column(ctx, owners, name, on_type) for name in context if name not in chosen and _shared(owners, name)]
    return [TableColumn(replace(c.column, mark=READ_ONLY), c.on_type) for c in first] + columns


def _named_columns(ctx, elements, types, names):
    instance, on_types = [], []
    for name in dict.fromkeys(" ".join(n.split()) for n in names if n and n.strip()):
        on_element = _first_parameter(elements, name)
        on_type = _first_parameter(types, name) if on_element is None else None
        if on_element is not None:
            instance.append(_column(ctx, elements, on_element.Definition.Name, on_type=False))
        elif on_type is not None:
            type_column = _column(ctx, types, on_type.Definition.Name, on_type=True)
            instance.append(TableColumn(replace(type_column.column, mark=TYPE_MARK), True))
            on_types.append(type_column)
        else:
            raise ToolError(_unknown_parameter(name, elements, types))
    return instance, on_types


def _first_parameter(elements, name: str):
    for element in elements:
        parameter = find_named_parameter(element, name)
        if parameter is not None:
            return parameter
    return None


def _shared(elements, name: str) -> bool:
    return bool(elements) and all(element.LookupParameter(name) is not None for element in elements)


def _editable_builtins(elements) -> list[str]:
    """The writable built-in parameters every element has, in the first element's order."""
    from Autodesk.Revit import DB
    if not elements:
        return []
    names = []
    for parameter in elements[0].Parameters:
        definition = parameter.Definition
        if (parameter.IsReadOnly or not isinstance(definition, DB.InternalDefinition)
                or definition.BuiltInParameter == DB.BuiltInParameter.INVALID or definition.Name in _LEFT_OUT):
            continue
        names.append(definition.Name)
    return [name for name in dict.fromkeys(names) if _shared(elements, name)]


def _column(ctx, owners, name: str, on_type: bool) -> TableColumn:
    """The column of parameter ``name`` (as the first owner having it names it): its unit, and
    read-only when it is read-only on any owner."""
    parameters = [p for p in (find_named_parameter(owner, name) for owner in owners) if p is not None]
    read_only = any(p.IsReadOnly for p in parameters)
    unit = unit_symbol(parameters[0]) if parameters else None
    shown = parameters[0].Definition.Name if parameters else name
    return TableColumn(Column(shown, unit, READ_ONLY if read_only else None), on_type)


def _unknown_parameter(name: str, elements, types) -> str:
    known = list(dict.fromkeys(p.Definition.Name for e in elements[:20] for p in e.Parameters))
    known_types = [n for n in dict.fromkeys(p.Definition.Name for t in types[:20] for p in t.Parameters)
                   if n not in known]
    text = f"No parameter named '{name}' on these elements or their types.{did_you_mean(name, known + known_types)}"
    text += f" Their parameters: {choices_text(known, 20)}."
    if known_types:
        text += f" Their types' parameters: {choices_text(known_types, 15)}."
    return text


# --- cells -------------------------------------------------------------------------------------------


def parameter_for(ctx, element, column: TableColumn):
    """The parameter a column shows for ``element`` (on its type for a type column), or None."""
    owner = type_of(ctx, element) if column.on_type and not _is_type(element) else element
    return find_named_parameter(owner, column.column.name) if owner is not None else None


def _is_type(element) -> bool:
    from Autodesk.Revit import DB
    return isinstance(element, DB.ElementType)


def cell_value(ctx, parameter):
    """What a cell shows for ``parameter`` (see the module's docstring); None when it has no value."""
    from Autodesk.Revit import DB
    if parameter is None:
        return None
    storage = parameter.StorageType
    if storage == DB.StorageType.String:
        return parameter.AsString() or ""
    if storage == DB.StorageType.Integer:
        if is_yes_no(parameter):
            return "Yes" if parameter.AsInteger() else "No"
        return parameter.AsInteger()
    if storage == DB.StorageType.ElementId:   # as Properties shows it: "Level 1", "M_Single-Flush: 0915 x 2134mm"
        referenced = ctx.doc.GetElement(parameter.AsElementId())
        return (parameter.AsValueString() or referenced.Name) if referenced is not None else ""
    if not parameter.HasValue:
        return None
    # A measured value in its display unit (tools/parameters/parameter_units.py), the rest as stored.
    return cell_number(parameter) if is_measured(parameter) else parameter.AsDouble()


def same_cell(read, written) -> bool:
    """Whether a cell read from the file shows the value ``written`` (as cell_value gives it):
    a spreadsheet turns "12" into 12, keeps 2.0100000000000002 as 2.01, and empties "" to None."""
    if _blank(read) or _blank(written):
        return _blank(read) and _blank(written)
    if isinstance(written, (int, float)) and not isinstance(written, bool):
        number = _number(read)
        return number is not None and math.isclose(number, written, rel_tol=1e-9, abs_tol=1e-9)
    if isinstance(read, bool):
        read = "Yes" if read else "No"
    if isinstance(read, float) and read.is_integer():
        read = int(read)
    if str(read) == str(written) or (written in ("Yes", "No") and str(read).casefold() == written.casefold()):
        return True
    return isinstance(written, str) and _same_number(read, written)


_NUMERAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?", re.IGNORECASE)


def _same_number(read, written: str) -> bool:
    """Text that looks like a number, which the program that saved the file rewrote as one: Excel
    and LibreOffice open the Mark "007" as 7, pandas writes "12" as "12.0" in a column with an empty
    cell, Excel keeps 15 significant digits of a number and saves a CSV as it shows it (a 12-digit
    tag as 1.23457E+11). The cell still shows the value the model holds (a real edit gives another
    number; a number typed in scientific notation over a plain one is a change unless it is that
    number, shortened)."""
    shown = read if isinstance(read, (int, float)) else read.strip() if isinstance(read, str) else None
    if shown is None or not _NUMERAL.fullmatch(written) or (isinstance(shown, str) and not _NUMERAL.fullmatch(shown)):
        return False
    if float(shown) == float(written):
        return True
    exact = decimal.Decimal(written)
    if isinstance(shown, str) and "e" in shown.casefold() and "e" not in written.casefold():
        kept = len(decimal.Decimal(shown).as_tuple().digits)        # the digits the spreadsheet showed
    elif isinstance(shown, (int, float)) and len(exact.normalize().as_tuple().digits) > SPREADSHEET_DIGITS:
        kept = SPREADSHEET_DIGITS                                   # the digits a spreadsheet keeps
    else:
        return False
    cell = _rounded(decimal.Decimal(repr(shown) if isinstance(shown, float) else str(shown)), kept)
    return cell in (_rounded(exact, kept), _rounded(exact, kept, decimal.ROUND_DOWN))   # Excel cuts typed digits off


SPREADSHEET_DIGITS = 15        # significant digits Excel and LibreOffice keep of a number


def _rounded(number: decimal.Decimal, digits: int, rounding=decimal.ROUND_HALF_EVEN) -> decimal.Decimal:
    with decimal.localcontext() as context:
        context.prec, context.rounding = digits, rounding
        return +number


def _blank(value) -> bool:
    return value is None or (isinstance(value, str) and value == "")


def _number(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return float(str(value).strip().replace(",", "."))
    except ValueError:
        return None


# --- check values -------------------------------------------------------------------------------------


def check_value(ctx, element, editable_values: list) -> str:
    """ "IDENTITY.VALUES" for a row (see the module's docstring)."""
    return f"{identity_hash(ctx, element)}.{values_hash(editable_values)}"


def identity_hash(ctx, element) -> str:
    return _hash(f"{element.UniqueId}|{ctx.id_value(element.Id)}")


def values_hash(values: list) -> str:
    return _hash(json.dumps([_canonical(v) for v in values], ensure_ascii=False))


def split_check(check) -> tuple[str, str]:
    identity, _, values = str(check or "").strip().partition(".")
    return identity, values


def _canonical(value):
    if isinstance(value, float):
        return repr(value)
    return value


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=5).hexdigest()
