"""The `paracore` command line: demo, replay, sandbox chat and model summary on the stand-in;
session traces (`paracore trace`)."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from pydantic import ValidationError

from paracore.agent import ApprovalPolicy
from paracore.agent.build import build_model
from paracore.app.cli_view import ConversationPrinter
from paracore.app.doctor import run_doctor_outside_revit
from paracore.app.replay import failed_calls, failed_turns, run_replay
from paracore.app.replay_file import ReplayFileError, load_replay
from paracore.app.terminal_chat import run_chat
from paracore.app.tools_reference import render
from paracore.core import resources
from paracore.core.command_line import paracore
from paracore.core.settings import Settings, base_url_problem, read_settings, settings_path
from paracore.hosts.standin import pictures
from paracore.hosts.standin.sandbox import MAX_GROWN_ELEMENTS, Sandbox, install_standin
from paracore.llm.pricing import UsageLog
from paracore.llm.providers import ProviderNotConfigured
from paracore.tools.framework.catalogue import load_tools
from paracore.tools.elements.overview import model_summary_text
from paracore.tools.framework.registry import default_registry
from paracore.trace.recorder import find_trace, list_traces, traces_dir
from paracore.trace.timeline import ExportRefused, Timeline

DEMO = resources.demo("seed000")
WORKSHARED_METAVAR = "USER:CATEGORY:COUNT[@LEVEL]"
WORKSHARED_HELP = ("open the model as a workshared one in which a colleague borrows elements, e.g. "
                   "maria:Walls:3@Level 1 (docs/WORKSHARING.md)")
LINK_METAVAR = "MODEL[@EAST,NORTH[,DEGREES]]"
PICTURES_HELP = ("write a PNG of the active view after each turn, working set highlighted (DIR/turn-01.png, "
                 "...); the session's trace shows it at the end of its turn (paracore trace --export x.html)")
LINK_HELP = ("link another model into it, placed EAST and NORTH metres from its origin and turned DEGREES; "
             "repeat for more links, e.g. --link SampleHouse4@30,-5,90 (docs/WORKING_SET.md)")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["mcp"]:  # its own options and subcommands (paracore.mcp.command)
        try:
            from paracore.mcp.command import main as mcp_main  # lazy: the MCP SDK takes ~1 s to import
        except ModuleNotFoundError as error:
            return _without_the_mcp_extra(error)
        return mcp_main(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    # The terminal shows what the user needs (retries included); log records are for log files,
    # and without a handler Python would print the warnings a second time.
    logging.getLogger("paracore").addHandler(logging.NullHandler())
    _show_plugin_problems(logging.getLogger("paracore.plugins"))
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_went_away()
    except (FileNotFoundError, ValueError) as error:
        if not _is_model_file_error(error):
            raise
        print(f"paracore: {error}", file=sys.stderr)  # one line: a bad building is the user's input
        return 2


# The packages the mcp extra brings (the MCP SDK and what it needs beyond Paracore's own requirements).
MCP_EXTRA_PACKAGES = frozenset({"mcp", "mcp_types", "starlette", "uvicorn", "sse_starlette", "jsonschema", "jwt",
                                "multipart", "python_multipart", "opentelemetry", "httpx_sse", "pydantic_settings"})


def _without_the_mcp_extra(error: ModuleNotFoundError) -> int:
    """`paracore mcp` in a Python where Paracore was installed without its mcp extra: say which
    extra to add and how, in one line (as the stand-in does for the sandbox extra)."""
    missing = (error.name or "").split(".")[0]
    if missing not in MCP_EXTRA_PACKAGES:
        raise error
    print(f"paracore: `paracore mcp` needs Paracore's mcp extra, and {missing} is not installed in this Python. "
          f"Add it: \"{sys.executable}\" -m pip install \"<your Paracore folder>[mcp]\" ([mcp,sandbox] to serve "
          "a stand-in model with --model; the folder you installed Paracore from)", file=sys.stderr)
    return 2


class _PluginProblemsToStderr(logging.Handler):
    """Writes to the ``sys.stderr`` of the moment (a test may have replaced it since)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"paracore: {record.getMessage()}", file=sys.stderr)


def _show_plugin_problems(logger: logging.Logger) -> None:
    """An installed package whose tools were left out is told on stderr, in its one line, by any
    command that loads the tools (docs/PLUGINS.md): the user must see it to fix or uninstall it."""
    if not any(isinstance(handler, _PluginProblemsToStderr) for handler in logger.handlers):
        logger.addHandler(_PluginProblemsToStderr(logging.WARNING))
    logger.propagate = False


