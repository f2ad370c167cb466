"""Document: the model's elements, its units, and the rules for changing it."""
from __future__ import annotations

import itertools

from revit_standin.guard import api_class
from revit_standin.journal import ADDED, DELETED, MODIFIED, Journal, net_changes
from revit_standin.pythonnet_rules import no_method_matches as _no_method_matches
from revit_standin.versions import available

from . import _params
from ._element import CATEGORY_NAMES, Element, ElementType
from ._enums import BuiltInCategory, DisplayUnit, ElementTypeGroup
from ._failures import DUPLICATE_MARK, FailureMessage
from ._ids import ElementId
from ._saving import SavingDocument
from ._worksharing import WorksharingDocument
from ._units import Units

_DOOR_AND_WINDOW = (BuiltInCategory.OST_Doors.value, BuiltInCategory.OST_Windows.value)
# ElementTypeGroup -> the category of its types, for GetDefaultElementTypeId.
_DEFAULT_TYPE_CATEGORIES = {
    ElementTypeGroup.WallType: BuiltInCategory.OST_Walls, ElementTypeGroup.FloorType: BuiltInCategory.OST_Floors,
    ElementTypeGroup.RoofType: BuiltInCategory.OST_Roofs, ElementTypeGroup.CeilingType: BuiltInCategory.OST_Ceilings,
}
_document_counter = itertools.count(1)


