"""Write pytest's cache of assertion-rewritten test modules before the suite starts.

pytest rewrites the asserts of every test module and conftest.py when it imports them, and keeps
the result in ``__pycache__/<name>.<tag>-pytest-<version>.pyc``, unless PYTHONDONTWRITEBYTECODE is
set, as CI images often set it. Then each test worker rewrites all ~160 files again at
collection: about 11 s of CPU per worker on a 2-core machine. ``tasks.py test`` runs this
script once, beside the compile of the sources, and the workers read what it wrote.

It uses pytest's own functions (``_pytest.assertion.rewrite``), so the files are exactly the ones
pytest would write: same name, same checked source hash (a changed file is rewritten again by
pytest, as without this). Those functions are private: if a pytest release changes them, this
script writes nothing and says so, and the suite only collects more slowly.

    python tests/support/rewrite_cache.py [FOLDER]   (default: the repository's tests/)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def rewrite(folder: Path) -> int:
    """Write the rewritten-module cache of every test module and conftest.py under ``folder``;
    returns how many were written."""
    # Imported here: main() turns a pytest without these private names into a word, not a failure.
    from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc_fp, get_cache_dir
    written = 0
    for source in sorted(folder.rglob("*.py")):
        if not (source.name.startswith("test_") or source.name == "conftest.py"):
            continue
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
        rewrite(folder)
    except (ImportError, TypeError, AttributeError) as error:   # a pytest whose private functions changed
        print(f"rewrite_cache: wrote no cache ({type(error).__name__}: {error}); the tests collect without it",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
