"""Documentation: sheets (sheet_tools), tags, text notes and dimensions (annotation_tools) and the
points on a view's plane they are placed by (view_plane)."""
