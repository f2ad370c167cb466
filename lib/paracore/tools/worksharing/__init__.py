"""Workshared models: list the worksets, move elements to another (worksharing_tools)."""
