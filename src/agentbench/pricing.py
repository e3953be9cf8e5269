"""Cost from tokens: AgentBench's price table (`prices.toml`, shipped) and the agents config's own.

A trial's cost is the CLI's own figure where it reports one (`cost_source` `cli`). Otherwise it is
computed here from the tokens the CLI reported and the model's prices (`price-table`), per request
where the CLI reports each request's usage: a model whose price changes past a context length
(`tiers`) is charged per request by that request's input. Where the per-request input is not known
and the run's total input is past the first tier, which tier each request fell in cannot be told:
the cost is then unknown, never a guess. An unknown cost is `None` everywhere, never 0.

The agents config extends and overrides the table with `[prices."MODEL"]` tables (same keys as
`prices.toml`).
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from agentbench.errors import ConfigError
from agentbench.models import ModelPrice, PriceTier

PRICE_KEYS = ("input", "output", "cache_read", "cache_write", "tiers", "aliases", "source")
"""Keys of a `[prices."MODEL"]` table."""

_PREFIX = re.compile(r"^(?:[\w.-]+/)+")
_DATE = re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2})$")


@dataclass(frozen=True, slots=True)
class CallTokens:
    """One model request's usage (or a run's totals): `input` counts cached tokens too."""

    input: int
    output: int
    cache_read: int = 0
    cache_write: int = 0


def parse_prices(tables: Any, where: str) -> tuple[ModelPrice, ...]:
    """Prices from `{"MODEL": {"input": ..., "output": ...}}` (raises ConfigError naming `where`)."""
    if not isinstance(tables, dict):
        raise ConfigError(f"{where}: expected a table of models", 'e.g. [prices."gpt-5"] input = 1.25')
    return tuple(_price(f'{where}."{name}"', name, body) for name, body in tables.items())


def _price(where: str, name: str, body: Any) -> ModelPrice:
    if not isinstance(body, dict):
        raise ConfigError(f"{where}: expected a table")
    unknown = sorted(set(body) - set(PRICE_KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown key '{unknown[0]}'", f"known keys: {', '.join(PRICE_KEYS)}")
    tiers = body.get("tiers", [])
    aliases = body.get("aliases", [])
    if not isinstance(tiers, list) or not isinstance(aliases, list) \
            or not all(isinstance(a, str) for a in aliases):
        raise ConfigError(f"{where}: 'tiers' must be a list of tables and 'aliases' a list of names")
    return ModelPrice(model=name, **_rates(where, body),
                      tiers=tuple(sorted((_tier(f"{where}.tiers[{i}]", t) for i, t in enumerate(tiers)),
                                         key=lambda t: t.above)),
                      aliases=tuple(aliases), source=str(body.get("source", "")))


def _tier(where: str, body: Any) -> PriceTier:
    if not isinstance(body, dict) or set(body) - {"above", "input", "output", "cache_read", "cache_write"}:
        raise ConfigError(f"{where}: expected {{ above = TOKENS, input = ..., output = ... }}")
    above = body.get("above")
    if not isinstance(above, int) or isinstance(above, bool) or above < 0:
        raise ConfigError(f"{where}: 'above' must be a whole number of input tokens")
    return PriceTier(above=above, **_rates(where, body))


def _rates(where: str, body: Mapping[str, Any]) -> dict[str, Any]:
    rates: dict[str, Any] = {}
    for key in ("input", "output", "cache_read", "cache_write"):
        value = body.get(key)
        if value is None and key in ("input", "output"):
            raise ConfigError(f"{where}: '{key}' is missing", "prices are US dollars per million tokens")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                                  or value < 0):
            raise ConfigError(f"{where}: '{key}' must be a number of dollars per million tokens >= 0")
        rates[key] = None if value is None else float(value)
    return rates


@functools.cache
def shipped_prices() -> tuple[ModelPrice, ...]:
    """The price table shipped with AgentBench (`agentbench/prices.toml`)."""
    text = resources.files("agentbench").joinpath("prices.toml").read_text(encoding="utf-8")
    return parse_prices(tomllib.loads(text).get("models", {}), "prices.toml: models")


def model_keys(model: str) -> tuple[str, ...]:
    """The names a model is looked up by: as given, without provider prefix, without date suffix."""
    name = model.strip().lower()
    bare = _PREFIX.sub("", name)
    return tuple(dict.fromkeys((name, bare, _DATE.sub("", bare))))


def find_price(model: str | None, overrides: Iterable[ModelPrice] = ()) -> ModelPrice | None:
    """The prices of `model`: the agents config's first, then the shipped table (None: unknown)."""
    if not model:
        return None
    keys = model_keys(model)
    for table in (tuple(overrides), shipped_prices()):
        for price in table:
            names = {k for n in (price.model, *price.aliases) for k in model_keys(n)}
            if any(k in names for k in keys):
                return price
    return None


def request_cost(price: ModelPrice, call: CallTokens) -> float:
    """The cost of one request at the tier its input falls in."""
    rate: ModelPrice | PriceTier = price
    for tier in price.tiers:
        if call.input > tier.above:
            rate = tier
    cache_read = min(call.cache_read, call.input)
    cache_write = min(call.cache_write, call.input - cache_read)
    fresh = call.input - cache_read - cache_write
    dollars = (fresh * rate.input + call.output * rate.output
               + cache_read * (rate.input if rate.cache_read is None else rate.cache_read)
               + cache_write * (rate.input if rate.cache_write is None else rate.cache_write))
    return dollars / 1_000_000


def estimate(price: ModelPrice, total: CallTokens, calls: Sequence[CallTokens] = ()) -> float | None:
    """The cost of a run from its totals, or where the model's price is tiered and the totals pass
    the first tier, from its requests (`calls`, used only when they add up to `total`); None when
    those are not known (which tier each request fell in cannot be told)."""
    if not price.tiers or total.input <= price.tiers[0].above:
        return round(request_cost(price, total), 6)
    if calls and sum(c.input for c in calls) == total.input \
            and sum(c.output for c in calls) == total.output:
        return round(sum(request_cost(price, c) for c in calls), 6)
    return None
