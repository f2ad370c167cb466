import gc
import sys

# Starting a command imports the SDKs (the MCP SDK's models alone are ~1 s) and reads the tool
# catalogue and a sample building: over 100,000 objects the collector tracks, which live as long as
# the process. At its default threshold (700 allocations) it walks them again and again while they
# are made: ~10% of `paracore mcp`'s start (1.96 s to 1.78 s), which every MCP client waits for.
# Every 50,000 allocations instead, garbage is still freed within moments of its making.
gc.set_threshold(50_000, 20, 20)

from paracore.app.cli import main  # noqa: E402

status = main()
# At exit Python's finalisation collects cyclic garbage among every object still alive (the MCP
# SDK's models, the stand-in's model, ...), several times: ~0.4 s of each command's end, which an
# MCP client or a script calling `paracore` waits for. Frozen, those objects are left to the end
# of the process. atexit handlers still run; what Paracore writes (traces, logs, stdout) is
# flushed as it is written.
gc.freeze()
sys.exit(status)
