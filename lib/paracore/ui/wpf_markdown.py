"""A reply's markdown as WPF elements, block by block (the mapping: ``paracore.ui.markdown``). Revit only.

System.Windows is imported inside the functions: the module imports anywhere.
"""
from __future__ import annotations

from paracore.ui.markdown import Span, markdown_blocks
from paracore.ui.wpf import brush, on, wrap


def render_markdown(text: str) -> list:
    """WPF elements for a reply, one per block."""
    return [_element(block) for block in markdown_blocks(text)]


def _element(block):
    if block.kind in ("paragraph", "heading"):
        return _paragraph(block)
    if block.kind in ("bullets", "numbered"):
        return _list(block)
    if block.kind == "code":
        return _code(block)
    if block.kind == "table":
        return _table(block)
    from System.Windows.Controls import Separator
    return Separator()  # a rule


def _paragraph(block):
    from System.Windows import FontWeights, Thickness
    from System.Windows.Controls import TextBlock
    element = TextBlock()
    element.TextWrapping = wrap()
    element.Margin = Thickness(0, 2, 0, 4)
    if block.kind == "heading":
        element.FontWeight = FontWeights.SemiBold
        element.FontSize = max(12.0, 18.0 - 2 * block.level)
    _inlines(element, block.spans)
    return element


def _list(block):
    from System.Windows import Thickness
    from System.Windows.Controls import StackPanel, TextBlock
    element = StackPanel()
    element.Margin = Thickness(0, 2, 0, 4)
    for index, item in enumerate(block.items):
        row = TextBlock()
        row.TextWrapping = wrap()
        row.Margin = Thickness(16 * item.level, 1, 0, 1)
        marker = "•  " if block.kind == "bullets" else f"{item.number or block.start + index}.  "
        _inlines(row, (Span(marker),) + tuple(item.spans))
        element.Children.Add(row)
    return element


def _code(block):
    from System.Windows import Thickness
    from System.Windows.Controls import TextBox
    from System.Windows.Media import FontFamily
    element = TextBox()
    element.Text = block.code
    element.IsReadOnly = True
    element.FontFamily = FontFamily("Consolas")
    element.TextWrapping = wrap()
    element.Background = brush("#FFF3F5F7")
    element.Padding = Thickness(6, 4, 6, 4)
    element.Margin = Thickness(0, 2, 0, 6)
    return element


def _table(block):
    from System.Windows import FontWeights, Thickness
    from System.Windows.Controls import ColumnDefinition, Grid, RowDefinition, TextBlock
    element = Grid()
    element.Margin = Thickness(0, 2, 0, 6)
    width = max(len(block.header), 1)
    for _ in range(width):
        element.ColumnDefinitions.Add(ColumnDefinition())
    for r, cells in enumerate((block.header, *block.rows)):
        element.RowDefinitions.Add(RowDefinition())
        for c, spans in enumerate(cells[:width]):
            cell = TextBlock()
            cell.TextWrapping = wrap()
            cell.Margin = Thickness(0, 1, 8, 1)
            if r == 0:
                cell.FontWeight = FontWeights.SemiBold
            _inlines(cell, spans)
            Grid.SetRow(cell, r)
            Grid.SetColumn(cell, c)
            element.Children.Add(cell)
    return element


def _inlines(block, spans) -> None:
    """Add ``spans`` (paracore.ui.markdown.Span) to a TextBlock as Runs and Hyperlinks."""
    from System import Uri, UriKind
    from System.Windows import FontStyles, FontWeights
    from System.Windows.Documents import Hyperlink, Run
    from System.Windows.Media import FontFamily
    for span in spans:
        run = Run(span.text)
        if span.bold:
            run.FontWeight = FontWeights.Bold
        if span.italic:
            run.FontStyle = FontStyles.Italic
        if span.code:
            run.FontFamily = FontFamily("Consolas")
            run.Background = brush("#FFEFF2F5")
        target = span.link or ""
        if target.startswith(("http://", "https://")):
            link = Hyperlink(run)
            link.NavigateUri = Uri(target, UriKind.Absolute)
            on(link.RequestNavigate, "open the link", _open_link)
            block.Inlines.Add(link)
        else:
            block.Inlines.Add(run)


def _open_link(sender, args) -> None:
    from System.Diagnostics import Process, ProcessStartInfo
    info = ProcessStartInfo(args.Uri.AbsoluteUri)
    info.UseShellExecute = True
    Process.Start(info)
    args.Handled = True
