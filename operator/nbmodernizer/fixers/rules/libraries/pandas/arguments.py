"""Arguments pandas made keyword-only, or whose default changed."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.pandas.common import is_module_receiver
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    call_arguments,
    method_name,
    with_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.needles import extra_positional, method_called
from nbmodernizer.fixers.rules.toolkit.nodes import (
    code,
    dotted_name,
    literal_bool,
    qualified,
    string_literal,
)
from nbmodernizer.fixers.rules.toolkit.probes import keyword_only, rejects
from nbmodernizer.fixers.rules.toolkit.signatures import (
    Accepts,
    accepts,
    common,
    keyword_only_by_signature,
    positional,
)

# Methods of DataFrame and Series whose keyword-only conversion (pandas 2.0) kept the legacy
# order: their keyword names are read from today's signatures (what both classes agree on).
# Not `fillna` (legacy `method` came second), nor `sort_values`/`drop_duplicates` (a Series
# takes one positional argument fewer: which class the receiver is decides).
KEYWORD_ONLY_METHODS = frozenset(
    {
        "drop",
        "any",
        "dropna",
        "sort_index",
        "ffill",
        "bfill",
        "interpolate",
        "set_index",
        "reset_index",
        "where",
        "mask",
    }
)
FRAME_ONLY_METHODS = frozenset({"set_index"})  # no Series method of that name to read


def _classes(method: str) -> tuple[str, ...]:
    """The pandas classes that have `method`: their signatures are the ones to read."""
    return ("DataFrame",) if method in FRAME_ONLY_METHODS else ("DataFrame", "Series")


# Callees whose legacy order differs from today's keyword-only order: the legacy order, as far
# as today's pandas reads it alike (`read_csv`'s `squeeze` and `prefix` are gone, and its
# `delimiter=None` passed beside `sep` is refused today: only a positional `sep` is named).
_READ = ("sep",)
LEGACY_ORDER: dict[str, Accepts] = {
    "pivot": Accepts(0, ("index", "columns", "values")),
    "pandas.read_csv": Accepts(1, _READ),
    "pandas.read_table": Accepts(1, _READ),
}
KEYWORD_ONLY_FUNCTIONS = frozenset({"pandas.concat", "pandas.read_csv", "pandas.read_table"})
# the names a call that needs the rule mentions (`toolkit.needles`)
_KEYWORD_ONLY_NEEDLES = tuple(
    sorted(
        {
            name.rsplit(".", 1)[-1]
            for name in (*KEYWORD_ONLY_METHODS, *LEGACY_ORDER, *KEYWORD_ONLY_FUNCTIONS)
        }
    )
)


# the signatures the rule reads where the notebook runs
SIGNATURES = tuple(
    sorted(
        {
            *(
                f"pandas.{kind}.{name}"
                for name in KEYWORD_ONLY_METHODS - set(LEGACY_ORDER)
                for kind in _classes(name)
            ),
            *(name for name in KEYWORD_ONLY_FUNCTIONS if name not in LEGACY_ORDER),
        }
    )
)


def _method(name: str, context: RuleContext) -> Accepts | None:
    if name in LEGACY_ORDER:
        return LEGACY_ORDER[name]
    kinds = [
        parameters
        for kind in _classes(name)
        if (parameters := context.parameters(f"pandas.{kind}.{name}")) is not None
    ]
    found = [accepts(parameters, method=True) for parameters in kinds]
    return None if None in found else common([a for a in found if a is not None])


def _function(name: str, context: RuleContext) -> Accepts | None:
    if name in LEGACY_ORDER:
        return LEGACY_ORDER[name]
    return accepts(context.parameters(name))


def keyword_only_callee(call: cst.Call, context: RuleContext) -> Accepts | None:
    """What a pandas callee whose legacy positional arguments became keyword-only accepts:
    `pd.concat` and the readers through the notebook's imports, the methods above on any
    receiver but a module."""
    name = qualified(call.func, context.aliases)
    if name in KEYWORD_ONLY_FUNCTIONS:
        return _function(name, context)
    func = call.func
    if not isinstance(func, cst.Attribute) or is_module_receiver(func.value, context):
        return None
    method = func.attr.value
    if method not in KEYWORD_ONLY_METHODS and method not in LEGACY_ORDER:
        return None
    accepted = _method(method, context)
    if accepted is None or not _fits_first_extra(call, accepted):
        return None
    return accepted


# The receiver of a method call is not known: `xp.any(xp.isinf(X))` (an array namespace) or
# `xp.where(c, a, b)` are not pandas. What pandas' legacy positional argument was decides:
# the first one named must be what such a parameter took (an axis, a flag).
_AXES = frozenset({"0", "1", "index", "columns", "rows"})  # an integer as written, or a name
_FLAGS = frozenset({"inplace", "drop", "append", "verify_integrity", "skipna", "bool_only"})


def _fits_first_extra(call: cst.Call, accepted: Accepts) -> bool:
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    if len(positional) <= accepted.positional:
        return True  # nothing to name
    name, value = accepted.keyword_only[0], positional[accepted.positional].value
    if name == "axis":
        axis = value.value if isinstance(value, cst.Integer) else string_literal(value)
        return axis in _AXES
    if name in _FLAGS:
        return literal_bool(value) is not None
    return True


class NumericOnly(cst.CSTTransformer):
    """Reductions that silently dropped text columns get `numeric_only=True` spelled out."""

    GROUPED = frozenset({"mean", "median", "std", "var", "sem", "sum", "prod"})
    FILLED = frozenset({"mean", "median", "std", "var", "sem"})

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.fill_receivers: list[str] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "fillna":
            self.fill_receivers.append(code(func.value))
        else:
            self.fill_receivers.append("")

    @staticmethod
    def _grouped(receiver: cst.BaseExpression) -> bool:
        if isinstance(receiver, cst.Subscript):
            receiver = receiver.value
        return isinstance(receiver, cst.Call) and method_name(receiver) == "groupby"

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        self.fill_receivers.pop()
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or is_module_receiver(func.value, self.context):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None or "numeric_only" in arguments[1]:
            return updated_node
        positional, _ = arguments
        method = func.attr.value
        applies = (
            (method in ("corr", "cov") and not positional)
            or (method in self.GROUPED and self._grouped(func.value))
            or (
                method in self.FILLED
                and not positional
                and dotted_name(func.value) is not None
                and code(func.value) in self.fill_receivers
            )
        )
        if not applies:
            return updated_node
        return with_keywords(updated_node, [("numeric_only", cst.Name("True"))])


_REGEX_CHARS = frozenset(".^$*+?{}[]\\|()")


class StrReplaceRegex(cst.CSTTransformer):
    """`s.str.replace('a.b', x)` -> `s.str.replace('a.b', x, regex=True)` (the old default)."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value == "replace"
            and isinstance(func.value, cst.Attribute)
            and func.value.attr.value == "str"
        ):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None or "regex" in arguments[1]:
            return updated_node
        positional, keywords = arguments
        pat = (
            positional[0].value if positional else keywords.get("pat", cst.Arg(cst.Name("_"))).value
        )
        repl_arg = positional[1] if len(positional) > 1 else keywords.get("repl")
        if len(positional) > 2:  # n, case, flags, regex positionally: leave it
            return updated_node
        if isinstance(pat, cst.Call) and qualified(pat.func, self.context.aliases) == "re.compile":
            return with_keywords(updated_node, [("regex", cst.Name("True"))])
        text = string_literal(pat)
        if text is None or len(text) < 2:  # a single character was always literal
            return updated_node
        repl = string_literal(repl_arg.value) if repl_arg is not None else None
        # without a metacharacter the pattern matches the same text either way (`case=False`
        # and `flags` too: pandas applies them to a literal pattern); a backslash in the
        # replacement is a group reference only for a regex
        if _REGEX_CHARS & set(text) or (repl is not None and "\\" in repl):
            return with_keywords(updated_node, [("regex", cst.Name("True"))])
        return updated_node


