#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium and its WebDriver for the real-browser test
# (tests/api/test_browser.py). Idempotent: does nothing when /usr/bin/chromium is present.
set -euo pipefail

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium chromium-driver
