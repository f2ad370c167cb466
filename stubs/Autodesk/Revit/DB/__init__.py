"""Stand-in for Autodesk.Revit.DB: the real API's names, backed by an in-memory model.

Only real API names are public here; the implementation lives in this package's private
modules and in the revit_standin machinery package.
"""
from ._collector import (ElementCategoryFilter, ElementClassFilter, ElementFilter, ElementIdSetFilter,
                         ElementLevelFilter, ElementLogicalFilter, ElementMulticategoryFilter,
                         ElementQuickFilter, ElementSlowFilter, FilteredElementCollector,
                         LogicalAndFilter, LogicalOrFilter)
from ._document import Document
from ._filter_rules import (ElementParameterFilter, FilterableValueProvider, FilterDoubleRule, FilterElementIdRule,
                            FilterIntegerRule, FilterInverseRule, FilterNumericEquals, FilterNumericGreater,
                            FilterNumericGreaterOrEqual, FilterNumericLess, FilterNumericLessOrEqual,
                            FilterNumericRuleEvaluator, FilterNumericValueRule, FilterRule, FilterStringBeginsWith,
                            FilterStringContains, FilterStringEndsWith, FilterStringEquals, FilterStringGreater,
                            FilterStringLess, FilterStringRule, FilterStringRuleEvaluator, FilterValueRule,
                            HasNoValueFilterRule, HasValueFilterRule, ParameterFilterRuleFactory,
                            ParameterValuePresenceRule, ParameterValueProvider)
from ._element import Category, Element, ElementType, Location, LocationCurve, LocationPoint
from ._elements import (CeilingAndFloor, DatumPlane, Family, FamilyInstance, FamilySymbol, Floor,
                        FloorType, FootPrintRoof, HostObjAttributes, HostObject, InsertableObject,
                        Instance, Level, RoofBase, SpatialElement, Wall, WallType)
from ._elements import CeilingType, RoofType
from ._structure import WallFoundation, WallFoundationType
from ._enums import MaterialFunctionAssignment
from ._materials import CompoundStructure, CompoundStructureLayer, Material
from ._enums import (BuiltInCategory, BuiltInParameter, CategoryType, DisplayUnit, FailureProcessingResult,
                     FailureSeverity, ScheduleFieldDisplayType, ScheduleFieldType, ScheduleFilterType,
                     ScheduleSortOrder, SectionType,
                     StorageType, TemporaryViewMode, TransactionStatus, ViewFamily, ViewType, WallKind,
                     WallLocationLine)
from ._failures import (FailureDefinition, FailureDefinitionId, FailureHandlingOptions, FailureMessage,
                        FailureMessageAccessor, FailuresAccessor, IFailuresPreprocessor)
from ._geometry import XYZ, Arc, BoundingBoxXYZ, Curve, CurveLoop, Line, Transform
from ._grids import DatumEnds, DatumExtentType, Grid
from ._ids import ElementId
from ._params import Definition, InternalDefinition, Parameter, ParameterSet
from ._sketches import CurveElement, ModelCurve, ModelLine, Sketch, SketchBase, SketchPlane
from ._transactions import SubTransaction, Transaction, TransactionGroup
from ._saving import ICentralLockedCallback, SynchronizeWithCentralOptions, TransactWithCentralOptions
from ._worksets import FilteredWorksetCollector, Workset, WorksetId, WorksetKind, WorksetPreview, WorksetTable
from ._worksharing import (CheckoutStatus, ModelUpdatesStatus, RelinquishedItems, RelinquishOptions,
                           WorksharingTooltipInfo, WorksharingUtils)
from ._enums import ElementTypeGroup
from ._enums import ExportRange, FitDirectionType, ImageFileType, ImageResolution, ZoomFitType
from ._export import ImageExportOptions
from ._pdf_export import (ColorDepthType, ExportPaperFormat, PageOrientationType, PaperPlacementType, PDFExportOptions,
                          PDFExportQualityType, RasterQualityType, ZoomType)
from ._view_sheet_sets import ViewSet, ViewSheetSet
from ._cad_export import (ACADExportOptions, ACADVersion, BaseExportOptions, DWGExportOptions, DXFExportOptions,
                          ExportDWGSettings, ExportUnit)
