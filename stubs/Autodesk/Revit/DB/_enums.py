"""Revit API enumerations used by Paracore, with the real API's member names and values.

Only the members the stand-in supports are listed; the conformance test checks every name and
value against the published API. pythonnet 3 exposes .NET enums as enum objects (not ints),
so these are ``enum.Enum`` subclasses that convert with ``int()``.
"""
from __future__ import annotations

import enum


class _RevitEnum(enum.Enum):
    def __int__(self):
        return self.value

    def ToString(self):  # noqa: N802
        return self.name


class BuiltInCategory(_RevitEnum):
    INVALID = -1
    OST_Walls = -2000011
    OST_Doors = -2000023
    OST_Windows = -2000014
    OST_Floors = -2000032
    OST_Roofs = -2000035
    OST_Ceilings = -2000038
    OST_Rooms = -2000160
    OST_Levels = -2000240
    OST_Grids = -2000220
    OST_Stairs = -2000120
    OST_StairsRailing = -2000126
    OST_Railings = -2000175
    OST_Ramps = -2000180
    OST_Columns = -2000100
    OST_StructuralColumns = -2001330
    OST_StructuralFraming = -2001320
    OST_StructuralFoundation = -2001300
    OST_Furniture = -2000080
    OST_Casework = -2001000
    OST_GenericModel = -2000151
    OST_CurtainWallPanels = -2000170
    OST_CurtainWallMullions = -2000171
    OST_PlumbingFixtures = -2001160
    OST_SpecialityEquipment = -2001350
    OST_MechanicalEquipment = -2001140
    OST_LightingFixtures = -2001120
    OST_ElectricalFixtures = -2001060
    OST_ElectricalEquipment = -2001040
    OST_Site = -2001260
    OST_ProjectBasePoint = -2001271
    OST_SharedBasePoint = -2001272
    OST_RvtLinks = -2001352
    OST_Planting = -2001360
    OST_Entourage = -2001370
    OST_Views = -2000279
    OST_Schedules = -2000573
    OST_Materials = -2000700
    OST_TitleBlocks = -2000280
    OST_Sheets = -2003100
    OST_Viewports = -2000510
    # annotations (tools/documentation/annotation_tools.py)
    OST_DoorTags = -2000460
    OST_WindowTags = -2000450
    OST_RoomTags = -2000480
    OST_WallTags = -2005011
    OST_MultiCategoryTags = -2005022
    OST_TextNotes = -2000300
    OST_Dimensions = -2000260
    # the lines of a sketch (a floor's boundary): Floor.Create makes them (DB/_sketches.py)
    OST_SketchLines = -2000045


