"""The stand-in keeps the sample buildings it has read (revit_standin/building_cache.py): a sample is
read from its IFC file once, then loaded from the cache while the file and the reader are
unchanged; any other file is read every time; a cache that cannot be used is passed over."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from revit_standin import building_cache
from revit_standin.building_cache import read_building
from revit_standin.ifc_reader import read_ifc

BUNDLED = Path(__file__).resolve().parents[2] / "stubs" / "revit_standin" / "models" / "duplex.ifc"


@pytest.fixture
def samples(tmp_path, monkeypatch):
    """A sample folder holding a copy of the duplex, a private cache folder, and a count of the
    times the IFC file itself was read."""
    folder = tmp_path / "samples"
    folder.mkdir()
    shutil.copy(BUNDLED, folder / "duplex.ifc")
    monkeypatch.setenv(building_cache.CACHE_ENV, str(tmp_path / "cache"))
    reads = []
    monkeypatch.setattr(building_cache, "_read_ifc", lambda path: reads.append(path) or read_ifc(str(path)))
    return folder, reads


def cache_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_a_sample_is_read_once_and_then_loaded_the_same(samples):
    folder, reads = samples
    first = read_building(folder / "duplex.ifc", [folder])
    second = read_building(folder / "duplex.ifc", [folder])
    assert len(reads) == 1
    assert second == first == read_ifc(str(folder / "duplex.ifc"))
    assert [name.split("-")[0] for name in cache_files(building_cache.cache_folder())] == ["duplex"]


def test_a_changed_sample_is_read_again_and_its_older_entry_goes(samples):
    folder, reads = samples
    path = folder / "duplex.ifc"
    read_building(path, [folder])
    before = cache_files(building_cache.cache_folder())
    later = path.stat().st_mtime_ns + 5_000_000_000
    os.utime(path, ns=(later, later))
    read_building(path, [folder])
    after = cache_files(building_cache.cache_folder())
    assert len(reads) == 2
    assert len(after) == 1 and after != before


def test_a_file_outside_the_sample_folders_is_read_every_time(samples, tmp_path):
    folder, reads = samples
    own = tmp_path / "elsewhere" / "my project.ifc"
    own.parent.mkdir()
    shutil.copy(BUNDLED, own)
    read_building(own, [folder])
    read_building(own, [folder])
    assert len(reads) == 2
    assert cache_files(building_cache.cache_folder()) == []


def test_a_damaged_entry_is_read_past_and_replaced(samples):
    folder, reads = samples
    building = read_building(folder / "duplex.ifc", [folder])
    (entry,) = building_cache.cache_folder().iterdir()
    entry.write_bytes(b"not a pickle")
    assert read_building(folder / "duplex.ifc", [folder]) == building
    assert read_building(folder / "duplex.ifc", [folder]) == building
    assert len(reads) == 2 and entry.stat().st_size > 1000


def test_a_cache_that_cannot_be_written_is_passed_over(samples, tmp_path, monkeypatch):
    folder, reads = samples
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv(building_cache.CACHE_ENV, str(blocker / "cache"))
    assert read_building(folder / "duplex.ifc", [folder]) == read_building(folder / "duplex.ifc", [folder])
    assert len(reads) == 2


def test_the_default_folder_is_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.delenv(building_cache.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path))
    assert building_cache.cache_folder() == tmp_path / "paracore" / "standin"


# -- one BuildingData, many documents (tests/conftest.py builds every open of a sample from one) ----------


def _lists_and_dicts(value, found: dict, seen: set, skip=None) -> dict:
    """Every list, dict and set reachable from ``value`` (objects' attributes included), by id."""
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen or item is skip or isinstance(item, (type, str, bytes, int, float)) or callable(item):
            continue
        seen.add(id(item))
        if isinstance(item, (list, dict, set)):
            found[id(item)] = item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif hasattr(item, "__dict__"):
            stack.append(vars(item))
    return found


@pytest.mark.parametrize("name", ["duplex", "SampleHouse4", "Office_A_20110811", "LargeBuilding"])
def test_a_document_built_from_a_building_neither_changes_it_nor_shares_its_lists_and_dicts(name):
    import pickle

    from revit_standin import loader
    from revit_standin.host import RevitHost
    try:
        path = loader.resolve_model(name)
    except FileNotFoundError:
        pytest.skip(f"{name} is not in the model folders")   # the samples of ../shared/models
    building = read_building(path, loader.model_search_path())
    before = pickle.dumps(building)
    host = RevitHost()
    try:
        document = host.call(lambda: loader.build_document(building, host.application))
        shared = _lists_and_dicts(document, {}, set(), skip=host.application).keys() & \
            _lists_and_dicts(building, {}, set()).keys()
    finally:
        host.stop()
    assert pickle.dumps(building) == before, "building the document changed the building data"
    assert not shared, f"the document holds {len(shared)} list(s) or dict(s) of the building data"
