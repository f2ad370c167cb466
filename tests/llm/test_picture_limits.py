"""A picture a provider would refuse as too large (lib/paracore/llm/picture_fit.py, agent/turn.py).

Before sending, a picture over what the provider documents it accepts is made smaller (Pillow),
or, where Pillow cannot be imported (inside Revit), sent as its description with what to do. If
the provider still refuses a picture as too large, the error body its documentation gives goes
through the real SDK (a mock transport, ``wire_fakes``): the refused pictures go to the model as
their descriptions, the request is sent again, the turn goes on, the user sees it as a retry, and
every tool call keeps exactly one result.

The error bodies: Anthropic's documented envelope ``{"type": "error", "error": {"type":
"invalid_request_error", "message": ...}}`` with the message its API gives for a picture over 5 MB;
Gemini's ``{"error": {"code": 400, "message", "status": "INVALID_ARGUMENT"}}`` with its message for a
request over the inline-data limit; OpenAI's documented envelope ``{"error": {"message", "type",
"param", "code"}}``, whose wording for a too-large image OpenAI does not publish (the one here is
ours: the test pins that any 400 naming an image as too large is taken as this refusal).
"""
from __future__ import annotations

import base64
import io
import json
import os
import sys

import httpx2
import pytest

import export_image_double
from paracore.agent import approve_all
from paracore.core import events as ev
from paracore.core.images import default_store, png_size, small_png
from paracore.core.messages import ToolResultPart, validate_history
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.base import PictureTooLarge
from paracore.llm.common import model_error
from paracore.llm.picture_fit import LIMITS, MB
from paracore.llm.pictures import pictures
from test_pictures_wire import replay_steps
from test_provider_conformance import make_model, no_ambient_configuration  # noqa: F401 - autouse fixture
from wire_fakes import PROVIDERS, ScriptedProvider

PNG_BASE64 = b"iVBORw0KGgo"   # how every base64 PNG starts: the request carries a picture
REFUSALS = {
    "anthropic": {"type": "error", "error": {"type": "invalid_request_error", "message":
                  "messages.4.content.0.content.1.image.source.base64: image exceeds 5 MB maximum: "
                  "7845180 bytes > 5242880 bytes"}},
    "openai": {"error": {"message": "Invalid image: the image is too large.", "type": "invalid_request_error",
                         "param": None, "code": "image_too_large"}},
    "openai-compatible": {"error": {"message": "Invalid image: the image is too large.",
                                    "type": "invalid_request_error", "param": None, "code": "image_too_large"}},
    "gemini": {"error": {"code": 400, "message": "Request payload size exceeds the limit: 20971520 bytes.",
                         "status": "INVALID_ARGUMENT"}},
}


class RefusingProvider(ScriptedProvider):
    """From the first request that carries a picture, refuses ``refusals`` requests with the
    provider's 400 (a provider whose own limit is lower than the documented one), then answers as
    scripted."""

    def __init__(self, provider, steps, refusals: int = 1):
        super().__init__(provider, steps)
        self.refusals = refusals
        self.refused: list[bytes] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        raw = request.read()
        if (PNG_BASE64 in raw or self.refused) and len(self.refused) < self.refusals:
            self.refused.append(raw)
            return httpx2.Response(400, json=REFUSALS[self.provider])
        return super().__call__(request)


def run_refused(provider, monkeypatch, refusals=1):
    export_image_double.install(monkeypatch)
    turns, steps = replay_steps()
    server = RefusingProvider(provider, steps, refusals)
    model = make_model(provider, server)
    model.vision = True
    with Sandbox("duplex") as sandbox:
        events = list(sandbox.agent(model, approver=approve_all).run_turn(turns[0].user))
        history = list(sandbox.session.history)
    return server, events, history


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_picture_the_provider_refuses_goes_as_its_description_and_the_turn_goes_on(provider, monkeypatch):
    server, events, history = run_refused(provider, monkeypatch)
    assert len(server.refused) == 1
    assert not [e for e in events if isinstance(e, ev.TurnFailed)]
    [retry] = [e for e in events if isinstance(e, ev.ModelRetrying)]
    assert "refused a picture as too large" in retry.reason and "capture_view with max_size" in retry.reason
    after = server.raw_bodies[-1]
    assert PNG_BASE64 not in after
    assert b"the provider refused it as too large; to see the view, take it again smaller" in after
    assert validate_history(history) == []
    [result] = [p for m in history for p in m.parts if isinstance(p, ToolResultPart) and p.name == "capture_view"]
    assert result.images == () and "crop_to_working_set" in result.content
    assert isinstance(events[-1], ev.TurnFinished) and events[-1].reply.startswith("Here is Level 1")


