"""Run a rule's examples on the installed libraries: the legacy snippet fails (or drifts),
the rewrite is exactly the expected one (and the rule leaves its own output alone), and the
rewritten snippet means what it meant.

Snippets may use IPython syntax (`!pip ...`, `%matplotlib`); it is turned into Python and
`get_ipython()` is a recorder, so shell commands are recorded, never run.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nbmodernizer import cells
from nbmodernizer.environment import python_source
from nbmodernizer.facts import EnvironmentFacts, ProbeRequest, here
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Rule


@dataclass
class IPythonRecorder:
    calls: list[tuple[str, str]] = field(default_factory=list)

    def system(self, command: str) -> None:
        self.calls.append(("system", command))

    def getoutput(self, command: str) -> list[str]:
        self.calls.append(("system", command))
        return []

    def run_line_magic(self, name: str, line: str, *_args: Any) -> None:
        self.calls.append(("magic", f"{name} {line}".strip()))

    def run_cell_magic(self, name: str, line: str, cell: str) -> None:
        self.calls.append(("magic", f"{name} {line}".strip()))


@dataclass(frozen=True)
class SnippetRun:
    error: BaseException | None
    check: bool | None  # None when the snippet raised


@contextlib.contextmanager
def _sandbox(files: dict[str, str]) -> Iterator[Path]:
    """A temporary Kaggle-style folder (`input/` + `working/`), `working/` as cwd."""
    previous = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="nbmod-proof-") as root:
        base = Path(root)
        (base / "working").mkdir()
        (base / "input").mkdir()
        for relative, content in files.items():
            target = base / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content)
        os.chdir(base / "working")
        try:
            yield base
        finally:
            os.chdir(previous)


def run_snippet(source: str, check: str) -> SnippetRun:
    recorder = IPythonRecorder()
    namespace: dict[str, Any] = {"get_ipython": lambda: recorder, "__name__": "__main__"}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(python_source(source), "<snippet>", "exec"), namespace)
    except BaseException as error:  # the legacy snippet is expected to fail in any way
        if isinstance(error, KeyboardInterrupt):
            raise
        return SnippetRun(error=error, check=None)
    namespace["ipython_calls"] = recorder.calls
    return SnippetRun(error=None, check=bool(eval(check, namespace)))


def context_for(
    source: str,
    root: Path,
    raising_lines: tuple[int, ...] = (),
    environment: EnvironmentFacts | None = None,
) -> RuleContext:
    return RuleContext(
        aliases=cells.imports([source]),
        gpu_available=False,
        input_dir=root / "input",
        raising_lines=frozenset(raising_lines),
        run_follows=True,  # a proof runs the rewrite, as the loop does
        environment=environment,
    )


def facts_here(rule: Rule) -> EnvironmentFacts:
    """The facts the rule reads, of the environment here (where the proofs run)."""
    return here(ProbeRequest(probes=rule.probes(), signatures=rule.signatures, names=rule.names))


@dataclass(frozen=True)
class Proof:
    before: SnippetRun
    rewritten: str
    after: SnippetRun
    gone: bool | None  # the rule's probe, evaluated here (None: the rule has none)
    again: str  # the rule applied to its own output: unchanged when it is idempotent
    probe_error: str | None = None  # why the probe could not be evaluated here


def prove(rule: Rule, example: Example) -> Proof:
    with _sandbox(example.files) as root:
        before = run_snippet(example.before, example.check)
    facts = facts_here(rule)
    with _sandbox(example.files) as root:
        lines = example.raising_lines
        rewritten = rule.rewrite(example.before, context_for(example.before, root, lines, facts))
        again = rule.rewrite(rewritten, context_for(rewritten, root, lines, facts))
        after = run_snippet(rewritten, example.check)
    gone = None if rule.gone is None else facts.gone(rule.id)
    return Proof(before, rewritten, after, gone, again, facts.probe_errors.get(rule.id))


def failures(rule: Rule, example: Example) -> list[str]:
    """What is wrong with this example's proof; empty when the rule is proven."""
    proof = prove(rule, example)
    problems: list[str] = []
    if example.error is not None:
        error = proof.before.error
        if error is None:
            problems.append(f"legacy snippet did not raise {example.error}")
        elif type(error).__name__ != example.error:
            problems.append(f"legacy snippet raised {type(error).__name__}: {error}")
        elif rule.symptoms and not rule.matches_error(type(error).__name__, str(error)):
            problems.append(f"no symptom matches the real error {type(error).__name__}: {error}")
    elif proof.before.error is not None:
        problems.append(f"legacy snippet raised {proof.before.error!r}; silent drift expected")
    elif proof.before.check:
        problems.append("legacy snippet already passes the check: no drift shown")
    if proof.rewritten != example.after:
        problems.append(
            f"rewrite differs:\n--- got\n{proof.rewritten}\n--- expected\n{example.after}"
        )
    if proof.again != proof.rewritten:
        problems.append(f"not idempotent: applied to its own output it gives\n{proof.again}")
    if proof.after.error is not None:
        problems.append(f"rewritten snippet raised {proof.after.error!r}")
    elif not proof.after.check:
        problems.append("rewritten snippet fails the check")
    if proof.probe_error is not None:
        problems.append(f"the probe could not be evaluated: {proof.probe_error}")
    elif proof.gone is False:
        problems.append("the probe says the installed library still has the legacy API")
    return problems
