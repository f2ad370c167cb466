// The Revit API shapes Paracore touches, for the real-CLR test lane (tests/clr/).
//
// Names, namespaces, parameter and return types follow the published Revit 2026 API (the
// pyrevit-stubs-26 package; generic arguments from the API documentation, which the stubs
// drop). Revit 2026 is the strictest year: ElementId has only the Int64 constructor and
// `Value` (no IntegerValue). Only the members Paracore's .NET edge uses are here, and their
// bodies model Revit's rules where a test depends on them (changes only inside a transaction,
// a read-only document refuses to start one, ExternalEvent's Raise answers).
//
// The `ParacoreClrLane` namespace at the end is not Revit: it is the test's hand on the
// "application" (Revit's idle loop that runs raised external events, firing events, building
// documents), kept apart so the Autodesk namespaces hold only real API names.
using System;
using System.Collections.Generic;
using System.Threading;

namespace Autodesk.Revit.Exceptions
{
    public class ApplicationException : System.Exception
    {
        internal ApplicationException(string message) : base(message) { }
    }

    public class InvalidOperationException : ApplicationException
    {
        internal InvalidOperationException(string message) : base(message) { }
    }

    public class ArgumentException : ApplicationException
    {
        internal ArgumentException(string message) : base(message) { }
    }

    public class ModificationOutsideTransactionException : InvalidOperationException
    {
        internal ModificationOutsideTransactionException(string message) : base(message) { }
    }

    public class CentralModelException : ApplicationException
    {
        internal CentralModelException(string message) : base(message) { }
    }

    public class CentralModelContentionException : CentralModelException
    {
        internal CentralModelContentionException(string message) : base(message) { }
    }
}

namespace Autodesk.Revit.DB
{
    public enum BuiltInCategory
    {
        INVALID = -1, OST_Walls = -2000011, OST_Doors = -2000023, OST_Levels = -2000240, OST_Grids = -2000220,
        OST_Windows = -2000014, OST_Rooms = -2000160, OST_DoorTags = -2000460, OST_WindowTags = -2000450,
        OST_RoomTags = -2000480, OST_WallTags = -2005011, OST_MultiCategoryTags = -2005022,
        OST_TitleBlocks = -2000280, OST_TextNotes = -2000300, OST_Dimensions = -2000260, OST_Viewports = -2000510,
        OST_Floors = -2000032, OST_SketchLines = -2000045
    }

    public enum CategoryType { Invalid = 0, Model = 1, Annotation = 2, Internal = 4, AnalyticalModel = 5 }

    public enum BuiltInParameter { INVALID = -1, ALL_MODEL_MARK = -1001203, ROOM_NAME = -1006900, ROOM_NUMBER = -1006901,
                                   CURVE_ELEM_LENGTH = -1004005, ELEM_TYPE_PARAM = -1002052 }

    public enum StorageType { None = 0, Integer = 1, Double = 2, String = 3, ElementId = 4 }

    public enum ViewType { Undefined = 0, FloorPlan = 1, CeilingPlan = 2, Elevation = 3, ThreeD = 4, Schedule = 5, DrawingSheet = 6 }

    public enum TagOrientation { Horizontal = 0, Vertical = 1, AnyModelDirection = 2 }

    public enum TagMode { TM_ADDBY_CATEGORY = 0, TM_ADDBY_MULTICATEGORY = 1, TM_ADDBY_MATERIAL = 2 }

    public enum ShellLayerType { Interior = 0, Exterior = 1 }

    public enum ViewDetailLevel { Undefined = 0, Coarse = 1, Medium = 2, Fine = 3 }

    public enum SectionType { None = -1, Header = 0, Body = 1, Summary = 2, Footer = 3 }

    public enum TemporaryViewMode { RevealHiddenElements = 0, TemporaryHideIsolate = 1 }

    public enum ViewDuplicateOption { Duplicate = 0, AsDependent = 1, WithDetailing = 2 }

    public enum TransactionStatus { Uninitialized = 0, Started = 1, RolledBack = 2, Committed = 3 }

    public enum FailureSeverity { None = 0, Warning = 1, Error = 2, DocumentCorruption = 3 }

    public enum FailureProcessingResult { Continue = 0, ProceedWithRollBack = 1, ProceedWithCommit = 2, WaitForUserInput = 3 }

    public class ElementId : IComparable
    {
        private readonly long value;

        public ElementId(long id) { value = id; }
        public ElementId(BuiltInCategory categoryId) { value = (long)categoryId; }
        public ElementId(BuiltInParameter parameterId) { value = (long)parameterId; }

        public long Value { get { return value; } }
        public static ElementId InvalidElementId { get { return new ElementId(-1L); } }

        public int Compare(ElementId id) { return value.CompareTo(id.value); }
        public int CompareTo(object id) { return Compare((ElementId)id); }
        public static ElementId Parse(string idStr) { return new ElementId(long.Parse(idStr)); }

        public override bool Equals(object obj)
        {
            ElementId other = obj as ElementId;
            return other != null && other.value == value;
        }

        public override int GetHashCode() { return value.GetHashCode(); }
        public override string ToString() { return value.ToString(); }

        public static bool operator ==(ElementId first, ElementId second)
        {
            if (ReferenceEquals(first, null)) return ReferenceEquals(second, null);
            return first.Equals(second);
        }

        public static bool operator !=(ElementId first, ElementId second) { return !(first == second); }
        public static bool operator <(ElementId elementId1, ElementId elementId2) { return elementId1.Compare(elementId2) < 0; }
        public static bool operator >(ElementId elementId1, ElementId elementId2) { return elementId1.Compare(elementId2) > 0; }
        public static bool operator <=(ElementId elementId1, ElementId elementId2) { return elementId1.Compare(elementId2) <= 0; }
        public static bool operator >=(ElementId elementId1, ElementId elementId2) { return elementId1.Compare(elementId2) >= 0; }
    }

    public class XYZ
    {
        public XYZ(double x, double y, double z) { X = x; Y = y; Z = z; }
        public static XYZ Zero { get { return new XYZ(0, 0, 0); } }
        public double X { get; private set; }
        public double Y { get; private set; }
        public double Z { get; private set; }

        public XYZ Add(XYZ source) { return new XYZ(X + source.X, Y + source.Y, Z + source.Z); }
        public XYZ CrossProduct(XYZ source)
        {
            return new XYZ(Y * source.Z - Z * source.Y, Z * source.X - X * source.Z, X * source.Y - Y * source.X);
        }
    }

    public class UV
    {
        public UV() { }
        public UV(double u, double v) { U = u; V = v; }
        public double U { get; private set; }
        public double V { get; private set; }
    }

    public class BoundingBoxUV
    {
        public BoundingBoxUV(double minU, double minV, double maxU, double maxV)
        {
            Min = new UV(minU, minV);
            Max = new UV(maxU, maxV);
        }
        public UV Min { get; private set; }
        public UV Max { get; private set; }
    }

    public class Outline
    {
        public Outline(XYZ minimumPoint, XYZ maximumPoint) { MinimumPoint = minimumPoint; MaximumPoint = maximumPoint; }
        public XYZ MinimumPoint { get; private set; }
        public XYZ MaximumPoint { get; private set; }

        public bool ContainsOtherOutline(Outline outline, double tolerance)
        {
            return outline.MinimumPoint.X >= MinimumPoint.X - tolerance && outline.MinimumPoint.Y >= MinimumPoint.Y - tolerance
                && outline.MaximumPoint.X <= MaximumPoint.X + tolerance && outline.MaximumPoint.Y <= MaximumPoint.Y + tolerance;
        }

        // Revit: a negative tolerance lets boxes that only touch count as apart.
        public bool Intersects(Outline outline, double tolerance)
        {
            return outline.MinimumPoint.X <= MaximumPoint.X + tolerance && outline.MaximumPoint.X >= MinimumPoint.X - tolerance
                && outline.MinimumPoint.Y <= MaximumPoint.Y + tolerance && outline.MaximumPoint.Y >= MinimumPoint.Y - tolerance;
        }
    }

    public abstract class Curve
    {
        public abstract XYZ GetEndPoint(int index);
        public abstract XYZ Evaluate(double parameter, bool normalized);
        public abstract double Distance(XYZ point);
    }

    public class Line : Curve
    {
        private readonly XYZ start, end;

        private Line(XYZ start, XYZ end) { this.start = start; this.end = end; }
        public static Line CreateBound(XYZ endpoint1, XYZ endpoint2) { return new Line(endpoint1, endpoint2); }

        public override XYZ GetEndPoint(int index) { return index == 0 ? start : end; }

        public override XYZ Evaluate(double parameter, bool normalized)
        {
            return new XYZ(start.X + (end.X - start.X) * parameter, start.Y + (end.Y - start.Y) * parameter,
                           start.Z + (end.Z - start.Z) * parameter);
        }

        public override double Distance(XYZ point)
        {
            double dx = end.X - start.X, dy = end.Y - start.Y, dz = end.Z - start.Z;
            double length2 = dx * dx + dy * dy + dz * dz;
            double t = length2 == 0 ? 0 : ((point.X - start.X) * dx + (point.Y - start.Y) * dy + (point.Z - start.Z) * dz) / length2;
            XYZ nearest = Evaluate(Math.Max(0, Math.Min(1, t)), true);
            double ex = point.X - nearest.X, ey = point.Y - nearest.Y, ez = point.Z - nearest.Z;
            return Math.Sqrt(ex * ex + ey * ey + ez * ez);
        }
    }

    public class Location { internal Location() { } }

    public class LocationPoint : Location
    {
        internal LocationPoint(XYZ point) { Point = point; }
        public XYZ Point { get; private set; }
    }

    public class LocationCurve : Location
    {
        internal LocationCurve(Curve curve) { Curve = curve; }
        public Curve Curve { get; private set; }
    }

    public class Category
    {
        internal Category(BuiltInCategory builtIn, string name)
        {
            BuiltInCategory = builtIn;
            Name = name;
            Id = new ElementId(builtIn);
            CategoryType = CategoryType.Model;
        }
        public ElementId Id { get; private set; }
        public string Name { get; private set; }
        public BuiltInCategory BuiltInCategory { get; private set; }
        public CategoryType CategoryType { get; internal set; }
    }

    // A parameter: text (the lane's names and marks), or a Double with a spec (a wall's Length).
    // Every public member read from Python counts one crossing (ParacoreClrLane.Crossings).
    public class Parameter
    {
        private readonly string value;
        internal readonly double Number;
        internal readonly StorageType Storage;
        internal readonly ElementId ParameterId;
        private readonly Definition definition;
        internal Parameter(string value) { this.value = value; Storage = StorageType.String; ParameterId = ElementId.InvalidElementId; }
        internal Parameter(BuiltInParameter id, string name, double number, ForgeTypeId spec)
        {
            Number = number;
            Storage = StorageType.Double;
            ParameterId = new ElementId(id);
            definition = new Definition(name, spec);
        }
        public string AsString() { ParacoreClrLane.Crossings.Count++; return value; }
        public double AsDouble() { ParacoreClrLane.Crossings.Count++; return Number; }
        public bool HasValue { get { ParacoreClrLane.Crossings.Count++; return true; } }
        public bool IsShared { get { ParacoreClrLane.Crossings.Count++; return false; } }
        public StorageType StorageType { get { ParacoreClrLane.Crossings.Count++; return Storage; } }
        public ElementId Id { get { ParacoreClrLane.Crossings.Count++; return ParameterId; } }
        public Definition Definition { get { ParacoreClrLane.Crossings.Count++; return definition; } }
    }

    public class Definition
    {
        private readonly string name;
        private readonly ForgeTypeId spec;
        internal Definition(string name, ForgeTypeId spec) { this.name = name; this.spec = spec; }
        public string Name { get { ParacoreClrLane.Crossings.Count++; return name; } }
        public ForgeTypeId GetDataType() { ParacoreClrLane.Crossings.Count++; return spec; }
    }

    public class ForgeTypeId
    {
        public ForgeTypeId(string typeId) { TypeId = typeId; }
        public string TypeId { get; private set; }
        // Revit's ForgeTypeId compares by its TypeId (operator == and Equals).
        public override bool Equals(object obj) { ForgeTypeId other = obj as ForgeTypeId; return other != null && other.TypeId == TypeId; }
        public override int GetHashCode() { return TypeId.GetHashCode(); }
    }

    public static class SpecTypeId
    {
        public static ForgeTypeId Length { get { return new ForgeTypeId("autodesk.spec.aec:length-2.0.0"); } }
        public static ForgeTypeId Angle { get { return new ForgeTypeId("autodesk.spec.aec:angle-2.0.0"); } }
        public static ForgeTypeId Area { get { return new ForgeTypeId("autodesk.spec.aec:area-2.0.0"); } }
    }

    public static class UnitFormatUtils
    {
        // The lane's units are metres: an area (square feet inside) is shown in m², a length in m.
        public static string Format(Units units, ForgeTypeId specTypeId, double value, bool forEditing)
        {
            if (specTypeId.Equals(SpecTypeId.Area))
                return (value * 0.09290304).ToString("F2", System.Globalization.CultureInfo.InvariantCulture) + " m²";
            return (value * 0.3048).ToString("F2", System.Globalization.CultureInfo.InvariantCulture) + " m";
        }
    }

    public static class UnitUtils
    {
        // The lane's units are metres: internal feet are metres / 0.3048.
        public static double ConvertToInternalUnits(double value, ForgeTypeId unitTypeId) { return value / 0.3048; }
    }

    public class FormatOptions
    {
        private readonly ForgeTypeId unit;
        internal FormatOptions(ForgeTypeId unit) { this.unit = unit; }
        public ForgeTypeId GetUnitTypeId() { return unit; }
        public double Accuracy { get { return 0.001; } }
    }

    public class Units
    {
        internal Units() { }
        public FormatOptions GetFormatOptions(ForgeTypeId specTypeId)
        {
            return new FormatOptions(new ForgeTypeId("autodesk.unit.unit:meters-1.0.1"));
        }
    }

    public class CurveLoop
    {
        public CurveLoop() { }
    }

    public class Element
    {
        private readonly Dictionary<BuiltInParameter, Parameter> parameters = new Dictionary<BuiltInParameter, Parameter>();

        internal Element(Document document, long id, string name)
        {
            Document = document;
            Id = new ElementId(id);
            Name = name;
            OwnerViewId = ElementId.InvalidElementId;
            TypeId = ElementId.InvalidElementId;
        }

        public ElementId Id { get; private set; }
        public string Name { get; set; }
        public Document Document { get; private set; }
        internal XYZ Offset { get; set; }   // the lane's record of a move
        public Category Category { get; internal set; }
        public Location Location { get; internal set; }
        public ElementId OwnerViewId { get; internal set; }
        internal ElementId TypeId { get; set; }

        public ElementId GetTypeId() { ParacoreClrLane.Crossings.Count++; return TypeId; }

        // The user workset the element is on (the lane's Document.Worksets; "Workset1", id 0, by default).
        public WorksetId WorksetId
        {
            get
            {
                int workset;
                return new WorksetId(Document.ElementWorksets.TryGetValue(Id.Value, out workset) ? workset : 0);
            }
        }

