"""The HTML report: summary, score plot, revision table, fixes and the cell diff."""

from __future__ import annotations

import re
from typing import Any

import nbformat
import pytest

from nbmodernizer.report import render_html
from nbmodernizer.spec import Metric
from nbmodernizer.status import (
    CellChange,
    CellSimilarity,
    CostSummary,
    Fidelity,
    FixRecord,
    FixType,
    Issue,
    ModernizationStatus,
    Outcome,
    Phase,
    RevisionRecord,
    RiskFlag,
    ScoreSummary,
)

# nbformat's v4 helpers are untyped; reach them through Any.
NBV4: Any = nbformat.v4
FROM_DICT: Any = nbformat.from_dict


def notebook(*sources: str) -> Any:
    nb = NBV4.new_notebook()
    nb.cells = [NBV4.new_code_cell(source) for source in sources]
    return nb


def revision(iteration: int, score: float | None, **kwargs: Any) -> RevisionRecord:
    return RevisionRecord(
        iteration=iteration, uri=f"s3://b/rev-{iteration}.ipynb", score=score, **kwargs
    )


def make_status(
    revisions: list[RevisionRecord],
    outcome: Outcome | None = Outcome.ERROR_FREE_REPRODUCIBLE,
    fixes: list[FixRecord] | None = None,
    target: float = 0.8,
    **kwargs: Any,
) -> ModernizationStatus:
    scores = [r.score for r in revisions if r.score is not None]
    return ModernizationStatus(
        phase=Phase.SUCCEEDED if outcome else Phase.RUNNING,
        outcome=outcome,
        iterations=len(revisions),
        score=ScoreSummary(
            metric=Metric.ACCURACY, target=target, value=max(scores, default=None), reproduced=True
        ),
        revisions=revisions,
        fixes=fixes or [],
        **kwargs,
    )


def svg_of(page: str) -> str:
    match = re.search(r"<svg\b.*?</svg>", page, re.S)
    assert match, "no inline SVG in the report"
    return match.group(0)


def diff_lines(page: str, css: str) -> list[str]:
    tag = "ins" if css == "add" else "del"
    return re.findall(rf'<{tag} class="{css}">(.*?)</{tag}>', page, re.S)


ORIGINAL = notebook(
    "import pandas as pd",
    "from sklearn.cross_validation import train_test_split\nX = load()",
    "print('old cell')",
    "model.fit(X)",
)
FINAL = notebook(
    "import pandas as pd",
    "from sklearn.model_selection import train_test_split\nX = load()",
    "model.fit(X)",
    "print('new cell')",
)


@pytest.fixture
def full_status() -> ModernizationStatus:
    fix = FixRecord(
        iteration=1,
        issue=Issue.ERROR,
        type=FixType.ERROR_REPAIR,
        fixer="rules",
        summary="sklearn.cross_validation moved to sklearn.model_selection",
        changes=[CellChange(index=1, kind="modified", before="a", after="b")],
        cost=CostSummary(usd=0.0031, input_tokens=120, output_tokens=45),
    )
    return make_status(
        [
            revision(0, None, issue=Issue.ERROR, outcome=Outcome.ERROR_NON_REPRODUCIBLE),
            revision(1, 0.79, issue=Issue.NONE, outcome=Outcome.ERROR_FREE_REPRODUCIBLE),
            revision(2, 0.81, duration_seconds=75.0),
        ],
        fixes=[fix],
        message="reproduced after 1 fix",
        stop_reason="score reproduced",
        cost=CostSummary(usd=0.0031, input_tokens=120, output_tokens=45),
    )


def test_summary_shows_outcome_badge_score_and_cost(full_status: ModernizationStatus) -> None:
    page = render_html(full_status, "titanic-rf", ORIGINAL, FINAL, 0.1)
    assert page.startswith("<!DOCTYPE html>")
    assert re.search(r'<h1>titanic-rf <span class="badge good outcome">ErrorFreeReproducible', page)
    assert "reproduced after 1 fix" in page
    assert "score reproduced" in page
    assert "<dt>Metric</dt><dd>accuracy</dd>" in page
    assert "<dt>Best value</dt><dd>0.81</dd>" in page
    assert "<dt>Reproduced</dt><dd>yes</dd>" in page
    assert "$0.0031" in page
    assert "120 in / 45 out" in page


