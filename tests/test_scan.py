"""`nbmod scan` and `nbmod fix`: findings, formats, exit codes, fixing in place."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import nbformat
import pytest

from nbmodernizer.cli import main
from nbmodernizer.fixers.rules import all_libraries, all_rules
from nbmodernizer.scan.batch import scan_all
from nbmodernizer.scan.finding import Scanner, places, select
from nbmodernizer.scan.sources import read
from testing.notebooks import new_code_cell, notebook, write_notebook

LEGACY = (
    "import numpy as np\nimport pandas as pd\n",
    "frame = pd.DataFrame({'a': [1, 2]})\nfirst = frame.ix[0, 'a']\n",
    "values = np.zeros(3, dtype=np.float)\n\nmore = frame.ix[1, 'a'] + frame.ix[0, 'a']\n",
)


def legacy_notebook(path: Path) -> Path:
    nb = notebook(*LEGACY)
    nb.cells[2].outputs = [nbformat.v4.new_output("stream", text="kept?\n")]
    nb.cells[2].execution_count = 3
    nb.cells.append(new_code_cell("print('untouched')"))
    nb.cells[-1].outputs = [nbformat.v4.new_output("stream", text="untouched\n")]
    nb.cells[-1].metadata["tags"] = ["keep"]
    return write_notebook(path, nb)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_text_lists_each_place_in_ruffs_style(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = legacy_notebook(tmp_path / "legacy.ipynb")
    code, out, _ = run(capsys, "scan", str(path))
    assert code == 1
    lines = out.splitlines()
    # cells count from 1, markdown included (cell 1 is the title); columns from 1
    assert [line.split(": ")[0] for line in lines[:4]] == [
        f"{path}:cell 3:2:15",
        f"{path}:cell 4:1:28",
        f"{path}:cell 4:3:14",  # one rule, the same edit twice on a line: two places
        f"{path}:cell 4:3:33",
    ]
    assert [line.split(": ")[1].split()[0] for line in lines[:4]] == [
        "pandas.ix-indexer",
        "numpy.builtin-type-aliases",
        "pandas.ix-indexer",
        "pandas.ix-indexer",
    ]
    assert "(numpy 1.24, " in lines[1] and " installed)" in lines[1]
    assert lines[-1].startswith("Found 4 legacy API uses in 1 file")


def test_json_findings_have_path_cell_line_rule_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = legacy_notebook(tmp_path / "legacy.ipynb")
    code, out, _ = run(capsys, "scan", str(tmp_path), "--format", "json")
    findings = json.loads(out)
    assert code == 1 and len(findings) == 4
    first = findings[0]
    assert {k: first[k] for k in ("path", "cell", "line", "column", "rule", "library")} == {
        "path": str(path),
        "cell": 3,
        "line": 2,
        "column": 15,
        "rule": "pandas.ix-indexer",
        "library": "pandas",
    }
    assert first["changedIn"] == "1.0" and first["installed"] and first["message"]


def test_a_py_file_is_one_cell_and_clean_code_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "old.py").write_text("import numpy as np\nx = np.int(3)\n")
    code, out, _ = run(capsys, "scan", str(tmp_path / "old.py"))
    assert code == 1 and out.startswith(f"{tmp_path / 'old.py'}:2:5: numpy.builtin-type-aliases")
    (tmp_path / "new.py").write_text("import numpy as np\nx = int(3)\n")
    code, out, _ = run(capsys, "scan", str(tmp_path / "new.py"))
    assert code == 0 and out == "All checks passed!\n"


def test_a_missing_path_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "scan", str(tmp_path / "absent.ipynb"))
    assert code == 2 and "absent.ipynb: no such file or directory" in err
    (tmp_path / "broken.ipynb").write_text("{not json")
    code, _, err = run(capsys, "scan", str(tmp_path / "broken.ipynb"))
    assert code == 2 and "not a notebook" in err


def test_select_and_ignore_by_rule_or_library_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = legacy_notebook(tmp_path / "legacy.ipynb")

    def rules(*args: str) -> set[str]:
        _, out, _ = run(capsys, "scan", str(path), "--format", "json", *args)
        return {f["rule"] for f in json.loads(out)}

    assert rules("--select", "numpy") == {"numpy.builtin-type-aliases"}
    assert rules("--select", "pandas.ix") == {"pandas.ix-indexer"}
    assert rules("--ignore", "pandas") == {"numpy.builtin-type-aliases"}
    assert rules("--select", "numpy,pandas", "--ignore", "numpy.builtin") == {"pandas.ix-indexer"}
    selected = select(all_rules(), ["scikit-learn"])
    assert selected and all(rule.library == "scikit-learn" for rule in selected)


# The part of SARIF 2.1.0 (sarif-schema-2.1.0.json, OASIS) that code-scanning services read.
SARIF_SUBSET: dict[str, Any] = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string", "format": "uri"},
        "runs": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["tool", "results"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "informationUri": {"type": "string"},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id"],
                                            "properties": {
                                                "id": {"type": "string"},
                                                "shortDescription": {
                                                    "type": "object",
                                                    "required": ["text"],
                                                },
                                                "helpUri": {"type": "string"},
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["message", "ruleId", "locations"],
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": 0},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": {
                                    "type": "object",
                                    "required": ["text"],
                                    "properties": {"text": {"type": "string"}},
                                },
                                "locations": {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "required": ["artifactLocation", "region"],
                                                "properties": {
                                                    "artifactLocation": {
                                                        "type": "object",
                                                        "required": ["uri"],
                                                        "properties": {"uri": {"type": "string"}},
                                                    },
                                                    "region": {
                                                        "type": "object",
                                                        "required": ["startLine"],
                                                        "properties": {
                                                            "startLine": {
                                                                "type": "integer",
                                                                "minimum": 1,
                                                            },
                                                            "startColumn": {
                                                                "type": "integer",
                                                                "minimum": 1,
                                                            },
                                                        },
                                                    },
                                                },
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def test_sarif_is_sarif_2_1_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    legacy_notebook(tmp_path / "legacy.ipynb")
    code, out, _ = run(capsys, "scan", str(tmp_path), "--format", "sarif")
    log = json.loads(out)
    jsonschema.validate(log, SARIF_SUBSET)
    run0 = log["runs"][0]
    assert code == 1 and len(run0["results"]) == 4
    rules = [rule["id"] for rule in run0["tool"]["driver"]["rules"]]
    for result in run0["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
    assert run0["results"][0]["message"]["text"].startswith("cell 3, line 2: ")
    # the region is the line of the notebook's JSON holding that source line
    lines = (tmp_path / "legacy.ipynb").read_text().split("\n")
    cells = nbformat.read(tmp_path / "legacy.ipynb", as_version=4).cells
    for result in run0["results"]:
        region = result["locations"][0]["physicalLocation"]["region"]
        cell, line = result["properties"]["cell"], result["properties"]["cellLine"]
        source_line = cells[cell - 1].source.split("\n")[line - 1]
        held = lines[region["startLine"] - 1]
        column = region["startColumn"] - 5
        assert held.startswith('    "') and held[region["startColumn"] - 1 :].startswith(
            source_line[column - 1 : column + 2]
        )


def test_fix_rewrites_in_place_keeps_the_rest_and_is_idempotent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = legacy_notebook(tmp_path / "legacy.ipynb")
    before = path.read_text()
    code, out, _ = run(capsys, "fix", str(path), "--diff")
    assert code == 1 and path.read_text() == before  # --diff writes nothing
    assert f"--- a/{path}:cell 3\n+++ b/{path}:cell 3\n" in out
    assert "-first = frame.ix[0, 'a']\n+first = frame.loc[0, 'a']\n" in out
    code, _, err = run(capsys, "fix", str(path))
    assert code == 0 and "fixed 1 file" in err
    fixed = nbformat.reads(path.read_text(), as_version=4)
    assert (
        fixed.cells[2].source == "frame = pd.DataFrame({'a': [1, 2]})\nfirst = frame.loc[0, 'a']\n"
    )
    assert fixed.cells[3].source.startswith("values = np.zeros(3, dtype=float)\n")
    assert fixed.cells[2].outputs == [] and fixed.cells[2].execution_count is None
    untouched = nbformat.reads(before, as_version=4).cells[-1]
    assert fixed.cells[-1] == untouched  # outputs and metadata kept
    text = path.read_text()
    assert text == nbformat.writes(fixed) + "\n" and text.startswith('{\n "cells": [\n')
    # a second run changes nothing, and scan finds nothing
    assert run(capsys, "fix", str(path))[2].endswith("fixed 0 files\n")
    assert path.read_text() == text
    assert run(capsys, "scan", str(path))[0] == 0


def test_fix_rewrites_a_py_file_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.py"
    path.write_text("import numpy as np\n\n\n# a comment\nx = np.int(3)  # keep\n")
    assert run(capsys, "fix", str(path))[0] == 0
    assert path.read_text() == "import numpy as np\n\n\n# a comment\nx = int(3)  # keep\n"


def test_a_notebook_nothing_changes_is_not_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "odd.ipynb"
    path.write_text(json.dumps(nbformat.v4.new_notebook(), indent=4))  # not nbformat's layout
    before = path.read_text()
    assert run(capsys, "fix", str(path))[0] == 0
    assert path.read_text() == before


def test_summary_triage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    legacy_notebook(tmp_path / "legacy.ipynb")
    write_notebook(tmp_path / "clean.ipynb", notebook("import numpy as np\nx = np.zeros(2)"))
    write_notebook(tmp_path / "odd.ipynb", notebook("import numpy as np\nx = = np.zeros(2)"))
    code, out, _ = run(capsys, "scan", str(tmp_path), "--summary", "--format", "json")
    summary = json.loads(out)
    assert code == 1 and summary["files"] == 3 and summary["findings"] == 4
    assert {k: v["files"] for k, v in summary["triage"].items()} == {
        "rules": 1,
        "beyond": 1,
        "clean": 1,
    }
    assert summary["byLibrary"] == {"pandas": 3, "numpy": 1}
    assert summary["byRule"]["pandas.ix-indexer"] == 3
    _, text, _ = run(capsys, "scan", str(tmp_path), "--summary")
    assert "rules        1   33.3%" in text


def test_places_are_where_a_rule_changed_the_cell() -> None:
    assert places("a = 1\nb = x.ix[0]\n", "a = 1\nb = x.loc[0]\n") == [(1, 6)]
    # an added import is not a place when something else changed
    assert places("y = f(1)\n", "import g\ny = g(1)\n") == [(0, 4)]
    # ... but is when it is all the rule did
    assert places("a = 1\n", "import g\na = 1\n") == [(0, 0)]
    # nor is a name a rewrite added to an import line: the place is the call
    legacy = "from m import f\nx = 1\ny = f(x, squared=False)\n"
    assert places(legacy, "from m import f, g\nx = 1\ny = g(x)\n") == [(2, 4)]
    # an import the rule rewrote is one
    assert places("from m.old import f\n", "from m.new import f\n") == [(0, 7)]


def test_the_facts_are_gathered_once_per_batch_in_the_scanners_interpreter(
    tmp_path: Path,
) -> None:
    scanner = Scanner(all_rules(), all_libraries())
    first = legacy_notebook(tmp_path / "legacy.ipynb")
    second = legacy_notebook(tmp_path / "again.ipynb")
    reports = scan_all(scanner, [first, second], jobs=1)
    assert scanner.gathered == 1  # one envprobe.py run for the batch's imports
    assert scanner.environment is not None
    assert scanner.environment.executable == sys.executable
    assert scanner.environment.gone("pandas.ix-indexer")
    assert all(report.findings for report in reports)
    scanner.scan(read(first))
    assert scanner.gathered == 1  # the same imports: nothing new to probe


def test_a_code_cell_whose_source_is_null_is_reported_and_the_others_scanned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real notebooks hold `"source": null` (issue #19); nbformat reads it as None: the cell is
    named as bad input (exit 2) and the notebook's other cells are still scanned."""
    nb = notebook("", "import numpy as np\nx = np.zeros(3, dtype=np.float)")
    document = json.loads(nbformat.writes(nb))
    document["cells"][1]["source"] = None
    path = tmp_path / "null.ipynb"
    path.write_text(json.dumps(document))
    source = read(path)
    assert [(source.number(c), c.index, c.source) for c in source.cells] == [
        (3, 2, "import numpy as np\nx = np.zeros(3, dtype=np.float)"),
    ]
    assert source.problems == ("cell 2: its source is null, not text; skipped",)
    code, out, err = run(capsys, "scan", "--format", "json", "--select", "numpy", str(path))
    assert code == 2
    assert "cell 2: its source is null" in err
    assert [(f["cell"], f["line"], f["rule"]) for f in json.loads(out)] == [
        (3, 2, "numpy.builtin-type-aliases")
    ]


