import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        print("draw", flush=True)
    else:
        print("{}", flush=True)
