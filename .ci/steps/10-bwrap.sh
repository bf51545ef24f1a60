#!/usr/bin/env bash
# bubblewrap for the sandbox's `bwrap` backend (tests/sandbox run every hostile bot
# under it). Idempotent; needs root and Debian's apt mirror.
set -euo pipefail

if ! command -v bwrap >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends bubblewrap
fi

# Fail here, with a clear message, if this machine cannot unshare namespaces.
if ! bwrap --unshare-all --die-with-parent --ro-bind / / true; then
    echo "bwrap cannot create namespaces on this machine" >&2
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
echo "bwrap $(bwrap --version | cut -d' ' -f2) works, unprivileged too"
