"""Fill patterns: FillPatternElement, the FillPattern it holds, and the "<Solid fill>" every project has.

Every Revit project has the built-in solid fill drafting pattern (FillPatternElement.SetFillPattern:
"The element is the build-in solid fill pattern element and can not be modified."), named
"<Solid fill>" in Revit's English templates (the name is not documented; the in-Revit check
behaviour_checks/views.py::solid_fill_pattern_found_by_name reports what a model has). A graphic
override fills a surface or a cut face only with a fill pattern set (OverrideGraphicSettings'
SetSurfaceForegroundPatternId, SetCutForegroundPatternId), and View.SetElementOverrides takes
drafting patterns only ("Fill pattern must be a drafting pattern.").

add_solid_fill gives the solid fill an id of its own, outside the counter that numbers the
model's elements (as the site's and the section type's), so adding it renumbered nothing a
replay or a test names. The stand-in has no other pattern and does not create patterns
(FillPatternElement.Create is not modelled).
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import Element
from ._enums import FillPatternTarget

SOLID_FILL_ID = 2_000_000_021     # far above any model's own ids, like _locations.SITE_IDS
SOLID_FILL = "<Solid fill>"


@api_class(thread_free=True)
class FillPattern:
    """A fill pattern's definition, as FillPatternElement.GetFillPattern gives it (a copy)."""

    def __init__(self, other=None):
        self._name, self._target, self._solid = (other._name, other._target, other._solid) if other is not None \
            else ("", FillPatternTarget.Drafting, False)

    @property
    def Name(self) -> str:  # noqa: N802
        return self._name

    @property
    def Target(self):  # noqa: N802
        return self._target

    @property
    def IsSolidFill(self) -> bool:  # noqa: N802
        return self._solid

    @property
    def GridCount(self) -> int:  # noqa: N802
        return 0 if self._solid else 1


@api_class
class FillPatternElement(Element):
    """An element holding one FillPattern; its Name is the pattern's."""

    def GetFillPattern(self) -> FillPattern:  # noqa: N802
        pattern = FillPattern()
        pattern._name = self._state["name"]
        pattern._target = FillPatternTarget(self._state["target"])
        pattern._solid = bool(self._state.get("solid", False))
        return pattern

    @staticmethod
    def GetFillPatternElementByName(document, target, name: str):  # noqa: N802
        """The pattern of ``target`` named ``name``, or None (Revit's answer for a name it does not
        have is not documented: the in-Revit check solid_fill_pattern_found_by_name asks)."""
        if not isinstance(target, FillPatternTarget):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("FillPatternElement.GetFillPatternElementByName", (document, target, name))
        if name is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("A non-optional argument was null", "name")
        return next((e for e in document._elements.values()
                     if isinstance(e, FillPatternElement) and e._state["target"] == target.value
                     and e._state["name"] == name), None)


def add_solid_fill(document) -> None:
    """The project's built-in "<Solid fill>" drafting pattern (while a project is made or loaded)."""
    document._index(FillPatternElement(document, SOLID_FILL_ID, {
        "name": SOLID_FILL, "target": FillPatternTarget.Drafting.value, "solid": True, "params": {}}))
