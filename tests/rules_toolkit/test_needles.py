"""toolkit.needles: a rule's trigger names (and its `ast` trigger) let a cell that mentions
none of them go unparsed, and never hide a finding: the same findings and rewrites with and
without them, on every rule's own examples (whole, and one statement a cell) and on the
repository's notebooks."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest

from nbmodernizer import cells
from nbmodernizer.fixers.rules import all_libraries, all_rules
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.fixer import notebook_context
from nbmodernizer.fixers.rules.libraries.pandas import cow
from nbmodernizer.fixers.rules.toolkit import needles as needles_module
from nbmodernizer.fixers.rules.toolkit.cells import needles, read_cell, walkable
from nbmodernizer.fixers.rules.toolkit.needles import (
    AstTrigger,
    attribute_named,
    call_to,
    compares_to,
    either,
    extra_positional,
    has_string,
    mentions,
    parts,
    passes_keyword,
    refers_to,
    triggered,
)
from nbmodernizer.notebook import CodeCell
from nbmodernizer.scan.finding import Finding, Scanner
from nbmodernizer.scan.sources import SourceFile, read

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(ROOT.glob("corpus/cases/*/notebook.ipynb")) + sorted(
    ROOT.glob("examples/*/notebook.ipynb")
)
SCANNER = Scanner(all_rules(), all_libraries())


def test_a_name_needle_is_a_whole_word_and_other_needles_are_text() -> None:
    aliases: dict[str, str] = {}
    assert mentions("x = df.as_matrix()", ("as_matrix",), aliases)
    assert not mentions("n_iter_no_change = 5", ("n_iter",), aliases)
    assert mentions("m = LogisticRegression(solver='liblinear')", ("liblinear",), aliases)
    assert mentions("df.ix[0]", (".ix[",), aliases)
    assert not mentions("df.ix [0]", (".ix[",), aliases)
    assert mentions("anything", (), aliases)


def test_an_imported_name_mentions_the_parts_of_what_it_stands_for() -> None:
    aliases = {"read": "scipy.misc.imread", "sp": "scipy", "np": "numpy"}
    assert mentions("image = read(path)", ("imread",), aliases)
    assert mentions("root = sp.sqrt(-1)", ("scipy",), aliases)
    assert not mentions("root = np.sqrt(-1)", ("scipy",), aliases)


def test_each_thread_keeps_its_own_memo_of_the_last_cell() -> None:
    """The operator's workers fix several notebooks at once: a memo of the last cell read (its
    names, its tree's nodes and references) shared by threads let one thread's cell answer for
    another's (1-6% of 400 concurrent rules fixes found no rule to apply)."""
    mine, theirs = ast.parse("x = np.float(1)"), ast.parse("y = pd.read_csv(path)")
    aliases = {"np": "numpy", "pd": "pandas"}
    assert mentions("x = np.float(1)", ("float",), aliases)
    assert len(list(needles_module.nodes(mine, ast.Attribute))) == 1
    assert "numpy.float" in needles_module.references(mine, aliases)

    def other_cell() -> None:
        assert not mentions("y = pd.read_csv(path)", ("float",), aliases)
        assert "pandas.read_csv" in needles_module.references(theirs, aliases)

    thread = threading.Thread(target=other_cell)
    thread.start()
    thread.join()
    assert needles_module.mentioned.source == "x = np.float(1)"
    key = needles_module.references.key
    assert key is not None and key[0] is mine


def test_the_parts_of_qualified_names_leave_out_the_package() -> None:
    assert parts("numpy.float", "sklearn.cross_validation.KFold", "cPickle") == (
        "float",
        "cross_validation",
        "KFold",
        "cPickle",
    )


def test_a_cell_that_mentions_no_needle_is_not_parsed() -> None:
    source = "total = sum(range(10))  # a cell no proactive rule names\n"
    read_cell.cache_clear()
    SCANNER.scan(SourceFile(Path("x.py"), source, (CodeCell(0, source),), None))
    assert read_cell.cache_info().misses == 0


def test_a_reference_is_an_attribute_chain_an_imported_name_or_an_import() -> None:
    moved = refers_to(["scipy.misc.imread"])
    aliases = RuleContext({"read": "scipy.misc.imread", "sp": "scipy"})
    none = RuleContext()
    assert moved(ast.parse("img = read(path)"), aliases)
    assert moved(ast.parse("img = sp.misc.imread(path)"), aliases)
    assert moved(ast.parse("from scipy.misc import imread"), none)
    assert moved(ast.parse("import scipy.misc.imread.x"), none)
    assert moved(ast.parse("try:\n    pass\nexcept Exception as read:\n    pass"), aliases)
    assert not moved(ast.parse("img = imread(path)  # scipy.misc.imread"), none)
    assert not moved(ast.parse("read = 1\nf(read=2)"), none)
    assert moved(ast.parse("from scipy.misc import *"), none) is False  # the module did not move
    assert refers_to(["scipy.misc"])(ast.parse("from scipy.misc import *"), none)


