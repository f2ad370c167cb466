"""Pictures through every provider adapter: the duplex replay (isolate the Level 1 doors,
capture_view) runs through the real agent on the stand-in, with each real SDK talking to a scripted
provider server (``wire_fakes``); the request after the capture carries the picture in that
provider's documented form for tool results, its bytes those of the stored PNG. Revit's image
export is doubled (tests/support/export_image_double.py). A model without vision gets the
picture's description; the saved session holds the picture's hash only."""
from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

import export_image_double
from paracore.agent import approve_all
from paracore.app.replay_file import load_replay
from paracore.core import events as ev
from paracore.core.images import default_store
from paracore.core.messages import Usage, dump_history, validate_history
from paracore.hosts.standin.sandbox import Sandbox
from test_provider_conformance import make_model, no_ambient_configuration  # noqa: F401 - autouse fixture
from wire_fakes import PROVIDERS, Call, ScriptedProvider, Step

REPLAY = Path(__file__).resolve().parents[1] / "support" / "replays" / "pictures_duplex.json"


def replay_steps():
    replay = load_replay(REPLAY)
    steps = [Step(calls=tuple(Call(c.id, c.name, dict(c.arguments)) for c in s.tool_calls or ()), text=s.text,
                  usage=Usage(input_tokens=900, output_tokens=20))
             for turn in replay.turns for s in turn.steps]
    return replay.turns, steps


def run(provider, monkeypatch, **model_options):
    export_image_double.install(monkeypatch)
    turns, steps = replay_steps()
    server = ScriptedProvider(provider, steps)
    model = make_model(provider, server)
    for option, value in model_options.items():
        setattr(model, option, value)
    with Sandbox("duplex") as sandbox:
        agent = sandbox.agent(model, approver=approve_all)
        events = list(agent.run_turn(turns[0].user))
        assert not [e.error for e in events if isinstance(e, ev.TurnFailed)]
        history = list(sandbox.session.history)
    assert validate_history(history) == []
    [captured] = [e for e in events if isinstance(e, ev.ToolCallFinished) and e.name == "capture_view"]
    assert not captured.is_error, captured.content
    isolated = [e for e in events if isinstance(e, ev.ToolCallFinished) and e.name == "isolate_in_view"]
    assert isolated[0].content.startswith("Isolated ") and "Doors" in isolated[0].content
    [image] = captured.images
    return server.bodies, image, captured, history


def anthropic_picture(body):
    result = next(b for m in body["messages"] for b in m["content"]
                  if b["type"] == "tool_result" and b["tool_use_id"] == "picture")
    text, picture = result["content"][:2]
    assert text["type"] == "text" and picture["type"] == "image"
    assert picture["source"]["type"] == "base64" and picture["source"]["media_type"] == "image/png"
    return text["text"], base64.b64decode(picture["source"]["data"])


def responses_picture(body):
    output = next(i for i in body["input"] if i["type"] == "function_call_output" and i["call_id"] == "picture")
    text, picture = output["output"]
    assert text["type"] == "input_text" and picture["type"] == "input_image" and picture["detail"] == "high"
    prefix = "data:image/png;base64,"
    assert picture["image_url"].startswith(prefix)
    return text["text"], base64.b64decode(picture["image_url"][len(prefix):])


def chat_picture(body):
    messages = body["messages"]
    index = next(i for i, m in enumerate(messages) if m["role"] == "tool" and m["tool_call_id"] == "picture")
    tool, follow = messages[index], messages[index + 1]
    assert isinstance(tool["content"], str) and "follows in the next user message" in tool["content"]
    assert follow["role"] == "user"
    label, picture = follow["content"]
    assert label == {"type": "text", "text": "Picture from capture_view (call picture):"}
    assert picture["type"] == "image_url"
    prefix = "data:image/png;base64,"
    return tool["content"], base64.b64decode(picture["image_url"]["url"][len(prefix):])


def gemini_picture(body):
    response = next(p["functionResponse"] for c in body["contents"] for p in c["parts"]
                    if "functionResponse" in p and p["functionResponse"]["name"] == "capture_view")
    [part] = response["parts"]
    # The SDK passes FunctionResponsePart through in its field names (inline_data, mime_type); the
    # API's JSON (proto3) reads the field names and their camelCase forms alike.
    blob = part.get("inlineData") or part["inline_data"]
    assert (blob.get("mimeType") or blob["mime_type"]) == "image/png"
    return response["response"]["result"], base64.b64decode(blob["data"])


