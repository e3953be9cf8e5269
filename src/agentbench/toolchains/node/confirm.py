"""The harness's second coverage collector for Node: a second run of each `node --test` command.

The V8 data of the agent's own test run are written by the test processes themselves, into a folder
they must be able to write (NODE_V8_COVERAGE): a test can plant a file there claiming every byte
ran, and product code can write one too. So those data are only claims. Each `node --test` command
runs once more, its outcomes logged (`cover-N`) and never counted, with every test file in one
process (`--experimental-test-isolation=none`) and the harness's collector (`js/collector.cjs`)
preloaded before any module of the project: it records V8's precise coverage through the inspector
and sends it over a fresh channel with the run's secret, along with the source V8 compiled for each
script. A product line counts as covered only when both the claims and this record say it ran, and
the record only for a script whose source is the snapshot's file (see `coverage.py`).

No coverage folder is involved in the second run: a planted file is never read. Lines run only in a
subprocess of the tests are not in the record and do not count (see docs/scoring-integrity.md).
A command that passes flags which would run code before the collector or open a debugger to the
process (`--env-file`, `--inspect`...) gets no second run, so its lines are not confirmed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from agentbench.toolchains.base import CommandSpec, MeasureContext, run_command
from agentbench.toolchains.channel import Stream, key_fd, key_pipe, open_channel
from agentbench.toolchains.node.testrun import node_argv
from agentbench.toolchains.node.tools import NodeTools

COLLECTOR_SOURCE = Path(__file__).parent / "js" / "collector.cjs"
DENIED = ("--env-file", "--env-file-if-exists", "--inspect", "--debug")
"""Flags under which code of the project could run before the collector (an env file's
NODE_OPTIONS), or a debugger reach the process. (`--require` and `--import` of the command load after
the collector, which comes first.)"""
STRIPPED = ("--experimental-test-isolation", "--test-isolation", "--experimental-test-coverage",
            "--test-coverage")
"""Flags the second run drops (it sets the isolation itself; Node's own coverage would reset V8's
counters)."""
_SOURCE_URL = re.compile(r"\n\n//# sourceURL=[^\n]*\Z")

Confirmed = dict[str, list[dict[str, Any]]]
"""Per resolved path where the tests ran: [{"sha256": source digest, "ranges": [[start, end, count]]}]."""


def second_run_argv(command: str, tools: NodeTools, collector: Path) -> tuple[str, ...] | None:
    """The second run's argv for one test command, None when it gets none (not `node --test`, or a
    denied flag)."""
    argv, direct = node_argv(command, tools)
    if not direct:
        return None
    rest = [a for a in argv[1:] if a.split("=", 1)[0] not in STRIPPED]
    if any(a.split("=", 1)[0] in DENIED or a.startswith(("--inspect", "--debug")) for a in rest):
        return None
    return (argv[0], "--require", str(collector), "--disable-sigusr1",
            "--experimental-test-isolation=none", *rest)


def collect(commands: Sequence[str], env: Mapping[str, str], ctx: MeasureContext, work: Path,
            tools: NodeTools) -> Path:
    """Run the second run of each command; write what the collector reported to a harness-private
    file and return its path."""
    folder = ctx.private_dir("collector")
    collector = folder / f"agentbench-collector-{secrets.token_hex(8)}.cjs"
    shutil.copyfile(COLLECTOR_SOURCE, collector)
    ctx.let_read(folder)
    found: Confirmed = {}
    for index, command in enumerate(commands, start=1):
        argv = second_run_argv(command, tools, collector)
        if argv is not None:
            spec = CommandSpec(command=command, env=env, log_name=f"cover-{index}", argv=argv)
            _merge(found, _run(spec, ctx, work, folder))
    out = ctx.private_dir("collector-data") / "confirmed.json"
    out.write_text(json.dumps(found), encoding="utf-8")
    return out


def _run(spec: CommandSpec, ctx: MeasureContext, work: Path, folder: Path) -> Confirmed:
    """One second run: its outcomes are only logged; what the collector sent with this run's secret."""
    nonce = secrets.token_hex(16)
    with open_channel() as channel:
        payload = {"fd": channel.write_fd, "nonce": nonce, "inode": str(os.fstat(channel.write_fd).st_ino)}
        with key_pipe(payload, copies=1) as key:
            confinement = ctx.confinement(work)
            run_command(replace(spec, env={**spec.env, "AGENTBENCH_COVERAGE_KEY": key},
                                pass_fds=(channel.write_fd, key_fd(key))),
                        ctx, replace(confinement, readable=(*confinement.readable, folder)))
            stream = channel.stream()
    return _scripts(stream, nonce)


def _scripts(stream: Stream, nonce: str) -> Confirmed:
    """The collector's scripts, only from a run that finished reporting (its `done` line)."""
    mine = [e for e in stream.events if e.get("nonce") == nonce]
    if not any(e.get("e") == "done" for e in mine):
        return {}
    found: Confirmed = {}
    for event in mine:
        url, source, ranges = event.get("url"), event.get("source"), event.get("ranges")
        if event.get("e") != "script" or not isinstance(url, str) or not url.startswith("file://"):
            continue
        if not isinstance(source, str) or not isinstance(ranges, list):
            continue
        path = os.path.realpath(unquote(urlparse(url).path))
        found.setdefault(path, []).append({"sha256": source_digest(source), "ranges": ranges})
    return found


def source_digest(source: str) -> str:
    """SHA-256 of the text V8 compiled, without the sourceURL line Node appends to stripped TypeScript."""
    text = _SOURCE_URL.sub("", source)
    return hashlib.sha256(text.encode("utf-8", errors="replace")).hexdigest()


def _merge(into: Confirmed, more: Confirmed) -> None:
    for path, scripts in more.items():
        into.setdefault(path, []).extend(scripts)


def load_confirmed(path: Path | None) -> Confirmed | None:
    """What `collect` wrote (None without a file: no cross-check)."""
    if path is None:
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
