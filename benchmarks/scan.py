"""`nbmod scan` on a thousand real-size notebooks, against `ruff check --select NPY201` on the
same code, in the same run.

    python benchmarks/scan.py [--notebooks 1000] [--jobs 2] [--keep DIR] [--baseline CHECKOUT]
                              [--rounds N]

`--baseline`: another checkout of nbmodernizer (main's, say) scans the same notebooks in the
same run, its code first on the path; its time and the ratio to it are printed too.
`--rounds`: time each side N times, alternating which goes first (the first scan after the
corpus is written runs slower on this machine), and print the median and the range.

Real-size: the sizes of 585 public Kaggle kernels (GitHub simisimon/kaggle-notebooks, read
here, not kept): code cells per notebook quartiles 13 / 21 / 34, bytes per code cell deciles
19 … 725, median 179, mean 324 (5.6 kB of code per notebook at the median, 8.5 kB on
average; 25 kernels of mateuszk098/kaggle-notebooks: 21 cells, 14.7 kB at the median). The
generator draws each notebook's cell count and each cell's size from lognormals fitted to
those (`CELLS`, `CELL_BYTES`), and gives a tenth of the cells an image output (the outputs
make a real notebook's file several times its code: 77 MB for the issue's 1,000).

Code: top-level statements of the repository's own notebooks (examples/ and corpus/cases/:
modern pandas, scikit-learn, matplotlib code written here), joined up to each cell's drawn
size, and three
legacy snippets per notebook drawn from the tabular libraries' rule examples (TABULAR): mostly
modern code with a few legacy lines, like the real ones. Every cell gets a comment naming its
copy and names get a suffix, so no two notebooks are alike. The same code cells, IPython
lines commented out, make one `.py` file per notebook for ruff. Both run as fresh processes,
wall time measured; ruff checks one rule (NPY201, numpy 2's removals), nbmod every proactive
rule the notebook's imports make relevant. Not a test.
"""

from __future__ import annotations

import argparse
import ast
import base64
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat

from nbmodernizer.fixers.rules import all_libraries, all_rules

ROOT = Path(__file__).resolve().parent.parent
# the libraries of the examples' kind of notebook (tabular Kaggle kernels); deep learning
# notebooks add TensorFlow's and PyTorch's probes (seconds, once) and their rules
TABULAR = {
    "python",
    "environment",
    "pandas",
    "numpy",
    "scikit-learn",
    "scipy",
    "matplotlib",
    "seaborn",
    "xgboost",
    "lightgbm",
}
LEGACY_PER_NOTEBOOK = 3
# lognormals (median, sigma) fitted to the Kaggle kernels' quartiles / deciles above
CELLS = (21.0, 0.71)  # code cells per notebook: quartiles 13 / 21 / 34
CELL_BYTES = (180.0, 1.09)  # bytes per code cell: deciles 19 … 725, mean 324
IMAGE_SHARE, IMAGE_BYTES = 0.1, 20_000  # a plot's PNG, base64 in the file
_NAME = re.compile(r"\b(train|test|frame|model|clf|values|names|result)\b")


def _draw(rng: random.Random, median: float, sigma: float, low: int, high: int) -> int:
    return max(low, min(high, round(median * math.exp(rng.gauss(0.0, sigma)))))


def _modern_statements() -> list[str]:
    """The top-level statements of the code cells of the repository's own notebooks (cells
    with IPython lines left out), to be joined into cells of a drawn size; those that name a
    module of a library outside TABULAR are left out (TensorFlow's probes alone take seconds)."""
    modules = {m for lib in all_libraries() if lib.name not in TABULAR for m in lib.modules}
    other = re.compile(rf"\b({'|'.join(sorted(modules))})\b")
    paths = sorted(ROOT.glob("examples/*/notebook.ipynb"))
    paths += sorted(ROOT.glob("examples/*/reference/*.ipynb"))
    paths += sorted(ROOT.glob("corpus/cases/*/notebook.ipynb"))
    found: list[str] = []
    for path in paths:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:
                continue
            lines = cell.source.split("\n")
            for node in tree.body:
                first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
                statement = "\n".join(lines[first - 1 : node.end_lineno])
                if not other.search(statement):
                    found.append(statement)
    return found


def _cell(rng: random.Random, pool: list[str], size: int) -> str:
    parts = [rng.choice(pool)]
    while sum(map(len, parts)) < size:
        parts.append(rng.choice(pool))
    return "\n".join(parts)


