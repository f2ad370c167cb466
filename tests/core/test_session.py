"""Sessions and the process-wide session registry."""
import importlib
import logging

import pytest

import paracore.core.session as session_module
from paracore.core.session import (
    Session,
    SessionEvent,
    SessionRegistry,
    registry,
    reset_registry_for_tests,
)


@pytest.fixture(autouse=True)
def fresh_registry():
    reset_registry_for_tests()
    yield
    reset_registry_for_tests()


def walls(ids):
    return {i: "Walls" for i in ids}


def record(reg):
    events = []
    reg.subscribe(events.append)
    return events


# -- one session -----------------------------------------------------------------------------------

def test_a_new_session_starts_empty():
    session = Session("doc-1", "Duplex.rvt", walls)
    assert (session.key, session.title) == ("doc-1", "Duplex.rvt")
    assert session.history == [] and session.scratchpad == {}
    assert session.always_allowed_tools == set()
    assert len(session.working_set) == 0


def test_the_working_set_uses_the_sessions_resolver():
    session = Session("doc-1", "Duplex.rvt", walls)
    session.working_set.replace([1, 2])
    assert session.working_set.summary() == "2 Walls"


def test_end_action_clears_the_scratchpad_but_keeps_history_working_set_and_approvals():
    session = Session("doc-1", "Duplex.rvt", walls)
    session.history.append("user: create a curved wall")
    session.working_set.replace([12345])
    session.always_allowed_tools.add("select_elements")
    session.scratchpad.update(selected_script="Create_Curved_Wall.cs", pending={"radius": 10})
    session.end_action()
    assert session.scratchpad == {}
    assert session.history == ["user: create a curved wall"]
    assert session.working_set.ids == (12345,)
    assert session.always_allowed_tools == {"select_elements"}


def test_clear_conversation_forgets_history_scratchpad_and_working_set_but_not_approvals():
    session = Session("doc-1", "Duplex.rvt", walls)
    session.history.append("hello")
    session.scratchpad["x"] = 1
    session.working_set.replace([1])
    session.always_allowed_tools.add("select_elements")
    changes = []
    session.working_set.subscribe(changes.append)
    session.clear_conversation()
    assert session.history == [] and session.scratchpad == {} and session.working_set.ids == ()
    assert session.always_allowed_tools == {"select_elements"}
    assert changes[0].source == "conversation cleared"


# -- the registry ----------------------------------------------------------------------------------

def test_get_or_create_returns_the_same_session_for_a_key():
    reg = SessionRegistry()
    first = reg.get_or_create("doc-1", "Duplex.rvt", walls)
    first.working_set.replace([1])
    again = reg.get_or_create("doc-1", "Duplex.rvt")
    assert again is first and again.working_set.summary() == "1 Wall"
    assert reg.get("doc-1") is first
    assert reg.get("doc-2") is None
    assert "doc-1" in reg and len(reg) == 1


def test_get_or_create_updates_the_title_of_a_renamed_document():
    reg = SessionRegistry()
    reg.get_or_create("doc-1", "Duplex.rvt")
    assert reg.get_or_create("doc-1", "Duplex v2.rvt").title == "Duplex v2.rvt"


@pytest.mark.parametrize("key", ["", None, 42])
def test_a_document_key_must_be_a_non_empty_string(key):
    with pytest.raises(ValueError, match="document key must be a non-empty string"):
        SessionRegistry().get_or_create(key, "x")


def test_sessions_are_kept_apart():
    reg = SessionRegistry()
    a = reg.get_or_create("a", "A.rvt", walls)
    b = reg.get_or_create("b", "B.rvt", walls)
    a.working_set.replace([1])
    assert b.working_set.ids == ()
    assert reg.sessions() == [a, b]


def test_created_removed_and_activated_events():
    reg = SessionRegistry()
    events = record(reg)
    a = reg.get_or_create("a", "A.rvt")
    reg.get_or_create("a", "A.rvt")  # existing: no event
    reg.set_active("a")
    reg.set_active("a")  # unchanged: no event
    assert reg.active_key == "a" and reg.active is a
    assert reg.remove("a") is a
    assert reg.remove("a") is None
    assert events == [SessionEvent("created", "a", a), SessionEvent("activated", "a", a),
                      SessionEvent("removed", "a", a), SessionEvent("activated", None, None)]
    assert reg.active_key is None and reg.active is None


def test_removing_an_inactive_session_keeps_the_active_one():
    reg = SessionRegistry()
    a = reg.get_or_create("a", "A.rvt")
    reg.get_or_create("b", "B.rvt")
    reg.set_active("a")
    events = record(reg)
    reg.remove("b")
    assert reg.active is a
    assert [e.kind for e in events] == ["removed"]


def test_activating_an_unknown_document_says_what_to_do():
    reg = SessionRegistry()
    reg.get_or_create("a", "A.rvt")
    with pytest.raises(KeyError, match=r"call get_or_create\(key, title\) first. Known keys: 'a'"):
        reg.set_active("zzz")
    assert reg.active_key is None


def test_no_active_document():
    reg = SessionRegistry()
    reg.get_or_create("a", "A.rvt")
    reg.set_active("a")
    events = record(reg)
    reg.set_active(None)
    assert reg.active is None
    assert events == [SessionEvent("activated", None, None)]


def test_a_failing_registry_subscriber_is_isolated(caplog):
    reg = SessionRegistry()
    seen = []
    reg.subscribe(lambda event: 1 / 0)
    reg.subscribe(seen.append)
    with caplog.at_level(logging.ERROR):
        session = reg.get_or_create("a", "A.rvt")
    assert reg.get("a") is session and len(seen) == 1
    assert "ZeroDivisionError" in caplog.text


def test_unsubscribe_from_the_registry():
    reg = SessionRegistry()
    events = []
    unsubscribe = reg.subscribe(events.append)
    unsubscribe()
    reg.get_or_create("a", "A.rvt")
    assert events == []


# -- pruning deleted elements ----------------------------------------------------------------------

def test_prune_deleted_routes_to_that_documents_working_set_only():
    reg = SessionRegistry()
    a = reg.get_or_create("a", "A.rvt", walls)
    b = reg.get_or_create("b", "B.rvt", walls)
    a.working_set.replace([1, 2, 3])
    b.working_set.replace([1, 2, 3])
    change = reg.prune_deleted("a", [2, 3, 77])
    assert a.working_set.ids == (1,)
    assert b.working_set.ids == (1, 2, 3)
    assert change.removed == (2, 3) and change.source == "deleted"


def test_prune_deleted_ignores_documents_without_a_session():
    assert SessionRegistry().prune_deleted("family-doc", [1, 2]) is None


# -- the process-wide registry ---------------------------------------------------------------------

def test_registry_is_one_instance_for_the_whole_process():
    from paracore.core.session import registry as imported_again

    same_module = importlib.import_module("paracore.core.session")
    assert same_module is session_module
    assert registry() is imported_again() is same_module.registry()
    registry().get_or_create("doc-1", "Duplex.rvt")
    assert same_module.registry().get("doc-1") is not None


def test_reset_registry_for_tests_starts_over():
    first = registry()
    first.get_or_create("doc-1", "Duplex.rvt")
    reset_registry_for_tests()
    assert registry() is not first
    assert registry().get("doc-1") is None
