"""A sound bot that uses its memory with threads running: `__THREADS__` threads,
then `__MIB__` MiB of data it touches, all under its memory limit.

The memory limit is on memory used. A limit on address space instead counts every
thread's reserved stack (8 MiB each) and refuses the data long before it is used.
Its reply to `start` says what it managed; then it draws.
"""

import json
import sys
import threading

THREADS = int("__THREADS__")
MIB = int("__MIB__")


def use_memory():
    threading.stack_size(8 * 1024 * 1024)  # the usual default, made explicit
    stop = threading.Event()
    started = 0
    try:
        for _ in range(THREADS):
            threading.Thread(target=stop.wait, daemon=True).start()
            started += 1
        blocks = [bytearray(1024 * 1024) for _ in range(MIB)]  # zeroed: touched
        allocated = len(blocks)
    except (MemoryError, RuntimeError):
        allocated = 0
    finally:
        stop.set()
    return {"threads": started, "allocated_mib": allocated}


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"debug": json.dumps(use_memory())}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
