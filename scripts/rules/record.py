"""Record what every rule's rewrite does on a large set of snippets, and compare two records.

A refactoring of the rulebook keeps its behaviour when the record taken before it and the
record taken after it are the same. The snippets: every rule's examples (`before` and
`after`) and variants of each `before` (in a function body; after a module docstring, a
`from __future__` import, a line magic, a `%%time` line; with its imports removed, their
names then bound by "another cell"; with other import aliases). Each rule runs on its own
snippets and on every other rule's, with the context the fixer builds for a notebook.

    PYTHONPATH=operator python scripts/rules/record.py record /tmp/rule-record-before.json
    PYTHONPATH=operator python scripts/rules/record.py compare BEFORE.json AFTER.json

The record: {"snippets": {key: snippet}, "outputs": {rule id: {key: output}}}, where the key
is a hash of the snippet and its context, and the output is "=" for "unchanged", the
rewritten source, or "!ExceptionName: message" when the rewrite raised.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbmodernizer.fixers.rules.catalog import RULES
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rule

INPUT_DIR = Path("/tmp/nbmod-rule-record/input")


def notebook_aliases(sources: list[str]) -> dict[str, str]:
    """The aliases the fixer reads from a notebook's cells (before or after the refactoring)."""
    try:  # the rules reading cells through nbmodernizer.cells
        from nbmodernizer.fixers.rules.fixer import cells

        return cells.imports(sources)
    except ImportError:
        pass
    try:  # the rulebook moved into its house, before the switch to nbmodernizer.cells
        from nbmodernizer.fixers.rules.fixer import notebook_aliases  # type: ignore[attr-defined]

        aliases: dict[str, str] = notebook_aliases(sources)
        return aliases
    except ImportError:  # the rulebook before the refactoring
        from nbmodernizer.fixers.rules.cells import import_aliases  # type: ignore[import-not-found]
        from nbmodernizer.fixers.rules.text_tools import (  # type: ignore[import-not-found]
            lenient_import_aliases,
        )

        return {**lenient_import_aliases(sources), **import_aliases(sources)}


@dataclass(frozen=True)
class Case:
    """A snippet, and the cells of its notebook from which the context's aliases come."""

    name: str
    source: str
    notebook: tuple[str, ...]
    gpu: bool = False

    @property
    def key(self) -> str:
        text = json.dumps([self.source, list(self.notebook), self.gpu])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def context(self) -> RuleContext:
        return RuleContext(
            aliases=notebook_aliases(list(self.notebook)),
            gpu_available=self.gpu,
            input_dir=INPUT_DIR,
        )


_IMPORT_LINE = re.compile(r"^(import\s+\S.*|from\s+\S+\s+import\s+.*)$")
_ALIASED = re.compile(r"^import\s+([\w.]+)\s+as\s+(\w+)\s*$", re.M)


def _without_imports(source: str) -> str:
    return "\n".join(line for line in source.split("\n") if not _IMPORT_LINE.match(line))


def _other_aliases(source: str) -> Iterator[tuple[str, str]]:
    """(name, variant) with each `import x as y` spelled otherwise: `import pandas` when the
    module has no dot (its alias replaced by the module's name), else another alias."""
    for match in _ALIASED.finditer(source):
        module, alias = match.group(1), match.group(2)
        head = source[: match.start()]
        tail = source[match.end() :]
        if "." not in module and module != alias:
            new_tail = re.sub(rf"(?<![\w.]){re.escape(alias)}\.", f"{module}.", tail)
            yield f"alias:{module}", f"{head}import {module}{new_tail}"
        other = f"{alias}_"
        new_tail = re.sub(rf"(?<![\w.]){re.escape(alias)}\b", other, tail)
        yield f"alias:{alias}->{other}", f"{head}import {module} as {other}{new_tail}"


