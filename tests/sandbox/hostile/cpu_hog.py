"""Forks children that all spin at once, to take every core of the machine.

Before it replies to `start` it runs `__CHILDREN__` spinning children for
`__SPIN_S__` seconds of wall time and waits for them, then reports the CPU time the
kernel counted for them (`os.times()` of reaped children) beside that wall time: a
share above one core means it took more than its one CPU. Then it draws.
"""

import json
import os
import sys
import time

CHILDREN = int("__CHILDREN__")
SPIN_S = float("__SPIN_S__")


def spin():
    started = time.monotonic()
    pids = []
    for _ in range(CHILDREN):
        pid = os.fork()
        if pid == 0:
            while time.monotonic() - started < SPIN_S:
                pass
            os._exit(0)
        pids.append(pid)
    for pid in pids:
        os.waitpid(pid, 0)
    wall = time.monotonic() - started
    times = os.times()
    return {
        "children": len(pids),
        "cpu_s": round(times.children_user + times.children_system, 3),
        "wall_s": round(wall, 3),
    }


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"debug": json.dumps(spin())}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
