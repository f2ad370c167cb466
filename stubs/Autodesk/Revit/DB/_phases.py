"""Phases: Document.Phases and the phase-indexed rooms of FamilyInstance (get_Room(Phase), ...).

A Revit project has phases, "returned in order from earliest phase to latest phase", and without
its UI "the default phase for newly created elements is the latest phase in the document"
(Document.Phases, https://www.revitapidocs.com/2025/362b427f-bf0d-6509-e541-9d5cc48e1837.htm);
Revit's templates start with "Existing" and "New Construction".
Every element of the stand-in, loaded or created, is in "New Construction" (the duplex's elements
say so: their Phase Created), so a room and an instance both exist in the last phase only: the
indexed properties give the last phase's room for it, and None for "Existing", where neither
exists (FamilyInstance.Room: "if phase does not apply to this FaimlyInstance, this property is
null").

The phases are made the first time Document.Phases is read (so they take no element ids from a
model that never asks for them) and are not undone.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import Element

PHASE_NAMES = ("Existing", "New Construction")


@api_class
class Phase(Element):
    pass


@api_class
class PhaseArray:
    """Revit's own array of phases, in time order."""

    def __init__(self, phases=()):
        self._items = list(phases)

    @property
    def Size(self) -> int:  # noqa: N802
        return len(self._items)

    @property
    def IsEmpty(self) -> bool:  # noqa: N802
        return not self._items

    def get_Item(self, index: int) -> Phase:  # noqa: N802
        return self._items[index]

    def __iter__(self):
        return iter(list(self._items))

    def __len__(self):
        return len(self._items)


def phases(document) -> list:
    """The document's phases in time order, made on first use."""
    found = [e for e in document._elements_of_category(None) if isinstance(e, Phase)]
    if not found:
        found = [document._load_element(Phase, {"name": name, "category": None, "params": {}})
                 for name in PHASE_NAMES]
    return found


def is_last_phase(document, phase, argument: str = "phase", none_is_last: bool = False) -> bool:
    """Whether ``phase`` is the document's last phase; refuses what is not a phase of it (and None,
    unless ``none_is_last``: GetRoomAtPoint's "If phase is null, it will get the room of the last
    phase")."""
    from Autodesk.Revit.Exceptions import ArgumentException, ArgumentNullException
    if phase is None:
        if none_is_last:
            return True
        raise ArgumentNullException(argument)
    known = phases(document)
    if not isinstance(phase, Phase) or all(phase._id != p._id for p in known):
        raise ArgumentException("The phase is not a phase of this document.", argument)
    return phase._id == known[-1]._id
