"""In-Revit checks of layered types and material quantities (the rows of docs/REVIT_BEHAVIOUR.md, "Layers
and materials", that name behaviour_checks/materials.py). The scratch wall is built east of the model,
of a layered wall type the model has, inside the check's group.
"""
from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException

from behaviour_checks import _site as site
from kit import expect, skip, transaction
from paracore.revit.context import id_value

LENGTH, HEIGHT = 20.0, 10.0   # feet: the scratch wall
RELATIVE = 0.01               # Revit's quantities against the check's own figure


def _layered_wall_type(doc):
    """A basic wall type whose layers all have a material (so every layer shows in its quantities)."""
    for wall_type in DB.FilteredElementCollector(doc).OfClass(DB.WallType):
        structure = wall_type.GetCompoundStructure()
        if structure is None or structure.LayerCount < 2:
            continue
        if all(id_value(layer.MaterialId) > 0 for layer in structure.GetLayers()):
            return wall_type
    skip("the model has no basic wall type with two or more layers, each with a material")


def _scratch_wall(doc):
    wall_type = _layered_wall_type(doc)
    level = site.base_level(doc)
    x, y = site.spot(doc)
    with transaction(doc, "Paracore check: layered wall"):
        wall = DB.Wall.Create(doc, site.line((x, y), (x + LENGTH, y), level.Elevation), wall_type.Id, level.Id,
                              HEIGHT, 0.0, False, False)
        doc.Regenerate()
    return wall, wall_type.GetCompoundStructure()


def _close(a, b):
    return abs(a - b) <= RELATIVE * max(abs(a), abs(b), 1e-9)


def layers_add_up_to_the_types_width(scratch):
    doc = scratch.doc
    checked = 0
    for wall_type in DB.FilteredElementCollector(doc).OfClass(DB.WallType):
        structure = wall_type.GetCompoundStructure()
        if structure is None:
            continue
        widths = sum(layer.Width for layer in structure.GetLayers())
        expect(abs(widths - structure.GetWidth()) < 1e-6, f"'{wall_type.Name}': layers {widths} ft, GetWidth "
                                                           f"{structure.GetWidth()} ft")
        expect(abs(wall_type.Width - structure.GetWidth()) < 1e-6,
               f"'{wall_type.Name}': Width {wall_type.Width} ft, its layers {structure.GetWidth()} ft")
        first, last = structure.GetFirstCoreLayerIndex(), structure.GetLastCoreLayerIndex()
        expect(0 <= first <= last < structure.LayerCount, f"'{wall_type.Name}': core {first}..{last} of "
                                                           f"{structure.LayerCount} layers")
        checked += 1
    if not checked:
        skip("the model has no wall type with layers")
    return f"{checked} wall types: layers add up to Width, the core within the layers"


def compound_structure_is_a_copy(scratch):
    doc = scratch.doc
    wall_type = _layered_wall_type(doc)
    first, second = wall_type.GetCompoundStructure(), wall_type.GetCompoundStructure()
    expect(first is not second and first.LayerCount == second.LayerCount, "two calls gave the same object")
    curtain = [t for t in DB.FilteredElementCollector(doc).OfClass(DB.WallType) if t.Kind == DB.WallKind.Curtain]
    for curtain_type in curtain:
        expect(curtain_type.GetCompoundStructure() is None, f"curtain wall type '{curtain_type.Name}' has layers")
    return f"two copies of {first.LayerCount} layers; {len(curtain)} curtain wall type(s) without a structure"


def membranes_are_0_thick(scratch):
    doc = scratch.doc
    membranes = 0
    for host_type in DB.FilteredElementCollector(doc).OfClass(DB.HostObjAttributes):
        structure = host_type.GetCompoundStructure()
        for layer in (structure.GetLayers() if structure is not None else ()):
            membrane = layer.Function == DB.MaterialFunctionAssignment.Membrane
            membranes += membrane
            expect(membrane == (layer.Width == 0), f"'{host_type.Name}': a {layer.Function} layer {layer.Width} ft thick")
    return f"{membranes} membrane layer(s), all 0 thick; no other layer is"


