"""Tries to write outside its scratch space: its own code, the engine, the system, the host."""

import json
import os
import sys

TARGETS = [
    *json.loads("""__HOST_PATHS__"""),
    "/bot/main.py",
    "/bot/new.py",
    "/opt/onecard/engine/__init__.py",
    "/opt/onecard/engine/evil.py",
    "/etc/evil",
    "/usr/lib/evil",
    "/root/evil",
    "/evil",
]


def attack():
    written = []
    for path in TARGETS:
        try:
            with open(path, "a") as handle:
                handle.write("# owned\n")
            written.append(path)
        except OSError:
            pass
    try:
        os.chmod(sys.argv[0], 0o777)
        written.append("chmod own code")
    except OSError:
        pass
    return {"written": written}


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"debug": json.dumps(attack())}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
