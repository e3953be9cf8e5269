"""`python -m agentbench.toolchains.node`: build the TypeScript toolchain's cached assets now
(fetches the pinned npm packages from the registry once; `.ci/run` does this before the tests)."""

from __future__ import annotations

from agentbench.toolchains.base import print_assets
from agentbench.toolchains.node.assets import node_assets


def main() -> None:
    """Build (or find) the assets and print their folder."""
    print_assets(node_assets, "node")


if __name__ == "__main__":
    main()
