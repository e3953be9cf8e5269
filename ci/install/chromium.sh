#!/usr/bin/env bash
# Chromium from Debian (apt) for the HTML report's browser test (tests/report/test_html.py), plus a
# font so screenshots have legible text. Idempotent: does nothing when Chromium is already there.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi dejavu; then
    exit 0
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core fontconfig >/dev/null
chromium --version
