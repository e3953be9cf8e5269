#!/usr/bin/env bash
# Qwen Code (npm @qwen-code/qwen-code), pinned; needs Node >= 22 (ci/install/node22.sh).
set -euo pipefail
TOOLS=${AGENTBENCH_TOOLS:-/opt/agentbench-tools}
VERSION=0.24.4
mkdir -p "$TOOLS/bin"
export PATH="$TOOLS/bin:$PATH"
if [ "$("$TOOLS/bin/qwen" --version 2>/dev/null || true)" != "$VERSION" ]; then
    npm install --prefix "$TOOLS/qwen" "@qwen-code/qwen-code@$VERSION" --no-audit --no-fund --loglevel=error
fi
# The package ships its vendored ripgrep without the execute bit (Qwen Code then falls back to a
# slower built-in grep): restore it.
chmod +x "$TOOLS/qwen/node_modules/@qwen-code/qwen-code/vendor/ripgrep/"*-linux/rg
ln -sf "$TOOLS/qwen/node_modules/.bin/qwen" "$TOOLS/bin/qwen"
