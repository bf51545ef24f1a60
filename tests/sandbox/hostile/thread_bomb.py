"""Starts threads until refused, reports how many, then plays on."""

import json
import sys
import threading
import time


def bomb():
    started = 0
    for _ in range(5000):
        try:
            threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
        except (RuntimeError, MemoryError, OSError):
            break
        started += 1
    return started


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"debug": json.dumps({"threads": bomb()})}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
