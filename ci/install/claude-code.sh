#!/usr/bin/env bash
# Claude Code (Anthropic) from the npm registry, pinned. The npm package's postinstall copies the
# native binary of its platform package (@anthropic-ai/claude-code-linux-x64, also from npm) over
# bin/claude.exe; nothing is downloaded from anywhere else.
set -euo pipefail
TOOLS=${AGENTBENCH_TOOLS:-/opt/agentbench-tools}
VERSION=2.1.332
PREFIX="$TOOLS/claude-code"
export PATH="$TOOLS/bin:$PATH"   # the postinstall script runs with the first `node` on PATH
mkdir -p "$TOOLS/bin"
if [ "$("$PREFIX/node_modules/.bin/claude" --version 2>/dev/null | cut -d' ' -f1)" != "$VERSION" ]; then
    npm install --prefix "$PREFIX" "@anthropic-ai/claude-code@$VERSION" --no-audit --no-fund --loglevel=error
fi
ln -sf "$PREFIX/node_modules/.bin/claude" "$TOOLS/bin/claude"
"$TOOLS/bin/claude" --version
