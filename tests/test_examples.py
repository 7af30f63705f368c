"""The project's legacy examples reach a reproducible outcome, and keep their meaning."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import nbformat
import pytest
import yaml

from nbmodernizer.cli import main
from nbmodernizer.fixers.llm.prices import DEFAULT_PRICES
from testing.llm_server import Answer, Failure, Stall, fix_reply, scripted_llm
from testing.notebooks import PREDICT, READ, WRITE, kaggle_folder

pytestmark = pytest.mark.kernel
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def copy_example(name: str, tmp_path: Path, **llm: Any) -> Path:
    folder = tmp_path / name
    shutil.copytree(EXAMPLES / name, folder)
    if llm:
        spec_path = folder / "spec.yaml"
        document = yaml.safe_load(spec_path.read_text())
        document["spec"]["fix"]["llm"].update(llm)
        spec_path.write_text(yaml.safe_dump(document))
    return folder


def run(folder: Path, out: Path) -> tuple[int, dict[str, Any]]:
    code = main(["modernize", str(folder / "spec.yaml"), "--out", str(out)])
    return code, json.loads((out / "report.json").read_text())


def test_timeout_example_is_fixed_by_the_llm_with_exact_cost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = copy_example("cancer-knn-loops-2017", tmp_path, timeoutSeconds=1, maxReplies=2)
    reference = nbformat.read(folder / "reference" / "modernized.ipynb", as_version=4)
    fast_cell = reference.cells[5].source
    with scripted_llm(
        Answer("I think the loop is slow. {oops", prompt_tokens=2100, completion_tokens=40),
        Failure(429, "rate limited", {"retry-after": "0.01"}),
        Stall(3.0, Answer("too late")),
        Answer(fix_reply({5: fast_cell}, "vectorise the distances"), 2500, 400),
    ) as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        code, report = run(folder, tmp_path / "out")
    assert code == 0, report["message"]
    assert report["outcome"] == "ErrorFreeReproducible"
    assert [r["issue"] for r in report["revisions"]] == ["Timeout", "Reproducible"]
    fix = report["fixes"][0]
    assert (fix["fixer"], fix["type"], fix["issue"]) == ("llm", "RuntimeReduction", "Timeout")
    assert fix["summary"] == "vectorise the distances"
    assert [c["index"] for c in fix["changes"]] == [5]
    price_in, price_out = DEFAULT_PRICES["gpt-5.2"]
    expected = (4600 * price_in + 440 * price_out) / 1_000_000
    assert report["cost"] == {
        "usd": round(expected, 9),
        "inputTokens": 4600,
        "outputTokens": 440,
        "requests": 4,
        "rejectedReplies": 1,
        "estimatedReplies": 0,
        "savedUsd": 0.0,
    }
    assert len(llm.requests) == 4
    user_prompt = llm.requests[0]["messages"][1]["content"]
    assert "Task: RuntimeReduction" in user_prompt and "### cell 5" in user_prompt
    assert all(r["model"] == "gpt-5.2" for r in llm.requests)


@pytest.mark.parametrize("name", ["wine-removed-apis-2016", "diabetes-silent-drift-2018"])
def test_legacy_examples_reproduce_with_rules_alone(name: str, tmp_path: Path) -> None:
    folder = copy_example(name, tmp_path)
    assert yaml.safe_load((folder / "spec.yaml").read_text())["spec"]["fix"]["fixers"] == ["rules"]
    code, report = run(folder, tmp_path / "out")
    assert code == 0, report["message"]
    assert report["outcome"] == "ErrorFreeReproducible"
    assert report["revisions"][0]["issue"] != "Reproducible"
    assert all(f["fixer"] == "rules" for f in report["fixes"])
    assert report["cost"]["usd"] == 0.0
    final = nbformat.read(tmp_path / "out" / "final.ipynb", as_version=4)
    flags = report["revisions"][-1].get("fidelity", {}).get("flags", [])
    assert flags == [], flags  # models and hyperparameters kept
    assert len(final.cells) == len(nbformat.read(folder / "notebook.ipynb", as_version=4).cells)


def test_cell_mode_escalates_once_to_the_whole_notebook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two cell-mode fixes of the same error that do not hold: the third ask shows the whole
    notebook, and each fix record says which mode made it."""
    broken = "test['y'] = (test['x'] > 0).astype(np.int)"  # np is never imported
    spec = kaggle_folder(
        tmp_path / "case",
        READ,
        broken,
        WRITE,
        fix={"fixers": ["llm"], "maxIterations": 4, "llm": {"model": "test-model"}},
    )
    still_broken = "test['y'] = (test['x'] > 0).astype(np.int_)"
    with scripted_llm(
        Answer(fix_reply({2: still_broken}, "use np.int_")),
        Answer(fix_reply({2: "test['y'] = (test['x'] > 0).astype(np.int64)"}, "np.int64")),
        Answer(fix_reply({1: READ, 2: PREDICT}, "the notebook never imports numpy")),
    ) as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        code = main(["modernize", str(spec), "--out", str(tmp_path / "out")])
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert code == 0, report["message"]
    assert [fix["mode"] for fix in report["fixes"]] == ["cell", "cell", "file"]
    prompts = [request["messages"][1]["content"] for request in llm.requests]
    assert ["Notebook, the whole notebook" in prompt for prompt in prompts] == [False, False, True]
