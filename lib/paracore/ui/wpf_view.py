"""The chat's WPF view: renders ``ChatState`` snapshots (and the review card) into chat_pane.xaml. Revit only.

It only renders. What to show comes from the pure ``paracore.ui.chat_state`` and
``paracore.ui.review_card``; what a click does belongs to the pane's controller
(``paracore.app.revit.chat_controller``), which wires the pane's buttons and keys, decides when to
render, and is the view's ``actions`` for the elements the view makes itself (a card's approval
buttons, the confirmation's buttons). The view re-renders only the parts and timeline items that
changed since the last render. It knows nothing of Revit: no bridge, no session, no agent.

The WPF plumbing (XAML, guarded handlers, brushes, the GIL pump) is ``paracore.ui.wpf``; a
reply's markdown becomes WPF elements in ``paracore.ui.wpf_markdown``. System.Windows is imported
lazily, inside functions: the module imports anywhere (the tests read ``XAML_NAMES``), but only
runs in Revit.
"""
from __future__ import annotations

import os
from typing import Protocol

from paracore.ui.chat_state import ChatState, ViewModel
from paracore.ui.review_card import ReviewCardState
from paracore.ui.wpf import Named, brush, guarded, load_wpf, on, parse_xaml, text_block, visibility, wrap
from paracore.ui.wpf_markdown import render_markdown

PANE_XAML = "chat_pane.xaml"
CARD_XAML = "tool_card.xaml"

# Every element the view looks up, per XAML file (tests/ui/test_xaml.py checks each exists).
XAML_NAMES: dict[str, tuple[str, ...]] = {
    PANE_XAML: (
        "WorkingSetColumn", "NewConversationButton", "WorkingSetToggle", "DocumentText",
        "ConversationScroll", "ConversationPanel", "EmptyHint", "ConfirmationBanner", "ConfirmationText",
        "ConfirmationButtons", "UsageText", "StatusText", "InputBox", "SendButton", "StopButton",
        "WorkingSetSplitter", "WorkingSetPanel", "WorkingSetSummary", "WorkingSetCounts", "WorkingSetList",
        "WorkingSetHint", "WsSelectButton", "WsIsolateButton", "WsRemoveButton", "WsClearButton",
        "UndoTurnButton", "ReviewCard", "ReviewTitle", "ReviewLines", "ReviewNote", "ReviewShowButton",
        "ReviewIsolateButton", "ReviewKeepButton", "ReviewUndoButton",
    ),
    CARD_XAML: (
        "CardDuration", "CardStatus", "CardName", "CardSummary", "ApprovalPanel", "ApprovalText",
        "ApproveButton", "DenyButton", "AlwaysButton", "ApprovalOutcome", "CardPreview",
        "ArgumentsExpander", "ArgumentsBox", "ResultExpander", "ResultBox", "PictureButton", "CardPicture",
    ),
}

WORKING_SET_WIDTH = 240
NO_DOCUMENT = "No document: open a project or click in one of its views"

# card status -> (glyph, colour)
_STATUS_GLYPHS = {
    "running": ("…", "#FF1E78D2"), "done": ("✓", "#FF2E8B57"), "error": ("✗", "#FFC62828"),
    "denied": ("⊘", "#FFC62828"), "cancelled": ("–", "#FF6B7785"),
}
_APPROVAL_OUTCOMES = {
    "approve": "Approved.", "always": "Approved; this tool runs without asking for the rest of the session.",
    "deny": "Denied.",
}


class ChatActions(Protocol):
    """What the elements the view makes itself ask of its controller."""

    def resolve(self, call_id: str, decision: str) -> None:
        """A card's Approve / Deny / Always button."""

    def answer_confirmation(self, key: str) -> None:
        """A button of the confirmation banner (its choice's key)."""


