"""Tools that need the firm's licence client, which is not installed."""
from pydantic import BaseModel

from paracore.tools.framework.registry import tool


class NoArgs(BaseModel):
    pass


@tool
def licence_status(ctx, args: NoArgs) -> str:
    """Say whether the firm's licence is valid."""
    return "valid"


import paracore_no_such_licence_client  # noqa: E402,F401 - fails: the module is left out, licence_status too
