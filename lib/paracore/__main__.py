import gc
import sys

from paracore.app.cli import main

status = main()
# At exit Python's finalisation collects cyclic garbage among every object still alive (the MCP
# SDK's models, the stand-in's model, ...), several times: ~0.4 s of each command's end, which an
# MCP client or a script calling `paracore` waits for. Frozen, those objects are left to the end
# of the process. atexit handlers still run; what Paracore writes (traces, logs, stdout) is
# flushed as it is written.
gc.freeze()
sys.exit(status)
