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
    echo "bwrap cannot create namespaces on this machine (user namespaces disabled?)" >&2
    exit 1
fi
echo "bwrap $(bwrap --version | cut -d' ' -f2) works"
