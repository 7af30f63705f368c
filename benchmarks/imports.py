"""How many real notebooks can import everything they import in the default environment image:
an environment installed from runner-image/requirements.lock (issue #20).

    python benchmarks/imports.py [--git MIRROR]... [--folder DIR]... [--python PY]
                                 [--lock LOCK]... [--top 40] [--json FILE]

Notebooks: every `.ipynb` (its code cells) and `.py` (the whole file, a Kaggle script kernel or
a notebook converted to a script) at HEAD of each git repository `--git` names (read with git
itself: nothing is checked out or kept), and every `.ipynb` under each `--folder` (default:
corpus/cases). A notebook that imports nothing is left out.

Each import (read by nbmodernizer.cells, as the rules read it: magics masked, Python 2 cells
read too, relative imports left out) is one module: its top-level name, or two names under
the `google` namespace (`google.cloud`, `google.colab`), which many distributions share. It
resolves when the standard library has it, or a distribution of the lock provides it: read in
the environment `--python` runs (default: this interpreter; the shared venv is installed from
the lock) from each locked distribution's installed files, as runner-image/smoke.py reads
them; a distribution the lock pins but the environment lacks fails the run. What does not
resolve is one of:

  rule     a module that moved (`fbprophet` -> `prophet`, Python 2's `cPickle` -> `pickle`):
           an import rule rewrites it, and the new module resolves;
  pypi     a PyPI distribution provides it (operator/nbmodernizer/module_packages.tsv): the
           image could install it;
  other    no package's: a Kaggle-only helper (`learntools`, `bq_helper`: Kaggle's own image
           has them) or a file the author had beside the notebook.

Prints, per source and in all: notebooks, the share whose every import resolves (as written,
and once the import rules have run), the share of (notebook, module) pairs that resolve, and
the modules most often missing, by notebooks, with their category and distribution. Not a
test; nothing it reads is kept.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from nbmodernizer.cells import imports
from nbmodernizer.fixers.rules.libraries.prophet import modules as prophet
from nbmodernizer.fixers.rules.libraries.pydicom import modules as pydicom
from nbmodernizer.fixers.rules.libraries.python2.modules import RENAMED_MODULES
from nbmodernizer.known_packages import distribution_providing

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "runner-image" / "requirements.lock"
SMOKE = ROOT / "runner-image" / "smoke.py"
CASES = ROOT / "corpus" / "cases"
GOAL = 0.85
# namespaces several distributions share (`mpl_toolkits.basemap` is no matplotlib's): a
# module there is named by its first two names
NAMESPACES = frozenset({"google", "mpl_toolkits"})
# the modules an import rule rewrites -> the module it writes instead
MOVES: Mapping[str, str] = {
    **RENAMED_MODULES,
    **pydicom.MOVED_MODULES,
    **prophet.MOVED_MODULES,
}

# Runs in the measured environment (any Python >= 3.9, standard library only): the modules
# each locked distribution provides, as the image's smoke test reads them from its files.
_ENVIRONMENT_PROBE = """
import json, runpy, sys
smoke = runpy.run_path(sys.argv[1])
pins = {}
for lock in sys.argv[2:]:
    pins.update(smoke["read_lock"](lock))
