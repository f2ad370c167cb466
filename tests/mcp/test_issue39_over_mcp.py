"""Issue 39's tools through the official MCP SDK client, as a firm's assistant would call them: the
``families``, ``grids`` and ``structure`` toolsets turned on with use_toolset add their tools; every
write asks the client for approval (elicitation) saying what it will do, a declined one changes
nothing, a read-only listing asks nothing; the values written are read back in the model (in feet)."""
from __future__ import annotations

import anyio
import pytest

from mcp_support import client, elicit_with, http_server, text, undo_names
from paracore.core import toolsets

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 90
FEET_PER_M = 1 / 0.3048


@pytest.fixture
def anyio_backend():
    return "asyncio"


def sofas(box) -> list[tuple[float, float, float]]:
    def read(doc):
        from Autodesk.Revit import DB
        return [(i.Location.Point.X, i.Location.Point.Y, i.Location.Rotation)
                for i in DB.FilteredElementCollector(doc).OfClass(DB.FamilyInstance)
                if isinstance(i, DB.FamilyInstance) and getattr(i.Symbol, "FamilyName", "") == "M_Sofa"]
    return box.on_main_thread(read, box.doc)


async def test_the_new_toolsets_turn_on_and_every_write_asks_for_approval_first():
    seen: list[str] = []
    with http_server() as served, anyio.fail_after(LIMIT):
        before = sofas(served.sandbox)
        async with client(served.url, "legacy", elicitation_callback=elicit_with("accept", seen=seen)) as session:
            for name in ("families", "grids", "structure"):
                turned = await session.call_tool("use_toolset", {"name": name})
                assert not turned.is_error and text(turned).startswith(f"The {name} toolset is now on: ")
            listed = {tool.name for tool in (await session.list_tools()).tools}
            listing = await session.call_tool("list_family_types", {"category": "Furniture", "name": "sofa"})
            asked_by_reading = list(seen)
            placed = await session.call_tool("place_family_instances", {
                "family_type": "M_Sofa: 1830mm", "level": "Level 2", "points": [["2 m", "-3 m"]], "rotation": "90°"})
            array = {"across": 2, "up": 2, "spacing_across": ["20'"], "spacing_up": ["6000 mm"],
                     "origin": ["60 m", "0 m"], "across_names": ["G1", "G2"], "up_names": ["GA", "GB"]}
            grids = await session.call_tool("create_grids", {"array": array})
        after = sofas(served.sandbox)
    new = {name for name in listed if toolsets.toolset_of(name) in ("families", "grids", "structure")}
    assert {"place_family_instances", "create_grids", "place_structural_columns", "place_beams"} <= new
    assert not listing.is_error and "M_Sofa: 1830mm" in text(listing) and asked_by_reading == []
    assert not placed.is_error, text(placed)
    assert not grids.is_error and "Created 4 grids" in text(grids), text(grids)
    assert any("M_Sofa: 1830mm" in message for message in seen), seen
    assert any("Create 4 grids" in message for message in seen), seen
    [(x, y, turn)] = [s for s in after if s not in before]
    assert (x, y) == (pytest.approx(2 * FEET_PER_M), pytest.approx(-3 * FEET_PER_M)) and turn == pytest.approx(1.5708, abs=1e-4)


async def test_a_placement_declined_in_the_client_is_an_error_and_changes_nothing():
    with http_server() as served, anyio.fail_after(LIMIT):
        before, history = sofas(served.sandbox), undo_names(served.sandbox)
        async with client(served.url, "legacy", elicitation_callback=elicit_with("decline")) as session:
            await session.call_tool("use_toolset", {"name": "families"})
            placed = await session.call_tool("place_family_instances", {
                "family_type": "M_Sofa: 1830mm", "level": "Level 2", "points": [["2 m", "-3 m"]]})
        assert placed.is_error
        assert sofas(served.sandbox) == before and undo_names(served.sandbox) == history
