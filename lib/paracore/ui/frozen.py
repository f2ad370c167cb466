"""Read-only copies of a tool call's arguments for the chat's view models, and their JSON text."""
from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


def freeze(value: Any) -> Any:
    """A read-only deep copy: dicts become mapping proxies, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(item) for item in value)
    return value


def pretty(arguments: Any) -> str:
    """The arguments as indented JSON, for a card's expander."""
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=str)
