"""Parameters' values and the spreadsheet round trip: values found by name and converted
(parameter_values), their units (parameter_units), lengths no one can mean (parameter_bounds), the
table, its file and what spreadsheet programs make of it (parameter_table, parameter_sheet,
parameter_rewrites), an edited sheet against the model (parameter_import, import_ownership), and
export_parameters / import_parameters (spreadsheet_tools)."""
