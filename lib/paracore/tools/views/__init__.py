"""Views: open, isolate, colour, 3D views (view_tools), view templates and duplicated views
(view_template_tools), a picture of a view for the model (capture_tools)."""
