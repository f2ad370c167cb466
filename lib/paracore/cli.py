"""The `paracore` command line: demo, replay, sandbox chat and model summary on the stand-in."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parent / "demos" / "seed000.json"


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paracore", description="Paracore: a conversational agent for Revit. "
                                     "These commands run it against the Revit stand-in.")
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="replay the working-set scenario (curved wall, five doors, select, ask)")
    demo.add_argument("--json", action="store_true", help="print the result as JSON")
    demo.set_defaults(handler=_demo)
    replay = sub.add_parser("replay", help="run a replay file through the agent")
    replay.add_argument("file")
    replay.add_argument("--model", help="stand-in model: a sample name (duplex, ...) or an .ifc path")
    replay.add_argument("--json", action="store_true", help="print one JSON document")
    replay.set_defaults(handler=_replay)
    model = sub.add_parser("model", help="print a summary of a stand-in model")
    model.add_argument("name", nargs="?", default="duplex")
    model.add_argument("--grow", type=int, help="grow the model to at least this many elements first")
    model.set_defaults(handler=_model)
    tools_doc = sub.add_parser("tools-doc", help="print the tools reference (docs/TOOLS.md) in markdown")
    tools_doc.set_defaults(handler=_tools_doc)
    sandbox = sub.add_parser("sandbox", help="chat with the agent against the stand-in")
    sandbox.add_argument("--provider", choices=["anthropic", "openai", "openai-compatible", "gemini"],
                         help="the LLM provider (default: the one in Settings)")
    sandbox.add_argument("--model", help="the provider's model name (default: Settings, then the provider's default)")
    sandbox.add_argument("--base-url", help="the API's base URL, e.g. http://localhost:11434/v1 for Ollama")
    sandbox.add_argument("--building", default="duplex", help="stand-in model: a sample name or an .ifc path")
    sandbox.set_defaults(handler=_sandbox)
    return parser


def _demo(args) -> int:
    return _run_replay_file(str(DEMO), None, args.json)


def _replay(args) -> int:
    return _run_replay_file(args.file, args.model, args.json)


def _run_replay_file(path: str, model: str | None, as_json: bool) -> int:
    """Exit status: 0 when every turn ran as scripted, 1 when a turn failed, 2 for a bad file or model."""
    from .replay import failed_turns, run_replay
    from .replay_file import ReplayFileError, load_replay
    try:
        replay = load_replay(path)
    except (ReplayFileError, OSError) as error:
        print(f"paracore: {error}", file=sys.stderr)
        return 2
    try:
        if as_json:
            result = run_replay(replay, model)
            print(json.dumps(result, ensure_ascii=False, indent=2))
        else:
            from .cli_view import ConversationPrinter
            printer = ConversationPrinter(sys.stdout)
            result = run_replay(replay, model, on_event=printer.on_event)
            printer.final(result)
    except FileNotFoundError as error:
        print(f"paracore: {error}", file=sys.stderr)
        return 2
    failures = failed_turns(result)
    for failure in failures:
        print(f"paracore: the replay stopped at {failure}", file=sys.stderr)
    return 1 if failures else 0


def _model(args) -> int:
    from .sandbox import install_standin
    install_standin()
    from revit_standin.host import RevitHost
    from revit_standin.grow import grow

    from .revit.overview import model_summary_text
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


def _tools_doc(args) -> int:
    from .sandbox import load_tools
    from .tools.registry import default_registry
    from .tools_reference import render
    load_tools()
    sys.stdout.write(render(default_registry()))
    return 0


def _sandbox(args) -> int:
    from .llm.pricing import UsageLog
    from .llm.providers import ProviderNotConfigured, create_model
    from .llm.resilience import RestartingModel
    from .sandbox import Sandbox
    from .settings import load_settings
    from .terminal_chat import run_chat
    settings = load_settings()
    changes = {k: v for k, v in (("provider", args.provider), ("model", args.model), ("base_url", args.base_url)) if v}
    settings = settings.with_changes(**changes) if changes else settings
    try:
        model = create_model(settings)
    except ProviderNotConfigured as error:
        print(f"paracore: {error}\nIn the sandbox you can also pass --provider, --model and --base-url, e.g.\n"
              "  ANTHROPIC_API_KEY=... paracore sandbox --provider anthropic\n"
              "  paracore sandbox --provider openai-compatible --base-url http://localhost:11434/v1 --model qwen3",
              file=sys.stderr)
        return 2
    restarting = RestartingModel(model, on_restart=lambda reason: print(f"  (connection lost: {reason}; retrying)"))
    try:
        sandbox = Sandbox(args.building)
    except FileNotFoundError as error:
        print(f"paracore: {error}", file=sys.stderr)
        return 2
    # The base URL prices a model served on this machine at $0, in the usage line and in the
    # usage log alike (the agent cannot see it through the RestartingModel wrapper).
    base_url = getattr(model, "base_url", None) or settings.base_url
    with sandbox:
        from .agent import ApprovalPolicy
        return run_chat(sandbox, restarting, base_url=base_url,
                        policy=ApprovalPolicy(mode=settings.approval_policy), usage_log=UsageLog(base_url=base_url))
