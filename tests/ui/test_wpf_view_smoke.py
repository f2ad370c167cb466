"""A smoke test of the chat view's Python (paracore.ui.wpf_view, settings_view) on a fake WPF.

There is no WPF here (tests/support/fake_wpf.py says what the fake is and is not). The Revit side is
the stand-in with Paracore's startup done, so the view's bridge, sessions, approvals, GIL pump
and working-set panel run for real; the test thread plays Revit's UI thread and pumps the
fake Dispatcher. What only Revit can check (pythonnet's conversions, layout, the pane's
docking) is listed in tests/in_revit/.
"""
from __future__ import annotations

from types import SimpleNamespace

import pytest

import fake_wpf
from fake_wpf import Key, Keyboard, ModifierKeys, Visibility, pump_until

from paracore.core import session as sessions
from paracore.llm.scripted import ScriptedModel
from paracore.app.revit import chat_agent, chat_controller, startup_tasks
from paracore.hosts.revit import host_state, session_events
from paracore.core.settings import Settings
from paracore.ui import settings_view, wpf_markdown, wpf_view
from revit_standin import guard
from revit_standin.host import RevitHost

CONFIGURED = Settings(provider="anthropic")
WALL_CALL = {"id": "c1", "name": "create_curved_wall",
             "arguments": {"level": "Level 1", "center": [20, 10], "radius": 10, "length": "30 m"}}


@pytest.fixture
def revit(tmp_path, monkeypatch):
    monkeypatch.setenv("PARACORE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PARACORE_CONFIG_DIR", str(tmp_path / "config"))
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host_state.reset_for_tests()
    host = RevitHost.start()
    steps = tuple(step for step in startup_tasks.STEPS if step[0] != "pane")
    state = host.call(lambda: startup_tasks.run(host.uiapp, steps=steps, log_dir=tmp_path / "logs"))
    doc = host.call(lambda: host.open("duplex"))
    yield SimpleNamespace(host=host, doc=doc, bridge=state.bridge)
    chat = host_state.state().chat
    if chat is not None:
        chat.close()
    host.call(state.bridge.close)
    host.call(lambda: session_events.unsubscribe(host.uiapp))
    from paracore.hosts.revit import document_events
    host.call(lambda: document_events.unsubscribe(host.application))
    host.stop()
    guard.reset_main_thread()
    sessions.reset_registry_for_tests()
    host_state.reset_for_tests()
    import logging
    for handler in list(logging.getLogger("paracore").handlers):
        if getattr(handler, startup_tasks._HANDLER_TAG, False):
            logging.getLogger("paracore").removeHandler(handler)
            handler.close()


@pytest.fixture
def ui(monkeypatch):
    return fake_wpf.install(monkeypatch)


@pytest.fixture
def scripted(monkeypatch):
    """The model every ChatAgent gets, and configured settings."""
    holder = SimpleNamespace(model=None, built=0)

    def model_factory(settings):
        holder.built += 1
        return holder.model
    monkeypatch.setattr(chat_agent, "_model", model_factory)
    monkeypatch.setattr(chat_agent, "_settings", lambda: CONFIGURED)
    return holder


def activate(revit):
    revit.host.call(lambda: revit.host.uiapp.ViewActivated.fire(revit.host.uiapp, SimpleNamespace(Document=revit.doc)))


def open_chat():
    """The chat as the pane builds it: the controller around its view, kept in the host state."""
    chat = chat_controller.ChatController.create()
    host_state.state().chat = chat
    return chat


def cards(chat):
    return [item for item in chat.view._items.values() if isinstance(item, wpf_view.CardItem)]


def visible(element) -> bool:
    return element.Visibility is Visibility.Visible


def idle(chat) -> bool:
    vm = chat.state.snapshot()
    return not vm.busy and chat._worker_done


def send(chat, text):
    chat.view.ui.InputBox.Text = text
    chat.view.ui.SendButton.Click.fire()


