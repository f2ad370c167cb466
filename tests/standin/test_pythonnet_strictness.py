"""The stand-in refuses what pythonnet 3.0.3 refuses, with pythonnet's own messages.

The messages are the ones the real-CLR lane observes (tests/clr/test_conversions.py), so code
that passes here passes the same conversions in Revit.
"""
from __future__ import annotations

import pytest
from Autodesk.Revit import UI
from Autodesk.Revit.DB import ElementId, ElementIdSetFilter, ElementTransformUtils, FilteredElementCollector, XYZ
from System.Collections.Generic import HashSet, List

from paracore.revit.dotnet import element_id_list

NO_METHOD = "No method matches given arguments for"


@pytest.mark.parametrize("items, shown", [([ElementId(1)], "<class 'list'>"), ((ElementId(1),), "<class 'tuple'>"),
                                          ((i for i in [ElementId(1)]), "<class 'generator'>")])
def test_a_list_is_never_built_from_a_python_sequence(items, shown):
    with pytest.raises(TypeError, match=f"^{NO_METHOD} List`1..ctor: \\({shown}\\)$"):
        List[ElementId](items)


def test_a_list_is_built_empty_with_a_capacity_or_from_a_dotnet_collection():
    built = List[ElementId]()
    built.Add(ElementId(5))
    assert List[ElementId](10).Count == 0
    assert list(List[ElementId](built)) == [ElementId(5)]
    assert HashSet[ElementId](built).Count == 1
    with pytest.raises(TypeError, match="HashSet`1..ctor"):
        HashSet[ElementId]([ElementId(5)])


def test_add_takes_only_the_item_type_and_add_range_only_a_dotnet_collection():
    built = List[ElementId]()
    with pytest.raises(TypeError, match=f"^{NO_METHOD} List`1.Add: \\(<class 'int'>\\)$"):
        built.Add(5)
    with pytest.raises(TypeError, match=f"^{NO_METHOD} List`1.AddRange: \\(<class 'list'>\\)$"):
        built.AddRange([ElementId(5)])
    built.AddRange(element_id_list([1, 2]))
    doubles = List[float]()
    doubles.Add(3)  # pythonnet widens an int to a double
    assert list(built) == [ElementId(1), ElementId(2)] and list(doubles) == [3]


def test_api_methods_taking_collections_refuse_python_lists(host, doc, make):
    ids = [make.wall(doc).Id, make.wall(doc, (0, 10), (20, 10)).Id]
    selection = host.uiapp.ActiveUIDocument.Selection
    for call, member in ((lambda: selection.SetElementIds(ids), "Selection.SetElementIds"),
                         (lambda: doc.ActiveView.IsolateElementsTemporary(ids), "View.IsolateElementsTemporary"),
                         (lambda: ElementIdSetFilter(ids), "ElementIdSetFilter..ctor"),
                         (lambda: FilteredElementCollector(doc).Excluding(ids), "FilteredElementCollector.Excluding"),
                         (lambda: doc.Delete(ids), "Document.Delete")):
        with pytest.raises(TypeError, match=f"^{NO_METHOD} {member}: \\(<class 'list'>\\)$"):
            call()
    with pytest.raises(TypeError, match=f"{NO_METHOD} ElementTransformUtils.MoveElements"):
        make.committed(doc, lambda: ElementTransformUtils.MoveElements(doc, ids, XYZ(1, 0, 0)))
    selection.SetElementIds(element_id_list([i.Value for i in ids]))
    assert list(selection.GetElementIds()) == ids


def test_an_int_is_not_an_element_id(doc):
    with pytest.raises(TypeError, match=f"^{NO_METHOD} Document.GetElement: \\(<class 'int'>\\)$"):
        doc.GetElement(5)
    with pytest.raises(TypeError, match=f"^{NO_METHOD} Document.Delete: \\(<class 'int'>\\)$"):
        doc.Delete(5)
    with pytest.raises(TypeError, match=f"^{NO_METHOD} ElementId..ctor: \\(<class 'float'>\\)$"):
        ElementId(5.0)
    assert ElementId(3_000_000_000).Value == 3_000_000_000


