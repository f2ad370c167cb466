"""Paracore's own code at the .NET edge, run on pythonnet 3.0.3 and a real CLR.

Each test runs one scenario of scenarios.py in the CLR worker, against an assembly with the
Revit API's shapes (RevitShapes.cs), and checks what it returned.
"""
from __future__ import annotations

FIRST = 1000  # the lane's documents number their elements from here


def test_the_collection_helper_builds_real_generic_lists(clr):
    seen = clr.run("collection_helper")
    assert seen == {"type": "System.Collections.Generic.List`1", "values": [FIRST, FIRST + 2, 3_000_000_000],
                    "loops": 2, "floor": "Floor (2 loops)", "empty": 0}


def test_select_sets_the_revit_selection_and_reads_it_back(clr):
    seen = clr.run("selection_select")
    assert seen == {"selected": [FIRST + 3, FIRST], "read_back": [FIRST + 3, FIRST]}


def test_isolate_isolates_what_the_view_shows_and_closes_its_transaction(clr):
    seen = clr.run("working_set_isolate")
    assert seen == {"isolated": [FIRST, FIRST + 1], "skipped": {"no longer in the model": [5]}, "view_count": 2,
                    "transaction_left_open": False}


def test_move_copy_rotate_and_delete_take_the_tool_contexts_lists(clr):
    seen = clr.run("tool_context_transforms")
    assert seen == {"copies": 2, "deleted": [FIRST + 5], "moved_x": 1.0, "gone": True}


def test_view_templates_and_duplicates_take_ids_and_enums_and_give_an_id_back(clr):
    seen = clr.run("view_template_and_duplicate")
    assert {k: v for k, v in seen.items() if not k.endswith("template_id") and k != "template_not_a_template"} == {
        "valid": True, "template_of_plan": True, "copy": "Level 1 - Furniture", "copy_template": True,
        "can_dependent": False}
    assert seen["int_template_id"].startswith("TypeError")          # an int is not an ElementId
    assert seen["template_not_a_template"].startswith("ArgumentException")


def test_ids_convert_both_ways_on_a_2026_shaped_api(clr):
    seen = clr.run("id_conversions")
    assert seen == {"large": 3_000_000_000, "read": 42, "element": FIRST + 1, "from_float_int": 7,
                    "category": -2000023}


def test_the_pane_provider_sets_bool_and_enum_properties_when_revit_calls_it(clr):
    seen = clr.run("pane_provider")
    assert seen == {"visible_by_default": False, "dock": "Right", "content": "the chat view"}


def test_the_failures_preprocessor_keeps_warnings_and_rolls_back_errors(clr):
    seen = clr.run("failures_preprocessor")
    assert seen["only_warnings"] == "Continue:0" and seen["warnings"] == ["Wall overlap"]
    assert seen["with_error"] == "ProceedWithRollBack:1" and seen["errors"] == ["Cannot join"]


def test_interface_classes_are_defined_once_per_process_even_when_reimported(clr):
    seen = clr.run("interface_classes_defined_once")
    assert seen["same_classes"] == [True, True, True]


def test_the_bridge_runs_requests_from_a_worker_thread_on_the_main_thread(clr):
    seen = clr.run("bridge_round_trip")
    assert seen.get("failed") is None
    assert seen["finished"] and seen["title"] == "Bridge.rvt"
    assert seen["many"] == [i * i for i in range(20)]
    assert seen["error"].startswith("TypeError: No method matches given arguments for ElementId..ctor")
    assert seen["idle_runs"] >= 1


def test_a_refused_raise_fails_the_request_with_revit_busy(clr):
    seen = clr.run("bridge_refused")
    assert seen["busy"] and "ExternalEvent Denied" in seen["message"]
    assert "bridge is closed" in seen["after_close"]


def test_the_bridge_refuses_to_wait_on_the_main_thread(clr):
    assert "would wait for itself forever" in clr.run("bridge_main_thread_call")["error"]


def test_deleted_ids_leave_the_working_set_and_unsubscribing_detaches(clr):
    seen = clr.run("document_events")
    assert seen == {"subscribed": 1, "after_delete": [FIRST, FIRST + 2], "after_unsubscribe": [FIRST, FIRST + 2],
                    "subscribers_left": 0}


def test_session_events_detach_through_the_objects_they_attached_through(clr):
    """UIApplication.Application is a new wrapper per read on the lane, as it may be in Revit:
    session_events keeps the objects it subscribed through and detaches through them."""
    assert clr.run("session_events_subscription") == {"subscribers": [0, 4, 0]}


def test_the_change_recorder_subscribes_and_unsubscribes_one_bound_handler(clr):
    seen = clr.run("change_recorder")
    assert seen == {"deleted": [FIRST, FIRST + 2], "transactions": ["Paracore: test"], "during": 1, "after": 0}


def test_guarded_event_handlers_and_action_delegates_run_and_never_raise_into_dotnet(clr):
    assert clr.run("guarded_event_and_action")["seen"] == [1, "action"]


def test_the_gil_pump_lets_a_worker_thread_advance_while_idle_revit_holds_the_gil(clr):
    seen = clr.run("gil_pump")
    assert seen["ticks_stopped"] == 0 and seen["ticks_running"] >= 5
    assert seen["pump_ticks"] == seen["ticks_running"] and seen["running_after_stop"] is False
    # Without the pump the worker only gets the moments around the idle loop's start and end.
    assert seen["stalled"] <= 5, seen
    assert seen["pumped"] >= 10 * max(1, seen["stalled"]), seen


def test_the_doctors_worker_check_shows_the_stall_and_the_pump_on_an_idle_loop_holding_the_gil(clr):
    seen = clr.run("doctor_worker_check")
    assert seen["waiting"] == "warn" and seen["status"] == "ok", seen
    assert "without the pump it stalls" in seen["detail"] and seen["pump_ticks"] >= 10, seen
    assert any("Worker thread (GIL pump)" in line for line in seen["lines"])


def test_reading_and_selecting_inside_links_crosses_into_dotnet(clr):
    seen = clr.run("reading_and_selecting_inside_links")
    assert seen["links"] == [["Architecture.rvt", True], ["MEP.rvt", False]]
    link_id = seen["resolved"][0].split(":")[0]
    assert seen["resolved"][1:] == ["Doors", ""]
    assert seen["host_point"] == [96.0, 53.0]                 # (3, 4) turned 90° and moved (100, 50)
    assert seen["selected"] == [[seen["host_wall"]], [seen["resolved"][0]]]
    assert seen["picked"] == [seen["resolved"][0]] and link_id.isdigit()
    assert {"Reference.CreateLinkReference(RevitLinkInstance)", "Selection.SetReferences(IList<Reference>)"} \
        <= set(seen["calls"])
