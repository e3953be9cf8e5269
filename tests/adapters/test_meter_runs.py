"""`meter = true`: an agent's tokens counted by the harness's metering proxy, end to end.

The real Aider (ci/install/aider.sh) against the scripted model server: its chat-history summary
(a weak-model call Aider reports nowhere) is counted, as the server's own ledger shows. A fake CLI
written by the test plays the adversary: it under-reports its tokens and calls the endpoint around
the meter; its report gains nothing and its direct call has no key.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from agentbench.adapters.aider import AiderAdapter
from agentbench.adapters.transcripts import build_trajectory
from agentbench.errors import ConfigError
from agentbench.models import AgentConfig, ModelPrice
from agentbench.modelserver import RunningServer, Script
from tests.adapters.helpers import (
    CALC_FILES,
    REAL_CLIS,
    assert_files_written,
    scripted_adapter,
    trial_context,
)
from tests.adapters.metering import ADVERSARY, KeyedEndpoint, running_keyed_endpoint

PRICES = {"openai/scripted": {"max_input_tokens": 128000, "max_output_tokens": 8192,
                              "input_cost_per_token": 0.000003, "output_cost_per_token": 0.000015,
                              "litellm_provider": "openai", "mode": "chat"}}


@pytest.fixture
def keyed_endpoint() -> Iterator[tuple[str, list[str]]]:
    with running_keyed_endpoint() as endpoint:
        yield endpoint


@pytest.fixture
def no_user_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in AiderAdapter.passthrough_env:
        monkeypatch.delenv(name, raising=False)


@pytest.mark.realcli
def test_real_aider_summariser_calls_are_counted(real_cli: Callable[[str], str], tmp_path: Path,
                                                 no_user_keys: None) -> None:
    """A tiny chat-history limit makes Aider summarise after its reply: one more model call, on
    no log of Aider's; the meter counts both calls, exactly as the endpoint's ledger does."""
    executable = real_cli("aider")
    script = Script(files=CALC_FILES, final_message="All three files written.",
                    input_tokens=321, output_tokens=54)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    metadata = tmp_path / "model-metadata.json"
    metadata.write_text(json.dumps(PRICES), encoding="utf-8")
    with RunningServer(script) as server:
        env = (("OPENAI_API_BASE", server.url + "/v1"), ("OPENAI_API_KEY", "sk-scripted"),
               ("AIDER_MODEL_METADATA_FILE", str(metadata)))
        config = AgentConfig(name="aider", executable=executable, model="openai/scripted", env=env,
                             args=("--max-chat-history-tokens", "10"), meter=True,
                             prices=(ModelPrice(model="openai/scripted", input=3.0, output=15.0),))
        result = AiderAdapter(config).run_challenge("Write the calculator package.", workspace, 3)
        ledger = server.ledger
    assert result.success, result.error
    assert_files_written(workspace, CALC_FILES)
    assert ledger.calls == 2, "the reply and the chat-history summary"
    assert (result.input_tokens, result.output_tokens) == (ledger.input_tokens, ledger.output_tokens)
    assert (result.input_tokens, result.output_tokens) == (2 * 321, 2 * 54)
    assert result.tokens_source == "meter"
    assert result.cost_source == "price-table"
    assert result.cost_usd == pytest.approx(2 * (321 * 3.0 + 54 * 15.0) / 1e6)
    assert result.model == "openai/scripted"


@pytest.mark.realcli
def test_real_aider_without_the_meter_misses_the_summary(real_cli: Callable[[str], str],
                                                         tmp_path: Path, no_user_keys: None) -> None:
    """The same run unmetered: Aider's own account (its analytics log) has one call of the two."""
    executable = real_cli("aider")
    script = Script(files=CALC_FILES, input_tokens=321, output_tokens=54)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    with RunningServer(script) as server:
        env = (("OPENAI_API_BASE", server.url + "/v1"), ("OPENAI_API_KEY", "sk-scripted"))
        config = AgentConfig(name="aider", executable=executable, model="openai/scripted", env=env,
                             args=("--max-chat-history-tokens", "10"))
        result = AiderAdapter(config).run_challenge("Write the calculator package.", workspace, 3)
        calls = server.ledger.calls
    assert result.success, result.error
    assert calls == 2
    assert result.tokens_source == "cli"
    assert (result.input_tokens, result.output_tokens) == (321, 54)


