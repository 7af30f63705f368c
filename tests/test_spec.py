from __future__ import annotations

from pathlib import Path

import pytest

from nbmodernizer.spec import Metric, SpecError, load_spec_file, parse_modernization

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def document(**spec_overrides: object) -> dict[str, object]:
    spec: dict[str, object] = {
        "notebook": "notebook.ipynb",
        "inputs": "input",
        "score": {"metric": "accuracy", "target": 0.9, "answers": "answers.csv"},
    }
    spec.update(spec_overrides)
    return {
        "apiVersion": "nbmodernizer.dev/v1alpha1",
        "kind": "NotebookModernization",
        "metadata": {"name": "demo"},
        "spec": spec,
    }


def problems(doc: object) -> list[str]:
    with pytest.raises(SpecError) as caught:
        parse_modernization(doc)
    return caught.value.problems


def test_defaults_are_the_documented_ones() -> None:
    spec = parse_modernization(document()).spec
    assert spec.score.submission == "submission.csv"
    assert spec.score.id_column == "id"
    assert spec.score.tolerance == 0.10
    assert spec.score.runs == 1
    assert spec.score.p_value == 0.05
    assert spec.execution.timeout_seconds == 600
    assert spec.fix.max_iterations == 16
    assert spec.fix.fixers == ["rules", "llm"]


def test_missing_target_names_the_field() -> None:
    doc = document(score={"metric": "accuracy", "answers": "a.csv"})
    assert problems(doc) == ["spec.score.target: Field required"]


def test_unknown_metric_and_bad_bounds_are_all_reported() -> None:
    doc = document(
        score={"metric": "acc", "target": 1, "answers": "a.csv", "tolerance": 2, "runs": 0},
        fix={"maxIterations": 0},
    )
    found = problems(doc)
    assert any(p.startswith("spec.score.metric: Input should be 'accuracy'") for p in found)
    assert any(p.startswith("spec.score.tolerance: ") for p in found)
    assert any(p.startswith("spec.score.runs: ") for p in found)
    assert any(p.startswith("spec.fix.maxIterations: ") for p in found)


def test_typo_in_a_field_name_is_rejected() -> None:
    doc = document(execution={"timeoutSecs": 5})
    assert problems(doc) == ["spec.execution.timeoutSecs: Extra inputs are not permitted"]


def test_wrong_kind_and_bad_name() -> None:
    doc = document()
    doc["kind"] = "Notebook"
    doc["metadata"] = {"name": "Not_A_DNS_Name"}
    found = problems(doc)
    assert any(p.startswith("kind: ") for p in found)
    assert any(p.startswith("metadata.name: String should match pattern") for p in found)


def test_not_a_mapping() -> None:
    assert problems(["a"]) == [
        "(document): expected a mapping with apiVersion, kind, metadata, spec"
    ]


@pytest.mark.parametrize(
    "spec_file", sorted(EXAMPLES.glob("*/spec.yaml")), ids=lambda p: p.parent.name
)
def test_examples_are_valid(spec_file: Path) -> None:
    resource, _ = load_spec_file(spec_file)
    assert resource.spec.score.metric in set(Metric)
    assert (spec_file.parent / resource.spec.notebook).is_file()