def _is_model_file_error(error: Exception) -> bool:
    """A building that cannot be opened as asked: a missing path, or the stand-in's CannotOpen (a
    damaged or non-IFC file, no IFC reader installed, a colleague's elements the model lacks)."""
    if isinstance(error, FileNotFoundError):
        return True
    errors = sys.modules.get("revit_standin.errors")   # loaded with the stand-in, if it ever was
    return errors is not None and isinstance(error, errors.CannotOpen)


def _reader_went_away() -> int:
    """``paracore ... | head`` closed the pipe: stop quietly, as a Unix tool does."""
    try:
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
    except OSError:
        pass
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paracore", description="Paracore: a conversational agent for Revit. "
                                     "These commands run it against the Revit stand-in.")
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="replay the working-set scenario (curved wall, five doors, select, ask)")
    demo.add_argument("--json", action="store_true", help="print the result as JSON")
    demo.set_defaults(handler=_demo)
    replay = sub.add_parser("replay", help="run a replay file through the agent")
    replay.add_argument("file")
    replay.add_argument("--building", "--model", dest="building", type=_named("--building"),
                        help="stand-in building: a sample name (duplex, ...) or an .ifc path (--model: the old name)")
    replay.add_argument("--json", action="store_true", help="print one JSON document")
    replay.add_argument("--workshared", metavar=WORKSHARED_METAVAR, help=WORKSHARED_HELP)
    replay.add_argument("--link", action="append", default=[], metavar=LINK_METAVAR, help=LINK_HELP)
    replay.add_argument("--pictures", metavar="DIR", help=PICTURES_HELP)
    replay.set_defaults(handler=_replay)
    model = sub.add_parser("model", help="print a summary of a stand-in model")
    model.add_argument("name", nargs="?", default="duplex")
    model.add_argument("--grow", type=_grow_count, metavar="N",
                       help=f"grow the model to at least N elements first (1 to {MAX_GROWN_ELEMENTS:,})")
    model.set_defaults(handler=_model)
    view = sub.add_parser("view", help="write a picture (PNG or JPEG) of a view of a stand-in model")
    view.add_argument("name", help="the view's name, e.g. \"Level 1\" or {3D}")
    view.add_argument("--building", "--model", dest="building", default="duplex", type=_named("--building"),
                      help="stand-in building: a sample name (duplex, ...) or an .ifc path")
    view.add_argument("-o", "--output", default=None,
                      help="the picture to write, .png or .jpg (default: the view's name, .png)")
    view.add_argument("--size", type=int, default=pictures.DEFAULT_SIZE,
                      help=f"pixels across, {pictures.MIN_SIZE} to {pictures.MAX_SIZE} (default {pictures.DEFAULT_SIZE})")
    view.set_defaults(handler=_view)
    doctor_command = sub.add_parser("doctor", help="check what can be checked without Revit (Python, the firm "
                                                   "standards and the files that failed to parse)")
    doctor_command.set_defaults(handler=_doctor)
    tools_doc = sub.add_parser("tools-doc", help="print the tools reference (docs/TOOLS.md) in markdown")
    tools_doc.set_defaults(handler=_tools_doc)
    sandbox = sub.add_parser("sandbox", help="chat with the agent against the stand-in")
    sandbox.add_argument("--provider", choices=["anthropic", "openai", "openai-compatible", "gemini"],
                         help="the LLM provider (default: the one in Settings)")
    sandbox.add_argument("--model", type=_named("--model"),
                         help="the provider's model name (default: Settings, then the provider's default)")
    sandbox.add_argument("--base-url", type=_base_url,
                         help="the API's base URL, e.g. http://localhost:11434/v1 for Ollama")
    sandbox.add_argument("--building", default="duplex", type=_named("--building"),
                         help="stand-in model: a sample name or an .ifc path")
    sandbox.add_argument("--workshared", metavar=WORKSHARED_METAVAR, help=WORKSHARED_HELP)
    sandbox.add_argument("--link", action="append", default=[], metavar=LINK_METAVAR, help=LINK_HELP)
    sandbox.add_argument("--pictures", metavar="DIR", help=PICTURES_HELP)
    sandbox.set_defaults(handler=_sandbox)
    trace = sub.add_parser("trace", help="list recorded sessions, or print one session's timeline")
    trace.add_argument("session", nargs="?", help="a session id (or a unique prefix), 'latest', or a .jsonl path")
    trace.add_argument("--export", metavar="FILE", help="write the session's timeline to FILE as one JSON document "
                       "(.html: a web page), in a folder that exists")
    trace.add_argument("--overwrite", action="store_true", help="with --export: replace FILE if it exists")
    trace.add_argument("--dir", help="the traces folder (default: the user's data folder/traces)")
    trace.add_argument("--brief", action="store_true", help="one line per entry, without results")
    trace.set_defaults(handler=_trace)
    sub.add_parser("mcp", help="serve the tools to MCP clients (paracore mcp --help)", add_help=False)
    return parser


