import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        while True:
            pass
    print("{}", flush=True)
