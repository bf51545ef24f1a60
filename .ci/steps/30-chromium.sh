#!/usr/bin/env bash
# Debian's Chromium for the browser tests (tests/browser, Playwright for Python
# driving /usr/bin/chromium), and DejaVu for the card suit symbols in screenshots.
# Idempotent; needs root and Debian's apt mirror.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Fail here, with a clear message, if this Chromium cannot start headless. (Its
# complaints about a missing D-Bus are normal in a container and kept quiet.)
log=$(mktemp)
if ! chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --dump-dom about:blank >/dev/null 2>"$log"; then
    cat "$log" >&2
    echo "chromium cannot start headless on this machine" >&2
    exit 1
fi
rm -f "$log"
echo "$(chromium --version 2>/dev/null) starts headless"
