"""Benchmark: the loop's overhead against `jupyter nbconvert --execute` on the same notebook.

Both run as fresh processes, alternated, on a notebook that reproduces at once (so the loop
executes it exactly once): the ratio is what one iteration of nbmodernizer costs beyond a
plain execution (spec parsing, revision store writes, grading, diagnosis, report).

    python benchmarks/loop_overhead.py [--rounds 5] [--example cancer-rf-2017]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - started


def nbconvert_once(example: Path, scratch: Path) -> float:
    run = scratch / f"nbconvert-{time.monotonic_ns()}"
    (run / "working").mkdir(parents=True)
    (run / "input").symlink_to(example / "input")
    shutil.copy(example / "notebook.ipynb", run / "working" / "notebook.ipynb")
    command = [
        str(BIN / "jupyter"), "nbconvert", "--to", "notebook", "--execute",
        "--ExecutePreprocessor.allow_errors=True", "--ExecutePreprocessor.timeout=600",
        "--output", "executed.ipynb", "notebook.ipynb",
    ]  # fmt: skip
    return timed(command, run / "working")


def nbmod_once(example: Path, scratch: Path) -> float:
    out = scratch / f"nbmod-{time.monotonic_ns()}"
    return timed(
        [str(BIN / "nbmod"), "modernize", str(example / "spec.yaml"), "--out", str(out)], scratch
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--example", default="cancer-rf-2017")
    args = parser.parse_args()
    example = ROOT / "examples" / args.example
    plain: list[float] = []
    loop: list[float] = []
    with tempfile.TemporaryDirectory(prefix="nbmod-bench-") as folder:
        scratch = Path(folder)
        nbconvert_once(example, scratch)  # warm the file cache and bytecode once for both
        nbmod_once(example, scratch)
        for _ in range(args.rounds):
            plain.append(nbconvert_once(example, scratch))
            loop.append(nbmod_once(example, scratch))
    ratios = [b / a for a, b in zip(plain, loop, strict=True)]
    print(f"notebook: examples/{args.example}/notebook.ipynb, {args.rounds} alternated rounds")
    print(f"jupyter nbconvert --execute  median {statistics.median(plain):6.2f} s  {plain}")
    print(f"nbmod modernize (1 iteration) median {statistics.median(loop):6.2f} s  {loop}")
    print(f"overhead ratio nbmod / nbconvert: median {statistics.median(ratios):.3f}"
          f" (min {min(ratios):.3f}, max {max(ratios):.3f})")  # fmt: skip


if __name__ == "__main__":
    main()
