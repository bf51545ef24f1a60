"""The seccomp filter of bwrap bots, built with libseccomp and handed to `bwrap --seccomp`.

Close to Docker's default profile for a container without capabilities: the calls
that profile refuses fail with EPERM (namespaces, mounts, keyrings, BPF, perf
events, tracing, modules, file handles, userfaultfd, io_uring, clocks, swap,
reboot), `clone` with any namespace flag too, and `clone3`, whose flags a filter
cannot read, says ENOSYS, so that the C library falls back to `clone`. Sockets are
limited to the families a Python program uses (Unix, IPv4, IPv6): no netlink, so
no netfilter, and no packet, vsock or crypto sockets. Everything else is allowed.
A system call of another architecture (the i386 or x32 entry points) kills the
process.

The binding is a few `ctypes` declarations over libseccomp.so.2, the library
Docker, systemd and apt use: no Python package is needed, so the `onecard` command
keeps running on the standard library.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass

from sandbox.errors import InfrastructureError

LIBRARY = "libseccomp.so.2"

_ALLOW = 0x7FFF0000
_KILL_PROCESS = 0x80000000
_ATTR_BADARCH = 2  # SCMP_FLTATR_ACT_BADARCH
_UNKNOWN = -1  # __NR_SCMP_ERROR: a name this libseccomp does not know
# enum scmp_compare
_EQ = 4
_GE = 5
_MASKED_EQ = 7


def _errno(code: int) -> int:
    return 0x00050000 | (code & 0xFFFF)


DENIED = (
    "acct",
    "add_key",
    "bpf",
    "chroot",
    "clock_adjtime",
    "clock_settime",
    "create_module",
    "delete_module",
    "fanotify_init",
    "finit_module",
    "fsconfig",
    "fsmount",
    "fsopen",
    "fspick",
    "get_kernel_syms",
    "get_mempolicy",
    "init_module",
    "io_uring_enter",
    "io_uring_register",
    "io_uring_setup",
    "ioperm",
    "iopl",
    "kcmp",
    "kexec_file_load",
    "kexec_load",
    "keyctl",
    "lookup_dcookie",
    "mbind",
    "migrate_pages",
    "mount",
    "mount_setattr",
    "move_mount",
    "move_pages",
    "name_to_handle_at",
    "nfsservctl",
    "open_by_handle_at",
    "open_tree",
    "perf_event_open",
    "pidfd_getfd",
    "pivot_root",
    "process_vm_readv",
    "process_vm_writev",
    "ptrace",
    "query_module",
    "quotactl",
    "quotactl_fd",
    "reboot",
    "request_key",
    "set_mempolicy",
    "setdomainname",
    "sethostname",
    "setns",
    "settimeofday",
    "stime",
    "swapoff",
    "swapon",
    "_sysctl",
    "sysfs",
    "syslog",
    "umount",
    "umount2",
    "unshare",
    "uselib",
    "userfaultfd",
    "ustat",
    "vhangup",
    "vm86",
    "vm86old",
)

# clone's flags (its first argument on x86_64 and arm64) that make a new namespace.
NAMESPACE_FLAGS = (
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
)
# Socket families a bot may open: AF_UNIX, AF_INET, AF_INET6 (its network namespace
# is empty anyway). The filter refuses 0, 3 to 9, and 11 and up.
SOCKET_FAMILIES = (1, 2, 10)


class _ArgCmp(ctypes.Structure):
    """struct scmp_arg_cmp"""

    _fields_ = (
        ("arg", ctypes.c_uint),
        ("op", ctypes.c_int),
        ("datum_a", ctypes.c_uint64),
        ("datum_b", ctypes.c_uint64),
    )


@dataclass(frozen=True)
class Rule:
    """Refuse `syscall` with `action` when every (argument, operator, a, b) holds."""

    syscall: str
    action: int
    args: tuple[tuple[int, int, int, int], ...] = ()


def bot_rules() -> list[Rule]:
    """The filter's rules, in the order they are added."""
    eperm = _errno(errno.EPERM)
    rules = [Rule(name, eperm) for name in DENIED]
    rules += [Rule("clone", eperm, ((0, _MASKED_EQ, flag, flag),)) for flag in NAMESPACE_FLAGS]
    rules.append(Rule("clone3", _errno(errno.ENOSYS)))
    refused = [f for f in range(max(SOCKET_FAMILIES)) if f not in SOCKET_FAMILIES]
    for call in ("socket", "socketpair"):
        rules += [Rule(call, eperm, ((0, _EQ, family, 0),)) for family in refused]
        rules.append(Rule(call, eperm, ((0, _GE, max(SOCKET_FAMILIES) + 1, 0),)))
    return rules


