"""``base.parse_tool_arguments`` / ``checked_tool_arguments``: how every adapter turns a call's
argument text into ``(arguments, raw_arguments)`` (messages.ToolCallPart's contract)."""
from __future__ import annotations

import json

import pytest

from paracore.llm.base import MAX_RAW_ARGUMENTS, checked_tool_arguments, parse_tool_arguments
from paracore.core.messages import MAX_ARGUMENT_DEPTH


def nested(depth: int, opener: str = '{"a": ', closer: str = "}") -> str:
    return opener * depth + "1" + closer * depth


@pytest.mark.parametrize("text, expected", [
    ('{"level": "L1", "ids": [1, 2]}', ({"level": "L1", "ids": [1, 2]}, None)),
    ("", ({}, None)),
    ("  ", ({}, None)),
    (None, ({}, None)),
    ("{level: L1}", ({}, "{level: L1}")),
    ("[1, 2]", ({}, "[1, 2]")),
    ('"text"', ({}, '"text"')),
])
def test_one_json_object_is_parsed_anything_else_is_kept_raw(text, expected):
    assert parse_tool_arguments(text) == expected


def test_the_depth_limit_counts_dicts_and_lists():
    at_limit = '{"a": ' + "[" * (MAX_ARGUMENT_DEPTH - 1) + "1" + "]" * (MAX_ARGUMENT_DEPTH - 1) + "}"
    assert parse_tool_arguments(at_limit) == (json.loads(at_limit), None)
    over = nested(MAX_ARGUMENT_DEPTH + 1)
    assert parse_tool_arguments(over) == ({}, over)


@pytest.mark.parametrize("depth", [300, 990, 10_000, 100_000])
def test_arguments_nested_absurdly_deep_are_not_a_json_object_and_raise_nothing(depth):
    text = nested(depth)  # 10,000: json.loads raises RecursionError; 300: parses, but too deep to keep
    arguments, raw = parse_tool_arguments(text)
    assert arguments == {}
    assert raw.startswith(text[:MAX_RAW_ARGUMENTS]) and len(raw) < MAX_RAW_ARGUMENTS + 100
    assert raw.endswith(f"… [{len(text) - MAX_RAW_ARGUMENTS} more characters not kept]")


def test_deeply_nested_lists_too():
    arguments, raw = parse_tool_arguments('{"a": ' + nested(10_000, "[", "]") + "}")
    assert arguments == {} and raw.startswith('{"a": [[[')


def test_a_long_but_shallow_object_is_kept_whole_and_long_unusable_text_is_cut():
    long_object = json.dumps({"ids": list(range(5000))})
    assert parse_tool_arguments(long_object) == ({"ids": list(range(5000))}, None)
    long_garbage = "x" * 50_000
    assert parse_tool_arguments(long_garbage)[1] == "x" * MAX_RAW_ARGUMENTS + "… [48000 more characters not kept]"


def test_already_parsed_arguments_are_checked_for_depth():
    shallow = {"level": "L1", "points": [[0, 0], [1, 0]]}
    assert checked_tool_arguments(shallow) == (shallow, None)
    deep: dict = {}
    for _ in range(300):
        deep = {"a": deep}
    arguments, raw = checked_tool_arguments(deep)
    assert arguments == {} and raw.startswith('{"a": {"a": ') and len(raw) < MAX_RAW_ARGUMENTS + 100
    for _ in range(10_000):  # too deep even for json.dumps: a placeholder text, no exception
        deep = {"a": deep}
    arguments, raw = checked_tool_arguments(deep)
    assert arguments == {} and raw.startswith(("{", "("))