RULES = (
    Rule(
        id="pandas.keyword-only-arguments",
        library="pandas",
        changed_in="2.0",
        summary=(
            "positional arguments pandas made keyword-only, named from today's signatures: "
            "`df.drop('c', 1)` -> `df.drop('c', axis=1)`; also `any`, `dropna`, "
            "`sort_index`, `ffill`/`bfill`, `interpolate`, `set_index`, `reset_index`, "
            "`where`/`mask`, `pd.concat`, and in their legacy order `pivot`, `pd.read_csv`/"
            "`read_table` (pandas 2.0.0 release notes, 'Removal of prior version deprecations': "
            "'Disallow passing positional arguments to DataFrame.drop() ... except labels' "
            "(GH41485) and its siblings)"
        ),
        kind=Kind.API,
        rewrite=keyword_only_by_signature(
            keyword_only_callee,
            _KEYWORD_ONLY_NEEDLES,
            extra_positional(
                lambda name, context: (
                    positional(_function(name, context)) if name in KEYWORD_ONLY_FUNCTIONS else None
                ),
                lambda name, context: (
                    positional(_method(name, context))
                    if name in KEYWORD_ONLY_METHODS or name in LEGACY_ORDER
                    else None
                ),
            ),
        ),
        signatures=SIGNATURES,
        symptoms=(
            Symptom(
                "TypeError",
                r"(DataFrame|Series|NDFrame)\.\w+\(\) takes (from \d+ to )?\d+ positional "
                r"arguments? but \d+ (positional arguments \(and \d+ keyword-only arguments?\) )?"
                r"were given",
            ),
            Symptom(
                "TypeError",
                r"^(concat|read_csv|read_table)\(\) takes 1 positional argument but \d+ were given",
            ),
        ),
        gone=keyword_only("pandas.DataFrame.drop", "axis"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.0, None], 'b': [3.0, 4.0]})\n"
                    "dropped = frame.drop('a', 1)\n"
                    "complete = frame.dropna(1)\n"
                    "big = (frame > 3).any(1)\n"
                    "wide = pd.concat([frame, frame], 1)\n"
                    "table = frame.pivot('a', 'b', 'b')\n"
                    "flat = frame.set_index('a').reset_index(0, True)\n"
                    "frame.to_csv('f.csv', sep=';', index=False)\n"
                    "read = pd.read_csv('f.csv', ';')\n"
                    "kept = frame['a'].dropna(0)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.0, None], 'b': [3.0, 4.0]})\n"
                    "dropped = frame.drop('a', axis=1)\n"
                    "complete = frame.dropna(axis=1)\n"
                    "big = (frame > 3).any(axis=1)\n"
                    "wide = pd.concat([frame, frame], axis=1)\n"
                    "table = frame.pivot(index='a', columns='b', values='b')\n"
                    "flat = frame.set_index('a').reset_index(0, drop=True)\n"
                    "frame.to_csv('f.csv', sep=';', index=False)\n"
                    "read = pd.read_csv('f.csv', sep=';')\n"
                    "kept = frame['a'].dropna(axis=0)\n"
                ),
                error="TypeError",
                check=(
                    "list(dropped.columns) == ['b'] and list(complete.columns) == ['b'] "
                    "and big.tolist() == [False, True] and wide.shape == (2, 4) "
                    "and table.shape == (2, 2) and list(flat.columns) == ['b'] "
                    "and read['b'].tolist() == [3.0, 4.0] and kept.tolist() == [1.0]"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.numeric-only",
        library="pandas",
        changed_in="2.0",
        summary=(
            "reductions that used to drop text columns get `numeric_only=True`: `df.corr()`, "
            "`df.cov()`, `df.groupby(k).mean()` (`median`, `std`, `var`, `sem`, `sum`, `prod`), "
            "`df.fillna(df.mean())`; in the failing cell only"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(NumericOnly),
        symptoms=(
            Symptom("ValueError", r"could not convert string to float"),
            Symptom("TypeError", r"Cannot perform reduction '\w+' with string dtype"),
            Symptom("TypeError", r"dtype '(str|string)' does not support operation '\w+'"),
            Symptom("TypeError", r"agg function failed \[how->\w+,dtype->object\]"),
            Symptom("TypeError", r"Could not convert .* to numeric"),
        ),
        gone=None,  # whether a frame has text columns is only known when it fails
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'g': ['x', 'x', 'y'], 'v': [1.0, 2.0, None],\n"
                    "                      'w': [1.0, 0.0, 1.0], 'name': ['a', 'b', 'c']})\n"
                    "means = frame.groupby('g').mean()\n"
                    "filled = frame.fillna(frame.mean())\n"
                    "corr = frame.corr()\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'g': ['x', 'x', 'y'], 'v': [1.0, 2.0, None],\n"
                    "                      'w': [1.0, 0.0, 1.0], 'name': ['a', 'b', 'c']})\n"
                    "means = frame.groupby('g').mean(numeric_only=True)\n"
                    "filled = frame.fillna(frame.mean(numeric_only=True))\n"
                    "corr = frame.corr(numeric_only=True)\n"
                ),
                error="TypeError",
                check=(
                    "list(means.columns) == ['v', 'w'] and means.loc['x', 'v'] == 1.5 "
                    "and filled['v'].tolist() == [1.0, 2.0, 1.5] "
                    "and filled['name'].tolist() == ['a', 'b', 'c'] "
                    "and list(corr.columns) == ['v', 'w'] and corr.loc['v', 'w'] == -1.0"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.str-replace-regex",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`s.str.replace(pat, repl)` with a regex-looking pattern of 2+ characters -> "
            "`regex=True` spelled out (the old default; single characters were always literal)"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(StrReplaceRegex, ("replace",), method_called("replace", on="str")),
        symptoms=(
            Symptom(
                "ValueError", r"Cannot use a compiled regex as replacement pattern with regex=False"
            ),
        ),
        gone=rejects(  # literal by default: '.b' does not match 'ab'
            "import pandas as pd\n"
            "if pd.Series(['ab']).str.replace('.b', '').iloc[0] == 'ab':\n"
            "    raise ValueError('str.replace is literal by default')"
        ),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "names = pd.Series(['Mr. John  Smith', 'Mrs. Ann Lee'])\n"
                    "dots = names.str.replace('.', '')\n"
                    "spaced = names.str.replace('\\\\s+', ' ')\n"
                    "title = names.str.replace('^(Mr|Mrs)\\\\. ', '')\n"
                    "sir = names.str.replace('MR', 'Sir', case=False)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "names = pd.Series(['Mr. John  Smith', 'Mrs. Ann Lee'])\n"
                    "dots = names.str.replace('.', '')\n"
                    "spaced = names.str.replace('\\\\s+', ' ', regex=True)\n"
                    "title = names.str.replace('^(Mr|Mrs)\\\\. ', '', regex=True)\n"
                    "sir = names.str.replace('MR', 'Sir', case=False)\n"
                ),
                check=(
                    "dots.tolist() == ['Mr John  Smith', 'Mrs Ann Lee'] "
                    "and spaced.tolist() == ['Mr. John Smith', 'Mrs. Ann Lee'] "
                    "and title.tolist() == ['John  Smith', 'Ann Lee'] "
                    "and sir.tolist() == ['Sir. John  Smith', 'Sirs. Ann Lee']"
                ),
            ),
        ),
    ),
)
