"""The fleet's page: one static HTML page for many modernizations (`nbmod fleet report`).

The paper's table (modernizations per outcome category), the reproduced rate, fixes by fixer,
cost in total and per reproduced notebook, a histogram of iterations, the most common
remaining errors, and one row per modernization linking to its report.

`render_fleet` is pure: the resources as the API lists them in, one self-contained page out,
in the report's style (`report.page`: inline CSS and SVG, no JavaScript, nothing fetched).
The counts are `fleet.summarize`'s, the numbers `nbmod fleet summary` prints. Everything
taken from a resource is escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from nbmodernizer.fleet import FleetSummary, summarize
from nbmodernizer.report import badge, escape, format_score, format_usd, page
from nbmodernizer.status import Outcome

Link = Callable[[dict[str, Any]], str | None]  # resource -> href of its report, if any

COLOURS = {
    Outcome.ERROR_FREE_REPRODUCIBLE.value: "#1a7f37",
    Outcome.ERROR_REPRODUCIBLE.value: "#bf8700",
    Outcome.ERROR_FREE_NON_REPRODUCIBLE.value: "#fb8500",
    Outcome.ERROR_NON_REPRODUCIBLE.value: "#cf222e",
    Outcome.FAILED.value: "#82071e",
}
UNFINISHED = "(not finished)"
UNFINISHED_COLOUR = "#8c959f"

_STYLE = """
.headline { font-size: 1.1rem; }
.headline strong { font-size: 1.6rem; color: #1a7f37; }
span.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px;
              vertical-align: middle; margin-right: .4rem; }
table.outcomes, table.fixes, table.errors { width: auto; min-width: 28rem; }
tr.total td { font-weight: 600; }
svg.bar, svg.histogram { border: 1px solid #d0d7de; border-radius: 6px; background: #fff;
                         margin: .5rem 0; }