found, missing = smoke["check_installed"](pins)
modules = sorted({m for dist in found for m in smoke["top_level_modules"](dist)})
stdlib = sorted(sys.stdlib_module_names)
print(json.dumps({"modules": modules, "missing": missing, "stdlib": stdlib}))
"""


class Category(StrEnum):
    STDLIB = "stdlib"
    LOCK = "lock"
    RULE = "rule"
    PYPI = "pypi"
    OTHER = "other"


RESOLVED = frozenset({Category.STDLIB, Category.LOCK})


@dataclass(frozen=True)
class Notebook:
    source: str  # where it was read: the repository or folder
    path: str
    modules: frozenset[str]  # qualified names of what it imports (`sklearn.svm.SVC`)


@dataclass(frozen=True)
class Environment:
    stdlib: frozenset[str]
    modules: frozenset[str]  # what the locked distributions provide (`numpy`, `google.protobuf`)

    def provides(self, qualified: str) -> bool:
        """A module resolves when it, or a package above it, is provided (`mpl_toolkits.mplot3d`
        for `mpl_toolkits.mplot3d.Axes3D`)."""
        parts = qualified.split(".")
        if parts[0] in self.stdlib:
            return True
        return any(".".join(parts[:depth]) in self.modules for depth in range(1, len(parts) + 1))


@dataclass
class Tally:
    notebooks: int = 0
    complete: int = 0  # every import resolves as written
    complete_with_rules: int = 0  # ... once the import rules have rewritten the moved ones
    pairs: int = 0
    pairs_resolved: int = 0
    missing: Counter[str] = field(default_factory=Counter)  # module -> notebooks missing it

    def add(self, resolution: Mapping[str, Category]) -> None:
        self.notebooks += 1
        self.pairs += len(resolution)
        self.pairs_resolved += sum(category in RESOLVED for category in resolution.values())
        self.complete += all(category in RESOLVED for category in resolution.values())
        self.complete_with_rules += all(
            category in RESOLVED | {Category.RULE} for category in resolution.values()
        )
        self.missing.update(m for m, category in resolution.items() if category not in RESOLVED)


def module_key(qualified: str) -> str:
    """The module a notebook is counted as importing: the top-level name (`sklearn`), or two
    names in a shared namespace (`google.cloud`)."""
    parts = qualified.split(".")
    return ".".join(parts[:2]) if parts[0] in NAMESPACES and len(parts) > 1 else parts[0]


def categorize(qualified: str, environment: Environment) -> Category:
    if environment.provides(qualified):
        top = qualified.split(".")[0]
        return Category.STDLIB if top in environment.stdlib else Category.LOCK
    key = module_key(qualified)
    moved_to = MOVES.get(key)
    if moved_to is not None:
        if environment.provides(moved_to):
            return Category.RULE
        key = module_key(moved_to)  # the rule would write an import of what is missing
    if distribution_providing(key):
        return Category.PYPI
    return Category.OTHER


def resolve(notebook: Notebook, environment: Environment) -> dict[str, Category]:
    """Each module the notebook imports -> its category; a module imported several ways
    (`google.cloud.bigquery`, `google.cloud.storage`) takes its worst."""
    order = list(Category)
    resolution: dict[str, Category] = {}
    for qualified in notebook.modules:
        key = module_key(qualified)
        category = categorize(qualified, environment)
        if key not in resolution or order.index(category) > order.index(resolution[key]):
            resolution[key] = category
    return resolution


# ------------------------------------------------------------------------------ reading


def code_of(path: str, text: str) -> list[str] | None:
    """The code of a notebook file: an `.ipynb`'s code cells (nbformat 4, or 3's worksheets),
    a `.py` file whole; None when it is neither, or not a notebook that reads."""
    if path.endswith(".py"):
        return [text]
    if not path.endswith(".ipynb"):
        return None
    try:
        document = json.loads(text)
    except ValueError:
        return None
    if not isinstance(document, dict):
        return None
    cells = document.get("cells")
    if cells is None:  # nbformat 3
        cells = [c for sheet in document.get("worksheets") or [] for c in sheet.get("cells", [])]
    code: list[str] = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", cell.get("input", ""))
        code.append("".join(source) if isinstance(source, list) else str(source))
    return code


def imported(code: Iterable[str]) -> frozenset[str]:
    return frozenset(imports(code).values())


def read_git(repository: Path) -> Iterator[Notebook]:
    """The notebooks at HEAD of a git repository (a bare mirror or a checkout)."""
    listing = subprocess.run(
        ["git", "-C", str(repository), "ls-tree", "-r", "-z", "HEAD"],
        check=True,
        capture_output=True,
    ).stdout.decode("utf-8", "replace")
    blobs: list[tuple[str, str]] = []
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        kind, sha = meta.split()[1:3]
        if kind == "blob" and path.endswith((".ipynb", ".py")) and "checkpoint" not in path:
            blobs.append((sha, path))
    batch = subprocess.Popen(
        ["git", "-C", str(repository), "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert batch.stdin is not None and batch.stdout is not None
    try:
        for sha, path in blobs:
            batch.stdin.write(f"{sha}\n".encode())
            batch.stdin.flush()
            size = int(batch.stdout.readline().split()[2])
            text = batch.stdout.read(size + 1)[:size].decode("utf-8", "replace")
            code = code_of(path, text)
            if code is not None:
                yield Notebook(
                    repository.name if repository.name != "repo" else repository.parent.name,
                    path,
                    imported(code),
                )
    finally:
        batch.stdin.close()
        batch.wait()


def read_folder(folder: Path) -> Iterator[Notebook]:
    for path in sorted(folder.rglob("*.ipynb")):
        code = code_of(path.name, path.read_text("utf-8", "replace"))
        if code is not None:
            yield Notebook(
                str(folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder),
                str(path.relative_to(folder)),
                imported(code),
            )


def read_environment(python: str, locks: list[Path]) -> Environment:
    done = subprocess.run(
        [python, "-c", _ENVIRONMENT_PROBE, str(SMOKE), *map(str, locks)],
        check=True,
        capture_output=True,
        text=True,
    )
    probe = json.loads(done.stdout)
    if probe["missing"]:
        sys.exit(
            f"{python} is not an environment installed from {', '.join(map(str, locks))}: "
            f"{json.dumps(probe['missing'])}"
        )
    return Environment(frozenset(probe["stdlib"]), frozenset(probe["modules"]))


# ------------------------------------------------------------------------------ report


def share(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def report(
    tallies: Mapping[str, Tally], everything: Tally, environment: Environment, top: int
) -> str:
    lines = [
        f"{'source':<34} {'notebooks':>9} {'complete':>9} {'w/ rules':>9} {'pairs':>7}",
    ]
    for name, tally in [*tallies.items(), ("all", everything)]:
        lines.append(
            f"{name:<34} {tally.notebooks:>9} {share(tally.complete, tally.notebooks):>9} "
            f"{share(tally.complete_with_rules, tally.notebooks):>9} "
            f"{share(tally.pairs_resolved, tally.pairs):>7}"
        )
    lines.append(f"goal: {GOAL:.0%} of notebooks complete")
    lines.append("")
    lines.append(f"most missed (notebooks): {'module':<28} category  distribution")
    for module, count in everything.missing.most_common(top):
        category = categorize(module, environment)
        provider = (
            MOVES.get(module) if category is Category.RULE else distribution_providing(module)
        )
        lines.append(f"{count:>24}  {module:<28} {category:<9} {provider or ''}")
    by_category = Counter(
        categorize(module, environment) for module in everything.missing.elements()
    )
    lines.append("")
    lines.append(
        "missing (notebook, module) pairs by category: "
        + ", ".join(f"{category} {count}" for category, count in by_category.most_common())
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--git", type=Path, action="append", default=[], help="a repository")
    parser.add_argument("--folder", type=Path, action="append", help="default: corpus/cases")
    parser.add_argument("--python", default=sys.executable, help="the environment's interpreter")
    parser.add_argument("--lock", type=Path, action="append", help="default: the runner's lock")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args()
    environment = read_environment(args.python, args.lock or [LOCK])
    sources: list[Iterable[Notebook]] = [read_git(repository) for repository in args.git]
    sources += [read_folder(folder) for folder in args.folder or [CASES]]
    tallies: dict[str, Tally] = {}
    everything = Tally()
    for notebooks in sources:
        for notebook in notebooks:
            if not notebook.modules:
                continue
            resolution = resolve(notebook, environment)
            tallies.setdefault(notebook.source, Tally()).add(resolution)
            everything.add(resolution)
    print(report(tallies, everything, environment, args.top))
    if args.json:
        numbers = {
            name: {
                "notebooks": tally.notebooks,
                "complete": tally.complete,
                "complete_with_rules": tally.complete_with_rules,
                "pairs": tally.pairs,
                "pairs_resolved": tally.pairs_resolved,
                "missing": dict(tally.missing.most_common()),
            }
            for name, tally in [*tallies.items(), ("all", everything)]
        }
        args.json.write_text(json.dumps(numbers, indent=1) + "\n")


if __name__ == "__main__":
    main()