        // Revit's indexed property `Parameter[BuiltInParameter]`, which pythonnet shows as get_Parameter.
        [System.Runtime.CompilerServices.IndexerName("Parameter")]
        public Parameter this[BuiltInParameter parameterId]
        {
            get
            {
                Parameter found;
                return parameters.TryGetValue(parameterId, out found) ? found : null;
            }
        }

        internal void SetParameter(BuiltInParameter parameterId, string value) { parameters[parameterId] = new Parameter(value); }

        private readonly Dictionary<string, Parameter> named = new Dictionary<string, Parameter>();
        internal void AddParameter(Parameter parameter, string name) { named[name] = parameter; }
        internal Parameter ParameterWithId(ElementId id)
        {
            foreach (Parameter parameter in named.Values) if (parameter.ParameterId == id) return parameter;
            return null;
        }

        public Parameter LookupParameter(string name)
        {
            ParacoreClrLane.Crossings.Count++;
            Parameter found;
            return named.TryGetValue(name, out found) ? found : null;
        }
    }

    public class ElementType : Element
    {
        internal ElementType(Document document, long id, string name, string familyName) : base(document, id, name)
        {
            FamilyName = familyName;
        }
        public string FamilyName { get; private set; }
    }

    public class FamilySymbol : ElementType
    {
        internal FamilySymbol(Document document, long id, string name, string familyName) : base(document, id, name, familyName) { }
        internal double PaperWidth { get; set; }    // a title block's sheet, in feet
        internal double PaperHeight { get; set; }
    }

    // Revit: TextNoteType : LineAndTextAttrSymbol : ElementType (the middle class has nothing Paracore uses).
    public class TextNoteType : ElementType
    {
        internal TextNoteType(Document document, long id, string name) : base(document, id, name, "") { }
    }

    public class FailureMessage
    {
        private readonly string text;
        private readonly List<ElementId> failing;
        internal FailureMessage(string text, List<ElementId> failing) { this.text = text; this.failing = failing; }
        public string GetDescriptionText() { return text; }
        public ICollection<ElementId> GetFailingElements() { return new List<ElementId>(failing); }
    }

    public class Instance : Element
    {
        internal Instance(Document document, long id, string name) : base(document, id, name) { }
        internal Transform Placement { get; set; }

        public Transform GetTransform() { return Placement ?? new Transform(new XYZ(0, 0, 0), 0); }
        public Transform GetTotalTransform() { return GetTransform(); }
    }

    // A rotation about Z and a translation: what a link instance's placement needs here.
    public class Transform
    {
        private readonly double angle;
        internal Transform(XYZ origin, double angle) { Origin = origin; this.angle = angle; }
        public XYZ Origin { get; private set; }
        public XYZ BasisX { get { return new XYZ(Math.Cos(angle), Math.Sin(angle), 0); } }
        public XYZ BasisY { get { return new XYZ(-Math.Sin(angle), Math.Cos(angle), 0); } }
        public XYZ BasisZ { get { return new XYZ(0, 0, 1); } }

        public XYZ OfPoint(XYZ point)
        {
            return new XYZ(Origin.X + point.X * Math.Cos(angle) - point.Y * Math.Sin(angle),
                           Origin.Y + point.X * Math.Sin(angle) + point.Y * Math.Cos(angle), Origin.Z + point.Z);
        }
    }

    public class RevitLinkInstance : Instance
    {
        internal RevitLinkInstance(Document document, long id, string name) : base(document, id, name) { }
        internal Document LinkDocument { get; set; }

        // Revit: null when the link is not loaded.
        public Document GetLinkDocument()
        {
            return RevitLinkType.IsLoaded(Document, GetTypeId()) ? LinkDocument : null;
        }
    }

    public class ProjectPosition
    {
        public ProjectPosition(double eastWest, double northSouth, double elevation, double angle)
        {
            EastWest = eastWest; NorthSouth = northSouth; Elevation = elevation; Angle = angle;
        }
        public double EastWest { get; private set; }
        public double NorthSouth { get; private set; }
        public double Elevation { get; private set; }
        public double Angle { get; private set; }
    }

    public class ProjectLocation : Instance
    {
        internal ProjectLocation(Document document, long id, string name) : base(document, id, name) { }
        internal ProjectPosition Shared { get; set; }

        // The lane records only the position of the internal origin (the point check_model asks about).
        public ProjectPosition GetProjectPosition(XYZ point)
        {
            ParacoreClrLane.Revit.Record("ProjectLocation.GetProjectPosition(XYZ)");
            return Shared;
        }
    }

    public class RevitLinkType : ElementType
    {
        internal RevitLinkType(Document document, long id, string name) : base(document, id, name, "") { }
        internal bool Loaded { get; set; }

        public static bool IsLoaded(Document document, ElementId typeId)
        {
            ParacoreClrLane.Revit.Record("RevitLinkType.IsLoaded(Document, ElementId)");
            RevitLinkType type = document.GetElement(typeId) as RevitLinkType;
            return type != null && type.Loaded;
        }
    }

    public class Level : Element
    {
        internal Level(Document document, long id, string name, double elevation) : base(document, id, name) { Elevation = elevation; }
        public double Elevation { get; private set; }
    }

    public class FamilyInstance : Element
    {
        internal FamilyInstance(Document document, long id, string name) : base(document, id, name) { LevelId = ElementId.InvalidElementId; }
        internal HostObject Host { get; set; }
        public ElementId LevelId { get; internal set; }

        // The last phase's rooms (Revit's properties without a phase): the lane's doors face their
        // host wall's Orientation; To Room is on that side, From Room on the other, 1 ft past the wall.
        public Autodesk.Revit.DB.Architecture.Room Room { get { return RoomBeside(0); } }
        public Autodesk.Revit.DB.Architecture.Room FromRoom { get { return Host == null ? null : RoomBeside(-1); } }
        public Autodesk.Revit.DB.Architecture.Room ToRoom { get { return Host == null ? null : RoomBeside(1); } }

        private Autodesk.Revit.DB.Architecture.Room RoomBeside(double side)
        {
            LocationPoint at = Location as LocationPoint;
            if (at == null) return null;
            Wall wall = Host as Wall;
            XYZ facing = wall == null ? new XYZ(0, 0, 0) : wall.Orientation;
            double reach = wall == null ? 0 : wall.Width / 2 + 1;
            double x = at.Point.X + side * facing.X * reach, y = at.Point.Y + side * facing.Y * reach;
            foreach (Element element in Document.All())
            {
                Autodesk.Revit.DB.Architecture.Room room = element as Autodesk.Revit.DB.Architecture.Room;
                if (room != null && room.Region != null && room.Region.Contains(x, y)) return room;
            }
            return null;
        }
    }

    public class Document
    {
        private readonly Dictionary<long, Element> elements = new Dictionary<long, Element>();
        private long nextId = 1000;

        internal Document(string title, bool readOnly)
        {
            Title = title;
            PathName = "";
            IsReadOnly = readOnly;
        }

        public string Title { get; private set; }
        public string PathName { get; set; }
        public bool IsReadOnly { get; private set; }
        public bool IsLinked { get; internal set; }
        public bool IsWorkshared { get; set; }
        // Worksharing, as WorksharingUtils reads it here: element id -> the user who borrows it,
        // and the ids changed in central since this copy last reloaded.
        public string Username = "you";
        public Dictionary<long, string> Owners = new Dictionary<long, string>();
        public HashSet<long> ChangedInCentral = new HashSet<long>();
        // Ownership through worksets: element id -> workset id, workset id -> who made it editable;
        // and a central locked by another user's synchronize.
        public Dictionary<long, int> ElementWorksets = new Dictionary<long, int>();
        public Dictionary<int, string> WorksetOwners = new Dictionary<int, string>();
        public bool CentralLocked = false;
        public bool IsDetached { get; set; }
        public WorksetTable GetWorksetTable() { return new WorksetTable(this); }
        internal string OwnerOf(long id)
        {
            string owner;
            if (Owners.TryGetValue(id, out owner)) return owner;
            int workset;
            ElementWorksets.TryGetValue(id, out workset);
            return WorksetOwners.TryGetValue(workset, out owner) ? owner : null;
        }
        private ProjectLocation location;
        // Revit: the project's shared coordinates ("Internal", all 0, in a new project).
        public ProjectLocation ActiveProjectLocation
        {
            get
            {
                if (location == null)
                {
                    location = new ProjectLocation(this, TakeId(), "Internal");
                    location.Shared = new ProjectPosition(0, 0, 0, 0);
                }
                return location;
            }
        }
        // Revit: the Application the document belongs to (set when the lane opens it). A new .NET
        // wrapper on every read, over the one application whose events it shares (as a native
        // application's wrappers would be): pythonnet cannot tell two reads apart by `is` or `==`.
        private Autodesk.Revit.ApplicationServices.ApplicationCore core;
        public Autodesk.Revit.ApplicationServices.Application Application
        {
            get { return core == null ? null : new Autodesk.Revit.ApplicationServices.Application(core); }
            internal set { core = value == null ? null : value.Core; }
        }
        internal Autodesk.Revit.ApplicationServices.ApplicationCore Core { get { return core; } }
        internal Transaction OpenTransaction { get; set; }
        internal readonly List<TransactionGroup> OpenGroups = new List<TransactionGroup>();
        internal readonly List<ChangeRecord> UndoStack = new List<ChangeRecord>();

        public Autodesk.Revit.Creation.Document Create { get { return new Autodesk.Revit.Creation.Document(this); } }
        public Units GetUnits() { return new Units(); }

        // Revit settles joins, hosts and constraints here; the lane's elements have none to settle.
        public void Regenerate() { RequireTransaction("Document.Regenerate"); }

        internal long TakeId() { return nextId++; }

        internal T Register<T>(T element) where T : Element
        {
            elements[element.Id.Value] = element;
            if (OpenTransaction != null) OpenTransaction.Changes.Added.Add(element);
            return element;
        }

        // Rolling back or undoing: an added element leaves, a deleted one comes back.
        internal void Revert(ChangeRecord record)
        {
            foreach (Element element in record.Added) elements.Remove(element.Id.Value);
            foreach (Element element in record.Removed) elements[element.Id.Value] = element;
        }

        internal IEnumerable<Element> All() { return new List<Element>(elements.Values); }

        internal readonly List<FailureMessage> Warnings = new List<FailureMessage>();
        public IList<FailureMessage> GetWarnings() { return new List<FailureMessage>(Warnings); }

        public Element GetElement(ElementId id)
        {
            Element found;
            return elements.TryGetValue(id.Value, out found) ? found : null;
        }

        public ICollection<ElementId> Delete(ICollection<ElementId> elementIds)
        {
            RequireTransaction("Document.Delete");
            List<ElementId> deleted = new List<ElementId>();
            foreach (ElementId id in elementIds)
            {
                Element element;
                if (!elements.TryGetValue(id.Value, out element)) continue;
                elements.Remove(id.Value);
                OpenTransaction.Changes.Removed.Add(element);
                deleted.Add(id);
            }
            return deleted;
        }

        public ICollection<ElementId> Delete(ElementId elementId)
        {
            return Delete(new List<ElementId> { elementId });
        }

        internal ICollection<ElementId> AllIds()
        {
            List<ElementId> ids = new List<ElementId>();
            foreach (long id in elements.Keys) ids.Add(new ElementId(id));
            return ids;
        }

        internal Element Add(string name)
        {
            RequireTransaction("creating an element");
            Element element = AddUnchecked(name);
            OpenTransaction.Changes.Added.Add(element);
            return element;
        }

        internal Element AddUnchecked(string name)
        {
            Element element = new Element(this, nextId++, name);
            elements[element.Id.Value] = element;
            return element;
        }

        internal View AddView(string name, bool template)
        {
            View view = new View(this, nextId++, name);
            view.IsTemplate = template;
            elements[view.Id.Value] = view;
            return view;
        }

        internal void RequireTransaction(string what)
        {
            if (OpenTransaction == null)
            {
                throw new Autodesk.Revit.Exceptions.ModificationOutsideTransactionException(
                    "Attempt to modify the model outside of transaction (" + what + ").");
            }
        }
    }

    // Application.Documents: every open document, links included (IEnumerable, as Revit's).
    public class DocumentSet : System.Collections.IEnumerable
    {
        private readonly List<Document> documents = new List<Document>();

        public DocumentSet() { }

        public int Size { get { return documents.Count; } }
        public bool IsEmpty { get { return documents.Count == 0; } }
        public bool Contains(Document item) { return documents.Contains(item); }
        public bool Insert(Document item)
        {
            if (documents.Contains(item)) return false;
            documents.Add(item);
            return true;
        }

        public System.Collections.IEnumerator GetEnumerator() { return documents.GetEnumerator(); }
    }

    public class View : Element
    {
        private readonly List<ElementId> isolated = new List<ElementId>();

        private ElementId templateId = ElementId.InvalidElementId;

        internal View(Document document, long id, string name) : base(document, id, name)
        {
            ViewType = ViewType.FloorPlan;
            Scale = 100;
            DetailLevel = ViewDetailLevel.Coarse;
        }

        public bool IsTemplate { get; internal set; }
        public ViewType ViewType { get; internal set; }
        public int Scale { get; set; }
        public ViewDetailLevel DetailLevel { get; set; }

        // A sheet's outline is its title block's paper, in sheet feet; other views' is left empty here.
        public BoundingBoxUV Outline { get; internal set; }
        internal double PaperWidth { get; set; }    // the viewport box a view gets on a sheet, in feet
        internal double PaperHeight { get; set; }

        // View templates and duplicates (Revit 2026: View.ViewTemplateId, IsValidViewTemplate,
        // CanViewBeDuplicated(ViewDuplicateOption), Duplicate(ViewDuplicateOption) -> ElementId).
        public ElementId ViewTemplateId
        {
            get { return templateId; }
            set
            {
                Document.RequireTransaction("View.ViewTemplateId");
                if (value.Value != -1 && !IsValidViewTemplate(value))
                    throw new Autodesk.Revit.Exceptions.ArgumentException("The view template is not valid for this view.");
                templateId = value;
                View template = Document.GetElement(value) as View;
                if (template != null)
                {
                    Scale = template.Scale;             // the view takes the settings its template controls
                    DetailLevel = template.DetailLevel;
                }
            }
        }

        public bool IsValidViewTemplate(ElementId templateId)
        {
            View template = Document.GetElement(templateId) as View;
            return template != null && template.IsTemplate && !IsTemplate;
        }

        public bool CanViewBeDuplicated(ViewDuplicateOption duplicateOption)
        {
            return !IsTemplate && duplicateOption != ViewDuplicateOption.AsDependent;
        }

        public ElementId Duplicate(ViewDuplicateOption duplicateOption)
        {
            Document.RequireTransaction("View.Duplicate");
            if (!CanViewBeDuplicated(duplicateOption))
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("The view cannot be duplicated.");
            View copy = Document.AddView(Name + " Copy 1", false);
            copy.templateId = templateId;
            return copy.Id;
        }
        public bool CropBoxActive { get; set; }