def test_a_py_file_is_one_cell_without_a_number(tmp_path: Path) -> None:
    path = tmp_path / "script.py"
    path.write_text("import os\n")
    source = read(path)
    assert [(source.number(c), c.index, c.source) for c in source.cells] == [
        (None, 0, "import os\n")
    ]


def test_imported_names_read_imports_anywhere_in_a_file_and_only_imports(tmp_path: Path) -> None:
    from nbmodernizer.scan.batch import imported_names

    notebook = tmp_path / "a.ipynb"
    notebook.write_text(
        '{"source": ["import numpy as np\\n", "x = 1; import os\\n", "from sklearn import svm\\n",'
        ' "reimport foo\\n", "transfrom bar\\n", "# important x\\n"]}',
        encoding="utf-8",
    )
    script = tmp_path / "b.py"
    script.write_text("import pandas\n'from seaborn'\nif x:\n\timport\tscipy\n", encoding="utf-8")
    names = imported_names([notebook, script, tmp_path / "missing.py"])
    assert names == {"numpy", "os", "sklearn", "svm", "scipy", "pandas", "seaborn"}


def test_the_collector_runs_less_often_while_a_batch_is_scanned_and_as_before_after(
    tmp_path: Path,
) -> None:
    import gc

    seen: list[tuple[int, int, int]] = []

    class Watching(Scanner):
        def scan(self, source: Any) -> Any:
            seen.append(gc.get_threshold())
            return super().scan(source)

    before = gc.get_threshold()
    scan_all(Watching(all_rules(), all_libraries()), [legacy_notebook(tmp_path / "a.ipynb")], 1)
    assert seen and seen[0][0] >= 20_000 > before[0]
    assert gc.get_threshold() == before
