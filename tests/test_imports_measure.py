"""benchmarks/imports.py: which notebooks can import everything they import in an environment
installed from the lock (issue 20), on notebooks it reads from a real git repository and an
environment it probes in a real interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from benchmarks.imports import (
    Category,
    Environment,
    Notebook,
    Tally,
    code_of,
    module_key,
    read_environment,
    read_git,
    resolve,
)

ENVIRONMENT = Environment(
    stdlib=frozenset({"os", "pickle", "json"}),
    modules=frozenset({"numpy", "pandas", "mpl_toolkits.mplot3d", "google.protobuf"}),
)


def notebook(*modules: str) -> Notebook:
    return Notebook("here", "a.ipynb", frozenset(modules))


def test_each_module_is_resolved_or_says_why_not() -> None:
    imported = notebook(
        "os.path",
        "numpy.random.rand",
        "mpl_toolkits.mplot3d.Axes3D",
        "mpl_toolkits.basemap.Basemap",  # the namespace is matplotlib's; basemap is not
        "google.protobuf.message",
        "google.cloud.bigquery",
        "cPickle",  # Python 2's: the python2 rules rename it to pickle
        "dicom",  # pydicom's old name: the rule's new module is missing here
        "cv2",
        "learntools.core",
    )
    assert resolve(imported, ENVIRONMENT) == {
        "os": Category.STDLIB,
        "numpy": Category.LOCK,
        "mpl_toolkits.mplot3d": Category.LOCK,
        "mpl_toolkits.basemap": Category.OTHER,
        "google.protobuf": Category.LOCK,
        "google.cloud": Category.OTHER,
        "cPickle": Category.RULE,
        "dicom": Category.PYPI,
        "cv2": Category.PYPI,
        "learntools": Category.OTHER,
    }
    with_pydicom = Environment(ENVIRONMENT.stdlib, ENVIRONMENT.modules | {"pydicom"})
    assert resolve(notebook("dicom.dataset.Dataset"), with_pydicom) == {"dicom": Category.RULE}


def test_a_module_imported_two_ways_counts_once_at_its_worst() -> None:
    assert module_key("google.cloud.bigquery.Client") == "google.cloud"
    assert module_key("sklearn.svm.SVC") == "sklearn"
    both = notebook("google.protobuf.message", "google.cloud.storage", "google.cloud.bigquery")
    assert resolve(both, ENVIRONMENT) == {
        "google.protobuf": Category.LOCK,
        "google.cloud": Category.OTHER,
    }


def test_the_tally_counts_notebooks_rules_and_pairs() -> None:
    tally = Tally()
    for modules in (["numpy", "os"], ["numpy", "cPickle"], ["pandas", "cv2", "learntools"]):
        tally.add(resolve(notebook(*modules), ENVIRONMENT))
    assert (tally.notebooks, tally.complete, tally.complete_with_rules) == (3, 1, 2)
    assert (tally.pairs, tally.pairs_resolved) == (7, 4)
    assert tally.missing == {"cPickle": 1, "cv2": 1, "learntools": 1}


def test_notebooks_are_read_in_both_formats_and_scripts_whole() -> None:
    v4 = {"cells": [{"cell_type": "code", "source": ["import numpy\n", "x = 1"]},
                    {"cell_type": "markdown", "source": "import nothing"}]}  # fmt: skip
    v3 = {"worksheets": [{"cells": [{"cell_type": "code", "input": "import cv2"}]}]}
    assert code_of("a.ipynb", json.dumps(v4)) == ["import numpy\nx = 1"]
    assert code_of("b.ipynb", json.dumps(v3)) == ["import cv2"]
    assert code_of("c.py", "import os\n") == ["import os\n"]
    assert code_of("d.ipynb", "{not json") is None
    assert code_of("e.ipynb", "[1, 2]") is None
    assert code_of("f.R", "library(dplyr)") is None


def test_a_git_repository_is_read_at_head_without_a_checkout(tmp_path: Path) -> None:
    repository = tmp_path / "kernels"
    (repository / "nested").mkdir(parents=True)
    cells = [
        {"cell_type": "code", "source": "%matplotlib inline\nimport seaborn as sns"},
        {"cell_type": "code", "source": "print 'python 2'\nfrom sklearn.svm import SVC"},
    ]
    (repository / "nested" / "kernel.ipynb").write_text(json.dumps({"cells": cells}))
    (repository / "script.py").write_text("import wordcloud\nfrom . import sibling\n")
    (repository / ".ipynb_checkpoints").mkdir()
    (repository / ".ipynb_checkpoints" / "kernel-checkpoint.ipynb").write_text("{}")
    (repository / "README.md").write_text("import nothing\n")

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(repository), *args], check=True, capture_output=True)

    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "kernels")
    (repository / "script.py").write_text("import uncommitted\n")  # HEAD is what is read
    found = {nb.path: nb.modules for nb in read_git(repository)}
    assert found == {
        "nested/kernel.ipynb": {"seaborn", "sklearn.svm.SVC"},
        "script.py": {"wordcloud"},  # a relative import is the notebook's own
    }


def test_the_environment_is_what_the_locked_distributions_provide(tmp_path: Path) -> None:
    lock = tmp_path / "requirements.lock"
    lock.write_text(f"# pins\nPyYAML=={metadata.version('pyyaml')}\n")
    environment = read_environment(sys.executable, [lock])
    assert "yaml" in environment.modules and "numpy" not in environment.modules
    assert {"json", "pickle", "os"} <= environment.stdlib
    lock.write_text("no-such-distribution-here==1.0\n")
    with pytest.raises(SystemExit, match=r"not an environment installed from .*no-such-dist"):
        read_environment(sys.executable, [lock])
