"""`agentbench show RUN_ID [TRIAL]`: a run's summary, or one trial's, with where its logs are.

The run: when, where, status, options, each agent's model, CLI version and aggregate, the score of
each challenge, and every trial with its status, score and folder. A trial (`AGENT/TIER/NAME[/N]`,
as listed there): status, score components, measurements, usage, error, and the paths of its
prompt, transcript and logs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from agentbench.cli import json_option, output_console
from agentbench.cli.db import database_options, open_database
from agentbench.errors import UsageError


@click.command(name="show")
@click.argument("run_id")
@click.argument("trial", required=False, metavar="[AGENT/TIER/NAME[/N]]")
@database_options
@json_option
def command(run_id: str, trial: str | None, results_dir: Path, db: str | None, as_json: bool) -> None:
    """Summarise a run, or one of its trials, with links to the logs. RUN_ID may be a unique
    prefix of a run ID, or `latest`.

    Example: agentbench show 20261203-101500-reference-ab12 reference/easy/password-gen/1
    """
    import json

    from agentbench.records import to_jsonable
    from agentbench.store.views import run_row, run_trial_records, trial_record, trial_rows

    connection = open_database(results_dir, db)
    try:
        run = run_row(connection, run_id)
        run_id = run.run_id  # the full ID of a unique prefix or `latest`
        if trial is not None:
            record, folder = trial_record(connection, run_id, parse_trial(trial))
            if as_json:
                click.echo(json.dumps({"trial_dir": folder, **to_jsonable(record)}, indent=2))
                return
            _print_trial(record, Path(folder))
            return
        rows = trial_rows(connection, run_id)
        if as_json:
            click.echo(json.dumps({"run": to_jsonable(run), "trials": rows}, indent=2))
            return
        _print_run(run, rows, run_trial_records(connection, run_id))
    finally:
        connection.close()


def parse_trial(text: str) -> tuple[str, str, int]:
    """`AGENT/TIER/NAME[/N]` -> (agent, challenge ID, trial number; 1 when left out)."""
    parts = text.strip("/").split("/")
    number = 1
    if len(parts) == 4 and parts[-1].isdigit():
        number = int(parts.pop())
    if len(parts) != 3 or not all(parts):
        raise UsageError(f"cannot read the trial {text!r}",
                         "write it as AGENT/TIER/NAME or AGENT/TIER/NAME/N, e.g. reference/easy/password-gen/1")
    return parts[0], f"{parts[1]}/{parts[2]}", number


def _print_run(run: Any, rows: list[dict[str, Any]], records: Any) -> None:
    from rich.text import Text

    from agentbench.report.terminal import safe_text
    from agentbench.scoring import aggregate_score

    console = output_console()
    folder = Path(run.results_dir) / run.run_id
    console.print(Text.assemble(("run ", "bold"), safe_text(run.run_id, "bold"), f"  {run.status}"))
    facts = [("started", run.started_at), ("finished", run.finished_at or "-"),
             ("machine", run.machine), ("folder", str(folder)), ("rubric", run.rubric),
             ("trials", f"{len(rows)} of {run.planned} recorded ({run.trials_per} per agent and challenge)"),
             ("isolation", run.isolation or "-"), ("AgentBench", run.agentbench_version),
             ("options", ", ".join(f"{k}={v}" for k, v in run.options))]
    for key, value in facts:
        console.print(Text.assemble(f"  {key}: ", safe_text(value)))
    for agent, model, version in run.agent_models:
        trials = [r for r in records if r.agent == agent]
        score = aggregate_score(trials)
        console.print(Text.assemble("  agent ", safe_text(agent, "bold"),
                                    f": model {model or 'default'}, CLI {version or 'unknown'}, "
                                    f"aggregate {'-' if score is None else f'{score:.1f}'}"))
    console.print(trials_table(rows))


def trials_table(rows: list[dict[str, Any]]) -> Any:
    """The run's trials, one row each, with the trial's folder."""
    from rich import box
    from rich.table import Table

    from agentbench.report.terminal import id_column, safe_text

    table = Table(box=box.SIMPLE_HEAD)
    numeric = ("Score", "Hidden", "Agent (s)", "Trial (s)")
    id_column(table, "Trial", [f"{r['agent']}/{r['challenge_id']}/{r['trial']}" for r in rows])
    for header in ("Status", *numeric, "Folder"):
        table.add_column(header, justify="right" if header in numeric else "left")
    for r in rows:
        hidden = "-" if r["hidden_total"] is None else f"{r['hidden_passed']}/{r['hidden_total']}"
        score = "-" if r["score"] is None or not r["scored"] else f"{r['score']:.1f}"
        times = ["-" if r[key] is None else f"{r[key]:.1f}" for key in ("agent_seconds", "duration_s")]
        table.add_row(safe_text(f"{r['agent']}/{r['challenge_id']}/{r['trial']}"),
                      safe_text(r["status"]), safe_text(score), safe_text(hidden),
                      *map(safe_text, times), safe_text(r["trial_dir"]))
    return table


_LOGS = ("prompt.md", "changes.diff", "trajectory.jsonl", "agent/stdout.log", "agent/stderr.log", "coverage.json",
         "record.json", "workspace")


def _print_trial(record: Any, folder: Path) -> None:
    from rich.text import Text

    from agentbench.report.terminal import safe_text

    console = output_console()
    console.print(Text.assemble(("trial ", "bold"),
                                safe_text(f"{record.agent}/{record.challenge_id}/{record.trial}", "bold"),
                                "  ", safe_text(record.status.value)))
    for key, value in [*_trial_facts(record), ("behaviour", _behaviour(record, folder))]:
        console.print(Text.assemble(f"  {key}: ", safe_text(value)))
    console.print(Text.assemble("  folder: ", safe_text(folder)))
    for name in (*_LOGS, *_log_files(folder)):
        path = folder / name
        if path.exists() and not path.is_symlink():
            console.print(Text.assemble("    ", safe_text(path)))


def _behaviour(record: Any, folder: Path) -> str:
    """What the agent did, from the trial's trajectory (what its CLI says; never scored)."""
    from agentbench.adapters.trajectory import FILE_NAME, TrajectoryError, read_steps
    from agentbench.comparison.behaviour import trial_behaviour

    path = folder / FILE_NAME
    try:
        header, steps = read_steps(path) if not path.is_symlink() else (None, ())
    except (OSError, TrajectoryError):
        header = None
    if header is None:
        return "no readable trajectory"
    if not header.parsed:
        return "the transcript could not be read: " + ("; ".join(header.notes) or "no note")
    b = trial_behaviour(steps, parsed=True, started_at=record.started_at)
    calls = " · ".join(f"{kind} {n}" for kind, n in b.tool_calls)
    return (f"{b.turns} turn(s); tool calls {calls}; {b.files_written} file(s) written; "
            f"ran its own tests: {'yes' if b.ran_tests else 'no'}")


