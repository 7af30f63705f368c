"""`runsPolicy: adaptive`: its early stops keep the error rates `nbmodernizer.evidence` states.

Checked by simulation on seeded normal score distributions (thousands of simulated checks, no
notebooks): the true mean just outside the band is the worst case for a false accept, just
inside it for a false reject.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

from nbmodernizer import evidence
from nbmodernizer.evidence import MIN_RUNS, band, weigh
from nbmodernizer.grade import score_runs
from nbmodernizer.spec import Metric, RunsPolicy, ScoreSpec

SPEC = ScoreSpec(
    metric=Metric.ACCURACY,
    target=0.80,
    answers="answers.csv",
    tolerance=0.10,
    runs=10,
    runs_policy=RunsPolicy.ADAPTIVE,
)
LOW, HIGH = band(SPEC)  # 0.72, 0.88
SEQUENCES = 1500


@dataclass(frozen=True)
class Simulated:
    early_accept: float  # share of sequences stopped early as "reproduces"
    early_reject: float
    mean_runs: float


def simulate(mean: float, sd: float, seed: int, spec: ScoreSpec = SPEC) -> Simulated:
    rng = np.random.default_rng(seed)
    scores = rng.normal(mean, sd, size=(SEQUENCES, spec.runs))
    accepted = rejected = used = 0
    for sequence in scores:
        for n in range(1, spec.runs + 1):
            found = weigh([float(v) for v in sequence[:n]], spec)
            if found.enough:
                used += n
                accepted += found.early and bool(found.reproduced)
                rejected += found.early and found.reproduced is False
                break
    return Simulated(accepted / SEQUENCES, rejected / SEQUENCES, used / SEQUENCES)


def noise(alpha: float) -> float:
    """Three standard errors of a rate alpha measured on SEQUENCES draws."""
    return 3 * math.sqrt(alpha * (1 - alpha) / SEQUENCES)


ALPHA = SPEC.p_value


@pytest.mark.parametrize(("mean", "sd"), [(LOW - 0.001, 0.03), (HIGH + 0.001, 0.05), (0.95, 0.1)])
def test_false_accepts_stay_within_the_stated_rate(mean: float, sd: float) -> None:
    assert simulate(mean, sd, seed=1).early_accept <= ALPHA + noise(ALPHA)


@pytest.mark.parametrize(("mean", "sd"), [(LOW + 0.001, 0.03), (HIGH - 0.001, 0.05), (0.8, 0.2)])
def test_false_rejects_stay_within_the_stated_rate(mean: float, sd: float) -> None:
    assert simulate(mean, sd, seed=2).early_reject <= ALPHA + noise(ALPHA)


def test_clear_cases_stop_after_few_runs_and_right() -> None:
    inside = simulate(0.80, 0.01, seed=3)
    outside = simulate(0.60, 0.01, seed=4)
    assert inside.early_accept > 0.99 and inside.mean_runs < 3.5
    assert outside.early_reject > 0.99 and outside.mean_runs < 3.5


def test_the_simulation_catches_a_rule_that_spends_alpha_at_every_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without the Bonferroni split the worst case breaks the stated rate: the check has teeth."""
    many_looks = SPEC.model_copy(update={"runs": 30})
    assert simulate(LOW - 0.001, 0.03, seed=5, spec=many_looks).early_accept <= ALPHA
    monkeypatch.setattr(evidence, "looks", lambda spec: 1)
    naive = simulate(LOW - 0.001, 0.03, seed=5, spec=many_looks)
    assert naive.early_accept > ALPHA + noise(ALPHA)


def test_fixed_runs_every_run_and_adaptive_waits_for_three() -> None:
    fixed = SPEC.model_copy(update={"runs_policy": RunsPolicy.FIXED})
    assert not weigh([0.8] * 9, fixed).enough
    assert weigh([0.8] * 10, fixed) == evidence.Evidence(True, False, None, "all 10 run(s)")
    assert not weigh([0.8] * (MIN_RUNS - 1), SPEC).enough
    identical = weigh([0.8] * MIN_RUNS, SPEC)  # a deterministic notebook: the band decides
    assert identical.early and identical.reproduced
    assert "inside the band [0.72, 0.88] after 3 of 10 runs" in identical.reason


def test_an_early_stop_decides_the_score_and_says_why() -> None:
    early = score_runs([0.60, 0.61, 0.59], None, SPEC)
    assert not early.reproduced and early.p_value is None
    assert early.evidence is not None and "lies outside the band" in early.evidence
    full = score_runs([0.70, 0.90, 0.75, 0.86, 0.8, 0.71, 0.89, 0.74, 0.87, 0.79], None, SPEC)
    assert full.evidence == "all 10 run(s)" and full.p_value is not None
    single = score_runs([0.8], None, SPEC.model_copy(update={"runs": 1}))
    assert single.evidence is None and single.reproduced
