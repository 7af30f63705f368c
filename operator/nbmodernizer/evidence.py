"""When the runs of a stochastic notebook are enough to judge it (`score.runsPolicy`). Pure.

`fixed` (the default, the paper's test): every one of `score.runs` runs is executed, then a
one-sample t-test of their scores against s_t decides (`grade.reproducibility`).

`adaptive`: after each run from the third on, a confidence interval of the mean score is
compared with the τ band [s_t - τ|s_t|, s_t + τ|s_t|]:

* the interval lies wholly inside the band: stop, the score reproduces;
* the interval lies wholly outside the band: stop, it does not;
* otherwise run once more, up to `score.runs`; a revision that reaches `score.runs` runs
  without an early stop is judged exactly as `fixed` judges it.

Stated error rates. The intervals are Student-t intervals at level 1 - alpha/L, where alpha is
`score.pValue` (0.05 by default) and L = runs - 3 is the number of looks that may stop early
(a Bonferroni split). An early stop is wrong only when the interval at that look misses the
true mean score, so, for normally distributed run scores:

* false accept (an early "reproduces" although the true mean lies outside the band) <= alpha;
* false reject (an early "does not reproduce" although the true mean lies inside the band) <= alpha.

The bounds are conservative; `tests/test_evidence.py` measures both by simulation and
`benchmarks/adaptive_runs.py` reports them with the mean number of runs used.
Identical scores (a deterministic notebook) have a zero-width interval: the band decides at
the third run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from nbmodernizer.spec import RunsPolicy, ScoreSpec
from nbmodernizer.student_t import quantile

MIN_RUNS = 3  # before this many runs, no interval is trusted


@dataclass(frozen=True)
class Evidence:
    enough: bool  # no further run is needed
    early: bool  # stopped before `score.runs` (adaptive); the verdict is `reproduced`
    reproduced: bool | None  # the early verdict; None unless `early`
    reason: str


def band(spec: ScoreSpec) -> tuple[float, float]:
    """The scores that reproduce s_t: relative to |s_t|, absolute when s_t is 0."""
    width = spec.tolerance * abs(spec.target) if spec.target != 0 else spec.tolerance
    return spec.target - width, spec.target + width


def looks(spec: ScoreSpec) -> int:
    """How many times the adaptive policy may stop early: after runs 3 .. runs - 1."""
    return max(0, spec.runs - MIN_RUNS)


def interval(values: list[float], level: float) -> tuple[float, float]:
    """The Student-t confidence interval of the mean of `values` (at least 2) at `level`."""
    n = len(values)
    mean = math.fsum(values) / n
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = quantile(0.5 + level / 2, n - 1) * math.sqrt(variance / n)
    return mean - half, mean + half


def weigh(values: list[float], spec: ScoreSpec) -> Evidence:
    """Whether the scores of the runs so far are enough, and what they say if they are."""
    n = len(values)
    if n >= spec.runs:
        return Evidence(True, False, None, f"all {spec.runs} run(s)")
    if spec.runs_policy is RunsPolicy.FIXED or n < MIN_RUNS:
        return Evidence(False, False, None, f"{n} of {spec.runs} run(s)")
    level = 1 - spec.p_value / looks(spec)
    low, high = interval(values, level)
    band_low, band_high = band(spec)
    shown = f"the {level:.2%} interval [{low:.6g}, {high:.6g}] of the mean"
    where = f"the band [{band_low:.6g}, {band_high:.6g}] after {n} of {spec.runs} runs"
    if band_low <= low and high <= band_high:
        return Evidence(True, True, True, f"{shown} lies inside {where}")
    if high < band_low or low > band_high:
        return Evidence(True, True, False, f"{shown} lies outside {where}")
    return Evidence(False, False, None, f"{shown} overlaps {where}")


def decide(runs: int, failed: bool, values: list[float], spec: ScoreSpec) -> bool:
    """Whether the `runs` runs so far decide the revision, for both drivers: one of them went
    wrong (`failed`: it did not complete, or its submission cannot be graded), all of
    `score.runs` have run, or `weigh` says the scores of those graded (`values`) are enough."""
    return failed or runs >= spec.runs or weigh(values, spec).enough
