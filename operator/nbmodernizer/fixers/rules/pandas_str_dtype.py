"""LibCST transforms for the pandas `str` dtype, and renamed pandas methods."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.arguments import literal_bool, string_literal
from nbmodernizer.fixers.rules.cells import dotted_name, expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import as_keyword, code
from nbmodernizer.fixers.rules.pandas_cow import NOT_COLUMNS
from nbmodernizer.fixers.rules.pandas_cst import (
    call_arguments,
    is_module_receiver,
    single_index,
    small_statement,
    statement_before,
    subscript_of,
)

# --------------------------------------------------------------------------- string dtype

_OBJECT_SPELLINGS = frozenset({"object", "'object'", '"object"', "'O'", '"O"'})


def _is_object(node: cst.BaseExpression, context: RuleContext) -> bool:
    if code(node) in _OBJECT_SPELLINGS:
        return True
    return qualified(node, context.aliases) in ("numpy.object_", "numpy.object")


class ObjectDtypeComparison(cst.CSTTransformer):
    """`s.dtype == object` -> `s.dtype in (object, 'str')`; `.dtypes` compare both."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

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
        if self._kind(left) is None:
            return None
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

    def leave_Comparison(
        self, original_node: cst.Comparison, updated_node: cst.Comparison
    ) -> cst.BaseExpression:
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


class SortToSortValues(cst.CSTTransformer):
    """`df.sort('a')` / `df.sort(columns=['a', 'b'])` -> `df.sort_values(...)`."""

    LEGACY = ("axis", "ascending", "inplace", "kind", "na_position")

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    @staticmethod
    def _labels(node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.List | cst.Tuple):
            return bool(node.elements) and all(
                string_literal(element.value) is not None for element in node.elements
            )
        return string_literal(node) is not None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != "sort":
            return updated_node
        arguments = call_arguments(updated_node)
        if arguments is None or is_module_receiver(func.value, self.context):
            return updated_node
        positional, keywords = arguments
        by = positional[0].value if positional else getattr(keywords.get("columns"), "value", None)
        if by is None or not self._labels(by) or len(positional) > 1 + len(self.LEGACY):
            return updated_node
        args: list[cst.Arg] = []
        for n, arg in enumerate(updated_node.args):
            if arg.keyword is not None and arg.keyword.value == "columns":
                arg = arg.with_changes(keyword=cst.Name("by"))
            elif arg.keyword is None and n > 0:
                arg = as_keyword(arg, self.LEGACY[n - 1])
            args.append(arg)
        return updated_node.with_changes(
            func=func.with_changes(attr=cst.Name("sort_values")), args=args
        )


def _cell_access(call: cst.Call, method: str, count: tuple[int, ...]) -> cst.Subscript | None:
    """`df.get_value(i, 'c')` -> `df.at[i, 'c']` (`.iat` with `takeable=True`)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != method:
        return None
    arguments = call_arguments(call)
    if arguments is None or set(arguments[1]) - {"takeable"}:
        return None
    positional, keywords = arguments
    if len(positional) not in count:
        return None
    takeable = literal_bool(keywords["takeable"].value) if "takeable" in keywords else False
    if takeable is None:
        return None
    keys = [arg.value for arg in positional]
    if method == "set_value":
        keys = keys[:-1]
    return subscript_of(func.value, *keys, attr="iat" if takeable else "at")


class GetSetValue(cst.CSTTransformer):
    """`df.get_value(i, 'c')` -> `df.at[i, 'c']`; `df.set_value(i, 'c', v)` -> `df.at[...] = v`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and is_module_receiver(func.value, self.context):
            return updated_node
        access = _cell_access(updated_node, "get_value", (1, 2))
        if access is None:
            return updated_node
        return access.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)

    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.BaseSmallStatement:
        call = updated_node.value
        if not isinstance(call, cst.Call):
            return updated_node
        func = call.func
        if isinstance(func, cst.Attribute) and is_module_receiver(func.value, self.context):
            return updated_node
        access = _cell_access(call, "set_value", (2, 3))
        if access is None:
            return updated_node
        value = [arg for arg in call.args if arg.keyword is None][-1].value
        return cst.Assign(targets=[cst.AssignTarget(access)], value=value)


class RenameAttribute(cst.CSTTransformer):
    """`x.old` -> `x.new` for an attribute that is not called (a property)."""

    def __init__(self, renames: dict[str, str]) -> None:
        super().__init__()
        self.renames = renames

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        if updated_node.attr.value in self.renames:
            return updated_node.with_changes(attr=cst.Name(self.renames[updated_node.attr.value]))
        return updated_node
