"""The tool framework: what every tool is written with, and what makes a catalogue of them.

Declaring and calling a tool: registry (``@tool``, the catalogue's specs, preparing a call), schema
(strict JSON schemas), arguments (reading what the model sent, explaining what was wrong),
linked_arguments ("LINK:ID" elements in a call), forms (values the user may edit while approving).
What a tool returns: results (ToolOutput, ToolError, paging), errors (an exception as text for the
model), read_back (a write compared with what the document holds), wording (counts, short lists).
Shared by tools of several domains: lookup (levels, types, views... by name, with the valid
choices), names (what Revit accepts as a name), reach (Revit's distance limit), worksharing_targets (what a write changes besides its
element_ids), export_files (where files are written and read). The catalogue: catalogue (every
domain package's tools, then the plugins'), plugins (installed packages' tools), toolset_tools
(use_toolset, declared again when plugins add toolsets).

It imports no domain package (pyproject's import-linter contracts)."""
