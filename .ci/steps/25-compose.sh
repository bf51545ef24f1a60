#!/usr/bin/env bash
# Docker Compose for the production stack's test (tests/compose/): the compose
# plugin where the machine has it, else Debian's docker-compose (v1, the only one
# Debian bookworm packages). Idempotent; needs root and runs after 20-docker.sh.
set -euo pipefail

if docker compose version >/dev/null 2>&1; then
    echo "compose plugin $(docker compose version --short) present"
    exit 0
fi
if ! command -v docker-compose >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose
fi
echo "docker-compose $(docker-compose version --short) present"