@pytest.mark.parametrize(
    ("outcome", "css"),
    [
        (Outcome.ERROR_FREE_REPRODUCIBLE, "good"),
        (Outcome.ERROR_REPRODUCIBLE, "partial"),
        (Outcome.ERROR_FREE_NON_REPRODUCIBLE, "bad"),
        (Outcome.ERROR_NON_REPRODUCIBLE, "bad"),
        (Outcome.FAILED, "bad"),
    ],
)
def test_badge_colour_follows_outcome(outcome: Outcome, css: str) -> None:
    page = render_html(make_status([], outcome=outcome), "nb", ORIGINAL, ORIGINAL, 0.1)
    assert f'<span class="badge {css} outcome">{outcome.value}</span>' in page


def test_page_is_self_contained(full_status: ModernizationStatus) -> None:
    page = render_html(full_status, "nb", ORIGINAL, FINAL, 0.1)
    assert "<script" not in page.lower()
    assert "<link" not in page.lower()
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page
    assert "<style>" in page


def test_plot_has_one_circle_per_scored_revision_and_target_line(
    full_status: ModernizationStatus,
) -> None:
    svg = svg_of(render_html(full_status, "nb", ORIGINAL, FINAL, 0.1))
    assert len(re.findall(r'<circle class="point"', svg)) == 2
    assert len(re.findall(r'class="noscore"', svg)) == 1
    assert "revision 0: no score" in svg
    target = re.search(
        r'<line class="target" x1="[\d.]+" y1="([\d.]+)" x2="[\d.]+" y2="([\d.]+)"', svg
    )
    assert target and target.group(1) == target.group(2)
    assert '<rect class="band"' in svg
    # The target 0.8 lies between the two scores on screen: 0.79 below it, 0.81 above it
    # (SVG y grows downwards).
    ys = [float(y) for y in re.findall(r'<circle class="point" cx="[\d.]+" cy="([\d.]+)"', svg)]
    assert ys[0] > float(target.group(1)) > ys[1]


def test_band_spans_tolerance_around_target() -> None:
    status = make_status([revision(0, 1.0), revision(1, 3.0)], target=2.0)
    svg = svg_of(render_html(status, "nb", ORIGINAL, ORIGINAL, 0.25))
    band = re.search(
        r'<rect class="band" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"', svg
    )
    line = re.search(r'<line class="target" x1="[\d.]+" y1="([\d.]+)"', svg)
    points = re.findall(r'<circle class="point" cx="[\d.]+" cy="([\d.]+)"', svg)
    assert band and line and len(points) == 2
    # Scores 1 and 3 are 2 units apart; the band 1.5..2.5 is 1 unit: half their distance.
    span = float(points[0]) - float(points[1])
    assert float(band.group(2)) == pytest.approx(span / 2, abs=0.2)
    assert float(band.group(1)) + float(band.group(2)) / 2 == pytest.approx(
        float(line.group(1)), abs=0.2
    )


def test_zero_revisions_render() -> None:
    page = render_html(make_status([], outcome=None), "empty", ORIGINAL, ORIGINAL, 0.1)
    svg = svg_of(page)
    assert "<circle" not in svg
    assert "no revisions" in svg
    assert "No revision was executed." in page
    assert "No fix was applied." in page
    assert '<span class="badge neutral">Running</span>' in page
    assert "nan" not in svg.lower()


def test_single_revision_renders() -> None:
    svg = svg_of(render_html(make_status([revision(0, 0.8)]), "one", ORIGINAL, ORIGINAL, 0.0))
    assert len(re.findall(r'<circle class="point"', svg)) == 1
    assert "nan" not in svg.lower() and "inf" not in svg.lower()


def test_all_none_scores_render() -> None:
    status = make_status([revision(0, None), revision(1, None), revision(2, None)])
    page = render_html(status, "nb", ORIGINAL, FINAL, 0.1)
    svg = svg_of(page)
    assert "<circle" not in svg
    assert svg.count('class="noscore"') == 3
    assert svg.count("no score</title>") == 3
    assert "<dt>Best value</dt><dd>—</dd>" in page
    assert "nan" not in svg.lower()


