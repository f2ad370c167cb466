"""Loadable families: list the family types the model holds with how each is placed
(list_family_types), place instances of any of them by the overload of NewFamilyInstance their
placement type takes, hosts and positions read back (place_family_instances), and load a family
from an .rfa file in Revit (load_family)."""
