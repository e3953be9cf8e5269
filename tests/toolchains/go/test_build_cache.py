"""The warmed build cache is read in place: a trial's go commands never copy or write it; what they
build goes into a layer of their own command tree, and nothing put in a layer stands in for an output
the warmed cache holds (`exec/agentbench_go_cache.py`, the GOCACHEPROG)."""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from agentbench.toolchains.go.assets import CACHE_PROGRAM
from tests.toolchains.go.test_go import LIB, TESTS


def _entry(folder: Path, action: str, body: bytes) -> str:
    output = hashlib.sha256(body).hexdigest()
    (folder / action[:2]).mkdir(parents=True, exist_ok=True)
    (folder / output[:2]).mkdir(parents=True, exist_ok=True)
    (folder / action[:2] / f"{action}-a").write_text(f"v1 {action} {output} {len(body):20d} {0:20d}\n")
    (folder / output[:2] / f"{output}-d").write_bytes(body)
    return output


def _ask(warm: Path, layer: Path, lines: list[str]) -> dict[int, dict]:
    done = subprocess.run([sys.executable, "-I", "-S", str(CACHE_PROGRAM), str(warm), str(layer)],
                          input="".join(line + "\n\n" for line in lines), capture_output=True, text=True,
                          timeout=60, check=True)
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {a["ID"]: a for a in answers}


def _b64(hex_text: str) -> str:
    return base64.b64encode(bytes.fromhex(hex_text)).decode()


def test_the_warmed_cache_answers_first_and_puts_go_to_the_layer(tmp_path: Path) -> None:
    warm, layer = tmp_path / "warm", tmp_path / "layer"
    layer.mkdir()
    shared, fresh = "a" * 64, "b" * 64
    warm_output = _entry(warm, shared, b"the warmed covdata")
    _entry(layer, shared, b"a planted covdata")  # a trial process wrote its layer
    body = b"built by the trial"
    answers = _ask(warm, layer, [
        json.dumps({"ID": 1, "Command": "get", "ActionID": _b64(shared)}),
        json.dumps({"ID": 2, "Command": "get", "ActionID": _b64(fresh)}),
        json.dumps({"ID": 3, "Command": "put", "ActionID": _b64(fresh),
                    "OutputID": _b64(hashlib.sha256(body).hexdigest()), "BodySize": len(body)})
        + "\n\n" + json.dumps(base64.b64encode(body).decode()),
        json.dumps({"ID": 4, "Command": "get", "ActionID": _b64(fresh)}),
        json.dumps({"ID": 5, "Command": "close"}),
    ])
    assert answers[0]["KnownCommands"] == ["get", "put", "close"]
    assert Path(answers[1]["DiskPath"]).read_bytes() == b"the warmed covdata"
    assert base64.b64decode(answers[1]["OutputID"]).hex() == warm_output
    assert answers[2]["Miss"] is True
    assert Path(answers[3]["DiskPath"]).is_relative_to(layer)
    assert Path(answers[4]["DiskPath"]).read_bytes() == body and answers[4]["Size"] == len(body)
    assert len(list(warm.rglob("*-d"))) == 1  # nothing was written into the warmed cache
    assert 5 in answers


def test_go_commands_never_write_the_warmed_cache(own_tests, assets: Path) -> None:
    before = {str(p): p.stat().st_mtime_ns for p in (assets / "gocache").rglob("*")}
    own, ctx = own_tests({"m.go": LIB, "m_test.go": TESTS})
    assert (own.tests.passed, own.tests.failed) == (4, 1)
    assert {str(p): p.stat().st_mtime_ns for p in (assets / "gocache").rglob("*")} == before
    layers = list(ctx.dirs.base.glob("env-*/gocache-layer"))
    assert layers and any(p.is_file() for p in layers[0].rglob("*"))  # the project's own outputs
    assert not any(ctx.dirs.base.glob("**/gocache/*/*-d"))  # no copy of the warmed cache