def test_all_none_scores_without_score_summary_render() -> None:
    status = ModernizationStatus(
        phase=Phase.FAILED, outcome=Outcome.FAILED, revisions=[revision(0, None)]
    )
    svg = svg_of(render_html(status, "nb", ORIGINAL, ORIGINAL, 0.1))
    assert 'class="target"' not in svg and 'class="noscore"' in svg


def test_revision_table_has_one_row_per_revision(full_status: ModernizationStatus) -> None:
    page = render_html(full_status, "nb", ORIGINAL, FINAL, 0.1)
    table = re.search(r'<table class="revisions">.*?</table>', page, re.S)
    assert table
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(0), re.S)
    assert len(rows) == 1 + 3  # header + revisions
    assert "Error" in rows[1] and "ErrorNonReproducible" in rows[1]
    assert "0.79" in rows[2] and "ErrorFreeReproducible" in rows[2]
    assert "1m 15s" in rows[3]


def table_rows(page: str) -> list[str]:
    table = re.search(r'<table class="revisions">.*?</table>', page, re.S)
    assert table
    return re.findall(r"<tr>(.*?)</tr>", table.group(0), re.S)


def test_no_fidelity_column_without_fidelity(full_status: ModernizationStatus) -> None:
    page = render_html(full_status, "nb", ORIGINAL, FINAL, 0.1)
    assert "Fidelity" not in table_rows(page)[0]
    assert 'class="flags"' not in page and "no-flags" not in page


def fidelity_status() -> ModernizationStatus:
    flagged = Fidelity(
        similarity=0.8771,
        cells=[CellSimilarity(index=3, similarity=0.5)],
        flags=[
            RiskFlag(kind="fewer-estimators", cell=3, detail="n_estimators 500 → 50"),
            RiskFlag(kind="cell-removed", cell=2, detail="original cell 2 removed: df.dropna()"),
        ],
    )
    return make_status(
        [
            revision(0, 0.7, fidelity=Fidelity(similarity=1.0)),
            revision(1, 0.75),  # recorded before fidelity existed
            revision(2, 0.8, fidelity=Fidelity(similarity=0.99996)),
            revision(3, 0.81, fidelity=flagged),
        ]
    )


def test_fidelity_column_shows_similarity_as_percentage() -> None:
    rows = table_rows(render_html(fidelity_status(), "nb", ORIGINAL, FINAL, 0.1))
    assert len(rows) == 1 + 4
    assert rows[0].endswith("<th>Fidelity</th>")
    assert rows[1].endswith('<td class="num fidelity">100.0%</td>')
    assert rows[2].endswith('<td class="num fidelity">—</td>')
    # changed code never shows as 100%
    assert rows[3].endswith('<td class="num fidelity">&gt;99.9%</td>')
    assert '<td class="num fidelity flagged">87.7% ' in rows[4]
    assert "2 flags" in rows[4]


def test_flags_are_listed_per_revision_and_highlighted() -> None:
    page = render_html(fidelity_status(), "nb", ORIGINAL, FINAL, 0.1)
    sections = re.findall(r'<section class="flags">(.*?)</section>', page, re.S)
    assert len(sections) == 1  # only revision 3 has flags
    assert "Revision 3: 87.7% similar to the original" in sections[0]
    items = re.findall(r'<li class="flag">(.*?)</li>', sections[0], re.S)
    assert items == [
        '<code class="kind">fewer-estimators</code> cell 3: n_estimators 500 → 50',
        '<code class="kind">cell-removed</code>: original cell 2 removed: df.dropna()',
    ]
    assert "section.flags {" in page  # highlighted by the page's own style
    assert "No change was flagged" not in page
    # the flags come right after the revisions table, before the fixes
    assert page.index('<table class="revisions">') < page.index('<section class="flags">')
    assert page.index('<section class="flags">') < page.index("<h2>Fixes</h2>")


def test_fidelity_without_flags_says_so() -> None:
    status = make_status([revision(0, 0.8, fidelity=Fidelity(similarity=0.95))])
    page = render_html(status, "nb", ORIGINAL, FINAL, 0.1)
    assert table_rows(page)[1].endswith('<td class="num fidelity">95.0%</td>')
    assert '<p class="muted no-flags">No change was flagged' in page
    assert '<section class="flags">' not in page


