"""In-Revit checks of Revit links: the rows of docs/REVIT_BEHAVIOUR.md ("Links") that name
behaviour_checks/links.py.

They need a loaded Revit link in the open model and skip without one. Nothing here changes the
link: its document is only read, and the transaction check expects Revit to refuse to open one.
The selection check puts the user's selection back as it was.
"""
from Autodesk.Revit import DB
from Autodesk.Revit.Exceptions import ArgumentException
from System.Collections.Generic import List

from kit import expect, skip


def _loaded_link(doc):
    """(a loaded link instance, its document, one of its model elements)."""
    for instance in DB.FilteredElementCollector(doc).OfClass(DB.RevitLinkInstance):
        linked = instance.GetLinkDocument() if DB.RevitLinkType.IsLoaded(doc, instance.GetTypeId()) else None
        if linked is None:
            continue
        element = next(iter(DB.FilteredElementCollector(linked).WhereElementIsNotElementType()
                            .OfClass(DB.FamilyInstance).ToElements()), None)
        if element is not None:
            return instance, linked, element
    skip("the model has no loaded Revit link with a family instance in it")


def a_link_document_is_linked_and_refuses_transactions(scratch):
    instance, linked, _ = _loaded_link(scratch.doc)
    expect(linked.IsLinked and not scratch.doc.IsLinked,
           f"IsLinked: link {linked.IsLinked}, host {scratch.doc.IsLinked}")
    try:
        transaction = DB.Transaction(linked, "Paracore check: a transaction in a link")
    except ArgumentException as error:
        return f"refused: {error.Message}"
    transaction.Dispose()
    expect(False, "Transaction(linked document) was created")


def a_link_reference_names_the_instance_and_the_linked_element(scratch):
    instance, _, element = _loaded_link(scratch.doc)
    reference = DB.Reference(element).CreateLinkReference(instance)
    expect(reference.ElementId == instance.Id, f"ElementId {reference.ElementId.Value}, link {instance.Id.Value}")
    expect(reference.LinkedElementId == element.Id,
           f"LinkedElementId {reference.LinkedElementId.Value}, element {element.Id.Value}")
    plain = DB.Reference(element).LinkedElementId
    expect(plain == DB.ElementId.InvalidElementId, f"a reference inside the link has LinkedElementId {plain.Value}")
    return f"ElementId {reference.ElementId.Value}, LinkedElementId {reference.LinkedElementId.Value}"


def set_references_selects_a_linked_element(scratch):
    instance, _, element = _loaded_link(scratch.doc)
    selection = scratch.uidoc.Selection
    before = selection.GetReferences()
    wanted = List[DB.Reference]()
    wanted.Add(DB.Reference(element).CreateLinkReference(instance))
    try:
        selection.SetReferences(wanted)
        read = [(r.ElementId.Value, r.LinkedElementId.Value) for r in selection.GetReferences()]
    finally:
        selection.SetReferences(before)
    expect(read == [(instance.Id.Value, element.Id.Value)], f"GetReferences gave {read}")
    return f"selected {read}"


def an_unloaded_link_has_no_document(scratch):
    doc = scratch.doc
    unloaded = [i for i in DB.FilteredElementCollector(doc).OfClass(DB.RevitLinkInstance)
                if not DB.RevitLinkType.IsLoaded(doc, i.GetTypeId())]
    if not unloaded:
        skip("the model has no unloaded Revit link")
    document = unloaded[0].GetLinkDocument()
    expect(document is None, f"GetLinkDocument() of an unloaded link gave '{document.Title}'" if document else "")
    return f"GetLinkDocument() of '{unloaded[0].Name}': None"


def ifc_export_leaves_a_link_out_without_export_linked_files(scratch):
    """IFC export of the host with the exporter's option ExportLinkedFiles "false" (export_model's):
    one file, with no more walls than the host has (the link's are not in it)."""
    import os
    import re
    import shutil
    import tempfile
    doc = scratch.doc
    instance, linked, _ = _loaded_link(doc)
    host_walls = DB.FilteredElementCollector(doc).OfClass(DB.Wall).GetElementCount()
    link_walls = DB.FilteredElementCollector(linked).OfClass(DB.Wall).GetElementCount()
    folder = tempfile.mkdtemp(prefix="paracore-check-")
    transaction = DB.Transaction(doc, "Paracore check: IFC export of a model with a link")
    transaction.Start()
    try:
        options = DB.IFCExportOptions()
        options.AddOption("ExportLinkedFiles", "false")
        doc.Export(folder, "host", options)
        written = sorted(os.listdir(folder))
        with open(os.path.join(folder, "host.ifc"), encoding="utf-8", errors="replace") as file:
            walls = sum(1 for line in file if re.search(r"=\s*IFCWALL(STANDARDCASE|ELEMENTEDCASE)?\(", line))
    finally:
        transaction.RollBack()
        shutil.rmtree(folder, ignore_errors=True)
    expect(written == ["host.ifc"], f"the export wrote {written}")
    expect(walls <= host_walls, f"the file has {walls} walls, the host {host_walls} (the link {link_walls})")
    return f"walls in the file {walls}, host {host_walls}, link '{instance.Name}' {link_walls}"


CHECKS = [
    ("a link document is linked and refuses transactions", a_link_document_is_linked_and_refuses_transactions),
    ("a link reference names the instance and the linked element",
     a_link_reference_names_the_instance_and_the_linked_element),
    ("SetReferences selects a linked element", set_references_selects_a_linked_element),
    ("an unloaded link has no document", an_unloaded_link_has_no_document),
    ("IFC export leaves a link out without ExportLinkedFiles", ifc_export_leaves_a_link_out_without_export_linked_files),
]
