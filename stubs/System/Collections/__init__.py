"""Stand-in for System.Collections (only the Generic sub-namespace is used)."""

__all__ = []
