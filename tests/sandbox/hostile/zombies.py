"""Leaves zombies: `__CHILDREN__` times it forks a child that forks a grandchild and
exits at once, so each grandchild is orphaned to the sandbox's PID 1, and exits
too. Nobody in the bot waits for a grandchild: if PID 1 does not reap them, each
zombie holds a slot of the pids limit until forks fail. It reports how many
grandchildren it made, then draws.
"""

import json
import os
import sys
import time

CHILDREN = int("__CHILDREN__")


def make_zombies():
    made = 0
    for _ in range(CHILDREN):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            try:
                if os.fork() == 0:
                    os._exit(0)  # the grandchild: orphaned, then dead
            except OSError:
                os._exit(1)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            break
        made += 1
        time.sleep(0.005)  # give PID 1 a moment to reap, as a slow bot would
    return made


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"debug": json.dumps({"made": make_zombies()})}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
