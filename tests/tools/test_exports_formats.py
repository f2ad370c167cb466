"""export_cad (DWG, DXF) and export_model (IFC, NWC) on the stand-in, through the executor as the agent
calls them. What a test checks is read from the files written (DXF with ezdxf, IFC through the
stand-in's own loader) and from the model, never from the tool's words alone."""
from __future__ import annotations

import collections
from pathlib import Path

import ezdxf
import pytest

from Autodesk.Revit import DB
from duplex_revit import DuplexRevit
from paracore.tools.exports import cad_tools, model_tools  # noqa: F401 - registers

COUNTED = ("OST_Walls", "OST_Doors", "OST_Windows", "OST_Rooms")


@pytest.fixture
def duplex():
    revit = DuplexRevit("duplex")
    yield revit
    revit.close()


def _visible(revit, view_name: str, category: str) -> int:
    def count():
        view = next(v for v in DB.FilteredElementCollector(revit.doc).OfClass(DB.View)
                    if v.Name == view_name and not v.IsTemplate)
        return (DB.FilteredElementCollector(revit.doc, view.Id).OfCategory(getattr(DB.BuiltInCategory, category))
                .WhereElementIsNotElementType().GetElementCount())
    return revit.call(count)


def _reopened(revit, path) -> dict:
    """The counts of the file opened again by the stand-in's loader (on Revit's main thread)."""
    return revit.call(lambda: _counts(revit.host.open(str(path))))


def _counts(doc) -> dict:
    return {name: DB.FilteredElementCollector(doc).OfCategory(getattr(DB.BuiltInCategory, name))
            .WhereElementIsNotElementType().GetElementCount() for name in COUNTED}


# -- DWG and DXF ---------------------------------------------------------------------------------------

def test_the_level_1_plan_to_dxf_has_its_walls_on_the_walls_layer(duplex, tmp_path):
    text = duplex.text("export_cad", {"format": "dxf", "views": ["Level 1"], "folder": str(tmp_path)})
    path = tmp_path / "Floor Plan - Level 1.dxf"
    assert path.is_file() and f"Floor Plan - Level 1.dxf ({path.stat().st_size / 1024:.1f} KB)" in text
    entities = collections.Counter((e.dxf.layer, e.dxftype()) for e in ezdxf.readfile(path).modelspace())
    assert entities[("A-WALL", "LWPOLYLINE")] == _visible(duplex, "Level 1", "OST_Walls") > 0
    assert entities[("A-GLAZ", "LWPOLYLINE")] == _visible(duplex, "Level 1", "OST_Windows")
    assert entities[("A-DOOR", "ARC")] == _visible(duplex, "Level 1", "OST_Doors")
    assert "Revit's default export options" in text and "internal coordinates" in text


def test_a_setup_by_name_and_shared_coordinates_are_read_back(duplex, tmp_path):
    text = duplex.text("export_cad", {"format": "dxf", "views": ["Level 1", "Level 2"], "setup": "setup 1",
                                      "shared_coordinates": True, "folder": str(tmp_path)})
    assert "the model's export setup 'Setup 1'; shared coordinates" in text   # as the model spells it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Floor Plan - Level 1.dxf", "Floor Plan - Level 2.dxf"]


def test_an_unknown_setup_is_refused_listing_the_models(duplex, tmp_path):
    error = duplex.error("export_cad", {"format": "dxf", "views": ["Level 1"], "setup": "Consultants",
                                        "folder": str(tmp_path)})
    assert "no DWG/DXF export setup named 'Consultants'" in error and "'Setup 1'" in error
    assert list(tmp_path.iterdir()) == []


def test_dwg_is_refused_without_the_exporter_naming_the_options_it_read_back(duplex, tmp_path):
    error = duplex.error("export_cad", {"format": "dwg", "views": ["Level 1"], "setup": "Setup 1",
                                        "shared_coordinates": True, "folder": str(tmp_path)})
    assert "has no DWG exporter installed" in error and "IsDWGExportAvailable" in error
    assert "the model's export setup 'Setup 1'; shared coordinates" in error
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_kept_and_a_view_revit_cannot_export_is_named(duplex, tmp_path):
    (tmp_path / "Floor Plan - Level 1.dxf").write_bytes(b"the user's")
    text = duplex.text("export_cad", {"format": "dxf", "views": ["Level 1", "{3D}"], "folder": str(tmp_path)})
    assert (tmp_path / "Floor Plan - Level 1.dxf").read_bytes() == b"the user's"
    assert (tmp_path / "Floor Plan - Level 1 (2).dxf").is_file()
    assert "Exported 1 of 2 views" in text and "Failed (1)" in text and "{3D}" in text
    assert "Document.Export returned false" in text


# -- IFC and NWC ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("version", ["IFC2x3", "IFC4"])
def test_the_model_to_ifc_loads_back_with_the_same_counts_and_is_left_unchanged(duplex, tmp_path, version):
    history = len(duplex.undo_names())
    text = duplex.text("export_model", {"format": "ifc", "ifc_version": version, "file_name": "duplex export",
                                        "folder": str(tmp_path)})
    path = tmp_path / "duplex export.ifc"
    assert path.is_file() and "duplex export.ifc" in text and "left as it was" in text
    assert _reopened(duplex, path) == duplex.call(lambda: _counts(duplex.doc))
    assert len(duplex.undo_names()) == history and duplex.call(lambda: not duplex.doc.IsModified)


