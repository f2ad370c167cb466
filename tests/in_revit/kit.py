"""What the in-Revit checks share: the pass/fail vocabulary, the scratch session that calls tools
through the executor, and a transaction group that is rolled back around each check.

Imported by run_checks.py (which puts this folder on sys.path) and by the check modules in
behaviour_checks/. Plain Python 3.12 as pyRevit's CPython engine runs it; no pytest here.
"""
import contextlib

SCRATCH_GROUP = "Paracore in-Revit checks (rolled back)"
COMMENT = "Paracore in-Revit check"


class CheckFailed(Exception):
    """A check's expectation was not met; the message says which."""


class Skipped(Exception):
    """The open model lacks what a check needs (no door family, no title block...); the message says what.
    The table shows SKIP, which is not a failure."""


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


def skip(reason):
    """Stop the check: the model lacks what it needs, e.g. skip("the model has no door family loaded")."""
    raise Skipped(reason)


class Scratch:
    """The agent's side for the checks: a throwaway session and tool calls through the executor.

    ``uiapp``, ``uidoc`` and ``doc`` are the open model's; ``session`` is a throwaway session
    (not the user's), fresh for each check; ``wall`` is the id of a wall a check created (or
    None); ``memo`` keeps what several checks look up once (e.g. where there is room to build).
    """

    def __init__(self, uiapp):
        from paracore.tools.framework.catalogue import load_tools
        load_tools()
        self.uiapp = uiapp
        self.uidoc = uiapp.ActiveUIDocument
        self.doc = self.uidoc.Document
        self.memo = {}
        self.fresh_session()

    def fresh_session(self):
        """A new, empty session (working set, scratchpad, toolsets): each check starts from it."""
        from paracore.hosts.revit.executor import describe_categories
        from paracore.core.session import Session
        self.session = Session("paracore-in-revit-checks", self.doc.Title, describe=describe_categories(self.doc))
        self.wall = None
        return self.session

    def call(self, tool, arguments, allow_error=False):
        """Run one tool call as the agent's executor does (its own transaction, read-back, commit).
        Returns the result text; a refused or failed call is a CheckFailed unless ``allow_error``."""
        return self.outcome(tool, arguments, allow_error=allow_error).content

    def outcome(self, tool, arguments, allow_error=False):
        from paracore.hosts.revit.executor import run_batch
        from paracore.tools.framework.registry import PreparedCall, default_registry
        prepared = default_registry().prepare(tool, arguments, self.session.working_set.ids)
        if not isinstance(prepared, PreparedCall):
            expect(allow_error, f"{tool} was refused: {getattr(prepared, 'message', prepared)}")
            return prepared
        [outcome] = run_batch(self.uidoc, self.session, f"Paracore check: {tool}", [("c1", prepared)])
        expect(allow_error or not outcome.is_error, f"{tool} failed: {outcome.content}")
        return outcome


@contextlib.contextmanager
def rolled_back(doc, name=SCRATCH_GROUP):
    """A transaction group around a check, always rolled back: whatever the check commits is gone
    afterwards and leaves no undo entry. A check must close its own transactions (``transaction``
    does): with one left open the group cannot roll back, and run_checks.py reports that as a
    failure of its own ("<check>: rollback")."""
    from Autodesk.Revit import DB
    group = DB.TransactionGroup(doc, name)
    group.Start()
    try:
        yield group
    finally:
        if group.HasStarted() and not group.HasEnded():
            group.RollBack()


@contextlib.contextmanager
def transaction(doc, name="Paracore check: set up"):
    """A transaction for a check's own set-up (inside the check's group, so it is undone too).
    Committed at the end; rolled back when the block raises. A commit Revit refuses is a failure."""
    from Autodesk.Revit import DB
    step = DB.Transaction(doc, name)
    step.Start()
    try:
        yield step
    except BaseException:
        if not step.HasEnded():
            step.RollBack()
        raise
    status = step.Commit()
    expect(status == DB.TransactionStatus.Committed, f"Revit did not commit '{name}': {status}")


def element_count(doc):
    from Autodesk.Revit import DB
    return DB.FilteredElementCollector(doc).WhereElementIsNotElementType().GetElementCount()


def lowest_level(doc):
    from Autodesk.Revit import DB
    levels = sorted(DB.FilteredElementCollector(doc).OfClass(DB.Level), key=lambda level: level.Elevation)
    expect(levels, "the model has no levels")
    return levels[0]
