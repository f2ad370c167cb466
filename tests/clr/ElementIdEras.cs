// ElementId as each supported Revit year shapes it, for the lane's tests of how Paracore makes ids
// (paracore.revit.element_ids). Compiled into the same assembly as RevitShapes.cs, whose
// Autodesk.Revit.DB.ElementId is Revit 2026's.
//
// The integer constructors, from the published API (the pyrevit-stubs data that
// tests/conformance/real_api.py reads; "ElementId(Int32) Obsolete", revitapidocs.com/2024):
//   2023        ElementId(Int32)                      IntegerValue
//   2024, 2025  ElementId(Int32) obsolete, (Int64)    IntegerValue, Value
//   2026        ElementId(Int64)                      Value
// and on every year ElementId(BuiltInCategory), ElementId(BuiltInParameter).
//
// Not Revit: each id records which constructor made it, and whether Array.ConvertAll called that
// constructor, so a test can tell ids made in .NET from ids made by one pythonnet call each.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using Autodesk.Revit.DB;

namespace ParacoreClrLane.Eras
{
    public abstract class RecordedId
    {
        protected RecordedId(long value, string madeBy)
        {
            Recorded = value;
            MadeBy = madeBy;
            InConvertAll = CalledFromConvertAll();
        }

        public long Recorded { get; private set; }
        public string MadeBy { get; private set; }
        public bool InConvertAll { get; private set; }

        public override bool Equals(object obj)
        {
            RecordedId other = obj as RecordedId;
            return other != null && other.GetType() == GetType() && other.Recorded == Recorded;
        }

        public override int GetHashCode() { return Recorded.GetHashCode(); }
        public override string ToString() { return Recorded.ToString(); }

        private static bool CalledFromConvertAll()
        {
            foreach (StackFrame frame in new StackTrace().GetFrames())
            {
                var method = frame.GetMethod();
                if (method != null && method.Name == "ConvertAll" && method.DeclaringType == typeof(Array)) return true;
            }
            return false;
        }
    }

    public class ElementId2023 : RecordedId
    {
        public ElementId2023(int id) : base(id, "Int32") { }
        public ElementId2023(BuiltInCategory categoryId) : base((long)categoryId, "BuiltInCategory") { }
        public ElementId2023(BuiltInParameter parameterId) : base((long)parameterId, "BuiltInParameter") { }

        public int IntegerValue { get { return (int)Recorded; } }
    }

    public class ElementId2024 : RecordedId
    {
        [Obsolete("This constructor is deprecated in Revit 2024 and may be removed in a future version of Revit. "
                  + "Please use the `ElementId(Int64)` overload instead.")]
        public ElementId2024(int id) : base(id, "Int32") { }
        public ElementId2024(long id) : base(id, "Int64") { }
        public ElementId2024(BuiltInCategory categoryId) : base((long)categoryId, "BuiltInCategory") { }
        public ElementId2024(BuiltInParameter parameterId) : base((long)parameterId, "BuiltInParameter") { }

        public long Value { get { return Recorded; } }
        public int IntegerValue { get { return (int)Recorded; } }
    }

    public class ElementId2026 : RecordedId
    {
        public ElementId2026(long id) : base(id, "Int64") { }
        public ElementId2026(BuiltInCategory categoryId) : base((long)categoryId, "BuiltInCategory") { }
        public ElementId2026(BuiltInParameter parameterId) : base((long)parameterId, "BuiltInParameter") { }

        public long Value { get { return Recorded; } }
    }

    // A Revit method taking ICollection<ElementId> of each year (Selection.SetElementIds,
    // View.IsolateElementsTemporary, Document.Delete all do): what it received, in order.
    public static class TakesIds
    {
        public static string[] Received(ICollection<ElementId2023> ids) { return Describe(ids); }
        public static string[] Received(ICollection<ElementId2024> ids) { return Describe(ids); }
        public static string[] Received(ICollection<ElementId2026> ids) { return Describe(ids); }

        private static string[] Describe<T>(ICollection<T> ids) where T : RecordedId
        {
            List<string> seen = new List<string>();
            foreach (T id in ids) seen.Add(id.Recorded + " " + id.MadeBy + (id.InConvertAll ? " ConvertAll" : ""));
            return seen.ToArray();
        }
    }
}
