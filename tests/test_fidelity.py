"""Fidelity of a revision to the original: edit similarity and score-chasing risk flags."""

from __future__ import annotations

import copy
import difflib
from typing import Any

import nbformat
import pytest

from nbmodernizer.fidelity import assess
from nbmodernizer.fixers.rules import all_rules
from nbmodernizer.status import Fidelity, RiskFlag

NBV4: Any = nbformat.v4


def notebook(*sources: str) -> Any:
    """A notebook whose cell 0 is markdown: code cell k of `sources` is notebook cell k + 1."""
    nb = NBV4.new_notebook()
    nb.cells = [NBV4.new_markdown_cell("# A legacy kernel")]
    nb.cells += [NBV4.new_code_cell(source) for source in sources]
    return nb


def flags(original: Any, revision: Any) -> list[tuple[str, int | None, str]]:
    return [(f.kind, f.cell, f.detail) for f in assess(original, revision).flags]


def kinds(original: Any, revision: Any) -> list[str]:
    return [f.kind for f in assess(original, revision).flags]


LOAD = "import pandas as pd\ndf = pd.read_csv('../input/train.csv')"
SPLIT = "X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2)"
FIT = (
    "model = RandomForestClassifier(n_estimators=500, random_state=0)\nmodel.fit(X_train, y_train)"
)
SCORE = "print(accuracy_score(y_test, model.predict(X_test)))"


# ---------------------------------------------------------------- similarity


def test_identical_notebook_is_fully_faithful() -> None:
    nb = notebook(LOAD, SPLIT, FIT, SCORE)
    assert assess(nb, copy.deepcopy(nb)) == Fidelity(similarity=1.0, cells=[], flags=[])


def test_markdown_changes_do_not_count() -> None:
    revision = notebook(LOAD, SPLIT, FIT, SCORE)
    revision.cells[0].source = "# Modernized"
    assert assess(notebook(LOAD, SPLIT, FIT, SCORE), revision) == Fidelity(similarity=1.0)


def test_changed_cell_similarity_is_the_difflib_ratio() -> None:
    before = "from sklearn.cross_validation import train_test_split"
    after = "from sklearn.model_selection import train_test_split"
    fidelity = assess(notebook(LOAD, before, FIT), notebook(LOAD, after, FIT))
    expected = round(difflib.SequenceMatcher(None, before, after).ratio(), 4)
    assert [(c.index, c.similarity) for c in fidelity.cells] == [(2, expected)]
    whole = difflib.SequenceMatcher(
        None, "\n".join([LOAD, before, FIT]), "\n".join([LOAD, after, FIT])
    ).ratio()
    assert fidelity.similarity == pytest.approx(whole, abs=1e-4)
    assert 0 < fidelity.similarity < 1
    assert fidelity.flags == []


def test_added_cell_scores_zero_and_moved_cell_is_unchanged() -> None:
    original = notebook(LOAD, SPLIT, FIT, SCORE)
    revision = notebook(LOAD, FIT, SPLIT, SCORE, "print('done')")  # FIT moved up, one added
    fidelity = assess(original, revision)
    assert [(c.index, c.similarity) for c in fidelity.cells] == [(5, 0.0)]
    assert fidelity.flags == []


def test_tiny_change_in_a_long_cell_never_rounds_to_one() -> None:
    long = "\n".join(f"x{i} = {i}" for i in range(5000))
    fidelity = assess(notebook(long), notebook(long + " "))
    assert fidelity.similarity < 1
    assert fidelity.cells[0].similarity < 1


def test_similarity_of_a_rewritten_notebook_is_low() -> None:
    fidelity = assess(notebook(LOAD, FIT), notebook("print('hello world')"))
    assert fidelity.similarity < 0.3


def test_assess_does_not_modify_the_notebooks() -> None:
    original, revision = notebook(LOAD, FIT), notebook(LOAD, FIT.replace("500", "50"))
    snapshot = copy.deepcopy((original, revision))
    assess(original, revision)
    assert (original, revision) == snapshot


# ---------------------------------------------------------------- subsampling


