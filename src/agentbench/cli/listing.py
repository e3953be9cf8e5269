"""`agentbench list`: the available challenges as a table or JSON."""

from __future__ import annotations

import json

import click

from agentbench.cli import challenges_option, json_option, output_console
from agentbench.loader import discover_challenges, select_challenges
from agentbench.models import TIERS


@click.command(name="list")
@click.option("--tier", type=click.Choice(TIERS), help="Only challenges of this tier.")
@click.option("--language", metavar="LANG", help="Only challenges in this language (e.g. python, ts, go).")
@challenges_option
@json_option
def command(tier: str | None, language: str | None, challenge_dirs: tuple[str, ...], as_json: bool) -> None:
    """List the available challenges (built-in and from --challenges folders)."""
    from pathlib import Path

    challenges = select_challenges(discover_challenges([Path(d) for d in challenge_dirs]), tier=tier,
                                   language=language)
    if as_json:
        rows = [{"id": c.id, "name": c.name, "tier": c.tier, "language": c.language,
                 "time_limit_minutes": c.time_limit_minutes,
                 "has_reference": c.reference_dir is not None,
                 "has_acceptance": c.acceptance is not None} for c in challenges]
        click.echo(json.dumps(rows, indent=2))
        return

    from agentbench.report.terminal import challenge_table

    output_console().print(challenge_table(challenges))
