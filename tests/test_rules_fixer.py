"""The rules fixer: which rules it applies where, and that they compose in one cell."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from nbmodernizer.facts import EnvironmentFacts
from nbmodernizer.fixers.base import FixRequest
from nbmodernizer.fixers.rules import RulesFixer, all_libraries, all_rules
from nbmodernizer.fixers.rules.catalog import probe_request
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.probes import ALWAYS, lacks
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import Diagnosis, EnvironmentKind, FixType, Issue, Outcome
from testing.environment_facts import facts_of, gone
from testing.factories import ran, scored
from testing.notebooks import notebook

SPEC = ModernizationSpec.model_validate(
    {"notebook": "n.ipynb", "score": {"metric": "accuracy", "target": 1.0, "answers": "a.csv"}}
)


def request(
    nb: Any,
    *errors: tuple[int, str],
    fix_type: FixType = FixType.ERROR_REPAIR,
    environment: EnvironmentFacts | str | None = "here",
) -> FixRequest:
    """A request for `nb`; its environment's facts are this venv's unless given."""
    execution = ran(*errors)
    facts = facts_of(nb) if environment == "here" else environment
    assert not isinstance(facts, str)
    return FixRequest(
        notebook=nb,
        executed=nb,
        execution=execution,
        score=scored(None),
        diagnosis=Diagnosis(
            issue=Issue.ERROR, fix_type=fix_type, outcome=Outcome.ERROR_NON_REPRODUCIBLE
        ),
        issue=Issue.ERROR,
        fix_type=fix_type,
        spec=SPEC,
        input_dir=None,
        environment=facts,
    )


def marker_rule(library: str, symptoms: tuple[Symptom, ...] = ()) -> Rule:
    return Rule(
        id=f"{library}.marker",
        library=library,
        changed_in="0",
        summary="marks cells",
        kind=Kind.API,
        rewrite=lambda source, _context: source.replace("OLD", "NEW"),
        examples=(Example(before="", after="", check="True"),),
        symptoms=symptoms,
        gone=ALWAYS,
    )


def test_a_library_the_notebook_does_not_import_is_not_probed() -> None:
    rules = [marker_rule("keras"), marker_rule("pandas")]
    asked = probe_request({"pandas"}, rules, all_libraries())
    assert asked.modules == ("pandas",)
    assert set(asked.probes) == {"pandas.marker"}
    nb = notebook("import pandas as pd", "x = 'OLD'")
    attempt = RulesFixer(rules).propose(request(nb, environment=gone("pandas.marker")))
    assert attempt.proposal is not None and attempt.proposal.notebook.cells[2].source == "x = 'NEW'"


def test_without_facts_no_rule_is_proactive_only_the_reactive_ones() -> None:
    nb = notebook("import pandas as pd", "x = 'OLD'")
    attempt = RulesFixer([marker_rule("pandas")]).propose(request(nb, environment=None))
    assert attempt.proposal is None and attempt.note == "no rule applies"


def test_two_environments_that_disagree_about_one_legacy_api_get_different_rules() -> None:
    """The same notebook, two environments: one still has `np.float` (NumPy 1.19), the other
    lacks it; only the second gets the rewrite, decided by its facts alone."""
    nb = notebook("import numpy as np", "x = np.zeros(2, dtype=np.float)")
    asked = probe_request({"numpy"})
    assert asked.probes["numpy.builtin-type-aliases:float"] == lacks("numpy", "float").to_json()
    kept = gone()  # nothing gone: the legacy API is still there
    lacking = gone("numpy.builtin-type-aliases", "numpy.builtin-type-aliases:float")
    assert RulesFixer(all_rules()).propose(request(nb, environment=kept)).proposal is None
    attempt = RulesFixer(all_rules()).propose(request(nb, environment=lacking))
    assert attempt.proposal is not None
    assert attempt.proposal.notebook.cells[2].source == "x = np.zeros(2, dtype=float)"
    assert [use.rule for use in attempt.proposal.rules] == ["numpy.builtin-type-aliases"]


def test_reactive_rules_touch_only_the_failing_cell() -> None:
    rule = marker_rule("python", symptoms=(Symptom("NameError", "name 'OLD'"),))
    rule = Rule(**{**rule.__dict__, "gone": None})
    nb = notebook("a = 'OLD'", "b = OLD")
    fix = RulesFixer([rule]).propose(request(nb, (2, "NameError")))
    assert fix.proposal is None  # the evalue "boom" does not match the symptom
    nb_error = request(nb, (2, "NameError"))
    execution = nb_error.execution.model_copy(
        update={
            "cell_errors": [
                nb_error.execution.cell_errors[0].model_copy(
                    update={"evalue": "name 'OLD' is not defined"}
                )
            ]
        }
    )
    fixed = RulesFixer([rule]).propose(FixRequest(**{**nb_error.__dict__, "execution": execution}))
    assert fixed.proposal is not None
    sources = [c.source for c in fixed.proposal.notebook.cells]
    assert sources[1:] == ["a = 'OLD'", "b = NEW"]
    assert fixed.proposal.notebook.cells[2].outputs == []


def test_several_rules_in_one_cell_and_one_rule_many_times() -> None:
    legacy = (
        "import numpy as np\nimport pandas as pd\n"
        "from sklearn.cross_validation import train_test_split\n"
        "df = pd.DataFrame({'a': [1.0, None, 3.0], 'b': [4, 5, 6]})\n"
        "df = df.fillna(method='ffill')\n"
        "X = df.ix[:, ['a']].as_matrix().astype(np.float)\n"
        "y = df.ix[:, 'b'].values.astype(np.int)\n"
        "X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=1, random_state=0)\n"
        "result = (X_tr.dtype == np.float64, y_tr.dtype == np.int64, float(X.sum()))\n"
    )
    fix = RulesFixer(all_rules()).propose(request(notebook(legacy)))
    assert fix.proposal is not None
    source = fix.proposal.notebook.cells[1].source
    for old in ("cross_validation", "fillna(method", ".ix[", "as_matrix", "np.float)", "np.int)"):
        assert old not in source
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    assert namespace["result"] == (True, True, 5.0)
    assert "pandas.ix-indexer (cell 1)" in fix.proposal.summary


def test_nothing_to_do_says_so() -> None:
    fix = RulesFixer(all_rules()).propose(request(notebook("import math\nx = math.pi")))
    assert fix.proposal is None and fix.note == "no rule applies"


def test_an_environment_failure_gets_only_the_environment_rules() -> None:
    """A file the inputs lack: rewriting drift elsewhere would only run again into it."""
    nb = notebook(
        "!pip install -q xgboost==0.90\nimport numpy as np",
        "emb = open('../input/glove/glove.txt').read()\nx = np.float(1)",
    )
    missing = request(nb, (2, "FileNotFoundError"))
    missing = replace(
        missing,
        diagnosis=missing.diagnosis.model_copy(
            update={"environment": EnvironmentKind.MISSING_INPUT}
        ),
    )
    attempt = RulesFixer(all_rules()).propose(missing)
    assert attempt.proposal is not None
    rules = {use.rule for use in attempt.proposal.rules}
    assert rules and all(rule.startswith("environment.") for rule in rules)
    assert "np.float(1)" in attempt.proposal.notebook.cells[2].source
    # the same notebook failing on the drift itself gets the numpy rule
    drift = RulesFixer(all_rules()).propose(request(nb, (2, "AttributeError")))
    assert drift.proposal is not None
    assert "numpy.builtin-type-aliases" in {use.rule for use in drift.proposal.rules}


def test_a_null_or_too_deep_cell_is_skipped_with_a_note_and_the_others_are_fixed() -> None:
    deep = "x = np.array([0]+" + "+".join(["[1]"] * 400) + ")"
    nb = notebook("import numpy as np", "values = np.zeros(3, dtype=np.float)", deep, "y = 1")
    nb.cells[4].source = None  # a code cell with `"source": null` (seen in real notebooks)
    attempt = RulesFixer(all_rules()).propose(request(nb))
    assert attempt.proposal is not None
    cells = attempt.proposal.notebook.cells
    assert cells[2].source == "values = np.zeros(3, dtype=float)"
    assert cells[3].source == deep and cells[4].source is None
    assert "cell 3 skipped: too deeply nested for the parser" in attempt.proposal.summary
    assert "cell 4 skipped: its source is not text" in attempt.proposal.summary
