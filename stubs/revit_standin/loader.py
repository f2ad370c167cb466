"""Build stand-in documents: empty projects, and real buildings read from IFC files.

``open_model("duplex")`` loads the bundled sample; any other name is looked up among the
sample buildings (``PARACORE_MODELS`` or the repository's ``../shared/models``), and a path is
read as is. The IFC file is read into plain data by ifc_reader (a sample once per machine:
building_cache), then mapped onto elements here.
"""
from __future__ import annotations

import difflib
import os
from pathlib import Path

from .building_cache import read_building
from .building_data import ArcData, BuildingData, LineData, PropValue
from .errors import CannotOpen
from .family_library import add_family_library
from .layer_functions import infer as infer_layers

MODELS_DIR = Path(__file__).resolve().parent / "models"
DEFAULT_MODEL = "duplex"

_UNIT_SETUP = {  # file length unit -> (metric?, display length unit name)
    "m": (True, "Meters"), "cm": (True, "Centimeters"), "mm": (True, "Millimeters"),
    "ft": (False, "FeetFractionalInches"), "in": (False, "Inches"),
}


def model_search_path() -> list[Path]:
    paths = [MODELS_DIR]
    if os.environ.get("PARACORE_MODELS"):
        paths.append(Path(os.environ["PARACORE_MODELS"]))
    paths.append(Path(__file__).resolve().parents[3] / "shared" / "models")
    return paths


class NotAModelFile(CannotOpen):
    """A path that exists but is no IFC file (a folder, a .rvt, a .txt)."""


def resolve_model(model: str) -> Path:
    """The IFC file for a sample name or a path; a clear error saying what to give otherwise."""
    candidate = Path(model)
    if candidate.is_dir():
        inside = sorted(path.name for path in candidate.glob("*.ifc"))[:5]
        raise NotAModelFile(f"'{model}' is a folder: give an .ifc file"
                            + (f" in it ({', '.join(inside)})." if inside else ", or a sample's name."))
    if candidate.is_file():
        if candidate.suffix.lower() == ".ifc":
            return candidate
        raise NotAModelFile(f"'{model}' is not an IFC file: the stand-in reads buildings Revit exported as IFC "
                            "(.ifc; in Revit: File > Export > IFC). Give an .ifc file, or a sample's name.")
    if candidate.suffix.lower() == ".ifc" or len(candidate.parts) > 1:  # a path, not a sample's name
        raise FileNotFoundError(f"File not found: {model}. Check the path (or give a sample's name instead).")
    for folder in model_search_path():
        for path in sorted(folder.glob("*.ifc")) if folder.is_dir() else ():
            if path.stem.lower() == model.lower():
                return path
    known = sorted({p.stem for f in model_search_path() if f.is_dir() for p in f.glob("*.ifc")})
    searched = ", ".join(str(folder) for folder in model_search_path() if folder.is_dir())
    close = difflib.get_close_matches(model.lower(), [name.lower() for name in known], n=1, cutoff=0.6)
    guess = next((f" (did you mean {name}?)" for name in known if close and name.lower() == close[0]), "")
    raise FileNotFoundError(f"No sample named {model!r}{guess}. Give the path of an .ifc file or one of: "
                            f"{', '.join(known) or '(no sample models found)'}. Samples are the .ifc files in "
                            f"{searched} (set PARACORE_MODELS to a folder of your own).")


# Names that open a new empty project instead of a file (a replay's "model": "new project"), as
# File > New > Project does with Revit's metric or imperial template (RevitHost.open).
NEW_PROJECTS = {"new project": True, "new metric project": True, "new imperial project": False}


def open_model(model: str, application):
    path = resolve_model(model)
    return build_document(read_building(path, model_search_path()), application)


