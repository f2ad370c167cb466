"""Creating and changing the model: walls, curved walls, floors, levels, doors and windows on a wall
(creation_tools); set_parameter, change_type, move, copy, rotate, delete (modify_tools)."""
