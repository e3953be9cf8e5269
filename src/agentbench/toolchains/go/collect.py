"""Go coverage the test binaries cannot write where the harness reads: the `-exec` program's channel.

Each `go test` command runs with `-coverpkg=./...` and `-exec` set to the harness's program
(`exec/agentbench_go_exec.py`, copied under a random name): the go command starts it for every test
binary, and it runs the binary with `-test.gocoverdir` set to a fresh folder, then sends the one
meta-data file and the one counters file the binary's coverage runtime wrote there over a channel
with the run's secret (see its docstring). The harness writes those bytes into a folder of its own
(one per binary) and turns them into a text profile with `go tool covdata textfmt`. No file the go
command or a test binary writes is read: a profile planted anywhere, or blocks appended to one, are
never seen. A command that sets `-exec` or `-toolexec` itself (a program of the project's that would
hold the channel) runs without the channel: its coverage is nothing.
"""

from __future__ import annotations

import base64
import os
import re
import secrets
import shutil
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from agentbench.models import CommandResult
from agentbench.toolchains.base import CommandSpec, MeasureContext, run_command
from agentbench.toolchains.channel import Stream, key_fd, key_pipe, open_channel
from agentbench.toolchains.go.assets import layer_folders, layered
from agentbench.toolchains.go.tools import SYSTEM_PYTHON, go_env

EXEC_SOURCE = Path(__file__).parent / "exec" / "agentbench_go_exec.py"
KEY_COPIES = 200
"""Test binaries one command can start with the channel (one key record each)."""
OWN_EXEC = re.compile(r"^--?(exec|toolexec)(=|$)")
_META = re.compile(r"^covmeta\.[0-9a-f]{32}$")
_COUNTERS = re.compile(r"^covcounters\.[0-9a-f]{32}\.\d+\.\d+$")


@dataclass(slots=True)
class Collected:
    """What the -exec programs of every command sent."""

    folders: list[Path] = field(default_factory=list)
    """One harness folder per test binary: its meta-data and counters files."""
    void: list[str] = field(default_factory=list)
    """Why a binary's coverage was void."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ExecProgram:
    """The installed -exec program."""

    file: Path

    @property
    def flag(self) -> str:
        """The `-exec` flag for `go test`."""
        python = SYSTEM_PYTHON if SYSTEM_PYTHON.exists() else Path(sys.executable)
        return f"-exec={python} -I -S {self.file}"


def install_exec(ctx: MeasureContext) -> ExecProgram:
    """Copy the -exec program under a random name into a fresh harness folder the trial can read."""
    folder = ctx.private_dir("go-exec")
    program = ExecProgram(file=folder / f"agentbench_go_exec_{secrets.token_hex(8)}.py")
    shutil.copyfile(EXEC_SOURCE, program.file)
    ctx.let_read(folder)
    return program


def own_exec(argv: tuple[str, ...]) -> bool:
    """Whether a `go test` argv names an -exec or -toolexec program of its own."""
    return any(OWN_EXEC.match(arg) for arg in argv)


def run_with_channel(spec: CommandSpec, ctx: MeasureContext, work: Path, program: ExecProgram,
                     into: Collected) -> CommandResult:
    """Run `spec` (a `go test` argv already holding `program.flag`) with the channel; add what its
    -exec programs sent to `into`."""
    nonce = secrets.token_hex(16)
    with open_channel() as channel:
        payload = {"fd": channel.write_fd, "nonce": nonce, "inode": str(os.fstat(channel.write_fd).st_ino)}
        with key_pipe(payload, copies=KEY_COPIES) as key:
            ran = replace(spec, env={**spec.env, "AGENTBENCH_GOCOVER_KEY": key},
                          pass_fds=(channel.write_fd, key_fd(key)))
            confinement = ctx.confinement(work)
            result = run_command(ran, ctx, replace(confinement, readable=(*confinement.readable,
                                                                         program.file.parent)))
            stream = channel.stream()
    _keep(stream, nonce, ctx, into)
    return result


def _keep(stream: Stream, nonce: str, ctx: MeasureContext, into: Collected) -> None:
    for event in stream.events:
        if event.get("nonce") != nonce:
            continue
        if event.get("e") == "void":
            into.void.append(str(event.get("reason"))[:200])
            continue
        files = event.get("files")
        if event.get("e") != "cover" or not isinstance(files, dict):
            continue
        folder = ctx.private_dir(f"gocover-{len(into.folders) + 1}")
        if _write(files, folder):
            into.folders.append(folder)


def _write(files: dict[str, object], folder: Path) -> bool:
    names = sorted(files)
    if len(names) != 2 or not any(_META.match(n) for n in names) or not any(_COUNTERS.match(n) for n in names):
        return False
    for name in names:
        try:
            (folder / name).write_bytes(base64.b64decode(str(files[name]), validate=True))
        except ValueError:
            return False
    return True


def to_profile(collected: Collected, ctx: MeasureContext, go: Path, work: Path) -> Path | None:
    """One text profile of every binary's data, by `go tool covdata textfmt` (None: no data)."""
    if not collected.folders:
        return None
    out = ctx.private_dir("gocover-profile")
    profile = out / "profile.txt"
    for folder in collected.folders:
        ctx.let_read(folder)
    # NOTE: a fresh cache layer, not the one the tests wrote: covdata is linked from the warmed
    # cache's outputs alone (an entry the tests planted under its link's action id is never seen)
    caches = ctx.private_dir("gocover-cache")
    env = go_env(go, ctx.dirs, work, layered(ctx.assets, caches))
    ctx.let_read(caches)
    ctx.let_write(out, *layer_folders(caches))
    inputs = ",".join(str(f) for f in collected.folders)
    result = run_command(CommandSpec(
        command="go tool covdata textfmt", env=env, log_name="coverage-profile",
        argv=(str(go), "tool", "covdata", "textfmt", f"-i={inputs}", f"-o={profile}"), cwd=out),
        ctx, ctx.confinement(work, out, *layer_folders(caches), readable=tuple(collected.folders)))
    return profile if result.ok else None