class BuiltInParameter(_RevitEnum):
    INVALID = -1
    ALL_MODEL_INSTANCE_COMMENTS = -1010106
    ALL_MODEL_MARK = -1001203
    ALL_MODEL_TYPE_COMMENTS = -1010105
    ALL_MODEL_TYPE_MARK = -1001405
    ALL_MODEL_DESCRIPTION = -1010103
    ALL_MODEL_MANUFACTURER = -1010108
    ALL_MODEL_MODEL = -1010109
    ALL_MODEL_URL = -1010104
    ALL_MODEL_COST = -1001205
    ALL_MODEL_TYPE_NAME = -1002001
    ALL_MODEL_FAMILY_NAME = -1002002
    SYMBOL_NAME_PARAM = -1002001
    SYMBOL_FAMILY_NAME_PARAM = -1002002
    ELEM_FAMILY_PARAM = -1002051
    ELEM_TYPE_PARAM = -1002050
    ELEM_FAMILY_AND_TYPE_PARAM = -1002052
    ELEM_CATEGORY_PARAM = -1140362
    ELEM_PARTITION_PARAM = -1002053
    WALL_BASE_CONSTRAINT = -1001107
    WALL_HEIGHT_TYPE = -1001103
    WALL_USER_HEIGHT_PARAM = -1001105
    WALL_BASE_OFFSET = -1001108
    WALL_TOP_OFFSET = -1001109
    WALL_KEY_REF_PARAM = -1001122
    WALL_ATTR_ROOM_BOUNDING = -1001007
    WALL_STRUCTURAL_SIGNIFICANT = -1001596
    WALL_ATTR_WIDTH_PARAM = -1001000
    FUNCTION_PARAM = -1001006
    CURVE_ELEM_LENGTH = -1004005
    HOST_AREA_COMPUTED = -1012805
    HOST_VOLUME_COMPUTED = -1012806
    HOST_PERIMETER_COMPUTED = -1001953
    FIRE_RATING = -1001206
    DOOR_FIRE_RATING = -1001206
    FAMILY_HEIGHT_PARAM = -1001300
    FAMILY_WIDTH_PARAM = -1001301
    DOOR_HEIGHT = -1001300
    DOOR_WIDTH = -1001301
    WINDOW_HEIGHT = -1001300
    WINDOW_WIDTH = -1001301
    INSTANCE_SILL_HEIGHT_PARAM = -1001361
    INSTANCE_HEAD_HEIGHT_PARAM = -1001362
    INSTANCE_ELEVATION_PARAM = -1001360
    FAMILY_LEVEL_PARAM = -1001352
    FAMILY_HOSTING_BEHAVIOR = -1012843
    SCHEDULE_LEVEL_PARAM = -1002062
    INSTANCE_SCHEDULE_ONLY_LEVEL_PARAM = -1001365
    HOST_ID_PARAM = -1002108
    LEVEL_PARAM = -1001952
    FLOOR_HEIGHTABOVELEVEL_PARAM = -1001951
    FLOOR_ATTR_THICKNESS_PARAM = -1001900
    FLOOR_PARAM_IS_STRUCTURAL = -1001954
    ROOF_BASE_LEVEL_PARAM = -1001708
    LEVEL_ELEV = -1007102
    LEVEL_IS_BUILDING_STORY = -1007111
    DATUM_TEXT = -1008000
    ROOM_NAME = -1006900
    ROOM_NUMBER = -1006901
    ROOM_AREA = -1006902
    ROOM_PERIMETER = -1006917
    ROOM_LEVEL_ID = -1006916
    ROOM_DEPARTMENT = -1006907
    ROOM_OCCUPANCY = -1006909
    ROOM_FINISH_FLOOR = -1006903
    VIEW_NAME = -1005112
    SHEET_NAME = -1007400
    SHEET_NUMBER = -1007401
    VIEWPORT_DETAIL_NUMBER = -1005201
    VIEW_SCALE = -1005150
    VIEW_SCALE_PULLDOWN_METRIC = -1005151
    VIEW_SCALE_PULLDOWN_IMPERIAL = -1005152
    VIEW_DETAIL_LEVEL = -1011002
    VIS_GRAPHICS_FILTERS = -1006964
    IFC_GUID = -1019000
    PHASE_CREATED = -1012100
    # structural columns, framing and foundations (_structure)
    FAMILY_BASE_LEVEL_PARAM = -1001350
    FAMILY_TOP_LEVEL_PARAM = -1001351
    FAMILY_BASE_LEVEL_OFFSET_PARAM = -1001357
    FAMILY_TOP_LEVEL_OFFSET_PARAM = -1001358
    INSTANCE_REFERENCE_LEVEL_PARAM = -1001383
    STRUCTURAL_BEAM_END0_ELEVATION = -1001571
    STRUCTURAL_BEAM_END1_ELEVATION = -1001572
    STRUCTURAL_FRAME_CUT_LENGTH = -1001384
    Z_JUSTIFICATION = -1152364
    Y_JUSTIFICATION = -1152362
    YZ_JUSTIFICATION = -1152361
    STRUCTURAL_FOUNDATION_WIDTH = -1001568
    STRUCTURAL_FOUNDATION_LENGTH = -1001569
    STRUCTURAL_FOUNDATION_THICKNESS = -1001557
    STRUCTURAL_ELEVATION_AT_TOP = -1001598
    STRUCTURAL_ELEVATION_AT_BOTTOM = -1001561
    CONTINUOUS_FOOTING_WIDTH = -1001558
    CONTINUOUS_FOOTING_LENGTH = -1001567


class StorageType(_RevitEnum):
    Integer = 1
    Double = 2
    String = 3
    ElementId = 4


class TransactionStatus(_RevitEnum):
    Uninitialized = 0
    Started = 1
    RolledBack = 2
    Committed = 3
    Pending = 4
    Error = 5
    Proceed = 6


class FailureSeverity(_RevitEnum):
    Warning = 1
    Error = 2
    DocumentCorruption = 3


class FailureProcessingResult(_RevitEnum):
    Continue = 0
    ProceedWithCommit = 1
    ProceedWithRollBack = 2
    WaitForUserInput = 3


class DisplayUnit(_RevitEnum):
    METRIC = 0
    IMPERIAL = 1


