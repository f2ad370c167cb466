"""The working set and the Revit selection: get, set, add to, remove from and clear the working set,
bring the selection into it, select its elements (working_set_tools)."""
