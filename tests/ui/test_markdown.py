"""The chat's little markdown: blocks and spans the WPF view maps to TextBlocks and Runs."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paracore.ui.markdown import Block, Span, inline_spans, markdown_blocks, plain


def kinds(text: str) -> list[str]:
    return [block.kind for block in markdown_blocks(text)]


# -- blocks -----------------------------------------------------------------------------------------


def test_paragraphs_are_split_by_blank_lines_and_keep_single_line_breaks():
    blocks = markdown_blocks("First line\nsecond line\n\nAnother paragraph.")
    assert kinds("First line\nsecond line\n\nAnother paragraph.") == ["paragraph", "paragraph"]
    assert blocks[0].text == "First line\nsecond line"
    assert blocks[1].text == "Another paragraph."


def test_empty_and_blank_text_have_no_blocks():
    assert markdown_blocks("") == []
    assert markdown_blocks("  \n\n \n") == []


def test_windows_line_endings():
    assert [b.text for b in markdown_blocks("a\r\nb\r\n\r\nc")] == ["a\nb", "c"]


def test_bullet_list_with_nesting_and_continuation():
    text = "Done:\n- 3 walls\n- 5 doors on **Level 1**\n  - 2 of them fire rated\n  across two lines\n* last"
    blocks = markdown_blocks(text)
    assert [b.kind for b in blocks] == ["paragraph", "bullets"]
    items = blocks[1].items
    assert [plain(i.spans) for i in items] == ["3 walls", "5 doors on Level 1",
                                              "2 of them fire rated\nacross two lines", "last"]
    assert [i.level for i in items] == [0, 0, 1, 0]
    assert items[1].spans[-1] == Span("Level 1", bold=True)


def test_numbered_list_keeps_its_start_and_numbers():
    blocks = markdown_blocks("3. third\n4) fourth\n5. fifth")
    assert len(blocks) == 1 and blocks[0].kind == "numbered"
    assert blocks[0].start == 3
    assert [i.number for i in blocks[0].items] == [3, 4, 5]


def test_a_blank_line_between_items_keeps_one_list():
    blocks = markdown_blocks("1. one\n\n2. two\n\nAfter the list.")
    assert [b.kind for b in blocks] == ["numbered", "paragraph"]
    assert len(blocks[0].items) == 2


def test_bullets_then_numbers_are_two_lists():
    assert kinds("- a\n- b\n1. c\n2. d") == ["bullets", "numbered"]


def test_fenced_code_block_is_verbatim_with_its_language():
    text = "Run this:\n```python\nfor w in walls:\n    print(**w)\n```\nThen check."
    blocks = markdown_blocks(text)
    assert [b.kind for b in blocks] == ["paragraph", "code", "paragraph"]
    code = blocks[1]
    assert code.language == "python" and code.closed
    assert code.code == "for w in walls:\n    print(**w)"


def test_tilde_fences_and_longer_fences():
    blocks = markdown_blocks("~~~\n```not a fence end\n~~~")
    assert len(blocks) == 1 and blocks[0].code == "```not a fence end"
    blocks = markdown_blocks("````md\n```\ninner\n```\n````")
    assert blocks[0].code == "```\ninner\n```" and blocks[0].language == "md"


def test_an_unclosed_fence_while_streaming_is_code_to_the_end():
    blocks = markdown_blocks('Here:\n```json\n{"level": "Level 1",\n "height"')
    assert [b.kind for b in blocks] == ["paragraph", "code"]
    assert blocks[1].closed is False
    assert blocks[1].code == '{"level": "Level 1",\n "height"'


def test_headings_and_rules():
    blocks = markdown_blocks("# Summary\n## Walls ##\ntext\n\n---\n####### not a heading")
    assert [(b.kind, b.level) for b in blocks[:2]] == [("heading", 1), ("heading", 2)]
    assert blocks[1].text == "Walls"
    assert [b.kind for b in blocks[2:]] == ["paragraph", "rule", "paragraph"]
    assert blocks[-1].text == "####### not a heading"


def test_tables():
    text = "| Id | Category | Name |\n|---:|:---|---|\n| 312 | Doors | `M_Single` |\n| 313 | Walls |\n\nAfter."
    blocks = markdown_blocks(text)
    assert [b.kind for b in blocks] == ["table", "paragraph"]
    table = blocks[0]
    assert [plain(c) for c in table.header] == ["Id", "Category", "Name"]
    assert [[plain(c) for c in row] for row in table.rows] == [["312", "Doors", "M_Single"], ["313", "Walls", ""]]
    assert table.rows[0][2] == (Span("M_Single", code=True),)


def test_a_pipe_in_prose_is_not_a_table():
    assert kinds("a | b\nnext line") == ["paragraph"]


# -- spans ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("plain", [Span("plain")]),
    ("a **bold** b", [Span("a "), Span("bold", bold=True), Span(" b")]),
    ("an *italic* word", [Span("an "), Span("italic", italic=True), Span(" word")]),
    ("use `create_wall` now", [Span("use "), Span("create_wall", code=True), Span(" now")]),
    ("``a ` tick``", [Span("a ` tick", code=True)]),
    ("**bold with `code`**", [Span("bold with ", bold=True), Span("code", bold=True, code=True)]),
    ("**bold _and italic_**", [Span("bold ", bold=True), Span("and italic", bold=True, italic=True)]),
    ("see [the docs](https://example.com/x)", [Span("see "), Span("the docs", link="https://example.com/x")]),
])
def test_inline_spans(text, expected):
    assert list(inline_spans(text)) == expected


@pytest.mark.parametrize("text", [
    "2*3*4 = 24",
    "snake_case_name and __init__",
    "an unmatched **bold",
    "a lone ` backtick",
    "* not italic *",
    "price: 5 * 3",
])
def test_literal_text_stays_literal(text):
    assert inline_spans(text) == (Span(text),)


def test_code_spans_are_verbatim():
    assert inline_spans("`**not bold**`") == (Span("**not bold**", code=True),)


# -- properties: nothing is ever lost ----------------------------------------------------------------

_alphabet = st.sampled_from(list("ab *_`#-|1.\n") + ["**", "```", "- ", "1. ", "| a | b |\n|---|---|\n"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_alphabet, max_size=40).map("".join))
def test_any_text_parses_without_error_and_keeps_its_words(text):
    blocks = markdown_blocks(text)
    assert all(isinstance(b, Block) for b in blocks)
    shown = "".join(b.text + b.language for b in blocks)  # a fence's info word is shown as its language
    for letter in "ab":  # letters are never markup, so every one must be shown
        assert shown.count(letter) == text.count(letter)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_streaming_prefixes_always_parse(text):
    for end in range(0, len(text) + 1, 7):
        markdown_blocks(text[:end])


def test_blocks_are_immutable():
    block = markdown_blocks("- a")[0]
    with pytest.raises(AttributeError):
        block.kind = "paragraph"  # type: ignore[misc]
    assert isinstance(block.items, tuple) and isinstance(block.items[0].spans, tuple)
