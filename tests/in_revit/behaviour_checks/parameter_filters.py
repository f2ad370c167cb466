"""In-Revit checks of parameter filters (ElementParameterFilter and the rules ParameterFilterRuleFactory
makes): what search_elements hands to Revit since issue 37 (item 6), in the rows of
docs/REVIT_BEHAVIOUR.md that name behaviour_checks/parameter_filters.py. The scratch wall and door
are built east of the model, inside the check's group.
"""
from Autodesk.Revit import DB

from behaviour_checks import _site as site
from kit import expect, skip, transaction

LENGTH = DB.BuiltInParameter.CURVE_ELEM_LENGTH
COMMENTS = DB.BuiltInParameter.ALL_MODEL_INSTANCE_COMMENTS
MARK = DB.BuiltInParameter.ALL_MODEL_MARK
WIDTH = DB.BuiltInParameter.WALL_ATTR_WIDTH_PARAM
FACTORY = DB.ParameterFilterRuleFactory


def _wall(doc):
    x, y = site.spot(doc)
    with transaction(doc, "Paracore check: scratch wall"):
        return site.wall(doc, site.base_level(doc), (x, y), (x + 20.0, y))


def _passes(rule, element) -> bool:
    return DB.ElementParameterFilter(rule).PassesFilter(element)


def _pid(parameter):
    return DB.ElementId(parameter)


def double_rules_compare_within_epsilon(scratch):
    wall = _wall(scratch.doc)
    length = wall.get_Parameter(LENGTH).AsDouble()
    eps = 0.01
    seen = {
        "= within epsilon": _passes(FACTORY.CreateEqualsRule(_pid(LENGTH), length + eps / 2, eps), wall),
        "= beyond epsilon": _passes(FACTORY.CreateEqualsRule(_pid(LENGTH), length + eps * 2, eps), wall),
        "> by less than epsilon": _passes(FACTORY.CreateGreaterRule(_pid(LENGTH), length - eps / 2, eps), wall),
        "> by more than epsilon": _passes(FACTORY.CreateGreaterRule(_pid(LENGTH), length - eps * 2, eps), wall),
        ">= a little above": _passes(FACTORY.CreateGreaterOrEqualRule(_pid(LENGTH), length + eps / 2, eps), wall),
        "< by less than epsilon": _passes(FACTORY.CreateLessRule(_pid(LENGTH), length + eps / 2, eps), wall),
        "!= within epsilon": _passes(FACTORY.CreateNotEqualsRule(_pid(LENGTH), length + eps / 2, eps), wall),
    }
    wanted = {"= within epsilon": True, "= beyond epsilon": False, "> by less than epsilon": False,
              "> by more than epsilon": True, ">= a little above": True, "< by less than epsilon": False,
              "!= within epsilon": False}
    wrong = {k: v for k, v in seen.items() if v != wanted[k]}
    expect(not wrong, f"Double rules on a wall {length:.4f} ft long, epsilon {eps}: {wrong} (wanted the opposite)")
    return f"a {length:.2f} ft wall: =, >, >=, <, != all within epsilon {eps} as modelled"


