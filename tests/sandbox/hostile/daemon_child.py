"""Leaves a daemonized grandchild (new session, SIGTERM and SIGHUP ignored) behind."""

import json
import os
import sys

MARKER = "__MARKER__"
DAEMON = f"""
import signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
# {MARKER}
while True:
    time.sleep(1)
"""


def daemonize():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            devnull = os.open("/dev/null", os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            os.execv(sys.executable, [sys.executable, "-I", "-S", "-c", DAEMON])
        os._exit(0)
    os.wait()


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        daemonize()
        print("{}", flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
