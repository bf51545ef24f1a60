import json
import sys

for line in sys.stdin:
    json.loads(line)
    sys.stdout.write('{"action": "draw"}\n' * 1000)
    sys.stdout.flush()