def new_document(application, title: str = "Project1", metric: bool = True):
    """An empty project with one level, default types and views, like Revit's template."""
    from Autodesk.Revit.DB import DisplayUnit, Document
    document = Document(application, title, "", DisplayUnit.METRIC if metric else DisplayUnit.IMPERIAL)
    builder = _Builder(document)
    builder.add_view_family_types()
    level = builder.add_level("Level 1", 0.0)
    builder.add_level("Level 2", 10.0)
    builder.add_default_types()
    builder.add_views()
    add_site(document)
    add_family_library(document)
    add_ceiling_plan_type(document)
    document._active_view_id = builder.first_plan_for(level)
    builder.add_structural_types()
    return document


def add_ceiling_plan_type(document) -> None:
    """The "Ceiling Plan" view family type of Revit's templates (ViewPlan.Create makes a level's
    ceiling plan with it, as Revit's UI does for a new level). Made last, after every other element
    of a loaded model, so that the elements keep the ids they had before it was added."""
    from Autodesk.Revit.DB import BuiltInCategory, ViewFamily, ViewFamilyType
    document._load_element(ViewFamilyType, {
        "name": "Ceiling Plan", "category": BuiltInCategory.OST_Views.value, "view_family": ViewFamily.CeilingPlan.value,
        "params": {"Type Name": "Ceiling Plan", "Family Name": ViewFamily.CeilingPlan.name}})


def add_site(document, position=(0.0, 0.0, 0.0, 0.0)) -> None:
    """The project location (shared coordinates at ``position``) and the two base points; and the
    section view family type, the "<Solid fill>" drafting pattern and the DWG/DXF export setup every
    Revit template carries."""
    from Autodesk.Revit.DB._cad_export import add_template_setup
    from Autodesk.Revit.DB._fill_patterns import add_solid_fill
    from Autodesk.Revit.DB._locations import add_site as add
    from Autodesk.Revit.DB._sections import add_section_type
    add(document, position)
    add_section_type(document)
    add_solid_fill(document)
    add_template_setup(document)   # its DWG/DXF export setup


def build_document(building: BuildingData, application):
    from Autodesk.Revit.DB import DisplayUnit, Document
    metric, length_unit = _UNIT_SETUP.get(building.length_unit, (True, "Millimeters"))
    document = Document(application, building.name or Path(building.source_path).stem,
                        building.source_path, DisplayUnit.METRIC if metric else DisplayUnit.IMPERIAL)
    _set_length_unit(document, length_unit)
    _Builder(document).build(building)
    return document


def _set_length_unit(document, unit_name: str) -> None:
    from Autodesk.Revit.DB import SpecTypeId, UnitTypeId
    units = document._units             # loading is not a transaction: the document's own Units
    options = units.GetFormatOptions(SpecTypeId.Length)
    options.SetUnitTypeId(getattr(UnitTypeId, unit_name))
    units.SetFormatOptions(SpecTypeId.Length, options)


