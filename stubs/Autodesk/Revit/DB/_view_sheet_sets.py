"""Saved view/sheet sets: ``ViewSheetSet`` (the sets Revit's Print and Export dialogs save), and
``ViewSet``, the .NET set of views its ``Views`` returns.

A ViewSheetSet is an element of the document with a ``Name`` and its ``Views``. Revit saves one
through PrintManager.ViewSheetSetting (SaveAs), which the stand-in does not model: a test or the
sandbox saves one with ``save_view_sheet_set(document, name, views)`` (not Revit API), inside a
transaction as Revit's SaveAs needs.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import Element


@api_class(thread_free=True)
class ViewSet:
    """A set of views, in the order they were inserted."""

    def __init__(self):
        self._views: list = []

    def Insert(self, item) -> bool:  # noqa: N802
        if self.Contains(item):
            return False
        self._views.append(item)
        return True

    def Contains(self, item) -> bool:  # noqa: N802
        return any(v.Id == item.Id for v in self._views)

    def Erase(self, item) -> int:  # noqa: N802
        before = len(self._views)
        self._views = [v for v in self._views if v.Id != item.Id]
        return before - len(self._views)

    def Clear(self) -> None:  # noqa: N802
        self._views.clear()

    @property
    def Size(self) -> int:  # noqa: N802
        return len(self._views)

    @property
    def IsEmpty(self) -> bool:  # noqa: N802
        return not self._views

    def __iter__(self):
        return iter(list(self._views))

    def __len__(self) -> int:
        return len(self._views)


@api_class
class ViewSheetSet(Element):
    @property
    def Name(self) -> str:  # noqa: N802
        return self._state["name"]

    @property
    def Views(self) -> ViewSet:  # noqa: N802
        """The set's views that still exist (a ViewSet: its order is not documented)."""
        views = ViewSet()
        for view in self._live_views():
            views.Insert(view)
        return views

    @property
    def OrderedViewList(self):  # noqa: N802
        """ "Ordered views." (2023+): the set's views that still exist, in the set's order."""
        from System.Collections.Generic import List
        from ._views import View
        return List[View]._of(self._live_views())

    def _live_views(self) -> list:
        found = (self._document._elements.get(view_id) for view_id in self._state["view_ids"])
        return [view for view in found if view is not None and not view._deleted]


def save_view_sheet_set(document, name: str, views) -> ViewSheetSet:
    """Save a view/sheet set (the stand-in's PrintManager.ViewSheetSetting.SaveAs; not Revit API)."""
    return document._add_element(ViewSheetSet, {"name": name, "category": None,
                                                "view_ids": [v.Id._value for v in views]})
