"""Pictures in tool results, for the adapters: which to send, their bytes, what they cost.

Each adapter sends a ``ToolResultPart``'s pictures (``paracore.core.images``) the way its provider
documents for tool results:

    Anthropic          tool_result content: text block, then image blocks (base64 source)
    OpenAI Responses   function_call_output output: [input_text, input_image (data URL)]
    Chat Completions   tool message text only; the pictures in a user message right after the
                       batch's tool messages (image_url parts with data URLs)
    Gemini             functionResponse.parts: inline_data (Gemini 3 models); older models get an
                       inline_data part after the function responses in the same user content

A model without vision (``vision=False``, from the provider's settings) or a picture no longer in
the store gets the picture's description instead (``ImagePart.as_text``): a text the model can
use, never a failed request. A picture over what the provider documents it accepts is first made
smaller (``paracore.llm.picture_fit``), or goes as its description when it cannot be.

Token estimates follow each provider's published formula (bench/RESULTS.md cites them); the
context-window estimate counts pictures with ``image_tokens`` instead of their JSON.
"""
from __future__ import annotations

import base64
import math
from dataclasses import dataclass

from paracore.core.images import ImageMissing, ImagePart, image_bytes
from paracore.core.messages import ToolResultPart
from paracore.llm.picture_fit import LIMITS, CannotFit, fitted


@dataclass(frozen=True)
class Picture:
    """A picture ready to send: its reference and its bytes."""

    image: ImagePart
    data: bytes

    @property
    def base64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    @property
    def data_url(self) -> str:
        return f"data:{self.image.media_type};base64,{self.base64}"


def pictures(result: ToolResultPart, vision: bool, provider: str | None = None) -> tuple[list[Picture], list[str]]:
    """(the result's pictures to send, texts standing in for those that cannot be sent); each
    within ``provider``'s documented limits (picture_fit.LIMITS) when it is given."""
    sent: list[Picture] = []
    instead: list[str] = []
    limits = LIMITS.get(provider or "")
    for image in result.images:
        if not vision:
            instead.append(image.as_text())
            continue
        try:
            data = image_bytes(image)
            sent.append(Picture(image, fitted(data, image.width, image.height, image.sha256, limits)
                                if limits else data))
        except ImageMissing:
            instead.append(image.as_text("it is no longer in Paracore's picture store"))
        except CannotFit as why:
            instead.append(image.as_text(str(why)))
    return sent, instead


def with_notes(text: str, notes: list[str]) -> str:
    return "\n".join([text, *notes]) if text else "\n".join(notes)


# --- what a picture costs --------------------------------------------------------------------------


def anthropic_image_tokens(width: int, height: int) -> int:
    """Anthropic: tokens ≈ width × height / 750, after scaling the longest side to 1568 px."""
    width, height = _fit(width, height, longest=1568)
    return math.ceil(width * height / 750)


def openai_image_tokens(width: int, height: int, detail: str = "high") -> int:
    """OpenAI (GPT-4o, GPT-4.1, GPT-5 family): 85 base tokens, plus 170 per 512-px tile at high
    detail after fitting in 2048×2048 and scaling the short side to 768 px; low detail is 85."""
    if detail == "low":
        return 85
    width, height = _fit(width, height, longest=2048)
    short = min(width, height)
    if short > 768:
        width, height = width * 768 / short, height * 768 / short
    tiles = math.ceil(width / 512) * math.ceil(height / 512)
    return 85 + 170 * tiles


def gemini_image_tokens(width: int, height: int) -> int:
    """Gemini 2.x: 258 tokens when both sides are ≤ 384 px, else 258 per 768×768 tile."""
    if width <= 384 and height <= 384:
        return 258
    return 258 * math.ceil(width / 768) * math.ceil(height / 768)


def image_tokens(image: ImagePart) -> int:
    """A provider-neutral estimate for the context window: the largest of the three formulas."""
    return max(anthropic_image_tokens(image.width, image.height), openai_image_tokens(image.width, image.height),
               gemini_image_tokens(image.width, image.height))


def _fit(width: int, height: int, longest: int) -> tuple[float, float]:
    scale = min(1.0, longest / max(width, height))
    return width * scale, height * scale