class _Builder:
    """Maps building data onto elements. Loading is not a transaction: nothing to undo."""

    def __init__(self, document):
        self.document = document
        self.levels: dict[str, object] = {}
        self.types: dict[str, object] = {}
        self.families: dict[tuple[str, str], object] = {}
        self.hosts: dict[str, object] = {}
        self.view_family_types: dict[str, object] = {}
        self.materials: dict[str, int] = {}     # material name -> Material element id
        self.layered: list[tuple[object, list]] = []   # (type element, its IFC layers), filled last

    # -- whole building -------------------------------------------------------------------------
    def build(self, building: BuildingData) -> None:
        from Autodesk.Revit.DB import BuiltInCategory
        self.add_view_family_types()
        for level in sorted(building.levels, key=lambda lv: lv.elevation):
            self.levels[level.key] = self.add_level(level.name, level.elevation, level.params, level.key)
        widths = _widths_by_type(building)
        for type_data in building.types:
            self.types[type_data.key] = self.add_type(type_data, widths.get(type_data.key))
        self.add_default_types()
        for wall in building.walls:
            self.hosts[wall.key] = self.add_wall(wall)
        for floor in building.floors:
            self.hosts[floor.key] = self.add_floor(floor)
        for opening in building.openings:
            self.add_opening(opening)
        self.keep_wall_bodies(building.walls)
        for room in building.rooms:
            self.add_room(room)
        for element in building.elements:
            self.add_other(element)
        self.add_views()
        add_site(self.document, building.project_position)
        add_family_library(self.document)
        first_level = next(iter(self.levels.values()), None)
        if first_level is not None:
            self.document._active_view_id = self.first_plan_for(first_level)
        self.add_materials(building.materials)
        self.add_structural_types()
        add_ceiling_plan_type(self.document)
        assert BuiltInCategory  # imported for the type map below

    # -- levels, types and views --------------------------------------------------------------------
    def add_level(self, name, elevation, params=None, key=None):
        from Autodesk.Revit.DB import BuiltInCategory, Level
        state = {"name": name, "category": BuiltInCategory.OST_Levels.value, "unique_id": key,
                 "params": {"Name": name, "Elevation": float(elevation), "Building Story": 1}}
        return self._load(Level, state, params)

    def add_view_family_types(self):
        from Autodesk.Revit.DB import BuiltInCategory, ViewFamily, ViewFamilyType
        for name, family in (("Floor Plan", ViewFamily.FloorPlan), ("3D View", ViewFamily.ThreeDimensional),
                             ("Schedule", ViewFamily.Schedule)):
            self.view_family_types[name] = self.document._load_element(ViewFamilyType, {
                "name": name, "category": BuiltInCategory.OST_Views.value, "view_family": family.value,
                "params": {"Type Name": name, "Family Name": family.name}})

    def add_views(self):
        from Autodesk.Revit.DB import BuiltInCategory, View3D, ViewPlan, ViewType
        plan_type = self.view_family_types["Floor Plan"]._id
        for level in sorted(self.document._elements_of_category(BuiltInCategory.OST_Levels.value),
                            key=lambda lv: lv.Elevation):
            self.document._load_element(ViewPlan, _view(level.Name, ViewType.FloorPlan, plan_type, level._id))
        self.document._load_element(View3D, _view("{3D}", ViewType.ThreeD,
                                                  self.view_family_types["3D View"]._id, -1))
        self.add_view_templates()

    def add_view_templates(self):
        """The view templates of Revit's architectural template, with what they control: a view
        they are applied to takes their scale and detail level (the views start at 1:100, Coarse)."""
        from Autodesk.Revit.DB import View3D, ViewDetailLevel, ViewPlan, ViewType
        for cls, name, view_type, family, scale, detail in (
                (ViewPlan, "Architectural Plan", ViewType.FloorPlan, "Floor Plan", 50, ViewDetailLevel.Medium),
                (ViewPlan, "Site Plan", ViewType.FloorPlan, "Floor Plan", 200, ViewDetailLevel.Coarse),
                (View3D, "3D Default", ViewType.ThreeD, "3D View", 100, ViewDetailLevel.Fine)):
            state = _view(name, view_type, self.view_family_types[family]._id, -1)
            state["params"]["View Scale"] = scale
            state.update(is_template=True, detail_level=detail.value)
            self.document._load_element(cls, state)

    def first_plan_for(self, level) -> int:
        from Autodesk.Revit.DB import BuiltInCategory, ViewPlan
        return next(v._id for v in self.document._elements_of_category(BuiltInCategory.OST_Views.value)
                    if isinstance(v, ViewPlan) and v._state["level_id"] == level._id)

    def add_materials(self, names) -> None:
        """The file's materials as Material elements, and the layered types' layers that use them.
        Made after every other element, so that the elements keep the ids they had before materials
        were read (tests and the issue name walls by id)."""
        for name in names:
            self.add_material(name)
        for element_type, layers in self.layered:
            element_type._state = {**element_type._state, **self._layers(layers)}

    def add_material(self, name: str) -> int:
        """The Material element called ``name`` (made on first use)."""
        from Autodesk.Revit.DB import BuiltInCategory, Material
        if name not in self.materials:
            self.materials[name] = self.document._load_element(Material, {
                "name": name, "category": BuiltInCategory.OST_Materials.value, "params": {}})._id
        return self.materials[name]

    def add_type(self, data, width=None):
        from Autodesk.Revit.DB import CeilingType, FamilySymbol, FloorType, RoofType, WallType
        category = _category(data.category)
        params = {"Type Name": data.type_name, "Family Name": data.family_name}
        state = {"name": data.type_name, "category": category, "params": params}
        cls = {"Walls": WallType, "Floors": FloorType, "Roofs": RoofType, "Ceilings": CeilingType}.get(data.category)
        if data.category == "Structural Foundations" and data.family_name == "Wall Foundation":
            from Autodesk.Revit.DB import WallFoundationType
            # Revit's wall foundation types are a system family (WallFoundationType); the family
            # element is still made, so that every element after it keeps its id.
            self._family(data.category, data.family_name)
            cls = WallFoundationType
        if cls is WallType:
            state["width"] = width or _length_param(data.params, "Width") or 0.5
        elif cls is FloorType:
            state["thickness"] = width or _length_param(data.params, "Default Thickness") or 1.0
        elif cls is RoofType:
            state["thickness"] = width or _length_param(data.params, "Default Thickness") or 0.0
        if cls is None or cls is CeilingType:
            # A ceiling type was read as a family type before it had layers: its family element is
            # still made, so that every element after it keeps its id (tests and the issue name
            # walls by id); nothing reads it through the type.
            cls = cls or FamilySymbol
            state["family_id"] = self._family(data.category, data.family_name)._id
        element = self._load(cls, state, data.params)
        if cls is not FamilySymbol and data.layers:
            self.layered.append((element, data.layers))
        return element

    def _layers(self, layers) -> dict:
        """A layered type's state: its layers (material id, width, function) and core, the functions
        and core inferred from the IFC layer set (layer_functions); none without a layer set."""
        if not layers:
            return {}
        inferred = infer_layers(layers)
        return {"layers": tuple((self.add_material(layer.material) if layer.material else -1, layer.thickness, function)
                                for layer, function in zip(layers, inferred.functions)),
                "core": (inferred.first_core, inferred.last_core)}

    def _family(self, category_name: str, family_name: str):
        from Autodesk.Revit.DB import Family
        key = (category_name, family_name)
        if key not in self.families:
            # A Family element has no category of its own in Revit, only a FamilyCategory.
            self.families[key] = self.document._load_element(Family, {
                "name": family_name, "family_category": _category(category_name)})
        return self.families[key]

    def add_default_types(self):
        """The types Revit's template always has, so creation tools work on any model."""
        from Autodesk.Revit.DB import BuiltInCategory, FamilySymbol, FloorType, WallType
        existing = {(e._state.get("category"), type(e)) for e in self.document._elements.values()}
        defaults = [
            # one Structure layer whose material is <By Category> (no material element)
            (WallType, "Walls", "Basic Wall", "Generic - 200mm",
             {"width": 200 / 304.8, "layers": ((-1, 200 / 304.8, 1),), "core": (0, 0)}),
            (FloorType, "Floors", "Floor", "Generic 150mm",
             {"thickness": 150 / 304.8, "layers": ((-1, 150 / 304.8, 1),), "core": (0, 0)}),
            # Function: the door template's default, Interior (0); a window type has none
            (FamilySymbol, "Doors", "Single-Flush", "0915 x 2134mm",
             {"Width": 915 / 304.8, "Height": 2134 / 304.8, "Function": 0}),
            (FamilySymbol, "Windows", "Fixed", "0915 x 1220mm",
             {"Width": 915 / 304.8, "Height": 1220 / 304.8}),
        ]
        for cls, category_name, family, name, extra in defaults:
            category = _category(category_name)
            if (category, cls) in existing:
                continue
            params = {"Type Name": name, "Family Name": family}
            state = {"name": name, "category": category, "params": params}
            if cls is FamilySymbol:
                params.update({k: v for k, v in extra.items()})
                state["family_id"] = self._family(category_name, family)._id
            else:
                state.update(extra)
            self.document._load_element(cls, state)
        self.add_title_blocks()
        self.add_annotation_types()
        assert BuiltInCategory

    def add_structural_types(self):
        """Autodesk's metric structural content, for a model without such types of its own: a concrete
        column (M_Concrete-Rectangular-Column 300 x 450mm), a concrete beam (M_Concrete-Rectangular
        Beam 300 x 600mm), an isolated footing (M_Footing-Rectangular 1800 x 1200 x 450mm) and Revit's
        wall foundation type (Bearing Footing - 900 x 300). Made after every other element, so that
        the elements read from the file keep their ids."""
        from Autodesk.Revit.DB import FamilySymbol, WallFoundationType
        present = {(e._state.get("category"), type(e)) for e in self.document._elements.values()}
        mm = 1 / 304.8
        for category_name, family, name, params in (
                ("Structural Columns", "M_Concrete-Rectangular-Column", "300 x 450mm", {"b": 300 * mm, "h": 450 * mm}),
                ("Structural Framing", "M_Concrete-Rectangular Beam", "300 x 600mm", {"b": 300 * mm, "h": 600 * mm}),
                ("Structural Foundations", "M_Footing-Rectangular", "1800 x 1200 x 450mm",
                 {"Width": 1800 * mm, "Length": 1200 * mm, "Foundation Thickness": 450 * mm})):
            category = _category(category_name)
            if (category, FamilySymbol) in present:
                continue
            self.document._load_element(FamilySymbol, {
                "name": name, "category": category, "family_id": self._family(category_name, family)._id,
                "params": {"Type Name": name, "Family Name": family, **params}})
        category = _category("Structural Foundations")
        if (category, WallFoundationType) not in present:
            self.document._load_element(WallFoundationType, {
                "name": "Bearing Footing - 900 x 300", "category": category,
                "params": {"Type Name": "Bearing Footing - 900 x 300", "Family Name": "Wall Foundation",
                           "Width": 900 * mm, "Foundation Thickness": 300 * mm}})

    def add_title_blocks(self):
        """Revit's metric template's title blocks: ISO A1 and A3 sheets (sizes in feet)."""
        from Autodesk.Revit.DB import FamilySymbol
        category = _category("Title Blocks")
        if self.document._elements_of_category(category):
            return
        for family, name, (width, height) in (("A1 metric", "A1", (841, 594)), ("A3 metric", "A3", (420, 297))):
            self.document._load_element(FamilySymbol, {
                "name": name, "category": category, "family_id": self._family("Title Blocks", family)._id,
                "sheet_size": (width / 304.8, height / 304.8), "params": {"Type Name": name, "Family Name": family}})

    def add_annotation_types(self):
        """The metric template's tag types (one per taggable category, and a multi-category tag)
        and a text note type, so that every model can be annotated."""
        from Autodesk.Revit.DB import FamilySymbol, TextNoteType
        tags = (("Door Tags", "M_Door Tag"), ("Window Tags", "M_Window Tag"), ("Room Tags", "M_Room Tag"),
                ("Wall Tags", "M_Wall Tag"), ("Multi-Category Tags", "M_Multi-Category Tag"))
        for category_name, family in tags:
            category = _category(category_name)
            if self.document._elements_of_category(category):
                continue
            self.document._load_element(FamilySymbol, {
                "name": family, "category": category, "family_id": self._family(category_name, family)._id,
                "params": {"Type Name": family, "Family Name": family}})
        text_notes = _category("Text Notes")
        if not self.document._elements_of_category(text_notes):
            self.document._load_element(TextNoteType, {
                "name": "2.5mm Arial", "category": text_notes, "params": {"Type Name": "2.5mm Arial"}})

    # -- instances -------------------------------------------------------------------------------------
    def add_wall(self, data):
        from Autodesk.Revit.DB import BuiltInCategory, Wall
        level = self.levels.get(data.level_key) or self._lowest_level()
        top = self.levels.get(data.top_level_key)
        params = {"Base Constraint": level._id, "Base Offset": 0.0,
                  "Top Constraint": top._id if top is not None else -1, "Top Offset": 0.0,
                  "Unconnected Height": data.height or 10.0, "Location Line": 0,
                  "Room Bounding": 1, "Structural": 0}
        state = {"name": self._type_name(data.type_key, data.name), "category": BuiltInCategory.OST_Walls.value,
                 "level_id": level._id, "type_id": self._type_id(data.type_key, "Walls"),
                 "location": _curve(data.curve), "unique_id": data.key, "params": params}
        return self._load(Wall, state, data.params)

    def keep_wall_bodies(self, walls) -> None:
        """Each wall keeps the body the file exported (its Area and Volume, net of its openings, are
        that body's while its shape is unchanged), once its doors and windows are in."""
        for data in walls:
            if data.body_area is not None and data.body_volume is not None:
                self.hosts[data.key]._keep_body(data.body_area, data.body_volume)

    def add_floor(self, data):
        from Autodesk.Revit.DB import BuiltInCategory, Floor, FootPrintRoof
        level = self.levels.get(data.level_key) or self._lowest_level()
        roof = data.category == "Roofs"
        state = {"name": self._type_name(data.type_key, data.name),
                 "category": (BuiltInCategory.OST_Roofs if roof else BuiltInCategory.OST_Floors).value,
                 "level_id": level._id, "type_id": self._type_id(data.type_key, data.category),
                 "boundary": (tuple(data.boundary),) if data.boundary else None, "area": data.area or 0.0,
                 "unique_id": data.key,
                 "params": {} if roof else {"Height Offset From Level": 0.0, "Structural": 0}}
        return self._load(FootPrintRoof if roof else Floor, state, data.params)

    def add_opening(self, data):
        from Autodesk.Revit.DB import XYZ, FamilyInstance
        level = self.levels.get(data.level_key) or self._lowest_level()
        host = self.hosts.get(data.host_wall_key or data.host_key)
        state = {"name": self._type_name(data.type_key, data.name), "category": _category(data.category),
                 "level_id": level._id, "type_id": self._type_id(data.type_key, data.category),
                 "host_id": host._id if host is not None else None, "location": XYZ(*data.location),
                 "rotation": data.rotation, "unique_id": data.key,
                 "params": {"Sill Height": data.sill_height or 0.0}}
        return self._load(FamilyInstance, state, data.params)

    def add_room(self, data):
        from Autodesk.Revit.DB import XYZ, BuiltInCategory
        from Autodesk.Revit.DB.Architecture import Room
        level = self.levels.get(data.level_key) or self._lowest_level()
        params = {"Name": data.name, "Number": data.number, "Area": data.area or 0.0,
                  "Perimeter": _perimeter(data.boundary)}
        state = {"name": data.name, "category": BuiltInCategory.OST_Rooms.value, "level_id": level._id,
                 "location": XYZ(*data.location) if data.location else None, "unique_id": data.key,
                 "ifc_boundary": tuple(data.boundary) if data.boundary else None, "params": params,
                 "ifc_height": data.height}
        return self._load(Room, state, data.params)

    def add_other(self, data):
        from Autodesk.Revit.DB import XYZ, FamilyInstance
        from Autodesk.Revit.DB.Architecture import Railing, Stairs
        # Revit's stairs and railings are no family instances (docs/REVIT_BEHAVIOUR.md, Rooms)
        cls = {"Stairs": Stairs, "Railings": Railing}.get(data.category, FamilyInstance)
        if data.category == "Structural Foundations" and self._is_wall_foundation_type(data.type_key):
            from Autodesk.Revit.DB import WallFoundation
            cls = WallFoundation   # the file does not say which wall: its WallId is invalid
        level = self.levels.get(data.level_key) or self._lowest_level()
        location = _curve(data.curve) if data.curve else (XYZ(*data.location) if data.location else None)
        state = {"name": self._type_name(data.type_key, data.name), "category": _category(data.category),
                 "level_id": level._id if level is not None else -1,
                 "type_id": self._type_id(data.type_key, data.category) if data.type_key else -1,
                 "location": location, "rotation": data.rotation, "unique_id": data.key, "params": {}}
        if data.boundary:
            state["boundary"] = (tuple(data.boundary),)
        if data.box:
            state["box"] = data.box
        if cls.__name__ == "WallFoundation":
            state["file_length"] = _length_param(data.params, "Length")   # its Length while it names no wall
        return self._load(cls, state, data.params)

    # -- helpers ------------------------------------------------------------------------------------------
    def _load(self, cls, state, params):
        if state.get("unique_id") and any(d.name == "IfcGUID" for d in cls._PARAMS):
            state["params"]["IfcGUID"] = state["unique_id"]
        element = self.document._load_element(cls, state)
        if params:
            _apply_params(self.document, element, params, self._level_by_name)
        return element

    def _level_by_name(self, name: str):
        for level in self.levels.values():
            if level.Name == name:
                return level
        return None

    def _is_wall_foundation_type(self, type_key) -> bool:
        from Autodesk.Revit.DB import WallFoundationType
        return isinstance(self.types.get(type_key), WallFoundationType)

    def _lowest_level(self):
        return next(iter(self.levels.values()), None)

    def _type_id(self, type_key, category_name) -> int:
        element_type = self.types.get(type_key)
        if element_type is None:
            raise ValueError(f"The building refers to a {category_name} type {type_key!r} it does not define.")
        return element_type._id

    def _type_name(self, type_key, fallback) -> str:
        element_type = self.types.get(type_key)
        return element_type.Name if element_type is not None else fallback


