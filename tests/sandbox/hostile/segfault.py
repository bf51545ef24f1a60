import ctypes
import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        ctypes.string_at(0)
    print("{}", flush=True)
