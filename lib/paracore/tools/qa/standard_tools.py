"""``use_standard``: the model reads one of the firm's standards (paracore.core.standards).

The system prompt lists the standards by name and description only; the text of one reaches the
model when it calls this tool, as a toolset's tools do after use_toolset (docs/STANDARDS.md). The
tool's definition names no standard, so it stays byte-identical whatever the firm folder holds;
an unknown name, or none, is answered with the list.
"""
from __future__ import annotations

from pydantic import BaseModel, Field

from paracore.core import standards
from paracore.core.display import display_text
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import ToolError

LIST_LIMIT = 1_400   # characters of the list of standards in a result
PROBLEMS_LIMIT = 480  # characters of the files that failed to parse (the result stays under 2,000)
PROBLEMS_SHOWN = 3    # files named; "… and N more" for the rest


class UseStandardArgs(BaseModel):
    name: str | None = Field(None, max_length=40, description="e.g. door-numbering; null lists them.")


@tool(working_set_policy="none")
def use_standard(ctx, args: UseStandardArgs) -> str:
    """Read a firm standard (how the office numbers, names and fills things in) before work it covers."""
    loaded = standards.current()
    if not args.name or not args.name.strip():
        return _listing(loaded, "The standards")
    standard = loaded.find(args.name)
    if standard is None:
        raise ToolError(_listing(loaded, f"There is no standard {display_text(args.name.strip())!r}. The standards"))
    return text_of(standard)


use_standard.reference = (
    "The standards are markdown files, each with a front matter between two `---` lines: `name`, "
    "`description` (one line), `when` (when to use it), and optionally the rules check_model checks, "
    "`required_parameters` (category: parameters) and `naming` (`Views`, `Sheets`, `Sheet names` or "
    "`Category.Parameter`: a regular expression). Paracore bundles door-numbering, required-parameters, "
    "sheet-naming and view-naming; the folder of the setting `standards_folder` (a network share in practice) "
    "adds its own, and a file there with a bundled standard's name replaces it. The system prompt lists the "
    "names and descriptions only; the text reaches the model in this tool's result. "
    "Format, folder and errors: [STANDARDS.md](STANDARDS.md).")


def text_of(standard: standards.Standard) -> str:
    """What the model reads: where the standard comes from, its text, and the rules check_model checks."""
    origin = "bundled with Paracore" if standard.origin == "bundled" else "the firm's"
    replaces = ", replacing the bundled one" if standard.replaces is not None else ""
    lines = [f"Standard {standard.name} ({origin}{replaces}): {standard.description}", "", standard.text]
    rules = rules_text(standard)
    if rules:
        lines += ["", f"check_model with standard '{standard.name}' checks: {rules}"]
    return "\n".join(lines)


def rules_text(standard: standards.Standard) -> str:
    parts = [f"{category} must have {', '.join(names)}" for category, names in standard.required_parameters.items()]
    parts += [f"{target} must match {pattern}" for target, pattern in standard.naming.items()]
    return "; ".join(parts) + ("." if parts else "")


def _listing(loaded: standards.StandardsLoad, head: str) -> str:
    """The standards, then the files and folder that could not be read: a firm standard that fails to
    parse is otherwise invisible outside Revit (no Settings window there)."""
    if not loaded.standards:
        text = f"{head}: none are loaded (Settings > Firm standards)."
    else:
        text = f"{head} ({len(loaded.standards)}), read one with use_standard name:\n{loaded.listing()}"
        text = text if len(text) <= LIST_LIMIT else text[:LIST_LIMIT - 1] + "…"
    problems = loaded.not_loaded(limit=PROBLEMS_SHOWN)
    if problems:
        problems = problems if len(problems) <= PROBLEMS_LIMIT else problems[:PROBLEMS_LIMIT - 1] + "…"
        text += f"\n{problems} (docs/STANDARDS.md gives the format; tell the user, who can correct the file.)"
    return text