def _outputs(rng: random.Random) -> list[nbformat.NotebookNode]:
    if rng.random() >= IMAGE_SHARE:
        return []
    image = base64.b64encode(rng.randbytes(IMAGE_BYTES * 3 // 4)).decode()
    return [nbformat.v4.new_output("display_data", data={"image/png": image})]


def corpus(folder: Path, count: int, seed: int = 0) -> tuple[Path, Path, dict[str, float]]:
    """The notebooks and their scripts, and their sizes (means per notebook)."""
    rng = random.Random(seed)
    pool = _modern_statements()
    snippets = [
        example.before
        for rule in all_rules()
        if rule.library in TABULAR
        for example in rule.examples
    ]
    notebooks, scripts = folder / "notebooks", folder / "scripts"
    notebooks.mkdir(parents=True)
    scripts.mkdir()
    cells = code_bytes = file_bytes = 0
    for n in range(count):
        sources = [
            _cell(rng, pool, _draw(rng, *CELL_BYTES, 10, 20_000))
            for _ in range(_draw(rng, *CELLS, 3, 200))
        ]
        for snippet in rng.sample(snippets, LEGACY_PER_NOTEBOOK):
            sources.insert(rng.randrange(1, len(sources)), snippet)
        suffix = f"_{n % 7}" if n % 3 else ""
        code = [f"# copy {n}\n" + _NAME.sub(r"\g<1>" + suffix, source) for source in sources]
        notebook = nbformat.v4.new_notebook()
        for source in code:
            cell = nbformat.v4.new_code_cell(source)
            cell.outputs = _outputs(rng)
            notebook.cells.append(cell)
        text = nbformat.writes(notebook) + "\n"
        (notebooks / f"kernel-{n:05}.ipynb").write_text(text)
        script = re.sub(r"^([ \t]*)([%!])", r"\1# \2", "\n\n".join(code), flags=re.M)
        (scripts / f"kernel-{n:05}.py").write_text(script + "\n")
        cells += len(code)
        code_bytes += sum(map(len, code))
        file_bytes += len(text)
    sizes = {"cells": cells / count, "code_kb": code_bytes / count / 1e3}
    sizes["file_kb"] = file_bytes / count / 1e3
    return notebooks, scripts, sizes


def timed(
    command: list[str], env: dict[str, str] | None = None
) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    return time.perf_counter() - started, done


def scan(notebooks: Path, jobs: int, checkout: Path | None = None) -> tuple[float, dict[str, Any]]:
    """`nbmod scan`'s wall time and summary, with a checkout's code first on the path."""
    env = None
    if checkout is not None:
        paths = [str(checkout / "operator"), str(checkout), os.environ.get("PYTHONPATH", "")]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    command = [sys.executable, "-m", "nbmodernizer.cli", "scan", str(notebooks)]
    command += ["--summary", "--format", "json", "-j", str(jobs)]
    seconds, scanned = timed(command, env)
    if scanned.returncode not in (0, 1):
        raise SystemExit(scanned.stderr)
    summary: dict[str, Any] = json.loads(scanned.stdout)
    return seconds, summary


def _timings(seconds: list[float]) -> str:
    if len(seconds) == 1:
        return f"{seconds[0]:.1f} s"
    middle, low, high = statistics.median(seconds), min(seconds), max(seconds)
    return f"{middle:.1f} s (median of {len(seconds)}: {low:.1f} to {high:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notebooks", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="build the corpus here and keep it")
    parser.add_argument("--baseline", help="another checkout to time on the same notebooks")
    parser.add_argument("--rounds", type=int, default=1, help="time each side this many times")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="nbmod-scan-"))
    try:
        notebooks, scripts, sizes = corpus(folder, args.notebooks)
        ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
        ruff_s, ruffed = timed(
            [ruff, "check", "--select", "NPY201", "--no-cache", "-q", str(scripts)]
        )
        sides: list[Path | None] = [None] + ([Path(args.baseline)] if args.baseline else [])
        times: dict[Path | None, list[float]] = {side: [] for side in sides}
        findings: dict[Path | None, set[int]] = {side: set() for side in sides}
        summary: dict[str, Any] = {}
        for round_ in range(args.rounds):
            for side in sides if round_ % 2 == 0 else sides[::-1]:
                seconds, scanned = scan(notebooks, args.jobs, side)
                times[side].append(seconds)
                findings[side].add(scanned["findings"])
                summary = scanned if side is None else summary
        nbmod_s = statistics.median(times[None])
        ruff_findings = sum(1 for line in ruffed.stdout.splitlines() if "NPY201" in line)
        print(
            f"{args.notebooks} notebooks ({sizes['cells']:.0f} code cells, "
            f"{sizes['code_kb']:.1f} kB of code, {sizes['file_kb']:.0f} kB a file on average), "
            f"{args.jobs} processes"
        )
        print(
            f"nbmod scan: {_timings(times[None])}, {args.notebooks / nbmod_s:.1f} notebooks/s, "
            f"{'/'.join(map(str, sorted(findings[None])))} findings, "
            f"triage {json.dumps({k: v['files'] for k, v in summary['triage'].items()})}"
        )
        print(
            f"ruff NPY201: {ruff_s:.2f} s, {args.notebooks / ruff_s:.0f} files/s, "
            f"{ruff_findings} findings"
        )
        print(f"ratio nbmod / ruff: {nbmod_s / ruff_s:.0f}x")
        if args.baseline:
            baseline = times[Path(args.baseline)]
            print(
                f"baseline ({args.baseline}) scan: {_timings(baseline)}, "
                f"{'/'.join(map(str, sorted(findings[Path(args.baseline)])))} findings; "
                f"ratio baseline / nbmod: {statistics.median(baseline) / nbmod_s:.2f}x"
            )
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
