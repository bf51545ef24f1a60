"""Looks everywhere it can for the canary: environment, /proc, host files, the whole tree."""

import json
import os
import sys

# Written reversed, so that this file does not hold the canary it looks for.
CANARY = b"__REVERSED_CANARY__"[::-1]
HOST_PATHS = json.loads("""__HOST_PATHS__""")
# Trees too big to read whole in the time of one reply; the host's secrets are not in them.
SKIP = {"/proc", "/sys", "/dev", "/usr"}


def read(path):
    try:
        with open(path, "rb") as handle:
            return handle.read(1 << 20)
    except OSError:
        return b""


def attack():
    found = []
    if any(CANARY in (k + "=" + v).encode() for k, v in os.environ.items()):
        found.append("os.environ")
    for pid in [p for p in os.listdir("/proc") if p.isdigit()] + ["self"]:
        for part in ("environ", "cmdline"):
            if CANARY in read(f"/proc/{pid}/{part}"):
                found.append(f"/proc/{pid}/{part}")
    for path in HOST_PATHS:
        if CANARY in read(path):
            found.append(path)
    seen = 0
    for root, dirs, files in os.walk("/"):
        dirs[:] = [d for d in dirs if os.path.join(root, d) not in SKIP]
        for name in files:
            seen += 1
            if seen > 5000:
                return found
            path = os.path.join(root, name)
            if os.path.isfile(path) and CANARY in read(path):
                found.append(path)
    return found


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        # The canary itself must never reach the log: report where, not what.
        report = [path.replace(CANARY.decode(), "<canary>") for path in attack()]
        print(json.dumps({"debug": json.dumps({"found": report})}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