PICTURE = {"anthropic": anthropic_picture, "openai": responses_picture, "openai-compatible": chat_picture,
           "gemini": gemini_picture}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_request_after_capture_view_carries_the_picture_in_the_providers_form(provider, monkeypatch):
    options = {"vision": True} if provider == "openai-compatible" else {}  # local servers: off unless set
    bodies, image, captured, history = run(provider, monkeypatch, **options)
    assert len(bodies) == 5
    text, data = PICTURE[provider](bodies[4])
    assert text.startswith("Picture of 'Floor Plan: Level 1' at 1:100, 1024×768 px; the working set's ")
    assert data == default_store().get(image.sha256)
    assert image.description == captured.content
    # Before the capture no request carries a picture; the session holds the picture's hash once.
    assert "base64" not in json.dumps(bodies[3])
    saved = dump_history(history)
    assert saved.count(image.sha256) == 1 and len(saved) < 20_000
    assert base64.b64encode(data).decode()[:200] not in saved


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_model_without_vision_reads_the_description(provider, monkeypatch):
    bodies, image, captured, _ = run(provider, monkeypatch, vision=False)
    last = json.dumps(bodies[4], ensure_ascii=False)
    assert "base64" not in last and "image_url" not in last and "inlineData" not in last and "inline_data" not in last
    assert "[Picture not shown (this model cannot see pictures): Picture of 'Floor Plan: Level 1'" in last


def test_an_older_gemini_gets_the_picture_after_the_function_responses(monkeypatch):
    bodies, image, _, _ = run("gemini", monkeypatch, name="gemini-2.5-flash")
    user = next(c for c in bodies[4]["contents"] if any("functionResponse" in p and p["functionResponse"]["name"]
                                                          == "capture_view" for p in c["parts"]))
    response, picture = user["parts"]
    assert "parts" not in response["functionResponse"]
    blob = picture["inlineData"]
    assert (blob.get("mimeType") or blob["mime_type"]) == "image/png"
    assert base64.b64decode(blob["data"]) == default_store().get(image.sha256)


def test_a_picture_gone_from_the_store_goes_as_its_description(monkeypatch):
    bodies, image, _, history = run("anthropic", monkeypatch)
    default_store().path(image.sha256).unlink()
    from paracore.llm.anthropic_provider import _map_messages
    mapped = json.dumps(_map_messages(history))
    assert "it is no longer in Paracore's picture store" in mapped and '"type": "image"' not in mapped


def test_image_token_formulas_match_the_providers_worked_examples():
    from paracore.llm.pictures import anthropic_image_tokens, gemini_image_tokens, openai_image_tokens
    assert anthropic_image_tokens(1092, 1092) == 1590        # Anthropic's table: 1092×1092 ≈ 1,590
    assert anthropic_image_tokens(3000, 3000) == anthropic_image_tokens(1568, 1568)  # scaled down first
    assert openai_image_tokens(1024, 1024) == 765            # OpenAI: 4 tiles → 85 + 4 × 170
    assert openai_image_tokens(2048, 4096) == 1105           # OpenAI: 1024×2048 → 768×1536, 6 tiles
    assert openai_image_tokens(4096, 8192, detail="low") == 85
    assert gemini_image_tokens(384, 300) == 258 and gemini_image_tokens(1024, 768) == 516


def test_the_context_estimate_counts_a_picture_at_its_price(monkeypatch):
    from paracore.core.images import small_png
    from paracore.core.messages import Message, ToolCallPart, ToolResultPart
    from paracore.llm.context_window import estimate_tokens
    from paracore.llm.pictures import image_tokens
    image = default_store().put(small_png(1024, 768))
    call = Message(role="assistant", parts=[ToolCallPart(id="c", name="capture_view", arguments={})])
    plain = ToolResultPart(call_id="c", name="capture_view", content="Picture")
    with_picture = plain.model_copy(update={"images": (image,)})
    before = estimate_tokens([Message.user_text("hi"), call, Message.user_results([plain])])
    after = estimate_tokens([Message.user_text("hi"), call, Message.user_results([with_picture])])
    assert after - before >= image_tokens(image) == 1049


def test_the_vision_setting_reaches_the_adapter():
    from paracore.core.settings import Settings
    from paracore.llm.providers import create_model
    local = dict(provider="openai-compatible", base_url="http://localhost:11434/v1", model="qwen3:8b")
    assert create_model(Settings(**local)).vision is False          # local models: described in words
    assert create_model(Settings(**local, vision=True)).vision is True
    assert create_model(Settings(provider="anthropic"), api_key="sk-ant-test-0000").vision is True
    assert create_model(Settings(provider="gemini", vision=False), api_key="AIza-test-0000").vision is False
    assert create_model(Settings(provider="openai", vision=False), api_key="sk-test-0000").vision is False