def test_a_turn_from_send_to_reply_with_an_approval_in_the_card(revit, ui, scripted):
    scripted.model = ScriptedModel.from_turns([[{"tool_calls": [WALL_CALL]}, {"text": "Done. **One** wall."}]])
    chat = open_chat()
    assert chat.view.ui.DocumentText.Text == "duplex"  # the active document's session, at once
    assert visible(chat.view.ui.EmptyHint)

    send(chat, "Create a 30-meter long curved wall.")
    assert chat.view.ui.InputBox.Text == ""
    assert chat.pump.running and visible(chat.view.ui.StopButton) and not visible(chat.view.ui.SendButton)
    pump_until(ui, lambda: any(visible(c.ui.ApprovalPanel) for c in cards(chat)), what="the approval prompt")
    (card,) = cards(chat)
    assert card.ui.ApprovalText.Text.startswith("Create a curved wall on Level 1")  # the tool's own words
    assert card.ui.CardName.Text == "create_curved_wall" and card.ui.CardStatus.Text == "…"
    assert chat.state.snapshot().status == "Waiting for your approval"
    # The agent's thread waits on the user, not on the GIL: no sleeps on the UI thread meanwhile.
    assert not chat.pump.running, "the GIL pump pauses while the turn waits for an approval"
    card.ui.ApproveButton.Click.fire()
    assert not card.ui.ApproveButton.IsEnabled  # one answer per question
    assert chat.pump.running, "the pump resumes as soon as the user answers"
    pump_until(ui, lambda: idle(chat), what="the turn to end")

    assert not chat.pump.running, "the GIL pump runs only while a turn is in progress"
    assert chat.pump.ticks > 0
    assert visible(chat.view.ui.SendButton) and not visible(chat.view.ui.StopButton)
    assert not visible(chat.view.ui.EmptyHint)
    assert card.ui.CardStatus.Text == "✓" and card.ui.ApprovalOutcome.Text == "Approved."
    assert visible(card.ui.ResultExpander) and card.ui.ResultBox.Text
    assert '"level": "Level 1"' in card.ui.ArgumentsBox.Text
    messages = [item for item in chat.view._items.values() if isinstance(item, wpf_view.MessageItem)]
    assert len(messages) == 2  # the user's message and the reply
    reply = messages[-1].element.Child.Children
    assert [type(e).__name__ for e in reply] == ["TextBlock"]  # no caret once the reply is complete
    assert [(run.Text, run._props.get("FontWeight")) for run in reply[0].Inlines][:2] == [
        ("Done. ", None), ("One", fake_wpf.FontWeights.Bold)]
    assert chat.view.ui.UsageText.Text  # tokens of the turn and the session

    # The working-set panel: the wall, with its category fetched on Revit's main thread.
    listing = chat.view.ui.WorkingSetList
    pump_until(ui, lambda: len(listing.Items) == 1 and listing.Items[0]["category"] == "Walls",
               what="the working-set rows")
    assert chat.view.ui.WorkingSetSummary.Text == "1 element: 1 Wall"
    assert [str(i) for i in chat.view.ui.WorkingSetCounts.Items] == ["1 × Walls"]
    assert all(b.IsEnabled for b in (chat.view.ui.WsSelectButton, chat.view.ui.WsClearButton))