        public void IsolateElementsTemporary(ICollection<ElementId> elementIds)
        {
            isolated.Clear();
            isolated.AddRange(elementIds);
        }

        public bool IsTemporaryHideIsolateActive() { return isolated.Count > 0; }

        public void DisableTemporaryViewMode(TemporaryViewMode mode) { isolated.Clear(); }

        internal int IsolatedCount { get { return isolated.Count; } }

        // The lane's views are plans (and sheets): looking down on the model, as annotation reads them.
        public XYZ RightDirection { get { return new XYZ(1, 0, 0); } }
        public XYZ UpDirection { get { return new XYZ(0, 1, 0); } }
        public XYZ ViewDirection { get { return new XYZ(0, 0, 1); } }
        public XYZ Origin { get { return new XYZ(0, 0, 0); } }
    }

    // Schedules are TableViews; Paracore refuses to isolate in one (is-a check only).
    public class TableView : View
    {
        internal TableView(Document document, long id, string name) : base(document, id, name) { }

        internal List<string[]> Cells = new List<string[]>();

        public string GetCellText(SectionType sectionType, int row, int column)
        {
            if (sectionType != SectionType.Body) return "";
            return Cells[row][column];
        }
    }

    public class ViewSchedule : TableView
    {
        internal ViewSchedule(Document document, long id, string name) : base(document, id, name) { ViewType = ViewType.Schedule; }

        public TableData GetTableData() { return new TableData(this); }
    }

    // A schedule's table: the body section holds the column headings row, then the rows.
    public class TableData
    {
        private readonly TableView view;
        internal TableData(TableView view) { this.view = view; }

        public TableSectionData GetSectionData(SectionType sectionType)
        {
            ParacoreClrLane.Revit.Record("TableData.GetSectionData(SectionType." + sectionType + ")");
            return sectionType == SectionType.Body ? new TableSectionData(view) : null;
        }

        public TableSectionData GetSectionData(int nIndex)
        {
            ParacoreClrLane.Revit.Record("TableData.GetSectionData(Int32)");
            return nIndex == (int)SectionType.Body ? new TableSectionData(view) : null;
        }
    }

    public class TableSectionData
    {
        private readonly TableView view;
        internal TableSectionData(TableView view) { this.view = view; }
        public int NumberOfRows { get { return view.Cells.Count; } }
        public int NumberOfColumns { get { return view.Cells.Count == 0 ? 0 : view.Cells[0].Length; } }
    }

    public class Floor : Element
    {
        internal Floor(Document document, long id, string name) : base(document, id, name) { }

        public ElementId SketchId { get; private set; }

        // Revit: Floor.Create makes the floor's sketch too ("Input curves build invalid sketch. -or-
        // Failed to create curve elements"): a Sketch on a SketchPlane, with a line per edge.
        public static Floor Create(Document document, IList<CurveLoop> profile, ElementId floorTypeId, ElementId levelId)
        {
            if (profile.Count == 0) throw new Autodesk.Revit.Exceptions.ArgumentException("The profile is empty.");
            document.RequireTransaction("Floor.Create");
            Floor floor = document.Register(new Floor(document, document.TakeId(), "Floor (" + profile.Count + " loops)"));
            floor.Category = new Category(BuiltInCategory.OST_Floors, "Floors");
            SketchPlane plane = document.Register(new SketchPlane(document, document.TakeId(), "Level 1"));
            Sketch sketch = document.Register(new Sketch(document, document.TakeId(), plane, floor.Id));
            for (int edge = 0; edge < 4; edge++)
            {
                ModelLine line = document.Register(new ModelLine(document, document.TakeId(), plane));
                line.Category = new Category(BuiltInCategory.OST_SketchLines, "<Sketch>");
            }
            floor.SketchId = sketch.Id;
            return floor;
        }
    }

    public class SketchPlane : Element
    {
        internal SketchPlane(Document document, long id, string name) : base(document, id, name) { }
    }

    public class SketchBase : Element
    {
        internal SketchBase(Document document, long id, string name) : base(document, id, name) { }
    }

    public class Sketch : SketchBase
    {
        internal Sketch(Document document, long id, SketchPlane plane, ElementId ownerId) : base(document, id, "Sketch")
        {
            SketchPlane = plane;
            OwnerId = ownerId;
        }

        public SketchPlane SketchPlane { get; private set; }
        public ElementId OwnerId { get; private set; }
    }

    public class CurveElement : Element
    {
        internal CurveElement(Document document, long id, SketchPlane plane) : base(document, id, "Model Lines")
        {
            SketchPlane = plane;
        }

        public SketchPlane SketchPlane { get; private set; }
    }

    public class ModelCurve : CurveElement
    {
        internal ModelCurve(Document document, long id, SketchPlane plane) : base(document, id, plane) { }
    }

    public class ModelLine : ModelCurve
    {
        internal ModelLine(Document document, long id, SketchPlane plane) : base(document, id, plane) { }
    }

    public static class ElementTransformUtils
    {
        public static void MoveElements(Document document, ICollection<ElementId> elementsToMove, XYZ translation)
        {
            document.RequireTransaction("ElementTransformUtils.MoveElements");
            foreach (ElementId id in elementsToMove)
            {
                Element element = document.GetElement(id);
                if (element == null) throw new Autodesk.Revit.Exceptions.ArgumentException("Element " + id + " does not exist.");
                element.Offset = translation;
            }
        }

        public static ICollection<ElementId> CopyElements(Document document, ICollection<ElementId> elementsToCopy, XYZ translation)
        {
            document.RequireTransaction("ElementTransformUtils.CopyElements");
            List<ElementId> copies = new List<ElementId>();
            foreach (ElementId id in elementsToCopy) copies.Add(document.Add(document.GetElement(id).Name).Id);
            return copies;
        }

        public static void RotateElements(Document document, ICollection<ElementId> elementsToRotate, Line axis, double angle)
        {
            document.RequireTransaction("ElementTransformUtils.RotateElements");
        }
    }

    public class Transaction : IDisposable
    {
        private readonly Document document;
        private TransactionStatus status = TransactionStatus.Uninitialized;

        public Transaction(Document document, string name)
        {
            this.document = document;
            Name = name;
        }

        internal string Name { get; private set; }
        internal ChangeRecord Changes { get; private set; }
        private FailureHandlingOptions options = new FailureHandlingOptions();

        public string GetName() { return Name; }
        public FailureHandlingOptions GetFailureHandlingOptions() { return options; }
        public void SetFailureHandlingOptions(FailureHandlingOptions options) { this.options = options; }

        public TransactionStatus Start()
        {
            if (document.IsReadOnly)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("The document is read-only: cannot start a transaction.");
            if (document.OpenTransaction != null)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("Another transaction is already open.");
            document.OpenTransaction = this;
            Changes = new ChangeRecord(Name, new List<string> { Name });
            status = TransactionStatus.Started;
            // Revit: "every time a transaction starts, Failure Handling Options will be reset to their default values".
            options = new FailureHandlingOptions();
            return status;
        }

        // Revit files the commit in the innermost open group, else on the undo list, and raises
        // DocumentChanged (TransactionCommitted) with the transaction's name and ids.
        public TransactionStatus Commit()
        {
            End(TransactionStatus.Committed);
            if (Changes.IsEmpty) return status;
            if (document.OpenGroups.Count > 0) document.OpenGroups[document.OpenGroups.Count - 1].Records.Add(Changes);
            else document.UndoStack.Add(Changes);
            ParacoreClrLane.Revit.RaiseDocumentChanged(document, Autodesk.Revit.DB.Events.UndoOperation.TransactionCommitted, Changes, false);
            return status;
        }

        public TransactionStatus RollBack()
        {
            End(TransactionStatus.RolledBack);
            document.Revert(Changes);
            return status;
        }
        public TransactionStatus GetStatus() { return status; }
        public bool HasStarted() { return status != TransactionStatus.Uninitialized; }
        public bool HasEnded() { return status == TransactionStatus.Committed || status == TransactionStatus.RolledBack; }

        public void Dispose()
        {
            if (status == TransactionStatus.Started) RollBack();
        }

        private TransactionStatus End(TransactionStatus final)
        {
            if (status != TransactionStatus.Started)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("The transaction has not been started.");
            document.OpenTransaction = null;
            status = final;
            return status;
        }
    }

    public class FailureHandlingOptions
    {
        internal FailureHandlingOptions() { }
        internal IFailuresPreprocessor Preprocessor { get; private set; }
        internal bool ClearAfterRollback { get; private set; }

        public FailureHandlingOptions SetFailuresPreprocessor(IFailuresPreprocessor preprocessor)
        {
            Preprocessor = preprocessor;
            return this;
        }

        public FailureHandlingOptions SetClearAfterRollback(bool clearAfterRollback)
        {
            ClearAfterRollback = clearAfterRollback;
            return this;
        }
    }

    // What one commit (or an assimilated group) did: one undo entry, with the names Revit reports.
    internal class ChangeRecord
    {
        internal ChangeRecord(string name, List<string> names) { Name = name; Names = names; }
        internal string Name { get; private set; }
        internal List<string> Names { get; private set; }
        internal readonly List<Element> Added = new List<Element>();
        internal readonly List<Element> Removed = new List<Element>();
        internal bool IsEmpty { get { return Added.Count == 0 && Removed.Count == 0; } }

        internal static ChangeRecord Merge(string name, List<ChangeRecord> records)
        {
            ChangeRecord merged = new ChangeRecord(name, new List<string>());
            foreach (ChangeRecord record in records)
            {
                merged.Names.AddRange(record.Names);
                merged.Added.AddRange(record.Added);
                merged.Removed.AddRange(record.Removed);
            }
            return merged;
        }
    }

    public class TransactionGroup : IDisposable
    {
        private readonly Document document;
        private readonly string name;
        private TransactionStatus status = TransactionStatus.Uninitialized;
        internal readonly List<ChangeRecord> Records = new List<ChangeRecord>();

        public TransactionGroup(Document document, string name)
        {
            this.document = document;
            this.name = name;
        }

        public string GetName() { return name; }
        public TransactionStatus GetStatus() { return status; }
        public bool HasStarted() { return status != TransactionStatus.Uninitialized; }
        public bool HasEnded() { return status == TransactionStatus.Committed || status == TransactionStatus.RolledBack; }

        public TransactionStatus Start()
        {
            if (document.IsReadOnly)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("The document is read-only: cannot start a transaction group.");
            if (document.OpenTransaction != null)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("A transaction is open.");
            document.OpenGroups.Add(this);
            status = TransactionStatus.Started;
            return status;
        }

        // Assimilate: the group's commits become one undo entry named after the group.
        public TransactionStatus Assimilate()
        {
            Close();
            if (Records.Count > 0) Target().Add(ChangeRecord.Merge(name, Records));
            return status = TransactionStatus.Committed;
        }

        public TransactionStatus Commit()
        {
            Close();
            Target().AddRange(Records);
            return status = TransactionStatus.Committed;
        }

        // Revit undoes the group's commits. Whether it raises DocumentChanged for that is not
        // documented: ParacoreClrLane.Revit.GroupRollBackRaisesDocumentChanged chooses.
        public TransactionStatus RollBack()
        {
            Close();
            ChangeRecord all = ChangeRecord.Merge(name, Records);
            for (int i = Records.Count - 1; i >= 0; i--) document.Revert(Records[i]);
            if (ParacoreClrLane.Revit.GroupRollBackRaisesDocumentChanged && !all.IsEmpty)
                ParacoreClrLane.Revit.RaiseDocumentChanged(document, Autodesk.Revit.DB.Events.UndoOperation.TransactionGroupRolledBack, all, true);
            return status = TransactionStatus.RolledBack;
        }

        public void Dispose()
        {
            if (status == TransactionStatus.Started) RollBack();
        }

        private void Close()
        {
            if (status != TransactionStatus.Started || document.OpenGroups.Count == 0
                || document.OpenGroups[document.OpenGroups.Count - 1] != this)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("The transaction group is not the innermost one started.");
            if (document.OpenTransaction != null)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("A transaction inside the group is open.");
            document.OpenGroups.RemoveAt(document.OpenGroups.Count - 1);
        }

        private List<ChangeRecord> Target()
        {
            return document.OpenGroups.Count > 0 ? document.OpenGroups[document.OpenGroups.Count - 1].Records : document.UndoStack;
        }
    }

    // Element filters and parameter rules: evaluated inside .NET, reading no public member.
    public abstract class ElementFilter
    {
        internal abstract bool Passes(Element element);
        public bool PassesFilter(Element element) { return Passes(element); }
    }

    public abstract class ElementQuickFilter : ElementFilter { }

    public abstract class ElementSlowFilter : ElementFilter { }

    public class LogicalOrFilter : ElementFilter
    {
        private readonly List<ElementFilter> filters;
        public LogicalOrFilter(IList<ElementFilter> filters) { this.filters = new List<ElementFilter>(filters); }
        internal override bool Passes(Element element)
        {
            foreach (ElementFilter filter in filters) if (filter.Passes(element)) return true;
            return false;
        }
    }

    public class ElementParameterFilter : ElementSlowFilter
    {
        private readonly FilterRule rule;
        public ElementParameterFilter(FilterRule filterRule) { rule = filterRule; }
        internal override bool Passes(Element element) { return rule.Passes(element); }
    }

    public abstract class FilterRule
    {
        internal abstract bool Passes(Element element);
        public bool ElementPasses(Element element) { return Passes(element); }
    }

    public abstract class FilterValueRule : FilterRule { }

    public abstract class FilterNumericValueRule : FilterValueRule { }

    public abstract class FilterNumericRuleEvaluator
    {
        internal abstract bool Compare(double value, double rule, double epsilon);
    }

    public class FilterNumericEquals : FilterNumericRuleEvaluator
    {
        internal override bool Compare(double value, double rule, double epsilon) { return Math.Abs(value - rule) <= epsilon; }
    }

    public class FilterNumericGreater : FilterNumericRuleEvaluator
    {
        internal override bool Compare(double value, double rule, double epsilon) { return value > rule + epsilon; }
    }

    public class FilterNumericGreaterOrEqual : FilterNumericRuleEvaluator
    {
        internal override bool Compare(double value, double rule, double epsilon) { return value >= rule - epsilon; }
    }

    public class FilterNumericLess : FilterNumericRuleEvaluator
    {
        internal override bool Compare(double value, double rule, double epsilon) { return value < rule - epsilon; }
    }

    public class FilterNumericLessOrEqual : FilterNumericRuleEvaluator
    {
        internal override bool Compare(double value, double rule, double epsilon) { return value <= rule + epsilon; }
    }

    public abstract class FilterableValueProvider { }

    public class ParameterValueProvider : FilterableValueProvider
    {
        internal readonly ElementId Id;
        public ParameterValueProvider(ElementId parameter) { Id = parameter; }
        public ElementId Parameter { get { return Id; } }
    }