def _view(name, view_type, family_type_id, level_id) -> dict:
    from Autodesk.Revit.DB import BuiltInCategory
    return {"name": name, "category": BuiltInCategory.OST_Views.value, "view_type": view_type.value,
            "type_id": family_type_id, "level_id": level_id,
            "params": {"View Name": name, "View Scale": 100}}


def _category(name: str) -> int:
    from Autodesk.Revit.DB import BuiltInCategory
    from Autodesk.Revit.DB._element import CATEGORY_NAMES
    for bic, label in CATEGORY_NAMES.items():
        if label == name:
            return bic.value
    return BuiltInCategory.OST_GenericModel.value


def _curve(data):
    from Autodesk.Revit.DB import XYZ, Arc, Line
    if isinstance(data, LineData):
        return Line(XYZ(*data.start), XYZ(*data.end))
    if isinstance(data, ArcData):
        return Arc.Create(XYZ(*data.start), XYZ(*data.end), XYZ(*data.mid))
    raise ValueError(f"Unknown curve data {data!r}")


def _perimeter(boundary) -> float:
    if not boundary:
        return 0.0
    points = list(boundary) + [boundary[0]]
    return sum(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 for (x0, y0), (x1, y1) in zip(points, points[1:]))


def _length_param(params, name):
    value = params.get(name)
    return float(value.value) if isinstance(value, PropValue) and value.kind == "length" and value.value else None


