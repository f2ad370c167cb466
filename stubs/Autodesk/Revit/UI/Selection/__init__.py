"""Stand-in for Autodesk.Revit.UI.Selection: the user's selection in the active document."""
from __future__ import annotations

from revit_standin.guard import api_class as _api_class

__all__ = ["Selection"]


@_api_class
class Selection:
    def __init__(self, document):
        self._document = document

    def GetElementIds(self):  # noqa: N802
        from System.Collections.Generic import List
        from Autodesk.Revit.DB import ElementId
        live = [i for i in getattr(self._document, "_selection", ()) if i in self._document._elements]
        return List[ElementId]._of([ElementId(i) for i in live])

    def SetElementIds(self, elementIds) -> None:  # noqa: N802, N803
        ids = [i._value for i in elementIds]
        missing = [i for i in ids if i not in self._document._elements]
        if missing:
            from Autodesk.Revit.Exceptions import ArgumentException
            raise ArgumentException(f"Element {missing[0]} is not in the document; it cannot be selected.",
                                    "elementIds")
        self._document._selection = list(dict.fromkeys(ids))


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
