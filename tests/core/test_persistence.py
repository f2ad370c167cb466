"""Each document's conversation saved atomically and restored when the document opens again."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from paracore.core import persistence
from paracore.llm.credentials import get_key, store_key
from paracore.llm.scripted import ScriptedModel
from paracore.core.messages import Message, TextPart, ToolCallPart, ToolResultPart, validate_history
from paracore.core.persistence import (SessionStore, new_conversation, parse_session, restore_session, save_session,
                                  session_file_name)
from paracore.revit.working_set_rows import exists_provider
from paracore.core.session import Session
from paracore.ui.chat_state import ChatState
from paracore.ui.turn_runner import TurnRunner

KEY = r"C:\Projects\Tower A.rvt"


def conversation() -> list[Message]:
    return [
        Message(role="user", parts=[TextPart(text="Create a wall"), TextPart(text="CONTEXT: The working set is empty.")]),
        Message(role="assistant", parts=[TextPart(text="Creating it."),
                                         ToolCallPart(id="c1", name="create_wall", arguments={"level": "Level 1"})]),
        Message(role="user", parts=[ToolResultPart(call_id="c1", name="create_wall", content="Created wall 312.")]),
        Message.assistant_text("Done: wall 312 is your working set. Ünïcode stays as is."),
    ]


def make_session(key=KEY, title="Tower A", ids=(312, 313), tools=("create_wall",)) -> Session:
    session = Session(key, title)
    session.history[:] = conversation()
    session.working_set.replace(list(ids))
    session.always_allowed_tools.update(tools)
    session.scratchpad["script"] = "transient"
    return session


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


# -- save and restore ----------------------------------------------------------------------------------


def test_save_then_restore_into_the_reopened_document(data_dir):
    session = make_session()
    result = save_session(session)
    assert result.saved and result.message is None
    assert result.path.parent == data_dir / "sessions"
    assert result.path.name == session_file_name(KEY) and result.path.name.startswith("tower-a-")
    document = json.loads(result.path.read_text(encoding="utf-8"))
    assert (document["format"], document["version"], document["key"], document["title"]) == (
        "paracore-session", 1, KEY, "Tower A")
    assert document["working_set"] == [312, 313] and document["always_allowed_tools"] == ["create_wall"]
    assert "transient" not in result.path.read_text(encoding="utf-8")  # the scratchpad is never saved

    reopened = Session(KEY, "Tower A")
    restored = restore_session(reopened, exists=lambda ids: ids)
    assert restored.status == "restored" and restored.message is None
    assert reopened.history == conversation()
    assert validate_history(reopened.history) == []
    assert reopened.working_set.ids == (312, 313) and restored.working_set == (312, 313)
    assert reopened.always_allowed_tools == {"create_wall"}
    assert restored.messages == 4


def test_the_history_is_one_message_per_line(data_dir):
    path = save_session(make_session()).path
    lines = path.read_text(encoding="utf-8").splitlines()
    assert sum(1 for line in lines if line.startswith('{"role":')) == 4
    assert "Ünïcode" in path.read_text(encoding="utf-8")


def test_nothing_saved_means_nothing_restored(data_dir):
    session = Session(KEY, "Tower A")
    assert restore_session(session).status == "none"
    assert session.history == [] and data_dir.exists() is False


def test_restore_never_overwrites_a_conversation_in_progress(data_dir):
    save_session(make_session())
    busy = Session(KEY, "Tower A")
    busy.history[:] = [Message.user_text("Something else")]
    assert restore_session(busy).status == "skipped"
    assert busy.history == [Message.user_text("Something else")]


def test_unsaved_documents_are_not_persisted(data_dir):
    session = make_session(key="unsaved:Project1")
    result = save_session(session)
    assert (result.saved, result.path) == (False, None)
    assert restore_session(Session("unsaved:Project1", "Project1")).status == "skipped"
    assert not data_dir.exists()


def test_file_names_are_safe_unique_and_case_insensitive():
    names = {session_file_name(key) for key in [r"C:\A\Model.rvt", r"C:\B\Model.rvt", "BIM 360://Proj/Model.rvt",
                                                "/home/me/Model.rvt"]}
    assert len(names) == 4 and all(n.startswith("model-") and n.endswith(".json") for n in names)
    assert session_file_name(r"C:\A\Model.rvt") == session_file_name(r"c:\a\MODEL.RVT")
    weird = session_file_name('C:\\x\\<bad>:"name"|?*.rvt')
    assert all(ch not in weird for ch in '<>:"|?*\\/') and weird.endswith(".json")
    assert session_file_name("C:\\x\\.rvt").startswith("document-")


def test_a_file_of_another_document_under_the_same_name_is_ignored(data_dir):
    path = save_session(make_session()).path
    text = path.read_text(encoding="utf-8").replace(json.dumps(KEY), json.dumps("D:\\Other.rvt"))
    path.write_text(text, encoding="utf-8")
    session = Session(KEY, "Tower A")
    assert restore_session(session).status == "none" and session.history == []
    assert path.exists()


# -- ids that no longer exist ----------------------------------------------------------------------------


def test_ids_that_no_longer_exist_are_dropped(data_dir):
    save_session(make_session(ids=(312, 313, 314)))
    asked = []

    def exists(ids):
        asked.append(list(ids))
        return [i for i in ids if i != 313]

    session = Session(KEY, "Tower A")
    result = restore_session(session, exists=exists)
    assert asked == [[312, 313, 314]]
    assert session.working_set.ids == (312, 314)
    assert result.dropped_ids == (313,)
    assert result.message == ("Restored the conversation; 1 element of the working set no longer exists "
                              "and was dropped.")


def test_a_failing_existence_check_restores_the_conversation_without_the_working_set(data_dir):
    save_session(make_session())

    def exists(ids):
        raise RuntimeError("Revit is busy")

    session = Session(KEY, "Tower A")
    result = restore_session(session, exists=exists)
    assert result.status == "restored" and session.history == conversation()
    assert session.working_set.ids == () and result.dropped_ids == (312, 313)
    assert "could not check" in result.message


def test_restore_against_the_standin_drops_elements_that_are_gone(data_dir, sandbox):
    from Autodesk.Revit.DB import FilteredElementCollector, Wall

    from paracore.revit.context import id_value
    wall = sandbox.on_main_thread(
        lambda: id_value(FilteredElementCollector(sandbox.doc).OfClass(Wall).FirstElement().Id))
    saved = make_session(key="standin-doc", ids=(wall, 987654321))
    save_session(saved)
    session = Session("standin-doc", "Duplex")
    exists = exists_provider(sandbox.doc)
    with pytest.raises(Exception, match="main thread"):
        exists([wall])  # it reads the model: Revit's main thread only
    result = sandbox.on_main_thread(lambda: restore_session(session, exists=exists))
    assert session.working_set.ids == (wall,) and result.dropped_ids == (987654321,)


# -- damaged files are set aside ----------------------------------------------------------------------------


@pytest.mark.parametrize("damage, reason", [
    (lambda text: text[: len(text) // 2], "invalid JSON"),
    (lambda text: "\x00\xff garbage", "invalid JSON"),
    (lambda text: json.dumps({"format": "something-else"}), "not a Paracore session file"),
    (lambda text: text.replace('"version": 1', '"version": 99', 1), "version 99 is not supported"),
    (lambda text: text.replace('"working_set": [312,313]', '"working_set": ["312"]'), "not a list of element ids"),
    (lambda text: text.replace('"kind":"tool_result"', '"kind":"mystery"'), "the history cannot be read"),
])
def test_a_damaged_file_is_set_aside_with_a_clear_message(data_dir, damage, reason):
    store = SessionStore(clock=lambda: 1_700_000_000.0)
    path = store.save(make_session()).path
    path.write_text(damage(path.read_text(encoding="utf-8")), encoding="utf-8")
    session = Session(KEY, "Tower A")
    result = store.restore(session)
    assert result.status == "set_aside"
    assert reason in result.message
    assert "Tower A" in result.message and str(result.set_aside_path) in result.message
    assert result.set_aside_path.name.startswith(path.name + ".corrupt-")
    assert result.set_aside_path.exists() and not path.exists()
    assert session.history == [] and session.working_set.ids == ()
    # The next save starts a fresh file next to the one set aside.
    assert store.save(make_session()).saved
    assert store.restore(Session(KEY, "Tower A")).status == "restored"


def test_a_file_that_is_not_utf8_is_set_aside(data_dir):
    path = save_session(make_session()).path
    path.write_bytes(b"\xff\xfe{\x00")
    result = restore_session(Session(KEY, "Tower A"))
    assert result.status == "set_aside" and "not UTF-8" in result.message


def test_a_file_that_cannot_be_read_is_left_alone(data_dir):
    path = SessionStore().path_for(KEY)
    path.mkdir(parents=True)  # a folder where the file should be: reading fails, nothing is damaged
    session = Session(KEY, "Tower A")
    result = restore_session(session)
    assert result.status == "unreadable" and "left as it is" in result.message
    assert path.is_dir() and session.history == []


def test_an_invalid_history_is_set_aside(data_dir):
    session = make_session()
    session.history[:] = session.history[:2]  # the tool call lost its result
    path = save_session(session).path
    result = restore_session(Session(KEY, "Tower A"))
    assert result.status == "set_aside"
    assert "the history is not valid" in result.message and "unanswered tool calls" in result.message
    assert not path.exists()


def test_two_damaged_files_in_the_same_second_get_two_names(data_dir):
    store = SessionStore(clock=lambda: 1_700_000_000.0)
    aside = []
    for _ in range(2):
        path = store.save(make_session()).path
        path.write_text("{", encoding="utf-8")
        aside.append(store.restore(Session(KEY, "Tower A")).set_aside_path)
    assert aside[0] != aside[1] and all(p.exists() for p in aside)


def test_a_failed_save_returns_a_message_instead_of_raising(data_dir):
    data_dir.mkdir(parents=True)
    (data_dir / "sessions").write_text("a file where the folder should be", encoding="utf-8")
    result = save_session(make_session())
    assert result.saved is False and "could not save" in result.message


# -- atomic and concurrent saves ---------------------------------------------------------------------------------


def test_concurrent_saves_never_tear_the_file(data_dir):
    session = make_session()
    store = SessionStore()
    path = store.path_for(KEY)
    store.save(session)
    stop = threading.Event()
    problems: list[str] = []

    def reader():
        while not stop.is_set():
            try:
                parse_session(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                problems.append("the file was missing for a moment")
            except Exception as error:  # noqa: BLE001
                problems.append(f"{type(error).__name__}: {error}")

    def writer(offset):
        for n in range(40):
            session.working_set.replace(range(offset, offset + n + 1), source="test")
            assert store.save(session).saved

    readers = [threading.Thread(target=reader) for _ in range(2)]
    writers = [threading.Thread(target=writer, args=(offset,)) for offset in (1000, 2000, 3000, 4000)]
    for thread in readers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in readers:
        thread.join()
    assert problems == []
    assert parse_session(path.read_text(encoding="utf-8"))["working_set"] == list(session.working_set.ids)
    assert files(path.parent) == [path.name]  # no temporary file left behind


def test_a_save_failing_mid_write_leaves_the_old_file(data_dir, monkeypatch):
    session = make_session()
    path = save_session(session).path
    before = path.read_text(encoding="utf-8")

    def broken_replace(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(persistence.os, "replace", broken_replace)
    session.history.append(Message.user_text("more"))
    result = save_session(session)
    assert result.saved is False and "No space left" in result.message
    assert path.read_text(encoding="utf-8") == before
    assert files(path.parent) == [path.name]


def test_the_turn_runner_saves_after_every_turn(data_dir, sandbox):
    store = SessionStore()
    state = ChatState()
    model = ScriptedModel.from_turns([[{"text": "One."}], [{"text": "Two."}]])
    runner = TurnRunner(sandbox.agent(model), state, after_turn=[store])
    for text in ("First", "Second"):
        assert runner.start(text)
        assert runner.join(20)
        saved = store.load(sandbox.session.key)
        assert saved["history"] == sandbox.session.history
    assert len(saved["history"]) == 4
    assert all(m.role != "notice" for m in state.snapshot().messages)  # no save message: it worked


# -- new conversation ----------------------------------------------------------------------------------------


def test_new_conversation_keeping_the_working_set(data_dir):
    session = make_session()
    result = new_conversation(session, clear_working_set=False)
    assert result.saved
    assert session.history == [] and session.scratchpad == {}
    assert session.working_set.ids == (312, 313) and session.always_allowed_tools == {"create_wall"}
    saved = parse_session(result.path.read_text(encoding="utf-8"))
    assert saved["history"] == [] and saved["working_set"] == [312, 313]


def test_new_conversation_clearing_the_working_set(data_dir):
    session = make_session()
    result = new_conversation(session, clear_working_set=True)
    assert session.history == [] and session.working_set.ids == ()
    assert parse_session(result.path.read_text(encoding="utf-8"))["working_set"] == []


def test_new_conversation_flow_with_the_chat_state(data_dir):
    """The view's flow: ask, then clear what the user chose, then empty the chat."""
    session = make_session()
    state = ChatState()
    state.attach_session(session)
    state.show_history(session.history)
    assert state.request_new_conversation() is True  # the working set is not empty: ask
    choice = state.resolve_confirmation("keep")
    new_conversation(session, clear_working_set=choice == "clear")
    state.reset_conversation()
    vm = state.snapshot()
    assert vm.timeline == () and vm.working_set.ids == (312, 313)
    assert state.request_new_conversation() is True
    new_conversation(session, clear_working_set=state.resolve_confirmation("clear") == "clear")
    assert state.snapshot().working_set.ids == ()
    assert state.request_new_conversation() is False  # nothing to ask any more