@pytest.mark.parametrize(
    ("before", "after", "detail"),
    [
        (
            "df = pd.read_csv('train.csv')",
            "df = pd.read_csv('train.csv')\ndf = df.sample(frac=0.1, random_state=0)",
            "adds df.sample(frac=0.1, random_state=0)",
        ),
        ("train = df", "train = df.head(2000)", "adds df.head(2000)"),
        ("model.fit(X, y)", "model.fit(X[:1000], y)", "adds X[:1000]"),
        ("train = df", "train = df.iloc[:5000, :]", "adds df.iloc[:5000, :]"),
        (
            "df = pd.read_csv('train.csv')",
            "df = pd.read_csv('train.csv', nrows=1000)",
            "adds pd.read_csv('train.csv', nrows=1000)",
        ),
        (
            "a, b = train_test_split(df, test_size=0.2)",
            "a, b = train_test_split(df, test_size=0.2, train_size=0.1)",
            "adds train_test_split(df, test_size=0.2, train_size=0.1)",
        ),
        (
            "df = pd.read_csv('train.csv', nrows=100000)",
            "df = pd.read_csv('train.csv', nrows=1000)",
            "nrows 100000 → 1000 in read_csv()",
        ),
        (
            "df = df.sample(frac=0.5)",
            "df = df.sample(frac=0.05)",
            "frac 0.5 → 0.05 in sample()",
        ),
        (
            "a, b = train_test_split(df)",
            "a, b = train_test_split(df, test_size=0.9)",
            "train_size 0.75 (default) → 0.1 (test_size=0.9) in train_test_split()",
        ),
    ],
)
def test_subsampling_is_flagged(before: str, after: str, detail: str) -> None:
    assert flags(notebook(LOAD, before, SCORE), notebook(LOAD, after, SCORE)) == [
        ("subsampling", 2, detail)
    ]


def test_subsampling_is_reported_where_the_new_one_is() -> None:
    original = notebook(LOAD, "df = df.sample(frac=0.5)", FIT)
    revision = notebook(LOAD, "df = df.sample(frac=0.5)", FIT, "small = df.sample(n=100)")
    assert flags(original, revision) == [("subsampling", 4, "adds df.sample(n=100)")]


@pytest.mark.parametrize(
    "after",
    [
        "df = pd.read_csv('train.csv')\ndf.head(20)",  # shown, not computed with
        "df = pd.read_csv('train.csv')\nprint(df[:200])",
        "df = pd.read_csv('train.csv').sample(frac=1).reset_index(drop=True)",  # a shuffle
        "df = pd.read_csv('train.csv')\nnoise = np.random.sample(100)",  # random numbers
        "df = pd.read_csv('train.csv')\nname = path[:10]",  # a short slice
    ],
)
def test_not_subsampling(after: str) -> None:
    assert flags(notebook("df = pd.read_csv('train.csv')"), notebook(after)) == []


def test_subsampling_kept_from_the_original_is_not_flagged() -> None:
    original = notebook(LOAD, "df = df.sample(frac=0.1)", FIT)
    revision = notebook("df = df.sample(frac=0.1)", LOAD, FIT)  # moved, unchanged
    assert flags(original, revision) == []


# ---------------------------------------------------------------- numeric settings


def test_fewer_estimators_names_the_keyword_values_and_call() -> None:
    revision = notebook(LOAD, SPLIT, FIT.replace("n_estimators=500", "n_estimators=50"), SCORE)
    assert flags(notebook(LOAD, SPLIT, FIT, SCORE), revision) == [
        ("fewer-estimators", 3, "n_estimators 500 → 50 in RandomForestClassifier()")
    ]


@pytest.mark.parametrize(
    ("before", "after", "detail"),
    [
        (
            "bst = xgb.train(params, dtrain, num_boost_round=1000)",
            "bst = xgb.train(params, dtrain, num_boost_round=10)",
            "num_boost_round 1000 → 10 in train()",
        ),
        ("m = SVC(max_iter=-1)", "m = SVC(max_iter=200)", "max_iter -1 → 200 in SVC()"),
        (
            "m = CatBoostClassifier(iterations=2000)",
            "m = CatBoostClassifier(iterations=2 * 10)",
            "iterations 2000 → 2 * 10 in CatBoostClassifier()",
        ),
        (
            "params = {'objective': 'binary', 'num_iterations': 500}",
            "params = {'objective': 'binary', 'num_iterations': 5}",
            "num_iterations 500 → 5",
        ),
    ],
)
def test_fewer_estimators(before: str, after: str, detail: str) -> None:
    assert flags(notebook(before), notebook(after)) == [("fewer-estimators", 1, detail)]


def test_more_iterations_is_not_flagged() -> None:
    original = notebook("m = LogisticRegression(max_iter=100)")
    assert flags(original, notebook("m = LogisticRegression(max_iter=1000)")) == []