def _log_files(folder: Path) -> list[str]:
    logs = folder / "logs"
    if logs.is_symlink() or not logs.is_dir():
        return []
    return sorted(f"logs/{p.name}" for p in logs.iterdir() if p.is_file() and not p.is_symlink())


def _change_facts(record: Any) -> list[tuple[str, str]]:
    """The diff's size, protected and `.git` writes, and the FAIL_TO_PASS / PASS_TO_PASS sets."""
    facts = []
    c = record.changes
    if c is not None:
        binary = f"; binary: {', '.join(c.binary_files)}" if c.binary_files else ""
        facts.append(("changes", f"{c.files_changed} file(s), +{c.lines_added} / -{c.lines_removed} "
                                 f"lines (changes.diff){binary}"))
        if c.protected:
            facts.append(("protected files changed (measured as given)", ", ".join(c.protected)))
        if c.git_dir:
            facts.append(("written in .git (put back before measuring)", ", ".join(c.git_dir)))
    for a in record.attempts:
        facts.append((f"attempt {a.attempt}", f"{'passed' if a.passed else 'failed'}; visible tests "
                                              f"{a.visible_passed}/{a.visible_total}; "
                                              + ("prompted again with their output (prompt-2.md)"
                                                 if a.retried else "no second attempt")))
    sets = record.measurements.acceptance.sets if record.measurements and record.measurements.acceptance else None
    if sets is not None:
        facts.append(("change sets", f"FAIL_TO_PASS {sets.fail_to_pass_passed}/{sets.fail_to_pass}, "
                                     f"PASS_TO_PASS {sets.pass_to_pass_passed}/{sets.pass_to_pass} "
                                     f"({'resolved' if sets.resolved else 'not resolved'})"))
    return facts


