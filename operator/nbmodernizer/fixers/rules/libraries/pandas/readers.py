"""`read_csv` / `read_table` arguments that were removed."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import call_arguments, callee_is
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.needles import passes_keyword
from nbmodernizer.fixers.rules.toolkit.nodes import (
    literal_bool,
    with_commas,
)
from nbmodernizer.fixers.rules.toolkit.probes import no_parameter

_READERS = ("pandas.read_csv", "pandas.read_table")


def _is_reader(call: cst.Call, context: RuleContext) -> bool:
    return callee_is(call, _READERS, context)


class BadLines(cst.CSTTransformer):
    """`error_bad_lines=False` (+ `warn_bad_lines`) -> `on_bad_lines='warn'|'skip'`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not _is_reader(original_node, self.context):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None:
            return updated_node
        _, keywords = arguments
        error_arg, warn_arg = keywords.get("error_bad_lines"), keywords.get("warn_bad_lines")
        if error_arg is None and warn_arg is None:
            return updated_node
        error = literal_bool(error_arg.value) if error_arg else True
        warn = literal_bool(warn_arg.value) if warn_arg else True  # the legacy default
        if error is None or warn is None:
            return updated_node
        args: list[cst.Arg] = []
        for arg in updated_node.args:
            keyword = arg.keyword.value if arg.keyword else None
            if keyword == "error_bad_lines" and not error:
                value = cst.SimpleString(f"'{'warn' if warn else 'skip'}'")
                args.append(arg.with_changes(keyword=cst.Name("on_bad_lines"), value=value))
            elif keyword not in ("error_bad_lines", "warn_bad_lines"):
                args.append(arg)
        return updated_node.with_changes(args=with_commas(args))


class Squeeze(cst.CSTTransformer):
    """`pd.read_csv(f, squeeze=True)` -> `pd.read_csv(f).squeeze("columns")`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not _is_reader(original_node, self.context):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None or "squeeze" not in arguments[1]:
            return updated_node
        squeeze = literal_bool(arguments[1]["squeeze"].value)
        if squeeze is None:
            return updated_node
        args = [
            arg for arg in updated_node.args if not (arg.keyword and arg.keyword.value == "squeeze")
        ]
        call = updated_node.with_changes(args=with_commas(args))
        if not squeeze:
            return call
        return cst.Call(
            func=cst.Attribute(call.with_changes(lpar=(), rpar=()), cst.Name("squeeze")),
            args=[cst.Arg(cst.SimpleString('"columns"'))],
            lpar=updated_node.lpar,
            rpar=updated_node.rpar,
        )


RULES = (
    Rule(
        id="pandas.read-csv-bad-lines",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`read_csv(error_bad_lines=False)` -> `on_bad_lines='warn'` (`'skip'` with "
            "`warn_bad_lines=False`, the old default warned)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(BadLines, ("error_bad_lines", "warn_bad_lines")),
        symptoms=(
            Symptom("TypeError", r"got an unexpected keyword argument '(error|warn)_bad_lines'"),
        ),
        gone=no_parameter("pandas.read_csv", "error_bad_lines"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "loud = pd.read_csv('../input/rows.csv', error_bad_lines=False)\n"
                    "quiet = pd.read_csv('../input/rows.csv', error_bad_lines=False,\n"
                    "                    warn_bad_lines=False)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "loud = pd.read_csv('../input/rows.csv', on_bad_lines='warn')\n"
                    "quiet = pd.read_csv('../input/rows.csv', on_bad_lines='skip')\n"
                ),
                error="TypeError",
                check="loud['a'].tolist() == quiet['a'].tolist() == [1, 6]",
                files={"input/rows.csv": "a,b\n1,2\n3,4,5\n6,7\n"},
            ),
        ),
    ),
    Rule(
        id="pandas.read-csv-squeeze",
        library="pandas",
        changed_in="2.0",
        summary='`read_csv(..., squeeze=True)` -> `read_csv(...).squeeze("columns")`',
        kind=Kind.API,
        rewrite=cst_rewrite(Squeeze, ("squeeze",), passes_keyword(("squeeze",))),
        symptoms=(Symptom("TypeError", r"got an unexpected keyword argument 'squeeze'"),),
        gone=no_parameter("pandas.read_csv", "squeeze"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "labels = pd.read_csv('../input/labels.csv', squeeze=True)\n"
                    "table = pd.read_csv('../input/labels.csv', squeeze=False)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "labels = pd.read_csv('../input/labels.csv').squeeze(\"columns\")\n"
                    "table = pd.read_csv('../input/labels.csv')\n"
                ),
                error="TypeError",
                check=(
                    "isinstance(labels, pd.Series) and labels.tolist() == [0, 1] "
                    "and isinstance(table, pd.DataFrame)"
                ),
                files={"input/labels.csv": "label\n0\n1\n"},
            ),
        ),
    ),
)
