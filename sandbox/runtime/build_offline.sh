#!/usr/bin/env bash
# Build the bot runtime image without a container registry:
#   1. debootstrap a minimal Debian bookworm with python3 and `docker import` it
#      (once; the base is kept as onecard-bot-base:bookworm);
#   2. add the engine package on top (Dockerfile.offline).
# Idempotent: step 2 is skipped when the image's engine hash label already matches.
# Usage: sandbox/runtime/build_offline.sh [IMAGE]   (run as root, dockerd running)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
image="${1:-${ARENA_SANDBOX_IMAGE:-onecard-bot-runtime:latest}}"
base="onecard-bot-base:bookworm"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

# The hash covers everything that ends up in the image on top of the base.
engine_hash="$(cd "$repo" && { find engine -name '*.py' -type f | LC_ALL=C sort | xargs sha256sum; \
    sha256sum sandbox/runtime/Dockerfile.offline; } | sha256sum | cut -c1-16)"

current="$(docker image inspect -f '{{index .Config.Labels "onecard.engine-hash"}}' "$image" 2>/dev/null || true)"
if [ "$current" = "$engine_hash" ]; then
    echo "$image is up to date (engine $engine_hash)"
    exit 0
fi

if ! docker image inspect "$base" >/dev/null 2>&1; then
    rootfs="$(mktemp -d /var/tmp/onecard-rootfs.XXXXXX)"
    trap 'rm -rf "$rootfs"' EXIT
    debootstrap --variant=minbase --include=python3 bookworm "$rootfs" "$mirror"
    # Nothing in a bot container needs apt's caches, docs or locales.
    rm -rf "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* \
        "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
    tar -C "$rootfs" -c . | docker import \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'CMD ["python3"]' - "$base"
fi

context="$(mktemp -d)"
trap 'rm -rf "$context" ${rootfs:+"$rootfs"}' EXIT
cp -r "$repo/engine" "$context/engine"
find "$context/engine" -name '__pycache__' -prune -exec rm -rf {} +
docker build --quiet --build-arg "BASE=$base" --label "onecard.engine-hash=$engine_hash" \
    -f "$here/Dockerfile.offline" -t "$image" "$context"
echo "built $image (engine $engine_hash)"
