#!/usr/bin/env bash
# OpenCode (npm opencode-ai), pinned; the npm package pulls its native binary as an optional dependency.
set -euo pipefail
TOOLS=${AGENTBENCH_TOOLS:-/opt/agentbench-tools}
VERSION=1.18.33
mkdir -p "$TOOLS/bin"
export PATH="$TOOLS/bin:$PATH"
if [ "$("$TOOLS/bin/opencode" --version 2>/dev/null || true)" != "$VERSION" ]; then
    npm install --prefix "$TOOLS/opencode" "opencode-ai@$VERSION" --no-audit --no-fund --loglevel=error
fi
ln -sf "$TOOLS/opencode/node_modules/.bin/opencode" "$TOOLS/bin/opencode"
