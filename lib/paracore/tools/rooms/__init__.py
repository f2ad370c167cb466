"""Rooms: place them, read them, renumber elements in order (room_tools)."""
