"""Tries TCP to loopback services and outside addresses, UDP out, and DNS."""

import json
import socket
import sys

TARGETS = json.loads("""__TARGETS__""")


def attack():
    reached = []
    for host, port in TARGETS:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                reached.append(f"tcp {host}:{port}")
        except OSError:
            pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.settimeout(0.5)
            udp.sendto(b"\x00" * 12, ("8.8.8.8", 53))
            udp.recvfrom(512)
            reached.append("udp 8.8.8.8:53")
    except OSError:
        pass
    for name in ("deb.debian.org", "pypi.org", "localhost.localdomain"):
        try:
            addresses = socket.getaddrinfo(name, 80)
            if any(not a[4][0].startswith("127.") and a[4][0] != "::1" for a in addresses):
                reached.append(f"dns {name}")
        except OSError:
            pass
    return {"reached": reached}


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"debug": json.dumps(attack())}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