def test_an_agent_that_under_reports_and_goes_around_the_meter_gains_nothing(
        tmp_path: Path, keyed_endpoint: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI prints 1 token; it spent 1,080 through the meter and tried a third call straight at
    the endpoint: that call had no key (the CLI only ever held the trial's token)."""
    url, seen = keyed_endpoint
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-other-provider")
    fake = tmp_path / "fake-aider"
    fake.write_text(ADVERSARY.format(python=sys.executable), encoding="utf-8")
    fake.chmod(0o755)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    config = AgentConfig(name="aider", executable=str(fake), model="openai/m", meter=True, args=(url,),
                         env=(("OPENAI_API_BASE", url), ("OPENAI_API_KEY", KeyedEndpoint.KEY)))
    result = AiderAdapter(config).run_challenge("Do it.", workspace, 1)
    agent = json.loads((workspace / "seen.json").read_text())
    assert result.success, result.error
    assert agent["statuses"] == [200, 200, 401]
    assert seen == ["ok", "ok", "refused"]
    assert agent["key"].startswith("agentbench-meter-") and KeyedEndpoint.KEY not in json.dumps(agent)
    assert agent["base"].startswith("http://127.0.0.1:") and agent["base"] != url
    assert agent["other"] == "", "another provider's key is not handed to a metered agent"
    assert (result.input_tokens, result.output_tokens, result.tokens_source) == (1000, 80, "meter")
    assert result.model == "openai/m"
    assert result.cost_source == "unknown"


def test_meter_without_a_known_endpoint_is_refused(tmp_path: Path, no_user_keys: None) -> None:
    config = AgentConfig(name="aider", executable="/bin/true", meter=True)
    with pytest.raises(ConfigError, match="cannot meter"):
        AiderAdapter(config).preflight()


@pytest.mark.realcli
@pytest.mark.parametrize("agent", sorted(REAL_CLIS))
def test_every_real_cli_works_through_the_meter_and_is_counted_exactly(agent, real_cli, tmp_path) -> None:
    """Each CLI's wire format (OpenAI Chat and Responses, Anthropic, Gemini; streamed or not) passes
    the meter unchanged, and the meter's count is the endpoint's own ledger, side requests included."""
    executable = real_cli(REAL_CLIS[agent])
    script = Script(files=CALC_FILES, final_message="All three files written.",
                    input_tokens=1234, output_tokens=56)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    context = replace(trial_context(tmp_path / "trial"), logs_dir=tmp_path / "trial" / "agent")
    with RunningServer(script) as server:
        plain = scripted_adapter(agent, server.url, executable)
        adapter = type(plain)(replace(plain.config, meter=True))
        result = adapter.run_challenge("Write the calc package.", workspace, 5, context=context)
        ledger = server.ledger
    assert result.success, result.error
    assert_files_written(workspace, CALC_FILES)
    assert result.tokens_source == "meter"
    assert ledger.calls >= 1
    assert (result.input_tokens, result.output_tokens) == (ledger.input_tokens, ledger.output_tokens)
    kept = json.loads((tmp_path / "trial" / "agent" / "meter.json").read_text())
    assert len(kept["calls"]) == ledger.calls and kept["refused_requests"] == [], kept
    # every model turn of the trajectory gets its own call's tokens, as the meter counted them
    trajectory = build_trajectory(agent=agent, adapter=agent, prompt="p", trial_dir=tmp_path / "trial",
                                  workspace=workspace, home=context.home)
    turns = [(s.input_tokens, s.output_tokens) for s in trajectory.steps if s.type == "model"]
    assert "agent/meter.json" in trajectory.header.source, trajectory.header.notes
    assert turns == [(1234, 56)] * len(turns) and turns


def test_meter_is_a_boolean_of_the_agents_config(tmp_path: Path) -> None:
    from agentbench.settings import load_agents_config

    path = tmp_path / "agentbench.toml"
    path.write_text('[agents.aider]\nmeter = true\n[agents.codex]\n', encoding="utf-8")
    configs = load_agents_config(path)
    assert configs["aider"].meter is True and configs["codex"].meter is False
    path.write_text('[agents.aider]\nmeter = "yes"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="'meter' must be true or false"):
        load_agents_config(path)


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_run_meter_end_to_end_and_resume_keeps_it(capsys, tmp_path: Path, tiny_challenges: Path,
                                                  keyed_endpoint: tuple[str, list[str]],
                                                  sandbox: str) -> None:
    """`agentbench run --meter`: the trial record's tokens are the meter's, its `tokens_source`
    says so, the run plan keeps `meter`, and a resumed run is metered too."""
    from agentbench.cli.run import resume_with_options, resumed_config
    from agentbench.records import loads_run
    from agentbench.store.folders import RunDir
    from tests.cli.helpers import invoke
    from tests.conftest import open_to_trial_users

    url, seen = keyed_endpoint
    (tmp_path / "bin").mkdir()
    fake = open_to_trial_users(tmp_path / "bin") / "fake-aider"
    fake.write_text(ADVERSARY.format(python=sys.executable), encoding="utf-8")
    fake.chmod(0o755)
    config = tmp_path / "agents.toml"
    config.write_text(f'[agents.aider]\nexecutable = "{fake}"\nmodel = "openai/m"\nargs = ["{url}"]\n'
                      f'env = {{ OPENAI_API_BASE = "{url}", OPENAI_API_KEY = "{KeyedEndpoint.KEY}" }}\n',
                      encoding="utf-8")
    results = tmp_path / "results"
    r = invoke(capsys, "run", "--agent", "aider", "--meter", "--agents-config", str(config),
               "--challenge", "easy/adder", "--challenges", str(tiny_challenges),
               "--results", str(results), "--run-id", "metered", "--sandbox", sandbox)
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((results / "aider.json").read_text()).trials
    assert trial.adapter is not None and trial.adapter.tokens_source == "meter"
    assert (trial.adapter.input_tokens, trial.adapter.output_tokens) == (1000, 80)
    assert seen == ["ok", "ok", "refused"]
    assert RunDir(results / "metered").read_plan().meter is True
    options = {"jobs": 1, "retries": 1, "executor": "local", "executor_address": None, "output": None}
    resumed = resume_with_options(resumed_config(results, "metered"), options, frozenset())
    assert resumed.meter and dict(resumed.agent_configs)["aider"].meter


def test_a_partial_reading_is_a_lower_bound_with_no_cost() -> None:
    """Some answer carried no usage: the tokens are a lower bound (`meter-partial`), never priced."""
    from agentbench.adapters.meter import MeterReading
    from agentbench.models import AdapterResult
    from agentbench.pricing import CallTokens

    adapter = AiderAdapter(AgentConfig(name="aider", model="openai/m", prices=(
        ModelPrice(model="openai/m", input=1.0, output=1.0),)))
    reported = AdapterResult(time_taken_seconds=1.0, prompts_used=1, success=True, input_tokens=5,
                             output_tokens=5, cost_usd=0.5, cost_source="cli", model="openai/m")
    whole = MeterReading(calls=(CallTokens(1000, 100),), forwarded=1, unmetered=0, refused=0, models=())
    partial = replace(whole, forwarded=2, unmetered=1)
    metered = adapter._with_reading(reported, whole)
    assert (metered.tokens_source, metered.cost_source) == ("meter", "price-table")
    assert metered.cost_usd == pytest.approx(1100 / 1e6)
    lower = adapter._with_reading(reported, partial)
    assert (lower.tokens_source, lower.cost_source, lower.cost_usd) == ("meter-partial", "unknown", None)
    assert (lower.input_tokens, lower.output_tokens) == (1000, 100)


@pytest.mark.parametrize(("calls", "lined_up"), [(4, True), (3, False), (0, False)])
def test_metered_turns_only_where_the_calls_line_up(tmp_path: Path, calls: int, lined_up: bool) -> None:
    """Codex's recorded run (4 model requests) with a meter reading of `calls` main-loop calls and
    a side request offering no tools: each turn gets its call's tokens only when they line up."""
    agent_dir = tmp_path / "agent"
    agent_dir.mkdir()
    recorded = Path(__file__).parent / "data" / "codex" / "session.stdout.jsonl"
    (agent_dir / "stdout.log").write_text(recorded.read_text(), encoding="utf-8")
    entries = [{"input": 100 + i, "output": 10 + i, "tools": True} for i in range(calls)]
    entries.insert(1, {"input": 5, "output": 1, "tools": False})  # e.g. a title request
    (agent_dir / "meter.json").write_text(json.dumps({"calls": entries}), encoding="utf-8")
    trajectory = build_trajectory(agent="codex", adapter="codex", prompt="p", trial_dir=tmp_path)
    turns = [(s.input_tokens, s.output_tokens) for s in trajectory.steps if s.type == "model"]
    if lined_up:
        assert turns == [(100, 10), (101, 11), (102, 12), (103, 13)]
        assert "agent/meter.json" in trajectory.header.source
    else:
        assert turns[-1] == (4936, 224)  # the CLI's own per-turn total stays
        assert any("the meter counted" in n for n in trajectory.header.notes)


def test_calls_answered_by_several_models_are_each_priced_by_their_own() -> None:
    """Aider's summaries go to its weak model: each metered call is priced by the model the
    endpoint said answered it; one model without a price makes the cost unknown, not a guess."""
    from agentbench.adapters.meter import MeterReading
    from agentbench.models import AdapterResult
    from agentbench.pricing import CallTokens

    prices = (ModelPrice(model="big", input=10.0, output=100.0), ModelPrice(model="small", input=1.0, output=1.0))
    adapter = AiderAdapter(AgentConfig(name="aider", model="openai/big", prices=prices))
    result = AdapterResult(time_taken_seconds=1.0, prompts_used=1, success=True, model="openai/big")
    reading = MeterReading(calls=(CallTokens(1000, 100), CallTokens(2000, 50)), forwarded=2,
                           unmetered=0, refused=0, models=("big", "small"), call_models=("big", "small"))
    priced = adapter._with_reading(result, reading)
    assert priced.cost_source == "price-table"
    assert priced.cost_usd == pytest.approx((1000 * 10 + 100 * 100 + 2000 * 1 + 50 * 1) / 1e6)
    unpriced = adapter._with_reading(result, replace(reading, call_models=("big", "mystery")))
    assert (unpriced.cost_usd, unpriced.cost_source) == (None, "unknown")
    # every call answered by a model other than the configured one: priced by the one that answered
    cheap = adapter._with_reading(result, replace(reading, call_models=("small", "small")))
    assert cheap.cost_usd == pytest.approx((3000 * 1 + 150 * 1) / 1e6)
    # a model the endpoint does not name: the configured model's price
    unnamed = adapter._with_reading(result, replace(reading, call_models=("small", None)))
    assert unnamed.cost_usd == pytest.approx((3000 * 10 + 150 * 100) / 1e6)


def test_meter_with_a_base_url_it_cannot_reach_is_the_harness_error(tmp_path: Path, no_user_keys: None) -> None:
    config = AgentConfig(name="aider", executable="/bin/true", meter=True, model="openai/m",
                         env=(("OPENAI_API_BASE", "unix:///run/llm.sock"), ("OPENAI_API_KEY", "k")))
    with pytest.raises(ConfigError, match="not http"):
        AiderAdapter(config).preflight()  # before the run starts
    with pytest.raises(ConfigError, match="not http"):
        AiderAdapter(config).run_challenge("Do it.", tmp_path, 1)


def test_run_meter_refuses_an_agent_it_cannot_meter_before_any_trial(capsys, tmp_path: Path,
                                                                      tiny_challenges: Path,
                                                                      no_user_keys: None) -> None:
    from tests.cli.helpers import invoke

    config = tmp_path / "agents.toml"
    config.write_text('[agents.aider]\nexecutable = "/bin/true"\n', encoding="utf-8")
    r = invoke(capsys, "run", "--agent", "aider", "--meter", "--agents-config", str(config),
               "--challenge", "easy/adder", "--challenges", str(tiny_challenges),
               "--results", str(tmp_path / "results"))
    assert r.exit_code == 2 and "cannot meter this agent" in r.err and "hint:" in r.err
    assert not list((tmp_path / "results").glob("*/trials"))


def test_other_model_keys_are_blanked_and_other_variables_kept(tmp_path: Path, no_user_keys: None,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from agentbench.adapters.endpoint import OPENAI, Endpoint
    from agentbench.adapters.meter import Meter

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-user")
    config = AgentConfig(name="aider", meter=True, env=(
        ("OPENAI_API_BASE", "http://127.0.0.1:9/v1"), ("OPENAI_API_KEY", "sk-real"),
        ("MISTRAL_API_KEY", "m-key"), ("GITHUB_TOKEN", "gh"), ("AIDER_MODEL", "openai/m")))
    adapter = AiderAdapter(config)
    endpoint = Endpoint(protocol=OPENAI, base_url="http://127.0.0.1:9/v1", key="sk-real")
    with Meter(endpoint) as meter:
        env = adapter._metered_env(endpoint, ("OPENAI_API_BASE",), meter)
    assert env["OPENAI_API_KEY"] == meter.token and env["OPENAI_API_BASE"] == meter.base_url
    assert env["ANTHROPIC_API_KEY"] == "" and env["MISTRAL_API_KEY"] == ""
    assert env["GITHUB_TOKEN"] == "gh" and env["AIDER_MODEL"] == "openai/m"


@pytest.mark.realcli
def test_doctor_checks_a_metered_agent_end_to_end(real_cli, no_user_keys: None) -> None:
    """`meter = true` in the agents config: `agentbench doctor` runs the CLI through the meter
    against the scripted server, and says the tokens were counted by it."""
    from agentbench.diagnostics import agent_checks

    executable = real_cli("aider")
    checks = agent_checks(["aider"], {"aider": AgentConfig(name="aider", executable=executable, meter=True)})
    assert all(c.ok for c in checks), checks
    (usage,) = [c for c in checks if c.check == "reports usage"]
    assert "counted by the harness's meter" in usage.detail and "differently" not in usage.detail
