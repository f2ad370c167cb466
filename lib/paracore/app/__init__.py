"""Where the agent is put together and the developer entry points: the command line, the
sandbox against the stand-in, the terminal chat, scripted replays."""