class ViewType(_RevitEnum):
    Undefined = 0
    FloorPlan = 1
    CeilingPlan = 2
    Elevation = 3
    ThreeD = 4
    Schedule = 5
    DrawingSheet = 6
    Section = 117


class ViewFamily(_RevitEnum):
    Invalid = 101
    ThreeDimensional = 102
    Schedule = 105
    FloorPlan = 109
    CeilingPlan = 111
    Section = 112
    Elevation = 114


class WallLocationLine(_RevitEnum):
    WallCenterline = 0
    CoreCenterline = 1
    FinishFaceExterior = 2
    FinishFaceInterior = 3
    CoreExterior = 4
    CoreInterior = 5


class ElementTypeGroup(_RevitEnum):
    """The groups Document.GetDefaultElementTypeId answers for (a subset of the real enum)."""
    WallType = 2
    RoofType = 3
    FloorType = 4
    CeilingType = 6
    LevelType = 9


class WallKind(_RevitEnum):
    Unknown = -1
    Basic = 0
    Curtain = 1
    Stacked = 2


class CategoryType(_RevitEnum):
    Invalid = 0
    Model = 1
    Annotation = 2
    Internal = 4
    AnalyticalModel = 5


class TemporaryViewMode(_RevitEnum):
    RevealHiddenElements = 1
    TemporaryHideIsolate = 2


class ScheduleFieldDisplayType(_RevitEnum):
    Standard = 0
    Totals = 1
    MinMax = 2
    Max = 3
    Min = 4


class ScheduleSortOrder(_RevitEnum):
    Ascending = 0
    Descending = 1


class ScheduleFilterType(_RevitEnum):
    Equal = 2
    NotEqual = 3
    GreaterThan = 4
    GreaterThanOrEqual = 5
    LessThan = 6
    LessThanOrEqual = 7
    Contains = 8
    NotContains = 9
    BeginsWith = 10


class ScheduleFieldType(_RevitEnum):
    Instance = 0
    ElementType = 1
    Count = 2


class SectionType(_RevitEnum):
    """A section of a table view. (The real enum also has ``None = -1``, a Python keyword.)
    A ViewSchedule has a Header (its title) and a Body (column headings, then the rows)."""
    Header = 0
    Body = 1
    Summary = 2
    Footer = 3


class FillPatternTarget(_RevitEnum):
    """A fill pattern's kind (the real enum also has a member named None, which Python cannot spell)."""
    Drafting = 0
    Model = 1


class ViewDetailLevel(_RevitEnum):
    Undefined = 0
    Coarse = 1
    Medium = 2
    Fine = 3


class ViewDuplicateOption(_RevitEnum):
    Duplicate = 0
    AsDependent = 1
    WithDetailing = 2


class TagOrientation(_RevitEnum):
    Horizontal = 0
    Vertical = 1
    AnyModelDirection = 2


class MaterialFunctionAssignment(_RevitEnum):
    """A compound structure layer's function (CompoundStructureLayer.Function)."""
    # None (0) is left out: Revit's documentation says it is deprecated and should not be used.
    Structure = 1
    Substrate = 2
    Insulation = 3
    Finish1 = 4
    Finish2 = 5
    Membrane = 100
    StructuralDeck = 200


# -- family placement (Family.FamilyPlacementType, Creation.Document.NewFamilyInstance) -------------
class FamilyPlacementType(_RevitEnum):
    OneLevelBased = 0
    OneLevelBasedHosted = 1
    TwoLevelsBased = 2
    ViewBased = 3
    WorkPlaneBased = 4
    CurveBased = 5
    CurveBasedDetail = 6
    CurveDrivenStructural = 7
    Adaptive = 8
    Invalid = 9


class ShellLayerType(_RevitEnum):
    Interior = 0
    Exterior = 1


# -- image export (Document.ExportImage, _export.py) ------------------------------------------------
class ExportRange(_RevitEnum):
    CurrentView = 0
    VisibleRegionOfCurrentView = 1
    SetOfViews = 2


class ZoomFitType(_RevitEnum):
    FitToPage = 0
    Zoom = 1


class FitDirectionType(_RevitEnum):
    Horizontal = 0
    Vertical = 1


class ImageFileType(_RevitEnum):
    BMP = 0
    JPEGLossless = 1
    JPEGMedium = 2
    JPEGSmallest = 3
    PNG = 4
    TARGA = 5
    TIFF = 6


class ImageResolution(_RevitEnum):
    DPI_72 = 0
    DPI_150 = 1
    DPI_300 = 2
    DPI_600 = 3