def _widths_by_type(building) -> dict:
    widths = {}
    for wall in building.walls:
        if wall.width and wall.type_key not in widths:
            widths[wall.type_key] = wall.width
    for floor in building.floors:
        if floor.thickness and floor.type_key not in widths:
            widths[floor.type_key] = floor.thickness
    for opening in building.openings:
        if opening.type_key not in widths:
            widths[opening.type_key] = None
    return widths


# -- parameters -------------------------------------------------------------------------------------------
_LEVEL_PREFIXES = ("Up to level: ", "Level: ")


def _apply_params(document, element, params: dict, level_by_name) -> None:
    """Put IFC property values on the element: built-in ones where Revit has them, the rest as
    project parameters. Values Revit computes (Length, Area...) are left to the element."""
    from Autodesk.Revit.DB import StorageType
    builtins = {d.name: d for d in element._definitions()}
    values = dict(element._state["params"])
    custom = list(element._state.get("custom_params", ()))
    for name, prop in params.items():
        definition = builtins.get(name)
        if definition is None and _put_on_type(document, element, name, prop, StorageType):
            continue
        if definition is None:
            if name not in custom:
                document._define_custom_parameter(name, prop.kind)
                custom.append(name)
            values[name] = _custom_value(document._custom_definition(name), prop, StorageType)
            continue
        if definition.computed or prop.value is None:
            continue
        value = _builtin_value(definition, prop, level_by_name, StorageType)
        if value is not None:
            values[name] = value
    element._state = {**element._state, "params": values, "custom_params": tuple(custom)}
    # A wall's level is its Base Constraint. Only Revit's own (an ElementId, stored as an int):
    # an element that carries "Base Constraint" as a property of its own (an in-place or curtain
    # wall exported as a family instance) keeps the level it is contained in.
    base = values.get("Base Constraint")
    if element._state.get("category") is not None and "Base Constraint" in builtins and isinstance(base, int):
        element._state["level_id"] = base


