import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        raise RuntimeError("this bot gives up")
    print("{}", flush=True)