@pytest.mark.parametrize(
    ("before", "after", "detail"),
    [
        ("model.fit(X, y, epochs=50)", "model.fit(X, y, epochs=5)", "epochs 50 → 5 in fit()"),
        (
            "model.fit(X, y, nb_epoch=50)",
            "model.fit(X, y, epochs=5)",
            "nb_epoch 50 → epochs 5 in fit()",
        ),
        ("EPOCHS = 50", "EPOCHS = 2", "EPOCHS 50 → 2"),
        (
            "for epoch in range(100):\n    train_one_epoch(model)",
            "for epoch in range(1, 4):\n    train_one_epoch(model)",
            "for epoch (iterations) 100 → 3",
        ),
    ],
)
def test_fewer_epochs(before: str, after: str, detail: str) -> None:
    assert flags(notebook(before), notebook(after)) == [("fewer-epochs", 1, detail)]


def test_epochs_keyword_rename_with_the_same_value_is_not_flagged() -> None:
    original = notebook("model.fit(X, y, nb_epoch=12, batch_size=128)")
    assert flags(original, notebook("model.fit(X, y, epochs=12, batch_size=128)")) == []


@pytest.mark.parametrize(
    ("before", "after", "detail"),
    [
        (
            "scores = cross_val_score(model, X, y, cv=5)",
            "scores = cross_val_score(model, X, y, cv=2)",
            "cv 5 → 2 in cross_val_score()",
        ),
        (
            "folds = StratifiedKFold(n_splits=10, shuffle=True)",
            "folds = StratifiedKFold(n_splits=3, shuffle=True)",
            "n_splits 10 → 3 in StratifiedKFold()",
        ),
        (
            "folds = KFold(len(X), n_folds=10)",
            "folds = KFold(n_splits=3)",
            "n_folds 10 → n_splits 3 in KFold()",
        ),
    ],
)
def test_fewer_folds(before: str, after: str, detail: str) -> None:
    assert flags(notebook(before), notebook(after)) == [("fewer-folds", 1, detail)]


def test_folds_keyword_rename_with_the_same_value_is_not_flagged() -> None:
    original = notebook("from sklearn.cross_validation import KFold\nkf = KFold(len(X), n_folds=5)")
    revision = notebook("from sklearn.model_selection import KFold\nkf = KFold(n_splits=5)")
    assert flags(original, revision) == []


def test_settings_of_moved_cells_are_not_flagged() -> None:
    grid = "search = GridSearchCV(SVC(), {'C': [1, 10]}, cv=3)"
    boost = "gbm = GradientBoostingClassifier(n_estimators=300)"
    original = notebook(LOAD, FIT, boost, grid)
    revision = notebook(LOAD, grid, FIT, boost)
    assert flags(original, revision) == []


def test_settings_are_matched_per_call() -> None:
    """Two calls with n_estimators: only the one that went down is flagged, where it is now."""
    boost = "gbm = GradientBoostingClassifier(n_estimators=300)"
    original = notebook(LOAD, FIT, boost)
    revision = notebook(LOAD, boost.replace("300", "30"), FIT)
    assert flags(original, revision) == [
        ("fewer-estimators", 2, "n_estimators 300 → 30 in GradientBoostingClassifier()")
    ]


# ---------------------------------------------------------------- model classes


def test_model_class_change_reports_removed_and_added_classes() -> None:
    revision = notebook(LOAD, SPLIT, "model = LogisticRegression()\nmodel.fit(X_train, y_train)")
    assert flags(notebook(LOAD, SPLIT, FIT), revision) == [
        ("model-class-changed", 3, "RandomForestClassifier → LogisticRegression")
    ]


def test_wrapping_the_model_is_not_a_class_change() -> None:
    original = notebook("clf = LogisticRegression(C=1.0)\nclf.fit(X, y)")
    revision = notebook("clf = OneVsRestClassifier(LogisticRegression(C=1.0))\nclf.fit(X, y)")
    assert flags(original, revision) == []


def test_import_path_of_a_model_may_change() -> None:
    original = notebook("import xgboost\nm = xgboost.sklearn.XGBClassifier()")
    revision = notebook("from xgboost import XGBClassifier\nm = XGBClassifier()")
    assert flags(original, revision) == []


def test_dropped_model_without_replacement() -> None:
    original = notebook("a = SVC()\nb = KNeighborsClassifier()")
    assert flags(original, notebook("a = SVC()")) == [
        ("model-class-changed", 1, "KNeighborsClassifier no longer instantiated")
    ]


# ---------------------------------------------------------------- removed cells