def _exploded(source: str) -> str | None:
    """The snippet with every call's arguments and every parenthesized import's names one a
    line, with a trailing comma (the layout that argument and import helpers must keep)."""
    import libcst as cst

    line = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace("    "))
    close = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(""))

    class Explode(cst.CSTTransformer):
        def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
            if not updated_node.args:
                return updated_node
            args = [
                arg.with_changes(comma=cst.Comma(whitespace_after=line))
                for arg in updated_node.args
            ]
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=close))
            return updated_node.with_changes(whitespace_before_args=line, args=args)

        def leave_ImportFrom(
            self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
        ) -> cst.ImportFrom:
            if isinstance(updated_node.names, cst.ImportStar):
                return updated_node
            names = [
                alias.with_changes(comma=cst.Comma(whitespace_after=line))
                for alias in updated_node.names
            ]
            names[-1] = names[-1].with_changes(comma=cst.Comma(whitespace_after=close))
            return updated_node.with_changes(
                names=names,
                lpar=cst.LeftParen(whitespace_after=line),
                rpar=cst.RightParen(),
            )

    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError:
        return None
    exploded = module.visit(Explode()).code
    return exploded if exploded != source else None


def _in_function(source: str) -> str:
    body = "\n".join(f"    {line}" if line.strip() else line for line in source.split("\n"))
    return f"def _cell():\n{body}\n"


PREFIXES = {
    "docstring": '"""A cell."""\n',
    "future": "from __future__ import division\n",
    "docstring+future": '"""A cell."""\nfrom __future__ import division\n',
    "line-magic": "%matplotlib inline\n",
    "cell-magic": "%%time\n",
    "cell-magic+future": "%%time\nfrom __future__ import division\n",
    "import": "import os\n",
}


def own_cases(rule: Rule) -> Iterator[Case]:
    """A rule's examples and the variants of each `before`."""
    for n, example in enumerate(rule.examples):
        before = example.before
        yield Case(f"{rule.id}[{n}].before", before, (before,))
        yield Case(f"{rule.id}[{n}].after", example.after, (example.after,))
        yield Case(f"{rule.id}[{n}].gpu", before, (before,), gpu=True)
        yield Case(f"{rule.id}[{n}].function", _in_function(before), (before,))
        stripped = _without_imports(before)
        bodies = [("", before)]
        if stripped != before:
            bodies.append(("no-imports", stripped))
        bodies += list(_other_aliases(before))
        exploded = _exploded(before)
        if exploded is not None:
            bodies.append(("exploded", exploded))
        for body_name, body in bodies:
            for prefix_name, prefix in PREFIXES.items():
                name = f"{rule.id}[{n}].{prefix_name}" + (f".{body_name}" if body_name else "")
                yield Case(name, prefix + body, (prefix + body,))
            if body_name == "no-imports":
                # the imports in another cell of the notebook
                yield Case(f"{rule.id}[{n}].imports-elsewhere", body, (before, body))
                for prefix_name, prefix in PREFIXES.items():
                    name = f"{rule.id}[{n}].{prefix_name}.imports-elsewhere"
                    yield Case(name, prefix + body, (before, prefix + body))


def shared_cases(rules: tuple[Rule, ...]) -> list[Case]:
    """The snippets every rule runs on: each example's before and after, as its own notebook
    and with its imports in another cell."""
    cases: list[Case] = []
    for rule in rules:
        for n, example in enumerate(rule.examples):
            cases.append(Case(f"{rule.id}[{n}].before", example.before, (example.before,)))
            cases.append(Case(f"{rule.id}[{n}].after", example.after, (example.after,)))
            exploded = _exploded(example.before)
            if exploded is not None:
                cases.append(Case(f"{rule.id}[{n}].exploded", exploded, (exploded,)))
            stripped = _without_imports(example.before)
            if stripped != example.before:
                cases.append(
                    Case(f"{rule.id}[{n}].imports-elsewhere", stripped, (example.before, stripped))
                )
    return cases


def _unique(cases: list[Case]) -> list[Case]:
    return list({case.key: case for case in cases}.values())