# -- no API key ever reaches a session file --------------------------------------------------------------------


def test_api_keys_never_reach_the_session_files(data_dir, sandbox, monkeypatch):
    env_key = "sk-ant-api03-SESSIONLEAK-abcdefghijklmnop0123456789"
    stored_key = "sk-proj-SESSIONLEAK-abcdefghijklmnop0123456789"
    monkeypatch.setenv("ANTHROPIC_API_KEY", env_key)
    store_key("openai", stored_key)
    assert get_key("anthropic") == env_key and get_key("openai") == stored_key

    model = ScriptedModel([{"tool_calls": [{"id": "c1", "name": "get_model_overview", "arguments": {}}]},
                           {"text": "Here is the overview."}])
    state = ChatState()
    runner = TurnRunner(sandbox.agent(model), state, after_turn=[SessionStore()])
    sandbox.session.key = "C:\\Leak\\Check.rvt"  # a saved document, so the session is persisted
    runner.start("Give me an overview")
    assert runner.join(20)
    new_conversation(sandbox.session, clear_working_set=False)
    session_files = list((data_dir / "sessions").rglob("*"))
    assert session_files
    everything = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in data_dir.rglob("*") if p.is_file())
    for secret in (env_key, stored_key, "SESSIONLEAK"):
        assert secret not in everything
    assert os.environ["ANTHROPIC_API_KEY"] == env_key
