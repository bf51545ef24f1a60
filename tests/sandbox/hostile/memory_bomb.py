import json
import sys

hoard = []
for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        while True:
            hoard.append(bytearray(8 * 1024 * 1024))
    print("{}", flush=True)