from ._ifc_export import IFCExportOptions, IFCVersion
from ._navisworks_export import NavisworksCoordinates, NavisworksExportOptions, NavisworksExportScope
from ._optional_functionality import OptionalFunctionalityUtils
from ._enums import ViewDetailLevel, ViewDuplicateOption
from ._transform_utils import ElementTransformUtils
from ._outlines import UV, BoundingBoxUV, Outline
from ._sheets import ViewSheet, Viewport
from ._sections import ViewSection
from ._room_tags import SpatialElementTag
from ._phases import Phase, PhaseArray
from ._spatial import BoundarySegment, SpatialElementBoundaryOptions
from ._links import LinkElementId, RevitLinkInstance, RevitLinkType
from ._locations import BasePoint, ProjectLocation, ProjectPosition
from ._annotation import (Dimension, DimensionSegment, DimensionSegmentArray, HostObjectUtils, IndependentTag,
                          Reference, ReferenceArray, TextNote, TextNoteType)
from ._enums import ShellLayerType, TagOrientation
from ._enums import FamilyPlacementType
from ._family_loading import FamilySource, IFamilyLoadOptions
from ._units import FormatOptions, ForgeTypeId, SpecTypeId, UnitFormatUtils, Units, UnitTypeId, UnitUtils
from ._enums import FillPatternTarget
from ._fill_patterns import FillPattern, FillPatternElement
from ._view_filters import FilterElement, ParameterFilterElement, ParameterFilterUtilities
from ._parameter_utils import LabelUtils, ParameterElement, ParameterUtils
from ._views import (Color, OverrideGraphicSettings, SchedulableField, ScheduleDefinition, ScheduleField,
                     ScheduleFieldId, ScheduleFilter, ScheduleSortGroupField, TableData, TableSectionData, TableView,
                     NamingUtils, View, View3D, ViewFamilyType, ViewPlan, ViewSchedule)