    // A Double rule: an element without the parameter fails it.
    public class FilterDoubleRule : FilterNumericValueRule
    {
        private readonly ParameterValueProvider provider;
        private readonly FilterNumericRuleEvaluator evaluator;
        public FilterDoubleRule(FilterableValueProvider valueProvider, FilterNumericRuleEvaluator evaluator, double ruleValue, double epsilon)
        {
            provider = (ParameterValueProvider)valueProvider;
            this.evaluator = evaluator;
            RuleValue = ruleValue;
            Epsilon = epsilon;
        }
        public double RuleValue { get; private set; }
        public double Epsilon { get; private set; }
        internal override bool Passes(Element element)
        {
            Parameter parameter = element.ParameterWithId(provider.Id);
            return parameter != null && parameter.Storage == StorageType.Double && evaluator.Compare(parameter.Number, RuleValue, Epsilon);
        }
    }

    public class FilterInverseRule : FilterRule
    {
        private readonly FilterRule inner;
        public FilterInverseRule(FilterRule innerRule) { inner = innerRule; }
        public FilterRule GetInnerRule() { return inner; }
        internal override bool Passes(Element element) { return !inner.Passes(element); }
    }

    public class ParameterFilterRuleFactory
    {
        private static FilterRule Double(ElementId parameter, FilterNumericRuleEvaluator evaluator, double value, double epsilon)
        {
            return new FilterDoubleRule(new ParameterValueProvider(parameter), evaluator, value, epsilon);
        }
        public static FilterRule CreateEqualsRule(ElementId parameter, double value, double epsilon) { return Double(parameter, new FilterNumericEquals(), value, epsilon); }
        public static FilterRule CreateNotEqualsRule(ElementId parameter, double value, double epsilon) { return new FilterInverseRule(Double(parameter, new FilterNumericEquals(), value, epsilon)); }
        public static FilterRule CreateGreaterRule(ElementId parameter, double value, double epsilon) { return Double(parameter, new FilterNumericGreater(), value, epsilon); }
        public static FilterRule CreateGreaterOrEqualRule(ElementId parameter, double value, double epsilon) { return Double(parameter, new FilterNumericGreaterOrEqual(), value, epsilon); }
        public static FilterRule CreateLessRule(ElementId parameter, double value, double epsilon) { return Double(parameter, new FilterNumericLess(), value, epsilon); }
        public static FilterRule CreateLessOrEqualRule(ElementId parameter, double value, double epsilon) { return Double(parameter, new FilterNumericLessOrEqual(), value, epsilon); }
    }

    // The filters Paracore chains. A view's collector holds the elements that view shows: model
    // elements (no owner view) and what the view owns, never views or types.
    public class FilteredElementCollector : IEnumerable<Element>
    {
        private readonly List<Func<Element, bool>> filters = new List<Func<Element, bool>>();
        private readonly Document document;

        public FilteredElementCollector(Document document) { this.document = document; }

        public FilteredElementCollector(Document document, ElementId viewId)
        {
            this.document = document;
            filters.Add(e => !(e is View) && !(e is ElementType) && (e.OwnerViewId.Value == -1 || e.OwnerViewId == viewId));
        }

        public FilteredElementCollector OfClass(Type type) { return Where(e => type.IsInstanceOfType(e)); }
        public FilteredElementCollector OfCategory(BuiltInCategory category)
        {
            return Where(e => e.Category != null && e.Category.BuiltInCategory == category);
        }
        public FilteredElementCollector OfCategoryId(ElementId categoryId)
        {
            return Where(e => e.Category != null && e.Category.Id == categoryId);
        }
        public FilteredElementCollector WhereElementIsNotElementType() { return Where(e => !(e is ElementType)); }
        public FilteredElementCollector WhereElementIsElementType() { return Where(e => e is ElementType); }
        public FilteredElementCollector WherePasses(ElementFilter filter) { return Where(filter.Passes); }

        public Element FirstElement()
        {
            foreach (Element element in Matching()) return element;
            return null;
        }

        public ICollection<ElementId> ToElementIds()
        {
            List<ElementId> ids = new List<ElementId>();
            foreach (Element element in Matching()) ids.Add(element.Id);
            return ids;
        }

        // Each element handed to Python is one crossing; the filters run inside .NET.
        public IEnumerator<Element> GetEnumerator()
        {
            foreach (Element element in Matching())
            {
                ParacoreClrLane.Crossings.Count++;
                yield return element;
            }
        }

        private IEnumerable<Element> Matching()
        {
            foreach (Element element in document.All())
            {
                bool kept = true;
                foreach (Func<Element, bool> keep in filters) kept = kept && keep(element);
                if (kept) yield return element;
            }
        }

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() { return GetEnumerator(); }

        private FilteredElementCollector Where(Func<Element, bool> keep)
        {
            filters.Add(keep);
            return this;
        }
    }

    public class FailureMessageAccessor
    {
        private readonly string text;
        private readonly FailureSeverity severity;

        internal FailureMessageAccessor(string text, FailureSeverity severity)
        {
            this.text = text;
            this.severity = severity;
        }

        public string GetDescriptionText() { return text; }
        public FailureSeverity GetSeverity() { return severity; }
    }

    public class FailuresAccessor
    {
        private readonly List<FailureMessageAccessor> messages;

        internal FailuresAccessor(List<FailureMessageAccessor> messages) { this.messages = messages; }

        public IList<FailureMessageAccessor> GetFailureMessages() { return new List<FailureMessageAccessor>(messages); }
        public void DeleteWarning(FailureMessageAccessor failure) { messages.Remove(failure); }
        internal int Remaining { get { return messages.Count; } }
    }

    public interface IFailuresPreprocessor
    {
        FailureProcessingResult PreprocessFailures(FailuresAccessor failuresAccessor);
    }
}

// Issue 15's crossings: annotations, sheets and viewports, rooms. Signatures as in Revit 2026;
// each creation method records the overload pythonnet chose (ParacoreClrLane.Revit.TakeCalls).
namespace Autodesk.Revit.DB
{
    using ParacoreClrLane;

    public class HostObject : Element
    {
        internal HostObject(Document document, long id, string name) : base(document, id, name) { }

        public IList<ElementId> FindInserts(bool addRectOpenings, bool includeShadows, bool includeEmbeddedWalls,
                                            bool includeSharedEmbeddedInserts)
        {
            List<ElementId> found = new List<ElementId>();
            foreach (Element element in Document.All())
            {
                FamilyInstance insert = element as FamilyInstance;
                if (insert != null && insert.Host == this) found.Add(insert.Id);
            }
            return found;
        }
    }

    public class Wall : HostObject
    {
        internal Wall(Document document, long id, Line line, double width) : base(document, id, "Wall")
        {
            Location = new LocationCurve(line);
            Width = width;
            XYZ start = line.GetEndPoint(0), end = line.GetEndPoint(1);
            double dx = end.X - start.X, dy = end.Y - start.Y, length = Math.Sqrt(dx * dx + dy * dy);
            Orientation = new XYZ(dy / length, -dx / length, 0);  // Revit: the exterior side, right of the line
        }

        public XYZ Orientation { get; private set; }
        public double Width { get; private set; }
    }

    public class APIObject { internal APIObject() { } }

    public class Reference : APIObject
    {
        public Reference(Element element) { Element = element; }
        internal Element Element { get; private set; }
        internal double Offset { get; set; }   // a side face's distance along its wall's normal
        internal RevitLinkInstance LinkInstance { get; private set; }   // set: a host reference into a link

        // A link reference: ElementId is the link instance, LinkedElementId the element in the link.
        public ElementId ElementId { get { return LinkInstance != null ? LinkInstance.Id : Element.Id; } }
        public ElementId LinkedElementId { get { return LinkInstance != null ? Element.Id : ElementId.InvalidElementId; } }

        public Reference CreateLinkReference(RevitLinkInstance revitLinkInstance)
        {
            if (revitLinkInstance == null) throw new System.ArgumentNullException("revitLinkInstance");
            ParacoreClrLane.Revit.Record("Reference.CreateLinkReference(RevitLinkInstance)");
            return new Reference(Element) { LinkInstance = revitLinkInstance };
        }
    }

    // Revit's own collection of references: built empty, filled with Append (not a .NET IList).
    public class ReferenceArray : APIObject, System.Collections.IEnumerable
    {
        private readonly List<Reference> items = new List<Reference>();

        public ReferenceArray() { }
        public int Size { get { return items.Count; } }
        public bool IsEmpty { get { return items.Count == 0; } }
        public void Append(Reference reference) { items.Add(reference); }
        public System.Collections.IEnumerator GetEnumerator() { return items.GetEnumerator(); }
        internal List<Reference> Items { get { return items; } }
    }

    public static class HostObjectUtils
    {
        public static IList<Reference> GetSideFaces(HostObject hostObject, ShellLayerType side)
        {
            Wall wall = hostObject as Wall;
            if (wall == null) throw new Autodesk.Revit.Exceptions.ArgumentException("The host object has no side faces.");
            XYZ middle = ((LocationCurve)wall.Location).Curve.Evaluate(0.5, true);
            double centre = middle.X * wall.Orientation.X + middle.Y * wall.Orientation.Y;
            double half = wall.Width / 2 * (side == ShellLayerType.Exterior ? 1 : -1);
            Reference face = new Reference(wall);
            face.Offset = centre + half;
            return new List<Reference> { face };
        }
    }

    public class DimensionType : ElementType
    {
        internal DimensionType(Document document, long id, string name) : base(document, id, name, "") { }
    }

    public class DimensionSegment : APIObject
    {
        internal DimensionSegment(double? value) { Value = value; }
        public double? Value { get; private set; }
    }

    public class DimensionSegmentArray : APIObject, System.Collections.IEnumerable
    {
        private readonly List<DimensionSegment> items;
        internal DimensionSegmentArray(List<DimensionSegment> items) { this.items = items; }
        public int Size { get { return items.Count; } }
        public System.Collections.IEnumerator GetEnumerator() { return items.GetEnumerator(); }
    }

    public class Dimension : Element
    {
        private readonly List<double> distances;

        internal Dimension(Document document, long id, ElementId ownerViewId, List<double> distances, ReferenceArray references)
            : base(document, id, "Linear Dimension")
        {
            OwnerViewId = ownerViewId;
            this.distances = distances;
            References = references;
        }

        public ReferenceArray References { get; private set; }

        // Revit: one segment -> NumberOfSegments 0 and Value set; several -> Value null, Segments.
        public int NumberOfSegments { get { return distances.Count > 1 ? distances.Count : 0; } }
        public double? Value { get { return distances.Count == 1 ? (double?)distances[0] : null; } }

        public DimensionSegmentArray Segments
        {
            get
            {
                List<DimensionSegment> segments = new List<DimensionSegment>();
                if (distances.Count > 1) foreach (double d in distances) segments.Add(new DimensionSegment(d));
                return new DimensionSegmentArray(segments);
            }
        }
    }

    public class IndependentTag : Element
    {
        private readonly ElementId tagged;

        private IndependentTag(Document document, ElementId ownerViewId, ElementId tagged, ElementId typeId)
            : base(document, document.TakeId(), "Tag")
        {
            OwnerViewId = ownerViewId;
            TypeId = typeId;
            this.tagged = tagged;
        }

        public static IndependentTag Create(Document document, ElementId symbolId, ElementId ownerDBViewId, Reference referenceToTag,
                                            bool addLeader, TagOrientation tagOrientation, XYZ pnt)
        {
            Revit.Record("IndependentTag.Create(Document, ElementId symbolId, ElementId ownerDBViewId, Reference, Boolean addLeader="
                         + addLeader + ", TagOrientation." + tagOrientation + ", XYZ)");
            IndependentTag tag = Make(document, symbolId, ownerDBViewId, referenceToTag, pnt);
            tag.HasLeader = addLeader;
            return tag;
        }

        public static IndependentTag Create(Document document, ElementId ownerDBViewId, Reference referenceToTag, bool addLeader,
                                            TagMode tagMode, TagOrientation tagOrientation, XYZ pnt)
        {
            Revit.Record("IndependentTag.Create(Document, ElementId ownerDBViewId, Reference, Boolean, TagMode, TagOrientation, XYZ)");
            return Make(document, ElementId.InvalidElementId, ownerDBViewId, referenceToTag, pnt);
        }

        private static IndependentTag Make(Document document, ElementId typeId, ElementId viewId, Reference reference, XYZ pnt)
        {
            document.RequireTransaction("IndependentTag.Create");
            if (!(document.GetElement(viewId) is View))
                throw new Autodesk.Revit.Exceptions.ArgumentException("ownerDBViewId is not a view.");
            IndependentTag tag = document.Register(new IndependentTag(document, viewId, reference.Element.Id, typeId));
            tag.TagHeadPosition = pnt;
            return tag;
        }

        public XYZ TagHeadPosition { get; set; }
        public bool HasLeader { get; set; }

        public ISet<ElementId> GetTaggedLocalElementIds() { return new HashSet<ElementId> { tagged }; }
    }

    // Room tags' base (Paracore tells a room tag from an IndependentTag by class; the lane makes none).
    public class SpatialElementTag : Element
    {
        internal SpatialElementTag(Document document, long id, string name) : base(document, id, name) { }
        public bool HasLeader { get; set; }
    }

    public class TextNoteOptions
    {
        public TextNoteOptions() { }
        public TextNoteOptions(ElementId typeId) { TypeId = typeId; }
        public ElementId TypeId { get; set; }
    }

    public class TextElement : Element
    {
        internal TextElement(Document document, long id, string name) : base(document, id, name) { }
        public string Text { get; set; }
        public XYZ Coord { get; internal set; }
    }

    public class TextNote : TextElement
    {
        private TextNote(Document document, ElementId viewId, XYZ position, string text)
            : base(document, document.TakeId(), "Text Note")
        {
            OwnerViewId = viewId;
            Coord = position;
            Text = text;
        }

        public static TextNote Create(Document document, ElementId viewId, XYZ position, string text, ElementId typeId)
        {
            Revit.Record("TextNote.Create(Document, ElementId viewId, XYZ, String, ElementId typeId)");
            return Make(document, viewId, position, text);
        }

        public static TextNote Create(Document document, ElementId viewId, XYZ position, string text, TextNoteOptions options)
        {
            Revit.Record("TextNote.Create(Document, ElementId, XYZ, String, TextNoteOptions)");
            return Make(document, viewId, position, text);
        }

        public static TextNote Create(Document document, ElementId viewId, XYZ position, double width, string text, ElementId typeId)
        {
            Revit.Record("TextNote.Create(Document, ElementId, XYZ, Double, String, ElementId)");
            return Make(document, viewId, position, text);
        }

        public static TextNote Create(Document document, ElementId viewId, XYZ position, double width, string text, TextNoteOptions options)
        {
            Revit.Record("TextNote.Create(Document, ElementId, XYZ, Double, String, TextNoteOptions)");
            return Make(document, viewId, position, text);
        }

        private static TextNote Make(Document document, ElementId viewId, XYZ position, string text)
        {
            document.RequireTransaction("TextNote.Create");
            return document.Register(new TextNote(document, viewId, position, text));
        }
    }

    public class View3D : View
    {
        internal View3D(Document document, long id, string name) : base(document, id, name) { ViewType = ViewType.ThreeD; }
    }

