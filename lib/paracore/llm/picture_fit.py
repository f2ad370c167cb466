"""A picture made to fit what its provider documents it accepts, before it is sent.

The limits, from each provider's documentation (an image over them is refused with a 400):

    Anthropic  at most 8000×8000 px and 5 MB per image (base64, so 3.75 MB of PNG)
               https://platform.claude.com/docs/en/build-with-claude/vision ("General limits";
               more than 20 images in one request: 2000×2000 px, and 32 MB per request)
    OpenAI     up to 20 MB per image, 50 MB of image bytes per request
               https://platform.openai.com/docs/guides/images-vision ("Image input requirements")
    Gemini     inline data while the whole request stays under 20 MB
               https://ai.google.dev/gemini-api/docs/image-understanding

An OpenAI-compatible server is held to OpenAI's. ``capture_view`` already exports within all of
them (at most 1568 px and 3.75 MB: tools/views/capture_tools.py), so what is fitted here is a picture
from elsewhere (a plugin's tool). It is scaled down with Pillow, keeping its proportions, until it
fits; the result is kept in memory by hash, so each request of a session sends the same bytes
(the prompt cache holds). Where Pillow cannot be imported (inside Revit, whose vendored packages do
not include it) a picture over the limit goes as its description with what to do instead, never as
a request the provider would refuse.
"""
from __future__ import annotations

import io
import math
import threading
from dataclasses import dataclass

MB = 1024 * 1024


@dataclass(frozen=True)
class PictureLimits:
    """What one provider accepts of one picture."""

    provider: str
    max_bytes: int
    """Bytes of the PNG itself (a base64 limit is 4/3 of this)."""
    max_side: int | None = None
    """Pixels on the longer side; None where the documentation sets none."""


LIMITS = {
    "anthropic": PictureLimits("Anthropic", max_bytes=5 * MB * 3 // 4, max_side=8000),
    "openai": PictureLimits("OpenAI", max_bytes=20 * MB),
    "openai-compatible": PictureLimits("OpenAI", max_bytes=20 * MB),
    "gemini": PictureLimits("Gemini", max_bytes=20 * MB * 3 // 4),
}


class CannotFit(ValueError):
    """The picture is over the provider's limit and cannot be made smaller here; the message says
    why, for the model, in the words ``ImagePart.as_text`` puts in brackets."""


def fits(width: int, height: int, size: int, limits: PictureLimits) -> bool:
    return size <= limits.max_bytes and (limits.max_side is None or max(width, height) <= limits.max_side)


def fitted(data: bytes, width: int, height: int, sha256: str, limits: PictureLimits) -> bytes:
    """``data`` as it is when it fits ``limits``; else a smaller PNG of it that does (CannotFit
    when it cannot be made)."""
    if fits(width, height, len(data), limits):
        return data
    key = (sha256, limits.max_bytes, limits.max_side)
    with _lock:
        if key in _fitted:
            return _fitted[key]
    smaller = _scaled_down(data, width, height, limits)
    with _lock:
        _fitted[key] = smaller
    return smaller


_lock = threading.Lock()
_fitted: dict[tuple, bytes] = {}


def _scaled_down(data: bytes, width: int, height: int, limits: PictureLimits) -> bytes:
    try:
        from PIL import Image   # not vendored for Revit: there the picture goes as its description
    except ImportError:
        raise CannotFit(_too_large(width, height, len(data), limits)) from None
    picture = Image.open(io.BytesIO(data))
    picture.load()
    scale = min(1.0, limits.max_side / max(width, height)) if limits.max_side else 1.0
    while True:
        size = (max(1, int(width * scale)), max(1, int(height * scale)))
        out = io.BytesIO()
        picture.resize(size, Image.Resampling.LANCZOS).save(out, format="PNG", optimize=True)
        if out.tell() <= limits.max_bytes:
            return out.getvalue()
        scale *= min(0.9, math.sqrt(limits.max_bytes / out.tell()))   # bytes go with the area
        if max(size) < 64:
            raise CannotFit(_too_large(width, height, len(data), limits))


def _too_large(width: int, height: int, size: int, limits: PictureLimits) -> str:
    most = f"{limits.max_bytes / MB:.2f} MB" + (f" and {limits.max_side} px a side" if limits.max_side else "")
    return (f"it is larger than {limits.provider} accepts ({width}×{height} px, {size / MB:.2f} MB; at most {most}) "
            "and cannot be made smaller here: take it again smaller, e.g. capture_view with max_size 1024 "
            "or crop_to_working_set")
