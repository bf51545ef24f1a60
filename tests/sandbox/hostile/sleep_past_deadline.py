import json
import sys
import time

for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        time.sleep(60)
    print("{}", flush=True)