def test_the_panel_buttons_go_through_the_bridge_and_answer_in_the_chat(revit, ui, scripted):
    chat = open_chat()
    activate(revit)
    pump_until(ui, lambda: chat.session is not None, what="the session")
    from Autodesk.Revit import DB
    walls = revit.host.call(lambda: [e.Id.Value for e in DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall)][:3])
    revit.host.call(lambda: chat.session.working_set.replace(walls))
    pump_until(ui, lambda: len(chat.view.ui.WorkingSetList.Items) == 3 and all(
        i["category"] == "Walls" for i in chat.view.ui.WorkingSetList.Items), what="three rows")

    listing = chat.view.ui.WorkingSetList
    listing.SelectedItems.Add(listing.Items[0])
    listing.SelectionChanged.fire()
    assert chat.state.snapshot().working_set.selected == (walls[0],)
    assert "1 selected" in chat.view.ui.WorkingSetHint.Text

    chat.view.ui.WsSelectButton.Click.fire()
    pump_until(ui, lambda: any(m.text.startswith("Selected 1 element") for m in chat.state.snapshot().messages),
               what="the Select notice")
    assert revit.host.call(lambda: [i.Value for i in revit.host.uiapp.ActiveUIDocument.Selection.GetElementIds()]) == walls[:1]

    chat.view.ui.WsRemoveButton.Click.fire()
    pump_until(ui, lambda: list(chat.session.working_set.ids) == walls[1:], what="the removal")
    pump_until(ui, lambda: len(chat.view.ui.WorkingSetList.Items) == 2, what="the list to follow")

    chat.view.ui.WsClearButton.Click.fire()
    pump_until(ui, lambda: not chat.session.working_set.ids and not chat.view.ui.WorkingSetList.Items, what="the clear")
    assert not chat.view.ui.WsSelectButton.IsEnabled


def test_enter_sends_shift_enter_does_not_and_stop_denies_the_pending_approval(revit, ui, scripted):
    scripted.model = ScriptedModel.from_turns([[{"tool_calls": [WALL_CALL]}, {"text": "never reached"}]])
    chat = open_chat()
    activate(revit)
    pump_until(ui, lambda: chat.session is not None, what="the session")

    chat.view.ui.InputBox.Text = "Create a wall"
    Keyboard.Modifiers.held.add(ModifierKeys.Shift)
    args = SimpleNamespace(Key=Key.Return, Handled=False)
    chat.view.ui.InputBox.PreviewKeyDown.fire(chat.view.ui.InputBox, args)
    assert not args.Handled and not chat.state.busy  # Shift+Enter: a new line
    Keyboard.Modifiers.held.clear()
    chat.view.ui.InputBox.PreviewKeyDown.fire(chat.view.ui.InputBox, args)
    assert args.Handled and chat.state.busy

    pump_until(ui, lambda: any(visible(c.ui.ApprovalPanel) for c in cards(chat)), what="the approval prompt")
    chat.view.ui.StopButton.Click.fire()
    pump_until(ui, lambda: idle(chat), what="the stopped turn to end")
    (card,) = cards(chat)
    assert card.ui.CardStatus.Text in ("⊘", "–") and not visible(card.ui.ApprovalPanel)
    assert any(m.text == "Stopped." for m in chat.state.snapshot().messages)
    assert chat.session.working_set.ids == ()  # nothing ran
    assert not chat.pump.running


def test_a_missing_provider_shows_what_to_do(revit, ui, monkeypatch):
    monkeypatch.setattr(chat_agent, "_settings", lambda: Settings())
    chat = open_chat()
    activate(revit)
    pump_until(ui, lambda: chat.session is not None, what="the session")
    send(chat, "Hello")
    pump_until(ui, lambda: idle(chat), what="the failed turn")
    error = chat.state.snapshot().messages[-1]
    assert error.role == "error" and "Settings" in error.text


def test_new_conversation_asks_about_the_working_set_and_starts_over(revit, ui, scripted):
    scripted.model = ScriptedModel.from_turns([[{"text": "Hello."}]])
    chat = open_chat()
    activate(revit)
    pump_until(ui, lambda: chat.session is not None, what="the session")
    send(chat, "Hi")
    pump_until(ui, lambda: idle(chat), what="the turn")
    revit.host.call(lambda: chat.session.working_set.replace([
        next(iter(chat.session.working_set.ids), 0) or _any_wall(revit)]))
    pump_until(ui, lambda: chat.state.snapshot().working_set.ids, what="the working set")

    chat.view.ui.NewConversationButton.Click.fire()
    assert visible(chat.view.ui.ConfirmationBanner)
    labels = [b.Content for b in chat.view.ui.ConfirmationButtons.Children]
    assert labels == ["Keep the working set", "Clear it too", "Cancel"]
    chat.view.ui.ConfirmationButtons.Children[1].Click.fire()
    pump_until(ui, lambda: not chat.state.snapshot().timeline and not chat.session.working_set.ids,
               what="the new conversation")
    assert not visible(chat.view.ui.ConfirmationBanner) and visible(chat.view.ui.EmptyHint)
    assert chat.session.history == []


