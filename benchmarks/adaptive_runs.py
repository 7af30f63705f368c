"""Benchmark: `runsPolicy: adaptive` against `fixed` on seeded score distributions.

For each scenario (the true mean score and its spread across runs), thousands of simulated
revisions are judged both ways, exactly as the grader judges them (`evidence.weigh` to decide
when to stop, `grade.score_runs` for the verdict). Printed per scenario and policy: how often
the verdict is "reproduces", whether that verdict is right (the true mean inside the τ band),
and the mean number of runs used. No notebooks: the runs' scores are drawn, not executed.

    python benchmarks/adaptive_runs.py [--sequences 2000] [--runs 10]
"""

from __future__ import annotations

import argparse

import numpy as np

from nbmodernizer.evidence import band, weigh
from nbmodernizer.grade import score_runs
from nbmodernizer.spec import Metric, RunsPolicy, ScoreSpec

SCENARIOS = [  # (true mean, standard deviation) around s_t = 0.80, band [0.72, 0.88]
    (0.80, 0.01),
    (0.80, 0.05),
    (0.86, 0.02),
    (0.879, 0.03),
    (0.881, 0.03),
    (0.90, 0.02),
    (0.60, 0.02),
]


def judge(sequence: np.ndarray, spec: ScoreSpec) -> tuple[bool, int]:
    """(reproduced, runs used) for one simulated revision."""
    for n in range(1, spec.runs + 1):
        values = [float(v) for v in sequence[:n]]
        if weigh(values, spec).enough:
            return score_runs(values, None, spec).reproduced, n
    raise AssertionError("weigh never had enough")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    base = ScoreSpec(metric=Metric.ACCURACY, target=0.80, answers="-", runs=args.runs)
    low, high = band(base)
    print(f"s_t = 0.80, band [{low:.2f}, {high:.2f}], runs = {args.runs}, alpha = {base.p_value}")
    print(f"{'mean':>6} {'sd':>5} {'truth':>8} | {'policy':>8} {'reproduces':>10} "
          f"{'wrong':>6} {'runs':>5}")  # fmt: skip
    rng = np.random.default_rng(20261201)
    for mean, sd in SCENARIOS:
        scores = rng.normal(mean, sd, size=(args.sequences, args.runs))
        inside = low <= mean <= high
        truth = "inside" if inside else "outside"
        for policy in RunsPolicy:
            spec = base.model_copy(update={"runs_policy": policy})
            verdicts = [judge(sequence, spec) for sequence in scores]
            accepted = sum(reproduced for reproduced, _ in verdicts) / len(verdicts)
            wrong = 1 - accepted if inside else accepted
            runs = sum(n for _, n in verdicts) / len(verdicts)
            print(f"{mean:6.3f} {sd:5.2f} {truth:>8} | {policy.value:>8} {accepted:10.3f} "
                  f"{wrong:6.3f} {runs:5.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