def material_ids_are_the_layers_materials(scratch):
    doc = scratch.doc
    wall, structure = _scratch_wall(doc)
    found = {id_value(i) for i in wall.GetMaterialIds(False)}
    layers = {id_value(layer.MaterialId) for layer in structure.GetLayers()}
    expect(found == layers, f"GetMaterialIds(false) {sorted(found)}, the layers' materials {sorted(layers)}")
    painted = list(wall.GetMaterialIds(True))
    expect(not painted, f"an unpainted wall reports painted materials {painted}")
    return f"{len(found)} materials, those of its layers; none painted"


def material_not_in_the_element_is_0(scratch):
    doc = scratch.doc
    wall, structure = _scratch_wall(doc)
    layers = {id_value(layer.MaterialId) for layer in structure.GetLayers()}
    other = next((m for m in DB.FilteredElementCollector(doc).OfClass(DB.Material) if id_value(m.Id) not in layers), None)
    if other is None:
        skip("every material of the model is in the wall")
    expect(wall.GetMaterialArea(other.Id, False) == 0.0 and wall.GetMaterialVolume(other.Id) == 0.0,
           f"'{other.Name}', not in the wall: area {wall.GetMaterialArea(other.Id, False)}, volume "
           f"{wall.GetMaterialVolume(other.Id)}")
    refusal = site.refused(lambda: wall.GetMaterialVolume(DB.ElementId.InvalidElementId), ArgumentException)
    expect(refusal is not None, "GetMaterialVolume(InvalidElementId) did not raise ArgumentException")
    return f"'{other.Name}': 0.0 and 0.0; InvalidElementId: {refusal}"


def wall_material_area_is_one_face_per_layer(scratch):
    doc = scratch.doc
    wall, structure = _scratch_wall(doc)
    area = wall.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
    # The layers share the wall's Volume by their widths (a free-standing box: area x widths).
    whole = wall.get_Parameter(DB.BuiltInParameter.HOST_VOLUME_COMPUTED).AsDouble()
    width = sum(layer.Width for layer in structure.GetLayers())
    shown = []
    for material_id in wall.GetMaterialIds(False):
        layers = [layer for layer in structure.GetLayers() if id_value(layer.MaterialId) == id_value(material_id)]
        material_area = wall.GetMaterialArea(material_id, False)
        volume = wall.GetMaterialVolume(material_id)
        share = whole * sum(layer.Width for layer in layers) / width
        expect(_close(material_area, len(layers) * area),
               f"material {id_value(material_id)}: area {material_area} ft², {len(layers)} layer(s) x {area} ft²")
        expect(_close(volume, share), f"material {id_value(material_id)}: volume {volume} ft³, the wall's "
                                      f"Volume shared by widths {share} ft³")
        shown.append(f"{len(layers)}x")
    return f"wall area {area:.2f} ft²; each material's area is that per layer ({', '.join(shown)})"


def floor_material_volume_is_area_times_layer(scratch):
    doc = scratch.doc
    checked = 0
    for floor in DB.FilteredElementCollector(doc).OfClass(DB.Floor):
        structure = doc.GetElement(floor.GetTypeId()).GetCompoundStructure()
        if structure is None or id_value(structure.GetMaterialId(0)) <= 0:
            continue
        area = floor.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
        material_id = structure.GetMaterialId(0)
        widths = sum(layer.Width for layer in structure.GetLayers()
                     if id_value(layer.MaterialId) == id_value(material_id))
        volume = floor.GetMaterialVolume(material_id)
        expect(_close(volume, area * widths), f"floor {id_value(floor.Id)}: volume {volume} ft³, area x layer "
                                              f"{area * widths} ft³")
        checked += 1
        if checked == 5:
            break
    if not checked:
        skip("the model has no floor whose type's top layer has a material")
    return f"{checked} floor(s): the top layer's volume is the floor's area x its width"


