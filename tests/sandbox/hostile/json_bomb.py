"""Replies with JSON built to hurt the parser (template: __KIND__)."""

import json
import sys

BOMBS = {
    "deep": b"[" * 30000 + b"]" * 30000,
    "deep_object": b'{"a":' * 10000 + b"1" + b"}" * 10000,
    "huge_int": b'{"action": "draw", "n": ' + b"9" * 60000 + b"}",
    "nan": b'{"action": "draw", "n": NaN}',
    "infinity": b'{"action": "draw", "n": 1e999}',
    "invalid_utf8": b'{"action": "draw", "debug": "\xff\xfe"}',
    "nul": b'{"action": "draw", "debug": "\\u0000"}',
    "surrogate": b'{"action": "draw", "debug": "\\ud800"}',
}

for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        sys.stdout.buffer.write(BOMBS["__KIND__"] + b"\n")
        sys.stdout.buffer.flush()
    else:
        print("{}", flush=True)
