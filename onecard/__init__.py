"""`python3 -m onecard`: local matches, replays and a game in the terminal.

The same command as `onecard` (installed by ``pip install .``); its code is
`sandbox.cli`, which needs only the standard library. This package is also the
entry point of the starter kit (``GET /starter-kit.zip``), beside the engine, the
sandbox and the example bots.
"""
