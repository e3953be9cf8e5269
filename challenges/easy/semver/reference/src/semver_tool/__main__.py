"""Entry point for ``python -m semver_tool``."""

from semver_tool.cli import main

raise SystemExit(main())
