"""Verdicts and figures in words: one sentence per verdict, shared by every report format.

Every sentence names the population it speaks about ("over challenges like these", or "on these
13 shared challenges only"), the interval, the corrected p-value and the challenge-by-challenge
record, so a reader can check it against the tables. No number is ever printed as `-0.0`.
"""

from __future__ import annotations

from agentbench.comparison.model import CONDITIONAL, PairedTest
from agentbench.stats import MIN_INFORMATIVE, Interval, PowerEstimate


def fixed(value: float, digits: int = 1) -> str:
    """`value` with `digits` decimals, never `-0.0`."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def signed(value: float, digits: int = 1) -> str:
    """`+6.1`, `-2.0` or `0.0` (never `-0.0` or `+0.0`)."""
    text = fixed(value, digits)
    return text if text.startswith("-") or float(text) == 0 else "+" + text


def percent(value: float) -> str:
    """`85%` (never `-0%`)."""
    return fixed(100 * value, 0) + "%"


def format_p(p: float) -> str:
    """`p=0.004`, or `p<0.001` for smaller values."""
    return "p<0.001" if p < 0.001 else f"p={p:.3f}"


def interval_range(interval: Interval | None, sign: float = 1.0, scale: float = 1.0,
                   digits: int = 1, unit: str = "") -> str:
    """`2.0 to 10.3`, `100.0 to 100.0 (zero width)`, or `-` (bounds times sign and scale).

    A narrow interval whose bounds would print alike gets more decimals (up to 4), so only an
    interval that is truly a point reads as one.
    """
    if interval is None:
        return "-"
    low, high = sorted((interval.low * sign * scale, interval.high * sign * scale))
    while fixed(low, digits) == fixed(high, digits) and not interval.zero_width and digits < 4:
        digits += 1
    text = f"{fixed(low, digits)} to {fixed(high, digits)}{unit}"
    return text + " (zero width)" if interval.zero_width else text


def confidence_text(confidence: float) -> str:
    """`95%`, `98.3%`, `99.998%`: the level with as many decimals as tell it apart from 100%."""
    value = 100 * confidence
    text = f"{value:.0f}"
    for digits in range(4):
        text = f"{value:.{digits}f}"
        if abs(float(text) - value) < 1e-9 or (digits >= 1 and float(text) < 100.0):
            break
    return text + "%"


def format_interval(interval: Interval | None, sign: float = 1.0, scale: float = 1.0,
                    digits: int = 1, unit: str = "") -> str:
    """`95% CI 2.0 to 10.3`, a zero-width one marked as such, or `no CI`."""
    if interval is None:
        return "no CI"
    text = f"{confidence_text(interval.confidence)} CI {interval_range(interval, sign, scale, digits, unit)}"
    return text.replace("(zero width)", "(zero width: nothing varied)")


def _p_text(t: PairedTest) -> str:
    holm = f" (Holm-adjusted over {t.family} pairs)" if t.family > 1 else ""
    return format_p(t.p_adjusted) + holm


def _record(first: str, t: PairedTest, flip: bool = False) -> str:
    wins, losses = (t.losses, t.wins) if flip else (t.wins, t.losses)
    tied = f", tied on {t.ties}" if t.ties else ""
    noun = "challenge" if t.challenges == 1 else "challenges"
    return f"{first} ahead on {wins} of {t.challenges} shared {noun}, behind on {losses}{tied}"


def _blocked(t: PairedTest) -> str:
    noun = "challenge" if t.challenges == 1 else "challenges"
    if t.blocked_by == "informative":
        return (f"too few informative challenges: the scores differ on {t.wins + t.losses} of "
                f"{t.challenges} shared {noun} (a verdict needs at least {MIN_INFORMATIVE}; ties "
                f"carry no evidence either way)")
    return (f"with {t.challenges} shared {noun} no difference can reach significance "
            f"(the smallest possible p is {t.smallest_p:.3g})")


def score_words(a: str, b: str, t: PairedTest, trials: str, population: str) -> str:
    """The verdict on the score, e.g. `B is ahead of A by 6.1 points over challenges like these
    (95% CI 2.0 to 10.3, p=0.004; B ahead on 11 of 13 shared challenges, behind on 2)`."""
    if t.winner is not None:
        flip = t.winner == b
        loser = a if flip else b
        return (f"{t.winner} is ahead of {loser} by {fixed(abs(t.difference))} points {population} "
                f"({format_interval(t.interval, -1.0 if flip else 1.0)}, {_p_text(t)}; "
                f"{_record(t.winner, t, flip)})")
    difference = f"{a} minus {b}: {signed(t.difference)} points"
    if not t.decidable:
        return f"no verdict between {a} and {b}: {_blocked(t)}; {difference}, {_record(a, t)}"
    trial_word = "trial" if trials == "1" else "trials"
    return (f"no significant difference between {a} and {b} {population} at {trials} "
            f"{trial_word} per challenge ({difference}, {format_interval(t.interval)}, "
            f"{_p_text(t)}; {_record(a, t)})")


def hidden_words(a: str, b: str, t: PairedTest | None, population: str) -> str:
    """The verdict on the hidden tests: who passes every hidden test in more of its trials."""
    if t is None:
        return "no shared challenge has hidden-test results"
    rates = (f"{a} passes every hidden test in {percent(t.a_value)} of its trials per challenge, "
             f"{b} in {percent(t.b_value)}")
    where = f"{t.challenges} shared challenge{'s' * (t.challenges != 1)} with hidden tests"
    if t.winner is not None:
        flip = t.winner == b
        loser = a if flip else b
        shown = (t.b_value, t.a_value) if flip else (t.a_value, t.b_value)
        return (f"{t.winner} passes every hidden test more often than {loser} {population}: "
                f"{percent(shown[0])} against {percent(shown[1])} of trials per challenge "
                f"({format_interval(t.interval, -1.0 if flip else 1.0, 100.0, 0, ' points')}, "
                f"{_p_text(t)}; over {where})")
    if not t.decidable:
        return f"no verdict: {_blocked(t)}; {rates}"
    return (f"no significant difference {population}: {rates} "
            f"({format_interval(t.interval, 1.0, 100.0, 0, ' points')}, {_p_text(t)}; "
            f"over {where})")


def _routes(p: PowerEstimate) -> str:
    n, c = p.trials_now, p.challenges_now
    if c < MIN_INFORMATIVE:
        by_trials = (f"no number of trials can on {c} challenges (a verdict needs at least "
                     f"{MIN_INFORMATIVE} on which the agents differ)")
    elif p.trials_needed is not None:
        by_trials = f"{p.trials_needed} trials per challenge on these {c} challenges"
    elif p.trials_ceiling is not None:
        by_trials = (f"more trials alone cannot (at most {percent(p.trials_ceiling)} with "
                     f"unlimited trials on {c} challenges)")
    else:
        by_trials = "the effect of more trials is unknown until some cell has 2 trials"
    by_challenges = (f"{p.challenges_needed} challenges at {n} trial{'s' * (n != 1)} each"
                     if p.challenges_needed is not None else "no feasible number of challenges")
    text = f"{by_trials}; {by_challenges}"
    if p.better == "challenges" and p.challenges_needed is not None:
        cost = (f" ({p.challenges_needed * n} trials per agent against {c * p.trials_needed})"
                if p.trials_needed is not None else "")
        text += f"; more challenges help more{cost}"
    elif p.better == "trials" and p.trials_needed is not None and p.challenges_needed:
        text += (f"; more trials help more ({c * p.trials_needed} trials per agent against "
                 f"{p.challenges_needed * n})")
    return text


def power_words(a: str, b: str, p: PowerEstimate, view: str) -> str:
    """The power estimate: power now, and what more trials or more challenges would give."""
    goal = (f"to detect a {p.gap:g}-point gap between {a} and {b} with "
            f"{p.target_power:.0%} power")
    level = (f"alpha {p.alpha:g} over {p.pairs} pairs, {p.alpha / p.pairs:.2g} each"
             if p.pairs > 1 else f"alpha {p.alpha:g}")
    if p.power_now is None:
        if p.unknown_because:
            return f"{goal}: unknown, {p.unknown_because}"
        need = ("2 or more trials in some cell of each agent" if view == CONDITIONAL
                else "2 or more shared challenges")
        return f"{goal}: unknown, estimating the spread needs {need}"
    now = f"power now about {percent(p.power_now)}"
    if view == CONDITIONAL:
        trials = "trial" if p.trials_needed == 1 else "trials"
        return (f"{goal} ({level}) on these {p.challenges_now} challenges: {p.trials_needed} "
                f"{trials} per challenge (now {p.trials_now}, {now})")
    spread = ""
    if p.between_sd is not None and p.within_sd is not None:
        spread = (f"; the true gap varies by {fixed(p.between_sd)} points (sd) from challenge to "
                  f"challenge, a difference of two single trials by {fixed(p.within_sd)}")
    design = (f"{now} with {p.challenges_now} challenges and {p.trials_now} "
              f"trial{'s' * (p.trials_now != 1)} each")
    if p.better == "reached":
        return f"{goal} ({level}): {design}, enough{spread}"
    return f"{goal} ({level}): {design}; {_routes(p)}{spread}"
