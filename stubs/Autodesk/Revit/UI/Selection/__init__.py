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
        self._document._linked_selection = []

    def GetReferences(self):  # noqa: N802
        """Since Revit 2023: "The references can be an element or subelement in the host or a
        linked document." Host elements first, then the linked ones, each as it was selected."""
        from System.Collections.Generic import List
        from Autodesk.Revit.DB import Reference
        document = self._document
        host = [Reference(document._elements[i]) for i in getattr(document, "_selection", ())
                if i in document._elements]
        linked = [self._link_reference(*pair) for pair in getattr(document, "_linked_selection", ())]
        return List[Reference]._of(host + [r for r in linked if r is not None])

    def SetReferences(self, references) -> None:  # noqa: N802
        """Since Revit 2023: selects the references, "an element or a subelement in the host or a
        linked document"; the selection before is replaced, as SetElementIds replaces it."""
        if references is None:
            from Autodesk.Revit.Exceptions import ArgumentNullException
            raise ArgumentNullException("references")
        host, linked = [], []
        for reference in references:
            if reference._linked_id != -1:
                linked.append((reference._element_id, reference._linked_id))
            else:
                host.append(reference._element_id)
        self._document._selection = list(dict.fromkeys(host))
        self._document._linked_selection = list(dict.fromkeys(linked))

    def _link_reference(self, instance_id: int, linked_id: int):
        """The reference to a selected linked element, or None once its link is gone or unloaded."""
        from Autodesk.Revit.DB import Reference
        instance = self._document._elements.get(instance_id)
        linked_document = instance.GetLinkDocument() if hasattr(instance, "GetLinkDocument") else None
        element = linked_document._elements.get(linked_id) if linked_document is not None else None
        return Reference(element).CreateLinkReference(instance) if element is not None else None


# pythonnet refuses Python sequences where .NET takes collections: so does the stand-in.
from revit_standin.pythonnet_rules import enforce_in_package as _enforce_in_package  # noqa: E402

_enforce_in_package(__name__)
