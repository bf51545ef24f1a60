"""Starting a local bot without forking the worker.

CPython's `subprocess` forks the calling process whenever `Popen` has a
`preexec_fn`, and vforks otherwise. A fork copies the page tables of a worker
with Django loaded and makes every page it touches next a copy-on-write fault:
on a 2-core machine `benchmarks/sandbox_overhead.py --launch 40` times about 3.6 ms of the
worker's CPU and 20 ms of wall time per bot that way, against 0.5 ms and 6 ms this
way (docs/benchmarks.md). So what a `preexec_fn` would do between fork and exec is
done by a short, constant `/bin/sh` script instead, which then execs the bot's
command:

1. join the bot's cgroup(s), still as root;
2. set the rlimits (`ulimit`, which sets soft and hard limits together); the
   address space only for a bot without a cgroup, whose memory nothing else caps
   (a cgroup limits memory used, where an address-space limit would count every
   thread's reserved stack and stop a bot's threads long before its memory);
3. drop to the bot's uid and gid with no supplementary groups (util-linux's
   `setpriv`), when asked to;
4. leave the environment empty, as the worker passed it (a shell sets PWD).

Before its last exec the script writes one newline on the bot's stdout, which
`wait_started` reads, so the worker knows that the bot is in its limits (and
returns only then, as `Popen` with a `preexec_fn` would); the bot's own output comes
after it. When a step fails the script says why on stderr and exits with
`LAUNCH_FAILED`, having written nothing on stdout. Every value reaches the script as
an argument, never as script text.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Sequence

from sandbox.errors import InfrastructureError
from sandbox.limits import Limits

SHELL = "/bin/sh"
LAUNCH_FAILED = 125  # the script's exit status when it could not start the bot

# `ulimit` units in a POSIX shell (dash, bash as sh): -v in KiB, -f in 512-byte
# blocks. A limit is rounded down to its unit, never up.
_KIB = 1024
_BLOCK = 512

_SCRIPT = """\
count=$1; shift
while [ "$count" -gt 0 ]; do
    echo $$ > "$1" || { echo "cannot join the cgroup $1" >&2; exit 125; }
    shift; count=$((count - 1))
done
{ [ "$1" = - ] || ulimit -v "$1"; } && ulimit -c 0 && ulimit -n "$2" && ulimit -f "$3" \\
    && ulimit -t "$4" || { echo "cannot set the rlimits" >&2; exit 125; }
run_as=$5; shift 5
unset PWD OLDPWD SHLVL _
echo
if [ "$run_as" = - ]; then exec "$@"; fi
exec "$0" --reuid="$run_as" --regid="$run_as" --clear-groups -- "$@"
"""
STARTED = b"\n"


@functools.cache
def setpriv_path() -> str | None:
    return shutil.which("setpriv", path="/usr/bin:/bin:/usr/sbin:/sbin")


def cpu_seconds(limits: Limits) -> int:
    """RLIMIT_CPU of a local bot: the match's whole length, a backstop to the
    wall-clock limits (the cgroup, when there is one, adds memory, pids and CPU
    share limits)."""
    return int(limits.match_s) + 1


def launcher_argv(
    argv: Sequence[str],
    limits: Limits,
    *,
    cgroup_procs: Sequence[str],
    run_as: int | None,
) -> list[str]:
    """The command that starts `argv` inside `limits`, in the cgroup whose
    `cgroup.procs` files are `cgroup_procs` (that group then holds its memory, and
    the address space is not limited); after `Popen`, call `wait_started` with the
    process's stdout."""
    setpriv = setpriv_path()
    if run_as is not None and setpriv is None:
        raise InfrastructureError("setpriv (util-linux) is not installed")
    return [
        SHELL,
        "-c",
        _SCRIPT,
        setpriv or "setpriv",  # $0: the program that drops privileges
        str(len(cgroup_procs)),
        *cgroup_procs,
        "-" if cgroup_procs else str(limits.memory_bytes // _KIB),
        str(limits.open_files),
        str(limits.file_bytes // _BLOCK),
        str(cpu_seconds(limits)),
        "-" if run_as is None else str(int(run_as)),
        *argv,
    ]


def wait_started(stdout_fd: int) -> bool:
    """Block until the launcher says the bot is starting (True) or its stdout ends
    (False: it failed, and its stderr says why). Reads nothing of the bot's own."""
    return os.read(stdout_fd, len(STARTED)) == STARTED
