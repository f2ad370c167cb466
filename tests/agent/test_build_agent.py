"""One place puts the agent together (paracore.agent.build): the pane and the sandbox get the same
model wrapper, limits and policy from the settings."""
from __future__ import annotations

import pytest

from paracore.agent.build import build_agent, build_model
from paracore.hosts.standin.sandbox import Sandbox
from paracore.llm.retry import RetryingModel
from paracore.llm.scripted import ScriptedModel
from paracore.app.revit.chat_agent import ChatAgent
from paracore.core.settings import Limits, Settings

SETTINGS = Settings(provider="anthropic", approval_policy="ask_all",
                    limits=Limits(max_steps=3, max_output_tokens=900, context_window_tokens=50_000))


@pytest.fixture(scope="module")
def sandbox():
    with Sandbox("duplex") as box:
        yield box


def test_the_settings_give_the_limits_and_the_policy(sandbox):
    agent = build_agent(SETTINGS, sandbox.runtime, sandbox.session, model=ScriptedModel.from_turns([]))
    assert (agent.limits.max_steps, agent.limits.max_output_tokens, agent.limits.context_window_tokens) == (
        3, 900, 50_000)
    assert agent.policy.mode == "ask_all"


def test_the_sandbox_honours_the_settings_limits(sandbox):
    agent = sandbox.agent(ScriptedModel.from_turns([]), settings=SETTINGS)
    assert agent.limits.max_steps == 3 and agent.limits.max_output_tokens == 900


def test_a_model_built_from_the_settings_is_behind_the_retry_policy_with_the_settings_first_byte_timeout():
    settings = SETTINGS.with_changes(limits=Limits(first_byte_timeout=12.5))
    made = build_model(settings, model_factory=lambda settings: ScriptedModel.from_turns([]))
    assert isinstance(made, RetryingModel)
    assert made.policy.first_byte_timeout == 12.5


def test_the_panes_agent_is_built_the_same_way(sandbox):
    chat = ChatAgent(sandbox.session, sandbox.bridge, sandbox.host.uiapp, settings_loader=lambda: SETTINGS,
                     model_factory=lambda settings: ScriptedModel.from_turns([]))
    agent = chat._agent_for_turn()
    assert isinstance(agent.model, RetryingModel)
    assert agent.limits.max_steps == 3 and agent.policy.mode == "ask_all"
