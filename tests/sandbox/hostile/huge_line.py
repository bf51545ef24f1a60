import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        chunk = "x" * (1 << 20)
        for _ in range(100):  # 100 MB and never a newline
            sys.stdout.write(chunk)
        sys.stdout.flush()
    print("{}", flush=True)
