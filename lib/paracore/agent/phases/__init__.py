"""The agent loop's phases, each a small unit that reads a ``RunContext`` and yields events:

- ``prepare``: what the model sees: the context block of the user's message, the request (system
  prompt, the tools offered by ``offer``, the history trimmed to the context window), and the
  working set's changes watched for the timeline;
- ``approve``: the gate every call passes: valid arguments, its toolset on, the user's approval
  (with a preview of the change, an editable form);
- ``execute``: the approved calls in ONE batch on the host (``seam.RevitSide``), every call answered;
- ``answer``: the model's response streamed, its usage and cost, the reply, the end of the turn.

A chat turn (``agent.turn``) runs answer → approve → execute, step after step; calls from outside
the conversation (``agent.outside``) run approve → execute once. Both run the tool phases through
``agent.step.ToolStep``, which writes every call's result to the sink it is given.
"""