def test_an_ifc_of_a_model_with_links_leaves_them_out_and_says_so(duplex, tmp_path, monkeypatch):
    from revit_standin.links import link_model, parse_link
    duplex.call(lambda: link_model(duplex.doc, parse_link("SampleHouse4@30,-5,90")))
    asked = []
    real = DB.IFCExportOptions.AddOption
    monkeypatch.setattr(DB.IFCExportOptions, "AddOption",
                        lambda self, name, value: (asked.append((name, value)), real(self, name, value))[1])
    text = duplex.text("export_model", {"format": "ifc", "folder": str(tmp_path)})
    assert "Linked models are not in the file (1 link: 'SampleHouse4.rvt'): Revit's IFC export writes the host " \
           "model only" in text, text
    assert ("ExportLinkedFiles", "false") in asked
    assert [p.name for p in tmp_path.iterdir()] == ["duplex.ifc"]
    assert _reopened(duplex, tmp_path / "duplex.ifc") == duplex.call(lambda: _counts(duplex.doc))


def test_an_ifc_of_a_model_without_links_says_nothing_of_links(duplex, tmp_path):
    assert "link" not in duplex.text("export_model", {"format": "ifc", "folder": str(tmp_path)}).lower()


def test_the_ifc_of_a_view_holds_what_the_view_shows(duplex, tmp_path):
    duplex.text("export_model", {"format": "ifc", "view": "Level 1", "folder": str(tmp_path)})
    [path] = list(tmp_path.iterdir())
    assert _reopened(duplex, path) == {c: _visible(duplex, "Level 1", c) for c in COUNTED}


def test_a_file_type_revit_writes_but_the_stand_in_does_not_is_named_as_failed(duplex, tmp_path):
    text = duplex.text("export_model", {"format": "ifc", "file_type": "ifcxml", "folder": str(tmp_path)})
    assert "Failed (1)" in text and "returned false" in text and list(tmp_path.iterdir()) == []


def test_nwc_is_refused_saying_what_to_install(duplex, tmp_path):
    error = duplex.error("export_model", {"format": "nwc", "view": "Level 1", "folder": str(tmp_path)})
    version = duplex.call(lambda: duplex.doc.Application.VersionNumber)
    assert "IsNavisworksExporterAvailable" in error
    assert f"Navisworks NWC Export Utility\" for Revit {version}" in error
    assert "the elements 'Floor Plan: Level 1' shows; shared coordinates" in error
    assert list(tmp_path.iterdir()) == []


def test_nwc_with_the_exporter_installed_sets_the_options_it_read_back(duplex, tmp_path, monkeypatch):
    """Where Revit has the exporter: the stand-in has none to run, so Export is watched, not run."""
    from Autodesk.Revit.DB import _optional_functionality
    monkeypatch.setitem(_optional_functionality.INSTALLED, "Navisworks exporter", True)
    seen = {}

    def export(self, folder, name, options):
        seen.update(scope=options.ExportScope, coordinates=options.Coordinates, name=name)
        Path(folder, name + ".nwc").write_bytes(b"nwc")
    monkeypatch.setattr(DB.Document, "Export", export)
    text = duplex.text("export_model", {"format": "nwc", "shared_coordinates": False, "folder": str(tmp_path)})
    assert seen == {"scope": DB.NavisworksExportScope.Model, "coordinates": DB.NavisworksCoordinates.Internal,
                    "name": "duplex"}
    assert "duplex.nwc (3 bytes)" in text and "link" not in text.lower()


def test_an_nwc_of_a_model_with_links_leaves_them_out_and_says_so(duplex, tmp_path, monkeypatch):
    from Autodesk.Revit.DB import _optional_functionality
    from revit_standin.links import link_model, parse_link
    duplex.call(lambda: link_model(duplex.doc, parse_link("SampleHouse4@30,-5,90")))
    monkeypatch.setitem(_optional_functionality.INSTALLED, "Navisworks exporter", True)
    seen = {}

    def export(self, folder, name, options):
        seen["links"] = options.ExportLinks
        Path(folder, name + ".nwc").write_bytes(b"nwc")
    monkeypatch.setattr(DB.Document, "Export", export)
    text = duplex.text("export_model", {"format": "nwc", "folder": str(tmp_path)})
    assert seen == {"links": False}
    assert "Linked models are not in the file (1 link: 'SampleHouse4.rvt'): Revit's Navisworks export skips them " \
           "(NavisworksExportOptions.ExportLinks is off)" in text, text


def test_files_an_export_adds_beside_a_sheet_are_listed_with_it(duplex, tmp_path, monkeypatch):
    """Revit may write a sheet's views as external references beside its file: the stand-in writes
    none, so Export is replaced by one that adds such a file after writing the sheet's."""
    real = DB.Document.Export

    def export(self, folder, name, views, options):
        done = real(self, folder, name, views, options)
        Path(folder, f"{name}-Floor Plan-Level 1.dxf").write_bytes(b"xref")
        return done
    monkeypatch.setattr(DB.Document, "Export", export)
    text = duplex.text("export_cad", {"format": "dxf", "views": ["Level 1"], "folder": str(tmp_path)})
    assert "Floor Plan - Level 1-Floor Plan-Level 1.dxf (4 bytes)" in text and "2 files" in text
