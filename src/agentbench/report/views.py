"""The tables every format shows after the seed's two, as plain text cells, pure.

Each function returns a `TableView`: headers, rows of strings and an optional class per cell
(`win`, `loss`, ...). The terminal, Markdown and HTML renderers draw the same views, each escaping
the text its own way, so a figure reads the same everywhere and a column is added in one place.
Cells hold untrusted text (agent names, models, versions): the renderers must escape them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agentbench.comparison import (
    AgentSummary,
    Comparison,
    PairedTest,
    Verdict,
    fixed,
    interval_range,
    signed,
)
from agentbench.report import (
    component_columns,
    count,
    money,
    number,
    pass_at_columns,
    seconds,
)

STATUSES: tuple[str, ...] = ("completed", "agent_error", "timeout", "infra_error",
                             "verifier_error")
"""Trial statuses in the order the failure table shows them."""

AHEAD = "▲"
"""Marks a matrix cell whose row agent is significantly ahead of its column agent."""

BEHIND = "▼"
"""Marks a matrix cell whose row agent is significantly behind its column agent."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableView:
    """One table: what to show, not how."""

    id: str
    """Stable ID (`ranking`, `verdicts-score`...): the HTML element ID is `table-<id>`."""
    title: str
    """Heading."""
    headers: tuple[str, ...]
    """Column headers."""
    rows: tuple[tuple[str, ...], ...]
    """Cells, as text."""
    left: int = 1
    """How many leading columns are text (left-aligned); the rest are numbers."""
    classes: tuple[tuple[str, ...], ...] = ()
    """Per-cell class (`win`, `loss`, `self`, ``), parallel to `rows`; empty for none."""
    caption: str = ""
    """How to read it, one sentence."""
    name_column: int = 0
    """The column that holds agent labels (never wrapped)."""
    matrix: bool = False
    """Cells may break at spaces (a matrix's `+6.1 ▲ (9-3)`), so wide matrices fit."""
    agent_headers: bool = False
    """The columns after the first are agents (the HTML sets their names upright when many)."""
    text_columns: tuple[int, ...] = ()
    """Columns at or after `left` that still hold text (left-aligned, may wrap), e.g. a note."""

    def is_number(self, column: int) -> bool:
        """Whether a column holds numbers (right-aligned, never wrapped)."""
        return column >= self.left and column not in self.text_columns


def ranking(c: Comparison, others: Sequence[tuple[str, Comparison]] = ()) -> TableView:
    """Agents best first, with the aggregate's interval, trials and hidden-test results.

    Agents are ordered by their like-for-like score (`AgentSummary.rank_score`); when some agent
    lacks challenges that score gets its own column, and every row ends with what its rank hides
    (challenges it has no score on, agents it trails on their shared challenges).
    `others` adds a score column and its interval for each (name, comparison) given: the same
    runs compared on another score (e.g. `CompareOptions(score="seed_score")`), matched by label.
    """
    ks = pass_at_columns(c)
    ci = f"{c.confidence:.0%} CI"
    extra = [{a.label: a for a in other.agents} for _, other in others]
    adjusted = any(a.missing_challenges for a in c.agents if a.aggregate is not None)
    rows = tuple((
        "-" if a.rank is None else str(a.rank), a.label,
        *((number(a.rank_score),) if adjusted else ()), number(a.aggregate),
        interval_range(a.interval),
        *(text for found in extra for text in _other_score(found.get(a.label))),
        str(a.challenges), _trials(a), count(a.solved, a.attempts),
        *(number(dict(a.pass_at).get(k), percent=True) for k in ks),
        "; ".join(a.rank_notes) or "-") for a in c.ranked)
    ranked_by = ("Like-for-like: the difficulty-adjusted score the ranking orders by (an additive "
                 "model of agent and challenge fitted to every scored cell: the agent's predicted "
                 "mean over all the challenges). " if adjusted else "")
    return TableView(
        id="ranking", title=f"Ranking, {c.population}",
        headers=("Rank", "Agent", *(("Like-for-like",) if adjusted else ()), "Score", ci,
                 *(h for name, _ in others for h in (name, ci)),
                 "Challenges", "Trials/challenge", "Hidden solved", *(f"pass@{k}" for k in ks),
                 "Ranking note"),
        rows=rows, left=2, name_column=1, text_columns=(len(rows[0]) - 1,) if rows else (),
        caption=f"{ranked_by}Score: the seed's aggregate (mean over the agent's own challenges of "
                f"the per-challenge mean) under the {c.rubric} rubric; {ci}: {_ci_words(c)}. "
                f"Hidden solved: trials that passed every hidden test. Ranking note: challenges "
                f"without a score, and agents ranked below it that it trails on their shared "
                f"challenges.")


