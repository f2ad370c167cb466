"""Test setup shared by the whole suite: the Revit stand-in goes on sys.path (never site-packages)."""
import os
import sys
import tempfile
from pathlib import Path

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


def _read_each_sample_building_once() -> None:
    """The stand-in reads a building's IFC file with ifcopenshell on every open (0.4 s for the
    duplex, 1.4 s for the office), and the suite opens the samples thousands of times. In the test
    process a sample building's file (one in the stand-in's model folders, unchanged since) is read
    once; every open still builds a new document from its own copy of the data (a pickle round
    trip, 15 ms), so no test sees another's changes. Any other path is read every time, as are
    the samples in the commands the tests run in subprocesses; tests/standin reads the files itself."""
    import pickle
    import threading

    from revit_standin import loader
    from revit_standin.ifc_reader import read_ifc

    read: dict[tuple, bytes] = {}
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
            data = read.get(key)
        if data is None:
            data = pickle.dumps(read_ifc(str(path)))
            with lock:
                read[key] = data
        return loader.build_document(pickle.loads(data), application)

    loader.open_model = open_model


_read_each_sample_building_once()


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "network: needs the package index (PyPI); fails, never skips, when it cannot be reached")
