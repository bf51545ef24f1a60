#!/usr/bin/env bash
# The Docker engine and the bot runtime image for the sandbox's `docker` backend.
# Installs docker.io and debootstrap from Debian if missing, starts dockerd if it
# does not answer, and builds onecard-bot-runtime:latest offline (no registry):
# see sandbox/runtime/build_offline.sh. Idempotent; needs root.
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" ca-certificates
fi

if ! docker info >/dev/null 2>&1; then
    mkdir -p /var/log
    nohup dockerd >/var/log/dockerd-ci.log 2>&1 &
    for _ in $(seq 1 60); do
        docker info >/dev/null 2>&1 && break
        sleep 1
    done
    if ! docker info >/dev/null 2>&1; then
        tail -n 30 /var/log/dockerd-ci.log >&2
        echo "dockerd did not start" >&2
        exit 1
    fi
fi
echo "docker engine $(docker version --format '{{.Server.Version}}') answers"

sandbox/runtime/build_offline.sh "${ARENA_SANDBOX_IMAGE:-onecard-bot-runtime:latest}"
