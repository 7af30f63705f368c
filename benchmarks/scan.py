"""`nbmod scan` on a thousand notebooks, against `ruff check --select NPY201` on the same code.

    python benchmarks/scan.py [--notebooks 1000] [--jobs 2] [--keep DIR]

The notebooks are the repository's examples (examples/*/notebook.ipynb and references, 8-12
cells each), each given three cells drawn from the legacy examples of the tabular libraries'
rules (TABULAR), and varied (every
cell gets a comment naming its copy, names get a suffix), so no two notebooks are alike. The
same code cells, IPython lines commented out, make one `.py` file per notebook for ruff.
Both run as fresh processes, wall time measured; ruff checks one rule (NPY201, numpy 2's
removals), nbmod every proactive rule the notebook's imports make relevant. Not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from nbmodernizer.fixers.rules import all_rules

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
_NAME = re.compile(r"\b(train|test|frame|model|clf|values|names|result)\b")


def corpus(folder: Path, count: int, seed: int = 0) -> tuple[Path, Path]:
    rng = random.Random(seed)
    bases = [nbformat.read(p, as_version=4) for p in sorted(ROOT.glob("examples/*/notebook.ipynb"))]
    bases += [nbformat.read(p, as_version=4) for p in sorted(ROOT.glob("examples/*/reference/*"))]
    snippets = [
        example.before
        for rule in all_rules()
        if rule.library in TABULAR
        for example in rule.examples
    ]
    notebooks, scripts = folder / "notebooks", folder / "scripts"
    notebooks.mkdir(parents=True)
    scripts.mkdir()
    for n in range(count):
        notebook = nbformat.from_dict(rng.choice(bases))
        for snippet in rng.sample(snippets, 3):
            notebook.cells.insert(
                rng.randrange(1, len(notebook.cells)), nbformat.v4.new_code_cell(snippet)
            )
        suffix = f"_{n % 7}" if n % 3 else ""
        code = []
        for cell in notebook.cells:
            if cell.cell_type == "code":
                renamed = _NAME.sub(r"\g<1>" + suffix, cell.source)
                cell.source = f"# copy {n}\n" + renamed
                cell.outputs, cell.execution_count = [], None
                code.append(cell.source)
        (notebooks / f"kernel-{n:05}.ipynb").write_text(nbformat.writes(notebook) + "\n")
        script = "\n\n".join(code)
        script = re.sub(r"^([ \t]*)([%!])", r"\1# \2", script, flags=re.M)
        (scripts / f"kernel-{n:05}.py").write_text(script + "\n")
    return notebooks, scripts


def timed(command: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    return time.perf_counter() - started, done


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notebooks", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="build the corpus here and keep it")
    args = parser.parse_args()
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="nbmod-scan-"))
    try:
        notebooks, scripts = corpus(folder, args.notebooks)
        ruff = shutil.which("ruff") or "ruff"
        ruff_s, ruffed = timed(
            [ruff, "check", "--select", "NPY201", "--no-cache", "-q", str(scripts)]
        )
        nbmod_s, scanned = timed(
            [
                sys.executable,
                "-m",
                "nbmodernizer.cli",
                "scan",
                str(notebooks),
                "--summary",
                "--format",
                "json",
                "-j",
                str(args.jobs),
            ]
        )
        if scanned.returncode not in (0, 1):
            raise SystemExit(scanned.stderr)
        summary = json.loads(scanned.stdout)
        ruff_findings = sum(1 for line in ruffed.stdout.splitlines() if "NPY201" in line)
        print(f"{args.notebooks} notebooks, {args.jobs} processes")
        print(
            f"nbmod scan: {nbmod_s:.1f} s, {args.notebooks / nbmod_s:.1f} notebooks/s, "
            f"{summary['findings']} findings, "
            f"triage {json.dumps({k: v['files'] for k, v in summary['triage'].items()})}"
        )
        print(
            f"ruff NPY201: {ruff_s:.2f} s, {args.notebooks / ruff_s:.0f} files/s, "
            f"{ruff_findings} findings"
        )
        print(f"ratio nbmod / ruff: {nbmod_s / ruff_s:.0f}x")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
