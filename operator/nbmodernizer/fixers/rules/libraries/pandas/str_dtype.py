"""The pandas `str` dtype: text columns are not `object` any more."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.pandas.cow import NOT_COLUMNS
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.bindings import known_frames, rooted_in
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.needles import compares_to
from nbmodernizer.fixers.rules.toolkit.nodes import (
    code,
    dotted_name,
    expression,
    qualified,
    single_index,
    string_literal,
)
from nbmodernizer.fixers.rules.toolkit.probes import rejects
from nbmodernizer.fixers.rules.toolkit.statements import small_statement, statement_before

# --------------------------------------------------------------------------- string dtype

_OBJECT_SPELLINGS = frozenset({"object", "'object'", '"object"', "'O'", '"O"'})


def _is_object(node: cst.BaseExpression, context: RuleContext) -> bool:
    if code(node) in _OBJECT_SPELLINGS:
        return True
    return qualified(node, context.aliases) in ("numpy.object_", "numpy.object")


def _owner(node: cst.BaseExpression) -> cst.BaseExpression:
    """`s` of `s.dtype`, `str(s.dtype)`, `s.dtype.name`, `df` of `df.dtypes[c]`."""
    if isinstance(node, cst.Call) and node.args:
        node = node.args[0].value
    if isinstance(node, cst.Attribute) and node.attr.value == "name":
        node = node.value
    if isinstance(node, cst.Subscript):
        node = node.value
    return node.value if isinstance(node, cst.Attribute) else node


class ObjectDtypeComparison(cst.CSTTransformer):
    """`s.dtype == object` -> `s.dtype in (object, 'str')`; `.dtypes` compare both (only on a
    pandas object: `toolkit.bindings`)."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self._done: set[cst.Comparison] = set()
        self.frames: frozenset[str] = frozenset()

    def visit_Module(self, node: cst.Module) -> None:
        self.frames = known_frames(self.context, node)

    def _dtype_side(
        self, node: cst.Comparison
    ) -> tuple[cst.BaseExpression, cst.BaseExpression, str] | None:
        if len(node.comparisons) != 1:
            return None
        target = node.comparisons[0]
        if not isinstance(target.operator, cst.Equal | cst.NotEqual):
            return None
        left, right = node.left, target.comparator
        if _is_object(left, self.context):
            left, right = right, left
        if not _is_object(right, self.context):
            return None
        if self._kind(left) is None or not rooted_in(_owner(left), self.frames):
            return None  # a NumPy array's dtype, or an object not known to be pandas
        return left, right, "==" if isinstance(target.operator, cst.Equal) else "!="

    @staticmethod
    def _kind(node: cst.BaseExpression) -> str | None:
        """ "one" for one dtype (`s.dtype`, `df.dtypes[c]`, `s.dtype.name`, `str(s.dtype)`),
        "many" for `df.dtypes`, None for anything else."""
        if isinstance(node, cst.Attribute) and node.attr.value == "dtypes":
            return "many"
        if isinstance(node, cst.Attribute) and node.attr.value == "dtype":
            return "one"
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute):
            return "one" if node.value.attr.value == "dtypes" else None
        if isinstance(node, cst.Attribute) and node.attr.value == "name":
            inner = node.value
            return (
                "one" if isinstance(inner, cst.Attribute) and inner.attr.value == "dtype" else None
            )
        if isinstance(node, cst.Call) and dotted_name(node.func) == "str" and len(node.args) == 1:
            inner = node.args[0].value
            if isinstance(inner, cst.Attribute) and inner.attr.value in ("dtype", "dtypes"):
                return "one"
        return None

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        """`(df.dtypes != 'object') & (df.dtypes != 'str')` is already today's form: the
        comparison with 'object' in it is left alone (the rule is idempotent)."""
        left, right = node.left, node.right
        if not (isinstance(left, cst.Comparison) and isinstance(right, cst.Comparison)):
            return
        found, paired = self._dtype_side(left), right.comparisons
        if found is None or len(paired) != 1:
            return
        other = code(right.comparisons[0].comparator).strip("'\"")
        if other == "str" and code(right.left) == code(found[0]):
            self._done.add(left)

    def leave_Comparison(
        self, original_node: cst.Comparison, updated_node: cst.Comparison
    ) -> cst.BaseExpression:
        if original_node in self._done:
            return updated_node
        found = self._dtype_side(updated_node)
        if found is None:
            return updated_node
        dtype, spelling, operator = found
        quote = '"' if code(spelling).startswith('"') else "'"
        text = f"{quote}str{quote}"
        if self._kind(dtype) == "one":
            op = "in" if operator == "==" else "not in"
            test = f"{code(dtype)} {op} ({code(spelling)}, {text})"
        else:
            join = "|" if operator == "==" else "&"
            test = (
                f"(({code(dtype)} {operator} {code(spelling)}) {join} "
                f"({code(dtype)} {operator} {text}))"
            )
        new = expression(test)
        if updated_node.lpar:
            new = new.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
        return new

    # the `.dtypes` form comes wrapped in parentheses; drop them where they are not needed
    def _bare(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(node, cst.BinaryOperation) and len(node.lpar) == 1:
            return node.with_changes(lpar=(), rpar=())
        return node

    def leave_Index(self, original_node: cst.Index, updated_node: cst.Index) -> cst.Index:
        if isinstance(original_node.value, cst.Comparison) and not original_node.value.lpar:
            return updated_node.with_changes(value=self._bare(updated_node.value))
        return updated_node

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        if isinstance(original_node.value, cst.Comparison) and not original_node.value.lpar:
            return updated_node.with_changes(value=self._bare(updated_node.value))
        return updated_node


def column_ref(node: cst.BaseExpression) -> tuple[str, str] | None:
    """(frame code, column name) for `df['a']` and `df.a`."""
    if isinstance(node, cst.Subscript):
        label = single_index(node)
        text = string_literal(label) if label is not None else None
        frame = dotted_name(node.value)
        return (frame, text) if frame is not None and text is not None else None
    if isinstance(node, cst.Attribute) and node.attr.value not in NOT_COLUMNS:
        frame = dotted_name(node.value)
        return (frame, node.attr.value) if frame is not None else None
    return None


class _TextEvidence(cst.CSTVisitor):
    """Whether an expression compares a column with text (`df['a'] == 'x'`, `.str.`, `isin`)."""

    def __init__(self, column: tuple[str, str]) -> None:
        super().__init__()
        self.column = column
        self.found = False

    def visit_Comparison(self, node: cst.Comparison) -> None:
        sides = [node.left, *(target.comparator for target in node.comparisons)]
        if any(column_ref(side) == self.column for side in sides) and any(
            string_literal(side) is not None for side in sides
        ):
            self.found = True

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute):
            return
        if (
            isinstance(func.value, cst.Attribute)
            and func.value.attr.value == "str"
            and column_ref(func.value.value) == self.column
        ):
            self.found = True
        if func.attr.value == "isin" and column_ref(func.value) == self.column and node.args:
            values = node.args[0].value
            if isinstance(values, cst.List | cst.Tuple | cst.Set) and all(
                string_literal(element.value) is not None for element in values.elements
            ):
                self.found = True


