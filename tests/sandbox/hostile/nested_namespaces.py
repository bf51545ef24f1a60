"""Tries to reach the kernel's privileged parts from inside its sandbox.

It unshares a user namespace with network and mount namespaces of its own (which
would make it root there, with every capability), then tries to mount a
filesystem and to talk to netfilter over netlink; it also makes system calls an
unprivileged process may make but a sandboxed one should not (keyrings, perf
events, userfaultfd, file handles). It reports what worked in its `debug`, then
plays on by drawing. The system call numbers are x86_64's.
"""

import ctypes
import json
import os
import socket
import struct
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWNET = 0x00020000, 0x10000000, 0x40000000
NETLINK_NETFILTER = 12
NFT_MSG_GETTABLE = (10 << 8) | 1  # nf_tables' subsystem, "get tables"
NLM_F_REQUEST_DUMP_ACK = 0x1 | 0x300 | 0x4
NLMSG_ERROR = 2


def capabilities():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("CapEff:"):
                return int(line.split()[1], 16)
    return 0


def mounts_a_filesystem():
    return libc.mount(b"none", b"/tmp", b"tmpfs", 0, None) == 0


def netfilter_answers():
    """A dump request to nf_tables: refused (EPERM) without CAP_NET_ADMIN over the
    network namespace, answered with it."""
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER) as sock:
            sock.settimeout(2)
            header = struct.pack("=LHHLL", 20, NFT_MSG_GETTABLE, NLM_F_REQUEST_DUMP_ACK, 1, 0)
            sock.send(header + struct.pack("=BBH", 0, 0, 0))
            answer = sock.recv(65536)
    except OSError:
        return False
    kind = struct.unpack_from("=H", answer, 4)[0]
    return kind != NLMSG_ERROR or struct.unpack_from("=i", answer, 16)[0] == 0


def syscall(number, *args):
    return libc.syscall(ctypes.c_long(number), *args) >= 0


def long(value):
    return ctypes.c_long(value)


def perf_event_open():
    attr = bytearray(128)  # a software CPU clock of this process, user space only
    struct.pack_into("=LL", attr, 0, 1, len(attr))
    struct.pack_into("=Q", attr, 40, (1 << 0) | (1 << 5) | (1 << 6))
    buffer = (ctypes.c_char * len(attr)).from_buffer(attr)
    return syscall(298, buffer, long(0), long(-1), long(-1), long(0))


def name_to_handle_at():
    handle = ctypes.create_string_buffer(8 + 128)
    struct.pack_into("=L", handle, 0, 128)
    mount_id = ctypes.c_int()
    return syscall(303, long(-100), b"/tmp", handle, ctypes.byref(mount_id), long(0))


SYSCALLS = {
    "keyctl": lambda: syscall(250, long(0), long(-3), long(1)),  # the session keyring
    "add_key": lambda: syscall(248, b"user", b"onecard", b"x", ctypes.c_size_t(1), long(-2)),
    "perf_event_open": perf_event_open,
    "userfaultfd": lambda: syscall(323, long(1 | os.O_CLOEXEC)),  # user-mode only
    "name_to_handle_at": name_to_handle_at,
}


def attack():
    reached = [name for name, call in SYSCALLS.items() if call()]
    if mounts_a_filesystem():
        reached.append("mount")
    if netfilter_answers():
        reached.append("netfilter")
    uid = os.getuid()
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS) == 0:
        reached.append("user namespace")
        try:  # map itself to root there, as an exploit would
            with open("/proc/self/setgroups", "w") as setgroups:
                setgroups.write("deny")
            with open("/proc/self/uid_map", "w") as uid_map:
                uid_map.write(f"0 {uid} 1")
        except OSError:
            pass
    if capabilities():
        reached.append("capabilities")
    if "mount" not in reached and mounts_a_filesystem():
        reached.append("mount")
    if "netfilter" not in reached and netfilter_answers():
        reached.append("netfilter")
    return reached


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"debug": json.dumps({"reached": attack()})}), flush=True)
    elif message["type"] == "turn":
        print('{"action": "draw"}', flush=True)
    elif message["type"] == "catch":
        print('{"action": "pass"}', flush=True)
    else:
        print("{}", flush=True)
