"""Creating and changing the model: walls, curved walls, floors, levels with their plan views, doors and
windows on a wall (creation_tools); set_parameter, change_type, move, copy, rotate, delete (modify_tools);
grids (grid_tools creates them, grid_edit_tools renames them and sets their extents and bubbles, on the
grids' geometry and names in grid_lines, which the structure tools share);
renaming and moving levels (level_tools)."""