__all__ = [
    # documents and elements
    "Document", "Element", "ElementType", "ElementId", "Category", "Location", "LocationCurve",
    "LocationPoint", "Level", "DatumPlane", "Wall", "WallType", "HostObject", "HostObjAttributes",
    "Floor", "FloorType", "CeilingAndFloor", "RoofBase", "FootPrintRoof", "Family", "FamilySymbol",
    "InsertableObject", "Instance", "FamilyInstance", "SpatialElement", "FamilyPlacementType", "FamilySource",
    "IFamilyLoadOptions",
    "WallFoundation", "WallFoundationType",  # structure: wall foundations (columns, beams, footings are families)
    "Grid", "DatumEnds", "DatumExtentType",  # grids: their curve, extents and bubbles in views
    # layered types and materials (material takeoffs)
    "RoofType", "CeilingType", "CompoundStructure", "CompoundStructureLayer", "MaterialFunctionAssignment",
    "Material",
    "BoundarySegment", "SpatialElementBoundaryOptions",  # rooms' boundaries
    "Phase", "PhaseArray",  # phases (the rooms of an instance by phase)
    "Sketch", "SketchBase", "SketchPlane", "CurveElement", "ModelCurve", "ModelLine",  # a floor's sketch
    # parameters
    "Parameter", "Definition", "InternalDefinition", "ParameterSet", "BuiltInParameter", "StorageType",
    # categories and enums
    "BuiltInCategory", "CategoryType", "DisplayUnit", "ViewType", "ViewFamily", "WallKind",
    "WallLocationLine", "TemporaryViewMode", "ScheduleFieldType", "ScheduleFilterType", "ScheduleSortOrder",
    "ScheduleFieldDisplayType",
    # geometry
    "XYZ", "Curve", "Line", "Arc", "CurveLoop", "Transform", "BoundingBoxXYZ",
    # moving, copying and rotating elements; default types
    "ElementTransformUtils", "ElementTypeGroup",
    # units
    "ForgeTypeId", "UnitTypeId", "SpecTypeId", "UnitUtils", "UnitFormatUtils", "Units", "FormatOptions",
    # collectors and filters
    "FilteredElementCollector", "ElementFilter", "ElementQuickFilter", "ElementSlowFilter",
    "ElementCategoryFilter", "ElementMulticategoryFilter", "ElementClassFilter", "ElementLevelFilter",
    "ElementIdSetFilter", "ElementLogicalFilter", "LogicalOrFilter", "LogicalAndFilter",
    # parameter filters: rules built by ParameterFilterRuleFactory, evaluated inside the collector
    "ElementParameterFilter", "ParameterFilterRuleFactory", "ParameterValueProvider", "FilterableValueProvider",
    "FilterRule", "FilterValueRule", "FilterNumericValueRule", "FilterDoubleRule", "FilterIntegerRule",
    "FilterElementIdRule", "FilterStringRule", "FilterInverseRule", "ParameterValuePresenceRule",
    "HasValueFilterRule", "HasNoValueFilterRule", "FilterNumericRuleEvaluator", "FilterNumericEquals",
    "FilterNumericGreater", "FilterNumericGreaterOrEqual", "FilterNumericLess", "FilterNumericLessOrEqual",
    "FilterStringRuleEvaluator", "FilterStringEquals", "FilterStringContains", "FilterStringBeginsWith",
    "FilterStringEndsWith", "FilterStringGreater", "FilterStringLess",
    # transactions and failures
    "Transaction", "SubTransaction", "TransactionGroup", "TransactionStatus", "FailureHandlingOptions",
    "IFailuresPreprocessor", "FailuresAccessor", "FailureMessageAccessor", "FailureMessage",
    "FailureDefinition", "FailureDefinitionId", "FailureSeverity", "FailureProcessingResult",
    # saving and synchronizing (Document.Save, SaveAs, SynchronizeWithCentral)
    "TransactWithCentralOptions", "SynchronizeWithCentralOptions", "ICentralLockedCallback",
    # worksharing: worksets, element ownership, changes in central
    "WorksetId", "WorksetKind", "WorksetPreview", "Workset", "WorksetTable", "FilteredWorksetCollector",
    "CheckoutStatus", "ModelUpdatesStatus", "WorksharingTooltipInfo", "RelinquishOptions", "RelinquishedItems",
    "WorksharingUtils",
    # views and schedules
    "View", "ViewPlan", "View3D", "ViewSection", "TableView", "ViewSchedule", "ViewFamilyType", "ScheduleDefinition",
    "ScheduleField", "ScheduleFieldId", "SchedulableField", "ScheduleSortGroupField", "ScheduleFilter",
    "TableData", "TableSectionData", "SectionType",
    "Color", "OverrideGraphicSettings",
    "FillPatternElement", "FillPattern", "FillPatternTarget",  # graphic overrides' fill patterns
    "FilterElement", "ParameterFilterElement", "ParameterFilterUtilities",  # view filters
    "LabelUtils", "ParameterElement", "ParameterUtils",  # parameters without an element
    "ViewDetailLevel", "ViewDuplicateOption",  # view templates and duplicates
    # pictures of views (Document.ExportImage)
    "ImageExportOptions", "ExportRange", "ZoomFitType", "FitDirectionType", "ImageFileType", "ImageResolution",
    # PDF export (Document.Export with PDFExportOptions) and saved view/sheet sets
    "PDFExportOptions", "ExportPaperFormat", "ColorDepthType", "RasterQualityType", "PDFExportQualityType", "ZoomType",
    "PaperPlacementType", "PageOrientationType", "ViewSheetSet", "ViewSet",
    # sheets
    # annotations: tags, text notes, dimensions
    "IndependentTag", "TagOrientation", "Reference", "ReferenceArray", "TextNote", "TextNoteType", "Dimension",
    "DimensionSegment", "DimensionSegmentArray", "HostObjectUtils", "ShellLayerType",
    "SpatialElementTag", "LinkElementId",  # room tags (Architecture.RoomTag), NewRoomTag's room id
    "ViewSheet", "Viewport", "NamingUtils", "RevitLinkInstance", "RevitLinkType", "UV", "BoundingBoxUV", "Outline",
    # shared coordinates
    "ProjectLocation", "ProjectPosition", "BasePoint",
    # DWG, DXF, IFC and NWC export (Document.Export) and Revit's optional exporters
    "BaseExportOptions", "ACADExportOptions", "DWGExportOptions", "DXFExportOptions", "ExportDWGSettings",
    "ExportUnit", "ACADVersion", "IFCExportOptions", "IFCVersion", "NavisworksExportOptions",
    "NavisworksExportScope", "NavisworksCoordinates", "OptionalFunctionalityUtils",
]


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