svg.histogram rect { fill: #0969da; }
svg text { font-size: 10px; fill: #57606a; }
td.error { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
"""

# Histogram geometry, in SVG user units (as the report's score plot).
_WIDTH, _HEIGHT = 520.0, 200.0
_LEFT, _RIGHT, _TOP, _BOTTOM = 40.0, 12.0, 12.0, 34.0


@dataclass(frozen=True)
class Row:
    """One modernization as the page shows it."""

    namespace: str
    name: str
    phase: str
    outcome: Outcome | None
    metric: str | None
    score: float | None
    target: float | None
    iterations: int
    cost_usd: float
    link: str | None

    @classmethod
    def of(cls, resource: dict[str, Any], link: Link) -> Row:
        meta = resource.get("metadata") or {}
        status = resource.get("status") or {}
        score = status.get("score") or {}
        aim = (resource.get("spec") or {}).get("score") or {}  # before a grade: the spec's
        outcome = status.get("outcome")
        return cls(
            namespace=str(meta.get("namespace") or ""),
            name=str(meta.get("name") or ""),
            phase=str(status.get("phase") or "Pending"),
            outcome=Outcome(outcome) if outcome in COLOURS else None,
            metric=score.get("metric") or aim.get("metric"),
            score=score.get("value"),
            target=score.get("target", aim.get("target")),
            iterations=int(status.get("iterations") or 0),
            cost_usd=float((status.get("cost") or {}).get("usd") or 0),
            link=link(resource),
        )


def _share(count: int, total: int) -> str:
    return f"{100 * count / total:.1f}%" if total else "—"


def _headline(summary: FleetSummary, scope: str, generated: str) -> str:
    finished = summary.total - summary.unfinished
    of_finished = (
        f" ({_share(summary.reproduced, finished)} of the {finished} finished)"
        if summary.unfinished and finished
        else ""
    )
    per = _per_reproduced(summary)
    return (
        f"<h1>Notebook modernization fleet: {escape(scope)}</h1>\n"
        f'<p class="headline">Reproduced: <strong>{_share(summary.reproduced, summary.total)}'
        f"</strong> — {summary.reproduced} of {summary.total} notebooks{escape(of_finished)}; "
        f"LLM cost {escape(format_usd(summary.cost_usd))}, {escape(per)} per reproduced "
        f"notebook.</p>\n"
        f'<p class="muted">Generated {escape(generated)}.</p>'
    )


def _outcomes(summary: FleetSummary) -> str:
    rows = []
    counts = [(o.value, summary.outcomes[o.value], COLOURS[o.value]) for o in Outcome]
    counts.append((UNFINISHED, summary.unfinished, UNFINISHED_COLOUR))
    for label, count, colour in counts:
        rows.append(
            f'<tr><td><span class="swatch" style="background:{colour}"></span>'
            f'{escape(label)}</td><td class="num">{count}</td>'
            f'<td class="num">{_share(count, summary.total)}</td></tr>'
        )
    rows.append(
        f'<tr class="total"><td>reproduced</td><td class="num">{summary.reproduced}</td>'
        f'<td class="num">{_share(summary.reproduced, summary.total)}</td></tr>'
    )
    rows.append(
        f'<tr class="total"><td>total</td><td class="num">{summary.total}</td><td></td></tr>'
    )
    return (
        '<table class="outcomes"><thead><tr><th>Outcome</th><th>Count</th><th>Share</th>'
        "</tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table>\n" + _bar(counts)
    )


def _bar(counts: Sequence[tuple[str, int, str]]) -> str:
    """The outcome shares as one stacked bar."""
    total = sum(count for _, count, _ in counts)
    width, height = 520.0, 28.0
    parts = [
        f'<svg class="bar" xmlns="http://www.w3.org/2000/svg" width="{width:g}" '
        f'height="{height:g}" viewBox="0 0 {width:g} {height:g}" role="img" '
        'aria-label="outcome shares">'
    ]
    x = 0.0
    for label, count, colour in counts:
        if not total or not count:
            continue
        span = width * count / total
        parts.append(
            f'<rect x="{x:.1f}" y="0" width="{span:.1f}" height="{height:g}" '
            f'style="fill:{colour}"><title>{escape(label)}: {count}</title></rect>'
        )
        x += span
    if not total:
        parts.append(f'<text x="{width / 2:g}" y="18" text-anchor="middle">no notebooks</text>')
    parts.append("</svg>")
    return "".join(parts)


def _fixes(summary: FleetSummary) -> str:
    if not summary.fixes:
        return '<p class="muted">No fix was applied.</p>'
    by_fixer: dict[str, int] = {}
    for (fixer, _), count in summary.fixes.items():
        by_fixer[fixer] = by_fixer.get(fixer, 0) + count
    rows = [
        f"<tr><td>{escape(fixer)}</td><td>{escape(kind)}</td><td class='num'>{count}</td></tr>"
        for (fixer, kind), count in sorted(summary.fixes.items())
    ]
    rows += [
        f"<tr class='total'><td>{escape(fixer)}</td><td>all</td><td class='num'>{count}</td></tr>"
        for fixer, count in sorted(by_fixer.items())
    ]
    return (
        '<table class="fixes"><thead><tr><th>Fixer</th><th>Fix type</th><th>Fixes</th></tr>'
        "</thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table>"
    )


def _per_reproduced(summary: FleetSummary) -> str:
    return format_usd(summary.cost_usd / summary.reproduced) if summary.reproduced else "—"


def _cost(summary: FleetSummary) -> str:
    items = [
        ("Total", format_usd(summary.cost_usd)),
        ("Per reproduced notebook", _per_reproduced(summary)),
        ("Input tokens", str(summary.input_tokens)),
        ("Output tokens", str(summary.output_tokens)),
    ]
    body = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in items)
    return f'<dl class="summary cost">{body}</dl>'


def _histogram(summary: FleetSummary) -> str:
    """Finished modernizations by how many executions they took."""
    if not summary.iterations:
        return '<p class="muted">No modernization has finished.</p>'
    top = max(summary.iterations)
    bins = list(range(min(1, min(summary.iterations)), top + 1))
    highest = max(summary.iterations.values())
    slot = (_WIDTH - _LEFT - _RIGHT) / len(bins)
    base = _HEIGHT - _BOTTOM
    parts = [
        f'<svg class="histogram" xmlns="http://www.w3.org/2000/svg" width="{_WIDTH:g}" '
        f'height="{_HEIGHT:g}" viewBox="0 0 {_WIDTH:g} {_HEIGHT:g}" role="img" '
        'aria-label="iterations histogram">',
        f'<line stroke="#57606a" x1="{_LEFT}" y1="{base}" x2="{_WIDTH - _RIGHT}" y2="{base}"/>',
        f'<text x="{_LEFT - 4}" y="{_TOP + 8}" text-anchor="end">{highest}</text>',
        f'<text x="{_LEFT - 4}" y="{base}" text-anchor="end">0</text>',
        f'<text x="{(_LEFT + _WIDTH - _RIGHT) / 2:.1f}" y="{_HEIGHT - 4}" '
        'text-anchor="middle">iterations (executions)</text>',
    ]
    for index, iterations in enumerate(bins):
        count = summary.iterations.get(iterations, 0)
        height = (base - _TOP) * count / highest
        x = _LEFT + index * slot
        centre = x + slot / 2
        parts.append(
            f'<rect x="{x + slot * 0.1:.1f}" y="{base - height:.1f}" width="{slot * 0.8:.1f}" '
            f'height="{height:.1f}"><title>{iterations} iterations: {count}</title></rect>'
            f'<text x="{centre:.1f}" y="{base + 13}" text-anchor="middle">{iterations}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _errors(summary: FleetSummary) -> str:
    errors = summary.most_common_errors()
    if not errors:
        return '<p class="muted">No finished modernization is left with an error.</p>'
    rows = "\n".join(
        f'<tr><td class="num">{count}</td><td class="error">{escape(error)}</td></tr>'
        for error, count in errors
    )
    return (
        '<table class="errors"><thead><tr><th>Notebooks</th><th>Error</th></tr></thead>'
        f"<tbody>\n{rows}\n</tbody></table>"
    )


def _row(row: Row, namespaces: bool) -> str:
    name = escape(row.name)
    link = f'<a href="{escape(row.link)}">{name}</a>' if row.link else name
    cells = [f'<td class="name">{link}</td>']
    if namespaces:
        cells.append(f"<td>{escape(row.namespace)}</td>")
    cells += [
        f"<td>{badge(row.outcome, row.phase)}</td>",
        f"<td>{escape(row.metric or '—')}</td>",
        f'<td class="num">{escape(format_score(row.score))}</td>',
        f'<td class="num">{escape(format_score(row.target))}</td>',
        f'<td class="num">{row.iterations}</td>',
        f'<td class="num">{escape(format_usd(row.cost_usd))}</td>',
    ]
    return '<tr class="notebook">' + "".join(cells) + "</tr>"


def _notebooks(rows: Sequence[Row]) -> str:
    if not rows:
        return '<p class="muted">No modernization here.</p>'
    namespaces = len({row.namespace for row in rows}) > 1
    headers = ["Notebook", *(["Namespace"] if namespaces else [])]
    headers += ["Outcome", "Metric", "Score", "Target", "Iterations", "Cost"]
    head = "".join(f"<th>{h}</th>" for h in headers)
    body = "\n".join(_row(row, namespaces) for row in rows)
    return (
        f'<table class="notebooks"><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>'
    )


def render_fleet(
    resources: Sequence[dict[str, Any]], scope: str, link: Link, generated: str
) -> str:
    """The fleet's page for `resources` (`scope`: what they are, e.g. `namespace team-a`)."""
    summary = summarize(list(resources))
    rows = sorted((Row.of(r, link) for r in resources), key=lambda r: (r.namespace, r.name))
    sections = [
        _headline(summary, scope, generated),
        "<h2>Outcomes</h2>",
        _outcomes(summary),
        "<h2>Fixes</h2>",
        _fixes(summary),
        "<h2>Cost</h2>",
        _cost(summary),
        "<h2>Iterations</h2>",
        _histogram(summary),
        "<h2>Most common remaining errors</h2>",
        _errors(summary),
        f"<h2>Notebooks ({len(rows)})</h2>",
        _notebooks(rows),
    ]
    return page(f"{scope} — notebook modernization fleet", "\n".join(sections), _STYLE)
