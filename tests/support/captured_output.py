"""A stand-in for a terminal stream: what the chat printed, as one text."""
from __future__ import annotations


class CapturedOutput:
    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text

    def flush(self):
        pass
