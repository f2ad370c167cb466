"""Finding and reading elements: get_model_overview, search_elements, get_element_info,
get_parameters, list_levels, list_types, list_views, get_selection, get_warnings and
filter_working_set (query_tools), the search's conditions (element_query), and the model's
summary for `paracore model` and replays (overview)."""