def test_a_refusal_without_a_picture_left_to_describe_fails_the_turn_in_plain_words(monkeypatch):
    server, events, history = run_refused("anthropic", monkeypatch, refusals=5)
    [failed] = [e for e in events if isinstance(e, ev.TurnFailed)]
    assert failed.error.startswith("Anthropic refused a picture as too large (400): ")
    assert "take it again smaller (capture_view with max_size 1024 or less)" in failed.error
    assert len(server.refused) == 2          # the picture, then the request without it: the turn stops
    assert PNG_BASE64 in server.refused[0] and PNG_BASE64 not in server.refused[1]
    assert validate_history(history) == []


def test_only_a_400_that_names_a_picture_is_a_picture_refusal():
    assert isinstance(model_error("anthropic", 400, REFUSALS["anthropic"]["error"]["message"]), PictureTooLarge)
    assert isinstance(model_error("gemini", 400, "Request payload size exceeds the limit: 20971520 bytes."),
                      PictureTooLarge)
    assert not isinstance(model_error("anthropic", 400, "messages: roles must alternate"), PictureTooLarge)
    assert not isinstance(model_error("anthropic", 500, "image exceeds"), PictureTooLarge)
    assert not model_error("openai", 400, "Invalid image: the image is too large.").retryable


def _result(data: bytes, **fields) -> ToolResultPart:
    image = default_store().put(data, description="Picture of 'Level 1'")
    return ToolResultPart(call_id="c", name="capture_view", content="Picture", images=(image,), **fields)


def _noise_png(width: int, height: int) -> bytes:
    from PIL import Image
    out = io.BytesIO()
    Image.frombytes("RGB", (width, height), os.urandom(width * height * 3)).save(out, format="PNG")
    return out.getvalue()


def test_a_picture_over_anthropic_s_side_is_scaled_to_8000_px_before_it_is_sent():
    result = _result(small_png(9000, 30))
    [picture], notes = pictures(result, True, "anthropic")
    assert notes == [] and png_size(picture.data) == (8000, 26)
    [again], _ = pictures(result, True, "anthropic")
    assert again.data is picture.data                       # made once: every request sends the same bytes
    [untouched], _ = pictures(result, True, "openai")       # OpenAI documents no side limit
    assert png_size(untouched.data) == (9000, 30)


@pytest.mark.parametrize("provider", ["anthropic", "gemini"])
def test_a_picture_over_the_byte_limit_is_made_small_enough(provider, monkeypatch):
    limits = LIMITS[provider]
    monkeypatch.setitem(LIMITS, provider, type(limits)(limits.provider, max_bytes=400_000, max_side=limits.max_side))
    data = _noise_png(600, 400)                              # noise: about 720 KB however it is packed
    assert len(data) > 400_000
    [picture], notes = pictures(_result(data), True, provider)
    width, height = png_size(picture.data)
    assert notes == [] and len(picture.data) <= 400_000 and width < 600 and abs(width / height - 1.5) < 0.02


def test_the_limits_are_the_documented_ones():
    assert LIMITS["anthropic"].max_bytes == 5 * MB * 3 // 4 and LIMITS["anthropic"].max_side == 8000  # 5 MB base64
    assert LIMITS["openai"].max_bytes == LIMITS["openai-compatible"].max_bytes == 20 * MB
    assert LIMITS["gemini"].max_bytes == 20 * MB * 3 // 4    # the whole request's 20 MB, as base64


def test_without_pillow_a_picture_over_the_limit_goes_as_its_description(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)            # as inside Revit: Pillow is not vendored
    sent, notes = pictures(_result(small_png(8500, 20)), True, "anthropic")
    assert sent == []
    [note] = notes
    assert note.startswith("[Picture not shown (it is larger than Anthropic accepts (8500×20 px")
    assert "at most 3.75 MB and 8000 px a side" in note and "capture_view with max_size 1024" in note


def test_a_picture_within_the_limits_is_sent_as_stored():
    data = small_png(1024, 768)
    [picture], _ = pictures(_result(data), True, "anthropic")
    assert picture.data == data and base64.b64encode(data).startswith(PNG_BASE64)
    assert json.dumps(REFUSALS)  # the bodies are JSON
