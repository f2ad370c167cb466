"""load_family: load a family from an .rfa file (one file, or each .rfa of a folder such as the firm's
library) with Document.LoadFamily(path, IFamilyLoadOptions), a family already in the model kept or
overwritten as asked. The options answer Revit's questions (IFamilyLoadOptions.OnFamilyFound,
OnSharedFamilyFound): "keep" declines to load over the family in the model; "overwrite" loads over
it and overwrites its parameter values. The Revit stand-in reads no .rfa file and says so, with
what it has instead (stubs/Autodesk/Revit/DB/_family_loading.py). Revit is imported inside the
functions only.
"""
from __future__ import annotations

import os
from typing import Literal

from pydantic import BaseModel, Field

from paracore.revit import dotnet
from paracore.tools.families.family_types import family_kind
from paracore.tools.framework.lookup import category_of
from paracore.tools.framework.read_back import ReadBack
from paracore.tools.framework.registry import tool
from paracore.tools.framework.results import Change, ToolError, ToolOutput
from paracore.tools.framework.wording import listed

MAX_FILES = 20      # .rfa files one call loads from a folder


class LoadFamilyArgs(BaseModel):
    path: str = Field(description="An .rfa file, or a folder: each .rfa in it (at most 20).")
    if_loaded: Literal["keep", "overwrite"] = Field(
        "keep", description="A family of that name already in the model: keep it, or overwrite it and its "
                            "parameter values.")


@dotnet.defined_once("Paracore.Families.LoadOptions")
def LoadOptions():  # noqa: N802 - binds the class
    from Autodesk.Revit import DB

    class LoadOptions(DB.IFamilyLoadOptions):
        """Revit's questions while loading a family already in the model: ``overwrite`` answers them."""

        __namespace__ = "Paracore.Families"
        overwrite = False

        def OnFamilyFound(self, familyInUse, overwriteParameterValues=None):  # noqa: N802, N803
            return self.overwrite, self.overwrite

        def OnSharedFamilyFound(self, sharedFamily, familyInUse, source=None,  # noqa: N802, N803
                                overwriteParameterValues=None):
            return self.overwrite, DB.FamilySource.Family, self.overwrite

    return LoadOptions


def _unquoted(path: str) -> str:
    """The path as pasted, without the quotes Windows Explorer's "Copy as path" puts around it."""
    path = path.strip()
    if len(path) >= 2 and path[0] == path[-1] and path[0] in "\"'":
        path = path[1:-1].strip()
    return path


def _files(path: str) -> list[str]:
    path = _unquoted(path)
    if os.path.isdir(path):
        files = sorted(os.path.join(path, name) for name in os.listdir(path) if name.lower().endswith(".rfa"))
        if not files:
            raise ToolError(f"The folder '{path}' holds no .rfa file. Give a family file or a folder of them.")
        if len(files) > MAX_FILES:
            raise ToolError(f"The folder '{path}' holds {len(files)} .rfa files; one call loads at most {MAX_FILES}. "
                            "Give the files one by one, or a smaller folder.")
        return files
    if not path.lower().endswith(".rfa"):
        raise ToolError(f"'{path}' is not an .rfa family file. Give the path of one, or of a folder of them.")
    if not os.path.isfile(path):
        raise ToolError(f"There is no file '{path}'. Check the path (a family file, .rfa) and ask again.")
    return [path]


def _describe(ctx, args: LoadFamilyArgs) -> str:
    files = _files(args.path)
    names = listed([os.path.splitext(os.path.basename(f))[0] for f in files], 5)
    loaded = ("overwritten, with its parameter values" if args.if_loaded == "overwrite" else "kept as it is")
    return (f"Load {len(files)} famil{'y' if len(files) == 1 else 'ies'} ({names}); a family of that name already in "
            f"the model is {loaded}")


@tool(writes=True, working_set_policy="none", describe=_describe)
def load_family(ctx, args: LoadFamilyArgs):
    """Load families into the model from an .rfa file or a folder of them (the firm's library): a family
    already loaded is kept or overwritten (if_loaded). Reports each family's category, how it is placed
    and its types, read back from the model.
    """
    files = _files(args.path)
    options = LoadOptions()
    options.overwrite = args.if_loaded == "overwrite"
    outcomes = [_load(ctx, path, options) for path in files]
    return ToolOutput(change=Change(
        action=f"Loading {len(files)} family file(s)",
        hint="Check the files open in Revit's Family Editor, then ask again.",
        compare=lambda read_back: _compare(ctx, read_back, outcomes),
        report=lambda: _report(ctx, outcomes, args.if_loaded)))


def _load(ctx, path: str, options) -> tuple[str, int | None, bool]:
    """(the family's name, its id, whether it was loaded now)."""
    name = os.path.splitext(os.path.basename(path))[0]
    try:
        result = ctx.doc.LoadFamily(path, options)
    except Exception as error:   # Revit's refusal: the whole call is rolled back
        message = str(getattr(error, "Message", "") or error).strip()
        raise ToolError(f"Revit could not load '{name}': {message} Nothing was loaded.") from None
    loaded, family = result if isinstance(result, tuple) else (bool(result), None)
    family = family or _family_named(ctx, name)
    return name, ctx.id_value(family.Id) if family is not None else None, bool(loaded)


def _family_named(ctx, name: str):
    from Autodesk.Revit import DB
    return next((f for f in DB.FilteredElementCollector(ctx.doc).OfClass(DB.Family) if f.Name == name), None)


def _compare(ctx, read_back: ReadBack, outcomes) -> None:
    for name, family_id, _ in outcomes:
        family = ctx.doc.GetElement(ctx.element_id(family_id)) if family_id is not None else None
        read_back.same(f"family '{name}'", "existence", "in the model", "in the model" if family is not None
                       else "not in the model")


def _report(ctx, outcomes, if_loaded: str) -> str:
    rows = []
    for name, family_id, loaded in outcomes:
        family = ctx.doc.GetElement(ctx.element_id(family_id))
        types = [ctx.doc.GetElement(i) for i in family.GetFamilySymbolIds()]
        verb = "loaded" if loaded else ("already loaded, kept as it was" if if_loaded == "keep" else "reloaded")
        category = category_of(types[0]) if types else "no category"
        rows.append(f"'{name}' (id {family_id}): {verb}; {category}, {family_kind(family).words}; types: "
                    f"{listed(sorted(t.Name for t in types), 6)}")
    return "; ".join(rows) + ". place_family_instances places them."
