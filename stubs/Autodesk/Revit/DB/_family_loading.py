"""Document.LoadFamily and IFamilyLoadOptions: what the stand-in can and cannot load.

The stand-in cannot read an .rfa file (Revit's family format is not published), so
``LoadFamily(filename[, IFamilyLoadOptions])`` refuses with InvalidOperationException, saying so
and what it has instead: the families its model's file brought and its library
(revit_standin/family_library.py), loaded already. It checks its arguments first, as Autodesk
documents: an empty filename is refused (ArgumentException), and null options
(ArgumentNullException); a path where no file is loads nothing (False, as the return value's
documentation allows; what Revit does there is not documented: behaviour_checks/families.py). A
file named as a family the model has asks the options' OnFamilyFound (the stand-in takes the file's
name for its family's and cannot tell whether it changed): false cancels, and nothing is loaded. ``LoadFamily(Document)``
(loading a family document edited through the API) is not modelled either: the stand-in opens no
family documents.
"""
from __future__ import annotations

import os

from ._enums import _RevitEnum


class FamilySource(_RevitEnum):
    Project = 0
    Family = 1


class IFamilyLoadOptions:
    """Interface: OnFamilyFound(familyInUse) -> (load, overwriteParameterValues);
    OnSharedFamilyFound(sharedFamily, familyInUse) -> (load, FamilySource, overwriteParameterValues)."""

    def OnFamilyFound(self, familyInUse, overwriteParameterValues=None):  # noqa: N802, N803
        return False, False

    def OnSharedFamilyFound(self, sharedFamily, familyInUse, source=None, overwriteParameterValues=None):  # noqa: N802, N803
        return False, FamilySource.Family, False


def load_family(document, args):
    """(filename) -> bool; (filename, IFamilyLoadOptions) -> (bool, Family), pythonnet's form of the out
    parameter."""
    from Autodesk.Revit.Exceptions import ArgumentException, ArgumentNullException, InvalidOperationException
    from revit_standin.family_library import LIBRARY
    if not args or not isinstance(args[0], str) or len(args) > 2 or \
            (len(args) == 2 and args[1] is not None and not isinstance(args[1], IFamilyLoadOptions)):
        from revit_standin.pythonnet_rules import no_method_matches
        raise no_method_matches("Document.LoadFamily", args)
    document._require_transaction()
    filename = args[0]
    if not filename:
        raise ArgumentException("filename is empty.", "filename")
    if len(args) == 2 and args[1] is None:
        raise ArgumentNullException("familyLoadOptions")
    if not os.path.isfile(filename):
        return (False, None) if len(args) == 2 else False
    loaded = _loaded_family(document, os.path.splitext(os.path.basename(filename))[0])
    if loaded is not None and len(args) == 2 and not _continue(args[1], document, loaded):
        return False, None       # "Return true to continue loading the family, false to cancel."
    names = ", ".join(family for _, family, *_ in LIBRARY)
    raise InvalidOperationException(
        f"The Revit stand-in cannot read .rfa files, so '{os.path.basename(filename)}' was not loaded. It has the "
        f"families of the model's own file loaded, and a library of one family of each placement: {names}.")


def _loaded_family(document, name: str):
    """The family of the model named as the file (the stand-in takes the file's name for the family's)."""
    from ._elements import Family
    return next((e for e in document._elements.values() if isinstance(e, Family) and e.Name == name), None)


def _continue(options, document, family) -> bool:
    """The options' answer to OnFamilyFound (the family is loaded; the stand-in cannot tell whether the
    file's differs, so it asks as Revit does for a changed one)."""
    from ._elements import FamilyInstance
    types = {i.Value for i in family.GetFamilySymbolIds()}
    in_use = any(isinstance(e, FamilyInstance) and e._state.get("type_id") in types for e in document._elements.values())
    answer = options.OnFamilyFound(in_use)
    return bool(answer[0] if isinstance(answer, tuple) else answer)
