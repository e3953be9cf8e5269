"""Cost with provenance: the CLI's own figure (`cli`), else the tokens priced by the price table
(`price-table`, tiered per request), else `unknown` (None, never $0)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from agentbench.adapters.cli_base import Usage
from agentbench.adapters.opencode import OpenCodeAdapter
from agentbench.adapters.registry import get_adapter
from agentbench.errors import ConfigError
from agentbench.models import (
    AdapterResult,
    AgentConfig,
    ModelPrice,
    PriceTier,
    cost_source_of,
    known_cost,
)
from agentbench.pricing import CallTokens, estimate, find_price, request_cost, shipped_prices
from agentbench.settings import load_agents_config

DATA = Path(__file__).parent / "data" / "opencode"

TIERED = ModelPrice(model="m", input=1.0, output=10.0, cache_read=0.1,
                    tiers=(PriceTier(above=200_000, input=2.0, output=15.0, cache_read=0.2),))


def test_a_request_is_priced_at_the_tier_its_input_falls_in_with_cache_reads_apart():
    assert request_cost(TIERED, CallTokens(100_000, 1_000, cache_read=50_000)) == pytest.approx(
        (50_000 * 1.0 + 50_000 * 0.1 + 1_000 * 10.0) / 1e6)
    assert request_cost(TIERED, CallTokens(300_000, 1_000)) == pytest.approx(
        (300_000 * 2.0 + 1_000 * 15.0) / 1e6)


def test_a_tiered_price_needs_each_request_once_the_totals_pass_the_first_tier():
    small = CallTokens(150_000, 2_000)
    assert estimate(TIERED, small) == pytest.approx(request_cost(TIERED, small))
    calls = (CallTokens(150_000, 1_000), CallTokens(250_000, 1_000))
    total = CallTokens(400_000, 2_000)
    assert estimate(TIERED, total) is None  # which tier each request fell in is unknown
    assert estimate(TIERED, total, calls) == pytest.approx(
        (150_000 * 1.0 + 1_000 * 10.0 + 250_000 * 2.0 + 1_000 * 15.0) / 1e6)
    assert estimate(TIERED, total, calls[:1]) is None  # requests that do not add up are not used


def test_models_are_found_without_provider_prefix_or_date_and_the_config_overrides():
    assert {p.model for p in shipped_prices()} >= {"gpt-5", "claude-sonnet-4-5", "gemini-2.5-pro"}
    found = find_price("anthropic/claude-sonnet-4-5-20250929")
    assert found is not None and found.model == "claude-sonnet-4-5" and found.tiers
    assert find_price("openai/gpt-5-codex").model == "gpt-5"  # type: ignore[union-attr]
    assert find_price("scripted") is None and find_price(None) is None
    cheap = ModelPrice(model="gpt-5", input=0.0, output=0.0)
    assert find_price("gpt-5", (cheap,)) is cheap


def test_the_agents_config_extends_the_price_table_for_every_agent(tmp_path: Path):
    path = tmp_path / "agentbench.toml"
    path.write_text('[agents.codex]\nmodel = "my-model"\n\n[prices."my-model"]\ninput = 0.5\n'
                    'output = 1.5\ntiers = [{ above = 1000, input = 1.0, output = 3.0 }]\n')
    configs = load_agents_config(path)
    (price,) = configs["codex"].prices
    assert price == ModelPrice(model="my-model", input=0.5, output=1.5,
                               tiers=(PriceTier(above=1000, input=1.0, output=3.0),))
    other = get_adapter("opencode", configs)  # not configured in the file: gets the prices too
    assert isinstance(other, OpenCodeAdapter) and other.config.prices == (price,)


@pytest.mark.parametrize(("body", "message"), [
    ('[prices."m"]\ninput = 1\n', "'output' is missing"),
    ('[prices."m"]\ninput = 1\noutput = -1\n', "'output' must be a number"),
    ('[prices."m"]\ninput = 1\noutput = 1\ncached = 1\n', "unknown key 'cached'"),
    ('[prices."m"]\ninput = 1\noutput = 1\ntiers = [{ input = 1, output = 2 }]\n', "'above'"),
])
def test_a_malformed_price_is_an_error_naming_it(tmp_path: Path, body: str, message: str):
    path = tmp_path / "agentbench.toml"
    path.write_text(body)
    with pytest.raises(ConfigError, match=message):
        load_agents_config(path)


def test_the_source_of_a_cost():
    adapter = OpenCodeAdapter(AgentConfig(name="opencode", prices=(
        ModelPrice(model="mine", input=2.0, output=4.0),)))
    tokens = {"input_tokens": 1_000_000, "output_tokens": 500_000}
    assert adapter.cost(Usage(cost_usd=0.5, **tokens, model="x")) == (0.5, "cli")
    assert adapter.cost(Usage(cost_usd=0.0, **tokens, model="x")) == (None, "unknown")
    assert adapter.cost(Usage(cost_usd=0.0, **tokens, model="mine")) == (4.0, "price-table")
    assert adapter.cost(Usage(cost_usd=None, model="mine")) == (None, "unknown")  # no tokens
    assert adapter.cost(Usage(cost_usd=0.0, input_tokens=0, output_tokens=0)) == (0.0, "cli")


def test_an_older_record_with_a_zero_cost_for_tokens_reads_as_unknown():
    old = AdapterResult(time_taken_seconds=1, prompts_used=1, success=True, cost_usd=0.0,
                        input_tokens=1284)
    assert cost_source_of(old) == "unknown" and known_cost(old) is None
    reported = AdapterResult(time_taken_seconds=1, prompts_used=1, success=True, cost_usd=0.01)
    assert cost_source_of(reported) == "cli" and known_cost(reported) == 0.01


def _fake_opencode(tmp_path: Path) -> str:
    """An `opencode` that prints a recorded run (four steps, cost 0: a model without prices)."""
    script = tmp_path / "opencode"
    script.write_text(f"#!/bin/sh\ncat '{DATA / 'success.stdout'}'\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def test_opencodes_zero_cost_for_an_unpriced_model_is_unknown_not_zero(tmp_path: Path):
    config = AgentConfig(name="opencode", executable=_fake_opencode(tmp_path), model="scripted")
    (tmp_path / "ws").mkdir()
    result = OpenCodeAdapter(config).run_challenge("the prompt", tmp_path / "ws", 1)
    assert result.success and result.input_tokens == 1284
    assert result.cost_usd is None and result.cost_source == "unknown"


def test_opencodes_tokens_are_priced_from_the_agents_config(tmp_path: Path):
    price = ModelPrice(model="scripted", input=3.0, output=15.0)
    config = AgentConfig(name="opencode", executable=_fake_opencode(tmp_path), model="scripted",
                         prices=(price,))
    (tmp_path / "ws").mkdir()
    result = OpenCodeAdapter(config).run_challenge("the prompt", tmp_path / "ws", 1)
    steps = [json.loads(line)["part"]["tokens"] for line in
             (DATA / "success.stdout").read_text().splitlines() if '"step_finish"' in line]
    expected = sum(t["input"] * 3.0 + (t["output"] + t["reasoning"]) * 15.0 for t in steps) / 1e6
    assert result.cost_source == "price-table" and result.cost_usd == pytest.approx(expected)
