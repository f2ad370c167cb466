"""Pictures a tool shows the model (``capture_view``): stored once, by hash, referenced after.

A picture's bytes live in one place, the content store under the data folder
(``<data dir>/images/<sha256>.png``); messages, saved sessions, events and traces carry only an
``ImagePart`` — its hash, media type, pixel size, byte count and a short description. A session
that shows the same view twice stores it once, and its file stays small whatever the pictures
weigh. Each adapter reads the bytes back from the store when it builds a request
(``image_bytes``); a picture missing from the store (the folder was cleaned) goes to the model
as its description, with a note, never as a failed request.

The description is also what a model that cannot see pictures gets in place of the picture
(``vision`` in the provider's settings), and what the trace shows under it.
"""
from __future__ import annotations

import hashlib
import os
import re
import struct
import threading
import zlib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from paracore.core.paths import data_dir

MEDIA_TYPES = ("image/png",)
_SHA = re.compile(r"^[0-9a-f]{64}$")
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class ImagePart(BaseModel):
    """A picture by reference: the bytes are in the content store, under ``sha256``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["image"] = "image"
    sha256: str = Field(pattern=_SHA.pattern)
    media_type: Literal["image/png"] = "image/png"
    width: int = Field(ge=1)
    height: int = Field(ge=1)
    size: int = Field(ge=1)
    """Bytes of the file."""
    description: str = ""
    """What the picture shows, in words: the text a model without vision reads instead."""

    def as_text(self, reason: str = "this model cannot see pictures") -> str:
        """The picture in words, for a model that does not get the picture itself."""
        what = self.description or "a picture"
        return f"[Picture not shown ({reason}): {what}; {self.width}×{self.height} px.]"


class ImageMissing(LookupError):
    """The store holds no bytes for a hash (its folder was cleaned, or another machine's session)."""


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, read from its header; ValueError when it is not a PNG."""
    if len(data) < 24 or not data.startswith(_PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    if width < 1 or height < 1:
        raise ValueError("a PNG without pixels")
    return width, height


def small_png(width: int = 4, height: int = 3, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """A valid RGB PNG of one colour, written with the standard library (tests, stand-in doubles)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return _PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b"")


class ImageStore:
    """Bytes by sha256 in one folder; written once (atomically), read by any adapter."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self._lock = threading.Lock()

    def path(self, sha256: str) -> Path:
        if not _SHA.match(sha256):
            raise ValueError(f"not a sha256: {sha256!r}")
        return self.root / f"{sha256}.png"

    def put(self, data: bytes, *, description: str = "", media_type: str = "image/png") -> ImagePart:
        """Store ``data`` (once: the same bytes give the same file) and return its reference."""
        if media_type not in MEDIA_TYPES:
            raise ValueError(f"unsupported picture type {media_type!r}; only {', '.join(MEDIA_TYPES)}")
        width, height = png_size(data)
        sha = hashlib.sha256(data).hexdigest()
        target = self.path(sha)
        with self._lock:
            if not target.exists() or target.stat().st_size != len(data):
                self.root.mkdir(parents=True, exist_ok=True)
                temporary = target.with_name(f".{sha}.{os.getpid()}.{threading.get_ident()}.tmp")
                temporary.write_bytes(data)
                os.replace(temporary, target)
        return ImagePart(sha256=sha, media_type=media_type, width=width, height=height, size=len(data),
                         description=description)

    def get(self, sha256: str) -> bytes:
        """The bytes stored under ``sha256``; ImageMissing when they are not (or no longer) there."""
        try:
            data = self.path(sha256).read_bytes()
        except (FileNotFoundError, ValueError):
            raise ImageMissing(f"picture {sha256[:12]}… is not in {self.root}") from None
        if hashlib.sha256(data).hexdigest() != sha256:
            raise ImageMissing(f"picture {sha256[:12]}… in {self.root} is damaged")
        return data


def default_store() -> ImageStore:
    """The store under the data folder (``PARACORE_DATA_DIR`` moves it, with everything else)."""
    return ImageStore(data_dir() / "images")


def image_bytes(image: ImagePart, store: ImageStore | None = None) -> bytes:
    """The picture's bytes from the store (the default one unless given); ImageMissing if gone."""
    return (store or default_store()).get(image.sha256)
