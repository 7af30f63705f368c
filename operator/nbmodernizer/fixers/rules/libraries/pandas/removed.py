"""Removed DataFrame / Series methods and indexers, and what replaces them."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.pandas.common import (
    FRAME_OR_SERIES,
    is_module_receiver,
    missing,
    pandas_lacks,
)
from nbmodernizer.fixers.rules.libraries.pandas.indexers import ILOC, LOC, IxTo
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import call_arguments, method_call
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer, naming
from nbmodernizer.fixers.rules.toolkit.moves import rename_methods
from nbmodernizer.fixers.rules.toolkit.needles import passes_keyword
from nbmodernizer.fixers.rules.toolkit.nodes import (
    COMMA,
    code,
    expression,
    qualified,
    single_index,
    string_literal,
    subscript_of,
    with_commas,
)
from nbmodernizer.fixers.rules.toolkit.probes import all_of, no_parameter

# --------------------------------------------------------------------------- API removals


class AppendToConcat(ImportingTransformer):
    """`df.append(other, ignore_index=True)` -> `pd.concat([df, other], ignore_index=True)`.

    Only calls that look like pandas: a pandas keyword, a pandas argument, or a result that is
    used (list.append returns None, so `x = x.append(...)` is never a list).
    """

    KEYWORDS = frozenset({"ignore_index", "verify_integrity", "sort"})

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self.bare: set[int] = set()
        self.series_names: set[str] = set()

    def _row(self, node: cst.BaseExpression) -> bool:
        """`pd.Series(values, index=df.columns)`: a row for a DataFrame."""
        if not self._pandas_call(node, "pandas.Series"):
            return False
        assert isinstance(node, cst.Call)
        index = next((a for a in node.args if a.keyword and a.keyword.value == "index"), None)
        return index is not None and code(index.value).endswith(".columns")

    def visit_Assign(self, node: cst.Assign) -> None:
        if self._row(node.value):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self.series_names.add(target.target.value)

    def visit_Expr(self, node: cst.Expr) -> None:
        self.bare.add(id(node.value))

    def _pandas_call(self, node: cst.BaseExpression, *names: str) -> bool:
        return isinstance(node, cst.Call) and qualified(node.func, self.context.aliases) in names

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "append":
            return updated_node
        if is_module_receiver(func.value, self.context):
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None:
            return updated_node
        positional, keywords = arguments
        if len(positional) != 1 or not set(keywords) <= self.KEYWORDS:
            return updated_node
        other = positional[0].value
        looks_pandas = (
            bool(keywords)
            or id(original_node) not in self.bare
            or self._pandas_call(other, "pandas.DataFrame", "pandas.Series")
        )
        if not looks_pandas:
            return updated_node
        pd, request = naming(self.aliases, "pandas", "pd")
        pieces = self._pieces(other, pd, self._series(func.value))
        if pieces is None:
            return updated_node
        if request is not None:
            self.need(request)
        elements = [cst.Element(func.value, comma=COMMA)]
        elements += [
            cst.Element(piece, comma=COMMA if n < len(pieces) - 1 else cst.MaybeSentinel.DEFAULT)
            for n, piece in enumerate(pieces)
        ]
        frames = cst.Arg(cst.List(elements), comma=positional[0].comma)
        rest = [arg for arg in updated_node.args if arg.keyword is not None]
        return cst.Call(
            func=expression(f"{pd}.concat"),
            args=with_commas([frames, *rest]),
            lpar=updated_node.lpar,
            rpar=updated_node.rpar,
            whitespace_before_args=updated_node.whitespace_before_args,
        )

    def _series(self, receiver: cst.BaseExpression) -> bool:
        """`pd.Series(...)` or a column `df['a']`: a Series, to which a Series adds values."""
        if isinstance(receiver, cst.Subscript):
            label = single_index(receiver)
            return label is not None and string_literal(label) is not None
        return self._pandas_call(receiver, "pandas.Series")

    def _pieces(
        self, other: cst.BaseExpression, pd: str, series: bool
    ) -> list[cst.BaseExpression] | None:
        def frame_of_rows(rows: cst.BaseExpression) -> cst.Call:
            return cst.Call(func=expression(f"{pd}.DataFrame"), args=[cst.Arg(rows)])

        def row_frame(series: cst.BaseExpression) -> cst.BaseExpression:
            to_frame = cst.Call(func=cst.Attribute(series, cst.Name("to_frame")))
            return cst.Attribute(to_frame, cst.Name("T"))

        if isinstance(other, cst.Dict):
            return [frame_of_rows(cst.List([cst.Element(other)]))]
        if isinstance(other, cst.List):
            values = [element.value for element in other.elements]
            if any(isinstance(element, cst.StarredElement) for element in other.elements):
                return None
            if values and all(isinstance(value, cst.Dict) for value in values):
                return [frame_of_rows(other)]
            if any(isinstance(value, cst.Dict | cst.List) for value in values):
                return None
            return values
        if series:
            return [other]
        if self._row(other) or (isinstance(other, cst.Name) and other.value in self.series_names):
            return [row_frame(other)]
        if self._pandas_call(other, "pandas.Series"):
            return None  # a Series' row for a DataFrame, or more values for a Series: unknown
        return [other]


class AsMatrix(cst.CSTTransformer):
    """`df.as_matrix()` -> `df.values`; `df.as_matrix(columns=cols)` -> `df[cols].values`."""

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = method_call(updated_node, "as_matrix")
        if found is None:
            return updated_node
        func, positional, keywords = found
        if set(keywords) - {"columns"} or len(positional) + len(keywords) > 1:
            return updated_node
        columns = positional[0].value if positional else None
        if "columns" in keywords:
            columns = keywords["columns"].value
        receiver: cst.BaseExpression = func.value
        if columns is not None and not (isinstance(columns, cst.Name) and columns.value == "None"):
            receiver = subscript_of(receiver, columns)
        return cst.Attribute(
            value=receiver, attr=cst.Name("values"), lpar=updated_node.lpar, rpar=updated_node.rpar
        )


_FILL = {"ffill": "ffill", "pad": "ffill", "bfill": "bfill", "backfill": "bfill"}


class FillnaMethod(cst.CSTTransformer):
    """`x.fillna(method='ffill', limit=1)` -> `x.ffill(limit=1)`."""

    KEEP = frozenset({"axis", "inplace", "limit"})

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = method_call(updated_node, "fillna")
        if found is None:
            return updated_node
        func, positional, keywords = found
        method = string_literal(keywords["method"].value) if "method" in keywords else None
        if positional or method not in _FILL:
            return updated_node
        value = keywords.get("value")
        if value is not None and not (
            isinstance(value.value, cst.Name) and value.value.value == "None"
        ):
            return updated_node
        if set(keywords) - self.KEEP - {"method", "value"}:
            return updated_node
        args = [arg for arg in updated_node.args if arg.keyword and arg.keyword.value in self.KEEP]
        return updated_node.with_changes(
            func=func.with_changes(attr=cst.Name(_FILL[method])), args=with_commas(args)
        )


RULES = (
    Rule(
        id="pandas.dataframe-append",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`df.append(other)` -> `pd.concat([df, other])` (a dict row becomes "
            "`pd.DataFrame([row])`); only calls that look like pandas, in the failing cell"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(AppendToConcat),
        symptoms=(missing(FRAME_OR_SERIES, "append"),),
        gone=None,  # `.append(` is list.append too: only where the error says so
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1], 'b': ['x']})\n"
                    "seen = [1, 2]\n"
                    "seen.append(3)\n"
                    "frame = frame.append({'a': 2, 'b': 'y'}, ignore_index=True)\n"
                    "more = frame.append(pd.DataFrame({'a': [3], 'b': ['z']}))\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1], 'b': ['x']})\n"
                    "seen = [1, 2]\n"
                    "seen.append(3)\n"
                    "frame = pd.concat([frame, pd.DataFrame([{'a': 2, 'b': 'y'}])], "
                    "ignore_index=True)\n"
                    "more = pd.concat([frame, pd.DataFrame({'a': [3], 'b': ['z']})])\n"
                ),
                error="AttributeError",
                check=(
                    "seen == [1, 2, 3] and frame['a'].tolist() == [1, 2] "
                    "and more.index.tolist() == [0, 1, 0] and more['b'].tolist() == ['x', 'y', 'z']"
                ),
            ),
            Example(
                before=(
                    "import pandas as pd\n"
                    "table = pd.DataFrame(columns=['k', 'v'])\n"
                    "for k in range(2):\n"
                    "    row = pd.Series([k, k * 10], index=table.columns)\n"
                    "    table = table.append(row, ignore_index=True)\n"
                    "keys = table['k'].append(pd.Series([5]), ignore_index=True)\n"
                    "flags = []\n"
                    "flags.append(pd.Series([True]))\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "table = pd.DataFrame(columns=['k', 'v'])\n"
                    "for k in range(2):\n"
                    "    row = pd.Series([k, k * 10], index=table.columns)\n"
                    "    table = pd.concat([table, row.to_frame().T], ignore_index=True)\n"
                    "keys = pd.concat([table['k'], pd.Series([5])], ignore_index=True)\n"
                    "flags = []\n"
                    "flags.append(pd.Series([True]))\n"
                ),
                error="AttributeError",
                check=(
                    "table['v'].tolist() == [0, 10] and keys.tolist() == [0, 1, 5] "
                    "and len(flags) == 1"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.ix-indexer",
        library="pandas",
        changed_in="1.0",
        summary=(
            "`.ix[...]` -> `.loc[...]` for a key with a label, `.iloc[...]` for positions on "
            "the columns of a frame whose columns are known to be strings (`.ix` fell back to "
            "positions on a non-integer axis); an undecided one only where a run follows (the "
            "loop, not `nbmod fix`): `.loc`, and where `.loc` raises at that line, `.iloc` on "
            "that line only"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(lambda context: IxTo(context, LOC), ("ix",)),
        alternative=cst_rewrite(lambda context: IxTo(context, ILOC), ("ix",)),
        symptoms=(missing(FRAME_OR_SERIES, "ix"),),
        gone=pandas_lacks("DataFrame", "ix"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6]}, index=[10, 20, 30])\n"
                    "value = frame.ix[20, 'b']\n"
                    "frame.ix[frame['a'] > 1, 'b'] = 0\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2, 3], 'b': [4, 5, 6]}, index=[10, 20, 30])\n"
                    "value = frame.loc[20, 'b']\n"
                    "frame.loc[frame['a'] > 1, 'b'] = 0\n"
                ),
                error="AttributeError",
                check="value == 5 and frame['b'].tolist() == [4, 0, 0]",
            ),
            # positions on the columns of a frame read with a header: `.iloc`; a label: `.loc`
            Example(
                before=(
                    "import pandas as pd\n"
                    "train = pd.read_csv('../input/train.csv')\n"
                    "X, y = train.ix[:, 1:-1], train.ix[:, 'target']\n"
                    "first = train.ix[:, 0]\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "train = pd.read_csv('../input/train.csv')\n"
                    "X, y = train.iloc[:, 1:-1], train.loc[:, 'target']\n"
                    "first = train.iloc[:, 0]\n"
                ),
                error="AttributeError",
                check=(
                    "list(X.columns) == ['a', 'b'] and y.tolist() == [0, 1] "
                    "and first.tolist() == [7, 8]"
                ),
                files={"input/train.csv": "id,a,b,target\n7,0.5,1,0\n8,1.5,2,1\n"},
            ),
            # columns named by the constructor; an integer on the rows stays undecided (`.loc`)
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame([[1, 2], [3, 4]], columns=['a', 'b'])\n"
                    "second = frame.ix[:, [1]]\n"
                    "row = frame.ix[1]\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame([[1, 2], [3, 4]], columns=['a', 'b'])\n"
                    "second = frame.iloc[:, [1]]\n"
                    "row = frame.loc[1]\n"
                ),
                error="AttributeError",
                check="list(second.columns) == ['b'] and row.tolist() == [3, 4]",
            ),
        ),
    ),
    Rule(
        id="pandas.as-matrix",
        library="pandas",
        changed_in="1.0",
        summary="`df.as_matrix()` -> `df.values`; `df.as_matrix(columns=cols)` -> `df[cols].values`",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: AsMatrix(), ("as_matrix",)),
        symptoms=(missing(FRAME_OR_SERIES, "as_matrix"),),
        gone=pandas_lacks("DataFrame", "as_matrix"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3.5, 4.5]})\n"
                    "X = frame.as_matrix()\n"
                    "y = frame.as_matrix(columns=['b'])\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3.5, 4.5]})\n"
                    "X = frame.values\n"
                    "y = frame[['b']].values\n"
                ),
                error="AttributeError",
                check="X.shape == (2, 2) and X[1, 1] == 4.5 and y.tolist() == [[3.5], [4.5]]",
            ),
        ),
    ),
    Rule(
        id="pandas.iteritems",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`Series.iteritems()` / `DataFrame.iteritems()` -> `.items()` (by method name: a "
            "Python 2 `dict.iteritems()` gets the same, also right, rewrite)"
        ),
        kind=Kind.API,
        rewrite=rename_methods({"iteritems": "items"}),
        symptoms=(missing(FRAME_OR_SERIES, "iteritems"),),
        gone=all_of(pandas_lacks("Series", "iteritems"), pandas_lacks("DataFrame", "iteritems")),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\n"
                    "sums = {name: column.sum() for name, column in frame.iteritems()}\n"
                    "pairs = list(frame['a'].iteritems())\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1, 2], 'b': [3, 4]})\n"
                    "sums = {name: column.sum() for name, column in frame.items()}\n"
                    "pairs = list(frame['a'].items())\n"
                ),
                error="AttributeError",
                check="sums == {'a': 3, 'b': 7} and pairs == [(0, 1), (1, 2)]",
            ),
        ),
    ),
    Rule(
        id="pandas.applymap",
        library="pandas",
        changed_in="3.0",
        summary="`DataFrame.applymap(f)` -> `DataFrame.map(f)`",
        kind=Kind.API,
        rewrite=rename_methods({"applymap": "map"}),
        symptoms=(missing("DataFrame", "applymap"),),
        gone=pandas_lacks("DataFrame", "applymap"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.234, 2.0]})\n"
                    "text = frame.applymap(lambda v: '%.1f' % v)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.234, 2.0]})\n"
                    "text = frame.map(lambda v: '%.1f' % v)\n"
                ),
                error="AttributeError",
                check="text['a'].tolist() == ['1.2', '2.0']",
            ),
        ),
    ),
    Rule(
        id="pandas.fillna-method",
        library="pandas",
        changed_in="3.0",
        summary=(
            "`fillna(method='ffill'|'pad')` -> `.ffill()`, `fillna(method='bfill'|'backfill')` "
            "-> `.bfill()`, keeping `axis`, `limit`, `inplace`"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(
            lambda _context: FillnaMethod(),
            ("fillna",),
            passes_keyword(("method",), called=("fillna",)),
        ),
        symptoms=(Symptom("TypeError", r"fillna\(\) got an unexpected keyword argument 'method'"),),
        gone=no_parameter("pandas.DataFrame.fillna", "method"),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.0, None, None, 4.0]})\n"
                    "forward = frame.fillna(method='ffill', limit=1)\n"
                    "frame.fillna(method='backfill', inplace=True)\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'a': [1.0, None, None, 4.0]})\n"
                    "forward = frame.ffill(limit=1)\n"
                    "frame.bfill(inplace=True)\n"
                ),
                error="TypeError",
                check=(
                    "forward['a'].fillna(-1).tolist() == [1.0, 1.0, -1, 4.0] "
                    "and frame['a'].tolist() == [1.0, 4.0, 4.0, 4.0]"
                ),
            ),
        ),
    ),
)
