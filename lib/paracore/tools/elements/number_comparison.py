"""How the searches compare numbers: one comparison, with a tolerance within which values are equal.

search_elements' conditions use the displayed rounding of the condition's value; the layer condition
uses the precision of the thicknesses a file wrote. Pure Python, no Revit.
"""
from __future__ import annotations


def compare_numbers(value: float, op: str, target: float, tolerance: float) -> bool:
    """``value op target`` where values within ``tolerance`` are equal (the displayed rounding of a
    condition, or a file's own precision): the one comparison of numbers the searches make."""
    if op == "=":
        return abs(value - target) <= tolerance
    if op == "!=":
        return abs(value - target) > tolerance
    if op == "<":
        return value < target - tolerance
    if op == "<=":
        return value <= target + tolerance
    if op == ">":
        return value > target + tolerance
    return value >= target - tolerance
