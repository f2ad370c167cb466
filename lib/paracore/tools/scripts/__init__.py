"""Code run in Revit: the script library with approval (script_tools) and Python the model writes
(code_tools)."""
