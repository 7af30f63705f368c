"""The HTML report of one modernization: outcome, score per iteration, fixes and the cell diff.

When the revisions carry a fidelity (how close each stayed to the original), the revisions table
gets a fidelity column and the risky changes of each revision are listed under it.

`render_html` is pure: it takes the status object and both notebooks and returns one
self-contained page (inline CSS and SVG, no JavaScript, nothing fetched). Everything that comes
from a notebook, a fixer or an error message is untrusted and goes through `html.escape`.
"""

from __future__ import annotations

import difflib
import html
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from nbmodernizer.notebook import Notebook, cell_sources
from nbmodernizer.status import (
    CellFidelity,
    Fidelity,
    FixRecord,
    ModernizationStatus,
    OracleReport,
    Outcome,
    RevisionRecord,
    RiskFlag,
)

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto;
       max-width: 1100px; color: #1f2328; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .3rem; }
h2 { font-size: 1.2rem; border-bottom: 1px solid #d0d7de; padding-bottom: .2rem; margin-top: 2rem; }
.badge { display: inline-block; padding: .15rem .6rem; border-radius: 1rem; font-weight: 600;
         font-size: .9rem; color: #fff; vertical-align: middle; }
.badge.good { background: #1a7f37; }
.badge.partial { background: #bf8700; }
.badge.bad { background: #cf222e; }
.badge.neutral { background: #6e7781; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: .2rem 1rem; }
dl.summary dt { font-weight: 600; }
dl.summary dd { margin: 0; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { border: 1px solid #d0d7de; padding: .25rem .5rem; text-align: left; }
th { background: #f6f8fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.fidelity.flagged { background: #fff8c5; }
tr.diverges td { background: #ffebe9; }
tr.first td { font-weight: 600; }
.flag-count { color: #9a6700; font-weight: 600; }
section.flags { border: 1px solid #d4a72c; border-radius: 6px; background: #fff8c5;
                padding: .3rem 1rem; margin: .6rem 0; }
section.flags h3 { font-size: 1rem; margin: .2rem 0; }
section.flags ul { margin: .2rem 0; padding-left: 1.2rem; }
li.flag code.kind { font-weight: 600; color: #9a6700; }
section.fix { border: 1px solid #d0d7de; border-radius: 6px; padding: .5rem 1rem; margin: .6rem 0; }
section.fix h3 { font-size: 1rem; margin: .2rem 0; }
.muted { color: #6e7781; }
pre { background: #f6f8fa; padding: .5rem; overflow-x: auto; font-size: .85rem; }
pre.diff { line-height: 1.35; }
pre.diff ins, pre.diff del, pre.diff span { display: block; text-decoration: none; }
pre.diff ins.add { background: #dafbe1; }
pre.diff del.del { background: #ffebe9; }
pre.diff span.hunk { color: #8250df; }
pre.diff span.hdr { color: #6e7781; }
p.unchanged { margin: .15rem 0; color: #6e7781; font-size: .85rem; }
svg.plot { border: 1px solid #d0d7de; border-radius: 6px; background: #fff; }
svg.plot .band { fill: #1a7f37; fill-opacity: .12; }
svg.plot .target { stroke: #1a7f37; stroke-dasharray: 4 3; }
svg.plot .line { fill: none; stroke: #0969da; stroke-width: 1.5; }
svg.plot .point { fill: #0969da; }
svg.plot .noscore { fill: none; stroke: #cf222e; stroke-width: 1.5; }
svg.plot .axis { stroke: #57606a; }
svg.plot text { font-size: 10px; fill: #57606a; }
"""

_OUTCOME_CLASS = {
    Outcome.ERROR_FREE_REPRODUCIBLE: "good",
    Outcome.ERROR_REPRODUCIBLE: "partial",
}

# Plot geometry, in SVG user units.
_WIDTH, _HEIGHT = 520.0, 220.0
_LEFT, _RIGHT, _TOP, _BOTTOM = 56.0, 16.0, 14.0, 34.0


def escape(value: object) -> str:
    return html.escape(str(value), quote=True)


def format_score(value: float | None) -> str:
    return "—" if value is None else f"{value:.6g}"


def _fmt_duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}m {rest:02d}s"


def format_usd(usd: float) -> str:
    return f"${usd:.4f}"


def _opt(value: object | None) -> str:
    return "—" if value is None else escape(value)


# ---------------------------------------------------------------- summary


def badge(outcome: Outcome | None, phase: str) -> str:
    """The outcome as a coloured badge; the phase while there is no outcome yet."""
    if outcome is None:
        return f'<span class="badge neutral">{escape(phase)}</span>'
    css = _OUTCOME_CLASS.get(outcome, "bad")
    return f'<span class="badge {css} outcome">{escape(outcome.value)}</span>'


def _summary_rows(status: ModernizationStatus) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = [("Phase", escape(status.phase.value))]
    if status.message:
        rows.append(("Message", escape(status.message)))
    if status.stop_reason:
        rows.append(("Stop reason", escape(status.stop_reason)))
    if status.last_error:
        rows.append(("Last error", f"<pre>{escape(status.last_error)}</pre>"))
    if status.score is not None:
        score = status.score
        rows.append(("Metric", escape(score.metric.value)))
        rows.append(("Target", escape(format_score(score.target))))
        rows.append(("Best value", escape(format_score(score.value))))
        rows.append(("Reproduced", "yes" if score.reproduced else "no"))
    if status.oracle is not None:
        rows.append(("Era score", _era_score(status.oracle)))
    rows.append(("Iterations", escape(status.iterations)))
    rows.append(("Best revision", _opt(status.best_revision)))
    cost = status.cost
    rows.append(("Cost", escape(format_usd(cost.usd))))
    rows.append(("Tokens", escape(f"{cost.input_tokens} in / {cost.output_tokens} out")))
    return rows


def _summary(status: ModernizationStatus, name: str) -> str:
    items = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in _summary_rows(status))
    heading = f"<h1>{escape(name)} {badge(status.outcome, status.phase.value)}</h1>"
    return f"{heading}\n<dl class='summary'>{items}</dl>"


# ---------------------------------------------------------------- plot


@dataclass(frozen=True)
class _Scale:
    lo: float
    hi: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        if self.hi == self.lo:
            return (self.start + self.end) / 2
        return self.start + (value - self.lo) / (self.hi - self.lo) * (self.end - self.start)


def _y_range(
    scores: Sequence[float], target: float | None, tolerance: float
) -> tuple[float, float]:
    values = list(scores)
    if target is not None:
        band = tolerance * abs(target)
        values += [target - band, target + band]
    if not values:
        return 0.0, 1.0
    lo, hi = min(values), max(values)
    pad = (hi - lo) * 0.08 or max(abs(hi) * 0.1, 0.5)
    return lo - pad, hi + pad


def _plot_scales(
    revisions: Sequence[RevisionRecord], target: float | None, tolerance: float
) -> tuple[_Scale, _Scale]:
    iterations = [r.iteration for r in revisions] or [0]
    scores = [r.score for r in revisions if r.score is not None and math.isfinite(r.score)]
    lo, hi = _y_range(scores, target, tolerance)
    xs = _Scale(min(iterations), max(iterations), _LEFT + 12, _WIDTH - _RIGHT - 12)
    ys = _Scale(lo, hi, _HEIGHT - _BOTTOM, _TOP)
    return xs, ys


def _target_marks(target: float, tolerance: float, ys: _Scale) -> str:
    band = tolerance * abs(target)
    top, bottom = ys(target + band), ys(target - band)
    y = ys(target)
    width = _WIDTH - _RIGHT - _LEFT
    return (
        f'<rect class="band" x="{_LEFT:.1f}" y="{top:.1f}" width="{width:.1f}" '
        f'height="{max(bottom - top, 0.0):.1f}"><title>target ± {escape(f"{tolerance:g}")}·|target|'
        "</title></rect>"
        f'<line class="target" x1="{_LEFT:.1f}" y1="{y:.1f}" x2="{_WIDTH - _RIGHT:.1f}" '
        f'y2="{y:.1f}"><title>target {escape(format_score(target))}</title></line>'
        f'<text x="{_WIDTH - _RIGHT - 2:.1f}" y="{y - 3:.1f}" text-anchor="end">'
        f"target {escape(format_score(target))}</text>"
    )


def _point(revision: RevisionRecord, xs: _Scale, ys: _Scale) -> str:
    x = xs(revision.iteration)
    if revision.score is None or not math.isfinite(revision.score):
        y = _HEIGHT - _BOTTOM - 6
        return (
            f'<path class="noscore" d="M{x - 4:.1f},{y - 4:.1f}L{x + 4:.1f},{y + 4:.1f}'
            f'M{x - 4:.1f},{y + 4:.1f}L{x + 4:.1f},{y - 4:.1f}">'
            f"<title>revision {revision.iteration}: no score</title></path>"
        )
    label = f"revision {revision.iteration}: {format_score(revision.score)}"
    return (
        f'<circle class="point" cx="{x:.1f}" cy="{ys(revision.score):.1f}" r="4">'
        f"<title>{escape(label)}</title></circle>"
    )


def _axes(revisions: Sequence[RevisionRecord], xs: _Scale, ys: _Scale) -> str:
    base = _HEIGHT - _BOTTOM
    parts = [
        f'<line class="axis" x1="{_LEFT}" y1="{base}" x2="{_WIDTH - _RIGHT}" y2="{base}"/>',
        f'<line class="axis" x1="{_LEFT}" y1="{_TOP}" x2="{_LEFT}" y2="{base}"/>',
        f'<text x="{(_LEFT + _WIDTH - _RIGHT) / 2:.1f}" y="{_HEIGHT - 4}" '
        'text-anchor="middle">iteration</text>',
    ]
    for value in (ys.lo, ys.hi):
        parts.append(
            f'<text x="{_LEFT - 4}" y="{ys(value) + 3:.1f}" text-anchor="end">'
            f"{escape(f'{value:.4g}')}</text>"
        )
    for iteration in sorted({r.iteration for r in revisions}):
        parts.append(
            f'<text x="{xs(iteration):.1f}" y="{base + 13}" text-anchor="middle">{iteration}</text>'
        )
    return "".join(parts)


def _score_svg(status: ModernizationStatus, tolerance: float) -> str:
    revisions = sorted(status.revisions, key=lambda r: r.iteration)
    target = status.score.target if status.score is not None else None
    if target is not None and not math.isfinite(target):
        target = None
    xs, ys = _plot_scales(revisions, target, tolerance)
    parts = [
        f'<svg class="plot" xmlns="http://www.w3.org/2000/svg" width="{_WIDTH:g}" '
        f'height="{_HEIGHT:g}" viewBox="0 0 {_WIDTH:g} {_HEIGHT:g}" role="img" '
        'aria-label="score per iteration">'
    ]
    if target is not None:
        parts.append(_target_marks(target, tolerance, ys))
    parts.append(_axes(revisions, xs, ys))
    scored = [
        (xs(r.iteration), ys(r.score))
        for r in revisions
        if r.score is not None and math.isfinite(r.score)
    ]
    if len(scored) > 1:
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in scored)
        parts.append(f'<polyline class="line" points="{points}"/>')
    parts.extend(_point(r, xs, ys) for r in revisions)
    if not revisions:
        parts.append(
            f'<text x="{_WIDTH / 2:g}" y="{_HEIGHT / 2:g}" text-anchor="middle">no revisions</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


# ---------------------------------------------------------------- revisions and fixes


def _fmt_similarity(similarity: float) -> str:
    text = f"{similarity:.1%}"
    return ">99.9%" if similarity < 1 and text == "100.0%" else text


def _fidelity_cell(fidelity: Fidelity | None) -> str:
    if fidelity is None:
        return '<td class="num fidelity">—</td>'
    text = escape(_fmt_similarity(fidelity.similarity))
    if not fidelity.flags:
        return f'<td class="num fidelity">{text}</td>'
    count = len(fidelity.flags)
    label = f"{count} flag{'s' if count != 1 else ''}"
    return f'<td class="num fidelity flagged">{text} <span class="flag-count">⚑ {label}</span></td>'


def _score_cell(revision: RevisionRecord) -> str:
    """The score; with several runs, the mean over as many runs, each run's on hover."""
    shown = escape(format_score(revision.score))
    if not revision.scores:
        return shown
    runs = ", ".join(format_score(value) for value in revision.scores)
    title = escape(f"runs: {runs}" + (f"; {revision.evidence}" if revision.evidence else ""))
    return f'<span title="{title}">{shown} <small>({len(revision.scores)} runs)</small></span>'


def _revision_row(revision: RevisionRecord, fidelity: bool) -> str:
    cells = [
        f'<td class="num">{revision.iteration}</td>',
        f"<td>{_opt(revision.issue)}</td>",
        f"<td>{_opt(revision.outcome)}</td>",
        f"<td>{_opt(revision.fix_type)}</td>",
        f"<td>{_opt(revision.fixer)}</td>",
        f'<td class="num">{_score_cell(revision)}</td>',
        f'<td class="num">{escape(_fmt_duration(revision.duration_seconds))}</td>',
    ]
    if fidelity:
        cells.append(_fidelity_cell(revision.fidelity))
    return "<tr>" + "".join(cells) + "</tr>"


def _revisions_table(revisions: Sequence[RevisionRecord]) -> str:
    if not revisions:
        return '<p class="muted">No revision was executed.</p>'
    fidelity = any(r.fidelity is not None for r in revisions)
    headers = ["Iteration", "Issue", "Outcome", "Fix type", "Fixer", "Score", "Duration"]
    if fidelity:
        headers.append("Fidelity")
    head = "".join(f"<th>{h}</th>" for h in headers)
    ordered = sorted(revisions, key=lambda r: r.iteration)
    body = "\n".join(_revision_row(r, fidelity) for r in ordered)
    table = (
        f'<table class="revisions"><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>'
    )
    return table + (_fidelity_flags(ordered) if fidelity else "")


def _flag_item(flag: RiskFlag) -> str:
    # cell-removed names the original's cell in its detail; the others a revision cell
    where = "" if flag.cell is None or flag.kind == "cell-removed" else f" cell {flag.cell}"
    text = f": {escape(flag.detail)}" if flag.detail else ""
    return f'<li class="flag"><code class="kind">{escape(flag.kind)}</code>{where}{text}</li>'


def _fidelity_flags(revisions: Sequence[RevisionRecord]) -> str:
    """The risky changes of each revision: what may have changed what the notebook means."""
    sections = []
    for revision in revisions:
        fidelity = revision.fidelity
        if fidelity is None or not fidelity.flags:
            continue
        items = "".join(_flag_item(flag) for flag in fidelity.flags)
        similarity = escape(_fmt_similarity(fidelity.similarity))
        sections.append(
            f'<section class="flags"><h3>Revision {revision.iteration}: '
            f"{similarity} similar to the original</h3><ul>{items}</ul></section>"
        )
    if not sections:
        return '\n<p class="muted no-flags">No change was flagged as a risk to what it means.</p>'
    return "\n" + "\n".join(sections)


def _fix_section(fix: FixRecord) -> str:
    title = (
        f"Iteration {fix.iteration}: {escape(fix.issue.value)} → {escape(fix.type.value)} "
        f"by {escape(fix.fixer)}"
    )
    changes = ", ".join(f"cell {c.index} {escape(c.kind)}" for c in fix.changes)
    summary = escape(fix.summary) if fix.summary else '<span class="muted">(no summary)</span>'
    cost = (
        f"{fix.cost.input_tokens} input / {fix.cost.output_tokens} output tokens, "
        f"{escape(format_usd(fix.cost.usd))}"
    )
    lines = [f"<h3>{title}</h3>", f'<p class="fix-summary">{summary}</p>']
    if changes:
        lines.append(f'<p class="muted">Changes: {changes}</p>')
    lines.append(f'<p class="muted">{cost}</p>')
    return '<section class="fix">' + "".join(lines) + "</section>"


def _fixes(fixes: Sequence[FixRecord]) -> str:
    if not fixes:
        return '<p class="muted">No fix was applied.</p>'
    return "\n".join(_fix_section(f) for f in sorted(fixes, key=lambda f: f.iteration))


# ---------------------------------------------------------------- the differential run


def _era_score(oracle: OracleReport) -> str:
    version = f"Python {oracle.python_version}" if oracle.python_version else oracle.python
    versions = ", ".join(f"{name} {v}" for name, v in sorted(oracle.packages.items()))
    where = escape(f" ({version}{'; ' + versions if versions else ''})")
    if oracle.score is None:
        return f"—{where} <span class='muted'>{escape(oracle.score_reason or '')}</span>"
    return (
        escape(format_score(oracle.score)) + where + ("" if oracle.reproduced else " (off target)")
    )


def _oracle_section(oracle: OracleReport) -> str:
    """The era's run of the original against the compared revision's, cell by cell."""
    first = oracle.first_divergence
    revision = "—" if oracle.revision is None else str(oracle.revision)
    if first is not None:
        head = (
            f'<p class="oracle-first">First diverging cell: <strong>cell {first.cell}</strong> '
            f"(original cell {first.era_cell}), <code>{escape(first.name)}</code>: "
            f"{escape(first.difference)} "
            + (
                "(a cell the fixes rewrote)"
                if first.rewritten
                else "(a cell the fixes left as it was: the libraries drifted under it)"
            )
            + "</p>"
        )
    elif oracle.cells:
        head = '<p class="oracle-first">No cell diverges from the era.</p>'
    else:
        head = f'<p class="muted">{escape(oracle.note or "No cell was compared.")}</p>'
    intro = (
        f'<p class="muted">The original ran in {escape(oracle.python)}; revision '
        f"{escape(revision)} ran today. Cells are matched by position unless the fixes added "
        "or removed cells; each compares the values it bound.</p>"
    )
    if not oracle.cells:
        return intro + head
    rows = []
    for cell in oracle.cells:
        css = ["diverges"] if cell.fidelity is CellFidelity.DIVERGES else []
        if first is not None and cell.index == first.cell:
            css.append("first")
        rows.append(
            f'<tr class="{" ".join(css)}"><td class="num">{_opt(cell.index)}</td>'
            f'<td class="num">{_opt(cell.era_index)}</td><td>{escape(cell.fidelity.value)}</td>'
            f"<td>{'yes' if cell.rewritten else ''}</td><td>{escape(cell.detail)}</td></tr>"
        )
    table = (
        '<table class="oracle"><thead><tr><th>Cell</th><th>Original cell</th><th>Fidelity</th>'
        "<th>Rewritten</th><th>Detail</th></tr></thead><tbody>\n"
        + "\n".join(rows)
        + "\n</tbody></table>"
    )
    return intro + head + table


# ---------------------------------------------------------------- diff


def _diff_line(line: str) -> str:
    text = escape(line)
    if line.startswith(("+++", "---")):
        return f'<span class="hdr">{text}</span>'
    if line.startswith("@@"):
        return f'<span class="hunk">{text}</span>'
    if line.startswith("+"):
        return f'<ins class="add">{text}</ins>'
    if line.startswith("-"):
        return f'<del class="del">{text}</del>'
    return f'<span class="ctx">{text}</span>'


def _unified(before: str, after: str, from_label: str, to_label: str) -> str:
    lines = list(
        difflib.unified_diff(
            before.splitlines(),
            after.splitlines(),
            fromfile=from_label,
            tofile=to_label,
            lineterm="",
        )
    )
    if not lines:  # an empty cell, or only line endings differ
        return '<p class="muted">(no line differs: empty cell or line endings only)</p>'
    return '<pre class="diff">' + "".join(_diff_line(line) for line in lines) + "</pre>"


def _changed_cell(old: int | None, new: int | None, before: str, after: str) -> str:
    if old is None:
        heading, css = f"cell {new} added", "added"
    elif new is None:
        heading, css = f"original cell {old} removed", "removed"
    elif old == new:
        heading, css = f"cell {new} modified", "modified"
    else:
        heading, css = f"cell {new} modified (was cell {old})", "modified"
    from_label = "/dev/null" if old is None else f"original cell {old}"
    to_label = "/dev/null" if new is None else f"final cell {new}"
    body = _unified(before, after, from_label, to_label)
    return f'<div class="cell {css}"><h3>{escape(heading)}</h3>{body}</div>'


def _unchanged(old: int, new: int) -> str:
    moved = "" if old == new else f" (was cell {old})"
    return f'<p class="unchanged">cell {new} unchanged{moved}</p>'


def _opcode_blocks(old: Sequence[str], new: Sequence[str]) -> Iterable[tuple[bool, str]]:
    """(changed, html) for each cell of the final notebook and each removed original cell."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            yield from ((False, _unchanged(i1 + k, j1 + k)) for k in range(j2 - j1))
            continue
        paired = min(i2 - i1, j2 - j1)
        for k in range(paired):
            i, j = i1 + k, j1 + k
            if old[i] == new[j]:
                yield False, _unchanged(i, j)
            else:
                yield True, _changed_cell(i, j, old[i], new[j])
        for i in range(i1 + paired, i2):
            yield True, _changed_cell(i, None, old[i], "")
        for j in range(j1 + paired, j2):
            yield True, _changed_cell(None, j, "", new[j])


def _diff_section(original: Notebook, final: Notebook) -> str:
    old, new = cell_sources(original), cell_sources(final)
    blocks = list(_opcode_blocks(old, new))
    if not any(changed for changed, _ in blocks):
        return '<p class="no-change">The final revision is the original notebook.</p>'
    return "\n".join(block for _, block in blocks)


# ---------------------------------------------------------------- page


def render_html(
    status: ModernizationStatus,
    name: str,
    original: Notebook,
    final: Notebook,
    tolerance: float,
) -> str:
    """The whole report page for `name`: summary, score plot, revisions, fixes and cell diff."""
    sections = [
        _summary(status, name),
        "<h2>Score per iteration</h2>",
        _score_svg(status, tolerance),
        "<h2>Revisions</h2>",
        _revisions_table(status.revisions),
        "<h2>Fixes</h2>",
        _fixes(status.fixes),
        *(
            ["<h2>Differential run: the original in its era</h2>", _oracle_section(status.oracle)]
            if status.oracle is not None
            else []
        ),
        "<h2>Changes: original → final</h2>",
        _diff_section(original, final),
    ]
    return page(f"{name} — notebook modernization report", "\n".join(sections))


def page(title: str, body: str, style: str = "") -> str:
    """A self-contained page in the report's style (plus `style`): no script, nothing fetched."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n"
        f"<style>{_STYLE}{style}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
