"""Sample buildings read from IFC once per machine, not once per process.

Reading a sample costs the import of ifcopenshell and numpy (0.3 s) and the reading itself (1.2 s
for the duplex, 2.6 s for the office, the walls' bodies measured with the geometry kernel), in
every `paracore` process and test worker that opens it. The plain data the reader makes (``BuildingData``) is kept as a pickle in a cache folder
and loaded from there (tens of milliseconds) while the file and the reader are unchanged.

Only the sample buildings are kept (files in ``loader.model_search_path()``'s folders); any
other IFC file, a user's own or a test's damaged copy, is read every time. The key is the
file's path, size and modification time and a digest of the reader's own source, so a changed
sample or a changed reader is read again. The folder is ``PARACORE_STANDIN_CACHE``, else the
user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``, ``%LOCALAPPDATA%`` on Windows) under
``paracore/standin``; it is made for its user alone. A cache that cannot be read or written is
passed over: the file is read as if there were none.
"""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path

from .building_data import BuildingData
from .errors import CannotOpen

CACHE_ENV = "PARACORE_STANDIN_CACHE"
READER_PACKAGES = ("ifcopenshell", "numpy")
"""What reading IFC needs: Paracore's ``sandbox`` extra (pyproject.toml). ``paracore[mcp]`` alone
has them not: it serves the running Revit, where no IFC is read."""
_READER_SOURCES = ("ifc_reader.py", "ifc_integrity.py", "wall_bodies.py", "element_boxes.py", "building_data.py",
                   "building_cache.py")


def read_building(path: Path, sample_folders: list[Path]) -> BuildingData:
    """The building in ``path``: from the cache for a sample, else read from the file."""
    entry = _entry(path, sample_folders)
    if entry is not None:
        cached = _load(entry)
        if cached is not None:
            return cached
    building = _read_ifc(path)
    if entry is not None:
        _store(entry, building)
    return building


def read_every_sample(sample_folders: list[Path]) -> list[str]:
    """Read every sample building into the cache; the names of those that could not be read (the
    tests that open them say why)."""
    unread = []
    for folder in sample_folders:
        for path in sorted(folder.glob("*.ifc")) if folder.is_dir() else ():
            try:
                read_building(path, sample_folders)
            except Exception:  # noqa: BLE001 - a damaged sample is the tests' to report
                unread.append(path.stem)
    return unread


def cache_folder() -> Path:
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "paracore" / "standin"


class IfcReaderMissing(CannotOpen):
    """An IFC file to read, and no ifcopenshell or numpy in this Python: says what to install."""

    def __init__(self, path: Path, missing: str):
        super().__init__(
            f"cannot read IFC file '{path}': reading IFC needs Paracore's sandbox extra, and {missing} is not "
            f"installed in this Python. Add it: \"{sys.executable}\" -m pip install \"<your Paracore "
            f"folder>[mcp,sandbox]\" (the folder you installed Paracore from)")
        self.missing = missing


def _read_ifc(path: Path) -> BuildingData:
    # Imported here, not at the top: ifcopenshell and numpy are the cost the cache saves.
    try:
        from .ifc_reader import read_ifc
    except ModuleNotFoundError as error:
        missing = (error.name or "").split(".")[0]
        if missing not in READER_PACKAGES:
            raise
        raise IfcReaderMissing(path, missing) from None
    return read_ifc(str(path))


def _entry(path: Path, sample_folders: list[Path]) -> Path | None:
    """The cache file for a sample's ``path`` as it is now; None for a file that is no sample."""
    try:
        resolved = path.resolve()
        folders = {folder.resolve() for folder in sample_folders if folder.is_dir()}
        if resolved.parent not in folders:
            return None
        stat = resolved.stat()
    except OSError:
        return None
    key = f"{resolved}|{stat.st_size}|{stat.st_mtime_ns}|{_reader_digest()}|{sys.version_info[:2]}"
    return cache_folder() / f"{resolved.stem}-{hashlib.sha256(key.encode()).hexdigest()[:20]}.pickle"


@functools.cache
def _reader_digest() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in _READER_SOURCES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:20]


def _load(entry: Path) -> BuildingData | None:
    try:
        with entry.open("rb") as stream:
            building = pickle.load(stream)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a damaged or foreign cache file: read the IFC file instead
        _forget(entry)
        return None
    return building if isinstance(building, BuildingData) else None


def _store(entry: Path, building: BuildingData) -> None:
    """Write the entry whole or not at all (a temporary file, then a rename: another process may
    read or write the same sample at the same time), and drop the sample's older entries."""
    temporary = None
    try:
        entry.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".", suffix=".tmp")
        with os.fdopen(handle, "wb") as stream:
            pickle.dump(building, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, entry)
        temporary = None
        for older in entry.parent.glob(f"{entry.name.rsplit('-', 1)[0]}-*.pickle"):
            if older != entry:
                _forget(older)
    except OSError:
        return
    finally:
        if temporary is not None:
            _forget(Path(temporary))


def _forget(entry: Path) -> None:
    try:
        entry.unlink()
    except OSError:
        pass


if __name__ == "__main__":
    # `python -m revit_standin.building_cache` (stubs/ on the path): tasks.py fills the cache so the
    # test workers do not each read the same samples at once on a fresh clone.
    from .loader import model_search_path
    sys.exit(1 if read_every_sample(model_search_path()) else 0)
