"""The few lines that start a bot inside its sandbox.

Interpreters start with ``-I -S`` (no environment, no site hooks: safer, and
tens of milliseconds faster), so nothing puts the bot's own directory or the
engine on ``sys.path``; this code does, then runs the bot's file as ``__main__``.
It does what ``runpy.run_path`` does for a single file (a fresh ``__main__``
module, ``sys.argv[0]`` the file, tracebacks naming it) without importing runpy,
whose imports (importlib.util, contextlib, collections...) cost ~5 ms of every
bot's start. A MemoryError escaping the bot ends it with `EXIT_MEMORY`, which
the sandbox reports as the fault ``limit`` rather than ``crash`` (a bot that
fakes the code only changes the reason of its own fault).
"""

from __future__ import annotations

EXIT_MEMORY = 86

BOOTSTRAP = f"""\
import posix, sys
entry, *extra = sys.argv[1:]
sys.argv = [entry]
sys.path[:0] = [entry.rpartition("/")[0] or ".", *extra]
main = type(sys)("__main__")
main.__file__ = entry
main.__builtins__ = __builtins__
sys.modules["__main__"] = main
try:
    with open(entry, "rb") as source:
        code = compile(source.read(), entry, "exec")
    exec(code, main.__dict__)
except MemoryError:
    posix._exit({EXIT_MEMORY})
"""


def python_argv(interpreter: str, entry: str, *paths: str) -> list[str]:
    """The command line that runs `entry` with `paths` importable.

    >>> python_argv("/usr/bin/python3", "/bot/main.py", "/opt/onecard")[:5]
    ['/usr/bin/python3', '-I', '-S', '-X', 'utf8']
    """
    return [interpreter, "-I", "-S", "-X", "utf8", "-c", BOOTSTRAP, entry, *paths]
