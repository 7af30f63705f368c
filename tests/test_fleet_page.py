"""The fleet's page (`nbmod fleet report`): what it says, and how a browser shows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from nbmodernizer.fleet_page import render_fleet
from nbmodernizer.report import page
from testing.browser import Elements, blank, dump_dom, screenshot

NAMESPACE = "team-a"


def resource(
    name: str,
    outcome: str | None,
    *,
    iterations: int = 1,
    value: float | None = 0.9,
    usd: float = 0.0,
    fixes: tuple[tuple[str, str], ...] = (),
    last_error: str | None = None,
    last_issue: str | None = None,
    report: str | None = None,
    namespace: str = NAMESPACE,
) -> dict[str, Any]:
    """A NotebookModernization as the API lists it, with the status the operator wrote."""
    status: dict[str, Any] = {
        "phase": "Running"
        if outcome is None
        else ("Failed" if outcome == "Failed" else "Succeeded"),
        "iterations": iterations,
        "cost": {"usd": usd, "inputTokens": int(usd * 1e5), "outputTokens": int(usd * 1e4)},
        "fixes": [{"fixer": fixer, "type": kind} for fixer, kind in fixes],
        "score": {"metric": "accuracy", "target": 0.9, "value": value, "reproduced": True},
    }
    for key, field in (("outcome", outcome), ("lastError", last_error), ("report", report)):
        if field is not None:
            status[key] = field
    if last_issue is not None:
        status["lastIssue"] = last_issue
    spec = {"score": {"metric": "accuracy", "target": 0.9}}
    return {"metadata": {"name": name, "namespace": namespace}, "spec": spec, "status": status}


def fleet() -> list[dict[str, Any]]:
    """Every outcome, an unfinished run, fixes by both fixers, remaining errors, and a name
    that needs escaping."""
    return [
        resource("titanic-2017", "ErrorFreeReproducible", fixes=(("rules", "ErrorRepair"),),
                 iterations=2, report="s3://b/runs/team-a/titanic-2017/report.html"),
        resource("house-prices", "ErrorFreeReproducible", iterations=3, usd=0.5,
                 fixes=(("rules", "ErrorRepair"), ("llm", "RuntimeReduction"))),
        resource("digits", "ErrorReproducible", iterations=2, usd=0.25,
                 fixes=(("llm", "ErrorRepair"),), last_issue="Reproducible"),
        resource("mnist-keras", "ErrorNonReproducible", iterations=4, value=None, usd=0.75,
                 last_issue="Error", last_error="cell 7: KeyError: 'label'"),
        resource("iris-knn", "ErrorNonReproducible", iterations=4, value=None,
                 last_issue="Error", last_error="cell 2: KeyError: 'label'"),
        resource("wine", "ErrorFreeNonReproducible", iterations=4, value=0.5,
                 last_issue="ScoreDeviation", last_error="accuracy 0.5 vs target 0.9"),
        resource("broken", "Failed", iterations=0, value=None,
                 last_error="spec.notebook: not found: s3://b/x.ipynb"),
        resource("<b>queued</b>", None, iterations=0, value=None),
    ]  # fmt: skip


def link_to_pulled(pulled: set[str]) -> Any:
    def link(item: dict[str, Any]) -> str | None:
        name = item["metadata"]["name"]
        if name in pulled:
            return f"{NAMESPACE}/{name}/report.html"
        report = item["status"].get("report")
        return str(report) if report else None

    return link


def test_the_page_has_the_papers_table_and_a_row_per_notebook() -> None:
    html = render_fleet(fleet(), f"namespace {NAMESPACE}", link_to_pulled({"digits"}), "now")
    elements = Elements(html)
    assert elements.count("tr", "notebook") == 8
    assert "Reproduced: <strong>37.5%</strong> — 3 of 8 notebooks (42.9% of the 7 finished)" in html
    assert 'ErrorNonReproducible</td><td class="num">2</td><td class="num">25.0%</td>' in html
    # remaining errors: counted without the cell number; a score gap is not an error
    assert '<td class="num">2</td><td class="error">KeyError: &#x27;label&#x27;</td>' in html
    assert "accuracy 0.5 vs target" not in html
    assert "spec.notebook: not found" in html
    # links: the pulled report, else the status URI, else none
    assert elements.hrefs() == [
        "team-a/digits/report.html",
        "s3://b/runs/team-a/titanic-2017/report.html",
    ]
    assert "&lt;b&gt;queued&lt;/b&gt;" in html and "<b>queued</b>" not in html
    assert "$1.5000" in html and "$0.5000" in html  # total, and per reproduced notebook
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")


def test_an_empty_fleet_says_so() -> None:
    html = render_fleet([], "namespace empty", lambda _: None, "now")
    assert "No modernization here." in html and "No modernization has finished." in html


def test_the_page_renders_in_chromium_and_its_links_resolve(tmp_path: Path) -> None:
    out = tmp_path / "fleet"
    for name in ("digits", "house-prices"):  # what `nbmod fleet pull` left
        report = out / NAMESPACE / name / "report.html"
        report.parent.mkdir(parents=True)
        report.write_text(page(name, f"<h1>{name}</h1>"), encoding="utf-8")
    index = out / "index.html"
    link = link_to_pulled({"digits", "house-prices"})
    index.write_text(render_fleet(fleet(), f"namespace {NAMESPACE}", link, "now"), "utf-8")

    png = screenshot(index, tmp_path / "fleet.png", tmp_path / "profile")
    assert not blank(png)
    rendered = Elements(dump_dom(index, tmp_path / "profile"))
    assert rendered.count("tr", "notebook") == len(fleet())
    assert rendered.count("svg", "histogram") == 1 and rendered.count("svg", "bar") == 1
    relative = [h for h in rendered.hrefs() if "://" not in h]
    assert sorted(relative) == ["team-a/digits/report.html", "team-a/house-prices/report.html"]
    assert all((out / href).is_file() for href in relative)
