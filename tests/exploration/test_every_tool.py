"""Every tool on every sample building, with arguments generated from its JSON schema and filled
from the model (explore.py): each call must end in a success or a refusal in words. A failing
example is shrunk by hypothesis and, under `tasks.py explore`, written out to be kept in
regressions.json (test_regressions.py replays those on every run)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explore import BUILDINGS, LINKED_HOST, arguments, available, explorer, record_failure, settings
from paracore.tools.framework.registry import default_registry

TOOLS = default_registry().names()
# On the linked host: the tools that read inside links, and the writing tools a working set holding
# linked elements must not reach into.
LINK_TOOLS = [name for name in TOOLS if default_registry().get(name).takes_linked
              or "link" in default_registry().get(name).parameters.get("properties", {})
              or (default_registry().get(name).writes and default_registry().get(name).takes_element_ids)]


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("building", BUILDINGS)
def test_every_tool_ends_in_a_result_or_a_refusal_in_words(building, tool):
    if not available(building):
        pytest.skip(f"{building} is not beside the clone (../shared/models)")
    box = explorer(building)
    vocabulary = box.vocabulary
    views = vocabulary.views + vocabulary.schedules[:2]

    @settings()
    @given(args=arguments(tool, vocabulary),
           working_set=st.one_of(st.lists(st.sampled_from(vocabulary.all_ids), max_size=6),
                                 st.sampled_from(list(vocabulary.ids_by_category.values())).map(lambda ids: ids[:8])),
           view=st.sampled_from(views))
    def explore(args, working_set, view):
        outcome = box.call(tool, args, working_set=working_set, view=view)
        if outcome.problems:
            record_failure({"building": building, "tool": tool, "arguments": args, "working_set": working_set,
                            "view": view, "problems": outcome.problems})
        assert not outcome.problems, f"{tool}({args}) on {building}, view {view!r}: {outcome.problems}\n" \
                                     f"{outcome.content[:600]}"

    explore()


@pytest.mark.parametrize("tool", LINK_TOOLS)
def test_every_link_tool_on_the_linked_host_ends_in_a_result_or_a_refusal_in_words(tool):
    if not available(LINKED_HOST):
        pytest.skip("the linked samples are not beside the clone (../shared/models)")
    box = explorer(LINKED_HOST)
    vocabulary = box.vocabulary

    @settings()
    @given(args=arguments(tool, vocabulary),
           working_set=st.lists(st.one_of(st.sampled_from(vocabulary.all_ids), st.sampled_from(vocabulary.linked_ids)),
                                max_size=8))
    def explore(args, working_set):
        outcome = box.call(tool, args, working_set=working_set)
        if outcome.problems:
            record_failure({"building": LINKED_HOST, "tool": tool, "arguments": args, "working_set": working_set,
                            "problems": outcome.problems})
        assert not outcome.problems, f"{tool}({args}) on {LINKED_HOST}: {outcome.problems}\n{outcome.content[:600]}"

    explore()
