"""The few lines that start a bot inside its sandbox.

Interpreters start with ``-I -S`` (no environment, no site hooks: safer, and
tens of milliseconds faster), so nothing puts the bot's own directory or the
engine on ``sys.path``; this code does, then runs the bot as ``__main__``.
A MemoryError escaping the bot ends it with `EXIT_MEMORY`, which the sandbox
reports as the fault ``limit`` rather than ``crash`` (a bot that fakes the code
only changes the reason of its own fault).
"""

from __future__ import annotations

EXIT_MEMORY = 86

BOOTSTRAP = f"""\
import os, runpy, sys
entry, *extra = sys.argv[1:]
sys.argv = [entry]
sys.path[:0] = [os.path.dirname(entry), *extra]
try:
    runpy.run_path(entry, run_name="__main__")
except MemoryError:
    os._exit({EXIT_MEMORY})
"""


def python_argv(interpreter: str, entry: str, *paths: str) -> list[str]:
    """The command line that runs `entry` with `paths` importable.

    >>> python_argv("/usr/bin/python3", "/bot/main.py", "/opt/onecard")[:5]
    ['/usr/bin/python3', '-I', '-S', '-X', 'utf8']
    """
    return [interpreter, "-I", "-S", "-X", "utf8", "-c", BOOTSTRAP, entry, *paths]
