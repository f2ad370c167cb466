"""Element, ElementType, Category and Location: what every element in the model shares.

An element's mutable state lives in one dict, ``_state``, whose values are treated as
immutable (a parameter change replaces the ``params`` dict). The open transaction snapshots
``_state`` before the first change, which is all that rollback and undo need.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from . import _params
from ._enums import BuiltInCategory, BuiltInParameter, CategoryType
from ._geometry import XYZ, Curve, Line, Transform
from ._ids import ElementId

CATEGORY_NAMES = {
    BuiltInCategory.OST_Walls: "Walls", BuiltInCategory.OST_Doors: "Doors",
    BuiltInCategory.OST_Windows: "Windows", BuiltInCategory.OST_Floors: "Floors",
    BuiltInCategory.OST_Roofs: "Roofs", BuiltInCategory.OST_Ceilings: "Ceilings",
    BuiltInCategory.OST_Rooms: "Rooms", BuiltInCategory.OST_Levels: "Levels",
    BuiltInCategory.OST_Grids: "Grids", BuiltInCategory.OST_Stairs: "Stairs",
    BuiltInCategory.OST_StairsRailing: "Railings", BuiltInCategory.OST_Railings: "Railings",
    BuiltInCategory.OST_Ramps: "Ramps", BuiltInCategory.OST_Columns: "Columns",
    BuiltInCategory.OST_StructuralColumns: "Structural Columns",
    BuiltInCategory.OST_StructuralFraming: "Structural Framing",
    BuiltInCategory.OST_StructuralFoundation: "Structural Foundations",
    BuiltInCategory.OST_Furniture: "Furniture", BuiltInCategory.OST_Casework: "Casework",
    BuiltInCategory.OST_GenericModel: "Generic Models",
    BuiltInCategory.OST_CurtainWallPanels: "Curtain Panels",
    BuiltInCategory.OST_CurtainWallMullions: "Curtain Wall Mullions",
    BuiltInCategory.OST_PlumbingFixtures: "Plumbing Fixtures",
    BuiltInCategory.OST_SpecialityEquipment: "Specialty Equipment",
    BuiltInCategory.OST_MechanicalEquipment: "Mechanical Equipment",
    BuiltInCategory.OST_LightingFixtures: "Lighting Fixtures",
    BuiltInCategory.OST_ElectricalFixtures: "Electrical Fixtures",
    BuiltInCategory.OST_ElectricalEquipment: "Electrical Equipment",
    BuiltInCategory.OST_Site: "Site", BuiltInCategory.OST_Planting: "Planting",
    BuiltInCategory.OST_Entourage: "Entourage", BuiltInCategory.OST_Views: "Views",
    BuiltInCategory.OST_Schedules: "Schedules", BuiltInCategory.OST_Materials: "Materials",
    BuiltInCategory.OST_TitleBlocks: "Title Blocks", BuiltInCategory.OST_Sheets: "Sheets",
    BuiltInCategory.OST_Viewports: "Viewports",
    BuiltInCategory.OST_DoorTags: "Door Tags", BuiltInCategory.OST_WindowTags: "Window Tags",
    BuiltInCategory.OST_RoomTags: "Room Tags", BuiltInCategory.OST_WallTags: "Wall Tags",
    BuiltInCategory.OST_MultiCategoryTags: "Multi-Category Tags", BuiltInCategory.OST_TextNotes: "Text Notes",
    BuiltInCategory.OST_Dimensions: "Dimensions", BuiltInCategory.OST_SketchLines: "<Sketch>",
    BuiltInCategory.OST_ProjectBasePoint: "Project Base Point", BuiltInCategory.OST_SharedBasePoint: "Survey Point",
    BuiltInCategory.OST_RvtLinks: "RVT Links",
}


# Revit's annotation categories: drawn in one view or on a sheet ("Annotation Categories include
# dimensions, grids, levels, and textnotes", Autodesk's API guide), tags, title blocks, viewports.
ANNOTATION_CATEGORIES = frozenset((
    BuiltInCategory.OST_Levels, BuiltInCategory.OST_Grids, BuiltInCategory.OST_TextNotes,
    BuiltInCategory.OST_Dimensions, BuiltInCategory.OST_DoorTags, BuiltInCategory.OST_WindowTags,
    BuiltInCategory.OST_RoomTags, BuiltInCategory.OST_WallTags, BuiltInCategory.OST_MultiCategoryTags,
    BuiltInCategory.OST_TitleBlocks, BuiltInCategory.OST_Viewports,
))
# Categories Revit does not draw: internal. Materials too (no object style, not drawn).
INTERNAL_CATEGORIES = frozenset((BuiltInCategory.OST_Views, BuiltInCategory.OST_Schedules,
                                 BuiltInCategory.OST_Materials))


def _not_modifiable(message: str):
    from Autodesk.Revit.Exceptions import ModificationOutsideTransactionException
    return ModificationOutsideTransactionException(message)


@api_class
class Category:
    """A built-in category of one document (equal by id)."""

    def __init__(self, document, bic: BuiltInCategory):
        self._document = document
        self._bic = bic

    @property
    def Id(self) -> ElementId:  # noqa: N802
        return ElementId(self._bic)

    @property
    def Name(self) -> str:  # noqa: N802
        return CATEGORY_NAMES.get(self._bic, self._bic.name.replace("OST_", ""))

    @property
    def BuiltInCategory(self):  # noqa: N802
        return self._bic

    @property
    def CategoryType(self):  # noqa: N802
        if self._bic in ANNOTATION_CATEGORIES:
            return CategoryType.Annotation
        if self._bic in INTERNAL_CATEGORIES:
            return CategoryType.Internal
        return CategoryType.Model

    @staticmethod
    def GetCategory(document, categoryId):  # noqa: N802, N803
        bic = categoryId if isinstance(categoryId, BuiltInCategory) else BuiltInCategory(categoryId._value)
        return Category(document, bic)

    def __eq__(self, other):
        return isinstance(other, Category) and other._bic == self._bic

    def __hash__(self):
        return hash(self._bic)

    def __repr__(self):
        return f"<Category {self.Name}>"


@api_class
class Location:
    """Base of LocationPoint and LocationCurve: a view on the owning element's placement."""

    def __init__(self, element):
        self._element = element

    @property
    def _deleted(self) -> bool:
        # Like a Parameter, a Location is a view on its element: invalid once the element is.
        return self._element._deleted

    def Move(self, translation: XYZ) -> bool:  # noqa: N802
        self._element._apply_transform(Transform.CreateTranslation(translation))
        return True

    def Rotate(self, axis: Line, angle: float) -> bool:  # noqa: N802
        transform = Transform.CreateRotationAtPoint(axis.Direction, angle, axis.Origin)
        self._element._apply_transform(transform)
        return True