@functools.cache
def _library() -> ctypes.CDLL:
    try:
        library = ctypes.CDLL(LIBRARY, use_errno=True)
    except OSError as error:
        raise InfrastructureError(
            f"libseccomp is not installed ({error}): bwrap bots need their seccomp filter"
        ) from error
    library.seccomp_init.argtypes = (ctypes.c_uint32,)
    library.seccomp_init.restype = ctypes.c_void_p
    library.seccomp_release.argtypes = (ctypes.c_void_p,)
    library.seccomp_release.restype = None
    library.seccomp_attr_set.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32)
    library.seccomp_attr_set.restype = ctypes.c_int
    library.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
    library.seccomp_syscall_resolve_name.restype = ctypes.c_int
    library.seccomp_rule_add_array.argtypes = (
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(_ArgCmp),
    )
    library.seccomp_rule_add_array.restype = ctypes.c_int
    library.seccomp_export_bpf.argtypes = (ctypes.c_void_p, ctypes.c_int)
    library.seccomp_export_bpf.restype = ctypes.c_int
    return library


def _check(result: int, what: str) -> None:
    if result < 0:
        raise InfrastructureError(f"libseccomp: {what}: {os.strerror(-result)}")


def syscall_number(name: str) -> int | None:
    """The native number of a system call, None if this libseccomp does not know it
    (negative pseudo-numbers stand for calls this architecture lacks)."""
    number = int(_library().seccomp_syscall_resolve_name(name.encode()))
    return None if number == _UNKNOWN else number


def compile_filter(rules: Sequence[Rule]) -> bytes:
    """The BPF program (struct sock_filter[]) for `rules`, everything else allowed."""
    library = _library()
    context = library.seccomp_init(_ALLOW)
    if not context:
        raise InfrastructureError("libseccomp: cannot make a filter")
    try:
        _check(library.seccomp_attr_set(context, _ATTR_BADARCH, _KILL_PROCESS), "bad arch")
        for rule in rules:
            number = syscall_number(rule.syscall)
            if number is None:
                continue  # newer than this libseccomp: the kernel most likely lacks it too
            args = (_ArgCmp * max(1, len(rule.args)))(*(_ArgCmp(*arg) for arg in rule.args))
            _check(
                library.seccomp_rule_add_array(context, rule.action, number, len(rule.args), args),
                f"rule for {rule.syscall}",
            )
        descriptor = os.memfd_create("onecard-seccomp-export", os.MFD_CLOEXEC)
        with open(descriptor, "rb") as exported:
            _check(library.seccomp_export_bpf(context, descriptor), "export")
            exported.seek(0)
            return exported.read()
    finally:
        library.seccomp_release(context)


@functools.cache
def bot_filter() -> bytes:
    """The bots' filter, compiled once per process."""
    return compile_filter(bot_rules())


def bot_filter_fd() -> int:
    """A new descriptor to read the bots' filter from, at its start (`--seccomp FD`).
    The caller passes it to bwrap and closes it."""
    program = bot_filter()
    descriptor = os.memfd_create("onecard-seccomp")
    try:
        os.write(descriptor, program)
        os.lseek(descriptor, 0, os.SEEK_SET)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor
