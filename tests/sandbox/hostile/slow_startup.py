"""Spends __SLEEP_S__ s "importing" before it reads anything."""

import json
import sys
import time

time.sleep(float("__SLEEP_S__"))
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