class MixedColumnAssignment(cst.CSTTransformer):
    """Before `df.loc[df['c'] == 'male', 'c'] = 0`: `df['c'] = df['c'].astype(object)`.

    A text column read today has the `str` dtype, which refuses non-text values; the legacy
    column was `object` and took them. Only when the mask shows the column holds text.
    """

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.done: set[tuple[str, str]] = set()

    @staticmethod
    def _target(
        target: cst.BaseExpression,
    ) -> tuple[str, cst.BaseExpression, cst.BaseExpression] | None:
        """(frame, label, mask) for `df.loc[mask, 'c']` and `df['c'][mask]`."""
        if not isinstance(target, cst.Subscript):
            return None
        value = target.value
        if isinstance(value, cst.Attribute) and value.attr.value == "loc":
            if len(target.slice) != 2:
                return None
            mask, label = (element.slice for element in target.slice)
            frame = dotted_name(value.value)
            if not isinstance(mask, cst.Index) or not isinstance(label, cst.Index):
                return None
            if frame is None or string_literal(label.value) is None:
                return None
            return frame, label.value, mask.value
        key = single_index(target)
        if key is not None and isinstance(value, cst.Subscript):
            frame, label_node = dotted_name(value.value), single_index(value)
            if frame is None or label_node is None or string_literal(label_node) is None:
                return None
            return frame, label_node, key
        return None

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        """A cast already there (`df['c'] = df['c'].astype(object)`, this rule's own) counts
        as done: the rule applied to its output changes nothing."""
        for statement in node.body:
            if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
                continue
            target = statement.targets[0].target
            if not isinstance(target, cst.Subscript) or code(statement.value) != (
                f"{code(target)}.astype(object)"
            ):
                continue
            frame, label = dotted_name(target.value), single_index(target)
            if frame is not None and label is not None and string_literal(label) is not None:
                self.done.add((frame, string_literal(label) or ""))

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        added: list[cst.BaseSmallStatement] = []
        for statement in updated_node.body:
            if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
                continue
            if string_literal(statement.value) is not None or code(statement.value) == "None":
                continue
            found = self._target(statement.targets[0].target)
            if found is None:
                continue
            frame, label, mask = found
            key = (frame, string_literal(label) or "")
            if key in self.done:
                continue
            evidence = _TextEvidence(key)
            mask.visit(evidence)
            if not evidence.found:
                continue
            self.done.add(key)
            column = f"{frame}[{code(label)}]"
            added.append(small_statement(f"{column} = {column}.astype(object)"))
        if not added:
            return updated_node
        return statement_before(updated_node, added)