def test_the_chained_assignment_trigger_is_an_assignment_to_a_chained_subscript_of_a_frame() -> (
    None
):
    def fires(code: str, frames: frozenset[str] | None = frozenset({"df"})) -> bool:
        context = RuleContext({"pd": "pandas"}, frames=frames)
        return triggered(ast.parse(code), cow._chained_assignment, context)

    assert fires("df['a'][df['b'] > 0] = 1")
    assert fires("def f():\n    df.a[m] += 1")
    assert not fires("df.loc[m, 'a'] = 1\nd = {}\nd['k'] = df['a'][m]")
    assert not fires("data['tra']['dow'] = 1")  # not known to be a frame (a dict of frames)
    # without the notebook's frames, the cell's own
    assert fires("import pandas as pd\ndf = pd.read_csv(p)\ndf['a'][m] = 1", None)
    assert not fires("df = {}\ndf['a'][m] = 1", None)
    assert triggered(None, cow._chained_assignment, RuleContext())  # no ast tree: LibCST decides


def _fires(trigger: AstTrigger, code: str, aliases: dict[str, str] | None = None) -> bool:
    return trigger(ast.parse(code), RuleContext(aliases or {}))


def test_extra_positional_is_a_call_passing_more_by_position_than_its_callee_takes() -> None:
    functions = {"sklearn.model_selection.KFold": 1}
    trigger = extra_positional(
        lambda name, _context: functions.get(name),
        lambda name, _context: {"drop": 1}.get(name),
    )
    aliases = {"KFold": "sklearn.model_selection.KFold", "ms": "sklearn.model_selection"}
    assert _fires(trigger, "KFold(3, True)", aliases)
    assert _fires(trigger, "ms.KFold(3, True, 0)", aliases)
    assert not _fires(trigger, "KFold(3, shuffle=True)", aliases)
    assert not _fires(trigger, "KFold(*args)", aliases)  # unpacked: the rule leaves it
    assert not _fires(trigger, "KFold(3, True)")  # not imported from scikit-learn
    assert _fires(trigger, "frame.drop('c', 1)")  # a method, on any receiver but a module
    assert _fires(trigger, "read().drop('c', 1)")
    assert not _fires(trigger, "frame.drop('c', axis=1)")
    assert not _fires(trigger, "np.drop('c', 1)", {"np": "numpy"})  # a module's function
    assert not _fires(trigger, "np.x.drop('c', 1)", {"np": "numpy"})
    assert _fires(trigger, "np.drop('c', 1)")  # `np` not imported: a variable


def test_passes_keyword_is_a_call_naming_the_keyword_on_a_named_callee() -> None:
    trigger = passes_keyword(("verbose",), called=("fit",))
    assert _fires(trigger, "model.fit(X, y, verbose=10)")
    assert _fires(trigger, "LGBMClassifier().fit(X, y, verbose=10)")
    assert not _fires(trigger, "model.predict(X, verbose=10)")
    assert not _fires(trigger, "model.fit(X, y, **{'verbose': 10})")
    assert not _fires(trigger, "verbose = 1\nmodel.fit(X, y)")
    splitters = passes_keyword(("random_state",), called=("sklearn.model_selection.KFold",))
    assert _fires(splitters, "KF(5, random_state=0)", {"KF": "sklearn.model_selection.KFold"})
    assert _fires(passes_keyword(("b",)), "plt.grid(b=True)")


def test_has_string_is_a_literal_with_one_of_the_values_or_that_passes_a_test() -> None:
    assert _fires(has_string({"mean_squared_error"}), "cv(m, scoring='mean_squared_error')")
    assert not _fires(has_string({"mean_squared_error"}), "mean_squared_error(y, p)")
    assert _fires(has_string(str.isupper), "df.resample('H')")
    assert not _fires(has_string(str.isupper), "df.resample(rule)")


def test_call_to_with_keywords_needs_one_of_them_on_that_target() -> None:
    trigger = call_to(["pandas.concat", "pandas.Int64Index"], {"pandas.concat": ("join_axes",)})
    aliases = {"pd": "pandas"}
    assert _fires(trigger, "pd.concat([a, b], axis=1, join_axes=[a.index])", aliases)
    assert not _fires(trigger, "pd.concat([a, b], axis=1)", aliases)
    assert _fires(trigger, "pd.Int64Index([1])", aliases)


def test_compares_to_is_an_equality_with_a_name_or_a_string() -> None:
    trigger = compares_to({"object", "numpy.object_"}, {"object", "O"})
    aliases = {"np": "numpy"}
    assert _fires(trigger, "s.dtype == object")
    assert _fires(trigger, "'O' != df.dtypes[c]")
    assert _fires(trigger, "s.dtype == np.object_", aliases)
    assert not _fires(trigger, "s.dtype in (object, 'str')")
    assert not _fires(trigger, "a == b == object")  # two operators: not the rule's form
    assert not _fires(trigger, "s.dtype == 'int64'")