def _measuring_facts(record: Any) -> list[tuple[str, str]]:
    """Measuring steps that raised (traceback in logs/verifier-exception.log) and failing commands, each
    with why it ended (a hidden-test command exiting 1 is its canaries failing, as they must)."""
    m = record.measurements
    if m is None:
        return []
    facts = [("measuring", f"measuring step '{f.step}' raised {f.error} (its components count zero; "
                           "traceback in logs/verifier-exception.log)") for f in m.failures]
    hidden = m.acceptance.tests.commands if m.acceptance else ()
    failing = [c for c in (*m.build.commands, *m.tests.commands) if not c.ok]
    failing += [c for c in hidden if c.timed_out or c.returncode is None or c.returncode not in (0, 1)]
    facts += [("command failed", f"{c.command}: {c.ending or _old_ending(c)} ({c.log})") for c in failing]
    return facts


def _old_ending(c: Any) -> str:
    """The ending of a command in a record from before `ending` was kept."""
    return "timed out" if c.timed_out else f"exit status {c.returncode}"


def _trial_facts(record: Any) -> list[tuple[str, str]]:
    facts = []
    score = record.score
    if score is not None:
        parts = ", ".join(f"{n} {getattr(score, n):.1f}" for n in
                          ("build", "tests", "coverage", "quality", "completeness", "efficiency"))
        facts.append(("score", f"{score.total:.1f} ({score.rubric}: {parts})"))
    if record.verified_score is not None:
        facts.append(("verified score", f"{record.verified_score.total:.1f}"))
    if record.measurements is not None and record.measurements.acceptance is not None:
        hidden = record.measurements.acceptance.tests
        facts.append(("hidden tests", f"{hidden.passed}/{hidden.total} passed"
                      + (f" (forged: {hidden.tampering[0]})" if hidden.tampering else "")))
    facts += _change_facts(record)
    facts += _measuring_facts(record)
    a = record.adapter
    if a is not None:
        facts.append(("agent", f"CLI {a.version or 'unknown'}, {a.prompts_used} turn(s), tokens "
                               f"{a.input_tokens if a.input_tokens is not None else '-'} in / "
                               f"{a.output_tokens if a.output_tokens is not None else '-'} out, cost "
                               f"{'-' if a.cost_usd is None else f'${a.cost_usd:.4f}'}"))
    seconds = "-" if record.agent_seconds is None else f"{record.agent_seconds:.1f}"
    facts.append(("time", f"agent {seconds} s, trial {record.duration_s:.1f} s, started {record.started_at}"))
    facts.append(("isolation", record.isolation))
    if record.error:
        facts.append(("error", record.error))
    facts += [("cut", note) for note in record.cut[:SHOWN_CUTS]]
    if len(record.cut) > SHOWN_CUTS:
        facts.append(("cut", f"... and {len(record.cut) - SHOWN_CUTS} more (in record.json)"))
    return facts


SHOWN_CUTS = 30
"""What the harness cut or skipped (`record.cut`), shown one line each up to this many."""