def string_rules_ignore_case(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    with transaction(doc, "Paracore check: comments"):
        wall.get_Parameter(COMMENTS).Set("Fire Rated Wall")
    seen = {
        "= other case": _passes(FACTORY.CreateEqualsRule(_pid(COMMENTS), "fire rated wall"), wall),
        "contains other case": _passes(FACTORY.CreateContainsRule(_pid(COMMENTS), "RATED"), wall),
        "contains absent": _passes(FACTORY.CreateContainsRule(_pid(COMMENTS), "glazed"), wall),
    }
    expect(seen == {"= other case": True, "contains other case": True, "contains absent": False},
           f"string rules on Comments 'Fire Rated Wall': {seen}")
    return "= and contains ignore case"


def an_element_without_the_parameter_fails_every_rule(scratch):
    doc = scratch.doc
    wall = _wall(doc)
    middle = wall.Location.Curve.Evaluate(0.5, True)
    with transaction(doc, "Paracore check: scratch door"):
        door = site.door(doc, wall, middle)
    if door.get_Parameter(LENGTH) is not None:
        skip("the door family gives its doors a Length")
    seen = {
        ">": _passes(FACTORY.CreateGreaterRule(_pid(LENGTH), -1.0, 1e-6), door),
        "!=": _passes(FACTORY.CreateNotEqualsRule(_pid(LENGTH), 12345.0, 1e-6), door),
        "has no value": _passes(FACTORY.CreateHasNoValueParameterRule(_pid(LENGTH)), door),
    }
    expect(not any(seen.values()), f"a door without Length passed rules on Length: {seen}")
    return "a door fails >, != and has-no-value rules on Length"


def a_parameter_without_a_value_passes_only_has_no_value(scratch):
    wall = _wall(scratch.doc)
    mark = wall.get_Parameter(MARK)
    if mark is None or mark.HasValue:
        skip("the new wall has a Mark")
    seen = {
        "has no value": _passes(FACTORY.CreateHasNoValueParameterRule(_pid(MARK)), wall),
        "has value": _passes(FACTORY.CreateHasValueParameterRule(_pid(MARK)), wall),
        "!=": _passes(FACTORY.CreateNotEqualsRule(_pid(MARK), "X1"), wall),
    }
    expect(seen == {"has no value": True, "has value": False, "!=": False},
           f"a new wall's empty Mark: {seen}")
    return "an empty Mark passes has-no-value only"


def a_rule_falls_back_to_the_elements_type(scratch):
    wall = _wall(scratch.doc)
    wall_type = scratch.doc.GetElement(wall.GetTypeId())
    if wall.get_Parameter(WIDTH) is not None:
        skip("the wall itself has a Width parameter")
    width = wall_type.get_Parameter(WIDTH).AsDouble()
    above = _passes(FACTORY.CreateGreaterRule(_pid(WIDTH), width - 0.01, 1e-9), wall)
    below = _passes(FACTORY.CreateGreaterRule(_pid(WIDTH), width + 0.01, 1e-9), wall)
    expect(above and not below, f"Width rules on a wall whose type is {width:.4f} ft wide: "
                                f"> width - 0.01 passes {above}, > width + 0.01 passes {below}")
    return "a wall passes Width rules by its type's Width"


def _python_ids(query):
    """What every search did before issue 37: each candidate compared in Python."""
    return [query.ctx.id_value(e.Id) for e in query.candidates() if query.matches(e)]


def _filter_ids(query):
    return [query.ctx.id_value(e.Id) for _label, e in query.labelled()]


def a_search_finds_through_revits_filters_what_python_found(scratch):
    """search_elements' queries on the open model, with conditions on the values its own walls,
    doors and windows hold: Revit's filters (`labelled`) against the Python comparison
    (`candidates` + `matches`). The rows above are what this rests on; this is the whole of it."""
    from paracore.revit.context import ToolContext
    from paracore.tools.elements.element_query import Condition, build_query
    from paracore.tools.framework.results import ToolError
    ctx = ToolContext(scratch.doc, scratch.uidoc, scratch.session)
    compared, differ = 0, []
    for bic in (DB.BuiltInCategory.OST_Walls, DB.BuiltInCategory.OST_Doors, DB.BuiltInCategory.OST_Windows):
        first = DB.FilteredElementCollector(scratch.doc).OfCategory(bic).WhereElementIsNotElementType().FirstElement()
        if first is None:
            continue
        category = DB.Category.GetCategory(scratch.doc, bic).Name
        for parameter in list(first.Parameters)[:25]:
            name, storage = parameter.Definition.Name, parameter.StorageType
            if storage == DB.StorageType.Double and parameter.HasValue:
                asks = [(">", parameter.AsValueString()), ("=", parameter.AsValueString())]
            elif storage == DB.StorageType.Integer:
                asks = [("=", parameter.AsInteger()), ("!=", parameter.AsInteger())]
            elif storage == DB.StorageType.String and parameter.AsString():
                asks = [("contains", parameter.AsString().split()[0].upper())]
            elif storage == DB.StorageType.ElementId and parameter.AsValueString():
                asks = [("=", parameter.AsValueString())]
            else:
                continue
            for op, value in asks:
                try:
                    query = build_query(ctx, category=category,
                                        conditions=[Condition(parameter=name, op=op, value=value)])
                    found, expected = _filter_ids(query), _python_ids(query)
                except ToolError:
                    continue
                compared += 1
                if found != expected:
                    differ.append(f"{category} {name} {op} {value!r}: {len(found)} by filters, {len(expected)} in Python")
    if not compared:
        skip("no walls, doors or windows with parameters to compare")
    expect(not differ, "; ".join(differ[:5]))
    return f"{compared} conditions on walls, doors and windows: the same elements both ways"


CHECKS = [
    ("Double rules compare within epsilon", double_rules_compare_within_epsilon),
    ("string rules ignore case", string_rules_ignore_case),
    ("an element without the parameter fails every rule", an_element_without_the_parameter_fails_every_rule),
    ("a parameter without a value passes only has-no-value", a_parameter_without_a_value_passes_only_has_no_value),
    ("a rule falls back to the element's type", a_rule_falls_back_to_the_elements_type),
    ("a search finds through Revit's filters what Python found", a_search_finds_through_revits_filters_what_python_found),
]
