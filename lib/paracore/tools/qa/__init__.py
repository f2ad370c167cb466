"""Quality and the firm's standards: check_model, the checks run before issuing a model (qa_tools),
use_standard, which reads one of the firm's standards (standard_tools), and purge_unused, Revit's
Purge Unused in one approved step (purge_tools)."""
