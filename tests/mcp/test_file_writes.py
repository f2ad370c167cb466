"""Tools that write files, over MCP: what they do and what their hints say agree (issue 36, item 12).

export_parameters and export_schedule change nothing in the model but write a file in the user's
Documents: a client that runs read-only tools without asking must not run them unasked, so they
are not ``readOnlyHint``; they never replace a file (``destructiveHint`` false), and a second
identical call writes a second, numbered file (``idempotentHint`` false). A ``--read-only`` server
neither lists them nor runs them."""
from __future__ import annotations

import anyio
import pytest
from pydantic import BaseModel

from mcp_support import client, http_server, text
from paracore.mcp.catalogue import tool_infos
from paracore.mcp.server import mcp_tool
from paracore.tools.framework import export_files
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.framework.registry import default_registry

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
LIMIT = 60
EXPORT = {"category": "Doors", "parameters": ["Mark"], "path": "doors.csv"}


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture
def documents(tmp_path, monkeypatch):
    folder = tmp_path / "Documents"
    folder.mkdir()
    monkeypatch.setattr(export_files, "documents_folder", lambda: folder)
    return folder


class ReportArgs(BaseModel):
    path: str


def hints(tools, name):
    [tool] = [tool for tool in tools if tool.name == name]
    return tool.annotations


async def test_an_export_writes_a_new_file_each_time_and_its_hints_say_so(documents):
    with http_server(all_tools=True) as served, anyio.fail_after(LIMIT):
        async with client(served.url) as session:
            tools = (await session.list_tools()).tools
            first = await session.call_tool("export_parameters", EXPORT)
            second = await session.call_tool("export_parameters", EXPORT)
    assert not first.is_error and not second.is_error, (text(first), text(second))
    assert sorted(path.name for path in documents.iterdir()) == ["doors (2).csv", "doors.csv"]
    said = hints(tools, "export_parameters")
    # It wrote a file: not read-only. It replaced none: not destructive. Twice is two files: not idempotent.
    assert (said.read_only_hint, said.destructive_hint, said.idempotent_hint) == (False, False, False)
    said = hints(tools, "export_schedule")
    assert (said.read_only_hint, said.destructive_hint, said.idempotent_hint) == (False, False, False)


async def test_a_read_only_server_neither_lists_nor_runs_a_tool_that_writes_files(documents):
    with http_server(read_only=True, all_tools=True) as served, anyio.fail_after(LIMIT):
        async with client(served.url) as session:
            listed = {tool.name for tool in (await session.list_tools()).tools}
            refused = await session.call_tool("export_parameters", EXPORT)
            read = await session.call_tool("search_elements", {"category": "Doors"})
    assert not listed & {"export_parameters", "export_schedule", "create_wall"}
    assert "search_elements" in listed and not read.is_error
    assert refused.is_error and "read-only" in text(refused) and "writes files" in text(refused)
    assert list(documents.iterdir()) == []


def test_every_tool_the_registry_says_writes_files_is_a_file_writer_to_mcp():
    """The set is the registry's tools that create files: through export_files (write_new), or as
    an export job whose files Revit writes under names claimed first (tools/exports: ExportJob). A
    new exporting tool that does not declare it fails here. The tools known by name from before the
    flag (FILE_WRITING_TOOLS) are among them."""
    from paracore.mcp.backend import FILE_WRITING_TOOLS
    load_tools()
    registry = default_registry()
    writers = {spec.name for spec in registry.specs() if _reaches(spec, ("write_new", "ExportJob"))}
    declared = {spec.name for spec in registry.specs() if spec.writes_files}
    assert writers == declared and FILE_WRITING_TOOLS <= declared
    infos = {info.name: info for info in tool_infos(registry)}
    for name in declared:
        annotations = mcp_tool(infos[name]).annotations
        assert not annotations.read_only_hint and annotations.destructive_hint is False
        assert not infos[name].read_only and not infos[name].idempotent


def _reaches(spec, wanted: tuple[str, ...]) -> bool:
    """Whether the tool's function names one of ``wanted``, directly or through its module's helpers."""
    import inspect
    function = spec.function
    module = inspect.getmodule(function)
    seen, todo = set(), [function]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        names = set(current.__code__.co_names)
        if names & set(wanted):
            return True
        todo += [getattr(module, name) for name in names
                 if inspect.isfunction(getattr(module, name, None)) and getattr(module, name).__module__ == module.__name__]
    return False


def test_a_revit_whose_catalogue_predates_the_flag_still_has_its_exports_announced_as_file_writers():
    """A Revit running an older Paracore sends tools without ``writes_files``: paracore mcp still
    knows its exports write files."""
    from paracore.mcp.backend import ToolInfo
    old = {"name": "export_schedule", "description": "Export.", "input_schema": {"type": "object"},
           "writes": False, "destructive": False, "idempotent": True}
    info = ToolInfo.from_dict(old)
    assert info.writes_files and not info.read_only and not info.idempotent
    assert ToolInfo.from_dict(info.to_dict()) == info


def test_a_tool_that_declares_it_writes_files_is_no_read_only_tool_to_mcp():
    """A plugin's tool (or a new one of Paracore's) says so in its declaration, as the exports do:
    ``@tool(writes_files=True)``, not a list of names kept in the MCP server."""
    from paracore.tools.framework.registry import Registry, tool

    registry = Registry()

    @tool(registry=registry, writes_files=True)
    def save_report(ctx, args: ReportArgs):
        """Write a report file."""

    @tool(registry=registry)
    def count_walls(ctx, args: ReportArgs):
        """Count the walls."""

    assert registry.get("save_report").writes_files and not registry.get("count_walls").writes_files
    infos = {info.name: info for info in tool_infos(registry)}
    assert not infos["save_report"].read_only and not infos["save_report"].idempotent
    assert infos["count_walls"].read_only
    assert [info.name for info in tool_infos(registry, read_only=True)] == ["count_walls"]
    load_tools()
    assert {spec.name for spec in default_registry().specs() if spec.writes_files} == {
        "export_parameters", "export_schedule", "export_pdf", "export_cad", "export_model"}
