"""What every Go trial of a run shares, built once and cached: a build cache warmed with the standard
library packages challenges use (compiling them takes a minute).

Trials never write it: their go commands read it in place through a cache program that keeps what
they build in a layer of their own (`layered`). The key covers the Go binary
and version, so a new Go rebuilds it. `python -m agentbench.toolchains.go` builds it ahead of time.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from agentbench import process
from agentbench.errors import RunError
from agentbench.toolchains.go.tools import SYSTEM_PYTHON, find_go, go_env
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


CACHE_PROGRAM = Path(__file__).parent / "exec" / "agentbench_go_cache.py"
"""The GOCACHEPROG every trial's go commands use (see its docstring)."""


def layered(assets: Path, where: Path) -> dict[str, str]:
    """The variables of a go command that reads the warmed cache in place and writes what it builds
    into a fresh layer of its own, `where/gocache-layer` (GOCACHE: an empty `where/gocache`, which the
    go command still opens). Both are made now; the caller hands them to the trial's user.

    No trial copies the warmed cache (113 MB: one to two seconds a copy) and none writes it: the
    cache program answers from it first, so nothing a trial's process puts in its layer stands in for
    an output the warmed cache holds (the `covdata` tool the harness runs among them). Each command
    tree (hidden run, own build and tests) has its own layer: nothing is handed from one to another."""
    for name in ("gocache", "gocache-layer"):
        (where / name).mkdir(exist_ok=True)
    program = _program(assets)
    python = SYSTEM_PYTHON if SYSTEM_PYTHON.exists() else Path(sys.executable)
    return {"GOCACHE": str(where / "gocache"),
            "GOCACHEPROG": f"{python} -I -S {program} {assets / 'gocache'} {where / 'gocache-layer'}"}


def layer_folders(where: Path) -> tuple[Path, Path]:
    """The folders `layered` made in `where` (for the trial's user to write)."""
    return where / "gocache", where / "gocache-layer"


def _program(assets: Path) -> Path:
    """The cache program, in the assets folder (every command may read it, none may write it),
    named by its content so a changed program never meets an old copy."""
    data = CACHE_PROGRAM.read_bytes()
    program = assets / f"agentbench_go_cache_{hashlib.sha256(data).hexdigest()[:12]}.py"
    if not program.is_file():
        with tempfile.NamedTemporaryFile(dir=assets, delete=False, suffix=".tmp") as handle:
            handle.write(data)
        os.chmod(handle.name, 0o644)
        os.replace(handle.name, program)
    return program


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