def test_an_element_id_has_no_int_conversion():
    with pytest.raises(TypeError, match="int\\(\\) argument must be"):
        int(ElementId(5))


@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_a_bool_property_takes_only_a_bool(value):
    data = UI.DockablePaneProviderData()
    with pytest.raises(TypeError, match=f"^'{type(value).__name__}' value cannot be converted to System.Boolean$"):
        data.VisibleByDefault = value
    data.VisibleByDefault = False
    assert data.VisibleByDefault is False


def test_a_list_is_never_built_from_a_python_set_and_hash_set_add_takes_only_the_item_type():
    with pytest.raises(TypeError, match=f"^{NO_METHOD} List`1..ctor: \\(<class 'set'>\\)$"):
        List[ElementId]({ElementId(1)})
    ids = HashSet[ElementId]()
    with pytest.raises(TypeError, match=f"^{NO_METHOD} HashSet`1.Add: \\(<class 'int'>\\)$"):
        ids.Add(5)
    assert ids.Add(ElementId(5)) is True and ids.Add(ElementId(5)) is False


def test_an_array_is_made_from_a_python_list_and_a_list_from_an_array():
    """pythonnet converts a Python sequence to a .NET array, and List<T>(IEnumerable<T>) takes one."""
    from System import Array
    array = Array[ElementId]([ElementId(1), ElementId(2)])
    assert array.Length == 2 and list(List[ElementId](array)) == [ElementId(1), ElementId(2)]
    built = element_id_list([3])
    assert isinstance(built.ToArray(), Array[ElementId]) and list(built.ToArray()) == [ElementId(3)]


def test_methods_and_constructors_taking_an_element_id_refuse_an_int(doc, make):
    """One rule for every stand-in parameter typed ElementId (a plain int never converts); the
    message names the argument types as pythonnet does, by their public namespace."""
    from Autodesk.Revit.DB import (BuiltInCategory, ElementLevelFilter, OverrideGraphicSettings, ScheduleFieldType,
                                   Transaction, ViewSchedule, Wall)
    wall = make.wall(doc)
    level_id = make.level(doc, "Level 1").Id
    line = wall.Location.Curve
    schedule = make.committed(doc, lambda: ViewSchedule.CreateSchedule(doc, ElementId(BuiltInCategory.OST_Walls)))
    for call, member, shown in (
            (lambda: wall.ChangeTypeId(5), "Element.ChangeTypeId", "<class 'int'>"),
            (lambda: doc.ActiveView.SetElementOverrides(5, OverrideGraphicSettings()), "View.SetElementOverrides",
             "<class 'int'>, <class 'Autodesk.Revit.DB.OverrideGraphicSettings'>"),
            (lambda: FilteredElementCollector(doc).OfCategoryId(5), "FilteredElementCollector.OfCategoryId",
             "<class 'int'>"),
            (lambda: FilteredElementCollector(doc, 5), "FilteredElementCollector..ctor",
             "<class 'Autodesk.Revit.DB.Document'>, <class 'int'>"),
            (lambda: ElementLevelFilter(5), "ElementLevelFilter..ctor", "<class 'int'>"),
            (lambda: ElementTransformUtils.MoveElement(doc, 5, XYZ(1, 0, 0)), "ElementTransformUtils.MoveElement",
             "<class 'Autodesk.Revit.DB.Document'>, <class 'int'>, <class 'Autodesk.Revit.DB.XYZ'>"),
            (lambda: Wall.Create(doc, line, level_id.Value, False), "Wall.Create",
             "<class 'Autodesk.Revit.DB.Document'>, <class 'Autodesk.Revit.DB.Line'>, "
             "<class 'int'>, <class 'bool'>"),
            (lambda: schedule.Definition.AddField(ScheduleFieldType.Instance, 5), "ScheduleDefinition.AddField",
             "<class 'Autodesk.Revit.DB.ScheduleFieldType'>, <class 'int'>")):
        transaction = Transaction(doc, "refused")
        transaction.Start()
        with pytest.raises(TypeError) as refused:
            call()
        transaction.RollBack()
        assert str(refused.value) == f"{NO_METHOD} {member}: ({shown})"


