"""semver_tool: parse, validate, compare and bump Semantic Versioning 2.0.0 versions."""

from semver_tool.version import BUMP_PARTS, Version, compare

__all__ = ["BUMP_PARTS", "Version", "compare"]