@api_class
class Document(SavingDocument, WorksharingDocument):  # saving: _saving.py; worksharing: _worksharing.py
    def __init__(self, application, title: str, path: str = "", display_units=DisplayUnit.METRIC):
        self._application = application
        self._title = title
        self._path = path
        self._uid = next(_document_counter)
        self._units = Units(display_units)
        self._elements: dict[int, Element] = {}
        self._by_category: dict[int | None, dict[int, None]] = {}
        self._ids = itertools.count(1)
        self._journal = Journal(self)
        self._open_transaction = None
        self._open_subtransactions = []
        self._pending_failures: list[FailureMessage] = []
        self._warnings: list[FailureMessage] = []
        self._last_rollback_reasons: list[str] = []
        self._read_only = False
        self._linked = False          # a link's document (revit_standin.links): no transactions in it
        self._closed = False
        self._active_view_id = -1
        self._custom_defs: dict[str, _params.ParamDef] = {}
        self._custom_ids: dict[str, int] = {}
        self._definition_cache: dict = {}
        self._type_index: tuple | None = None      # (elements version, ids of the ElementTypes)
        self._elements_version = 0                  # bumped when an element is added or deleted
        self._type_id_set: tuple | None = None      # (the type index's list, its ids as a set)
        self._filter_values: tuple | None = None   # (model version, values the parameter filters read)
        self._creation = None
        self._version = 0             # bumped by every change to the elements (see _inserts_by_host)
        self._unregenerated = {}      # element id -> the transaction that made it, until Regenerate
        self._inserts_cache = None    # (version, {host id: [insert ids]})
        self._annotations_cache = None  # (version, {element id: [tag and dimension ids]})
        # Worksharing (_worksharing.py): none until EnableWorksharing or central.make_workshared.
        self._central = None
        self._worksets = {}
        self._active_workset = -1
        self._ownership_cache: dict[int, str] = {}
        self._central_versions_cache: dict[int, int] = {}
        self._central_deleted_cache: set[int] = set()
        self._seen_versions: dict[int, int] = {}
        self._unsynchronized: set[int] = set()

    def GetWorksetId(self, id: ElementId):  # noqa: N802, A002
        """The workset of the element ``id`` (_worksets.py); InvalidWorksetId when there is none."""
        from ._worksets import WorksetId
        element = self._elements.get(id._value)
        return WorksetId.InvalidWorksetId if element is None else element.WorksetId

    # -- identity and state -----------------------------------------------------------------------
    @property
    def Title(self) -> str:  # noqa: N802
        return self._title

    @property
    def PathName(self) -> str:  # noqa: N802
        return self._path

    @property
    def Application(self):  # noqa: N802
        return self._application

    @property
    def IsModifiable(self) -> bool:  # noqa: N802
        return self._open_transaction is not None

    @property
    def IsModified(self) -> bool:  # noqa: N802
        return bool(self._journal.undo_history)

    @property
    def IsReadOnly(self) -> bool:  # noqa: N802
        return self._read_only

    @property
    def IsFamilyDocument(self) -> bool:  # noqa: N802
        return False

    @property
    def IsLinked(self) -> bool:  # noqa: N802
        return self._linked   # True for a link's document (RevitLinkInstance.GetLinkDocument)

    @property
    def IsValidObject(self) -> bool:  # noqa: N802
        return not self._closed

    @property
    def DisplayUnitSystem(self):  # noqa: N802
        return self._units._display_system()

    def GetTypeOfStorage(self, parameterTypeId):  # noqa: N802, N803
        """A built-in parameter's storage type, from its ForgeTypeId (_parameter_utils)."""
        from ._parameter_utils import get_type_of_storage
        return get_type_of_storage(self, parameterTypeId)

    def GetUnits(self) -> Units:  # noqa: N802
        # A copy, as in Revit: a change to it is the document's only through SetUnits (in a transaction).
        return self._units._copy()

    def SetUnits(self, units: Units) -> None:  # noqa: N802
        self._require_transaction()
        self._units = units

    @property
    def Create(self):  # noqa: N802
        if self._creation is None:
            from Autodesk.Revit.Creation import Document as CreationDocument
            self._creation = CreationDocument(self)
        return self._creation

    @property
    def ActiveView(self):  # noqa: N802
        return self._elements.get(self._active_view_id)

    @property
    def ActiveProjectLocation(self):  # noqa: N802
        """The project's shared coordinates (see _locations)."""
        from ._locations import active_project_location
        return active_project_location(self)

    # -- phases and rooms (_phases, _spatial) -----------------------------------------------------
    @property
    def Phases(self):  # noqa: N802
        from ._phases import PhaseArray, phases
        return PhaseArray(phases(self))

    def GetRoomAtPoint(self, point, phase=None):  # noqa: N802
        """The first room whose volume holds the point (in the last phase when ``phase`` is None)."""
        import math

        from ._phases import is_last_phase
        from ._spatial import room_at
        from Autodesk.Revit.Exceptions import ArgumentException, ArgumentNullException
        if point is None:
            raise ArgumentNullException("point")
        if any(math.isnan(c) or math.isinf(c) for c in (point.X, point.Y, point.Z)):
            raise ArgumentException("The coordinates of the point are not numbers.", "point")
        return room_at(self, point) if is_last_phase(self, phase, none_is_last=True) else None

    # -- elements -------------------------------------------------------------------------------
    def GetElement(self, id: ElementId | str):  # noqa: N802, A002
        """GetElement(ElementId) or GetElement(uniqueId: str); None when there is no such element."""
        if isinstance(id, ElementId):
            return self._elements.get(id._value)
        if isinstance(id, str):
            return next((e for e in self._elements.values() if e.UniqueId == id), None)
        raise _no_method_matches("Document.GetElement", (id,))  # pythonnet: no int -> ElementId

    def Delete(self, elementIds: ElementId | ICollection[ElementId]):  # noqa: N802, N803
        """Delete(ElementId) or Delete(ICollection<ElementId>): returns every id deleted,
        including the elements that went with them (hosted doors, instances of a type...)."""
        from System.Collections.Generic import HashSet, List
        if not isinstance(elementIds, (ElementId, List, HashSet)):
            raise _no_method_matches("Document.Delete", (elementIds,))
        self._require_transaction()
        requested = [elementIds] if isinstance(elementIds, ElementId) else list(elementIds)
        missing = [i for i in requested if i._value not in self._elements]
        if missing:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException(f"Element {missing[0]._value} does not exist in the document "
                                    "(it may have been deleted already).", "elementIds")
        deleted = self._deletion_closure([i._value for i in requested])
        for element_id in deleted:
            element = self._elements[element_id]
            self._journal.record(DELETED, element)
            self._unindex(element)
        return List[ElementId]._of([ElementId(i) for i in deleted])

    @available(since=2024)
    def GetUnusedElements(self, categories):  # noqa: N802
        """The ids Purge Unused would list (of ``categories``; every category when it is empty):
        _purge.py says which. Revit 2024+: absent from the Revit 2023 API, as here on 2023."""
        from ._purge import get_unused_elements
        return get_unused_elements(self, categories)

    @available(since=2024)
    def GetAllUnusedElements(self, categories):  # noqa: N802
        """GetUnusedElements' ids and the unused ones Revit cannot delete (a system family's last type)."""
        from ._purge import get_unused_elements
        return get_unused_elements(self, categories, "GetAllUnusedElements")

    def ExportImage(self, options) -> None:  # noqa: N802
        """Writes a picture of each view the options name (_export.py; drawn by revit_standin.drawing)."""
        from ._export import export_image
        export_image(self, options)

    def Export(self, folder, *arguments):  # noqa: N802
        """Document.Export's overloads, told apart by their options (the last argument) as .NET picks
        the overload: each format's module checks the arguments as Revit does and writes the file (or
        refuses, as Revit does without that exporter). PDF (2022+): _pdf_export.py."""
        from ._cad_export import ACADExportOptions, export_cad
        from ._ifc_export import IFCExportOptions, export_ifc
        from ._navisworks_export import NavisworksExportOptions, export_nwc
        from ._pdf_export import PDFExportOptions, export_pdf
        options = arguments[-1] if arguments else None
        if len(arguments) == 2 and isinstance(options, PDFExportOptions):
            return export_pdf(self, folder, *arguments)
        if len(arguments) == 3 and isinstance(options, ACADExportOptions):
            return export_cad(self, folder, *arguments)
        if len(arguments) == 2 and isinstance(options, IFCExportOptions):
            return export_ifc(self, folder, *arguments)
        if len(arguments) == 2 and isinstance(options, NavisworksExportOptions):
            return export_nwc(self, folder, *arguments)
        raise _no_method_matches("Document.Export", (folder, *arguments))

    def LoadFamily(self, *args):  # noqa: N802
        """Refused: the stand-in reads no .rfa file (DB/_family_loading.py)."""
        from ._family_loading import load_family
        return load_family(self, args)

    def Regenerate(self) -> None:  # noqa: N802
        self._require_transaction()
        self._unregenerated.clear()

    def GetDefaultElementTypeId(self, defaultTypeId) -> ElementId:  # noqa: N802, N803
        """The type Revit offers for new elements of a group (ElementTypeGroup.WallType...);
        InvalidElementId when the project has none. The stand-in's default is the group's first
        type (for walls, the first basic wall type)."""
        from ._elements import WallType
        from ._enums import WallKind
        category = _DEFAULT_TYPE_CATEGORIES.get(ElementTypeGroup(defaultTypeId))
        if category is None:
            return ElementId.InvalidElementId
        types = [e for e in self._elements_of_category(category.value) if isinstance(e, ElementType)]
        if category == BuiltInCategory.OST_Walls:
            basic = [t for t in types if isinstance(t, WallType) and t.Kind == WallKind.Basic]
            types = basic or types
        return types[0].Id if types else ElementId.InvalidElementId

    # -- failures -------------------------------------------------------------------------------
    def PostFailure(self, failure: FailureMessage):  # noqa: N802
        self._require_transaction()
        self._pending_failures.append(failure)
        return failure

    def GetWarnings(self):  # noqa: N802
        from System.Collections.Generic import List
        live = [w for w in self._warnings if any(i in self._elements for i in w._failing) or not w._failing]
        return List[FailureMessage]._of(live)

    # -- private machinery ----------------------------------------------------------------------
    def _require_transaction(self):
        if self._open_transaction is None:
            from Autodesk.Revit.Exceptions import ModificationOutsideTransactionException
            raise ModificationOutsideTransactionException(
                "Attempt to modify the model outside of transaction. Start a Transaction first.")

    def _add_element(self, cls, state: dict) -> Element:
        self._require_transaction()
        state.setdefault("params", {})
        if self._central is not None:
            state.setdefault("workset", self._active_workset)
        element = cls(self, next(self._ids), state)
        self._index(element)
        self._journal.record(ADDED, element)
        return element

    def _load_element(self, cls, state: dict) -> Element:
        """Add an element without a transaction: used only while loading a model."""
        state.setdefault("params", {})
        element = cls(self, next(self._ids), state)
        self._index(element)
        return element

    def _record_modification(self, element: Element) -> None:
        self._require_transaction()
        self._version += 1
        if element._deleted:
            from Autodesk.Revit.Exceptions import InvalidObjectException
            raise InvalidObjectException("The element has been deleted and cannot be modified.")
        self._journal.record(MODIFIED, element, element._state)

    def _index(self, element: Element) -> None:
        self._version += 1
        self._elements_version += 1
        self._elements[element._id] = element
        self._by_category.setdefault(element._state.get("category"), {})[element._id] = None
        element._deleted = False

    def _unindex(self, element: Element) -> None:
        self._version += 1
        self._elements_version += 1
        self._elements.pop(element._id, None)
        self._by_category.get(element._state.get("category"), {}).pop(element._id, None)
        element._deleted = True

    def _elements_of_category(self, category: int | None):
        elements = self._elements
        return [elements[i] for i in self._by_category.get(category, ())]

    def _hosted_by(self, host_id: int):
        return list(self._inserts_by_host().get(host_id, ()))

    def _inserts_by_host(self) -> dict[int, list[int]]:
        """Host id -> the doors and windows it hosts, indexed once per version of the model:
        scanning every insert for each host made moving or deleting thousands of walls quadratic."""
        if self._inserts_cache is None or self._inserts_cache[0] != self._version:
            index: dict[int, list[int]] = {}
            for category in _DOOR_AND_WINDOW:
                for element in self._elements_of_category(category):
                    host_id = element._state.get("host_id")
                    if host_id is not None:
                        index.setdefault(host_id, []).append(element._id)
            self._inserts_cache = (self._version, index)
        return self._inserts_cache[1]

    def _annotations_of(self, element_id: int) -> list[int]:
        """The tags and dimensions that go with the element, indexed once per version of the model."""
        from ._annotation import annotations_by_element
        if self._annotations_cache is None or self._annotations_cache[0] != self._version:
            self._annotations_cache = (self._version, annotations_by_element(self))
        return list(self._annotations_cache[1].get(element_id, ()))

    def _deletion_closure(self, ids):
        """The requested ids followed by everything Revit deletes along with them."""
        result, seen, queue = [], set(), list(ids)
        while queue:
            element_id = queue.pop(0)
            if element_id in seen or element_id not in self._elements:
                continue
            seen.add(element_id)
            result.append(element_id)
            queue.extend(self._dependents_of(self._elements[element_id]))
        return result

    def _dependents_of(self, element: Element):
        from ._elements import Level
        dependents = list(element._dependents()) + self._annotations_of(element._id)
        if isinstance(element, ElementType):
            dependents += [e._id for e in self._elements_of_category(element._state.get("category"))
                           if e._state.get("type_id") == element._id]
        elif isinstance(element, Level):
            dependents += [e._id for e in self._elements.values() if e._state.get("level_id") == element._id]
        return dependents

    def _default_type_id(self, category: BuiltInCategory) -> ElementId:
        for element in self._elements_of_category(category.value):
            if isinstance(element, ElementType):
                return element.Id
        return ElementId.InvalidElementId

    def _collect_commit_failures(self):
        failures = list(self._pending_failures)
        self._pending_failures.clear()
        failures += self._duplicate_mark_warnings()
        failures += self._injected_failures()
        changes = net_changes(self._journal._operations)
        failures += self._ownership_failures(changes.modified, changes.deleted)
        from ._structure import commit_failures as structural_failures
        failures += structural_failures(self, self._journal.touched())   # a column's top above its base
        return failures

    def _duplicate_mark_warnings(self):
        touched = {e._state.get("category") for e in self._journal.touched()
                   if not e._deleted and e._state["params"].get("Mark")}
        warnings = []
        for category in touched:
            by_mark: dict[str, list[int]] = {}
            for element in self._elements_of_category(category):
                mark = element._state["params"].get("Mark")
                if mark and not isinstance(element, ElementType):
                    by_mark.setdefault(mark, []).append(element._id)
            for ids in by_mark.values():
                if len(ids) > 1:
                    message = FailureMessage(DUPLICATE_MARK)
                    message._failing = ids
                    warnings.append(message)
        return warnings

    def _injected_failures(self):
        from revit_standin import faults
        return faults.take_commit_failures(self)

    def _fire_document_changed(self, operation: str, changes, names) -> None:
        if changes and self._application is not None:
            self._application._document_changed(self, operation, changes, names)

    def _element_display_name(self, value: int) -> str:
        if value == -1:
            return "None"
        if value < -1:
            try:
                return CATEGORY_NAMES.get(BuiltInCategory(value), str(value))
            except ValueError:
                return str(value)
        element = self._elements.get(value)
        return element.Name if element is not None else ""

    def _definitions_for(self, base: tuple, custom: tuple) -> tuple:
        key = (id(base), custom)
        found = self._definition_cache.get(key)
        if found is None:
            found = base + tuple(self._custom_defs[name] for name in custom)
            self._definition_cache[key] = found
        return found

    def _definition_map_for(self, base: tuple, custom: tuple) -> dict:
        key = (id(base), custom, "map")
        found = self._definition_cache.get(key)
        if found is None:
            found = {}
            for definition in self._definitions_for(base, custom):
                found.setdefault(definition.name, definition)
            self._definition_cache[key] = found
        return found

    def _definition_by_id_for(self, base: tuple, custom: tuple) -> dict:
        """Parameter id (a BuiltInParameter's value, a custom parameter's id) -> definition, for
        the parameter filters (the first definition with an id wins, like LookupParameter)."""
        key = (id(base), custom, "ids")
        found = self._definition_cache.get(key)
        if found is None:
            found = {}
            for definition in self._definitions_for(base, custom):
                key_id = (int(definition.bip) if definition.bip is not None
                          else self._custom_ids.get(definition.name))
                found.setdefault(key_id, definition)
            self._definition_cache[key] = found
        return found

    def _element_type_ids(self, category: int | None = "any") -> list[int]:
        """Ids of the document's ElementTypes (of one category, or all), in the document's order, indexed
        again only when elements were added or deleted (a change to an element leaves it a type or
        not): a search reads every type of a category, or of every category."""
        if self._type_index is None or self._type_index[0] != self._elements_version:
            by_category: dict = {}
            every = []
            for i, element in self._elements.items():   # the order the collectors read elements in
                if isinstance(element, ElementType):
                    every.append(i)
                    by_category.setdefault(element._state.get("category"), []).append(i)
            self._type_index = (self._elements_version, every, by_category)
        if category == "any":
            return self._type_index[1]
        return self._type_index[2].get(category, [])

    def _element_type_id_set(self) -> set[int]:
        """The ids of ``_element_type_ids()`` as a set, for collectors over given ids."""
        every = self._element_type_ids()
        if self._type_id_set is None or self._type_id_set[0] is not every:
            self._type_id_set = (every, set(every))
        return self._type_id_set[1]

    def _filter_value_cache(self) -> dict:
        """Parameter id -> {element id -> (storage, value)} read by the parameter filters, kept
        while the model does not change (every change bumps ``_version``)."""
        if self._filter_values is None or self._filter_values[0] != self._version:
            self._filter_values = (self._version, {})
        return self._filter_values[1]

    def _custom_definition(self, name: str) -> _params.ParamDef:
        return self._custom_defs[name]

    def _define_custom_parameter(self, name: str, kind: str) -> _params.ParamDef:
        if name not in self._custom_defs:
            self._custom_defs[name] = _params.custom_definition(name, kind)
            self._custom_ids[name] = 900_000_000 + len(self._custom_ids)
        return self._custom_defs[name]

    def _custom_parameter_id(self, name: str) -> int:
        return self._custom_ids[name]

    def __repr__(self):
        return f"<Document {self._title!r} ({len(self._elements)} elements)>"
