"""Which open document is which: the key a document's session is filed under, and the way back."""
from __future__ import annotations


def document_key(doc) -> str:
    """A stable key for a document's session: its path when saved, its title otherwise."""
    return doc.PathName or f"unsaved:{doc.Title}"


def find_document(uiapp, key: str):
    """The open document whose session key is ``key``, or None."""
    return next((doc for doc in uiapp.Application.Documents if document_key(doc) == key), None)