def _put_on_type(document, element, name, prop, StorageType) -> bool:  # noqa: N803
    """An enumerated type parameter (a floor type's Function) some exports write on the instance:
    Revit holds it on the type, an Integer shown by its name, not a text parameter of the instance."""
    element_type = document._elements.get(element._state.get("type_id"))
    if element_type is None or prop.value is None:
        return False
    definition = next((d for d in element_type._definitions() if d.name == name and d.choices), None)
    if definition is None:
        return False
    value = _builtin_value(definition, prop, lambda _: None, StorageType)
    if value is None:
        return False
    if element_type._state["params"].get(name) is None:
        element_type._state = {**element_type._state, "params": {**element_type._state["params"], name: value}}
    return True


def _builtin_value(definition, prop, level_by_name, StorageType):  # noqa: N803
    storage, value = definition.storage, prop.value
    if storage == StorageType.String:
        return str(value)
    if storage == StorageType.Double:
        if isinstance(value, str):
            # Some exports write a quantity as a label holding Revit's internal value (a ceiling's
            # Area "613.91", square feet): Revit's parameter is the number, a Double.
            return _number_in(value)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if storage == StorageType.Integer:
        if isinstance(value, str) and definition.choices:
            return definition.choices.index(value) if value in definition.choices else None
        return int(value) if isinstance(value, (int, float, bool)) else None
    if storage == StorageType.ElementId and isinstance(value, str):
        name = value
        for prefix in _LEVEL_PREFIXES:
            if name.startswith(prefix):
                name = name[len(prefix):]
        if name == "Unconnected":
            return -1
        level = level_by_name(name)
        return level._id if level is not None else None
    return None


def _number_in(text: str):
    try:
        return float(text)
    except ValueError:
        return None


def _custom_value(definition, prop, StorageType):  # noqa: N803 - the caller's import, not one per value
    value = prop.value
    if value is None:
        return None
    if definition.storage == StorageType.String:
        return str(value)
    if definition.storage == StorageType.Integer:
        return int(value) if isinstance(value, (int, float, bool)) else None
    return float(value) if isinstance(value, (int, float)) else None
