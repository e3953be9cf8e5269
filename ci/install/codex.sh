#!/usr/bin/env bash
# OpenAI Codex CLI (npm @openai/codex), pinned; its launcher runs on the Node 22 from ci/install/node22.sh
# and starts the native binary shipped in the package's platform dependency.
set -euo pipefail
TOOLS=${AGENTBENCH_TOOLS:-/opt/agentbench-tools}
VERSION=0.171.0
mkdir -p "$TOOLS/bin"
export PATH="$TOOLS/bin:$PATH"
if [ "$("$TOOLS/bin/codex" --version 2>/dev/null || true)" != "codex-cli $VERSION" ]; then
    npm install --prefix "$TOOLS/codex" "@openai/codex@$VERSION" --no-audit --no-fund --loglevel=error
fi
ln -sf "$TOOLS/codex/node_modules/.bin/codex" "$TOOLS/bin/codex"
