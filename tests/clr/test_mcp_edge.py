"""Paracore's MCP listener inside Revit (paracore.app.revit.mcp_startup) at the .NET edge, run on
pythonnet 3.0.3 and a real CLR: the ApplicationClosing handler, the GIL pumps posted through
WPF's Dispatcher.BeginInvoke, and a client in another process answered while idle Revit holds
the GIL. Each test runs one scenario of scenarios.py in the CLR worker.
"""
from __future__ import annotations

import json

BEGIN_INVOKE = "BeginInvoke(Delegate, Object[])"   # WPF's Dispatcher.BeginInvoke(Delegate, params object[])


def test_revit_pump_posts_its_start_through_begin_invoke_and_ticks_at_the_intervals_asked(clr):
    seen = clr.run("mcp_revit_pump", idle_ms=600)
    assert seen["made"] and seen["queued_at_start"] == 1
    # The constructor's arguments reach the timers: TimeSpan intervals of 100 and 10 ms.
    assert seen["before_dispatcher_runs"] == {
        "idle": {"interval_ms": 100.0, "slice_s": 0.002, "running": False, "ticks": 0},
        "fast": {"interval_ms": 10.0, "slice_s": 0.003, "running": False, "ticks": 0}}
    idle_only = seen["idle_only"]
    assert idle_only["idle"]["running"] and not idle_only["fast"]["running"]
    assert 3 <= idle_only["idle"]["ticks"] <= 7, seen                   # 600 ms at 100 ms
    assert idle_only["fast"]["ticks"] == 0
    busy = seen["while_busy"]
    assert busy["fast"]["running"] and busy["fast"]["ticks"] >= 25, seen  # 600 ms at 10 ms (+ 3 ms each)
    assert seen["after_busy"]["fast"]["running"] is False and seen["after_busy"]["idle"]["running"]
    assert not seen["after_stop"]["idle"]["running"] and not seen["after_stop"]["fast"]["running"]
    # pythonnet binds the one-argument call to BeginInvoke(Delegate, params object[]), every time:
    # start idle, start fast, stop fast, stop fast and stop idle.
    assert seen["overloads"] == [BEGIN_INVOKE] and seen["posts"] == 5 and seen["left_queued"] == 0


def test_a_client_in_another_process_is_answered_while_idle_revit_holds_the_gil(clr):
    seen = clr.run("mcp_listener_while_revit_idles", idle_ms=1500)
    instance = json.loads(seen["instance_file"])
    assert instance["revit_version"] == "2026"
    assert instance["documents"] == ["Mcp.rvt"] and instance["active_document"] == "Mcp.rvt"  # not the link
    # Without the pumps the listener's threads wait for the idle to end: a request sent during it
    # is answered only after it.
    assert seen["without_pumps"]["sent_before_idle_end_s"] > 0.5, seen
    assert seen["without_pumps"]["answered_after_idle_s"] >= 0, seen
    pumped = seen["with_pumps"]
    assert pumped["statuses"] == [200, 200, 200]
    assert all(left > 0.1 for left in pumped["answered_before_idle_end_s"]), seen
    assert pumped["instance"]["documents"] == ["Mcp.rvt"] and pumped["instance"]["revit_version"] == "2026"
    assert pumped["ticks"]["idle"] >= 5 and pumped["ticks"]["fast"] >= 1, seen
    assert pumped["fast_running_after"] is False and pumped["idle_running_after"] is True
    assert seen["pumps_after_stop"] == [False, False]


def test_application_closing_stops_the_listener_and_removes_the_instance_file(clr):
    seen = clr.run("mcp_stops_when_revit_closes")
    assert seen == {"subscribed": 1, "file_before": True, "file_after": False, "was_registered": True,
                    "registered_after": 0, "connection_after": "ConnectionRefusedError"}


def test_the_chat_views_post_binds_begin_invoke_with_a_priority_from_any_thread(clr):
    seen = clr.run("chat_post_begin_invoke")
    assert seen["queued"] == 1 and seen["ran_on"] == [seen["main"]]
    assert seen["overloads"] == ["BeginInvoke(DispatcherPriority, Delegate)"]
