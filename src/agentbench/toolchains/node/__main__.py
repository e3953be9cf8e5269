"""`python -m agentbench.toolchains.node`: build the TypeScript toolchain's cached assets now
(fetches the pinned npm packages from the registry once; `.ci/run` does this before the tests)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from agentbench.toolchains.node.assets import node_assets
from agentbench.workspace import cache_dir


def _announce(line: str) -> None:
    sys.stderr.write(line + "\n")


def main() -> None:
    """Build (or find) the assets and print their folder."""
    with tempfile.TemporaryDirectory(prefix="agentbench-node-") as logs:
        root = node_assets(cache_dir(), Path(logs), _announce)
    sys.stdout.write(f"{root}\n")


if __name__ == "__main__":
    main()
