"""Builtins Python 3 renamed or removed (`xrange`, `raw_input`, `reduce`, ...)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rewrite, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite, only_if, text_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import Import, ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.probes import lacks
from nbmodernizer.fixers.rules.toolkit.text import Edit, apply_edits, simple_statements


def rename_names(names: dict[str, str], *, calls_only: Sequence[str] = ()) -> Rewrite:
    """Rename bare names in code (not attributes, keyword arguments, assignments, imports).

    Names in `calls_only` are renamed only where they are called (`long(x)`).
    """
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")\b")

    def edit(source: str, mask: str, _context: RuleContext) -> str:
        edits: list[Edit] = []
        skip = [
            span
            for span in simple_statements(mask)
            if re.match(r"(from|import)\b", mask[span[0] : span[1]])
        ]
        for match in pattern.finditer(mask):
            name = match.group(1)
            after = mask[match.end() :]
            if re.match(r"\s*=(?!=)", after) or re.search(
                r"\b(def|class)\s+$", mask[: match.start()]
            ):
                continue
            if name in calls_only and not re.match(r"\s*\(", after):
                continue
            if any(start <= match.start() < end for start, end in skip):
                continue
            edits.append((match.start(), match.end(), names[name]))
        return apply_edits(source, edits)

    return only_if(*names, rewrite=text_rewrite(edit))


class _ImportReduce(ImportingTransformer):
    """Reactive: `reduce` is not defined: `from functools import reduce` for a cell that calls
    it and neither imports nor defines it."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.bound = False

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        self.bound = self.bound or "reduce" in (node.evaluated_name, node.evaluated_alias)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.bound = self.bound or node.name.value == "reduce"

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if isinstance(updated_node.func, cst.Name) and updated_node.func.value == "reduce":
            self.need(Import("functools", "reduce"))
        return updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self.bound:
            self.imports.clear()
        return updated_node


RULES = (
    Rule(
        id="python2.xrange",
        library="python",
        changed_in="3.0",
        summary="`xrange(...)` -> `range(...)`",
        kind=Kind.PYTHON2,
        rewrite=rename_names({"xrange": "range"}),
        symptoms=(Symptom("NameError", r"name 'xrange' is not defined"),),
        gone=lacks("builtins", "xrange"),
        examples=(
            Example(
                before=(
                    "total = sum(i for i in xrange(5))\n"
                    "pairs = [(i, j) for i in xrange(2) for j in xrange(1, 3)]\n"
                    "text = 'xrange stays in strings'  # and xrange in comments\n"
                ),
                after=(
                    "total = sum(i for i in range(5))\n"
                    "pairs = [(i, j) for i in range(2) for j in range(1, 3)]\n"
                    "text = 'xrange stays in strings'  # and xrange in comments\n"
                ),
                error="NameError",
                check="total == 10 and pairs == [(0, 1), (0, 2), (1, 1), (1, 2)]",
            ),
        ),
    ),
    Rule(
        id="python2.raw-input",
        library="python",
        changed_in="3.0",
        summary="`raw_input` -> `input`",
        kind=Kind.PYTHON2,
        rewrite=rename_names({"raw_input": "input"}),
        symptoms=(Symptom("NameError", r"name 'raw_input' is not defined"),),
        gone=lacks("builtins", "raw_input"),
        examples=(
            Example(
                before="ask = raw_input\nprompt = 'raw_input'\n",
                after="ask = input\nprompt = 'raw_input'\n",
                error="NameError",
                check="ask is input",
            ),
        ),
    ),
    Rule(
        id="python2.removed-builtins",
        library="python",
        changed_in="3.0",
        summary="`unicode` / `basestring` -> `str`, `unichr` -> `chr`, `long(x)` -> `int(x)`, "
        "`file(...)` -> `open(...)` (reactive: the names may be the notebook's own)",
        kind=Kind.PYTHON2,
        rewrite=rename_names(
            {"unicode": "str", "basestring": "str", "unichr": "chr", "long": "int", "file": "open"},
            calls_only=("long", "file"),
        ),
        symptoms=(
            Symptom("NameError", r"name '(unicode|basestring|unichr|long|file)' is not defined"),
        ),
        examples=(
            Example(
                before=(
                    "long_name = 'x'\n"
                    "values = [unicode(3), unichr(65), long('7')]\n"
                    "flags = [isinstance(v, basestring) for v in values]\n"
                    "long = 'a variable'\n"
                ),
                after=(
                    "long_name = 'x'\n"
                    "values = [str(3), chr(65), int('7')]\n"
                    "flags = [isinstance(v, str) for v in values]\n"
                    "long = 'a variable'\n"
                ),
                error="NameError",
                check="values == ['3', 'A', 7] and flags == [True, True, False]",
            ),
        ),
    ),
    Rule(
        id="python2.reduce-import",
        library="python",
        changed_in="3.0",
        summary="`reduce(...)` without import -> `from functools import reduce` added to the cell",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(_ImportReduce),
        symptoms=(Symptom("NameError", r"name 'reduce' is not defined"),),
        examples=(
            Example(
                before="# product\nimport operator\nproduct = reduce(operator.mul, [1, 2, 3, 4])\n",
                after=(
                    "# product\nimport operator\nfrom functools import reduce\n"
                    "product = reduce(operator.mul, [1, 2, 3, 4])\n"
                ),
                error="NameError",
                check="product == 24",
            ),
        ),
    ),
)
