"""The explicit working-set protocol: finding, validating and applying a script's payload."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paracore.core.protocol import (
    WorkingSetPayload,
    WorkingSetPayloadError,
    apply_payload,
    find_working_set_payload,
)
from paracore.core.working_set import WorkingSet

DOCUMENT = {101: "Walls", 102: "Walls", 201: "Doors", 202: "Doors", 203: "Doors"}


def payload(**changes):
    base = {"paracore_output_type": "working_set_elements", "operation": "replace",
            "element_ids": [101, 102], "display_message": "Created 2 walls."}
    base.update(changes)
    return {k: v for k, v in base.items() if v is not ...}


def exists(element_id):
    return element_id in DOCUMENT


@pytest.fixture
def ws():
    return WorkingSet(lambda ids: {i: DOCUMENT[i] for i in ids if i in DOCUMENT})


# -- finding ---------------------------------------------------------------------------------------

def test_a_dict_payload_is_found():
    found = find_working_set_payload(payload(operation="add", element_ids=[201]))
    assert found == WorkingSetPayload(paracore_output_type="working_set_elements", operation="add",
                                      element_ids=[201], display_message="Created 2 walls.")


def test_a_json_string_payload_is_found():
    found = find_working_set_payload(json.dumps(payload()))
    assert found.operation == "replace" and found.element_ids == [101, 102]


def test_a_payload_inside_surrounding_text_is_found():
    text = ("Running Create_Wall.cs...\nwarning: {not json}\n"
            + json.dumps(payload(operation="remove", element_ids=[102]))
            + "\nDone in 0.4 s {\"elapsed\": 0.4}")
    found = find_working_set_payload(text)
    assert found.operation == "remove" and found.element_ids == [102]


def test_display_message_defaults_to_empty():
    found = find_working_set_payload(payload(display_message=...))
    assert found.display_message == ""


def test_a_payload_nested_in_a_result_object_or_in_a_json_string_inside_it_is_found():
    nested = {"status": "ok", "result": [{"x": 1}, payload(element_ids=[201])]}
    assert find_working_set_payload(nested).element_ids == [201]
    engine_result = json.dumps({"output": "done", "internal_data": json.dumps(payload(element_ids=[202]))})
    assert find_working_set_payload(engine_result).element_ids == [202]


def test_the_first_payload_wins():
    text = json.dumps(payload(element_ids=[101])) + " then " + json.dumps(payload(element_ids=[102]))
    assert find_working_set_payload(text).element_ids == [101]


def test_bytes_are_read_as_utf8():
    assert find_working_set_payload(json.dumps(payload()).encode()).element_ids == [101, 102]


@pytest.mark.parametrize("output", [
    None, 42, "", "Created 2 walls.", "{broken", "[1, 2, 3]", '{"a": 1}',
    {"a": {"b": [1, 2]}}, {"paracore_output_type": "something_else", "element_ids": "x"},
    json.dumps({"paracore_output_type": "working_set_element", "operation": "replace"}),
    [{"status": "ok"}],
])
def test_output_without_a_payload_gives_none(output):
    assert find_working_set_payload(output) is None


def test_a_self_referencing_dict_does_not_hang():
    looping = {"status": "ok"}
    looping["self"] = looping
    assert find_working_set_payload(looping) is None


def test_deeply_nested_input_does_not_exhaust_the_stack():
    deep = payload()
    for _ in range(5000):
        deep = {"inner": [deep]}
    assert find_working_set_payload(deep).element_ids == [101, 102]
    text = "[" * 100_000 + '"working_set_elements"' + "{" * 1000
    assert find_working_set_payload(text) is None


# -- malformed payloads ----------------------------------------------------------------------------

@pytest.mark.parametrize("bad, expected", [
    (payload(operation="set"), "operation must be one of replace, add, remove; got 'set'"),
    (payload(operation=None), "operation must be one of replace, add, remove; got None"),
    (payload(element_ids=[1, 2, "abc"]), "element_ids must be integers; got 'abc' at position 2"),
    (payload(element_ids=[1, 2.5]), "element_ids must be integers; got 2.5 at position 1"),
    (payload(element_ids=["12"]), "element_ids must be integers; got '12' at position 0"),
    (payload(element_ids=[True]),
     "element_ids must be integers; got True at position 0 (true/false are not element ids)"),
    (payload(element_ids=[1, 2**63]),
     f"element_ids must be 64-bit integers; got {2**63} at position 1"),
    (payload(element_ids="101"), "element_ids must be a list of integers; got '101'"),
    (payload(element_ids=...), "element_ids is missing"),
    (payload(operation=...), "operation is missing"),
    (payload(selection=[1]), "unexpected key 'selection' (allowed keys: paracore_output_type, "
                             "operation, element_ids, display_message, linked_ids)"),
    (payload(display_message=5), "display_message must be a string; got 5"),
])
@pytest.mark.parametrize("as_text", [False, True])
def test_a_malformed_payload_raises_a_clear_error(bad, expected, as_text):
    output = "Script output:\n" + json.dumps(bad) if as_text else bad
    with pytest.raises(WorkingSetPayloadError) as error:
        find_working_set_payload(output)
    message = str(error.value)
    assert expected in message
    assert "The working set was not changed" in message
    assert '"paracore_output_type": "working_set_elements"' in message  # shows the right shape
    assert expected in error.value.problems
    assert isinstance(error.value, ValueError)


def test_every_problem_is_reported_at_once():
    with pytest.raises(WorkingSetPayloadError) as error:
        find_working_set_payload(payload(operation="set", element_ids=["a"], extra=1))
    assert len(error.value.problems) == 3


def test_a_flood_of_problems_is_cut_short():
    with pytest.raises(WorkingSetPayloadError) as error:
        find_working_set_payload(payload(element_ids=["x"] * 50))
    assert "and 45 more problems" in str(error.value)


@pytest.mark.parametrize("text", [
    str(payload()),  # a Python dict's repr: single quotes
    '{"paracore_output_type": "working_set_elements", "operation": "add", "element_ids": [1,],}',
])
def test_a_payload_that_is_not_valid_json_is_an_error_not_silence(text):
    with pytest.raises(WorkingSetPayloadError, match="holds no valid JSON object"):
        find_working_set_payload("Result: " + text)


# -- applying --------------------------------------------------------------------------------------

def test_replace_add_remove_change_the_working_set(ws):
    assert apply_payload(WorkingSetPayload(**payload(element_ids=[101, 102])), ws, exists) \
        == "Created 2 walls."
    assert ws.ids == (101, 102)
    apply_payload(WorkingSetPayload(**payload(operation="add", element_ids=[201, 101])), ws, exists)
    assert ws.ids == (101, 102, 201)
    apply_payload(WorkingSetPayload(**payload(operation="remove", element_ids=[101])), ws, exists)
    assert ws.ids == (102, 201)


def test_the_change_is_attributed_to_the_script(ws):
    changes = []
    ws.subscribe(changes.append)
    apply_payload(WorkingSetPayload(**payload()), ws, exists)
    apply_payload(WorkingSetPayload(**payload(operation="add", element_ids=[201])), ws, exists,
                  source="script:Array_Doors")
    assert [c.source for c in changes] == ["script", "script:Array_Doors"]


def test_without_a_display_message_the_summary_is_returned(ws):
    message = apply_payload(WorkingSetPayload(**payload(element_ids=[201, 202, 203],
                                                        display_message=...)), ws, exists)
    assert message == "Working set: 3 Doors"


def test_ids_not_in_the_document_reject_the_whole_payload(ws):
    ws.replace([201])
    changes = []
    ws.subscribe(changes.append)
    with pytest.raises(WorkingSetPayloadError) as error:
        apply_payload(WorkingSetPayload(**payload(operation="add", element_ids=[101, 999, 998])),
                      ws, exists)
    assert ws.ids == (201,) and changes == []
    assert error.value.missing_ids == (999, 998)
    message = str(error.value)
    assert "2 elements are not in the document: 999, 998" in message
    assert "The working set was not changed" in message


def test_a_long_list_of_missing_ids_is_cut_short(ws):
    missing = list(range(1, 26))
    with pytest.raises(WorkingSetPayloadError) as error:
        apply_payload(WorkingSetPayload(**payload(element_ids=missing)), ws, exists)
    assert "25 elements are not in the document: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 15 more." \
        in str(error.value)
    assert error.value.missing_ids == tuple(missing)


@pytest.mark.parametrize("operation", ["replace", "add", "remove"])
def test_every_operation_checks_the_document(ws, operation):
    ws.replace([101])
    with pytest.raises(WorkingSetPayloadError, match="1 element is not in the document: 5"):
        apply_payload(WorkingSetPayload(**payload(operation=operation, element_ids=[101, 5])),
                      ws, exists)
    assert ws.ids == (101,)


def test_existence_is_checked_once_per_distinct_id(ws):
    asked = []
    apply_payload(WorkingSetPayload(**payload(element_ids=[101, 101, 102])), ws,
                  lambda i: asked.append(i) or exists(i))
    assert asked == [101, 102]


# -- robustness ------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
    | st.sampled_from(["working_set_elements", "replace", "add", "remove", "set"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["paracore_output_type", "operation", "element_ids", "display_message",
                         "result", "x"]) | st.text(max_size=8),
        children, max_size=5),
    max_leaves=25,
)


def _accepts(output):
    try:
        found = find_working_set_payload(output)
    except WorkingSetPayloadError:
        return
    assert found is None or isinstance(found, WorkingSetPayload)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_never_raises_anything_else(text):
    _accepts(text)
    _accepts(text + '{"paracore_output_type": "working_set_elements"' + text)


@settings(max_examples=300, deadline=None)
@given(json_values, st.text(max_size=30), st.text(max_size=30))
def test_arbitrary_nested_json_never_raises_anything_else(value, before, after):
    _accepts(value)
    _accepts(before + json.dumps(value) + after)
    _accepts({"paracore_output_type": "working_set_elements", "nested": value})
    _accepts({"paracore_output_type": "working_set_elements", "operation": value,
              "element_ids": value, "display_message": value})
    _accepts({"paracore_output_type": "working_set_elements", "operation": "add",
              "element_ids": [value, 1]})
