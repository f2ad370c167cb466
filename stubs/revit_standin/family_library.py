"""The loadable families every stand-in model carries beside the ones its file brought: one of each
placement the sample buildings lack, named as Autodesk's metric content library names them.

The samples carry furniture, plumbing fixtures and structural foundations (level-based), structural
framing (curve-driven) and doors and windows (wall-hosted); none has a wall-hosted family other than
doors and windows, a ceiling-hosted one, a face-based one or a line-based one. Revit's templates
ship few loadable families, so a project that needs these loads them from the content library
(Document.LoadFamily); the stand-in cannot read an .rfa file, so it has them loaded already:

- M_Lavatory-Wall Mounted (Plumbing Fixtures, wall-hosted: OneLevelBasedHosted, Host Wall; "a sink
  against this wall"). The duplex's M_Upper Cabinet-Double Door-Wall is wall-hosted in Autodesk's
  library, but its IFC export carries no host, so it is read as a level-based family.
- M_Downlight - Recessed Can (Lighting Fixtures, ceiling-hosted: OneLevelBasedHosted, Host Ceiling)
- M_Ceiling Light - Flat Round (Lighting Fixtures, face-based: WorkPlaneBased, Host Face)
- M_Generic Model Line Based (Generic Models, line-based: CurveBased, from Autodesk's
  "Metric Generic Model line based.rft" template)

Their types are not active (a loaded family's types are not until one is placed, FamilySymbol.IsActive).
They take fixed ids far above any model's own, like the site's (_locations.SITE_IDS), so that
the elements a model loads and the ones a session creates keep the ids they had before.
"""
from __future__ import annotations

FIRST_ID = 2_000_000_101

# (category, family, placement type, hosting, type name, type parameters in feet)
LIBRARY = (
    ("Plumbing Fixtures", "M_Lavatory-Wall Mounted", "OneLevelBasedHosted", 1, "0560 x 0430mm", {}),
    ("Lighting Fixtures", "M_Downlight - Recessed Can", "OneLevelBasedHosted", 3, "150mm Dia - 230V", {}),
    ("Lighting Fixtures", "M_Ceiling Light - Flat Round", "WorkPlaneBased", 5, "60W - 230V", {}),
    ("Generic Models", "M_Generic Model Line Based", "CurveBased", 0, "Default", {}),
)


def add_family_library(document) -> None:
    """The library's families and their types (while a model is loaded or a project made)."""
    from Autodesk.Revit.DB import Family, FamilyPlacementType, FamilySymbol
    from Autodesk.Revit.DB._element import CATEGORY_NAMES
    ids = iter(range(FIRST_ID, FIRST_ID + 2 * len(LIBRARY)))
    categories = {label: bic.value for bic, label in CATEGORY_NAMES.items()}
    for category_name, family_name, placement, hosting, type_name, params in LIBRARY:
        category = categories[category_name]
        family = Family(document, next(ids), {
            "name": family_name, "family_category": category, "params": {},
            "placement_type": getattr(FamilyPlacementType, placement).value, "hosting": hosting})
        document._index(family)
        document._index(FamilySymbol(document, next(ids), {
            "name": type_name, "category": category, "family_id": family._id, "active": False,
            "params": {"Type Name": type_name, "Family Name": family_name, **params}}))
