"""`agentbench run`: run agents on challenges, show progress, print the breakdown, write results."""

from __future__ import annotations

import shlex
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from agentbench.cli import agents_config_option, challenges_option, output_console
from agentbench.errors import RunError, RunInterruptedError, UsageError, interrupt_exit_code
from agentbench.executors import EXECUTORS
from agentbench.loader import discover_challenges, select_challenges
from agentbench.models import TIERS, AgentConfig, Challenge
from agentbench.runner import RunConfig, RunOutcome, execute, new_run_id
from agentbench.sandbox import SANDBOXES, Sandbox, sandbox_named
from agentbench.scoring import RUBRICS
from agentbench.settings import find_agents_config, load_agents_config, with_meter
from agentbench.store import RunDir


@click.command(name="run")
@click.option("--agent", "agents", multiple=True, metavar="NAME",
              help="Agent adapter to run (repeatable). See `agentbench agents`.")
@click.option("--challenge", "challenge_ids", multiple=True, metavar="ID",
              help="Challenge ID such as easy/password-gen (repeatable).")
@click.option("--tier", type=click.Choice(TIERS), help="Run every challenge of this tier.")
@click.option("--all", "run_all", is_flag=True, help="Run every challenge.")
@click.option("--language", metavar="LANG", help="Only challenges in this language (e.g. python, ts, go).")
@click.option("--trials", type=click.IntRange(min=1), default=1, show_default=True,
              help="Trials per (agent, challenge).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Trials run at once.")
@click.option("--retries", type=click.IntRange(min=0), default=1, show_default=True,
              help="Retries of a trial that hit an infrastructure error.")
@click.option("--attempts", type=click.IntRange(min=1, max=2), default=1, show_default=True,
              help="2: when the first attempt fails the visible tests, prompt the agent again in "
                   "the same workspace with their output (pass rate 1 and 2 are reported).")
@click.option("--rubric", type=click.Choice(sorted(RUBRICS)), default="seed", show_default=True,
              help="Score weighting: the seed's, or `verified` (every seed component x the hidden-test "
                   "pass rate). Both are always recorded.")
@click.option("--model", help="Model name passed to the agent CLIs.")
@click.option("--meter", is_flag=True,
              help="Count every agent's tokens at a proxy the harness owns between the CLI and its "
                   "model endpoint (it holds the API key), not from the CLI's own report.")
@click.option("--sandbox", type=click.Choice(SANDBOXES), default="none", show_default=True,
              help="Confine agents and commands: `bwrap` = PID namespace, read-only host, only the "
                   "trial's folders writable.")
@click.option("--executor", type=click.Choice(EXECUTORS), default="local", show_default=True,
              help="Where trials run: a local pool, or a Dask cluster (pip install agentbench[dask]).")
@click.option("--address", "executor_address", metavar="URL",
              help="Dask scheduler address, e.g. tcp://host:8786 (default: start a local cluster).")
@click.option("--agent-timeout", "agent_timeout", type=click.FloatRange(min=0.1), default=None,
              metavar="SECONDS", help="Override every challenge's agent time limit.")
@click.option("--results", "results_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("results"), show_default=True, help="Results folder.")
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write this run's results file here (one agent only; it is always in "
                   "RESULTS/<run-id>/<agent>.json, and RESULTS/<agent>.json is the latest export).")
@click.option("--db", metavar="URL", default=None,
              help="Results database: a file (SQLite) or postgresql://... (default: $AGENTBENCH_DB, "
                   "else RESULTS/agentbench.db).")
@click.option("--run-id", help="Name of the run folder (default: time and agents).")
@click.option("--resume", "resume_id", metavar="RUN_ID",
              help="Finish an interrupted run: only its unfinished trials are run.")
@agents_config_option
@challenges_option
def command(**options: Any) -> None:
    """Run agents on challenges and score what they produce.

    Example: agentbench run --agent reference --tier easy

    With --challenges DIR, --tier, --all and --language pick among that folder's challenges only;
    --challenge ID may name built-in ones too.
    """
    from agentbench.cli.progress import RichProgress

    config, output_paths = build_config(options, _given(click.get_current_context()))
    check_writable(config.results_dir)
    try:
        with RichProgress() as progress:
            outcome = execute(config, progress, output_paths, db=options["db"])
    except KeyboardInterrupt as exc:
        command = shlex.join(["agentbench", "run", "--resume", config.run_id,
                              "--results", str(config.results_dir)])
        error = RunInterruptedError(f"interrupted; finished trials of run {config.run_id} are kept",
                                    f"resume with: {command}")
        error.exit_code = interrupt_exit_code(exc)
        raise error from None
    _print_summary(outcome)


