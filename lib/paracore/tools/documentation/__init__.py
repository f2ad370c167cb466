"""Documentation: sheets (sheet_tools), renaming views and sheets and renumbering sheets and viewports
(rename_tools, renumber_tools, with the patterns and uniqueness rules they share in naming_patterns),
tags, text notes and dimensions (annotation_tools) and the points on a view's plane they are placed by
(view_plane)."""