def _any_wall(revit):
    from Autodesk.Revit import DB
    return revit.host.call(lambda: DB.FilteredElementCollector(revit.doc).OfClass(DB.Wall).FirstElement().Id.Value)


def test_a_view_built_before_any_document_follows_the_first_one_opened(revit, ui, scripted):
    revit.host.call(lambda: revit.host.close(revit.doc))
    chat = open_chat()  # as at Revit's start: the pane is built before any document
    assert chat.session is None and chat.view.ui.DocumentText.Text.startswith("No document")
    send(chat, "Hello")
    assert "Open a project" in chat.state.snapshot().messages[-1].text
    doc = revit.host.call(lambda: revit.host.open("duplex"))
    pump_until(ui, lambda: chat.view.ui.DocumentText.Text == "duplex", what="the view to follow the opened document")
    assert chat.session.key == revit.host.call(lambda: __import__("paracore.hosts.revit.runtime", fromlist=["x"])
                                                .document_key(doc))


def test_switching_documents_switches_the_conversation(revit, ui, scripted):
    scripted.model = ScriptedModel.from_turns([[{"text": "In the duplex."}]])
    chat = open_chat()
    activate(revit)
    pump_until(ui, lambda: chat.session is not None, what="the session")
    send(chat, "Hi")
    pump_until(ui, lambda: idle(chat), what="the turn")
    other = revit.host.call(lambda: revit.host.new_document("Annex"))
    revit.host.call(lambda: revit.host.uiapp.ViewActivated.fire(revit.host.uiapp, SimpleNamespace(Document=other)))
    pump_until(ui, lambda: chat.view.ui.DocumentText.Text == "Annex", what="the switch")
    assert not chat.state.snapshot().timeline
    activate(revit)
    pump_until(ui, lambda: chat.view.ui.DocumentText.Text == "duplex", what="the switch back")
    assert [m.text for m in chat.state.snapshot().messages] == ["Hi", "In the duplex."]


def test_the_window_fallback_hosts_the_same_view(revit, ui):
    assert chat_controller.show_window(None) == "opened"
    state = host_state.state()
    window = state.chat_window
    assert window.Content is state.chat.root and state.chat.is_visible()
    assert chat_controller.show_window(None) == "brought to front"
    window.Close()
    assert state.chat_window is None and state.chat.root.Parent is None
    assert chat_controller.show_window(None) == "opened"  # the same chat, in a new window
    state.chat_window.Close()


def test_startup_registers_the_pane_once_and_the_chat_button_toggles_it(revit, ui):
    from paracore.app.revit import chat_launcher, pane
    uiapp = revit.host.uiapp
    state = revit.host.call(lambda: startup_tasks.run(uiapp, log_dir=None))  # everything, the pane too
    assert state.steps["pane"].ok and state.pane_registered, state.summary_lines()
    assert isinstance(state.chat, chat_controller.ChatController)
    data = uiapp._panes[pane.PANE_GUID][2]
    assert data.FrameworkElement is state.chat.root and data.VisibleByDefault is False
    assert str(data.InitialState.DockPosition).endswith("Right")

    assert revit.host.call(lambda: chat_launcher.toggle_chat(uiapp)) == "The chat pane is shown."
    assert revit.host.call(lambda: chat_launcher.toggle_chat(uiapp)) == "The chat pane is hidden."
    again = revit.host.call(lambda: startup_tasks.run(uiapp, log_dir=None))  # a pyRevit reload
    assert again.steps["pane"].ok and again.steps["pane"].detail.startswith("already registered")
    assert len(uiapp._panes) == 1


