#!/usr/bin/env bash
# Google Gemini CLI (npm @google/gemini-cli), pinned; runs on the Node 22 from ci/install/node22.sh.
set -euo pipefail
TOOLS=${AGENTBENCH_TOOLS:-/opt/agentbench-tools}
VERSION=0.61.0
mkdir -p "$TOOLS/bin"
export PATH="$TOOLS/bin:$PATH"
if [ "$("$TOOLS/bin/gemini" --version 2>/dev/null || true)" != "$VERSION" ]; then
    npm install --prefix "$TOOLS/gemini" "@google/gemini-cli@$VERSION" --no-audit --no-fund --loglevel=error
fi
ln -sf "$TOOLS/gemini/node_modules/.bin/gemini" "$TOOLS/bin/gemini"