def test_removed_cell_is_flagged_with_the_original_index_and_first_line() -> None:
    clean = "# drop bad rows\ndf = df.dropna()\ndf = df[df.price > 0]"
    original = notebook(LOAD, clean, FIT, SCORE)
    assert flags(original, notebook(LOAD, FIT, SCORE)) == [
        ("cell-removed", 2, "original cell 2 removed: df = df.dropna()")
    ]


def test_moved_cells_are_not_removed() -> None:
    original = notebook(LOAD, SPLIT, FIT, SCORE)
    revision = notebook(SCORE, FIT, LOAD, SPLIT)
    assert kinds(original, revision) == []


def test_edited_and_merged_cells_are_not_removed() -> None:
    original = notebook("import numpy as np", "x = np.float(3)\ny = x + 1", "print(y)")
    revision = notebook("import numpy as np\nx = float(3)\ny = x + 1\nprint(y)")
    assert kinds(original, revision) == []


def test_removing_a_magic_or_comment_only_cell_is_not_flagged() -> None:
    original = notebook("%matplotlib inline", "# TODO", LOAD)
    assert kinds(original, notebook(LOAD)) == []


# ---------------------------------------------------------------- API renames


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("x = np.float(value)", "x = float(value)"),
        (
            "from sklearn.cross_validation import train_test_split, cross_val_score",
            "from sklearn.model_selection import train_test_split, cross_val_score",
        ),
        ("v = df.ix[0, 'price']", "v = df.loc[0, 'price']"),
        ("df = df.append(extra)", "df = pd.concat([df, extra])"),
        ("model.fit(X, y, nb_epoch=10)", "model.fit(X, y, epochs=10)"),
        ("m = SGDClassifier(n_iter=50)", "m = SGDClassifier(max_iter=50)"),
    ],
)
def test_api_renames_are_not_flagged(before: str, after: str) -> None:
    original = notebook(LOAD, before, FIT, SCORE)
    fidelity = assess(original, notebook(LOAD, after, FIT, SCORE))
    assert fidelity.flags == []
    assert [c.index for c in fidelity.cells] == [2]


def test_rulebook_rewrites_are_not_flagged() -> None:
    """Every rule's proof is a pure API-drift fix: none may look like score chasing."""
    flagged: dict[str, list[RiskFlag]] = {}
    for rule in all_rules():
        for example in rule.examples:
            found = assess(notebook(example.before), notebook(example.after)).flags
            if found:
                flagged[rule.id] = found
    assert flagged == {}


# ---------------------------------------------------------------- parsing


def test_ipython_lines_do_not_break_parsing() -> None:
    setup = "%matplotlib inline\n!pip install xgboost\nfiles = !ls ../input\nimport xgboost as xgb"
    fit = "m = xgb.XGBClassifier(n_estimators=1000)\nm.fit(X, y)\nm?"
    original = notebook(setup, fit)
    assert flags(original, notebook(setup, fit.replace("1000", "100"))) == [
        ("fewer-estimators", 2, "n_estimators 1000 → 100 in XGBClassifier()")
    ]


def test_cell_magic_with_python_body_is_parsed() -> None:
    fit = "%%time\nm = GradientBoostingClassifier(n_estimators=300)\nm.fit(X, y)"
    assert kinds(notebook(fit), notebook(fit.replace("300", "30"))) == ["fewer-estimators"]


def test_python2_cell_is_read_as_python3() -> None:
    """The original's Python 2 print does not hide a reduction the fix made in the same cell."""
    original = notebook("print 'training'\nclf = RandomForestClassifier(n_estimators=500)")
    revision = notebook("print('training')\nclf = RandomForestClassifier(n_estimators=5)")
    assert flags(original, revision) == [
        ("fewer-estimators", 1, "n_estimators 500 → 5 in RandomForestClassifier()")
    ]


def test_cell_that_does_not_parse_is_compared_as_text() -> None:
    broken = "print 'a' if x else `y`\nclf = RandomForestClassifier(n_estimators=500)"
    original = notebook(LOAD, broken, SCORE)
    fidelity = assess(original, notebook(LOAD, broken.replace("500", "5"), SCORE))
    assert fidelity.flags == []  # no syntax tree on either side: no AST flag
    assert [c.index for c in fidelity.cells] == [2]
    assert 0.9 < fidelity.similarity < 1
    assert kinds(original, notebook(LOAD, SCORE)) == ["cell-removed"]


def test_list_sources_are_joined() -> None:
    original = notebook(FIT)
    revision = notebook("")
    revision.cells[1].source = ["model = RandomForestClassifier(n_estimators=50, random_state=0)\n"]
    revision.cells[1].source.append("model.fit(X_train, y_train)")
    assert kinds(original, revision) == ["fewer-estimators"]
