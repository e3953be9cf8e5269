"""The trial's private build cache is copied once: the hidden-test run makes it in the trial's root,
the own build and tests (in a fresh folder inside that root) take it over; a folder planted where
others may write is never taken."""

from __future__ import annotations

import os
from pathlib import Path

from agentbench.toolchains.go.assets import TRIAL_CACHE, hidden_build_cache, trial_build_cache


def _assets(tmp_path: Path) -> Path:
    assets = tmp_path / "assets"
    (assets / "gocache" / "00").mkdir(parents=True)
    (assets / "gocache" / "00" / "entry-d").write_text("warm", encoding="utf-8")
    return assets


def test_own_steps_take_over_the_hidden_runs_copy(tmp_path: Path) -> None:
    assets, root = _assets(tmp_path), tmp_path / "trial"
    root.mkdir(mode=0o755)
    made = hidden_build_cache(assets, root)
    (made / "from-hidden").write_text("x", encoding="utf-8")
    own_base, work = root / "measure-abc", root / "measure-abc" / "env"
    work.mkdir(parents=True)
    trial_build_cache(assets, own_base, work)
    assert (work / "gocache" / "from-hidden").is_file()  # moved, not copied again
    assert not made.exists()


def test_a_cache_planted_in_a_shared_folder_is_not_taken(tmp_path: Path) -> None:
    assets, shared = _assets(tmp_path), tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    (shared / TRIAL_CACHE).mkdir()
    (shared / TRIAL_CACHE / "planted").write_text("x", encoding="utf-8")
    base, work = shared / "trial", tmp_path / "env"
    base.mkdir()
    work.mkdir()
    trial_build_cache(assets, base, work)
    assert not (work / "gocache" / "planted").exists()
    assert (work / "gocache" / "00" / "entry-d").read_text(encoding="utf-8") == "warm"
    assert os.path.isdir(shared / TRIAL_CACHE)
