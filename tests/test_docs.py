"""The documentation matches the tree: every relative link resolves, docs/architecture.md names
every top-level module of the package and nothing that does not exist, and the README stays
short."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "operator" / "nbmodernizer"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
LINKED = [
    ROOT / "README.md",
    ROOT / "CONTRIBUTING.md",
    ROOT / "benchmarks" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_CODE_SPAN = re.compile(r"`[^`\n]*`")  # `np.cast[t](a)` is code, not a link
_NAMED = re.compile(r"`((?:nbmodernizer|tests)/[\w/.]*)`")


def links(markdown: Path) -> list[str]:
    text = _CODE_SPAN.sub("", _FENCE.sub("", markdown.read_text(encoding="utf-8")))
    return [target for target in _LINK.findall(text) if "://" not in target]


def anchors(markdown: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes."""
    text = _FENCE.sub("", markdown.read_text(encoding="utf-8"))
    headings = re.findall(r"^#+ (.+)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("markdown", LINKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(markdown: Path) -> None:
    broken = []
    for target in links(markdown):
        path, _, anchor = target.partition("#")
        resolved = (markdown.parent / path).resolve() if path else markdown
        if not resolved.exists():
            broken.append(f"{target}: no {resolved.relative_to(ROOT)}")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {resolved.relative_to(ROOT)}")
    assert not broken, f"{markdown.relative_to(ROOT)}: broken links: {broken}"


def test_the_link_checker_sees_a_broken_link_and_anchor(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A heading\n[ok](#a-heading) [gone](missing.md) [bad](#nowhere)\n")
    assert links(page) == ["#a-heading", "missing.md", "#nowhere"]
    assert anchors(page) == {"a-heading"}


def top_level() -> set[str]:
    modules = {f"nbmodernizer/{p.name}" for p in PACKAGE.glob("*.py") if p.name != "__init__.py"}
    packages = {f"nbmodernizer/{p.parent.name}/" for p in PACKAGE.glob("*/__init__.py")}
    return modules | packages


def test_architecture_names_every_top_level_module_and_subpackage() -> None:
    named = set(_NAMED.findall(ARCHITECTURE.read_text(encoding="utf-8")))
    missing = sorted(top_level() - named)
    assert not missing, f"docs/architecture.md does not name {missing}: place them there"


def test_every_path_architecture_names_exists() -> None:
    named = _NAMED.findall(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(named) > 50
    gone = [
        path
        for path in named
        if not (PACKAGE.parent / path if path.startswith("nbmodernizer/") else ROOT / path).exists()
    ]
    assert not gone, f"docs/architecture.md names paths that do not exist: {gone}"


def test_readme_is_short_and_opens_with_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md: {len(lines)} lines (at most 250: move detail to docs/)"
    first_screen = "\n".join(lines[:40])
    assert "make example" in first_screen and "make test" in first_screen
    assert "nbmodernizer.modernize(" in first_screen
