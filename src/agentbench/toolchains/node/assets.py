"""What every TypeScript trial of a run shares, built once and cached: a warmed npm cache.

The cache holds the npm packages the built-in challenges pin (`PINNED`), fetched from the registry
once (`npm install` into a scratch project, which also proves they install). Trials never write it:
each gets its own copy (`trial_npm_cache`), so what one trial installs never reaches another, and
`npm install` of the pinned packages works offline. `python -m agentbench.toolchains.node` builds it
ahead of time (`.ci/run` does, so the tests need the registry only then).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from agentbench import process
from agentbench.errors import RunError
from agentbench.toolchains.node.tools import NodeTools, find_node_tools, npm_variables
from agentbench.workspace import cache_lock

PINNED: tuple[str, ...] = ("typescript@5.9.3", "@types/node@22.20.7")
"""npm packages every trial can install offline (the versions the built-in challenges pin)."""

LAYOUT = 1
"""Bumped whenever what the assets hold changes, so caches are rebuilt."""

NETWORK_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy",
                     "NODE_EXTRA_CA_CERTS")
"""Passed to the one-time registry fetch only (never to a trial)."""


def node_assets(cache: Path, log_dir: Path, announce: Callable[[str], None] = lambda _: None) -> Path:
    """The cached assets folder (built under a lock when missing); holds `tools.json`, `npm-cache/`."""
    tools = find_node_tools(log_dir)
    key = hashlib.sha256(f"{tools.node}|{tools.version}|{tools.npm}|{','.join(PINNED)}|{LAYOUT}"
                         .encode()).hexdigest()[:12]
    root = cache / "node" / f"assets-{key}"
    if not (root / "READY").exists():
        with cache_lock(root.parent / f"assets-{key}.lock"):
            if not (root / "READY").exists():
                announce(f"warming the npm cache for TypeScript trials once ({', '.join(PINNED)}) in "
                         f"{root}; later runs reuse it offline")
                _build(root, tools, log_dir)
    return root


def load_tools(assets: Path) -> NodeTools:
    """The Node and npm the assets were built with."""
    data = json.loads((assets / "tools.json").read_text(encoding="utf-8"))
    return NodeTools(node=Path(data["node"]), npm=Path(data["npm"]), version=data["version"])


def trial_npm_cache(assets: Path, dest: Path) -> Path:
    """A private copy of the warmed npm cache at `dest` (a new folder)."""
    shutil.copytree(assets / "npm-cache", dest, symlinks=True)
    return dest


def _build(root: Path, tools: NodeTools, log_dir: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)
    scratch = root / "warm"
    (root / "home").mkdir(parents=True)
    scratch.mkdir()
    (scratch / "package.json").write_text('{"name": "agentbench-warm", "private": true}\n')
    env = {"PATH": tools.path, "HOME": str(root / "home"), **npm_variables(root / "npm-cache"),
           **{name: os.environ[name] for name in NETWORK_VARIABLES if name in os.environ}}
    result = process.run([str(tools.npm), "install", "--no-save", *PINNED], cwd=scratch, env=env,
                         timeout_s=900, stdout_path=log_dir / "npm-warm.log",
                         stderr_path=log_dir / "npm-warm.err")
    if not result.ok:
        raise RunError(f"could not fetch {', '.join(PINNED)} from the npm registry into {root} "
                       f"(see {result.stderr_path})",
                       "check access to the npm registry, or set AGENTBENCH_CACHE to a writable folder")
    (root / "tools.json").write_text(json.dumps({"node": str(tools.node), "npm": str(tools.npm),
                                                 "version": tools.version}) + "\n", encoding="utf-8")
    (root / "READY").write_text(",".join(PINNED) + "\n", encoding="utf-8")