class ChatView:
    """chat_pane.xaml, rendering a ``ChatState`` and a ``ReviewCardState`` (UI thread only)."""

    @classmethod
    def create(cls, state: ChatState, review: ReviewCardState) -> ChatView:
        """Parse chat_pane.xaml (UI thread = Revit's main thread)."""
        return cls(parse_xaml(PANE_XAML), state, review)

    def __init__(self, root, state: ChatState, review: ReviewCardState) -> None:
        self.root = root
        self.ui = Named(root, PANE_XAML, XAML_NAMES)
        self.dispatcher = root.Dispatcher
        self.state = state
        self.review = review
        self.actions: ChatActions | None = None  # set by the controller
        self._has_document = False
        self._items: dict[str, object] = {}    # timeline item id -> its view (MessageItem/CardItem)
        self._order: list[str] = []
        self._last_vm: ViewModel | None = None
        self._review_version = -1
        self._list_signature: tuple = ()
        self._updating_list = False

    # -- the UI thread ------------------------------------------------------------------------

    def post(self, fn) -> None:
        """Run ``fn`` on the UI thread later (any thread may call this)."""
        from System import Action
        from System.Windows.Threading import DispatcherPriority
        self.dispatcher.BeginInvoke(DispatcherPriority.Normal, Action(guarded("update the chat", fn)))

    def on_ui_thread(self) -> bool:
        return bool(self.dispatcher.CheckAccess())

    def is_visible(self) -> bool:
        """Whether the chat is on screen (in the pane or the window): quick buttons report there."""
        try:
            return bool(self.root.IsVisible)
        except Exception:  # noqa: BLE001 - a view being torn down
            return False

    # -- what the controller tells the view ---------------------------------------------------

    def show_document(self, title: str | None) -> None:
        """The document whose conversation is shown (None: no document is open)."""
        self._has_document = title is not None
        self.ui.DocumentText.Text = title if title is not None else NO_DOCUMENT

    def show_working_set(self, visible: bool) -> None:
        from System.Windows import GridLength
        self.ui.WorkingSetColumn.Width = GridLength(WORKING_SET_WIDTH if visible else 0)
        self.ui.WorkingSetPanel.Visibility = visibility(visible)
        self.ui.WorkingSetSplitter.Visibility = visibility(visible)

    def input_text(self) -> str:
        return (self.ui.InputBox.Text or "").strip()

    def clear_input(self) -> None:
        self.ui.InputBox.Text = ""

    def selected_rows(self) -> list[int] | None:
        """The ids of the working-set rows selected in the list; None while the view itself
        fills the list (its own selection changes are not the user's)."""
        if self._updating_list:
            return None
        # Linked rows ("LINK:ID") are listed for reading only: the panel's buttons act on host ids.
        return [int(item["id"]) for item in self.ui.WorkingSetList.SelectedItems if item["id"].isdigit()]

    @staticmethod
    def is_send_key(args) -> bool:
        """Enter sends; Shift+Enter is a new line."""
        from System.Windows.Input import Key, Keyboard, ModifierKeys
        return args.Key == Key.Return and not Keyboard.Modifiers.HasFlag(ModifierKeys.Shift)

    # -- rendering ----------------------------------------------------------------------------

    def render(self) -> tuple[ViewModel, frozenset[str]]:
        """Render what changed since the last render; returns the snapshot and the parts rendered."""
        vm = self.state.snapshot()
        changed = vm.changed_since(self._last_vm)
        self._last_vm = vm
        if changed & {"messages", "cards", "approvals"}:
            self._render_timeline(vm)
        if "status" in changed:
            self._render_status(vm)
        if "usage" in changed:
            self.ui.UsageText.Text = vm.usage.text
            self.ui.UsageText.ToolTip = vm.usage.model or None
        if "working_set" in changed:
            self._render_working_set(vm)
        if "confirmation" in changed:
            self._render_confirmation(vm)
        self._render_review()
        return vm, changed

    def _render_status(self, vm: ViewModel) -> None:
        ui = self.ui
        ui.StatusText.Text = vm.status
        ui.SendButton.Visibility = visibility(not vm.busy)
        ui.StopButton.Visibility = visibility(vm.busy)
        ui.StopButton.IsEnabled = not vm.stopping
        ui.SendButton.IsEnabled = vm.can_send
        ui.NewConversationButton.IsEnabled = not vm.busy

    def _render_timeline(self, vm: ViewModel) -> None:
        ui = self.ui
        scroll = ui.ConversationScroll
        at_bottom = scroll.VerticalOffset >= scroll.ScrollableHeight - 24
        ids = [item.id for item in vm.timeline]
        if ids[:len(self._order)] != self._order:  # a new conversation or a restored one
            ui.ConversationPanel.Children.Clear()
            ui.ConversationPanel.Children.Add(ui.EmptyHint)
            self._items.clear()
            self._order = []
        pending = {approval.call_id: approval for approval in vm.approvals}
        added_user_message = False
        for item in vm.timeline:
            view = self._items.get(item.id)
            if view is None:
                view = CardItem(self) if item.kind == "card" else MessageItem()
                self._items[item.id] = view
                self._order.append(item.id)
                ui.ConversationPanel.Children.Add(view.element)
                added_user_message |= item.kind == "message" and item.role == "user"
            view.update(item, pending)
        ui.EmptyHint.Visibility = visibility(not vm.timeline)
        if at_bottom or added_user_message:
            scroll.ScrollToEnd()

    def _render_working_set(self, vm: ViewModel) -> None:
        ui = self.ui
        panel = vm.working_set
        count = len(panel.ids) + len(panel.linked)
        ui.WorkingSetSummary.Text = (f"{count} element{'' if count == 1 else 's'}: {panel.summary}"
                                     if count else "empty")
        ui.WorkingSetCounts.Items.Clear()
        for category, n in panel.counts:
            ui.WorkingSetCounts.Items.Add(f"{n} × {category}")
        signature = tuple((row.id, row.category, row.name, row.resolved) for row in panel.rows) + panel.linked
        if signature != self._list_signature:
            self._fill_list(panel)
            self._list_signature = signature
        ui.WorkingSetHint.Text = (f"Buttons act on the {len(panel.selected)} selected row(s)." if panel.selected
                                  else "Buttons act on the whole set; select rows to act on some.")
        for button in (ui.WsSelectButton, ui.WsIsolateButton, ui.WsRemoveButton, ui.WsClearButton):
            button.IsEnabled = bool(count) and self._has_document

    def _fill_list(self, panel) -> None:
        from System import String
        from System.Collections.Generic import Dictionary
        listing = self.ui.WorkingSetList
        selected = set(panel.selected)
        self._updating_list = True
        try:
            listing.Items.Clear()
            for row in panel.rows:
                item = Dictionary[String, String]()
                item["id"] = str(row.id)
                item["category"] = row.category if row.resolved else "…"
                item["name"] = row.name if row.resolved else ""
                listing.Items.Add(item)
                if row.id in selected:
                    listing.SelectedItems.Add(item)
            for row in panel.linked:
                item = Dictionary[String, String]()
                item["id"] = str(row.linked)
                item["category"] = f"linked {row.category}"
                item["name"] = row.name
                listing.Items.Add(item)
        finally:
            self._updating_list = False

    def _render_confirmation(self, vm: ViewModel) -> None:
        from System.Windows.Controls import Button
        ui = self.ui
        confirmation = vm.confirmation
        ui.ConfirmationBanner.Visibility = visibility(confirmation is not None)
        ui.ConfirmationButtons.Children.Clear()
        if confirmation is None:
            return
        ui.ConfirmationText.Text = confirmation.question
        for key, label in confirmation.choices:
            button = Button()
            button.Content = label
            on(button.Click, "answer the question", lambda s, e, key=key: self.actions.answer_confirmation(key))
            ui.ConfirmationButtons.Children.Add(button)

    def _render_review(self) -> None:
        if self.review.version == self._review_version:
            return
        self._review_version = self.review.version
        ui, card = self.ui, self.review.card
        ui.ReviewCard.Visibility = visibility(card is not None)
        if card is None:
            return
        ui.ReviewTitle.Text = card.title
        ui.ReviewLines.Text = "\n".join(card.lines)
        ui.ReviewNote.Text = card.note
        ui.ReviewNote.Visibility = visibility(bool(card.note))
        ui.ReviewShowButton.IsEnabled = card.can_show
        ui.ReviewIsolateButton.IsEnabled = card.can_show
        ui.ReviewKeepButton.IsEnabled = card.can_keep
        ui.ReviewUndoButton.IsEnabled = card.can_undo


