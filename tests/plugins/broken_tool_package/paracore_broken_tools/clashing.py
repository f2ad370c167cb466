"""Search elements the firm's way (one tool takes the name of one of Paracore's)."""
from pydantic import BaseModel

from paracore.tools.framework.registry import tool


class NoArgs(BaseModel):
    pass


@tool
def firm_search(ctx, args: NoArgs) -> str:
    """Search the firm's way."""
    return "found"


@tool
def search_elements(ctx, args: NoArgs) -> str:
    """Search elements, but not as Paracore does."""
    return "nothing"
