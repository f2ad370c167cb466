"""What Revit says about a parameter without an element that has it: LabelUtils.GetLabelFor
(BuiltInParameter), ParameterUtils (a built-in parameter's ForgeTypeId and back),
Document.GetTypeOfStorage (given to Document by ``give_storage_member``) and ParameterElement.

What the stand-in models (docs/REVIT_BEHAVIOUR.md, "Parameters without an element"):
- a built-in parameter's label is the name the stand-in gives it on its elements (Revit's label in
  the English UI: "Comments", "Unconnected Height"); a BuiltInParameter the stand-in gives no
  element raises InvalidOperationException, as Revit does for one it "cannot find" (Revit names
  far more: the stand-in only knows its own);
- ParameterUtils.GetParameterTypeId(bip) is "autodesk.revit.parameter:<name>-1.0.0", <name> the
  enum's name (Revit's own ids are not documented; the stand-in only promises the round trip
  through GetBuiltInParameter, which refuses any other id with ArgumentException, and
  IsBuiltInParameter);
- Document.GetTypeOfStorage(parameterTypeId) is the built-in parameter's storage type, and raises
  ArgumentException for an id that "does not identify a built-in parameter" (Autodesk's page);
- ParameterElement.GetDefinition() returns its InternalDefinition. The stand-in's shared and
  project parameters come in from IFC property sets with the elements that carry them and are not
  elements of their own: no ParameterElement exists in a stand-in model.
"""
from __future__ import annotations

from revit_standin.guard import api_class

from ._element import Element
from ._enums import BuiltInParameter
from ._ids import ElementId
from ._units import ForgeTypeId

_PREFIX = "autodesk.revit.parameter:"
_SUFFIX = "-1.0.0"


def _argument(message: str, name: str):
    from Autodesk.Revit.Exceptions import ArgumentException
    return ArgumentException(message, name)


def _definitions() -> dict:
    """bip -> the stand-in's ParamDef of it, from every kind of element the stand-in makes."""
    from . import _params
    found = {}
    for value in vars(_params).values():
        if isinstance(value, tuple):
            for definition in value:
                if isinstance(definition, _params.ParamDef) and definition.bip is not None:
                    found.setdefault(definition.bip, definition)
    found.setdefault(BuiltInParameter.ELEM_PARTITION_PARAM, _params.workset_definition(False))
    return found


_KNOWN: dict = {}


def built_in_definition(bip):
    """The stand-in's definition of ``bip``; None when it gives no element that parameter."""
    if not _KNOWN:
        _KNOWN.update(_definitions())
    return _KNOWN.get(BuiltInParameter(int(bip)))


@api_class(thread_free=True)
class LabelUtils:
    @staticmethod
    def GetLabelFor(value, language=None):  # noqa: N802
        """GetLabelFor(BuiltInParameter[, LanguageType]): the parameter's name as the UI shows it."""
        if not isinstance(value, BuiltInParameter):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("LabelUtils.GetLabelFor", (value,))
        definition = built_in_definition(value)
        if definition is None:   # Autodesk: "InvalidOperationException Thrown when the BuiltInParameter cannot be found."
            from Autodesk.Revit.Exceptions import InvalidOperationException
            raise InvalidOperationException(f"The BuiltInParameter {value.name} cannot be found.")
        return definition.name


@api_class(thread_free=True)
class ParameterUtils:
    @staticmethod
    def GetParameterTypeId(builtInParameter) -> ForgeTypeId:  # noqa: N802, N803
        bip = BuiltInParameter(int(builtInParameter))
        if bip == BuiltInParameter.INVALID:
            raise _argument("builtInParameter is INVALID.", "builtInParameter")
        return ForgeTypeId(f"{_PREFIX}{bip.name}{_SUFFIX}")

    @staticmethod
    def GetBuiltInParameter(parameterTypeId: ForgeTypeId):  # noqa: N802, N803
        name = _bip_name(parameterTypeId)
        if name is None:
            raise _argument("parameterTypeId is not a built-in parameter identifier.", "parameterTypeId")
        return BuiltInParameter[name]

    @staticmethod
    def IsBuiltInParameter(value) -> bool:  # noqa: N802
        """IsBuiltInParameter(ElementId) / IsBuiltInParameter(ForgeTypeId)."""
        if isinstance(value, ForgeTypeId):
            return _bip_name(value) is not None
        if not isinstance(value, ElementId):
            from revit_standin.pythonnet_rules import no_method_matches
            raise no_method_matches("ParameterUtils.IsBuiltInParameter", (value,))
        return value._value < 0 and value._value in {int(b) for b in BuiltInParameter}


def _bip_name(type_id: ForgeTypeId) -> str | None:
    text = type_id.TypeId if type_id is not None else ""
    if not (text.startswith(_PREFIX) and text.endswith(_SUFFIX)):
        return None
    name = text[len(_PREFIX):-len(_SUFFIX)]
    return name if name in BuiltInParameter.__members__ and name != "INVALID" else None


def get_type_of_storage(document, parameterTypeId: ForgeTypeId):  # noqa: N803
    """Document.GetTypeOfStorage(ForgeTypeId)."""
    if parameterTypeId is None:
        from Autodesk.Revit.Exceptions import ArgumentNullException
        raise ArgumentNullException("A non-optional argument was NULL", "parameterTypeId")
    name = _bip_name(parameterTypeId)
    definition = built_in_definition(BuiltInParameter[name]) if name is not None else None
    if definition is None:
        raise _argument("parameterTypeId does not identify a built-in parameter.", "parameterTypeId")
    return definition.storage


@api_class
class ParameterElement(Element):
    def GetDefinition(self):  # noqa: N802
        from ._params import InternalDefinition
        return InternalDefinition(self._state["definition"])
