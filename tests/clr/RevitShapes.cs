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
        public ApplicationException(string message) : base(message) { }
    }

    public class InvalidOperationException : ApplicationException
    {
        public InvalidOperationException(string message) : base(message) { }
    }

    public class ArgumentException : ApplicationException
    {
        public ArgumentException(string message) : base(message) { }
    }

    public class ModificationOutsideTransactionException : InvalidOperationException
    {
        public ModificationOutsideTransactionException(string message) : base(message) { }
    }
}

namespace Autodesk.Revit.DB
{
    public enum BuiltInCategory { INVALID = -1, OST_Walls = -2000011, OST_Doors = -2000023, OST_Levels = -2000240, OST_Grids = -2000220 }

    public enum BuiltInParameter { INVALID = -1, ALL_MODEL_MARK = -1001203 }

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
        public double X { get; private set; }
        public double Y { get; private set; }
        public double Z { get; private set; }
    }

    public class Line
    {
        private Line() { }
        public static Line CreateBound(XYZ endpoint1, XYZ endpoint2) { return new Line(); }
    }

    public class CurveLoop
    {
        public CurveLoop() { }
    }

    public class Element
    {
        internal Element(Document document, long id, string name)
        {
            Document = document;
            Id = new ElementId(id);
            Name = name;
        }

        public ElementId Id { get; private set; }
        public string Name { get; set; }
        public Document Document { get; private set; }
        public XYZ Offset { get; internal set; }
    }

    public class Document
    {
        private readonly Dictionary<long, Element> elements = new Dictionary<long, Element>();
        private long nextId = 1000;

        public Document(string title, bool readOnly)
        {
            Title = title;
            PathName = "";
            IsReadOnly = readOnly;
        }

        public string Title { get; private set; }
        public string PathName { get; set; }
        public bool IsReadOnly { get; private set; }
        public bool IsLinked { get; internal set; }
        internal Transaction OpenTransaction { get; set; }

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
                if (elements.Remove(id.Value)) deleted.Add(id);
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
            return AddUnchecked(name);
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

        internal View(Document document, long id, string name) : base(document, id, name) { }

        public bool IsTemplate { get; internal set; }

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
    }

    // Schedules are TableViews; Paracore refuses to isolate in one (is-a check only).
    public class TableView : View
    {
        internal TableView(Document document, long id, string name) : base(document, id, name) { }
    }

    public class Floor : Element
    {
        internal Floor(Document document, long id, string name) : base(document, id, name) { }

        public static Floor Create(Document document, IList<CurveLoop> profile, ElementId floorTypeId, ElementId levelId)
        {
            if (profile.Count == 0) throw new Autodesk.Revit.Exceptions.ArgumentException("The profile is empty.");
            Element added = document.Add("Floor (" + profile.Count + " loops)");
            return new Floor(document, added.Id.Value, added.Name);
        }
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

        public string Name { get; private set; }

        public TransactionStatus Start()
        {
            if (document.IsReadOnly)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("The document is read-only: cannot start a transaction.");
            if (document.OpenTransaction != null)
                throw new Autodesk.Revit.Exceptions.InvalidOperationException("Another transaction is already open.");
            document.OpenTransaction = this;
            status = TransactionStatus.Started;
            return status;
        }

        public TransactionStatus Commit() { return End(TransactionStatus.Committed); }
        public TransactionStatus RollBack() { return End(TransactionStatus.RolledBack); }
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

    // Only the chain Paracore uses to list what a view shows.
    public class FilteredElementCollector
    {
        private readonly Document document;

        public FilteredElementCollector(Document document) { this.document = document; }
        public FilteredElementCollector(Document document, ElementId viewId) { this.document = document; }

        public FilteredElementCollector WhereElementIsNotElementType() { return this; }
        public ICollection<ElementId> ToElementIds() { return document.AllIds(); }
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

namespace Autodesk.Revit.DB.Events
{
    using Autodesk.Revit.DB;

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

    public class DocumentChangedEventArgs : EventArgs
    {
        private readonly Document document;
        private readonly ICollection<ElementId> deleted;

        internal DocumentChangedEventArgs(Document document, ICollection<ElementId> deleted)
        {
            this.document = document;
            this.deleted = deleted;
        }

        public Document GetDocument() { return document; }
        public ICollection<ElementId> GetDeletedElementIds() { return new List<ElementId>(deleted); }
        public ICollection<ElementId> GetAddedElementIds() { return new List<ElementId>(); }
        public ICollection<ElementId> GetModifiedElementIds() { return new List<ElementId>(); }
        public ICollection<string> GetTransactionNames() { return new List<string> { "Paracore: test" }; }
    }
}

namespace Autodesk.Revit.ApplicationServices
{
    using Autodesk.Revit.DB.Events;

    public class Application
    {
        private readonly Autodesk.Revit.DB.DocumentSet documents = new Autodesk.Revit.DB.DocumentSet();

        public string VersionNumber { get { return "2026"; } }
        public Autodesk.Revit.DB.DocumentSet Documents { get { return documents; } }

        public event EventHandler<DocumentChangedEventArgs> DocumentChanged;

        internal int DocumentChangedSubscribers
        {
            get { return DocumentChanged == null ? 0 : DocumentChanged.GetInvocationList().Length; }
        }

        internal void OnDocumentChanged(DocumentChangedEventArgs args)
        {
            EventHandler<DocumentChangedEventArgs> handlers = DocumentChanged;
            if (handlers != null) handlers(this, args);
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
            foreach (ElementId id in elementIds)
            {
                if (document.GetElement(id) != null && !ids.Contains(id)) ids.Add(id);
            }
        }

        public ICollection<ElementId> GetElementIds() { return new List<ElementId>(ids); }
    }
}

namespace Autodesk.Revit.UI
{
    using Autodesk.Revit.DB;

    public enum ExternalEventRequest { Accepted = 0, Pending = 1, Denied = 2, TimedOut = 3 }

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
        public UIDocument(Document document, View activeView)
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
        public UIApplication(Autodesk.Revit.ApplicationServices.Application application)
        {
            Application = application;
        }

        public Autodesk.Revit.ApplicationServices.Application Application { get; private set; }
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
    }
}
