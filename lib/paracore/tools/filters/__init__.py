"""View filters: create a rule-based filter (categories and conditions), apply it to views or view
templates with its visibility and graphic overrides, list the filters and where they are applied,
remove one from views (filter_tools); the conditions as Revit's rules and back (filter_rules)."""