def roof_volume_is_area_times_thickness(scratch):
    doc = scratch.doc
    checked = []
    for roof in DB.FilteredElementCollector(doc).OfClass(DB.FootPrintRoof):
        structure = doc.GetElement(roof.GetTypeId()).GetCompoundStructure()
        volume = roof.get_Parameter(DB.BuiltInParameter.HOST_VOLUME_COMPUTED)
        if structure is None or volume is None:
            continue
        area = roof.get_Parameter(DB.BuiltInParameter.HOST_AREA_COMPUTED).AsDouble()
        expected = area * structure.GetWidth()
        expect(_close(volume.AsDouble(), expected), f"roof {id_value(roof.Id)}: Volume {volume.AsDouble()} ft³, "
                                                    f"area x thickness {expected} ft³")
        checked.append(id_value(roof.Id))
        if len(checked) == 5:
            break
    if not checked:
        skip("the model has no footprint roof with layers")
    return f"{len(checked)} roof(s): Volume is Area x the type's thickness (within 1%)"


def materials_are_no_model_category(scratch):
    doc = scratch.doc
    category = DB.Category.GetCategory(doc, DB.BuiltInCategory.OST_Materials)
    expect(category is not None and category.CategoryType != DB.CategoryType.Model,
           f"the Materials category is {category.CategoryType if category is not None else None}")
    return f"Materials: {category.CategoryType}"


# The stand-in's CategoryType of each category it makes (docs/REVIT_BEHAVIOUR.md, "A category's
# CategoryType"); sheets, sketch lines, base points and links are undocumented: read here.
_ANNOTATION = ("OST_Levels", "OST_Grids", "OST_TextNotes", "OST_Dimensions", "OST_DoorTags", "OST_WindowTags",
               "OST_RoomTags", "OST_WallTags", "OST_MultiCategoryTags", "OST_TitleBlocks", "OST_Viewports")
_INTERNAL = ("OST_Views", "OST_Schedules", "OST_Materials")
_MODEL = ("OST_Walls", "OST_Doors", "OST_Windows", "OST_Floors", "OST_Roofs", "OST_Ceilings", "OST_Stairs",
          "OST_Rooms", "OST_Furniture", "OST_GenericModel", "OST_Site", "OST_Sheets", "OST_SketchLines",
          "OST_ProjectBasePoint", "OST_SharedBasePoint", "OST_RvtLinks")


def category_types_are_revits(scratch):
    doc = scratch.doc
    wrong = []
    for names, expected in ((_ANNOTATION, DB.CategoryType.Annotation), (_INTERNAL, DB.CategoryType.Internal),
                            (_MODEL, DB.CategoryType.Model)):
        for name in names:
            category = DB.Category.GetCategory(doc, getattr(DB.BuiltInCategory, name))
            if category is not None and category.CategoryType != expected:
                wrong.append(f"{name} is {category.CategoryType}, the stand-in says {expected}")
    expect(not wrong, "; ".join(wrong))
    return f"{len(_ANNOTATION) + len(_INTERNAL) + len(_MODEL)} categories as the stand-in has them"


CHECKS = [
    ("the Materials category is no model category", materials_are_no_model_category),
    ("each category's CategoryType is the stand-in's", category_types_are_revits),
    ("a type's layers add up to its width", layers_add_up_to_the_types_width),
    ("GetCompoundStructure returns a copy, null for curtain walls", compound_structure_is_a_copy),
    ("membrane layers are 0 thick", membranes_are_0_thick),
    ("a wall's materials are its layers'", material_ids_are_the_layers_materials),
    ("a material not in the element is 0", material_not_in_the_element_is_0),
    ("a wall's material area is one face per layer", wall_material_area_is_one_face_per_layer),
    ("a floor's material volume is area x layer", floor_material_volume_is_area_times_layer),
    ("a roof's Volume is its area x its thickness", roof_volume_is_area_times_thickness),
]
