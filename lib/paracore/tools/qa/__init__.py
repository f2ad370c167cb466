"""Quality and the firm's standards: check_model, the checks run before issuing a model (qa_tools),
and use_standard, which reads one of the firm's standards (standard_tools)."""
