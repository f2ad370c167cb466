"""The stand-in's one kind of error for a model that cannot be opened as asked: a file that is no
IFC building or is damaged, no IFC reader installed, a colleague's elements the model does not have.
Each says in one line what to give instead; the command line prints it and exits 2."""
from __future__ import annotations


class CannotOpen(ValueError):
    pass
