"""Write pytest's cache of assertion-rewritten test modules before the suite starts.

pytest rewrites the asserts of every test module and conftest.py when it imports them, and keeps
the result in ``__pycache__/<name>.<tag>-pytest-<version>.pyc``, unless PYTHONDONTWRITEBYTECODE is
set, as CI images often set it. Then each test worker rewrites all ~160 files again at
collection: about 11 s of CPU per worker on a 2-core machine. ``tasks.py test`` runs this
script once, beside the compile of the sources, and the workers read what it wrote. It shares
the files out over the cores: alone, it would be the longest of the steps before the tests.

pytest also rewrites the modules of the packages that bring pytest plugins (anyio's and
hypothesis's, ~60 modules the suite imports): about 2 s of CPU per worker more. Run without a
folder, as tasks.py runs it, the script writes their cache too, beside each module (in the
virtual environment: no pytest run writes anything else there).

It uses pytest's own functions (``_pytest.assertion.rewrite``), so the files are exactly the ones
pytest would write: same name, same checked source hash (a changed file is rewritten again by
pytest, as without this). Those functions are private: if a pytest release changes them, this
script writes nothing and says so, and the suite only collects more slowly.

    python tests/support/rewrite_cache.py [FOLDER]   (default: the repository's tests/, and the
                                                      plugins' packages)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def rewrite(folder: Path) -> int:
    """Write the rewritten-module cache of every test module and conftest.py under ``folder``;
    returns how many were written."""
    return _write([source for source in sorted(folder.rglob("*.py"))
                   if source.name.startswith("test_") or source.name == "conftest.py"])


def plugin_modules() -> list[Path]:
    """The source files pytest rewrites when it imports them because their distribution brings a
    pytest plugin (an entry point in the pytest11 group): those of its top-level modules and
    packages (pytest's own ``_mark_plugins_for_rewrite``)."""
    import importlib.metadata

    from _pytest.config import _iter_rewritable_modules
    sources = []
    for dist in importlib.metadata.distributions():
        if not any(ep.group == "pytest11" for ep in dist.entry_points):
            continue
        files = [file for file in dist.files or [] if str(file).endswith(".py")]
        names = set(_iter_rewritable_modules(str(file) for file in files))
        for file in files:
            top = Path(str(file)).parts[0].removesuffix(".py")
            source = Path(str(dist.locate_file(file)))
            if top in names and source.is_file():
                sources.append(source)
    return sorted(sources)


def _write_beside(sources: list[Path]) -> int:
    """``_write`` shared out over the cores (rewriting is ~30 ms of CPU a file)."""
    processes = min(os.cpu_count() or 1, 4)
    if processes < 2:
        return _write(sources)
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(processes) as pool:
        return sum(pool.map(_write, [sources[n::processes] for n in range(processes)]))


def _write(sources: list[Path]) -> int:
    # Imported here: main() turns a pytest without these private names into a word, not a failure.
    from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc_fp, get_cache_dir
    written = 0
    for source in sources:
        try:
            source_hash, code = _rewrite_test(source, None)   # None: no assertion-pass hook, as here
        except SyntaxError:
            continue   # pytest reports it when it collects the file
        cache = get_cache_dir(source)
        cache.mkdir(exist_ok=True)
        pyc = cache / (source.name[:-3] + PYC_TAIL)
        partial = pyc.with_name(f"{pyc.name}.{os.getpid()}")
        with open(partial, "wb") as file:
            _write_pyc_fp(file, source_hash, code)
        os.replace(partial, pyc)   # atomic: a worker reads a whole file or none
        written += 1
    return written


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else TESTS
    try:
        if argv:
            rewrite(folder)
        else:
            _write_beside(sorted(TESTS.rglob("test_*.py")) + sorted(TESTS.rglob("conftest.py")) + plugin_modules())
    except OSError as error:   # a virtual environment that cannot be written: pytest rewrites them itself
        print(f"rewrite_cache: wrote no cache of the plugins' modules ({error})", file=sys.stderr)
    except (ImportError, TypeError, AttributeError) as error:   # a pytest whose private functions changed
        print(f"rewrite_cache: wrote no cache ({type(error).__name__}: {error}); the tests collect without it",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
