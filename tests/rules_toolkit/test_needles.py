"""toolkit.needles: a rule's trigger names let a cell that mentions none of them go unparsed,
and never hide a finding: the same findings and rewrites with and without them, on every
rule's own examples and on the repository's notebooks."""

from __future__ import annotations

from pathlib import Path

import pytest

from nbmodernizer.fixers.rules import all_libraries, all_rules
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.fixer import notebook_context
from nbmodernizer.fixers.rules.toolkit import needles as needles_module
from nbmodernizer.fixers.rules.toolkit.cells import needles, read_cell
from nbmodernizer.fixers.rules.toolkit.needles import mentions, parts
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
