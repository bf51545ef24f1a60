"""Writes until something refuses: /tmp, the working directory, /dev/shm."""

import json
import os
import sys

CHUNK = b"x" * (1 << 20)


def fill(directory):
    written = 0
    try:
        with open(os.path.join(directory, "fill.bin"), "wb") as handle:
            for _ in range(1024):
                handle.write(CHUNK)
                handle.flush()
                written += len(CHUNK)
    except OSError:
        pass
    return written


def attack():
    report = {d: fill(d) for d in ("/tmp", os.getcwd(), "/dev/shm")}
    files = 0
    for i in range(20000):  # and inodes
        try:
            open(f"/tmp/inode-{i}", "w").close()
            files += 1
        except OSError:
            break
    report["files"] = files
    return report


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
