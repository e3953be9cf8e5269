"""`python -m agentbench.toolchains.go`: build the Go toolchain's cached assets now
(compiles the standard library into the warmed build cache; `.ci/run` does this before the tests)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from agentbench.toolchains.go.assets import go_assets
from agentbench.workspace import cache_dir


def _announce(line: str) -> None:
    sys.stderr.write(line + "\n")


def main() -> None:
    """Build (or find) the assets and print their folder."""
    with tempfile.TemporaryDirectory(prefix="agentbench-go-") as logs:
        root = go_assets(cache_dir(), Path(logs), _announce)
    sys.stdout.write(f"{root}\n")


if __name__ == "__main__":
    main()