class IssubdtypeText(cst.CSTTransformer):
    """`np.issubdtype(s.dtype, t)` -> `np.issubdtype(s.dtype if s.dtype != 'str' else object, t)`:
    numpy cannot read the `str` dtype; the column it stands for was `object`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(updated_node.func, self.context.aliases) != "numpy.issubdtype":
            return updated_node
        if len(updated_node.args) != 2 or updated_node.args[0].keyword is not None:
            return updated_node
        first = updated_node.args[0]
        dtype = first.value
        if ObjectDtypeComparison._kind(dtype) != "one" or isinstance(dtype, cst.Call):
            return updated_node
        if isinstance(dtype, cst.Attribute) and dtype.attr.value == "name":
            return updated_node
        spelled = code(dtype)
        replaced = expression(f"{spelled} if {spelled} != 'str' else object")
        return updated_node.with_changes(
            args=[first.with_changes(value=replaced), *updated_node.args[1:]]
        )


RULES = (
    Rule(
        id="pandas.str-dtype-object-comparison",
        library="pandas",
        changed_in="3.0",
        summary=(
            "text columns are `str`, no longer `object`: `s.dtype == object` -> "
            "`s.dtype in (object, 'str')`, `df.dtypes == 'object'` -> "
            "`(df.dtypes == 'object') | (df.dtypes == 'str')` (`!=` likewise)"
        ),
        kind=Kind.SILENT,
        rewrite=cst_rewrite(
            ObjectDtypeComparison,
            ("dtype", "dtypes"),
            compares_to({"object", "numpy.object_", "numpy.object"}, {"object", "O"}),
        ),
        gone=rejects(
            "import pandas as pd\n"
            "if pd.Series(['a']).dtype != object:\n"
            "    raise TypeError('text is not object')"
        ),
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'name': ['a', 'b'], 'n': [1, 2], 'mixed': [1, 'x']})\n"
                    "text = [c for c in frame.columns if frame[c].dtype == object]\n"
                    "numeric = frame.columns[frame.dtypes != 'object'].tolist()\n"
                    "flags = [frame[c].dtype != np.object_ for c in frame.columns]\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'name': ['a', 'b'], 'n': [1, 2], 'mixed': [1, 'x']})\n"
                    "text = [c for c in frame.columns if frame[c].dtype in (object, 'str')]\n"
                    "numeric = frame.columns[(frame.dtypes != 'object') & (frame.dtypes != 'str')]"
                    ".tolist()\n"
                    "flags = [frame[c].dtype not in (np.object_, 'str') for c in frame.columns]\n"
                ),
                check=(
                    "text == ['name', 'mixed'] and numeric == ['n'] and flags == [False, True, False]"
                ),
            ),
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'city': ['x', 'y'], 'n': [1.5, 2.5]})\n"
                    "kinds = [str(frame[c].dtype) == 'object' for c in frame.columns]\n"
                    "names = [c for c in frame.columns if frame[c].dtype.name != 'object']\n"
                    "codes = {c: frame[c].astype('category').cat.codes for c in frame.columns\n"
                    "         if frame.dtypes[c] == 'O'}\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'city': ['x', 'y'], 'n': [1.5, 2.5]})\n"
                    "kinds = [str(frame[c].dtype) in ('object', 'str') for c in frame.columns]\n"
                    "names = [c for c in frame.columns if frame[c].dtype.name not in ('object', 'str')]\n"
                    "codes = {c: frame[c].astype('category').cat.codes for c in frame.columns\n"
                    "         if frame.dtypes[c] in ('O', 'str')}\n"
                ),
                check="kinds == [True, False] and names == ['n'] and list(codes) == ['city']",
            ),
        ),
    ),
    Rule(
        id="pandas.str-dtype-mixed-assignment",
        library="pandas",
        changed_in="3.0",
        summary=(
            "a `str` column refuses numbers (`df.loc[df['sex'] == 'male', 'sex'] = 0`): the "
            "column is first made `object`, as text columns were, when the mask shows it holds "
            "text; in the failing cell only"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(MixedColumnAssignment),
        symptoms=(Symptom("TypeError", r"Invalid value '.*' for dtype '(str|string)'"),),
        gone=None,  # which column is text is only known when it fails
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'sex': ['male', 'female', 'male'], 'port': ['S', 'C', 'Q']})\n"
                    "# encode the labels\n"
                    "frame.loc[frame['sex'] == 'male', 'sex'] = 0\n"
                    "frame.loc[frame['sex'] == 'female', 'sex'] = 1\n"
                    "frame.loc[frame.port.isin(['S', 'Q']), 'port'] = 0\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'sex': ['male', 'female', 'male'], 'port': ['S', 'C', 'Q']})\n"
                    "# encode the labels\n"
                    "frame['sex'] = frame['sex'].astype(object)\n"
                    "frame.loc[frame['sex'] == 'male', 'sex'] = 0\n"
                    "frame.loc[frame['sex'] == 'female', 'sex'] = 1\n"
                    "frame['port'] = frame['port'].astype(object)\n"
                    "frame.loc[frame.port.isin(['S', 'Q']), 'port'] = 0\n"
                ),
                error="TypeError",
                check=(
                    "frame['sex'].tolist() == [0, 1, 0] and frame['sex'].dtype == object "
                    "and frame['port'].tolist() == [0, 'C', 0]"
                ),
            ),
        ),
    ),
    Rule(
        id="pandas.str-dtype-issubdtype",
        library="pandas",
        changed_in="3.0",
        summary=(
            "`np.issubdtype(s.dtype, t)` on a `str` column (numpy cannot read that dtype) -> "
            "`np.issubdtype(s.dtype if s.dtype != 'str' else object, t)`: the legacy `object`; "
            "in the failing cell only"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(IssubdtypeText),
        symptoms=(Symptom("TypeError", r"Cannot interpret '<StringDtype\(.*\)>' as a data type"),),
        gone=None,  # only calls that meet a `str` column fail
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'name': ['a', 'b'], 'n': [1, 2], 'ok': [True, False]})\n"
                    "numeric = [c for c in frame.columns if np.issubdtype(frame[c].dtype, np.number)]\n"
                    "text = [c for c in frame.columns if np.issubdtype(frame.dtypes[c], np.object_)]\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "frame = pd.DataFrame({'name': ['a', 'b'], 'n': [1, 2], 'ok': [True, False]})\n"
                    "numeric = [c for c in frame.columns if np.issubdtype(frame[c].dtype if "
                    "frame[c].dtype != 'str' else object, np.number)]\n"
                    "text = [c for c in frame.columns if np.issubdtype(frame.dtypes[c] if "
                    "frame.dtypes[c] != 'str' else object, np.object_)]\n"
                ),
                error="TypeError",
                check="numeric == ['n'] and text == ['name']",
            ),
        ),
    ),
)
