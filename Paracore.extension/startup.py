#! python3
"""Paracore's startup: pyRevit runs this at Revit's start and on every pyRevit reload.

A thin caller: the work is in ``paracore.app.revit.startup_tasks`` (bridge, document events, the
dockable pane), which records each step's outcome for Doctor. Nothing may escape from here and
break Revit's start: if even the import fails, the error goes to a last-resort log file.
"""
try:
    import paracore_boot  # noqa: F401 - puts the repository's lib/ (and vendor/) on the path
    from paracore.app.revit import startup_tasks

    startup_tasks.run(__revit__)  # noqa: F821 - pyRevit's builtin: the UIApplication
except BaseException:  # noqa: BLE001 - never break Revit's start
    try:
        import os
        import tempfile
        import time
        import traceback

        _folder = os.path.join(os.environ.get("LOCALAPPDATA") or tempfile.gettempdir(), "Paracore", "logs")
        os.makedirs(_folder, exist_ok=True)
        with open(os.path.join(_folder, "startup.log"), "a", encoding="utf-8") as _log:
            _log.write(time.strftime("%Y-%m-%d %H:%M:%S") + " Paracore startup failed before its steps ran:\n")
            _log.write(traceback.format_exc() + "\n")
        from paracore.hosts.revit import host_state as _host_state  # for Doctor, if the package imports at all

        _error = traceback.format_exc().strip().splitlines()[-1]
        _host_state.state().record("startup", "failed", "Paracore did not start; see the startup log.", _error)
        _host_state.state().log_path = os.path.join(_folder, "startup.log")
    except BaseException:  # noqa: BLE001
        pass