    public class ViewSheet : View
    {
        internal ViewSheet(Document document, long id) : base(document, id, "Unnamed") { ViewType = ViewType.DrawingSheet; }

        public string SheetNumber { get; set; }

        public static ViewSheet Create(Document document, ElementId titleBlockTypeId)
        {
            Revit.Record("ViewSheet.Create(Document, ElementId titleBlockTypeId)");
            document.RequireTransaction("ViewSheet.Create");
            FamilySymbol block = document.GetElement(titleBlockTypeId) as FamilySymbol;
            if (block == null) throw new Autodesk.Revit.Exceptions.ArgumentException("titleBlockTypeId is not a title block type.");
            ViewSheet sheet = document.Register(new ViewSheet(document, document.TakeId()));
            sheet.SheetNumber = "A" + sheet.Id.Value;
            sheet.Outline = new BoundingBoxUV(0, 0, block.PaperWidth, block.PaperHeight);
            FamilyInstance instance = document.Register(new FamilyInstance(document, document.TakeId(), block.Name));
            instance.Category = block.Category;
            instance.OwnerViewId = sheet.Id;
            instance.TypeId = block.Id;
            return sheet;
        }

        public ICollection<ElementId> GetAllViewports()
        {
            List<ElementId> ids = new List<ElementId>();
            foreach (Element element in Document.All())
            {
                Viewport viewport = element as Viewport;
                if (viewport != null && viewport.SheetId == Id) ids.Add(viewport.Id);
            }
            return ids;
        }

        public ISet<ElementId> GetAllPlacedViews()
        {
            HashSet<ElementId> ids = new HashSet<ElementId>();
            foreach (ElementId id in GetAllViewports()) ids.Add(((Viewport)Document.GetElement(id)).ViewId);
            return ids;
        }
    }

    public class Viewport : Element
    {
        private XYZ centre;
        private readonly double width, height;

        private Viewport(Document document, ElementId sheetId, ElementId viewId, XYZ point, double width, double height)
            : base(document, document.TakeId(), "Viewport")
        {
            SheetId = sheetId;
            ViewId = viewId;
            OwnerViewId = sheetId;
            centre = point;
            this.width = width;
            this.height = height;
        }

        public ElementId SheetId { get; private set; }
        public ElementId ViewId { get; private set; }

        public static bool CanAddViewToSheet(Document document, ElementId viewSheetId, ElementId viewId)
        {
            Revit.Record("Viewport.CanAddViewToSheet(Document, ElementId viewSheetId, ElementId viewId)");
            View view = document.GetElement(viewId) as View;
            if (view == null || view is ViewSheet || view.IsTemplate || !(document.GetElement(viewSheetId) is ViewSheet)) return false;
            foreach (Element element in document.All())
            {
                Viewport other = element as Viewport;
                if (other != null && other.ViewId == viewId) return false;
            }
            return true;
        }

        public static Viewport Create(Document document, ElementId viewSheetId, ElementId viewId, XYZ point)
        {
            Revit.Record("Viewport.Create(Document, ElementId viewSheetId, ElementId viewId, XYZ)");
            document.RequireTransaction("Viewport.Create");
            if (!CanAddViewToSheet(document, viewSheetId, viewId))
                throw new Autodesk.Revit.Exceptions.ArgumentException("The view cannot be added to the sheet.");
            View view = (View)document.GetElement(viewId);
            return document.Register(new Viewport(document, viewSheetId, viewId, point, view.PaperWidth, view.PaperHeight));
        }

        public void SetBoxCenter(XYZ newCenterPoint)
        {
            Document.RequireTransaction("Viewport.SetBoxCenter");
            centre = newCenterPoint;
        }

        public XYZ GetBoxCenter() { return centre; }

        public Outline GetBoxOutline()
        {
            return new Outline(new XYZ(centre.X - width / 2, centre.Y - height / 2, 0), new XYZ(centre.X + width / 2, centre.Y + height / 2, 0));
        }
    }

    public class SpatialElementBoundaryOptions
    {
        public SpatialElementBoundaryOptions() { }
    }

    public class BoundarySegment
    {
        private readonly Curve curve;
        internal BoundarySegment(ElementId elementId, Curve curve) { ElementId = elementId; this.curve = curve; }
        public ElementId ElementId { get; private set; }
        public Curve GetCurve() { return curve; }
    }

    public class SpatialElement : Element
    {
        internal SpatialElement(Document document, long id, string name) : base(document, id, name) { }

        public string Number
        {
            get { Parameter p = this[BuiltInParameter.ROOM_NUMBER]; return p == null ? null : p.AsString(); }
            set { SetParameter(BuiltInParameter.ROOM_NUMBER, value); }
        }
        public double Area { get; internal set; }
        public double Perimeter { get; internal set; }
        public Level Level { get; internal set; }
        public ElementId LevelId { get { return Level == null ? ElementId.InvalidElementId : Level.Id; } }
        internal IList<IList<BoundarySegment>> Boundary { get; set; }

        public IList<IList<BoundarySegment>> GetBoundarySegments(SpatialElementBoundaryOptions options)
        {
            Revit.Record("SpatialElement.GetBoundarySegments(SpatialElementBoundaryOptions)");
            return Boundary;
        }
    }

    public class Phase : Element
    {
        internal Phase(Document document, long id, string name) : base(document, id, name) { }
    }

    public class PlanCircuit
    {
        internal PlanCircuit() { }
    }

    public enum CheckoutStatus { OwnedByCurrentUser = 0, OwnedByOtherUser = 1, NotOwned = 2 }

    public enum ModelUpdatesStatus { CurrentWithCentral = 0, NotYetInCentral = 1, DeletedInCentral = 2, UpdatedInCentral = 3 }

    public class WorksharingTooltipInfo
    {
        internal WorksharingTooltipInfo(string owner) { Owner = owner; Creator = ""; LastChangedBy = ""; }
        public string Owner { get; private set; }
        public string Creator { get; private set; }
        public string LastChangedBy { get; private set; }
    }

    public class WorksetId
    {
        public WorksetId(int worksetId) { IntegerValue = worksetId; }
        public int IntegerValue { get; private set; }
    }

    public class Workset
    {
        internal Workset(WorksetId id, string name, string owner) { Id = id; Name = name; Owner = owner; }
        public WorksetId Id { get; private set; }
        public string Name { get; private set; }
        public string Owner { get; private set; }
    }

    public class WorksetTable
    {
        private readonly Document document;
        internal WorksetTable(Document document) { this.document = document; }

        public Workset GetWorkset(WorksetId worksetId)
        {
            string owner;
            document.WorksetOwners.TryGetValue(worksetId.IntegerValue, out owner);
            return new Workset(worksetId, "Workset" + (worksetId.IntegerValue + 1), owner ?? "");
        }
    }

    // Revit asks it while central is locked: true waits for the lock, false gives up.
    public interface ICentralLockedCallback
    {
        bool ShouldWaitForLockAvailability();
    }

    public class TransactWithCentralOptions
    {
        private ICentralLockedCallback lockCallback;
        public TransactWithCentralOptions() { }
        public void SetLockCallback(ICentralLockedCallback lockCallback) { this.lockCallback = lockCallback; }
        public ICentralLockedCallback GetLockCallback() { return lockCallback; }
    }

    // The members of WorksharingUtils Paracore calls, with Revit's signatures: CheckoutElements
    // takes ICollection<ElementId>, or ISet<ElementId> with TransactWithCentralOptions, and returns
    // ICollection<ElementId> (ids the user owns afterwards, owned ones included).
    public static class WorksharingUtils
    {
        public static ICollection<ElementId> CheckoutElements(Document document, ICollection<ElementId> elementsToCheckout)
        {
            if (!document.IsWorkshared) throw new Autodesk.Revit.Exceptions.ArgumentException("document is not a workshared document.");
            foreach (ElementId id in elementsToCheckout)
                if (document.GetElement(id) == null)
                    throw new Autodesk.Revit.Exceptions.ArgumentException("One or more elements in elementsToCheckout do not exist in the document.");
            List<ElementId> owned = new List<ElementId>();
            foreach (ElementId id in elementsToCheckout)
            {
                string owner = document.OwnerOf(id.Value);
                if (owner == null) { document.Owners[id.Value] = document.Username; owner = document.Username; }
                if (owner == document.Username) owned.Add(id);
            }
            return owned;
        }

        // Revit: without a lock callback, a locked central is waited for "endlessly"; the lane
        // throws instead, so a test sees it. A callback that answers false: contention.
        public static ICollection<ElementId> CheckoutElements(Document document, ISet<ElementId> elementsToCheckout, TransactWithCentralOptions options)
        {
            if (document.CentralLocked)
            {
                ICentralLockedCallback callback = options == null ? null : options.GetLockCallback();
                if (callback == null || callback.ShouldWaitForLockAvailability())
                    throw new System.InvalidOperationException("lane: Revit would wait for central's lock without end");
                throw new Autodesk.Revit.Exceptions.CentralModelContentionException("The central model is locked by another client.");
            }
            return CheckoutElements(document, (ICollection<ElementId>)elementsToCheckout);
        }

        // (Revit's overload with `out string owner` is left out: Paracore reads the owner from the tooltip.)
        public static CheckoutStatus GetCheckoutStatus(Document document, ElementId elementId)
        {
            string owner = document.OwnerOf(elementId.Value);
            if (owner == null) return CheckoutStatus.NotOwned;
            return owner == document.Username ? CheckoutStatus.OwnedByCurrentUser : CheckoutStatus.OwnedByOtherUser;
        }

        public static ModelUpdatesStatus GetModelUpdatesStatus(Document document, ElementId elementId)
        {
            return document.ChangedInCentral.Contains(elementId.Value) ? ModelUpdatesStatus.UpdatedInCentral
                                                                       : ModelUpdatesStatus.CurrentWithCentral;
        }

        public static WorksharingTooltipInfo GetWorksharingTooltipInfo(Document document, ElementId elementId)
        {
            return new WorksharingTooltipInfo(document.OwnerOf(elementId.Value) ?? "");
        }
    }
}

namespace Autodesk.Revit.DB.Architecture
{
    using Autodesk.Revit.DB;

    public class Room : SpatialElement
    {
        internal Room(Document document, long id) : base(document, id, "Room") { }

        public bool IsPointInRoom(XYZ point)
        {
            return Region != null && Region.Contains(point.X, point.Y);
        }

        // Revit's default for a new room: its own level as Upper Limit, 8 ft above it.
        public double UnboundedHeight { get { return 8.0; } }
        public double BaseOffset { get { return 0.0; } }

        internal ParacoreClrLane.Region Region { get; set; }
    }

    public class RoomTag : SpatialElementTag
    {
        internal RoomTag(Document document, long id) : base(document, id, "Room Tag") { }
        public ElementId TaggedLocalRoomId { get; internal set; }
    }
}

namespace Autodesk.Revit.Creation
{
    using Autodesk.Revit.DB;
    using Autodesk.Revit.DB.Architecture;
    using ParacoreClrLane;

    public class ItemFactoryBase
    {
        internal readonly Autodesk.Revit.DB.Document document;

        internal ItemFactoryBase(Autodesk.Revit.DB.Document document) { this.document = document; }

        public Dimension NewDimension(View view, Line line, ReferenceArray references)
        {
            Revit.Record("ItemFactoryBase.NewDimension(View, Line, ReferenceArray)");
            return Dimension(view, references);
        }

        public Dimension NewDimension(View view, Line line, ReferenceArray references, DimensionType dimensionType)
        {
            Revit.Record("ItemFactoryBase.NewDimension(View, Line, ReferenceArray, DimensionType)");
            return Dimension(view, references);
        }

        private Dimension Dimension(View view, ReferenceArray references)
        {
            document.RequireTransaction("NewDimension");
            if (references.Size < 2) throw new Autodesk.Revit.Exceptions.ArgumentException("A dimension needs two references or more.");
            List<double> offsets = new List<double>();
            foreach (Reference reference in references.Items) offsets.Add(reference.Offset);
            offsets.Sort();
            List<double> distances = new List<double>();
            for (int i = 1; i < offsets.Count; i++) distances.Add(Math.Round(offsets[i] - offsets[i - 1], 9));
            ReferenceArray kept = new ReferenceArray();
            foreach (Reference reference in references.Items) kept.Append(reference);
            return document.Register(new Dimension(document, document.TakeId(), view.Id, distances, kept));
        }
    }

    public class Document : ItemFactoryBase
    {
        internal Document(Autodesk.Revit.DB.Document document) : base(document) { }

        public Room NewRoom(Level level, UV point)
        {
            Revit.Record("Creation.Document.NewRoom(Level, UV)");
            document.RequireTransaction("NewRoom");
            Region region = Region.At(document, level, point.U, point.V);
            return Region.Place(document, level, region, region == null ? point.U : 0, region == null ? point.V : 0);
        }

        public Room NewRoom(Phase phase)
        {
            Revit.Record("Creation.Document.NewRoom(Phase)");
            throw new Autodesk.Revit.Exceptions.InvalidOperationException("Unplaced rooms are not modelled on the lane.");
        }

        public Room NewRoom(Room room, PlanCircuit circuit)
        {
            Revit.Record("Creation.Document.NewRoom(Room, PlanCircuit)");
            throw new Autodesk.Revit.Exceptions.InvalidOperationException("Plan circuits are not modelled on the lane.");
        }

        public ICollection<ElementId> NewRooms2(Level level)
        {
            Revit.Record("Creation.Document.NewRooms2(Level)");
            document.RequireTransaction("NewRooms2");
            List<ElementId> ids = new List<ElementId>();
            foreach (Region region in Region.Empty(document, level)) ids.Add(Region.Place(document, level, region, 0, 0).Id);
            return ids;
        }

        public ICollection<ElementId> NewRooms2(Level level, Phase phase)
        {
            Revit.Record("Creation.Document.NewRooms2(Level, Phase)");
            return NewRooms2(level);
        }

        public ICollection<ElementId> NewRooms2(Phase phase, int count)
        {
            Revit.Record("Creation.Document.NewRooms2(Phase, Int32)");
            throw new Autodesk.Revit.Exceptions.InvalidOperationException("Unplaced rooms are not modelled on the lane.");
        }
    }
}

namespace ParacoreClrLane
{
    using Autodesk.Revit.DB;
    using Autodesk.Revit.DB.Architecture;

    // A rectangle enclosed by four walls on a level: where NewRoom and NewRooms2 put rooms.
    public class Region
    {
        internal Level Level;
        internal double MinX, MinY, MaxX, MaxY;
        internal List<Wall> Walls = new List<Wall>();

        internal bool Contains(double x, double y) { return x > MinX && x < MaxX && y > MinY && y < MaxY; }

        internal static List<Region> All(Document document)
        {
            List<Region> regions;
            return Revit.RegionsOf.TryGetValue(document, out regions) ? regions : new List<Region>();
        }

        internal static Region At(Document document, Level level, double x, double y)
        {
            foreach (Region region in All(document)) if (region.Level == level && region.Contains(x, y)) return region;
            return null;
        }

