"""Structure: the structural types loaded (list_structural_types); structural columns at points
(place_structural_columns), beams between points or columns (place_beams), isolated footings under
columns and wall foundations under walls (place_footings, place_wall_foundations)."""
