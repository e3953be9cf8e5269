"""The built-in brownfield challenges: one per language, medium or hard, protected tests and
FAIL_TO_PASS / PASS_TO_PASS sets, and each passes `agentbench validate`."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentbench.loader import discover_challenges
from tests.cli.helpers import invoke
from tests.requirements import jobs

BROWNFIELD = ("medium/py-ledger-fix", "medium/ts-querystring-fix", "medium/go-lru-fix",
              "medium/py-ledger-monthly")


def test_one_per_language_with_protected_tests_and_sets() -> None:
    found = {c.id: c for c in discover_challenges() if c.workspace is not None}
    assert set(BROWNFIELD) <= set(found)
    assert {found[cid].language for cid in BROWNFIELD} == {"python", "typescript", "go"}
    for cid in BROWNFIELD:
        c = found[cid]
        assert c.tier in ("medium", "hard") and c.protected and c.fail_to_pass and c.pass_to_pass
        assert c.workspace.folder is not None and c.reference_dir is not None


@pytest.mark.needs("node22", "go")
def test_every_builtin_brownfield_challenge_validates(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    r = invoke(capsys, "validate", *BROWNFIELD, "--results", str(tmp_path), "--repeats", "1",
               "--jobs", jobs())
    assert r.exit_code == 0, r.out[-3000:] + r.err[-2000:]
    assert "4 valid, 0 invalid" in " ".join(r.out.split())