def _named(option: str):
    """An argparse type for a name (a model, a building): refused when blank, which would
    otherwise quietly mean the default."""
    def name(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{option} must not be empty: give a name, or leave {option} out for "
                                             "the default")
        return text.strip()
    return name


def _base_url(text: str) -> str:
    problem = base_url_problem(text.strip())
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text.strip()


def _grow_count(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_GROWN_ELEMENTS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is out of bounds: give 1 to {MAX_GROWN_ELEMENTS:,} elements (a million take ~1.3 GB of memory and "
            "~30 s; the benchmarks grow the duplex to 100,000)")
    return count


def _demo(args) -> int:
    return _run_replay_file(str(DEMO), None, args.json)


def _pictures_folder(given: str | None) -> Path | None:
    """The --pictures folder, made if need be; OSError when it cannot be written."""
    if not given:
        return None
    folder = Path(given).expanduser()
    folder.mkdir(parents=True, exist_ok=True)
    if not os.access(folder, os.W_OK):
        raise PermissionError("permission denied")
    return folder


def _say_pictures_folder_error(given: str, error: OSError) -> int:
    print(f"paracore: cannot write pictures to {Path(given).expanduser()}: {error.strerror or error}",
          file=sys.stderr)
    return 2


def _replay(args) -> int:
    try:
        pictures_dir = _pictures_folder(args.pictures)
    except OSError as error:
        return _say_pictures_folder_error(args.pictures, error)
    return _run_replay_file(args.file, args.building, args.json, workshared=args.workshared, links=args.link,
                            pictures_dir=pictures_dir)


def _view(args) -> int:
    """`paracore view NAME --building B -o plan.png`: 0 and the path, or 2 and why not."""
    output = Path(args.output) if args.output else Path(pictures.file_name_for(args.name))
    try:
        pictures.check_output(output)
        with Sandbox(args.building) as sandbox:
            written = sandbox.on_main_thread(
                lambda: pictures.picture_of_view(sandbox.doc, args.name, output, size=args.size))
    except pictures.PictureError as error:
        print(f"paracore: {error}", file=sys.stderr)
        return 2
    print(written)
    return 0


def _run_replay_file(path: str, model: str | None, as_json: bool, workshared: str | None = None,
                     links: list[str] | None = None, pictures_dir: Path | None = None) -> int:
    """Exit status: 0 when every turn ran as scripted, 1 when a turn or a call the replay does not
    mean to fail failed, 2 for a bad file or model."""
    try:
        replay = load_replay(path)
    except (ReplayFileError, OSError) as error:
        print(f"paracore: {error}", file=sys.stderr)
        return 2
    try:
        if as_json:
            result = run_replay(replay, model, workshared=workshared, links=links, pictures=pictures_dir)
            print(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            printer = ConversationPrinter(sys.stdout)
            result = run_replay(replay, model, on_event=printer.on_event, workshared=workshared, links=links,
                                pictures=pictures_dir)
            printer.final(result)
            for picture in result.get("pictures", ()):
                print(f"Picture: {picture}")
            if result.get("trace"):
                print(f"Trace: {result['trace']} ({paracore('trace', 'latest')})")
    except FileNotFoundError as error:
        print(f"paracore: {error}", file=sys.stderr)
        return 2
    failures = failed_turns(result)
    for failure in failures:
        print(f"paracore: the replay stopped at {failure}", file=sys.stderr)
    calls = failed_calls(result, replay)
    for call in calls:   # the model's reply may still say "Done": the exit status does not
        print(f"paracore: {call} (mark the call \"expect_error\": true if the replay means it to fail)",
              file=sys.stderr)
    return 1 if failures or calls else 0


def _trace(args) -> int:
    if not args.session:
        if args.export:
            print("paracore: --export needs a session (an id, a prefix or 'latest')", file=sys.stderr)
            return 2
        traces = list_traces(args.dir)
        folder = args.dir or traces_dir()
        if not traces:
            print(f"No traces in {folder} yet: run `{paracore('demo')}`, or chat in Revit.")
            return 0
        print(f"Sessions in {folder} (newest first):")
        for info in traces:
            from datetime import datetime
            when = datetime.fromtimestamp(info.modified).strftime("%Y-%m-%d %H:%M")
            first = info.first_message if len(info.first_message) <= 60 else info.first_message[:59] + "…"
            print(f"  {info.session}  {when}  {info.turns:>3} turns  {info.size:>9,} bytes  {first}")
        return 0
    try:
        path = find_trace(args.session, args.dir)
    except FileNotFoundError as error:
        print(f"paracore: {error}", file=sys.stderr)
        return 2
    timeline = Timeline.from_file(path)
    if args.export:
        try:
            written = timeline.export(args.export, overwrite=args.overwrite)
        except ExportRefused as error:
            print(f"paracore: {error}", file=sys.stderr)
            return 2
        except OSError as error:
            print(f"paracore: cannot export to {args.export}: {error.strerror or error}", file=sys.stderr)
            return 2
        print(f"Exported {path.stem} to {written} ({written.stat().st_size:,} bytes).")
        return 0
    sys.stdout.write(timeline.to_text(expand=not args.brief))
    return 0


def _model(args) -> int:
    install_standin()
    from revit_standin.grow import grow
    from revit_standin.host import RevitHost

    host = RevitHost()
    try:
        doc = host.open(args.name)
    except FileNotFoundError as error:
        print(f"paracore: {error}", file=sys.stderr)
        return 2
    if args.grow:
        grow(doc, args.grow)
    print(model_summary_text(doc))
    return 0


def _settings_said_aloud() -> Settings:
    """The saved settings; what was ignored in them is said on stderr (the log is silent here)."""
    loaded = read_settings()
    path = settings_path()
    for warning in loaded.warnings:
        print(f"paracore: {warning if str(path) in warning else f'{path}: {warning}'}", file=sys.stderr)
    return loaded.settings


def _first_problem(error: ValidationError) -> str:
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"])
    return f"{where}: {problem['msg'].removeprefix('Value error, ')}" if where else problem["msg"]


def _doctor(args) -> int:
    checks = run_doctor_outside_revit(sys.stdout)
    return 0 if all(check.status == "ok" for check in checks) else 1


def _tools_doc(args) -> int:
    load_tools()
    sys.stdout.write(render(default_registry()))
    return 0


def _sandbox(args) -> int:
    settings = _settings_said_aloud()
    changes = {k: v for k, v in (("provider", args.provider), ("model", args.model), ("base_url", args.base_url)) if v}
    try:
        settings = settings.with_changes(**changes) if changes else settings
    except ValidationError as error:   # the options are checked as they are read; the pair may still clash
        print(f"paracore: {_first_problem(error)}", file=sys.stderr)
        return 2
    try:
        model = build_model(settings)  # its retries are printed as the agent reports them
    except ProviderNotConfigured as error:
        print(f"paracore: {error}\nOutside Revit there is no Settings window: the settings are the file "
              f"{settings_path()} (provider, model, base_url; keys come from the environment), or pass "
              "--provider, --model and --base-url, e.g.\n"
              f"  ANTHROPIC_API_KEY=... {paracore('sandbox')} --provider anthropic\n"
              f"  {paracore('sandbox')} --provider openai-compatible --base-url http://localhost:11434/v1 "
              "--model qwen3",
              file=sys.stderr)
        return 2
    try:
        pictures_dir = _pictures_folder(args.pictures)
    except OSError as error:
        return _say_pictures_folder_error(args.pictures, error)
    try:
        sandbox = Sandbox(args.building, workshared=args.workshared, links=args.link)
    except FileNotFoundError as error:
        print(f"paracore: {error}", file=sys.stderr)
        return 2
    # The base URL prices a model served on this machine at $0, in the usage line and in the
    # usage log alike.
    base_url = getattr(model, "base_url", None) or settings.base_url
    with sandbox:
        return run_chat(sandbox, model, base_url=base_url, policy=ApprovalPolicy(mode=settings.approval_policy),
                        usage_log=UsageLog(base_url=base_url), settings=settings, pictures_dir=pictures_dir)