# =============================================================================================
# Timeline items
# =============================================================================================

class MessageItem:
    """A conversation bubble: the user's text, the assistant's markdown, an error or a notice."""

    def __init__(self) -> None:
        from System.Windows.Controls import Border
        self.element = Border()
        self.rev = None
        self._thinking_open = False

    def update(self, message, pending) -> None:
        if message.rev == self.rev:
            return
        self.rev = message.rev
        from System.Windows import CornerRadius, FontStyles, HorizontalAlignment, Thickness
        from System.Windows.Controls import StackPanel, TextBlock
        border = self.element
        border.Padding = Thickness(8, 5, 8, 5)
        border.CornerRadius = CornerRadius(6)
        content = StackPanel()
        if message.role == "user":
            border.Background = brush("#FFE3F0FC")
            border.HorizontalAlignment = HorizontalAlignment.Right
            border.Margin = Thickness(40, 4, 0, 4)
            content.Children.Add(text_block(message.text))
        elif message.role == "assistant":
            border.Background = None
            border.Margin = Thickness(0, 4, 24, 4)
            if message.thinking:
                content.Children.Add(self._thinking(message.thinking))
            for element in render_markdown(message.text):
                content.Children.Add(element)
            if message.streaming:
                caret = text_block("▍")
                caret.Foreground = brush("#FF1E78D2")
                content.Children.Add(caret)
        elif message.role == "error":
            border.Background = brush("#FFFDECEA")
            border.BorderBrush = brush("#FFF5C2C0")
            border.BorderThickness = Thickness(1)
            border.Margin = Thickness(0, 4, 24, 4)
            content.Children.Add(text_block(message.text))
            if message.recoverable:
                hint = text_block("Send your message again to retry.")
                hint.Foreground = brush("#FF6B7785")
                content.Children.Add(hint)
        else:  # notice
            border.Background = None
            border.Margin = Thickness(16, 2, 16, 2)
            block = TextBlock()
            block.Text = message.text
            block.TextWrapping = wrap()
            block.FontStyle = FontStyles.Italic
            block.Foreground = brush("#FF6B7785")
            block.HorizontalAlignment = HorizontalAlignment.Center
            content.Children.Add(block)
        border.Child = content

    def _thinking(self, text: str):
        from System.Windows.Controls import Expander
        expander = Expander()
        expander.Header = "Thinking"
        expander.IsExpanded = self._thinking_open
        body = text_block(text)
        body.Foreground = brush("#FF6B7785")
        expander.Content = body
        on(expander.Expanded, "open the reasoning", lambda s, e: setattr(self, "_thinking_open", True))
        on(expander.Collapsed, "close the reasoning", lambda s, e: setattr(self, "_thinking_open", False))
        return expander


