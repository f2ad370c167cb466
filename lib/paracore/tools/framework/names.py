"""What Revit accepts as a view's, sheet's or schedule's name, or as a sheet number: not empty, and
none of the characters its failure CharactersNotAllowed lists, "Name cannot contain any of the
following characters: {}[]|;<>?`~ or any of the non-printable characters" (ViewSheet.SheetNumber's
documented exceptions say the same; docs/REVIT_BEHAVIOUR.md, "Renaming and renumbering"). Whether a
name is free is each tool's business (views: per view type; sheets: by number)."""
from __future__ import annotations

from paracore.core.display import display_text
from paracore.tools.framework.results import ToolError

PROHIBITED = frozenset("{}[]|;<>?`~")
NAME = 60            # characters of a name quoted in a message


def why_not_a_name(value: str) -> str:
    """Why Revit would refuse ``value`` as a name or a sheet number, or ""."""
    if not value:
        return "it is empty"
    bad = sorted({c for c in value if c in PROHIBITED or not c.isprintable()})
    if bad:
        return f"it holds {' '.join(repr(c) for c in bad)}, which Revit does not allow in names ({{}}[]|;<>?`~)"
    return ""


def refuse_bad_name(value: str, what: str) -> None:
    """A ToolError saying why Revit would refuse ``value`` as ``what`` ("name", "sheet number")."""
    why = why_not_a_name(value)
    if why:
        raise ToolError(f"The {what} '{display_text(value, NAME)}' cannot be used: {why}. Leave those characters out.")
