"""Token and cost self-reports, attacked end to end through `agentbench run`.

The adversary CLI (tests/adapters/metering.py) spends 1,080 tokens in two model calls, then prints
Aider's `Tokens: 1 sent, 1 received` and forges Aider's analytics log (in its HOME) to say the same,
and tries a third call straight at the endpoint. Unmetered, the harness can only believe it: that
is the class of attack. Under `--meter` the whole class gains nothing: the tokens are what the
endpoint answered, the forged log and output are not read for them, and the call around the meter
had no key (the CLI only ever held a per-trial token).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentbench.records import loads_run
from tests.adapters.metering import ADVERSARY, KeyedEndpoint, running_keyed_endpoint
from tests.cli.helpers import invoke
from tests.conftest import open_to_trial_users


@pytest.fixture
def keyed_endpoint() -> Iterator[tuple[str, list[str]]]:
    with running_keyed_endpoint() as endpoint:
        yield endpoint


def _run(capsys, tmp_path: Path, challenges: Path, url: str, *extra: str):  # type: ignore[no-untyped-def]
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    fake = open_to_trial_users(folder) / "fake-aider"
    fake.write_text(ADVERSARY.format(python=sys.executable), encoding="utf-8")
    fake.chmod(0o755)
    config = tmp_path / "agents.toml"
    config.write_text(f'[agents.aider]\nexecutable = "{fake}"\nmodel = "openai/m"\nargs = ["{url}"]\n'
                      f'env = {{ OPENAI_API_BASE = "{url}", OPENAI_API_KEY = "{KeyedEndpoint.KEY}" }}\n'
                      '[prices."openai/m"]\ninput = 1.0\noutput = 10.0\naliases = ["keyed-1"]\n', encoding="utf-8")
    results = tmp_path / ("results" + "-".join(extra))
    r = invoke(capsys, "run", "--agent", "aider", "--agents-config", str(config), "--challenge",
               "easy/adder", "--challenges", str(challenges), "--results", str(results), *extra)
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((results / "aider.json").read_text()).trials
    assert trial.adapter is not None
    return trial.adapter


def test_under_reported_tokens_gain_nothing_under_the_meter(capsys, tmp_path: Path, tiny_challenges: Path,
                                                           keyed_endpoint: tuple[str, list[str]]) -> None:
    url, seen = keyed_endpoint
    believed = _run(capsys, tmp_path, tiny_challenges, url)
    assert (believed.input_tokens, believed.output_tokens, believed.tokens_source) == (1, 1, "cli")
    assert seen == ["ok", "ok", "ok"], "unmetered, the CLI holds the key: its direct call works"
    seen.clear()
    metered = _run(capsys, tmp_path, tiny_challenges, url, "--meter")
    assert (metered.input_tokens, metered.output_tokens, metered.tokens_source) == (1000, 80, "meter")
    assert metered.cost_source == "price-table"
    assert metered.cost_usd == pytest.approx((1000 * 1.0 + 80 * 10.0) / 1e6)
    assert seen == ["ok", "ok", "refused"], "the call around the meter had no key"