def test_without_a_pane_the_chat_button_opens_the_window(revit, ui):
    from paracore.app.revit import chat_launcher
    uiapp = revit.host.uiapp
    assert revit.host.call(lambda: chat_launcher.toggle_chat(uiapp)) == "The chat window is opened."
    assert revit.host.call(lambda: chat_launcher.toggle_chat(uiapp)) == "The chat window is brought to front."
    host_state.state().chat_window.Close()


def test_markdown_renders_every_block_kind(ui):
    text = ("# Title\n\nSome **bold**, *italic*, `code` and [a link](https://example.com).\n\n"
            "- one\n  - nested\n1. first\n2. second\n\n```python\nprint(1)\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n")
    kinds = [type(e).__name__ for e in wpf_markdown.render_markdown(text)]
    assert kinds == ["TextBlock", "TextBlock", "StackPanel", "StackPanel", "TextBox", "Grid", "Separator"]


def test_the_settings_dialog_saves_and_never_shows_the_key(revit, ui, monkeypatch, tmp_path):
    import keyring
    from _config_support import MemoryKeyring
    store = MemoryKeyring()
    previous = keyring.get_keyring()
    keyring.set_keyring(store)
    try:
        dialog = settings_view.SettingsDialog(settings_view.SettingsForm(Settings()))
        ui_ = dialog.ui
        assert ui_.ProviderBox.SelectedIndex == 0 and ui_.KeyBox.Password == ""
        assert ui_.StandardsFolderBox.Text == "" and ui_.StandardsHint.Text.startswith("Loaded: door-numbering")
        ui_.ProviderBox.SelectedIndex = 1  # Anthropic
        ui_.ProviderBox.SelectionChanged.fire()
        assert "default" in ui_.ModelHint.Text and "No key yet" in ui_.KeyStatus.Text
        ui_.CheckButton.Click.fire()
        assert "no API key" in ui_.MessageText.Text
        ui_.KeyBox.Password = "sk-ant-smoke-123"
        ui_.CheckButton.Click.fire()
        assert ui_.MessageText.Text.startswith("Complete")
        ui_.SaveButton.Click.fire()
        assert dialog.saved and ui_.KeyBox.Password == ""
        assert store.passwords[("Paracore", "anthropic")] == "sk-ant-smoke-123"
        again = settings_view.SettingsDialog(settings_view.SettingsForm(settings_view.load_settings()))
        assert again.ui.ProviderBox.SelectedIndex == 1 and again.ui.KeyBox.Password == ""
        assert "stored" in again.ui.KeyStatus.Text and "sk-ant" not in again.ui.KeyStatus.Text
    finally:
        keyring.set_keyring(previous)


def test_a_captured_picture_shows_in_its_card_and_a_click_opens_it_full_size(revit, ui, scripted, monkeypatch):
    import export_image_double
    export_image_double.install(monkeypatch)
    opened = []
    monkeypatch.setattr(wpf_view, "open_full_size", opened.append)
    capture = {"id": "pic", "name": "capture_view", "arguments": {"view": "Level 1"}}
    views = {"id": "on", "name": "use_toolset", "arguments": {"name": "views"}}
    scripted.model = ScriptedModel.from_turns([[{"tool_calls": [views]}, {"tool_calls": [capture]},
                                                {"text": "Here it is."}]])
    chat = open_chat()
    send(chat, "Show me Level 1.")
    pump_until(ui, lambda: idle(chat) and len(cards(chat)) == 2 and cards(chat)[1].ui.CardStatus.Text != "…",
               what="the turn to end")
    card = cards(chat)[1]
    assert not visible(cards(chat)[0].ui.PictureButton)
    assert card.ui.CardStatus.Text == "✓", card.ui.ResultBox.Text
    assert visible(card.ui.PictureButton)
    source = card.ui.CardPicture.Source
    assert source.frozen and source.UriSource.AbsoluteUri.endswith(".png")
    assert "Picture of 'Floor Plan: Level 1'" in card.ui.PictureButton.ToolTip
    card.ui.PictureButton.Click.fire()
    assert opened == [source.UriSource.AbsoluteUri]