        internal static List<Region> Empty(Document document, Level level)
        {
            List<Region> empty = new List<Region>();
            foreach (Region region in All(document))
            {
                bool taken = false;
                foreach (Element element in document.All())
                {
                    Room room = element as Room;
                    if (room != null && room.Region == region) taken = true;
                }
                if (region.Level == level && !taken) empty.Add(region);
            }
            return empty;
        }

        // A room in `region` (null: not enclosed, at x, y, area 0, no boundary).
        internal static Room Place(Document document, Level level, Region region, double x, double y)
        {
            Room room = document.Register(new Room(document, document.TakeId()));
            room.Category = new Category(BuiltInCategory.OST_Rooms, "Rooms");
            room.Level = level;
            room.Region = region;
            room.Number = (Revit.RoomsPlaced(document)).ToString();
            room.SetParameter(BuiltInParameter.ROOM_NAME, "Room");
            room.Boundary = new List<IList<BoundarySegment>>();
            if (region == null)
            {
                room.Location = new LocationPoint(new XYZ(x, y, level.Elevation));
                return room;
            }
            room.Location = new LocationPoint(new XYZ((region.MinX + region.MaxX) / 2, (region.MinY + region.MaxY) / 2, level.Elevation));
            double w = region.MaxX - region.MinX, h = region.MaxY - region.MinY;
            room.Area = w * h;
            room.Perimeter = 2 * (w + h);
            List<BoundarySegment> loop = new List<BoundarySegment>();
            foreach (Wall wall in region.Walls) loop.Add(new BoundarySegment(wall.Id, ((LocationCurve)wall.Location).Curve));
            room.Boundary.Add(loop);
            return room;
        }
    }
}

namespace Autodesk.Revit.DB.Events
{
    using Autodesk.Revit.DB;

    // The undo ledger (revit/undo_ledger.py) keys its records on these at import time.
    public enum UndoOperation
    {
        TransactionCommitted = 0, TransactionRolledBack = 1, TransactionGroupRolledBack = 2, TransactionUndone = 3,
        TransactionRedone = 4
    }

    public class RevitAPIEventArgs : EventArgs
    {
        private bool cancelled;

        public bool Cancellable { get { return true; } }
        public bool IsCancelled() { return cancelled; }
        internal void MarkCancelled() { cancelled = true; }
    }

    public class RevitAPIPreEventArgs : RevitAPIEventArgs
    {
        public void Cancel() { MarkCancelled(); }
    }

    // The cancellable pre-events of saving and synchronizing (the step guard cancels them).
    public class RevitAPIPreDocEventArgs : RevitAPIPreEventArgs
    {
        internal RevitAPIPreDocEventArgs(Document document) { Document = document; }

        public Document Document { get; private set; }
    }

    public class DocumentSavingEventArgs : RevitAPIPreDocEventArgs
    {
        internal DocumentSavingEventArgs(Document document) : base(document) { }
    }

    public class DocumentSavingAsEventArgs : RevitAPIPreDocEventArgs
    {
        internal DocumentSavingAsEventArgs(Document document, string pathName) : base(document) { PathName = pathName; }

        public string PathName { get; private set; }
    }

    public class DocumentSynchronizingWithCentralEventArgs : RevitAPIPreDocEventArgs
    {
        internal DocumentSynchronizingWithCentralEventArgs(Document document) : base(document) { }
    }

    // Revit: DocumentSynchronizedWithCentralEventArgs (a RevitAPIPostDocEventArgs: its Document).
    public class DocumentSynchronizedWithCentralEventArgs : RevitAPIEventArgs
    {
        internal DocumentSynchronizedWithCentralEventArgs(Document document) { Document = document; }

        public Document Document { get; private set; }
    }

    // The session events' arguments (session_events subscribes; the lane counts its subscribers).
    public class DocumentOpenedEventArgs : RevitAPIEventArgs
    {
        internal DocumentOpenedEventArgs() { }
    }

    public class DocumentClosingEventArgs : RevitAPIPreDocEventArgs
    {
        internal DocumentClosingEventArgs(Document document) : base(document) { }
    }

    public class DocumentClosedEventArgs : RevitAPIEventArgs
    {
        internal DocumentClosedEventArgs() { }
    }

    public class DocumentChangedEventArgs : EventArgs
    {
        private readonly Document document;
        private readonly ICollection<ElementId> deleted;
        private readonly UndoOperation operation = UndoOperation.TransactionCommitted;
        private readonly ICollection<string> names = new List<string> { "Paracore: test" };

        internal DocumentChangedEventArgs(Document document, ICollection<ElementId> deleted)
        {
            this.document = document;
            this.deleted = deleted;
        }

        // An undo or redo (Undo last turn): the operation and the undone transactions' names.
        internal DocumentChangedEventArgs(Document document, UndoOperation operation, string[] names)
        {
            this.document = document;
            this.deleted = new List<ElementId>();
            this.operation = operation;
            this.names = new List<string>(names);
        }

        // A commit, a group's rollback or an undo: what it added and deleted.
        internal DocumentChangedEventArgs(Document document, UndoOperation operation, ICollection<string> names,
                                          ICollection<ElementId> added, ICollection<ElementId> deleted)
        {
            this.document = document;
            this.operation = operation;
            this.names = new List<string>(names);
            this.added = added;
            this.deleted = deleted;
        }

        private readonly ICollection<ElementId> added = new List<ElementId>();

        public Document GetDocument() { return document; }
        public ICollection<ElementId> GetDeletedElementIds() { return new List<ElementId>(deleted); }
        public ICollection<ElementId> GetAddedElementIds() { return new List<ElementId>(added); }
        public ICollection<ElementId> GetModifiedElementIds() { return new List<ElementId>(); }
        public ICollection<string> GetTransactionNames() { return new List<string>(names); }
        public UndoOperation Operation { get { return operation; } }
    }
}

namespace Autodesk.Revit.ApplicationServices
{
    using Autodesk.Revit.DB.Events;

    // The one application of a Revit process: its documents and who subscribed to its events,
    // whichever wrapper they subscribed through.
    internal class ApplicationCore
    {
        internal readonly Autodesk.Revit.DB.DocumentSet Documents = new Autodesk.Revit.DB.DocumentSet();
        internal EventHandler<DocumentChangedEventArgs> DocumentChanged;
        internal EventHandler<DocumentSavingEventArgs> DocumentSaving;
        internal EventHandler<DocumentSavingAsEventArgs> DocumentSavingAs;
        internal EventHandler<DocumentSynchronizingWithCentralEventArgs> DocumentSynchronizingWithCentral;
        internal EventHandler<DocumentSynchronizedWithCentralEventArgs> DocumentSynchronizedWithCentral;
        internal EventHandler<DocumentOpenedEventArgs> DocumentOpened;
        internal EventHandler<DocumentClosingEventArgs> DocumentClosing;
        internal EventHandler<DocumentClosedEventArgs> DocumentClosed;

        internal int DocumentEventSubscribers
        {
            get
            {
                return (DocumentOpened == null ? 0 : DocumentOpened.GetInvocationList().Length)
                    + (DocumentClosing == null ? 0 : DocumentClosing.GetInvocationList().Length)
                    + (DocumentClosed == null ? 0 : DocumentClosed.GetInvocationList().Length);
            }
        }
    }

    // A .NET wrapper of the application: Document.Application and UIApplication.Application make
    // a new one on every read; Equals is Object's (a wrapper equals only itself).
    public class Application
    {
        internal readonly ApplicationCore Core;

        internal Application() : this(new ApplicationCore()) { }
        internal Application(ApplicationCore core) { Core = core; }

        public string VersionNumber { get { return "2026"; } }
        public Autodesk.Revit.DB.DocumentSet Documents { get { return Core.Documents; } }

        public event EventHandler<DocumentChangedEventArgs> DocumentChanged
        {
            add { Core.DocumentChanged += value; }
            remove { Core.DocumentChanged -= value; }
        }

        internal int DocumentChangedSubscribers
        {
            get { return Core.DocumentChanged == null ? 0 : Core.DocumentChanged.GetInvocationList().Length; }
        }

        internal void OnDocumentChanged(DocumentChangedEventArgs args)
        {
            EventHandler<DocumentChangedEventArgs> handlers = Core.DocumentChanged;
            if (handlers != null) handlers(this, args);
        }

        // Revit: `public event EventHandler<DocumentSavingEventArgs> DocumentSaving` and its siblings.
        public event EventHandler<DocumentSavingEventArgs> DocumentSaving
        {
            add { Core.DocumentSaving += value; }
            remove { Core.DocumentSaving -= value; }
        }

        public event EventHandler<DocumentSavingAsEventArgs> DocumentSavingAs
        {
            add { Core.DocumentSavingAs += value; }
            remove { Core.DocumentSavingAs -= value; }
        }

        public event EventHandler<DocumentSynchronizingWithCentralEventArgs> DocumentSynchronizingWithCentral
        {
            add { Core.DocumentSynchronizingWithCentral += value; }
            remove { Core.DocumentSynchronizingWithCentral -= value; }
        }

        public event EventHandler<DocumentSynchronizedWithCentralEventArgs> DocumentSynchronizedWithCentral
        {
            add { Core.DocumentSynchronizedWithCentral += value; }
            remove { Core.DocumentSynchronizedWithCentral -= value; }
        }

        // Revit: `public event EventHandler<DocumentOpenedEventArgs> DocumentOpened` and the closing pair.
        public event EventHandler<DocumentOpenedEventArgs> DocumentOpened
        {
            add { Core.DocumentOpened += value; }
            remove { Core.DocumentOpened -= value; }
        }

        public event EventHandler<DocumentClosingEventArgs> DocumentClosing
        {
            add { Core.DocumentClosing += value; }
            remove { Core.DocumentClosing -= value; }
        }

        public event EventHandler<DocumentClosedEventArgs> DocumentClosed
        {
            add { Core.DocumentClosed += value; }
            remove { Core.DocumentClosed -= value; }
        }

        internal int SaveEventSubscribers
        {
            get
            {
                return (Core.DocumentSaving == null ? 0 : Core.DocumentSaving.GetInvocationList().Length)
                    + (Core.DocumentSavingAs == null ? 0 : Core.DocumentSavingAs.GetInvocationList().Length)
                    + (Core.DocumentSynchronizingWithCentral == null ? 0
                       : Core.DocumentSynchronizingWithCentral.GetInvocationList().Length);
            }
        }

        // Raises the pre-event of "save", "save as" or "sync"; true when a handler cancelled it.
        internal bool OnSaving(Autodesk.Revit.DB.Document document, string which)
        {
            if (which == "save")
            {
                DocumentSavingEventArgs args = new DocumentSavingEventArgs(document);
                if (Core.DocumentSaving != null) Core.DocumentSaving(this, args);
                return args.IsCancelled();
            }
            if (which == "save as")
            {
                DocumentSavingAsEventArgs args = new DocumentSavingAsEventArgs(document, "C:/Projects/Copy.rvt");
                if (Core.DocumentSavingAs != null) Core.DocumentSavingAs(this, args);
                return args.IsCancelled();
            }
            DocumentSynchronizingWithCentralEventArgs sync = new DocumentSynchronizingWithCentralEventArgs(document);
            if (Core.DocumentSynchronizingWithCentral != null) Core.DocumentSynchronizingWithCentral(this, sync);
            return sync.IsCancelled();
        }
    }
}

namespace Autodesk.Revit.UI.Events
{
    using Autodesk.Revit.DB.Events;

    public class ApplicationClosingEventArgs : RevitAPIPreEventArgs
    {
        internal ApplicationClosingEventArgs() { }
    }

    public class ViewActivatedEventArgs : RevitAPIEventArgs
    {
        internal ViewActivatedEventArgs() { }
    }

    // Revit: `public bool OverrideResult(int resultCode)`, true when the code was accepted: any
    // non-zero code for a dialog box, the ids of its buttons for a message box or a task dialog.
    public class DialogBoxShowingEventArgs : RevitAPIPreEventArgs
    {
        private readonly int[] accepted;   // null: a dialog box

        internal DialogBoxShowingEventArgs(string dialogId, int[] accepted)
        {
            DialogId = dialogId;
            this.accepted = accepted;
        }

        public string DialogId { get; private set; }
        internal int Result { get; private set; }

        public bool OverrideResult(int resultCode)
        {
            bool ok = accepted == null ? resultCode != 0 : Array.IndexOf(accepted, resultCode) >= 0;
            if (ok) Result = resultCode;
            return ok;
        }
    }

    public class TaskDialogShowingEventArgs : DialogBoxShowingEventArgs
    {
        internal TaskDialogShowingEventArgs(string dialogId, string message, int[] buttons) : base(dialogId, buttons)
        {
            Message = message;
        }

        public string Message { get; private set; }
    }

    public class MessageBoxShowingEventArgs : DialogBoxShowingEventArgs
    {
        internal MessageBoxShowingEventArgs(string message, int dialogType, int[] buttons) : base("", buttons)
        {
            Message = message;
            DialogType = dialogType;
        }

        public string Message { get; private set; }
        public int DialogType { get; private set; }
    }
}

namespace Autodesk.Revit.UI.Selection
{
    using Autodesk.Revit.DB;

    public class Selection
    {
        private readonly List<ElementId> ids = new List<ElementId>();
        private readonly Document document;

        internal Selection(Document document) { this.document = document; }

        // Revit selects only elements that exist; the rest are left out silently.
        public void SetElementIds(ICollection<ElementId> elementIds)
        {
            ids.Clear();
            linked.Clear();
            foreach (ElementId id in elementIds)
            {
                if (document.GetElement(id) != null && !ids.Contains(id)) ids.Add(id);
            }
        }

        public ICollection<ElementId> GetElementIds() { return new List<ElementId>(ids); }

        private readonly List<Reference> linked = new List<Reference>();

        // Revit 2023+: host and linked elements together, replacing the selection.
        public void SetReferences(IList<Reference> references)
        {
            if (references == null) throw new System.ArgumentNullException("references");
            ParacoreClrLane.Revit.Record("Selection.SetReferences(IList<Reference>)");
            ids.Clear();
            linked.Clear();
            foreach (Reference reference in references)
            {
                if (reference.LinkedElementId.Value != -1) linked.Add(reference);
                else if (document.GetElement(reference.ElementId) != null) ids.Add(reference.ElementId);
            }
        }

        public IList<Reference> GetReferences()
        {
            List<Reference> all = new List<Reference>();
            foreach (ElementId id in ids) all.Add(new Reference(document.GetElement(id)));
            all.AddRange(linked);
            return all;
        }
    }
}

namespace Autodesk.Revit.UI
{
    using Autodesk.Revit.DB;

    public enum ExternalEventRequest { Accepted = 0, Pending = 1, Denied = 2, TimedOut = 3 }

    // Undo last turn posts Revit's Undo (values as in the API; Revit has hundreds more commands).
    public enum PostableCommand { Redo = 33031, Undo = 33032 }

    public class RevitCommandId
    {
        private RevitCommandId(string name, uint id) { Name = name; Id = id; }

        public string Name { get; private set; }
        public uint Id { get; private set; }

