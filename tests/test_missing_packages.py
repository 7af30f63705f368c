"""A module of a known package the image lacks is the environment's: the loop stops naming the
module and the package to install, and pays no LLM to delete the import (issue 20)."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

import pytest

from nbmodernizer import metrics
from nbmodernizer.diagnose import diagnose
from nbmodernizer.fixers.rules.libraries.python2.modules import RENAMED_MODULES
from nbmodernizer.known_packages import DATA_FILE, distribution_providing, parse
from nbmodernizer.loop import Executed, Finish, NotFixed, RequestFix, start, step
from nbmodernizer.status import EnvironmentKind, ExecutionResult
from testing.factories import scored
from tests.test_environment_problems import failed, stops_at_once_without_llm


def no_module(name: str, ename: str = "ModuleNotFoundError") -> ExecutionResult:
    return failed(ename, f"No module named '{name}'")


# the modules real notebooks missed most (issue 20's measure), and the well-known mismatches
@pytest.mark.parametrize(
    ("module", "distribution"),
    [
        ("cv2", "opencv-python-headless"),
        ("wordcloud", "wordcloud"),
        ("tqdm", "tqdm"),
        ("nltk", "nltk"),
        ("statsmodels", "statsmodels"),
        ("folium", "folium"),
        ("optuna", "optuna"),
        ("imblearn", "imbalanced-learn"),
        ("bokeh", "bokeh"),
        ("gensim", "gensim"),
        ("spacy", "spacy"),
        ("missingno", "missingno"),
        ("numba", "numba"),
        ("squarify", "squarify"),
        ("sklearn", "scikit-learn"),
        ("PIL", "pillow"),
        ("skimage", "scikit-image"),
        ("yaml", "PyYAML"),
        ("bs4", "beautifulsoup4"),
        ("Crypto", "pycryptodome"),
    ],
)
def test_a_known_packages_module_names_its_distribution(module: str, distribution: str) -> None:
    assert distribution_providing(module) == distribution
    diagnosis = diagnose(no_module(module), scored(None))
    assert diagnosis.environment is EnvironmentKind.MISSING_PACKAGE
    assert f"`{module}` is provided by `{distribution}`" in diagnosis.detail


def test_the_reason_says_what_to_add_where() -> None:
    for ename in ("ModuleNotFoundError", "ImportError"):
        assert diagnose(no_module("cv2", ename), scored(None)).detail == (
            "cell 2: missing package: `cv2` is provided by `opencv-python-headless`, which the "
            "environment lacks; add it to the environment image (spec.execution.image)"
        )


@pytest.mark.parametrize(
    "module",
    # Kaggle-only helpers (not on PyPI) and files the author had next to the notebook
    ["learntools", "kagglegym", "bq_helper", "utils", "helpers", "config", "my_features"],
)
def test_a_module_no_package_provides_is_for_the_fixers(module: str) -> None:
    assert distribution_providing(module) is None
    assert diagnose(no_module(module), scored(None)).environment is None


@pytest.mark.parametrize(
    ("ename", "evalue"),
    [
        # the package imports; the submodule moved: code drift a rule rewrites
        ("ModuleNotFoundError", "No module named 'sklearn.cross_validation'"),
        ("ModuleNotFoundError", "No module named 'pandas.tools'"),
        ("ImportError", "cannot import name 'Imputer' from 'sklearn.preprocessing' (/x.py)"),
        # Python 2's standard library: the python2 rules'
        ("ModuleNotFoundError", "No module named 'cPickle'"),
        ("ModuleNotFoundError", "No module named 'urllib2'"),
    ],
)
def test_drift_in_an_import_is_not_the_environments(ename: str, evalue: str) -> None:
    assert diagnose(failed(ename, evalue), scored(None)).environment is None


def test_the_map_holds_no_name_a_notebook_means_as_its_own() -> None:
    text = resources.files("nbmodernizer").joinpath(DATA_FILE).read_text("utf-8")
    assert text.startswith("# import name -> the PyPI distribution")
    modules = list(parse(text))
    assert modules == sorted(modules) and len(modules) > 350
    stdlib = [m for m in modules if m.split(".")[0] in sys.stdlib_module_names]
    generic = {"tests", "test", "utils", "docs", "examples", "src", "scripts"} & set(modules)
    assert stdlib == [] and generic == set()
    # Python 2's modules are the python2 rules' to rename, never an install
    assert set(RENAMED_MODULES) & set(modules) == set()


def test_a_malformed_line_names_the_file_and_line() -> None:
    with pytest.raises(ValueError, match=r"module_packages.tsv line 2: expected"):
        parse("# header\ncv2 opencv-python\n")


def test_a_run_that_ends_on_it_is_counted_as_missing_package() -> None:
    counter = metrics.ENVIRONMENT_FAILURES.labels(EnvironmentKind.MISSING_PACKAGE.value)
    before = counter._value.get()
    state, _ = start(1)
    state, _ = step(state, Executed(0, no_module("wordcloud"), scored(None)))
    metrics.observe_finish(state)
    assert counter._value.get() == before + 1


def test_the_stop_reason_names_module_and_package() -> None:
    state, _ = start(4)
    state, action = step(state, Executed(0, no_module("cv2"), scored(None)))
    assert isinstance(action, RequestFix)
    _, finish = step(state, NotFixed("rules: no rule applies; llm: not asked"))
    assert isinstance(finish, Finish)
    assert finish.reason.startswith(
        "the environment lacks what the notebook needs (missing-package): cell 2: missing "
        "package: `cv2` is provided by `opencv-python-headless`"
    )


@pytest.mark.kernel
def test_the_loop_stops_after_one_execution_naming_module_and_package_and_pays_no_llm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ModuleNotFoundError):  # the test environment must lack it
        __import__("lifelines")
    survival = "from lifelines import KaplanMeierFitter\nkmf = KaplanMeierFitter().fit([3, 5, 8])"
    reason = stops_at_once_without_llm(tmp_path, monkeypatch, survival)
    assert (
        "missing package: `lifelines` is provided by `lifelines`, which the environment lacks"
        in reason
    )