def test_the_filtered_element_collector_takes_a_dotnet_collection_not_a_python_list(doc, make):
    ids = [make.wall(doc).Id]
    with pytest.raises(TypeError, match=f"^{NO_METHOD} FilteredElementCollector..ctor: "):
        FilteredElementCollector(doc, ids)
    scoped = FilteredElementCollector(doc, element_id_list([i.Value for i in ids]))
    assert scoped.WhereElementIsNotElementType().GetElementCount() == 1


@pytest.mark.parametrize("value", [True, 1, ElementId(7).Value])
def test_an_element_id_is_made_from_an_int_or_a_bool(value):
    assert ElementId(value).Value == int(value)


@pytest.mark.parametrize("value, shown", [("5", "<class 'str'>"), (None, "<class 'NoneType'>"),
                                          (ElementId(5), "<class 'Autodesk.Revit.DB.ElementId'>")])
def test_an_element_id_is_not_made_from_a_string_none_or_another_id(value, shown):
    with pytest.raises(TypeError) as refused:
        ElementId(value)
    assert str(refused.value) == f"{NO_METHOD} ElementId..ctor: ({shown})"


def test_every_settable_bool_property_takes_only_a_bool_and_a_double_takes_an_int():
    from Autodesk.Revit.DB import BoundingBoxXYZ, FormatOptions
    box = BoundingBoxXYZ()
    with pytest.raises(TypeError, match="^'int' value cannot be converted to System.Boolean$"):
        box.Enabled = 1
    box.Enabled = True
    options = FormatOptions()
    options.Accuracy = 1                 # pythonnet widens an int to a double
    assert box.Enabled is True and options.Accuracy == 1


def test_the_documentation_tools_members_refuse_what_the_lane_saw_pythonnet_refuse(doc, make):
    """tests/clr/test_documentation_tools_edge.py observed each of these refusals on pythonnet 3.0.3."""
    from Autodesk.Revit.DB import (BuiltInCategory, HostObjectUtils, IndependentTag, Line, Reference, ReferenceArray,
                                   ShellLayerType, TagOrientation, TextNote, TextNoteType, Transaction, ViewPlan,
                                   ViewSheet)
    wall = make.wall(doc)
    door = make.door(doc, wall)
    plan = next(v for v in FilteredElementCollector(doc).OfClass(ViewPlan) if v.Name == "Level 1")
    tag_type = make.type_of(doc, BuiltInCategory.OST_DoorTags)
    note_type = FilteredElementCollector(doc).OfClass(TextNoteType).FirstElement()
    head = XYZ(10, 0, 0)
    faces = list(HostObjectUtils.GetSideFaces(wall, ShellLayerType.Exterior))
    faces += list(HostObjectUtils.GetSideFaces(wall, ShellLayerType.Interior))
    line = Line.CreateBound(XYZ(5, -5, 0), XYZ(5, 5, 0))
    refused = {
        "an int for addLeader": lambda: IndependentTag.Create(doc, tag_type.Id, plan.Id, Reference(door), 1,
                                                              TagOrientation.Horizontal, head),
        "an int for the orientation": lambda: IndependentTag.Create(doc, tag_type.Id, plan.Id, Reference(door), False,
                                                                    0, head),
        "an int for the text note type": lambda: TextNote.Create(doc, plan.Id, head, "x", note_type.Id.Value),
        "a list for the ReferenceArray": lambda: doc.Create.NewDimension(plan, line, faces),
        "an int for the title block type": lambda: ViewSheet.Create(doc, note_type.Id.Value),
    }
    for what, call in refused.items():
        transaction = Transaction(doc, what)
        transaction.Start()
        try:
            with pytest.raises(TypeError, match=NO_METHOD):
                call()
        finally:
            transaction.RollBack()
    with pytest.raises(ValueError):       # pythonnet: "Invalid enumeration value"
        BuiltInCategory(-1234567)
    references = ReferenceArray()
    for face in faces:
        references.Append(face)
    dimension = make.committed(doc, lambda: doc.Create.NewDimension(plan, line, references))
    assert dimension.NumberOfSegments == 0 and isinstance(dimension.Value, float)
