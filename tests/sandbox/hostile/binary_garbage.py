import json
import os
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        sys.stdout.buffer.write(os.urandom(4096).replace(b"\n", b"") + b"\n")
        sys.stdout.buffer.flush()
    else:
        print("{}", flush=True)