        public static RevitCommandId LookupPostableCommandId(PostableCommand postableCommand)
        {
            return new RevitCommandId(postableCommand == PostableCommand.Undo ? "ID_EDIT_UNDO" : "ID_EDIT_REDO",
                                      (uint)postableCommand);
        }
    }

    // A [Flags] enum: a script combines buttons with `|` (TaskDialog.Show's third argument).
    [Flags]
    public enum TaskDialogCommonButtons { None = 0, Ok = 1, Yes = 2, No = 4, Cancel = 8, Retry = 16, Close = 32 }

    public enum DockPosition { Top = 56, Left = 59, Right = 60, Bottom = 57, Tabbed = 58, Floating = 61 }

    public interface IExternalEventHandler
    {
        void Execute(UIApplication app);
        string GetName();
    }

    public interface IDockablePaneProvider
    {
        void SetupDockablePane(DockablePaneProviderData data);
    }

    public class DockablePaneState
    {
        public DockablePaneState() { DockPosition = DockPosition.Floating; }
        public DockPosition DockPosition { get; set; }
    }

    // FrameworkElement is System.Windows.FrameworkElement in Revit; WPF does not exist on Mono,
    // so the lane types it as object (Paracore only assigns it).
    public class DockablePaneProviderData
    {
        public DockablePaneProviderData() { VisibleByDefault = true; }
        public object FrameworkElement { get; set; }
        public DockablePaneState InitialState { get; set; }
        public bool VisibleByDefault { get; set; }
    }

    public class ExternalEvent : IDisposable
    {
        private static readonly object Gate = new object();
        private static readonly List<ExternalEvent> Raised = new List<ExternalEvent>();
        internal static readonly Queue<ExternalEventRequest> ForcedAnswers = new Queue<ExternalEventRequest>();

        private readonly IExternalEventHandler handler;
        private bool pending;
        private bool disposed;

        private ExternalEvent(IExternalEventHandler handler) { this.handler = handler; }

        public bool IsPending { get { lock (Gate) return pending; } }

        public static ExternalEvent Create(IExternalEventHandler handler)
        {
            if (handler == null) throw new Autodesk.Revit.Exceptions.ArgumentException("handler is null.");
            ParacoreClrLane.Revit.RequireMainThread("ExternalEvent.Create");
            return new ExternalEvent(handler);
        }

        // Any thread may raise. Pending: already raised, Execute has not started yet.
        public ExternalEventRequest Raise()
        {
            lock (Gate)
            {
                if (ForcedAnswers.Count > 0) return ForcedAnswers.Dequeue();
                if (disposed) return ExternalEventRequest.Denied;
                if (pending) return ExternalEventRequest.Pending;
                pending = true;
                Raised.Add(this);
                return ExternalEventRequest.Accepted;
            }
        }

        public void Dispose()
        {
            lock (Gate)
            {
                disposed = true;
                pending = false;
                Raised.Remove(this);
            }
        }

        // Revit's idle loop: the events raised so far, each run once; pending clears as its
        // Execute starts, so a Raise during Execute queues another run.
        internal static int RunRaised(UIApplication app)
        {
            List<ExternalEvent> batch;
            lock (Gate)
            {
                batch = new List<ExternalEvent>(Raised);
                Raised.Clear();
                foreach (ExternalEvent e in batch) e.pending = false;
            }
            foreach (ExternalEvent e in batch) e.handler.Execute(app);
            return batch.Count;
        }

        internal static string HandlerName(int index)
        {
            lock (Gate) return Raised.Count > index ? Raised[index].handler.GetName() : null;
        }
    }

    public class UIDocument
    {
        internal UIDocument(Document document, View activeView)
        {
            Document = document;
            ActiveView = activeView;
            Selection = new Autodesk.Revit.UI.Selection.Selection(document);
        }

        public Document Document { get; private set; }
        public View ActiveView { get; private set; }
        public Autodesk.Revit.UI.Selection.Selection Selection { get; private set; }
    }

    public class UIApplication
    {
        private readonly Autodesk.Revit.ApplicationServices.ApplicationCore core;

        public UIApplication(Autodesk.Revit.ApplicationServices.Application application)
        {
            core = application.Core;
        }

        public Autodesk.Revit.ApplicationServices.Application Application
        {
            get { return new Autodesk.Revit.ApplicationServices.Application(core); }
        }
        public UIDocument ActiveUIDocument { get; internal set; }

        // Revit: `public event EventHandler<ApplicationClosingEventArgs> ApplicationClosing`.
        public event EventHandler<Autodesk.Revit.UI.Events.ApplicationClosingEventArgs> ApplicationClosing;

        internal int ApplicationClosingSubscribers
        {
            get { return ApplicationClosing == null ? 0 : ApplicationClosing.GetInvocationList().Length; }
        }

        internal void OnApplicationClosing()
        {
            EventHandler<Autodesk.Revit.UI.Events.ApplicationClosingEventArgs> handlers = ApplicationClosing;
            if (handlers != null) handlers(this, new Autodesk.Revit.UI.Events.ApplicationClosingEventArgs());
        }

        // Revit runs a posted command when control returns to it; one may be pending at a time.
        internal RevitCommandId Posted { get; set; }

        public void PostCommand(RevitCommandId commandId)
        {
            if (commandId == null) throw new Autodesk.Revit.Exceptions.ArgumentException("commandId is null.");
            if (Posted != null)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("A command is already posted.");
            Posted = commandId;
        }

        public bool CanPostCommand(RevitCommandId commandId) { return commandId != null && Posted == null; }

        // Revit: `public event EventHandler<ViewActivatedEventArgs> ViewActivated`.
        public event EventHandler<Autodesk.Revit.UI.Events.ViewActivatedEventArgs> ViewActivated;

        internal int ViewActivatedSubscribers
        {
            get { return ViewActivated == null ? 0 : ViewActivated.GetInvocationList().Length; }
        }

        // Revit: `public event EventHandler<DialogBoxShowingEventArgs> DialogBoxShowing`.
        public event EventHandler<Autodesk.Revit.UI.Events.DialogBoxShowingEventArgs> DialogBoxShowing;

        internal int DialogBoxShowingSubscribers
        {
            get { return DialogBoxShowing == null ? 0 : DialogBoxShowing.GetInvocationList().Length; }
        }

        // Shows a dialog: the code a handler answered with, or 0 when none did (the user would).
        internal int OnDialogBoxShowing(Autodesk.Revit.UI.Events.DialogBoxShowingEventArgs args)
        {
            if (DialogBoxShowing != null) DialogBoxShowing(this, args);
            return args.Result;
        }
    }
}

// WPF's Dispatcher and DispatcherTimer, which the chat view and the MCP listener's GIL pumps use.
// Mono's WindowsBase is a partial, older WPF (and not what Revit loads), so the lane defines the
// members Paracore touches under WPF's own names and signatures (.NET Framework 4.8 / .NET 8).
namespace System.Windows.Threading
{
    public enum DispatcherPriority
    {
        Invalid = -1, Inactive = 0, SystemIdle = 1, ApplicationIdle = 2, ContextIdle = 3, Background = 4,
        Input = 5, Loaded = 6, Render = 7, DataBind = 8, Normal = 9, Send = 10
    }

    public enum DispatcherOperationStatus { Pending = 0, Aborted = 1, Completed = 2, Executing = 3 }

    public sealed class DispatcherOperation
    {
        internal readonly Delegate Method;
        internal readonly object[] Args;
        internal readonly string Overload;

        internal DispatcherOperation(Dispatcher dispatcher, DispatcherPriority priority, Delegate method,
                                     object[] args, string overload)
        {
            Dispatcher = dispatcher;
            Priority = priority;
            Method = method;
            Args = args ?? new object[0];
            Overload = overload;
            Status = DispatcherOperationStatus.Pending;
        }

        public Dispatcher Dispatcher { get; private set; }
        public DispatcherPriority Priority { get; set; }
        public DispatcherOperationStatus Status { get; internal set; }
    }

    public sealed class Dispatcher
    {
        [ThreadStatic] private static Dispatcher current;

        internal readonly List<DispatcherTimer> Timers = new List<DispatcherTimer>();
        private readonly List<DispatcherOperation> queue = new List<DispatcherOperation>();
        private readonly List<string> overloadsCalled = new List<string>();

        internal Dispatcher() { Thread = Thread.CurrentThread; }

        // As WPF's: the calling thread's dispatcher, created on first use.
        public static Dispatcher CurrentDispatcher
        {
            get
            {
                if (current == null) current = new Dispatcher();
                return current;
            }
        }

        public Thread Thread { get; private set; }

        public bool CheckAccess() { return Thread.CurrentThread == Thread; }

        // WPF's five BeginInvoke overloads (any thread may call them): each queues the delegate
        // for the dispatcher's thread and returns at once. The lane runs the queue when it idles.
        public DispatcherOperation BeginInvoke(Delegate method, params object[] args)
        {
            return Queue(DispatcherPriority.Normal, method, args, "BeginInvoke(Delegate, Object[])");
        }

        public DispatcherOperation BeginInvoke(Delegate method, DispatcherPriority priority, params object[] args)
        {
            return Queue(priority, method, args, "BeginInvoke(Delegate, DispatcherPriority, Object[])");
        }

        public DispatcherOperation BeginInvoke(DispatcherPriority priority, Delegate method)
        {
            return Queue(priority, method, null, "BeginInvoke(DispatcherPriority, Delegate)");
        }

        public DispatcherOperation BeginInvoke(DispatcherPriority priority, Delegate method, object arg)
        {
            return Queue(priority, method, new object[] { arg }, "BeginInvoke(DispatcherPriority, Delegate, Object)");
        }

        public DispatcherOperation BeginInvoke(DispatcherPriority priority, Delegate method, object arg, params object[] args)
        {
            object[] all = new object[1 + (args == null ? 0 : args.Length)];
            all[0] = arg;
            if (args != null) args.CopyTo(all, 1);
            return Queue(priority, method, all, "BeginInvoke(DispatcherPriority, Delegate, Object, Object[])");
        }

        private DispatcherOperation Queue(DispatcherPriority priority, Delegate method, object[] args, string overload)
        {
            if (method == null) throw new ArgumentNullException("method");
            if (priority == DispatcherPriority.Inactive || priority == DispatcherPriority.Invalid)
                throw new System.ComponentModel.InvalidEnumArgumentException("priority");
            DispatcherOperation operation = new DispatcherOperation(this, priority, method, args, overload);
            lock (queue)
            {
                queue.Add(operation);
                overloadsCalled.Add(overload);
            }
            return operation;
        }

        internal int QueuedCount { get { lock (queue) return queue.Count; } }
        internal string[] OverloadsCalled { get { lock (queue) return overloadsCalled.ToArray(); } }

        // The dispatcher's thread runs what was queued, highest priority first (FIFO within one).
        internal int RunQueued()
        {
            if (!CheckAccess()) throw new InvalidOperationException("The calling thread cannot access this Dispatcher.");
            int ran = 0;
            while (true)
            {
                DispatcherOperation next = null;
                lock (queue)
                {
                    foreach (DispatcherOperation operation in queue)
                        if (next == null || operation.Priority > next.Priority) next = operation;
                    if (next == null) return ran;
                    queue.Remove(next);
                }
                next.Status = DispatcherOperationStatus.Executing;
                next.Method.DynamicInvoke(next.Args.Length == 0 ? null : next.Args);
                next.Status = DispatcherOperationStatus.Completed;
                ran++;
            }
        }
    }

    public class DispatcherTimer
    {
        private readonly Dispatcher dispatcher;
        internal DateTime Due;

        public DispatcherTimer(DispatcherPriority priority, Dispatcher dispatcher)
        {
            this.dispatcher = dispatcher;
            Interval = TimeSpan.Zero;
        }

        private TimeSpan interval;

        // As WPF's: changing the interval of a running timer restarts its count.
        public TimeSpan Interval
        {
            get { return interval; }
            set { interval = value; if (IsEnabled) Due = DateTime.UtcNow + value; }
        }

        public bool IsEnabled { get; private set; }
        public event EventHandler Tick;

        public void Start()
        {
            IsEnabled = true;
            Due = DateTime.UtcNow + Interval;
            if (!dispatcher.Timers.Contains(this)) dispatcher.Timers.Add(this);
        }

        public void Stop() { IsEnabled = false; }

        internal void Fire()
        {
            Due = DateTime.UtcNow + Interval;
            EventHandler handlers = Tick;
            if (handlers != null) handlers(this, EventArgs.Empty);
        }
    }
}

namespace ParacoreClrLane
{
    using Autodesk.Revit.DB;
    using Autodesk.Revit.DB.Events;
    using Autodesk.Revit.UI;

    // Python→.NET crossings the lane's counted members saw (Element.LookupParameter and GetTypeId,
    // Parameter's and Definition's members, each element a collector hands to Python).
    public static class Crossings
    {
        public static long Count;
    }

    // The test's hand on the application: what Revit itself would do, not API.
    public static class Revit
    {
        private static int mainThreadId = -1;

        // The calling thread becomes Revit's main thread (ExternalEvent.Create checks it).
        public static void DesignateMainThread() { mainThreadId = Thread.CurrentThread.ManagedThreadId; }

        internal static void RequireMainThread(string what)
        {
            if (mainThreadId != -1 && Thread.CurrentThread.ManagedThreadId != mainThreadId)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException(what + " was called outside Revit's main thread.");
        }

        // A document with `count` plain elements, a view, and a UIApplication showing it.
        public static UIApplication Open(string title, int count, bool readOnly)
        {
            Document document = new Document(title, readOnly);
            for (int i = 0; i < count; i++) document.AddUnchecked("Element " + i);
            View view = new View(document, 1, "Level 1");
            UIApplication app = new UIApplication(new Autodesk.Revit.ApplicationServices.Application());
            app.ActiveUIDocument = new UIDocument(document, view);
            app.Application.Documents.Insert(document);
            document.Application = app.Application;
            return app;
        }

        // A linked model: Revit lists it in Application.Documents, with IsLinked.
        public static Document AddLinkedDocument(UIApplication app, string title)
        {
            Document linked = new Document(title, true);
            linked.IsLinked = true;
            app.Application.Documents.Insert(linked);
            return linked;
        }

        // Revit is about to close: ApplicationClosing fires on the main thread, which holds the GIL
        // under pyRevit's CPython engine.
        public static void CloseApplication(UIApplication app)
        {
            RequireMainThread("CloseApplication");
            using (Python.Runtime.Py.GIL()) app.OnApplicationClosing();
        }

        public static int ApplicationClosingSubscribers(UIApplication app) { return app.ApplicationClosingSubscribers; }

        // Revit shows a task dialog, a message box (its Windows type names its buttons) or a dialog
        // box: DialogBoxShowing fires; the answer a handler gave, 0 for none.
        public static int ShowTaskDialog(UIApplication app, string dialogId, string message, int[] buttons)
        {
            return app.OnDialogBoxShowing(new Autodesk.Revit.UI.Events.TaskDialogShowingEventArgs(dialogId, message, buttons));
        }

