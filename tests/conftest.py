"""Test setup shared by the whole suite: the Revit stand-in goes on sys.path (never site-packages)."""
import gc
import os
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STUBS = ROOT / "stubs"
if str(STUBS) not in sys.path:
    sys.path.insert(0, str(STUBS))

# Helpers shared across test folders (tests/support: the tool harness, the provider fakes, the fake
# WPF, the MCP helpers, the replays) are imported as top-level modules; their fixtures are a plugin.
SUPPORT = ROOT / "tests" / "support"
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))
pytest_plugins = ["shared_fixtures"]

from longest_first import longest_first  # noqa: E402 - tests/support is on the path from here

# Settings, sessions, traces and usage logs written by tests (and by the commands they run in
# subprocesses) go to a throwaway folder, never into the user's own Paracore folders. Each process
# gets its own: with pytest-xdist every worker inherits the environment of the process that started
# it, so a folder this file chose there (named in _SCRATCH_OWNED) is replaced, never shared. A
# folder the developer set before running pytest is kept.
_SCRATCH = Path(tempfile.mkdtemp(prefix="paracore-tests-"))
_SCRATCH_OWNED = "PARACORE_TESTS_SCRATCH"
_owned = set(os.environ.get(_SCRATCH_OWNED, "").split())
for _variable, _folder in (("PARACORE_DATA_DIR", "data"), ("PARACORE_CONFIG_DIR", "config")):
    if _variable not in os.environ or _variable in _owned:
        os.environ[_variable] = str(_SCRATCH / _folder)
        _owned.add(_variable)
os.environ[_SCRATCH_OWNED] = " ".join(sorted(_owned))

# Retries do not sleep in tests: the pause between attempts is scaled to nothing (paracore.llm.retry,
# PARACORE_RETRY_DELAY_SCALE); the delays announced stay the real 1 s, 2 s, 4 s. Tests of the pause
# itself give their policy wait_scale=1.0; commands run in subprocesses get the variable only if a
# test passes it on.
os.environ.setdefault("PARACORE_RETRY_DELAY_SCALE", "0")

# The sample buildings the stand-in has read are kept in the clone's .cache (revit_standin/
# building_cache.py), shared by the workers and the commands the tests start, not in the user's
# own cache folder.
os.environ.setdefault("PARACORE_STANDIN_CACHE", str(ROOT / ".cache" / "standin"))


@pytest.fixture(autouse=True, scope="session")
def _exports_stay_in_scratch():
    """Files an export tool writes where the test did not choose go to the scratch folder: never
    beside the sample models (the clone's own, or ../shared/models, which other clones read), nor
    into the user's Documents. Once for the session, so that a module's or a test's own Documents
    (patched after this) wins; a test of those defaults puts them back (tests/tools/test_exports_machinery.py)."""
    from paracore.tools.exports import destination
    from paracore.tools.framework import export_files
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(destination, "_model_folder", lambda doc: None)
        patch.setattr(export_files, "documents_folder", lambda: _SCRATCH / "Documents")
        yield


def _read_each_sample_building_once() -> None:
    """The suite opens the samples thousands of times. In the test process a sample building
    (a file in the stand-in's model folders, unchanged since) is taken once from the stand-in's
    building cache (read from the IFC file by the first process that needs it), and every open
    builds a new document from that one ``BuildingData``: building reads the data, never changes
    it, and gives the document none of its lists or dicts, so no test sees another's changes
    (tests/standin/test_building_cache.py holds the loader to that). Any other path is read every
    time; the commands the tests run in subprocesses use the building cache themselves;
    tests/standin reads the files itself."""
    import threading

    from revit_standin import loader
    from revit_standin.building_cache import read_building

    read: dict[tuple, object] = {}
    lock = threading.Lock()
    open_every_time = loader.open_model

    def open_model(model: str, application):
        path = loader.resolve_model(model).resolve()
        folders = {folder.resolve() for folder in loader.model_search_path() if folder.is_dir()}
        if path.parent not in folders:
            return open_every_time(model, application)
        stat = path.stat()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        with lock:
            building = read.get(key)
        if building is None:
            building = read_building(path, loader.model_search_path())
            with lock:
                read[key] = building
        return loader.build_document(building, application)

    loader.open_model = open_model


_read_each_sample_building_once()


def pytest_configure(config):
    _handed_out_in_collection_order(config)
    config.addinivalue_line(
        "markers", "network: needs the package index (PyPI); fails, never skips, when it cannot be reached")


# Collecting imports the SDKs and every test module: objects that live for the whole run. At the
# default threshold (700 allocations) the collector walks them again and again while they are made;
# every 50,000 it does so far less often (as `python -m paracore` does: paracore/__main__.py). The
# tests then make many objects too (models of 10,000 elements, arguments of 100,000 items).
gc.set_threshold(50_000, 20, 20)


def pytest_collection_finish(session):
    """What importing and collecting made (the SDKs' models, thousands of test items) lives for the
    whole run: moved out of the cyclic collector's sight, it is not walked again at every
    collection. With the threshold above: about a tenth less time in the heaviest files; no test
    depends on when garbage is collected."""
    gc.collect()
    gc.freeze()


def _handed_out_in_collection_order(config) -> None:
    """Under ``--dist loadfile`` (``tasks.py test``) xdist hands the files out in the order the
    workers collected them (see pytest_collection_modifyitems), not most tests first."""
    if getattr(config.option, "dist", None) == "loadfile" and not hasattr(config, "workerinput"):
        config.option.loadscopereorder = False


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """A test worker's collection, the slowest files first (tests/support/longest_first.py): the
    same order on every worker, which the controller hands out as it is."""
    if hasattr(config, "workerinput"):
        rank = {nodeid: n for n, nodeid in enumerate(longest_first([item.nodeid for item in items]))}
        items.sort(key=lambda item: rank[item.nodeid])
