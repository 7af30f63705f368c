"""The operator's process never imports the ML stack (issue #20), checked on a fresh process.

A subprocess runs EXERCISES, what the operator does, then reports which of HEAVY it has in
`sys.modules`: none. The import-linter contract in pyproject.toml says the same of the static
import graph; this checks what is imported at run time, by name included.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from nbmodernizer.spec import Metric, RunsPolicy

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "pandas", "sklearn", "scipy", "tensorflow", "torch")
NOTEBOOK_IMPORTS = "\n".join(f"import {module}" for module in HEAVY)

ANSWERS = b"id,y\n1,1\n2,0\n3,1\n4,0\n5,1\n"
LABELS = [b"id,y\n1,1\n2,0\n3,1\n4,0\n5,1\n", b"id,y\n1,1\n2,0\n3,0\n4,0\n5,1\n"] * 2
SCORES = [
    b"id,y\n1,0.9\n2,0.2\n3,0.6\n4,0.4\n5,0.7\n",
    b"id,y\n1,0.8\n2,0.3\n3,0.4\n4,0.5\n5,0.9\n",
] * 2


def import_the_operator(folder: Path) -> None:
    """The operator's entry and what its reconcile path imports."""
    importlib.import_module("nbmodernizer.cluster.controller")
    importlib.import_module("nbmodernizer.cluster.reconcile")


def grade_with_every_metric(folder: Path) -> None:
    """A revision's three runs graded from the store as the reconciler grades them, with each
    metric (the t-test of the runs included), and the adaptive runs' intervals."""
    from nbmodernizer.engine import grade_revision, store_execution
    from nbmodernizer.evidence import weigh
    from nbmodernizer.grade import parse_answers
    from nbmodernizer.revision import RunOutput
    from nbmodernizer.spec import ModernizationSpec
    from nbmodernizer.store.revisions import LocalStore
    from testing.factories import ran
    from testing.notebooks import notebook

    answers = parse_answers(ANSWERS, "id")
    for revision, metric in enumerate(Metric):
        spec = ModernizationSpec.model_validate(
            {
                "notebook": "n.ipynb",
                "score": {"metric": metric.value, "target": 0.8, "answers": "a.csv", "runs": 3},
            }
        )
        labels = metric in (Metric.ACCURACY, Metric.F1, Metric.QWK)
        submissions = (LABELS if labels else SCORES)[:3]
        store = LocalStore(folder / metric.value)
        outputs = [RunOutput(notebook(NOTEBOOK_IMPORTS), ran(), s) for s in submissions]
        store_execution(store, revision, outputs)
        score = grade_revision(store, revision, answers, spec).score
        assert score.value is not None and score.p_value is not None, score
        adaptive = spec.score.model_copy(update={"runs": 6, "runs_policy": RunsPolicy.ADAPTIVE})
        weigh([0.79, 0.81, 0.8, 0.82], adaptive)


# what the rules rewrite where these are gone: NumPy's alias, pandas' reader flag,
# scikit-learn's moved module, TensorFlow 1's session
LEGACY = (
    "x = np.float(1)",
    "frame = pandas.read_csv('t.csv', error_bad_lines=False)",
    "from sklearn.cross_validation import train_test_split",
    "session = tensorflow.Session()",
)


def fix_with_the_rules(folder: Path) -> None:
    """The rules fixer on a notebook that imports every one of HEAVY, with the facts of the
    environment where it runs: envprobe.py's, gathered in another process (in the cluster,
    the probe container)."""
    from nbmodernizer.engine import environment_request
    from nbmodernizer.facts import gather
    from nbmodernizer.fixers.base import FixRequest
    from nbmodernizer.fixers.rules import RulesFixer, all_rules
    from nbmodernizer.spec import ModernizationSpec
    from nbmodernizer.status import Diagnosis, FixType, Issue, Outcome
    from testing.factories import ran, scored
    from testing.notebooks import notebook

    nb = notebook(NOTEBOOK_IMPORTS + "\nimport numpy as np", *LEGACY)
    facts = gather(sys.executable, environment_request(nb))
    assert {"numpy", "pandas", "scikit-learn", "torch"} <= set(facts.packages), facts.packages
    spec = {"notebook": "n.ipynb", "score": {"metric": "accuracy", "target": 1, "answers": "a"}}
    diagnosis = Diagnosis(
        issue=Issue.ERROR, fix_type=FixType.ERROR_REPAIR, outcome=Outcome.ERROR_NON_REPRODUCIBLE
    )
    request = FixRequest(
        notebook=nb,
        executed=nb,
        execution=ran(),
        score=scored(None),
        diagnosis=diagnosis,
        issue=Issue.ERROR,
        fix_type=FixType.ERROR_REPAIR,
        spec=ModernizationSpec.model_validate(spec),
        input_dir=None,
        environment=facts,
    )
    attempt = RulesFixer(all_rules()).propose(request)
    assert attempt.proposal is not None, attempt.note
    libraries = {use.rule.split(".")[0] for use in attempt.proposal.rules}
    assert {"numpy", "pandas", "sklearn", "tensorflow"} <= libraries, attempt.proposal.rules


def import_numpy(folder: Path) -> None:
    """What the check must see (the control)."""
    importlib.import_module("numpy")


# What the operator does, in order: start, grade, apply the rules to a notebook that imports
# every one of HEAVY.
EXERCISES: list[Callable[[Path], None]] = [
    import_the_operator,
    grade_with_every_metric,
    fix_with_the_rules,
]


def heavy_modules_after(*exercises: Callable[[Path], None]) -> list[str]:
    """Which of HEAVY a fresh interpreter holds after running `exercises`."""
    names = [exercise.__name__ for exercise in exercises]
    program = (
        "import json, sys, tempfile, pathlib\n"
        "from tests import test_lean_operator as lean\n"
        "with tempfile.TemporaryDirectory() as folder:\n"
        "    for name in sys.argv[1:]:\n"
        "        getattr(lean, name)(pathlib.Path(folder))\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & set(lean.HEAVY))))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "operator"), str(ROOT)])}
    with tempfile.TemporaryDirectory() as cwd:  # nothing of the caller's folder is imported
        done = subprocess.run(
            [sys.executable, "-c", program, *names],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr
    found: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_the_operator_imports_no_ml_library_while_it_grades() -> None:
    assert heavy_modules_after(*EXERCISES) == []


def test_the_check_sees_a_library_that_is_imported() -> None:
    assert heavy_modules_after(import_the_operator, import_numpy) == ["numpy"]
