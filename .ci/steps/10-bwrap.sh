#!/usr/bin/env bash
# bubblewrap for the sandbox's `bwrap` backend (tests/sandbox run every hostile bot
# under it), with what its bots need: the system's python3 (the interpreter they
# run on), libseccomp (their seccomp filter) and writable cgroups (their memory,
# pids and CPU limits: without them the backend refuses bots). Idempotent; needs
# root and Debian's apt mirror.
set -euo pipefail

missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
[ -x /usr/bin/python3 ] || missing+=(python3)
ldconfig -p 2>/dev/null | grep 'libseccomp\.so\.2 ' >/dev/null || missing+=(libseccomp2)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Fail here, with a clear message, if this machine cannot unshare namespaces.
if ! bwrap --unshare-all --die-with-parent --ro-bind / / true; then
    echo "bwrap cannot create namespaces on this machine" >&2
    exit 1
fi
# Bots may not make user namespaces of their own (bwrap 0.8 and later; the seccomp
# filter refuses them too).
if ! bwrap --unshare-user --disable-userns --ro-bind / / true; then
    echo "this bwrap cannot --disable-userns (0.8 or later needed)" >&2
    exit 1
fi
# The sandbox runs bwrap as "nobody" (uid 65534), so that a bot is not uid 0 outside
# its namespace: that needs unprivileged user namespaces.
as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups "$@"; }
if ! as_nobody bwrap --unshare-all --ro-bind / / true 2>/dev/null; then
    if [ -e /proc/sys/kernel/unprivileged_userns_clone ]; then
        sysctl -q -w kernel.unprivileged_userns_clone=1
    fi
    if ! as_nobody bwrap --unshare-all --ro-bind / / true; then
        echo "unprivileged user namespaces are disabled: bwrap bots would run as uid 0" >&2
        exit 1
    fi
fi
# Everything the backend checks before it runs a bot, a cgroup above all (the sandbox
# runs on the standard library: the project's venv is not needed, nor made yet).
problem=$(/usr/bin/python3 -I -c 'import sys; sys.path.insert(0, "."); \
from sandbox.backends.bwrap import bwrap_problem; print(bwrap_problem() or "")' 2>&1) || true
if [ -n "$problem" ]; then
    echo "the bwrap backend cannot run bots here: $problem" >&2
    exit 1
fi
echo "bwrap $(bwrap --version | cut -d' ' -f2) works, unprivileged too, with cgroups and seccomp"
