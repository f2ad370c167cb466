"""The whole state of a stand-in document as one deterministic text, for tests.

"Undo restores the model byte-for-byte" is checked by comparing two of these: every element
(id, class, its ``_state``: everything the journal records and restores) in id order, and the
names of the undo and redo histories. Values are turned into plain JSON: geometry by its fields,
enums by name, sets sorted; nothing depends on object addresses, so two snapshots of the same
state are the same text. Not part of the API: machinery, readable from any thread.
"""
from __future__ import annotations

import enum
import json

MAX_DEPTH = 12


def document_state(document) -> str:
    """One JSON text: {"elements": [[id, class, state], ...], "undo": [...], "redo": [...]}."""
    elements = [[element_id, type(element).__name__, _plain(element._state, 0)]
                for element_id, element in sorted(document._elements.items())]
    journal = document._journal
    state = {"elements": elements,
             "undo": [[r.name, list(r.transaction_names)] for r in journal.undo_history],
             "redo": [[r.name, list(r.transaction_names)] for r in journal.redo_history]}
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def differences(before: str, after: str, limit: int = 10) -> list[str]:
    """What differs between two ``document_state`` texts, element by element (for a test's message)."""
    old, new = json.loads(before), json.loads(after)
    old_elements = {e[0]: e for e in old["elements"]}
    new_elements = {e[0]: e for e in new["elements"]}
    found = [f"element {i}: only before" for i in sorted(old_elements.keys() - new_elements.keys())]
    found += [f"element {i}: only after" for i in sorted(new_elements.keys() - old_elements.keys())]
    found += [f"element {i}: {old_elements[i]} != {new_elements[i]}"
              for i in sorted(old_elements.keys() & new_elements.keys()) if old_elements[i] != new_elements[i]]
    for key in ("undo", "redo"):
        if old[key] != new[key]:
            found.append(f"{key} history: {old[key]} != {new[key]}")
    return found[:limit]


def _plain(value, depth: int):
    if depth > MAX_DEPTH:
        return "…"
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v, depth + 1) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    element_id = getattr(value, "_id", None)
    if isinstance(element_id, int) and hasattr(value, "_document"):  # an element: by its id
        return {"element": element_id}
    fields = {k: v for k, v in vars(value).items() if k != "_document"} if hasattr(value, "__dict__") else {}
    if not fields and hasattr(value, "__slots__"):
        fields = {k: getattr(value, k) for k in value.__slots__ if hasattr(value, k)}
    return {"type": type(value).__name__, **{k: _plain(v, depth + 1) for k, v in sorted(fields.items())}}
