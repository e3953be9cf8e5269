"""Every built-in challenge is valid: `agentbench validate --language L` over all of them, as a user
would run it (reference >= 95 with every counted hidden test passing, noop <= 10 with none, canaries
made and failing on the reference, at least a quarter of the hidden tests guarded, no flaky test over
two re-runs). One test per language, so a broken toolchain names itself."""

from __future__ import annotations

import pytest

from agentbench.loader import discover_challenges
from tests.cli.helpers import invoke
from tests.requirements import jobs, require

LANGUAGES = {"python": (), "typescript": ("node22",), "go": ("go",)}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_builtin_challenge_validates(capsys, tmp_path, language):
    require(*LANGUAGES[language])
    ids = sorted(c.id for c in discover_challenges() if c.language == language)
    assert ids, f"no built-in {language} challenge"
    r = invoke(capsys, "validate", "--language", language, "--repeats", "2", "--jobs", jobs(),
               "--results", str(tmp_path / "v"))
    said = " ".join(r.out.split())
    assert r.exit_code == 0, r.out[-6000:] + r.err[-2000:]
    assert f"{len(ids)} valid, 0 invalid" in said, said[-3000:]
