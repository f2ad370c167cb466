"""The script library (seed 002): scripts the agent finds, shows and runs with the user's approval."""