        public static int ShowMessageBox(UIApplication app, string message, int dialogType, int[] buttons)
        {
            return app.OnDialogBoxShowing(new Autodesk.Revit.UI.Events.MessageBoxShowingEventArgs(message, dialogType, buttons));
        }

        public static int ShowDialogBox(UIApplication app, string dialogId)
        {
            return app.OnDialogBoxShowing(new Autodesk.Revit.UI.Events.DialogBoxShowingEventArgs(dialogId, null));
        }

        public static int DialogBoxShowingSubscribers(UIApplication app) { return app.DialogBoxShowingSubscribers; }

        // A save ("save", "save as" or "sync") of the active document is about to start: true when cancelled.
        public static bool Saving(UIApplication app, string which) { return app.Application.OnSaving(app.ActiveUIDocument.Document, which); }

        public static int SaveEventSubscribers(UIApplication app) { return app.Application.SaveEventSubscribers; }

        public static long FirstElementId(Document document) { return 1000; }

        // Revit idles: every raised external event runs once, on the calling thread.
        public static int Idle(UIApplication app)
        {
            RequireMainThread("Idle");
            return ExternalEvent.RunRaised(app);
        }

        public static void AnswerNextRaise(ExternalEventRequest answer)
        {
            lock (ExternalEvent.ForcedAnswers) ExternalEvent.ForcedAnswers.Enqueue(answer);
        }

        public static string RaisedHandlerName() { return ExternalEvent.HandlerName(0); }

        public static void FireDocumentChanged(UIApplication app, ICollection<ElementId> deleted)
        {
            app.Application.OnDocumentChanged(new DocumentChangedEventArgs(app.ActiveUIDocument.Document, deleted));
        }

        public static int DocumentChangedSubscribers(UIApplication app) { return app.Application.DocumentChangedSubscribers; }

        // Whether a transaction group's RollBack raises DocumentChanged (TransactionGroupRolledBack):
        // Revit does not document it, so the lane runs both ways.
        public static bool GroupRollBackRaisesDocumentChanged = true;

        internal static void RaiseDocumentChanged(Document document, UndoOperation operation, ChangeRecord record, bool inverse)
        {
            List<ElementId> added = new List<ElementId>(), deleted = new List<ElementId>();
            foreach (Element element in record.Added) (inverse ? deleted : added).Add(element.Id);
            foreach (Element element in record.Removed) (inverse ? added : deleted).Add(element.Id);
            if (document.Core == null) return;
            new Autodesk.Revit.ApplicationServices.Application(document.Core).OnDocumentChanged(
                new DocumentChangedEventArgs(document, operation, record.Names, added, deleted));
        }

        // Revit's Undo (a posted ID_EDIT_UNDO that ran): the top entry is undone and reported with
        // the names of the transactions in it. Returns the entry's name, or null with nothing to undo.
        public static string Undo(UIApplication app)
        {
            Document document = app.ActiveUIDocument.Document;
            if (document.UndoStack.Count == 0) return null;
            ChangeRecord top = document.UndoStack[document.UndoStack.Count - 1];
            document.UndoStack.RemoveAt(document.UndoStack.Count - 1);
            document.Revert(top);
            RaiseDocumentChanged(document, UndoOperation.TransactionUndone, top, true);
            return top.Name;
        }

        public static int ElementCount(Document document) { return new List<Element>(document.All()).Count; }

        // DocumentOpened, DocumentClosing, DocumentClosed and ViewActivated handlers (session_events).
        public static int SessionEventSubscribers(UIApplication app)
        {
            return app.Application.Core.DocumentEventSubscribers + app.ViewActivatedSubscribers;
        }

        // Control returns to Revit: the posted command runs (the lane only names it; null: none).
        public static string RunPostedCommand(UIApplication app)
        {
            RevitCommandId posted = app.Posted;
            app.Posted = null;
            return posted == null ? null : posted.Name;
        }

        // Revit's Undo undid an entry: DocumentChanged with TransactionUndone and its names.
        public static void FireUndone(UIApplication app, string[] names)
        {
            app.Application.OnDocumentChanged(new DocumentChangedEventArgs(app.ActiveUIDocument.Document,
                                                                           UndoOperation.TransactionUndone, names));
        }

        public static int IsolatedCount(View view) { return view.IsolatedCount; }

        // A view and a view template in a document (as a project's template file brings them).
        public static View AddView(Document document, string name, bool template) { return document.AddView(name, template); }

        public static XYZ OffsetOf(Element element) { return element.Offset; }

        public static bool HasOpenTransaction(Document document) { return document.OpenTransaction != null; }

        // Revit calls a pane provider when it first shows the pane.
        public static DockablePaneProviderData SetUpPane(IDockablePaneProvider provider)
        {
            DockablePaneProviderData data = new DockablePaneProviderData();
            provider.SetupDockablePane(data);
            return data;
        }

        // Revit hands a failures preprocessor the failures of a commit.
        public static string RunFailures(IFailuresPreprocessor preprocessor, string[] warnings, string[] errors)
        {
            List<FailureMessageAccessor> messages = new List<FailureMessageAccessor>();
            foreach (string text in warnings) messages.Add(new FailureMessageAccessor(text, FailureSeverity.Warning));
            foreach (string text in errors) messages.Add(new FailureMessageAccessor(text, FailureSeverity.Error));
            FailuresAccessor accessor = new FailuresAccessor(messages);
            FailureProcessingResult result = preprocessor.PreprocessFailures(accessor);
            return result + ":" + accessor.Remaining;
        }

        public static System.Windows.Threading.Dispatcher NewDispatcher() { return new System.Windows.Threading.Dispatcher(); }

        // Idle Revit under pyRevit's CPython engine: the main thread holds the GIL while it waits
        // for messages, so other Python threads stall, except while a dispatcher timer's Python
        // tick runs (and releases the GIL by sleeping). Returns the ticks fired.
        public static int IdleHoldingGil(System.Windows.Threading.Dispatcher dispatcher, int milliseconds)
        {
            return IdleHoldingGil(null, dispatcher, milliseconds);
        }

        // The same idle, as Revit's message loop does it: it also runs what was queued with
        // Dispatcher.BeginInvoke and, when `app` is given, the raised external events.
        public static int IdleHoldingGil(UIApplication app, System.Windows.Threading.Dispatcher dispatcher, int milliseconds)
        {
            int ticks = 0;
            DateTime end = DateTime.UtcNow.AddMilliseconds(milliseconds);
            using (Python.Runtime.Py.GIL())
            {
                while (DateTime.UtcNow < end)
                {
                    dispatcher.RunQueued();
                    if (app != null) Idle(app);
                    foreach (System.Windows.Threading.DispatcherTimer timer in dispatcher.Timers.ToArray())
                    {
                        if (timer.IsEnabled && DateTime.UtcNow >= timer.Due)
                        {
                            timer.Fire();
                            ticks++;
                        }
                    }
                    Thread.Sleep(1);
                }
            }
            return ticks;
        }

        // The dispatcher's thread runs what BeginInvoke queued (without holding the GIL between).
        public static int RunDispatcher(System.Windows.Threading.Dispatcher dispatcher) { return dispatcher.RunQueued(); }

        public static int QueuedOperations(System.Windows.Threading.Dispatcher dispatcher) { return dispatcher.QueuedCount; }

        // Which BeginInvoke overloads pythonnet bound, in call order.
        public static string[] BeginInvokeOverloads(System.Windows.Threading.Dispatcher dispatcher)
        {
            return dispatcher.OverloadsCalled;
        }

        // Calls an Action the way WPF's Dispatcher would, on the calling thread.
        public static void Invoke(Action action) { action(); }

        // Work for the boundary benchmark: how many ids a List<ElementId> holds.
        public static int CountIds(ICollection<ElementId> ids) { return ids.Count; }

        // -- issue 15: a small project to annotate, lay out on sheets and fill with rooms ----------

        private static readonly List<string> Calls = new List<string>();
        internal static readonly Dictionary<Document, List<Region>> RegionsOf = new Dictionary<Document, List<Region>>();

        // The API members record the overload pythonnet chose; the scenario takes the record.
        internal static void Record(string call) { lock (Calls) Calls.Add(call); }

        public static string[] TakeCalls()
        {
            lock (Calls)
            {
                string[] taken = Calls.ToArray();
                Calls.Clear();
                return taken;
            }
        }

        // A project whose active view is the registered floor plan "Level 1" (a 0.6 x 0.45 ft box on a sheet).
        public static UIApplication OpenProject(string title)
        {
            Document document = new Document(title, false);
            document.Register(new Level(document, document.TakeId(), "Level 1", 0));
            View plan = AddPlan(document, "Level 1", 0.6, 0.45);
            UIApplication app = new UIApplication(new Autodesk.Revit.ApplicationServices.Application());
            app.ActiveUIDocument = new UIDocument(document, plan);
            app.Application.Documents.Insert(document);
            document.Application = app.Application;
            return app;
        }

        public static View AddPlan(Document document, string name, double boxWidth, double boxHeight)
        {
            View plan = document.AddView(name, false);
            plan.PaperWidth = boxWidth;
            plan.PaperHeight = boxHeight;
            return plan;
        }

        public static View Add3DView(Document document, string name)
        {
            return document.Register(new View3D(document, document.TakeId(), name));
        }

        public static Wall AddWall(Document document, double x1, double y1, double x2, double y2, double width)
        {
            Wall wall = document.Register(new Wall(document, document.TakeId(),
                                                   Line.CreateBound(new XYZ(x1, y1, 0), new XYZ(x2, y2, 0)), width));
            wall.Category = new Category(BuiltInCategory.OST_Walls, "Walls");
            double dx = x2 - x1, dy = y2 - y1;
            wall.AddParameter(new Parameter(BuiltInParameter.CURVE_ELEM_LENGTH, "Length", Math.Sqrt(dx * dx + dy * dy),
                                            SpecTypeId.Length), "Length");
            return wall;
        }

        public static FamilyInstance AddDoor(Document document, Wall host, double x, double y)
        {
            FamilyInstance door = document.Register(new FamilyInstance(document, document.TakeId(), "Door"));
            door.Category = new Category(BuiltInCategory.OST_Doors, "Doors");
            door.Location = new LocationPoint(new XYZ(x, y, 0));
            door.Host = host;
            foreach (Element element in document.All())     // on the project's first level, as its walls are
            {
                Level level = element as Level;
                if (level != null) { door.LevelId = level.Id; break; }
            }
            return door;
        }

        // A loaded family type of a category: tag types, title blocks (paper width and height in feet).
        public static FamilySymbol AddFamilyType(Document document, BuiltInCategory category, string family, string name,
                                                 double paperWidth, double paperHeight)
        {
            FamilySymbol symbol = document.Register(new FamilySymbol(document, document.TakeId(), name, family));
            symbol.Category = new Category(category, category.ToString());
            symbol.PaperWidth = paperWidth;
            symbol.PaperHeight = paperHeight;
            return symbol;
        }

        public static TextNoteType AddTextNoteType(Document document, string name)
        {
            return document.Register(new TextNoteType(document, document.TakeId(), name));
        }

        // Four walls enclosing a rectangle on a level: NewRooms2 finds it, NewRoom inside it bounds to it.
        public static Wall[] AddEnclosure(Document document, Level level, double minX, double minY, double maxX, double maxY)
        {
            Region region = new Region { Level = level, MinX = minX, MinY = minY, MaxX = maxX, MaxY = maxY };
            region.Walls.Add(AddWall(document, minX, minY, maxX, minY, 0.5));
            region.Walls.Add(AddWall(document, maxX, minY, maxX, maxY, 0.5));
            region.Walls.Add(AddWall(document, maxX, maxY, minX, maxY, 0.5));
            region.Walls.Add(AddWall(document, minX, maxY, minX, minY, 0.5));
            if (!RegionsOf.ContainsKey(document)) RegionsOf[document] = new List<Region>();
            RegionsOf[document].Add(region);
            return region.Walls.ToArray();
        }

        public static View AddTemplate(Document document, string name, int scale, ViewDetailLevel detail)
        {
            View template = document.AddView(name, true);
            template.Scale = scale;
            template.DetailLevel = detail;
            return template;
        }

        // A schedule whose body rows are `cells` cut into rows of `columns` (the first row: headings).
        public static ViewSchedule AddSchedule(Document document, string name, int columns, string[] cells)
        {
            ViewSchedule schedule = document.Register(new ViewSchedule(document, document.TakeId(), name));
            for (int i = 0; i + columns <= cells.Length; i += columns)
            {
                string[] row = new string[columns];
                Array.Copy(cells, i, row, 0, columns);
                schedule.Cells.Add(row);
            }
            return schedule;
        }

        public static void AddWarning(Document document, string text, long[] failing)
        {
            List<ElementId> ids = new List<ElementId>();
            foreach (long id in failing) ids.Add(new ElementId(id));
            document.Warnings.Add(new FailureMessage(text, ids));
        }

        // A linked model's type, loaded or not, with an instance placed or not.
        public static RevitLinkType AddLink(Document document, string name, bool loaded, bool placed)
        {
            RevitLinkType type = document.Register(new RevitLinkType(document, document.TakeId(), name));
            type.Loaded = loaded;
            if (placed)
            {
                RevitLinkInstance instance = document.Register(new RevitLinkInstance(document, document.TakeId(), name));
                instance.TypeId = type.Id;
            }
            return type;
        }

        // A loaded link placed at (x, y, z) turned by angle, whose own shared coordinates are given.
        public static RevitLinkInstance AddPlacedLink(Document document, string name, double x, double y, double z,
                                                      double angle, double[] linkShared)
        {
            RevitLinkType type = AddLink(document, name, true, false);
            RevitLinkInstance instance = document.Register(new RevitLinkInstance(document, document.TakeId(), name));
            instance.TypeId = type.Id;
            instance.Placement = new Transform(new XYZ(x, y, z), angle);
            instance.LinkDocument = new Document(name, true);
            instance.LinkDocument.IsLinked = true;
            SetSharedCoordinates(instance.LinkDocument, linkShared);
            return instance;
        }

        // A loaded link placed at (x, y) turned by angle, with one door at (doorX, doorY) in its own coordinates.
        public static RevitLinkInstance AddLinkWithADoor(Document document, string name, double x, double y, double angle,
                                                         double doorX, double doorY)
        {
            RevitLinkInstance instance = AddPlacedLink(document, name, x, y, 0.0, angle, new double[] { 0, 0, 0, 0 });
            Document linked = instance.LinkDocument;
            Wall wall = AddWall(linked, doorX - 5, doorY, doorX + 5, doorY, 0.5);
            AddDoor(linked, wall, doorX, doorY);
            return instance;
        }

        // What Manage > Coordinates > Specify Coordinates at Point does to the internal origin.
        public static void SetSharedCoordinates(Document document, double[] position)
        {
            document.ActiveProjectLocation.Shared = new ProjectPosition(position[0], position[1], position[2], position[3]);
        }

        internal static int RoomsPlaced(Document document)
        {
            int count = 0;
            foreach (Element element in document.All()) if (element is Autodesk.Revit.DB.Architecture.Room) count++;
            return count;
        }
    }
}