def check_writable(results_dir: Path) -> None:
    """An unwritable results folder is one error before anything else is printed."""
    try:
        results_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=results_dir, prefix=".agentbench-write-check-"):
            pass
    except OSError as exc:
        raise RunError(f"cannot write the results folder {results_dir}: {exc.strerror or exc}",
                         "pass --results DIR with a folder you can write") from None


def _given(context: click.Context) -> frozenset[str]:
    """Options given on the command line (not defaults)."""
    return frozenset(name for name in context.params
                     if context.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE)


def build_config(options: dict[str, Any], given: frozenset[str] = frozenset()) -> tuple[RunConfig, dict[str, Path]]:
    """Turn CLI options into a RunConfig (fresh, or resumed from its run plan) and results paths."""
    results_dir: Path = options["results_dir"]
    if options["resume_id"]:
        config = resume_with_options(resumed_config(results_dir, options["resume_id"]), options, given)
        return config, ({config.agents[0]: options["output"]} if options["output"] else {})
    agents = tuple(options["agents"])
    if not agents:
        raise UsageError("no agent given", "pass --agent NAME, e.g. --agent reference")
    picked = _pick_challenges(options)
    if options["output"] and len(agents) > 1:
        raise UsageError("--output takes one agent", "drop --output: each agent gets RESULTS/<agent>.json")
    config_path = find_agents_config(options["agents_config"])
    config = RunConfig(
        agents=agents, challenges=picked, results_dir=results_dir,
        run_id=options["run_id"] or new_run_id(agents), trials=options["trials"],
        jobs=options["jobs"], retries=options["retries"], rubric=options["rubric"],
        attempts=options["attempts"],
        model=options["model"], challenge_dirs=tuple(str(Path(d).absolute()) for d in options["challenge_dirs"]),
        sandbox=sandbox_named(options["sandbox"]), agent_timeout_s=options["agent_timeout"],
        executor=options["executor"], executor_address=options["executor_address"], agents_config=str(config_path.resolve()) if config_path else None,
        agent_configs=_configs(load_agents_config(config_path), agents, options["meter"]),
        meter=options["meter"],
    )
    return config, ({agents[0]: options["output"]} if options["output"] else {})


def _pick_challenges(options: dict[str, Any]) -> tuple[Challenge, ...]:
    ids, tier, run_all = tuple(options["challenge_ids"]), options["tier"], options["run_all"]
    if sum(bool(x) for x in (ids, tier, run_all)) != 1 and not (options["language"] and not ids and not run_all):
        raise UsageError("choose what to run with exactly one of --challenge, --tier or --all",
                         "e.g. agentbench run --agent reference --tier easy (--language ts alone: every TypeScript challenge)")
    dirs = [Path(d) for d in options["challenge_dirs"]]
    # NOTE: with --challenges, a tier, --all or a language picks among those folders only (an import)
    everything = discover_challenges(dirs, include_builtin=bool(ids) or not dirs)
    picked = select_challenges(everything, ids=ids, tier=tier, language=options["language"])
    return picked if ids else _runnable(picked)


def _runnable(picked: tuple[Challenge, ...]) -> tuple[Challenge, ...]:
    """A tier's or language's challenges less those whose language's tools are not installed here,
    each language left out named with what is missing; named challenges (--challenge) are never
    left out (their run stops with that error instead)."""
    from agentbench.toolchains import missing_tools

    problems = {language: missing_tools(language) for language in sorted({c.language for c in picked})}
    kept = tuple(c for c in picked if problems[c.language] is None)
    for language, problem in problems.items():
        if problem is not None:
            left = [c.id for c in picked if c.language == language]
            click.echo(f"note: left out {len(left)} {language} challenge(s) ({', '.join(left)}): {problem}",
                       err=True)
    if picked and not kept:
        raise UsageError("no selected challenge can run on this machine (see the notes above)",
                         "install the tools named there, or pick another language with --language")
    return kept


def resumed_config(results_dir: Path, run_id: str) -> RunConfig:
    """The RunConfig of an existing run, rebuilt from its saved plan."""
    plan = RunDir(results_dir / run_id).read_plan()
    everything = discover_challenges([Path(d) for d in plan.challenge_dirs])
    return RunConfig(
        agents=plan.agents, challenges=select_challenges(everything, ids=plan.challenge_ids),
        results_dir=results_dir, run_id=plan.run_id, trials=plan.trials, rubric=plan.rubric,
        model=plan.model, challenge_dirs=plan.challenge_dirs, agents_config=plan.agents_config,
        sandbox=_plan_sandbox(plan.sandbox), agent_timeout_s=plan.agent_timeout_s,
        attempts=plan.attempts, meter=plan.meter, agent_configs=_configs(load_agents_config(
            Path(plan.agents_config) if plan.agents_config else None), plan.agents, plan.meter),
    )