def test_flag_details_are_escaped() -> None:
    evil = "<script>alert('x')</script>"
    fidelity = Fidelity(similarity=0.5, flags=[RiskFlag(kind=evil, cell=1, detail=evil)])
    page = render_html(
        make_status([revision(1, 0.8, fidelity=fidelity)]), "nb", ORIGINAL, FINAL, 0.1
    )
    assert "<script>" not in page
    assert page.count("&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;") == 2


def test_fix_section(full_status: ModernizationStatus) -> None:
    page = render_html(full_status, "nb", ORIGINAL, FINAL, 0.1)
    sections = re.findall(r'<section class="fix">(.*?)</section>', page, re.S)
    assert len(sections) == 1
    assert "Iteration 1: Error → ErrorRepair by rules" in sections[0]
    assert "sklearn.cross_validation moved to sklearn.model_selection" in sections[0]
    assert "120 input / 45 output tokens" in sections[0]
    assert "$0.0031" in sections[0]
    assert "cell 1 modified" in sections[0]


def test_modified_cell_lines_in_diff_with_classes(full_status: ModernizationStatus) -> None:
    page = render_html(full_status, "nb", ORIGINAL, FINAL, 0.1)
    assert "+from sklearn.model_selection import train_test_split" in diff_lines(page, "add")
    assert "-from sklearn.cross_validation import train_test_split" in diff_lines(page, "del")
    assert '<span class="ctx"> X = load()</span>' in page
    assert "cell 1 modified" in page


def test_added_and_removed_cells_are_reported(full_status: ModernizationStatus) -> None:
    page = render_html(full_status, "nb", ORIGINAL, FINAL, 0.1)
    assert "original cell 2 removed" in page  # print('old cell') was cell 2 of the original
    assert "cell 3 added" in page  # print('new cell') is cell 3 of the final notebook
    assert "-print(&#x27;old cell&#x27;)" in diff_lines(page, "del")
    assert "+print(&#x27;new cell&#x27;)" in diff_lines(page, "add")
    # model.fit(X) moved from 3 to 2 but its source is the same: not a change.
    assert "cell 0 unchanged" in page
    assert "cell 2 unchanged (was cell 3)" in page
    assert "model.fit" not in "".join(diff_lines(page, "add") + diff_lines(page, "del"))


def test_unchanged_notebook_says_so(full_status: ModernizationStatus) -> None:
    page = render_html(
        full_status, "nb", ORIGINAL, notebook(*(c.source for c in ORIGINAL.cells)), 0.1
    )
    assert "The final revision is the original notebook." in page
    assert "<ins" not in page and "<del" not in page


def test_untrusted_text_is_escaped() -> None:
    evil = "<script>alert('x')</script>"
    status = make_status(
        [revision(0, None, fixer=evil)],
        fixes=[
            FixRecord(
                iteration=1, issue=Issue.ERROR, type=FixType.ERROR_REPAIR, fixer=evil, summary=evil
            )
        ],
        message=evil,
        stop_reason=evil,
        last_error=evil,
    )
    page = render_html(
        status, f"name{evil}", notebook("x = 1"), notebook(f"x = 1  # {evil}", evil), 0.1
    )
    assert "<script>" not in page
    assert "</script>" not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert "+&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in diff_lines(page, "add")


def test_list_sources_are_joined() -> None:
    original = notebook("a = 1\nb = 2")
    final = FROM_DICT(
        {
            "nbformat": 4,
            "nbformat_minor": 5,
            "metadata": {},
            "cells": [
                {
                    "cell_type": "code",
                    "id": "c0",
                    "metadata": {},
                    "execution_count": None,
                    "outputs": [],
                    "source": ["a = 1\n", "b = 3"],
                }
            ],
        }
    )
    page = render_html(make_status([]), "nb", original, final, 0.1)
    assert diff_lines(page, "del") == ["-b = 2"]
    assert diff_lines(page, "add") == ["+b = 3"]


def test_empty_added_cell_is_still_reported() -> None:
    page = render_html(make_status([]), "nb", notebook("a = 1"), notebook("a = 1", ""), 0.1)
    assert "cell 1 added" in page
    assert "The final revision is the original notebook." not in page
