#!/bin/sh
# Install Debian's headless Chromium and its WebDriver when they are missing (CI, `nox -s browser`).
# Needs root or sudo; a machine that already has both does nothing.
set -eu
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
    SUDO="sudo"
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    chromium chromium-driver fonts-noto-cjk >/dev/null
chromium --version
chromedriver --version
