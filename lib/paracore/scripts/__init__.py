"""The script library (docs/SCRIPTS.md): scripts the agent finds, shows and runs with the user's approval."""
