"""`python -m agentbench.toolchains.go`: build the Go toolchain's cached assets now
(compiles the standard library into the warmed build cache; `.ci/run` does this before the tests)."""

from __future__ import annotations

from agentbench.toolchains.base import print_assets
from agentbench.toolchains.go.assets import go_assets


def main() -> None:
    """Build (or find) the assets and print their folder."""
    print_assets(go_assets, "go")


if __name__ == "__main__":
    main()
