"""`nbmod fleet`: an index becomes resources; statuses become the paper's table."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml

from nbmodernizer.cli import main
from nbmodernizer.fleet import FleetError, render_summary, resources_from_index, summarize
from nbmodernizer.spec import parse_modernization

INDEX = """notebook,inputs,answers,metric,target,fixers,timeoutSeconds,name
s3://b/k/titanic-2017/notebook.ipynb,s3://b/k/titanic-2017/input/,s3://b/a/titanic.csv,accuracy,0.78,rules;llm,900,
s3://b/k/house_prices.ipynb,,s3://b/a/house.csv,rmsle,0.12,,,
s3://b/k/other/titanic-2017/notebook.ipynb,,s3://b/a/t2.csv,accuracy,0.8,,,
s3://b/k/x.ipynb,,s3://b/a/x.csv,f1,0.5,,,my-own-name
"""


def test_index_becomes_valid_resources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = tmp_path / "index.csv"
    index.write_text(INDEX)
    assert main(["fleet", "make", str(index), "-n", "team-a"]) == 0
    documents = list(yaml.safe_load_all(capsys.readouterr().out))
    names = [d["metadata"]["name"] for d in documents]
    assert names == ["titanic-2017", "house-prices", "titanic-2017-2", "my-own-name"]
    first = parse_modernization(documents[0])
    assert first.metadata.namespace == "team-a"
    assert first.spec.fix.fixers == ["rules", "llm"]
    assert first.spec.execution.timeout_seconds == 900
    assert first.spec.inputs == "s3://b/k/titanic-2017/input/"
    assert parse_modernization(documents[1]).spec.score.metric.value == "rmsle"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "notebook,answers,metric\nn.ipynb,a.csv,accuracy\n",
            "line 1: the header lacks column(s) target",
        ),
        (
            "notebook,answers,metric,target\nn.ipynb,a.csv,accuracy,high\n",
            "line 2: target: not a float: 'high'",
        ),
        (
            "notebook,answers,metric,target\nn.ipynb,a.csv,acc,0.9\n",
            "line 2: spec.score.metric: Input should be",
        ),
        ("notebook,answers,metric,target\nn.ipynb,,accuracy,0.9\n", "line 2: missing answers"),
    ],
)
def test_bad_rows_name_their_line_and_field(text: str, message: str) -> None:
    with pytest.raises(FleetError) as caught:
        resources_from_index(text)
    assert str(caught.value).startswith(message)


def test_summary_counts_memory_fixes_and_the_dollars_they_saved() -> None:
    memory_fix = {"fixer": "memory", "type": "ErrorRepair", "savedUsd": 0.25}
    statuses = [
        {"outcome": "ErrorFreeReproducible", "fixes": [memory_fix], "cost": {"savedUsd": 0.25}},
        {"outcome": "ErrorFreeReproducible", "fixes": [memory_fix], "cost": {"savedUsd": 0.25}},
        {"outcome": "ErrorFreeReproducible", "fixes": [{"fixer": "llm", "type": "ErrorRepair"}],
         "cost": {"usd": 0.25}},
    ]  # fmt: skip
    summary = summarize([{"status": status} for status in statuses])
    table = summary.to_dict()
    assert {"fixer": "memory", "type": "ErrorRepair", "count": 2} in table["fixes"]
    assert table["cost"]["savedUsd"] == 0.5 and table["cost"]["usd"] == 0.25
    text = render_summary(summary)
    assert "memory     ErrorRepair                2" in text
    assert "LLM cost saved by the fix memory (estimated) $0.5000" in text


def test_summary_is_the_papers_table() -> None:
    def resource(
        outcome: str | None, fixes: Sequence[tuple[str, str]] = (), usd: float = 0.0
    ) -> dict[str, Any]:
        status = {
            "fixes": [{"fixer": f, "type": t} for f, t in fixes],
            "cost": {"usd": usd, "inputTokens": 100, "outputTokens": 10},
        }
        if outcome:
            status["outcome"] = outcome
        return {"status": status}

    summary = summarize(
        [
            resource("ErrorFreeReproducible", [("rules", "ErrorRepair")]),
            resource("ErrorFreeReproducible", [("llm", "RuntimeReduction")], usd=0.5),
            resource(
                "ErrorReproducible", [("rules", "ErrorRepair"), ("llm", "ErrorRepair")], usd=0.25
            ),
            resource("ErrorNonReproducible", [("llm", "ErrorRepair")], usd=0.75),
            resource("Failed"),
            resource(None),
        ]
    )
    table = summary.to_dict()
    assert table["total"] == 6 and table["unfinished"] == 1 and table["reproduced"] == 3
    assert table["outcomes"]["ErrorFreeReproducible"] == 2 and table["outcomes"]["Failed"] == 1
    assert {"fixer": "llm", "type": "ErrorRepair", "count": 2} in table["fixes"]
    assert table["cost"]["usd"] == 1.5 and table["cost"]["usdPerReproduced"] == 0.5
    text = render_summary(summary)
    assert "ErrorFreeReproducible              2   33.3%" in text
    assert "per reproduced notebook $0.5000" in text
