"""Small wording helpers the tools share: counts with their noun, lists cut to a few items, ids
without repeats.

One place, so every tool says "3 walls", "1 door" and "a, b, … and 12 more" the same way.
Nothing here reads the model.
"""
from __future__ import annotations

from typing import Hashable, Iterable, Sequence, TypeVar

__all__ = ["plural", "listed", "unique", "unique_ids"]

T = TypeVar("T", bound=Hashable)


def plural(count: int, word: str, grouped: bool = False) -> str:
    """ "1 wall", "3 walls"; ``grouped`` writes thousands apart ("1,204 walls") where counts run
    into them (the model-wide queries)."""
    number = f"{count:,}" if grouped else str(count)
    return f"{number} {word}{'' if count == 1 else 's'}"


def listed(parts: Sequence[str], limit: int, separator: str = ", ") -> str:
    """The first ``limit`` parts joined, then "… and N more" for the rest: a result names a few
    and counts the others."""
    text = separator.join(parts[:limit])
    if len(parts) > limit:
        text += f"{separator}… and {len(parts) - limit} more"
    return text


def unique(items: Iterable[T]) -> list[T]:
    """``items`` without repeats, in their first order."""
    return list(dict.fromkeys(items))


def unique_ids(ids: Iterable) -> list[int]:
    """Element ids as ints, without repeats, in the order given (the model may name one twice)."""
    return list(dict.fromkeys(int(i) for i in ids))
