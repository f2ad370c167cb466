"""Session traces: what the agent did, recorded as JSON lines (recorder) and shown as a timeline.

- ``recorder.TraceRecorder`` writes one ``<session>.jsonl`` per session under
  ``<user data dir>/traces`` (``paracore.core.paths.data_dir()``);
- ``timeline.Timeline`` reads such a file (even one cut off or partly damaged) into entries a
  view renders (``to_view_model()``), a terminal prints (``to_text()``) or a file keeps
  (``export()``).
"""
