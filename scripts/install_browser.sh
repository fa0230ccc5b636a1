#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium and its WebDriver for the real-browser test
# (tests/api/test_browser.py), axe-core for its accessibility checks and Pyodide for the
# page's offline scorer (scripts/install_pyodide.sh). Idempotent.
set -euo pipefail

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        SUDO="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO apt-get install -y -q --no-install-recommends chromium chromium-driver
fi

# The page's offline scorer runtime, which the browser test scores with offline.
"$(dirname "$0")/install_pyodide.sh"

# axe-core (MPL-2.0), the accessibility checker the browser test runs in the page: fetched
# from npm into .cache/axe at setup, never committed. Pinned, so the checks do not move.
AXE_VERSION="4.10.3"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
AXE_DIR="$ROOT/.cache/axe"
if [ ! -f "$AXE_DIR/axe-$AXE_VERSION.min.js" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        # Not fatal: the accessibility checks skip (and fail under CI=true) without it.
        echo "install_browser: npm not found, axe-core not fetched (apt-get install npm)" >&2
        exit 0
    fi
    mkdir -p "$AXE_DIR"
    tarball="$(cd "$AXE_DIR" && npm pack --silent "axe-core@$AXE_VERSION")"
    tar -xzf "$AXE_DIR/$tarball" -C "$AXE_DIR" package/axe.min.js package/LICENSE
    mv "$AXE_DIR/package/axe.min.js" "$AXE_DIR/axe-$AXE_VERSION.min.js"
    mv "$AXE_DIR/package/LICENSE" "$AXE_DIR/LICENSE"
    rm -rf "$AXE_DIR/package" "$AXE_DIR/$tarball"
    echo "install_browser: axe-core $AXE_VERSION in $AXE_DIR"
fi
