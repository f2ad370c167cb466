"""The one place where an agent is put together, for every host: the Revit pane, the sandbox,
replay and the benchmarks.

From the settings it takes the model (created by the provider's adapter and wrapped in
``RetryingModel``, the one retry policy: a request that fails before its first delta is sent
again), the agent's
limits, the approval policy and the firm's standards the system prompt lists (names and
descriptions; use_standard reads one); from the runtime, the facts the system prompt states; and it
makes sure the whole tool catalogue is loaded (``tools.framework.catalogue``). A host that brings its own model (a scripted one, in
tests and replays) passes it and gets it used as it is.
"""
from __future__ import annotations

from typing import Any, Callable

from paracore.agent import Agent, AgentLimits, ApprovalPolicy, Approver, approve_all
from paracore.core import standards
from paracore.core.prompts import PromptBuilder
from paracore.core.settings import Settings
from paracore.llm.providers import create_model
from paracore.llm.retry import RetryingModel, RetryPolicy
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry


def agent_limits(settings: Settings) -> AgentLimits:
    limits = settings.limits
    return AgentLimits(max_steps=limits.max_steps, max_output_tokens=limits.max_output_tokens,
                       context_window_tokens=limits.context_window_tokens)


def build_model(settings: Settings, *, model_factory: Callable[[Settings], Any] | None = None):
    """The settings' model (``providers.create_model``, or ``model_factory``) behind the retry
    policy, with the settings' first-byte timeout. Raises ``ProviderNotConfigured`` with what to
    do when the settings lack something."""
    policy = RetryPolicy(first_byte_timeout=settings.limits.first_byte_timeout)
    return RetryingModel((model_factory or create_model)(settings), policy)


def prompt_facts(settings: Settings | None, runtime) -> dict:
    """What the system prompt states: the runtime's facts and the list of the firm's standards
    (names and descriptions, sorted by name: the same bytes for the same files) of ``settings``,
    or of the saved settings when None (use_standard and check_model read those)."""
    return {**runtime.prompt_facts(), "standards": standards.current(settings).listing()}


def build_agent(settings: Settings | None, runtime, session, approver: Approver | None = None, *,
                model: Any = None, policy: ApprovalPolicy | None = None, turn_index: int = 0,
                toolsets: bool = True) -> Agent:
    """An agent for ``session`` on ``runtime`` (a ``RevitRuntime``: the pane's or the sandbox's).

    ``settings``: None means the defaults. ``model``: used as given; otherwise built from the
    settings by :func:`build_model`. ``policy``: otherwise the settings' ``approval_policy``.
    ``toolsets``: the model gets the core tools, the settings' pinned toolsets and those it turns
    on (docs/TOOLSETS.md); False sends every tool (replays written before toolsets existed).
    """
    facts = prompt_facts(settings, runtime)   # None: the saved settings' standards, which the tools read too
    settings = settings if settings is not None else Settings()
    load_tools()
    return Agent(model=model if model is not None else build_model(settings),
                 registry=default_registry(), session=session, revit=runtime,
                 prompts=PromptBuilder(facts), approver=approver or approve_all,
                 policy=policy or ApprovalPolicy(mode=settings.approval_policy),
                 limits=agent_limits(settings), turn_index=turn_index,
                 gate_toolsets=toolsets, pinned_toolsets=tuple(settings.pinned_toolsets))
