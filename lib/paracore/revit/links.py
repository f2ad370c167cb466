"""Reading inside Revit links from the host document (docs/WORKING_SET.md, "Linked elements").

A loaded link's document is ``RevitLinkInstance.GetLinkDocument()``; its elements' positions are in
the link's own coordinates, and ``GetTotalTransform()`` takes them to the host's ("Coordinates
received from and requested by the API should always be in Project Internal": each document's own).
Revit documents no null for a link that is not loaded, and keeps a link read-only in its host (its
Transaction constructors refuse "a linked file"): so every document here is only read, and
``RevitLinkType.IsLoaded`` is asked before the document is.
"""
from __future__ import annotations

from dataclasses import dataclass

from paracore.core.errors import ToolError
from paracore.core.linked import LinkedElement
from paracore.revit.api import DB
from paracore.revit.dotnet import typed_list
from paracore.revit.element_ids import element_id, id_value

ALL = "all"


@dataclass(frozen=True)
class Link:
    """One placed link: the host's instance, its label ("SampleHouse4.rvt : 1") and, when loaded,
    the link's document."""

    instance: object
    label: str
    document: object | None

    @property
    def id(self) -> int:
        return id_value(self.instance.Id)

    def to_host(self, point):
        """A point of the link's document in the host's coordinates."""
        return self.instance.GetTotalTransform().OfPoint(point)


def links(doc) -> list[Link]:
    """Every link instance placed in ``doc``, loaded or not, by id."""
    found = [_link(doc, instance) for instance in DB.FilteredElementCollector(doc).OfClass(DB.RevitLinkInstance)]
    return sorted(found, key=lambda link: link.id)


def _link(doc, instance) -> Link:
    loaded = DB.RevitLinkType.IsLoaded(doc, instance.GetTypeId())
    return Link(instance, label_of(instance), instance.GetLinkDocument() if loaded else None)


def label_of(instance) -> str:
    """ "SampleHouse4.rvt : 1": the instance's name without its location part."""
    return instance.Name.split(" : location", 1)[0]


def chosen_links(doc, name: str) -> list[Link]:
    """The loaded links ``name`` picks: 'all', a link's file name with or without '.rvt', or its
    label. ToolError naming the links there are, when none is loaded or the name matches none."""
    placed = links(doc)
    if not placed:
        raise ToolError("This model has no Revit links. Leave link out to read the model itself.")
    wanted = name.strip().casefold()
    picked = placed if wanted == ALL else [link for link in placed if _matches(link, wanted)]
    if not picked:
        shown = name if len(name) <= 80 else name[:80] + "…"
        raise ToolError(f"No link is named {shown!r}. The links: {_listed(placed)}; or give link 'all'.")
    loaded = [link for link in picked if link.document is not None]
    if not loaded:
        names = ", ".join(f"'{link.label}'" for link in picked)
        raise ToolError(f"{names} {'is' if len(picked) == 1 else 'are'} not loaded, so nothing inside can be "
                        "read. Reload the link in Revit (Manage > Manage Links > Reload), then ask again.")
    return loaded


def _matches(link: Link, wanted: str) -> bool:
    file_name = link.label.split(" : ", 1)[0].casefold()
    return wanted in (link.label.casefold(), file_name, file_name.removesuffix(".rvt"))


def _listed(placed: list[Link]) -> str:
    return ", ".join(f"'{link.label}'" + ("" if link.document is not None else " (not loaded)") for link in placed)


def describe(link: Link, element) -> LinkedElement:
    category = element.Category
    return LinkedElement(link.id, id_value(element.Id), category.Name if category is not None else "Other", link.label)


@dataclass(frozen=True)
class Found:
    """What a LINK:ID names now: the element and its link, or why it cannot be read."""

    linked: LinkedElement
    link: Link | None = None
    element: object | None = None
    problem: str = ""


def resolve(doc, wanted: LinkedElement) -> Found:
    instance = doc.GetElement(element_id(wanted.link_id))
    if not isinstance(instance, DB.RevitLinkInstance):
        gone = "no longer exists" if instance is None else "is not a Revit link"
        return Found(wanted, problem=f"{wanted}: the link instance {wanted.link_id} {gone}")
    link = _link(doc, instance)
    if link.document is None:
        return Found(wanted, link, problem=f"{wanted}: the link '{link.label}' is not loaded (reload it in Manage Links)")
    element = link.document.GetElement(element_id(wanted.element_id))
    if element is None:
        return Found(wanted, link, problem=f"{wanted}: element {wanted.element_id} is not in '{link.label}'")
    return Found(describe(link, element), link, element)


def resolve_all(doc, wanted) -> tuple[list[Found], list[str]]:
    """The linked elements that can be read, and a sentence for each that cannot."""
    found = [resolve(doc, linked) for linked in wanted]
    return [f for f in found if not f.problem], [f.problem for f in found if f.problem]


def reference(found: Found):
    """A host reference to a linked element, for Selection.SetReferences (Revit 2023+)."""
    return DB.Reference(found.element).CreateLinkReference(found.link.instance)


# -- the Revit selection (Selection.GetReferences / SetReferences: Revit 2023+) --------------------


def selected_linked(doc, uidoc) -> list[LinkedElement]:
    """The linked elements the user has selected (Tab-picked inside a link), described; those whose
    link is gone or unloaded are left out."""
    wanted = [LinkedElement(id_value(r.ElementId), id_value(r.LinkedElementId))
              for r in uidoc.Selection.GetReferences() if id_value(r.LinkedElementId) >= 0]
    found, _ = resolve_all(doc, list(dict.fromkeys(wanted)))
    return [f.linked for f in found]


def select_with_links(uidoc, host_elements, found: list[Found]) -> tuple[list[int], list[LinkedElement]]:
    """Select host elements and linked ones together (one Selection.SetReferences); what Revit
    reports selected afterwards: host ids, and linked elements."""
    references = [DB.Reference(element) for element in host_elements] + [reference(f) for f in found]
    uidoc.Selection.SetReferences(typed_list(DB.Reference, references))
    host, linked = [], []
    for selected in uidoc.Selection.GetReferences():
        if id_value(selected.LinkedElementId) >= 0:
            linked.append(LinkedElement(id_value(selected.ElementId), id_value(selected.LinkedElementId)))
        else:
            host.append(id_value(selected.ElementId))
    return host, linked
