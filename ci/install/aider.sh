#!/usr/bin/env bash
# Aider (PyPI aider-chat), pinned, in its own venv (never in agentbench's environment).
set -euo pipefail
TOOLS=${AGENTBENCH_TOOLS:-/opt/agentbench-tools}
VERSION=0.86.2
PYTHON=${AIDER_PYTHON:-python3}
mkdir -p "$TOOLS/bin"
if [ "$("$TOOLS/aider/bin/python" -c 'import importlib.metadata as m; print(m.version("aider-chat"))' 2>/dev/null || true)" != "$VERSION" ]; then
    "$PYTHON" -m venv "$TOOLS/aider"
    "$TOOLS/aider/bin/python" -m pip install --quiet --disable-pip-version-check "aider-chat==$VERSION"
fi
ln -sf "$TOOLS/aider/bin/aider" "$TOOLS/bin/aider"
