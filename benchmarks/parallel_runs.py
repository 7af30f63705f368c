"""Benchmark: one iteration of `runs: 4` with the runs at once against one after another.

The notebook waits about `--seconds` (a stand-in for a model training on its own GPU: the
time is spent outside this machine's two cores), then writes its submission. Three fresh
`nbmod modernize` processes per round, alternated: `runs: 1`, `runs: 4 --parallel-runs 1`
and `runs: 4 --parallel-runs 4`. Reported: the medians and the ratio of the parallel
iteration to one run's (the goal: well under 2).

    python benchmarks/parallel_runs.py [--rounds 3] [--seconds 10]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from testing.notebooks import PREDICT, READ, WRITE, kaggle_folder

NBMOD = str(Path(sys.executable).parent / "nbmod")


def once(scratch: Path, seconds: float, runs: int, parallel: int) -> float:
    root = scratch / f"case-{time.monotonic_ns()}"
    wait = f"import time\ntime.sleep({seconds})"
    spec = kaggle_folder(root, READ, wait, PREDICT, WRITE, score={"runs": runs})
    started = time.perf_counter()
    command = [NBMOD, "modernize", str(spec), "--out", str(root / "out")]
    subprocess.run([*command, "--parallel-runs", str(parallel)], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    plans = {"one run": (1, 1), "4 runs, one at a time": (4, 1), "4 runs at once": (4, 4)}
    timings: dict[str, list[float]] = {label: [] for label in plans}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(args.rounds):
            for label, (runs, parallel) in plans.items():
                timings[label].append(once(Path(scratch), args.seconds, runs, parallel))
    medians = {label: statistics.median(values) for label, values in timings.items()}
    for label, median in medians.items():
        print(
            f"{label:24s} median {median:6.1f} s  ({', '.join(f'{v:.1f}' for v in timings[label])})"
        )
    single = medians["one run"]
    print(f"4 runs at once / one run:        {medians['4 runs at once'] / single:.2f}")
    print(f"4 runs one at a time / one run:  {medians['4 runs, one at a time'] / single:.2f}")


if __name__ == "__main__":
    main()
