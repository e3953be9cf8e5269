"""What every Go trial of a run shares, built once and cached: a build cache warmed with the standard
library packages challenges use (compiling them takes a minute; a trial copies the cache in a second).

Trials never write it: each gets a private copy (`trial_build_cache`). The key covers the Go binary
and version, so a new Go rebuilds it. `python -m agentbench.toolchains.go` builds it ahead of time.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from agentbench import process
from agentbench.errors import RunError
from agentbench.toolchains.go.tools import find_go, go_env
from agentbench.workspace import TrialDirs, cache_lock

WARM_PACKAGES: tuple[str, ...] = (
    "bufio", "bytes", "container/heap", "container/list", "context", "encoding/csv", "encoding/json",
    "errors", "flag", "fmt", "hash/fnv", "io", "log", "maps", "math", "net/http", "net/http/httptest",
    "net/url", "os", "os/exec", "os/signal", "path/filepath", "regexp", "slices", "sort", "strconv",
    "strings", "sync", "sync/atomic", "testing", "text/tabwriter", "time", "unicode", "unicode/utf8",
)
"""Standard library packages compiled into the warmed cache (test and coverage builds included, and
`go tool covdata`, which turns the test binaries' coverage data into a profile)."""

LAYOUT = 2


def go_assets(cache: Path, log_dir: Path, announce: Callable[[str], None] = lambda _: None) -> Path:
    """The cached assets folder (built under a lock when missing): `tools.json` and `gocache/`."""
    go = find_go()
    key = hashlib.sha256(f"{go.resolve()}|{go.stat().st_size}|{','.join(WARM_PACKAGES)}|{LAYOUT}"
                         .encode()).hexdigest()[:12]
    root = cache / "go" / f"assets-{key}"
    if not (root / "READY").exists():
        with cache_lock(root.parent / f"assets-{key}.lock"):
            if not (root / "READY").exists():
                announce(f"warming the Go build cache once (the standard library) in {root}; "
                         "later runs reuse it")
                _build(root, go, log_dir)
    return root


def load_go(assets: Path) -> Path:
    """The `go` the assets were built with."""
    return Path(json.loads((assets / "tools.json").read_text(encoding="utf-8"))["go"])


TRIAL_CACHE = "agentbench-gocache"
"""Name of the trial's own build cache in its private root (a harness folder no agent process can
write under `--sandbox bwrap`): made by the first step that needs it, then handed on."""


def trial_build_cache(assets: Path, base: Path, work: Path) -> None:
    """The trial's private copy of the warmed build cache, at `work/gocache`.

    The copy (113 MB: a second each) is made once per trial: the hidden-test run makes it in the
    trial's root, and the agent's own build and tests take it over afterwards (moved, not copied).
    They run in a fresh folder made inside that root (`metrics.fresh_workspace`), so `base` or its
    parent holds it; both are harness folders no trial process can add an entry to. Nothing of one
    trial reaches another: every trial's root is new."""
    made = next((b / TRIAL_CACHE for b in (base, base.parent) if _made_cache(b / TRIAL_CACHE)), None)
    if made is not None:
        made.rename(work / "gocache")
    else:
        shutil.copytree(assets / "gocache", work / "gocache", symlinks=True)


def _made_cache(path: Path) -> bool:
    """A cache folder the harness made: a real folder in a folder of the harness's user that no one
    else may add entries to (never e.g. /tmp, which would hold whatever anyone put there)."""
    try:
        info, parent = path.lstat(), path.parent.lstat()
    except OSError:
        return False
    return (stat.S_ISDIR(info.st_mode) and parent.st_uid == os.getuid()
            and not parent.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def hidden_build_cache(assets: Path, base: Path) -> Path:
    """The build cache of a hidden-test run: the trial's own, made now in its private root."""
    made = base / TRIAL_CACHE
    if not made.is_dir():
        shutil.copytree(assets / "gocache", made, symlinks=True)
    return made


def _build(root: Path, go: Path, log_dir: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)
    module = root / "warm"
    dirs = TrialDirs(base=root, workspace=module, home=root / "home", tmp=root / "tmp")
    for folder in (module, dirs.home, dirs.tmp):
        folder.mkdir(parents=True)
    (module / "go.mod").write_text("module agentbench.warm\n\ngo 1.22\n", encoding="utf-8")
    imports = "".join(f'\t_ "{name}"\n' for name in WARM_PACKAGES)
    (module / "warm.go").write_text(f"package warm\n\nimport (\n{imports})\n\nfunc F() int {{ return 1 }}\n")
    (module / "warm_test.go").write_text(
        'package warm\n\nimport "testing"\n\nfunc TestF(t *testing.T) {\n\tif F() != 1 {\n'
        '\t\tt.Fatal("F")\n\t}\n}\n')
    env = go_env(go, dirs, root)
    for name, argv in (("build", ["build", "./..."]),
                       ("test", ["test", "-json", "-count=1", "-coverpkg=./...",
                                 f"-coverprofile={root / 'warm.out'}", "./..."]),
                       ("covdata", ["tool", "-n", "covdata"])):  # built once: coverage reads with it
        result = process.run([str(go), *argv], cwd=module, env=env, timeout_s=1800,
                             stdout_path=log_dir / f"go-warm-{name}.log",
                             stderr_path=log_dir / f"go-warm-{name}.err")
        if not result.ok:
            raise RunError(f"could not warm the Go build cache in {root} (see {result.stderr_path})",
                           "check the Go installation (bash ci/install/go.sh)")
    (root / "tools.json").write_text(json.dumps({"go": str(go)}) + "\n", encoding="utf-8")
    (root / "READY").write_text("ready\n", encoding="utf-8")