@api_class
class LocationPoint(Location):
    @property
    def Point(self) -> XYZ:  # noqa: N802
        return self._element._state["location"]

    @Point.setter
    def Point(self, value: XYZ):  # noqa: N802
        self._element._update_state(location=value)

    @property
    def Rotation(self) -> float:  # noqa: N802
        return self._element._state.get("rotation", 0.0)


@api_class
class LocationCurve(Location):
    @property
    def Curve(self) -> Curve:  # noqa: N802
        return self._element._state["location"]

    @Curve.setter
    def Curve(self, value: Curve):  # noqa: N802
        self._element._update_state(location=value)


@api_class
class Element:
    """Base of every element. Subclasses declare their parameters in ``_PARAMS``."""

    _PARAMS: tuple = _params.PLAIN

    def __init__(self, document, element_id: int, state: dict):
        self._document = document
        self._id = element_id
        self._state = state
        self._deleted = False

    # -- identity ---------------------------------------------------------------------------
    @property
    def Id(self) -> ElementId:  # noqa: N802
        return ElementId(self._id)

    @property
    def UniqueId(self) -> str:  # noqa: N802
        return self._state.get("unique_id") or f"standin-{self._document._uid}-{self._id:08d}"

    @property
    def Document(self):  # noqa: N802
        return self._document

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return not self._deleted

    @property
    def Name(self) -> str:  # noqa: N802
        return self._state.get("name", "")

    @Name.setter
    def Name(self, name: str):  # noqa: N802
        if not name:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("The name cannot be empty.", "name")
        self._update_state(name=name)

    @property
    def Category(self):  # noqa: N802
        bic = self._state.get("category")
        return None if bic is None else Category(self._document, BuiltInCategory(bic))

    @property
    def WorksetId(self):  # noqa: N802
        """The element's user workset; InvalidWorksetId in a document that is not workshared."""
        from ._worksets import WorksetId
        if self._document._central is None:
            return WorksetId.InvalidWorksetId
        return WorksetId(self._state.get("workset", self._document._active_workset))

    @property
    def LevelId(self) -> ElementId:  # noqa: N802
        return ElementId(self._state.get("level_id", -1))

    @property
    def OwnerViewId(self) -> ElementId:  # noqa: N802
        """The view a view-specific element belongs to (a sheet's title block and viewports);
        InvalidElementId for model elements."""
        owner = self._state.get("owner_view_id")
        return ElementId(-1 if owner is None else owner)

    @property
    def Location(self):  # noqa: N802
        location = self._state.get("location")
        if isinstance(location, XYZ):
            return LocationPoint(self)
        if isinstance(location, Curve):
            return LocationCurve(self)
        return None

    def get_BoundingBox(self, view):  # noqa: N802
        """The element's box in model coordinates (``view`` None: the model's; a view: the same box
        here, the stand-in has no view-specific geometry). None where the stand-in knows no extent
        (Revit: "if the element has no geometry"): it knows a plan outline's (floors, roofs,
        ceilings) and a room's; see _spatial.extent_box."""
        from ._spatial import extent_box
        return extent_box(self)

    @property
    def Pinned(self) -> bool:  # noqa: N802
        return bool(self._state.get("pinned", False))

    @property
    def ViewSpecific(self) -> bool:  # noqa: N802
        """True for an element that belongs to one view (a tag, a text note, a dimension, a sheet's
        title block and viewports): its OwnerViewId is that view."""
        return self._state.get("owner_view_id") is not None

    def GetTypeId(self) -> ElementId:  # noqa: N802
        return ElementId(self._state.get("type_id", -1))

    def ChangeTypeId(self, typeId: ElementId) -> ElementId:  # noqa: N802, N803
        new_type = self._document.GetElement(typeId)
        if new_type is None or not isinstance(new_type, ElementType) or \
                new_type._state.get("category") != self._state.get("category"):
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException("The type is not valid for this element: it must be an element "
                                    "type of the same category.", "typeId")
        # An instance's Name is its type's name in Revit (a wall's is its wall type's): follow it.
        old_type = self._document.GetElement(self.GetTypeId())
        follows_type = old_type is not None and self._state.get("name") == old_type.Name
        self._update_state(type_id=typeId._value, **({"name": new_type.Name} if follows_type else {}))
        return self.Id

    def IsValidType(self, typeId: ElementId) -> bool:  # noqa: N802, N803
        candidate = self._document.GetElement(typeId)
        return isinstance(candidate, ElementType) and \
            candidate._state.get("category") == self._state.get("category")

    # -- materials (quantities of a layered element: _materials) ------------------------------------
    def GetMaterialIds(self, returnPaintMaterials: bool):  # noqa: N802, N803
        from System.Collections.Generic import List

        from ._materials import material_ids
        return List[ElementId]._of(material_ids(self, bool(returnPaintMaterials)))

    def GetMaterialArea(self, materialId: ElementId, usePaintMaterial: bool) -> float:  # noqa: N802, N803
        from ._materials import material_area
        return material_area(self, materialId, bool(usePaintMaterial))

    def GetMaterialVolume(self, materialId: ElementId) -> float:  # noqa: N802, N803
        from ._materials import material_volume
        return material_volume(self, materialId)

    def _layer_area(self) -> float:
        """The area each layer of the element's type covers (a wall's net area): 0 by default."""
        return 0.0

    def _volume_per_width(self) -> float:
        """A layer's volume per unit of its width: the area it covers, unless the element's body
        is no plain slab of its layers (a wall's, Wall._volume_per_width)."""
        return self._layer_area()

    # -- parameters ---------------------------------------------------------------------------
    @property
    def Parameters(self):  # noqa: N802
        return _params.ParameterSet(_params.Parameter(self, d) for d in self._definitions())

    def GetOrderedParameters(self):  # noqa: N802
        from System.Collections.Generic import List
        return List[_params.Parameter]._of(list(self.Parameters))

    def LookupParameter(self, name: str):  # noqa: N802
        definition = self._definition_map().get(name)
        return _params.Parameter(self, definition) if definition is not None else None

    def get_Parameter(self, parameterId):  # noqa: N802, N803
        """The indexed property ``Element.Parameter[BuiltInParameter]`` as pythonnet exposes it.

        "Workset" (ELEM_PARTITION_PARAM) only in a workshared document, and only through this
        member (the stand-in's Parameters and LookupParameter do not list it)."""
        if parameterId == BuiltInParameter.ELEM_PARTITION_PARAM:
            if self._document._central is None:
                return None
            return _params.Parameter(self, _params.workset_definition(read_only=not self._workset_changeable()))
        for definition in self._base_definitions():
            if definition.bip == parameterId:
                return _params.Parameter(self, definition)
        return None

    def GetParameters(self, name: str):  # noqa: N802
        from System.Collections.Generic import List
        return List[_params.Parameter]._of([_params.Parameter(self, d)
                                        for d in self._definitions() if d.name == name])

    def _base_definitions(self):
        return self._PARAMS

    def _definitions(self):
        return self._document._definitions_for(self._base_definitions(), self._state.get("custom_params") or ())

    def _definition_map(self):
        """Name -> definition (the first one wins, like LookupParameter), cached per parameter set."""
        return self._document._definition_map_for(self._base_definitions(), self._state.get("custom_params") or ())

    # -- state changes (all go through the document's open transaction) -------------------------
    def _update_state(self, **changes):
        self._document._record_modification(self)
        self._state = {**self._state, **changes}

    def _set_param(self, definition, value):
        params = dict(self._state["params"])
        params[definition.name] = value
        changes = {"params": params}
        if definition.bip is None and definition.name not in self._state.get("custom_params", ()):
            changes["custom_params"] = tuple(self._state.get("custom_params", ())) + (definition.name,)
        self._update_state(**changes)
        self._after_param_change(definition)

    def _after_param_change(self, definition):
        """Subclasses keep derived state in step (a wall's level follows Base Constraint)."""

    def _apply_transform(self, transform: Transform):
        location = self._state.get("location")
        if isinstance(location, XYZ):
            self._update_state(location=transform.OfPoint(location),
                               rotation=self._state.get("rotation", 0.0) +
                               _angle_of(transform))
        elif isinstance(location, Curve):
            self._update_state(location=location.CreateTransformed(transform))
        else:
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException(f"Element {self._id} has no location and cannot be moved.")

    def _computed_type_id(self):
        return self._state.get("type_id")

    def _computed_family_id(self):
        element_type = self._document._elements.get(self._state.get("type_id"))
        return element_type._state.get("family_id", element_type._id) if element_type else None

    def _computed_category_id(self):
        return self._state.get("category")

    def _computed_level_id(self):
        return self._state.get("level_id")

    # -- the element's workset (ELEM_PARTITION_PARAM) ---------------------------------------------
    def _workset_changeable(self) -> bool:
        """Revit: "You cannot reassign view-specific elements from a view workset to another
        workset"; views and element types live on their own view and family worksets."""
        from ._views import View
        return not (self.ViewSpecific or isinstance(self, (View, ElementType)))

    def _computed_workset(self):
        return self.WorksetId.IntegerValue

    def _set_workset(self, value: int) -> bool:
        """Move the element to the user workset ``value``; False for an id that is not one."""
        if value not in self._document._worksets:
            return False
        self._update_state(workset=value)
        return True

    def _dependents(self):
        """Ids Revit deletes together with this element (hosted doors and windows...)."""
        return ()

    def __eq__(self, other):
        return isinstance(other, Element) and other._id == self._id and other._document is self._document

    def __hash__(self):
        return hash(self._id)

    def __repr__(self):
        return f"<{type(self).__name__} {self._id} {self.Name!r}>"


def _angle_of(transform: Transform) -> float:
    import math
    basis = transform.BasisX
    return math.atan2(basis.Y, basis.X)


@api_class
class ElementType(Element):
    _PARAMS = _params.TYPE_COMMON

    @property
    def FamilyName(self) -> str:  # noqa: N802
        return self._state["params"].get("Family Name", "")

    def Duplicate(self, name: str):  # noqa: N802
        """Copy this type under a new name (names are unique per family and category)."""
        from Autodesk.Revit.Exceptions import ArgumentException
        for other in self._document._elements_of_category(self._state.get("category")):
            if isinstance(other, ElementType) and other.Name == name and other.FamilyName == self.FamilyName:
                raise ArgumentException(f"The name '{name}' is already in use for this family.", "name")
        params = dict(self._state["params"], **{"Type Name": name})
        return self._document._add_element(type(self), dict(self._state, name=name, params=params,
                                                            unique_id=None))

    def _update_state(self, **changes):
        if "name" in changes:
            params = dict(changes.get("params", self._state["params"]))
            params["Type Name"] = changes["name"]
            changes["params"] = params
        super()._update_state(**changes)
