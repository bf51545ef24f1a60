"""Reports, in `debug`, the names of the files under /usr it can see outside its own
module path (the first 40: a `debug` is 1 KiB), how many it sees in all, and which
standard-library extension modules fail to load; then draws."""

import importlib
import json
import os
import sys

MODULES = ["_bz2", "_ctypes", "_decimal", "_hashlib", "_lzma", "_sqlite3", "_ssl", "_uuid", "zlib"]


def report():
    module_path = tuple(os.path.join(entry, "") for entry in sys.path if entry)
    count, others = 0, set()
    for root, _dirs, files in os.walk("/usr"):
        count += len(files)
        if not os.path.join(root, "").startswith(module_path):
            others.update(files)
    failed = []
    for name in MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            failed.append(name)
    return {"count": count, "others": sorted(others)[:40], "failed": failed}


for line in sys.stdin:
    kind = json.loads(line)["type"]
    if kind == "start":
        reply = {"debug": json.dumps(report())}
    elif kind == "turn":
        reply = {"action": "draw"}
    elif kind == "catch":
        reply = {"action": "pass"}
    else:
        reply = {}
    print(json.dumps(reply), flush=True)