def _output(rule: Rule, case: Case) -> str:
    try:
        rewritten = rule.rewrite(case.source, case.context())
    except Exception as error:  # a rule that raises is behaviour too
        return f"!{type(error).__name__}: {error}"
    return "=" if rewritten == case.source else rewritten


def _input_files() -> None:
    """The files the examples name, under one input folder (rules that look for them)."""
    for rule in RULES:
        for example in rule.examples:
            for relative, content in example.files.items():
                if relative.startswith("input/"):
                    target = INPUT_DIR / relative[len("input/") :]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(content)


def record(path: Path, progress: Callable[[str], None], only: str | None = None) -> None:
    _input_files()
    shared = _unique(shared_cases(RULES))
    snippets: dict[str, str] = {}
    outputs: dict[str, dict[str, str]] = {}
    started = time.monotonic()
    pairs = 0
    for index, rule in enumerate(RULES):
        if only is not None and not re.search(only, rule.id):
            continue
        cases = _unique([*own_cases(rule), *shared])
        results: dict[str, str] = {}
        for case in cases:
            snippets[case.key] = case.source
            results[case.key] = _output(rule, case)
        outputs[rule.id] = results
        pairs += len(cases)
        progress(
            f"{index + 1}/{len(RULES)} {rule.id}: {len(cases)} snippets "
            f"({pairs} pairs, {time.monotonic() - started:.0f} s)"
        )
    path.write_text(json.dumps({"snippets": snippets, "outputs": outputs}, indent=0))
    progress(f"{pairs} (rule, snippet) pairs, {len(snippets)} snippets -> {path}")


def compare(before_path: Path, after_path: Path, show: int, partial: bool = False) -> int:
    before: dict[str, Any] = json.loads(before_path.read_text())
    after: dict[str, Any] = json.loads(after_path.read_text())
    snippets = {**before["snippets"], **after["snippets"]}
    compared = identical = 0
    changed: list[tuple[str, str]] = []
    missing: list[tuple[str, str]] = []
    for rule_id, results in before["outputs"].items():
        if partial and rule_id not in after["outputs"]:
            continue
        new = after["outputs"].get(rule_id, {})
        for key, output in results.items():
            if key not in new:
                missing.append((rule_id, key))
                continue
            compared += 1
            if new[key] == output:
                identical += 1
            else:
                changed.append((rule_id, key))
    extra = sum(
        len(set(results) - set(before["outputs"].get(rule_id, {})))
        for rule_id, results in after["outputs"].items()
    )
    print(f"pairs compared: {compared}; identical: {identical}; changed: {len(changed)}")
    print(f"pairs only before: {len(missing)}; only after: {extra}")
    for rule_id, key in changed[:show]:
        old, new = before["outputs"][rule_id][key], after["outputs"][rule_id][key]
        print(f"\n=== {rule_id} on {key}\n--- snippet\n{snippets[key]}")
        print(f"--- before\n{old}\n--- after\n{new}")
    return 0 if not changed and not missing else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    take = commands.add_parser("record", help="record every rule's outputs")
    take.add_argument("path", type=Path)
    take.add_argument("--quiet", action="store_true")
    take.add_argument("--only", help="only the rules whose id matches this regex")
    diff = commands.add_parser("compare", help="compare two records")
    diff.add_argument("before", type=Path)
    diff.add_argument("after", type=Path)
    diff.add_argument("--show", type=int, default=20, help="how many changes to print")
    diff.add_argument(
        "--partial", action="store_true", help="only the rules the second record has (--only)"
    )
    args = parser.parse_args(argv)
    if args.command == "record":
        quiet = args.quiet

        def progress(line: str) -> None:
            if not quiet:
                print(line, file=sys.stderr, flush=True)

        record(args.path, progress, args.only)
        return 0
    return compare(args.before, args.after, args.show, args.partial)


if __name__ == "__main__":
    sys.exit(main())