def test_attribute_named_and_either() -> None:
    assert _fires(attribute_named("order", "ftypes"), "df.ftypes")
    assert not _fires(attribute_named("order"), "order = 1")
    trigger = either(attribute_named("order"), has_string({"x"}))
    assert _fires(trigger, "print('x')") and _fires(trigger, "s.order()")
    assert not _fires(trigger, "s.sort_values()")


def _scan(source: SourceFile) -> tuple[list[Finding], dict[int, str]]:
    report = SCANNER.scan(source)
    return report.findings, report.rewritten


def _both(source: SourceFile, monkeypatch: pytest.MonkeyPatch) -> None:
    found = _scan(source)
    with monkeypatch.context() as patched:
        patched.setattr(needles_module, "ENABLED", False)
        assert _scan(source) == found


RULES_WITH_NEEDLES = [rule for rule in all_rules() if needles(rule.rewrite) is not None]


def test_most_proactive_rules_have_needles() -> None:
    proactive = [rule for rule in all_rules() if rule.gone is not None]
    assert len(RULES_WITH_NEEDLES) >= len(proactive) // 2


_IMPORTS = (
    "import numpy as np\nimport pandas as pd\nimport lightgbm as lgb\nimport seaborn as sns\n"
    "import matplotlib.pyplot as plt\nfrom sklearn.model_selection import RandomizedSearchCV\n"
    "from sklearn.linear_model import SGDClassifier\n"
)


@pytest.mark.parametrize(
    ("rule_id", "cell"),
    [
        ("xgboost.gpu-params", "predictor = model.fit(X, y)\n"),
        ("lightgbm.train-dataset-arguments", "ds = lgb.Dataset(X, y, categorical_feature=c)\n"),
        ("sklearn.sgd-n-iter", "search = RandomizedSearchCV(SGDClassifier(), grid, n_iter=9)\n"),
        ("pandas.keyword-only-arguments", "w = np.where(mask, a, b)\n"),
        ("sklearn.logistic-l1-default-solver", "model = SGDClassifier(penalty='l1')\n"),
        ("seaborn.size-to-height", "x = np.random.normal(size=10)\n"),
        ("matplotlib.boxplot-labels", "plt.legend(labels=names)\n"),
        ("matplotlib.seaborn-style-names", "plt.style.use('ggplot')\n"),
        ("matplotlib.grid-b", "model.fit(X, b=True)\n"),  # `any_call`'s names sharpen it
    ],
)
def test_a_cell_naming_a_needle_in_another_sense_is_not_parsed(rule_id: str, cell: str) -> None:
    """A needle that is a common word (`predictor`, `n_iter`, `size`, `labels`, `style`) lets
    the rule's `ast` trigger say no before LibCST reads the cell."""
    (rule,) = [rule for rule in all_rules() if rule.id == rule_id]
    steps = walkable(rule.rewrite)
    assert steps is not None
    aliases = cells.imports([_IMPORTS])
    facts = SCANNER.facts_for({"numpy", "pandas", "lightgbm", "seaborn", "matplotlib", "sklearn"})
    context = RuleContext(aliases, environment=facts)  # pandas' signatures among the facts
    assert any(mentions(cell, step.needles, aliases) for step in steps)
    assert not any(step.may_apply(cell, context) for step in steps)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.id)
def test_needles_never_change_a_rules_rewrite_of_its_examples(
    rule: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nbmodernizer.fixers.rules.model import Rule

    assert isinstance(rule, Rule)
    for example in rule.examples:
        for source in (example.before, example.after):
            context, _ = notebook_context([source], False, None)
            rewritten = rule.rewrite(source, context)
            with monkeypatch.context() as patched:
                patched.setattr(needles_module, "ENABLED", False)
                assert rule.rewrite(source, RuleContext(context.aliases)) == rewritten
            file = SourceFile(Path("example.py"), source, (CodeCell(0, source),), None)
            _both(file, monkeypatch)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.parent.name)
def test_needles_never_hide_a_finding_in_a_notebook(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _both(read(path), monkeypatch)


def _one_statement_a_cell(source: str) -> SourceFile:
    """The example with each top-level statement in a cell of its own (imports in one cell,
    their names used in another)."""
    lines = source.split("\n")
    try:
        body = ast.parse(source).body
    except SyntaxError:
        body = []
    starts = [
        min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        for node in body
    ]
    statements = [
        "\n".join(lines[start - 1 : node.end_lineno])
        for start, node in zip(starts, body, strict=True)
    ] or [source]
    code = tuple(CodeCell(n, statement) for n, statement in enumerate(statements))
    return SourceFile(Path("example.ipynb"), source, code, None)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.id)
def test_needles_never_hide_a_finding_across_cells(
    rule: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nbmodernizer.fixers.rules.model import Rule

    assert isinstance(rule, Rule)
    for example in rule.examples:
        _both(_one_statement_a_cell(example.before), monkeypatch)
