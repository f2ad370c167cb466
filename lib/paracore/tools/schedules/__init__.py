"""Schedules: create one, add fields, sort and filter it (schedule_tools); export it to CSV and
compare two (schedule_export_tools)."""
