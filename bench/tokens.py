"""Token counts with tiktoken's ``o200k_base`` encoding, offline.

tiktoken downloads its BPE files on first use, which the machines here cannot do. The
`bpe-openai` package ships the same file (its SHA-256 is the one tiktoken expects, checked
below), so it is placed in tiktoken's cache and tiktoken itself does the counting.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from functools import lru_cache
from pathlib import Path

_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def _seed_cache() -> None:
    cache = Path(os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(Path(tempfile.gettempdir()) / "paracore-tiktoken")))
    target = cache / hashlib.sha1(_URL.encode()).hexdigest()
    if target.exists():
        return
    import bpe_openai.data
    data = gzip.decompress((Path(bpe_openai.data.__file__).parent / "o200k_base.tiktoken.gz").read_bytes())
    if hashlib.sha256(data).hexdigest() != _SHA256:
        raise RuntimeError("bpe-openai's o200k_base file is not the one tiktoken expects")
    cache.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


@lru_cache(maxsize=1)
def encoding():
    _seed_cache()
    import tiktoken
    return tiktoken.get_encoding("o200k_base")


def count(text: str) -> int:
    return len(encoding().encode(text, disallowed_special=()))