def _other_score(agent: AgentSummary | None) -> tuple[str, str]:
    if agent is None:
        return "-", "-"
    return number(agent.aggregate), interval_range(agent.interval)


def _ci_words(c: Comparison) -> str:
    if c.view == "conditional":
        return "Welch-Satterthwaite t interval from the trial-to-trial spread, on these challenges"
    return "Student t interval over challenges (C - 1 degrees of freedom)"


def _trials(a: AgentSummary) -> str:
    """`3`, or `1-3` when cells differ."""
    if a.challenges == 0:
        return "-"
    if a.trials_most > a.trials_per_challenge:
        return f"{a.trials_per_challenge}-{a.trials_most}"
    return str(a.trials_per_challenge)


def _oriented(c: Comparison, row: str, col: str,
              measure: Callable[[Verdict], PairedTest | None]) -> tuple[PairedTest, bool] | None:
    verdict = c.verdict(row, col)
    if verdict is None:
        return None
    test = measure(verdict)
    return None if test is None else (test, verdict.a != row)


def _matrix_cell(test: PairedTest, flip: bool, row: str, scale: float,
                 digits: int) -> tuple[str, str]:
    difference = -test.difference if flip else test.difference
    wins, losses = (test.losses, test.wins) if flip else (test.wins, test.losses)
    mark, css = "", ""
    if test.winner is not None:
        mark, css = (AHEAD, "win") if test.winner == row else (BEHIND, "loss")
    text = f"{signed(difference * scale, digits)}{(' ' + mark) if mark else ''} ({wins}-{losses})"
    return text, css


def _matrix(c: Comparison, measure: str, scale: float, digits: int) -> TableView:
    agents = [a.label for a in c.ranked if a.aggregate is not None]
    pick: Callable[[Verdict], PairedTest | None] = (
        (lambda v: v.score) if measure == "score" else (lambda v: v.hidden))
    rows, classes = [], []
    for i, row in enumerate(agents, start=1):
        cells, css = [f"#{i}", row], ["", ""]
        for col in agents:
            found = None if row == col else _oriented(c, row, col, pick)
            text, klass = ("-", "self" if row == col else "") if found is None else _matrix_cell(
                found[0], found[1], row, scale, digits)
            cells.append(text)
            css.append(klass)
        rows.append(tuple(cells))
        classes.append(tuple(css))
    unit = "points" if measure == "score" else "percentage points of trials passing every hidden test"
    title = "Pairwise verdicts: score" if measure == "score" else "Pairwise verdicts: hidden tests"
    return TableView(
        id=f"verdicts-{measure}", title=title,
        headers=("#", "Agent", *(f"vs #{i}" for i in range(1, len(agents) + 1))),
        rows=tuple(rows), classes=tuple(classes), left=2, name_column=1, matrix=True,
        caption=f"Row agent minus column agent (#k: the k-th of the ranking), {unit}, "
                f"{c.population}; {AHEAD} the row is significantly ahead, {BEHIND} behind "
                f"(Holm-adjusted over every pair, alpha {c.alpha:g}); (W-L): challenges on which "
                f"the row's mean is higher - lower.")


def score_matrix(c: Comparison) -> TableView:
    """Row agent minus column agent on the score, with significance marks and win-loss counts."""
    return _matrix(c, "score", 1.0, 1)


def hidden_matrix(c: Comparison) -> TableView | None:
    """The same for the hidden-test solve rate; None when no pair has hidden-test results."""
    if not any(v.hidden for v in c.verdicts):
        return None
    return _matrix(c, "hidden", 100.0, 0)


def breakdown(c: Comparison) -> TableView:
    """Mean points per rubric component."""
    columns = component_columns(c.rubric)
    rows = tuple((a.label, *(number(dict(a.components)[n]) for n, _ in columns),
                  number(a.aggregate)) for a in c.ranked)
    return TableView(id="components", title=f"Score breakdown (rubric: {c.rubric})",
                     headers=("Agent", *(f"{n.capitalize()} ({w:g})" for n, w in columns),
                              "Total"), rows=rows,
                     caption="Mean points per component, averaged like the aggregate.")