class CardItem:
    """A tool call: tool_card.xaml, with the approval prompt inside it."""

    def __init__(self, view: ChatView) -> None:
        self.view = view
        self.element = parse_xaml(CARD_XAML)
        self.ui = Named(self.element, CARD_XAML, XAML_NAMES)
        self.rev = None
        self.pending = None
        self.call_id = None
        self.card = None
        ui = self.ui
        on(ui.ApproveButton.Click, "approve", lambda s, e: self._decide("approve"))
        on(ui.DenyButton.Click, "deny", lambda s, e: self._decide("deny"))
        on(ui.AlwaysButton.Click, "always allow", lambda s, e: self._decide("always"))
        on(ui.ArgumentsExpander.Expanded, "show the arguments", lambda s, e: self._expand("arguments", True))
        on(ui.ArgumentsExpander.Collapsed, "hide the arguments", lambda s, e: self._expand("arguments", False))
        on(ui.ResultExpander.Expanded, "show the result", lambda s, e: self._expand("result", True))
        on(ui.ResultExpander.Collapsed, "hide the result", lambda s, e: self._expand("result", False))
        on(ui.PictureButton.Click, "open the picture", lambda s, e: self._open_picture())

    def _open_picture(self) -> None:
        card = self.card
        if card is not None and card.pictures:
            open_full_size(card.pictures[0].path)

    def _decide(self, decision: str) -> None:
        for button in (self.ui.ApproveButton, self.ui.DenyButton, self.ui.AlwaysButton):
            button.IsEnabled = False  # one answer per question
        self.view.actions.resolve(self.call_id, decision)

    def _expand(self, which: str, expanded: bool) -> None:
        card = self.card
        if card is None:
            return
        current = card.arguments_expanded if which == "arguments" else card.result_expanded
        if current != expanded:  # the view's own state, kept in the view model so a re-render keeps it
            toggle = self.view.state.toggle_arguments if which == "arguments" else self.view.state.toggle_result
            toggle(card.call_id)

    def update(self, card, pending) -> None:
        waiting = pending.get(card.call_id)
        if card.rev == self.rev and (waiting is not None) == (self.pending is not None):
            return
        self.rev, self.pending, self.call_id, self.card = card.rev, waiting, card.call_id, card
        ui = self.ui
        glyph, color = _STATUS_GLYPHS.get(card.status, ("?", "#FF6B7785"))
        ui.CardStatus.Text = glyph
        ui.CardStatus.Foreground = brush(color)
        ui.CardName.Text = card.name
        summary = card.summary
        ui.CardSummary.Text = summary[len(card.name):] if summary.startswith(card.name) else summary
        ui.CardSummary.ToolTip = summary
        ui.CardDuration.Text = f"{card.duration_ms / 1000:.1f} s" if card.duration_ms else ""
        ui.ApprovalPanel.Visibility = visibility(waiting is not None)
        if waiting is not None:
            ui.ApprovalText.Text = waiting.description or card.approval_description
            for button in (ui.ApproveButton, ui.DenyButton, ui.AlwaysButton):
                button.IsEnabled = True
        outcome = _APPROVAL_OUTCOMES.get(card.approval or "") if waiting is None else None
        ui.ApprovalOutcome.Text = outcome or ""
        ui.ApprovalOutcome.Visibility = visibility(bool(outcome))
        # While a long call runs, the line under the name says which piece it is on (an export's sheet).
        shown = card.result_preview if card.result is not None else card.progress
        ui.CardPreview.Text = shown
        ui.CardPreview.Foreground = brush("#FFC62828" if card.is_error else "#FF4A5561")
        ui.CardPreview.Visibility = visibility(bool(shown))
        ui.ArgumentsBox.Text = card.arguments_json
        ui.ArgumentsExpander.IsExpanded = card.arguments_expanded
        ui.ResultExpander.Visibility = visibility(card.result is not None)
        ui.ResultBox.Text = card.result or ""
        ui.ResultExpander.IsExpanded = card.result_expanded
        picture = card.pictures[0] if card.pictures else None
        ui.PictureButton.Visibility = visibility(picture is not None)
        if picture is not None:
            ui.CardPicture.Source = picture_source(picture.path)
            ui.PictureButton.ToolTip = f"{picture.description}\nClick to open it full size."


def picture_source(path: str):
    """The picture at ``path``, read now (the file is not kept open or locked)."""
    from System import Uri, UriKind
    from System.Windows.Media.Imaging import BitmapCacheOption, BitmapImage
    bitmap = BitmapImage()
    bitmap.BeginInit()
    bitmap.CacheOption = BitmapCacheOption.OnLoad
    bitmap.DecodePixelWidth = 640  # a thumbnail: the full picture is one click away
    bitmap.UriSource = Uri(path, UriKind.Absolute)
    bitmap.EndInit()
    bitmap.Freeze()
    return bitmap


def open_full_size(path: str) -> None:
    """The picture in the user's picture viewer (Windows' default for .png)."""
    starter = getattr(os, "startfile", None)
    if starter is not None:
        starter(path)




def message_content(text: str):
    """A plain, wrapped message: what the pane shows when the chat view cannot be built."""
    load_wpf()
    from System.Windows import Thickness
    block = text_block(text)
    block.Margin = Thickness(12)
    return block
