"""Tiny real notebooks and Kaggle-style folders for kernel tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import yaml

new_notebook: Any = nbformat.v4.new_notebook
new_code_cell: Any = nbformat.v4.new_code_cell
new_markdown_cell: Any = nbformat.v4.new_markdown_cell
new_raw_cell: Any = nbformat.v4.new_raw_cell

# Predicts y = x > 0 for the test rows: a perfect submission.
READ = "import pandas as pd\ntest = pd.read_csv('../input/test.csv')"
PREDICT = "test['y'] = (test['x'] > 0).astype(int)"
WRITE = "test[['id', 'y']].to_csv('submission.csv', index=False)"


def notebook(*sources: str) -> Any:
    nb = new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [new_markdown_cell("# A legacy kernel")] + [new_code_cell(s) for s in sources]
    return nb


def write_notebook(path: Path, nb: Any) -> Path:
    path.write_text(nbformat.writes(nb))
    return path


def kaggle_folder(root: Path, *sources: str, target: float = 1.0, **spec: Any) -> Path:
    """A spec, notebook, input/ and answers.csv under `root`; returns the spec path."""
    (root / "input").mkdir(parents=True)
    (root / "input" / "test.csv").write_text("id,x\n1,0.5\n2,-1.0\n3,2.0\n4,-0.1\n")
    (root / "answers.csv").write_text("id,y\n1,1\n2,0\n3,1\n4,0\n")
    write_notebook(root / "notebook.ipynb", notebook(*(sources or (READ, PREDICT, WRITE))))
    body: dict[str, Any] = {
        "notebook": "notebook.ipynb",
        "inputs": "input",
        "score": {"metric": "accuracy", "target": target, "answers": "answers.csv"},
        "execution": {"timeoutSeconds": 60},
        "fix": {"maxIterations": 3, "fixers": ["rules"]},
    }
    for key, value in spec.items():
        body[key] = {**body.get(key, {}), **value} if isinstance(value, dict) else value
    document = {
        "apiVersion": "nbmodernizer.dev/v1alpha1",
        "kind": "NotebookModernization",
        "metadata": {"name": "tiny"},
        "spec": body,
    }
    path = root / "spec.yaml"
    path.write_text(yaml.safe_dump(document))
    return path


def nbformat3(*sources: str) -> str:
    """A notebook in nbformat 3 (worksheets, `input` instead of `source`)."""
    cells = [
        {
            "cell_type": "code",
            "collapsed": False,
            "input": s,
            "language": "python",
            "metadata": {},
            "outputs": [],
        }
        for s in sources
    ]
    return json.dumps(
        {
            "metadata": {"name": ""},
            "nbformat": 3,
            "nbformat_minor": 0,
            "worksheets": [{"cells": cells, "metadata": {}}],
        },
        indent=1,
    )