def usage(c: Comparison) -> TableView:
    """Time, cost and tokens per trial: medians, 90th percentiles, totals, score per dollar; where
    the tokens come from once any agent's were metered (not like for like with a CLI's report)."""
    metered = any(s != "cli" for a in c.ranked for s, _ in a.token_sources)
    rows = tuple((
        a.label, seconds(a.median_time_s), seconds(a.p90_time_s), money(a.median_cost_usd),
        money(a.p90_cost_usd), run_cost(a),
        "-" if a.points_per_dollar is None else fixed(a.points_per_dollar, 0), cost_sources(a),
        number(a.mean_input_tokens, digits=0), number(a.mean_output_tokens, digits=0),
        *((" · ".join(f"{s.replace('-', ' ')} {n}" for s, n in a.token_sources) or "-",)
          if metered else ()))
        for a in c.ranked)
    return TableView(
        id="usage", title="Time, cost and tokens per trial",
        headers=("Agent", "Median time", "p90 time", "Median cost", "p90 cost", "Cost per run",
                 "Points per $", "Cost from", "Tokens in", "Tokens out",
                 *(("Tokens from",) if metered else ())), rows=rows,
        caption="Over scored trials; a cost comes from the CLI's own report (cli), else from the "
                "tokens and AgentBench's price table (price table), else it is unknown: never "
                "counted as $0, left out of the medians, and no points per $ (the score divided "
                "by the mean cost per trial) while any trial's cost is unknown. Cost per run: "
                "every trial of the run; tokens: means"
                + (", from the CLI's own report (cli) or counted by the harness's metering proxy "
                   "(meter: every call the endpoint answered)." if metered else "."))


def run_cost(a: AgentSummary) -> str:
    """`$1.234`, `$1.234 + 2 unknown`, or `unknown`: an agent's cost per run."""
    if a.run_cost_usd is None:
        return "unknown" if a.run_cost_unknown else "-"
    extra = f" + {a.run_cost_unknown} unknown" if a.run_cost_unknown else ""
    return money(a.run_cost_usd) + extra


def cost_sources(a: AgentSummary) -> str:
    """`cli 10`, `price table 8 · unknown 2`: where an agent's scored trials' costs come from."""
    return " · ".join(f"{s.replace('-', ' ')} {n}" for s, n in a.cost_sources) or "-"


def failures(c: Comparison) -> TableView:
    """How every trial ended, per agent."""
    shown = [s for s in STATUSES if any(dict(a.statuses).get(s) for a in c.agents)]
    shown += sorted({s for a in c.agents for s, _ in a.statuses} - set(STATUSES))
    rows = tuple((a.label, *(str(dict(a.statuses).get(s, 0)) for s in shown),
                  str(sum(n for _, n in a.statuses))) for a in c.ranked)
    return TableView(
        id="statuses", title="Trials by status", headers=("Agent", *shown, "total"), rows=rows,
        caption="timeout and agent_error count as the agent's failures (scored); infra_error and "
                "verifier_error are the harness's (left out of the scores).")


def agents(c: Comparison) -> TableView:
    """What each label stands for: agent, model, CLI version, run."""
    rows = tuple((a.label, a.agent, a.model or "default", a.cli_version or "-", a.run_id,
                  when(a.created_at)) for a in c.agents)
    return TableView(id="agents", title="Agents", headers=(
        "Label", "Agent", "Model", "CLI version", "Run", "Written"), rows=rows, left=6,
        caption="Model: what the run asked for (default: the CLI's own choice); CLI version: "
                "as each trial recorded it.")


def when(iso: str) -> str:
    """`2026-01-15 12:00 UTC` from an ISO-8601 UTC time; anything else as it is."""
    if len(iso) >= 16 and iso[10] == "T" and iso.endswith(("+00:00", "Z")):
        return f"{iso[:10]} {iso[11:16]} UTC"
    return iso


def tiers(c: Comparison) -> TableView:
    """Mean score per tier and agent."""
    ranked = c.ranked
    rows = tuple((tier, *(number(next((t.score for t in a.tiers if t.tier == tier), None))
                          for a in ranked)) for tier in c.tiers)
    return TableView(id="tiers", title="By tier", headers=("Tier", *(a.label for a in ranked)),
                     rows=rows, agent_headers=True,
                     caption="Mean over the tier's challenges of the per-challenge mean.")


def languages(c: Comparison) -> TableView | None:
    """Mean score per language and agent (None with a single language)."""
    if len(c.languages) < 2:
        return None
    ranked = c.ranked
    rows = tuple((name, *(number(next((s.score for s in a.languages if s.language == name), None))
                          for a in ranked)) for name in c.languages)
    return TableView(id="languages", title="By language", headers=("Language", *(a.label for a in ranked)),
                     rows=rows, agent_headers=True,
                     caption="Mean over the language's challenges of the per-challenge mean.")


def spread(c: Comparison) -> TableView:
    """Per-challenge mean, standard deviation and number of scored trials."""
    ranked = c.ranked

    def cell_text(agent: str, cid: str) -> str:
        cell = c.cell(agent, cid)
        if cell is None:
            return "-"
        sd = "" if cell.summary.sd is None else f" ± {fixed(cell.summary.sd)}"
        return f"{fixed(cell.summary.mean)}{sd} (n={cell.summary.n})"

    return TableView(id="spread", title="Spread over trials (mean ± standard deviation)",
                     headers=("Challenge", *(a.label for a in ranked)), agent_headers=True,
                     rows=tuple((cid, *(cell_text(a.label, cid) for a in ranked))
                                for cid in c.challenges))


