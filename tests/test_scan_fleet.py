"""`nbmod fleet make --scan`: each resource labelled with its notebook's triage class."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from nbmodernizer.cli import main
from nbmodernizer.spec import parse_modernization
from testing.notebooks import notebook, write_notebook


def test_fleet_make_scan_labels_the_triage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_notebook(
        tmp_path / "old.ipynb", notebook("import pandas as pd\nx = pd.DataFrame().ix[0, 'a']")
    )
    write_notebook(tmp_path / "new.ipynb", notebook("import pandas as pd\nx = pd.DataFrame()"))
    write_notebook(tmp_path / "odd.ipynb", notebook("import pandas as pd\nx = = 1"))
    index = tmp_path / "index.csv"
    index.write_text(
        "notebook,answers,metric,target\n"
        + "".join(f"{name}.ipynb,a.csv,accuracy,0.9\n" for name in ("old", "new", "odd"))
        + "s3://b/k/remote.ipynb,s3://b/a.csv,accuracy,0.9\n"
    )
    assert main(["fleet", "make", str(index), "--scan"]) == 0
    documents = list(yaml.safe_load_all(capsys.readouterr().out))
    key = "nbmodernizer.dev/triage"
    assert [d["metadata"]["labels"][key] for d in documents] == [
        "rules",
        "clean",
        "beyond",
        "unknown",
    ]
    assert all(d["metadata"]["annotations"][key] for d in documents)
    parse_modernization(documents[0])  # still a valid resource
    assert main(["fleet", "make", str(index)]) == 0
    assert "labels" not in next(yaml.safe_load_all(capsys.readouterr().out))["metadata"]