def _configs(configs: dict[str, AgentConfig], agents: tuple[str, ...],
             meter: bool) -> tuple[tuple[str, AgentConfig], ...]:
    """The agents config's entries, with `meter` on for every agent under `--meter`."""
    return tuple((with_meter(configs, agents) if meter else configs).items())


def _plan_sandbox(name: str) -> Sandbox:
    """The sandbox a saved run plan names."""
    try:
        return sandbox_named(name)
    except ValueError:
        raise UsageError(f"the run plan names an unknown sandbox {name!r}",
                         f"use one of: {', '.join(SANDBOXES)}") from None


PLAN_OPTIONS = ("agents", "challenge_ids", "tier", "language", "run_all", "trials", "rubric", "model", "sandbox",
                "agent_timeout", "run_id", "challenge_dirs", "agents_config", "attempts", "meter")
"""Options that define what a run is: fixed by its plan once it started."""

_FLAGS = {"agents": "--agent", "challenge_ids": "--challenge", "run_all": "--all",
          "challenge_dirs": "--challenges"}


def _same_agents_config(config: RunConfig, options: dict[str, Any]) -> bool:
    """Whether `--agents-config` names the run's own agents config, or one defining the same agents."""
    given = options.get("agents_config")
    if given is None:
        return False
    if config.agents_config and Path(given).resolve() == Path(config.agents_config).resolve():
        return True
    return _configs(load_agents_config(Path(given)), config.agents, config.meter) == config.agent_configs


def resume_with_options(config: RunConfig, options: dict[str, Any], given: frozenset[str]) -> RunConfig:
    """Apply the options that say how to run (jobs, retries, executor, output) to a resumed run."""
    conflicting = sorted(name for name in PLAN_OPTIONS if name in given
                         and not (name == "agents_config" and _same_agents_config(config, options)))
    if conflicting:
        flags = ", ".join(_FLAGS.get(name, "--" + name.replace("_", "-")) for name in conflicting)
        raise UsageError(f"{flags} cannot change a run that already started (run {config.run_id})",
                         "drop them to resume it as planned, or start a new run without --resume")
    if options["output"] and len(config.agents) > 1:
        raise UsageError("--output takes one agent", "drop --output: each agent gets RESULTS/<agent>.json")
    return replace(config, jobs=options["jobs"], retries=options["retries"],
                   executor=options["executor"], executor_address=options["executor_address"])


def _print_summary(outcome: RunOutcome) -> None:
    from rich.text import Text

    console = output_console()
    print_records(outcome, console, "results:")
    console.print(Text(f"run folder (prompts, transcripts, logs, workspaces): {outcome.run_dir}"))
    console.print(Text(f"indexed in {outcome.database} (see `agentbench runs`, `agentbench show "
                       f"{outcome.run_dir.name}`)"))
    _print_rubrics(outcome, console)


def print_records(outcome: RunOutcome, console: Any, written: str) -> None:
    """Each agent's run table and aggregate, its results file (after `written`) and its export."""
    from rich.text import Text

    from agentbench.report.terminal import aggregate_line, run_table

    for agent, record in outcome.records.items():
        console.print(run_table(record, console.width))
        console.print(aggregate_line(record))
        console.print(Text(f"{written} {outcome.results_files[agent]}"))
        if agent in outcome.exports:
            console.print(Text(outcome.exports[agent].describe()))


def _print_rubrics(outcome: RunOutcome, console: Any) -> None:
    """Each agent's seed and verified aggregates, and one line when they rank the agents apart."""
    from rich.text import Text

    from agentbench.scoring import aggregate_score, rankings_differ

    pairs = {agent: (aggregate_score(r.trials, "seed"), aggregate_score(r.trials, "verified"))
             for agent, r in outcome.records.items()}
    shown = [f"{agent} {_figure(seed)} / {_figure(verified)}" for agent, (seed, verified) in pairs.items()]
    console.print(Text("aggregate, seed / verified rubric (verified: every component x the hidden-test "
                       "pass rate): " + ", ".join(shown)))
    if rankings_differ(pairs):
        console.print(Text("note: the seed and verified rubrics rank these agents differently; the "
                           "verified ranking counts only work that passes the hidden tests", style="yellow"))


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}"