def behaviour(c: Comparison) -> TableView | None:
    """What each agent did, from its trajectories (None: no trajectory was read)."""
    if not c.behaviour:
        return None
    rows = tuple((
        b.label, ", ".join(f"{name} x{n}" for name, n in b.top_tools[:4]) or "-",
        str(b.trials), number(b.turns), *(number(n) for _, n in b.tool_calls),
        number(b.files_written), seconds(b.first_write_s),
        number(b.ran_tests, digits=0, percent=True)) for b in c.behaviour)
    return TableView(
        id="behaviour", title="Behaviour (from each trial's trajectory)",
        headers=("Agent", "Tools used", "Trials read", "Turns", "Read", "Write", "Shell", "Search",
                 "Other", "Files written", "First write", "Ran tests"),
        rows=rows, left=2, caption="Means per trial over trials whose transcript could be read "
        "(calls per tool kind); first write: median time from the start; ran tests: share of "
        "trials in which the agent ran a test suite itself. Never part of a score.")


def expectations(c: Comparison) -> TableView | None:
    """The challenges' `expect:` checks per agent (None: no challenge sets any)."""
    shown = [b for b in c.behaviour if b.checks]
    if not shown:
        return None
    rows = tuple((b.label, f"{b.checks_met}/{len(b.checks)}",
                  "; ".join(f"{k.challenge_id} #{k.trial} {k.name}: expected {k.expected}, "
                            f"was {k.actual}" for k in b.checks if k.met is False) or "-",
                  str(len(b.checks) - b.checks_known)) for b in shown)
    return TableView(id="expectations", title="Expectations (challenges' expect:, not scored)",
                     headers=("Agent", "Met", "Not met", "Unknown"), rows=rows, left=3,
                     caption="Each trial checked against its challenge's `expect:` block; "
                             "reported apart, never part of any score.")


def changes(c: Comparison) -> TableView | None:
    """What each agent changed against the starting trees: mean lines added and removed per trial,
    protected files edited, and (brownfield) how many trials resolved their task."""
    rows = []
    for a in c.ranked:
        mine = [t for t in c.trials if t.agent == a.label and t.lines_added is not None]
        if not mine:
            continue
        sets = [t.resolved for t in mine if t.resolved is not None]
        rows.append((a.label, str(len(mine)),
                     fixed(sum(t.lines_added or 0 for t in mine) / len(mine), 1),
                     fixed(sum(t.lines_removed or 0 for t in mine) / len(mine), 1),
                     str(sum(t.protected_changed for t in mine)),
                     f"{sum(sets)}/{len(sets)}" if sets else "-"))
    if not rows:
        return None
    return TableView(id="changes", title="Changes against the starting tree",
                     headers=("Agent", "Trials", "Lines added", "Lines removed",
                              "Protected edits", "Resolved"), rows=tuple(rows),
                     caption="Lines: means per trial, from each trial's changes.diff; protected "
                             "edits never count (measured as given); resolved: every "
                             "FAIL_TO_PASS and PASS_TO_PASS test passed.")


def attempts(c: Comparison) -> TableView | None:
    """Pass rate 1 and 2 per agent, over its trials run with `--attempts 2` (Aider's two figures)."""
    rows = []
    for a in c.ranked:
        mine = [t for t in c.trials if t.agent == a.label and t.pass_1 is not None]
        if mine:
            first, last = sum(bool(t.pass_1) for t in mine), sum(bool(t.pass_2) for t in mine)
            rows.append((a.label, str(len(mine)), f"{100 * first / len(mine):.1f}%",
                         f"{100 * last / len(mine):.1f}%"))
    if not rows:
        return None
    return TableView(id="attempts", title="Two attempts (--attempts 2)",
                     headers=("Agent", "Trials", "Pass rate 1", "Pass rate 2"), rows=tuple(rows),
                     caption="Passed: every FAIL_TO_PASS and PASS_TO_PASS test, else every hidden "
                             "test, else every visible test; a second attempt gets the visible "
                             "tests' output when the first fails them.")


def after_seed(c: Comparison,
               others: Sequence[tuple[str, Comparison]] = ()) -> tuple[TableView, ...]:
    """Every table shown after the seed's two, in order (`others`: extra ranking columns)."""
    hidden, by_language = hidden_matrix(c), languages(c)
    extra = tuple(v for v in (attempts(c), changes(c), behaviour(c), expectations(c)) if v is not None)
    return (ranking(c, others), score_matrix(c), *((hidden,) if hidden else ()), breakdown(c),
            usage(c), failures(c), *extra, agents(c), tiers(c),
            *((by_language,) if by_language else ()))

