"""Small LibCST transforms from which most rules are made: each returns a Rewrite."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import libcst as cst

from nbmodernizer.fixers.rules.cells import dotted_name, expression, qualified, transform_python
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Rewrite

TransformerFactory = Callable[[RuleContext], cst.CSTTransformer]


def cst_rewrite(factory: TransformerFactory) -> Rewrite:
    """A Rewrite from a LibCST transformer built for the notebook's context."""

    def rewrite(source: str, context: RuleContext) -> str:
        return transform_python(source, lambda module: module.visit(factory(context)))

    return rewrite


def chain(*rewrites: Rewrite) -> Rewrite:
    def rewrite(source: str, context: RuleContext) -> str:
        for step in rewrites:
            source = step(source, context)
        return source

    return rewrite


def _module_expression(dotted: str) -> cst.Attribute | cst.Name:
    node = expression(dotted)
    assert isinstance(node, cst.Attribute | cst.Name)
    return node


class _ModuleMover(cst.CSTTransformer):
    def __init__(self, old: str, new: str, names: dict[str, str]) -> None:
        self.old, self.new, self.names = old, new, names

    def _moved(self, module: str) -> str | None:
        if module == self.old:
            return self.new
        if module.startswith(self.old + "."):
            return self.new + module[len(self.old) :]
        return None

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        if updated_node.module is None or updated_node.relative:
            return updated_node
        current = dotted_name(updated_node.module)
        moved = self._moved(current) if current else None
        if moved is None:
            return updated_node
        result = updated_node.with_changes(module=_module_expression(moved))
        if self.names and not isinstance(updated_node.names, cst.ImportStar):
            renamed = [
                alias.with_changes(name=cst.Name(self.names[alias.name.value]))
                if isinstance(alias.name, cst.Name) and alias.name.value in self.names
                else alias
                for alias in updated_node.names
            ]
            result = result.with_changes(names=renamed)
        return result

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        aliases = []
        for alias in updated_node.names:
            name = dotted_name(alias.name)
            moved = self._moved(name) if name else None
            aliases.append(alias.with_changes(name=_module_expression(moved)) if moved else alias)
        return updated_node.with_changes(names=aliases)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = dotted_name(updated_node)
        moved = self._moved(name) if name else None
        return _module_expression(moved) if moved else updated_node


def move_module(old: str, new: str, names: dict[str, str] | None = None) -> Rewrite:
    """`old` (and its submodules) is now `new`; optionally some names changed too."""
    return cst_rewrite(lambda _context: _ModuleMover(old, new, names or {}))


class _AttributeReplacer(cst.CSTTransformer):
    def __init__(self, context: RuleContext, targets: dict[str, str]) -> None:
        self.aliases = context.aliases
        self.targets = targets

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = qualified(original_node, self.aliases)
        if name not in self.targets:
            return updated_node
        replacement = self.targets[name]
        local_head = (dotted_name(original_node) or name).split(".")[0]
        bound = self.aliases.get(local_head, local_head)  # `np` -> numpy, `Image` -> PIL.Image
        if bound != local_head:  # keep the notebook's names: np.NaN -> np.nan
            replacement = re.sub(rf"(?<![\w.]){re.escape(bound)}\.", f"{local_head}.", replacement)
        return expression(replacement).with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def replace_attributes(targets: dict[str, str]) -> Rewrite:
    """`numpy.float` -> `float`, resolving aliases (`np.float` too)."""
    return cst_rewrite(lambda context: _AttributeReplacer(context, targets))


def callee_is(call: cst.Call, names: Sequence[str], context: RuleContext) -> bool:
    """Whether the call's function is one of `names` (qualified, or a bare last segment)."""
    name = qualified(call.func, context.aliases)
    if name is None:
        return False
    last = name.rsplit(".", 1)[-1]
    return any(name == target or last == target.rsplit(".", 1)[-1] for target in names)


def method_name(call: cst.Call) -> str | None:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None


KeywordEdit = Callable[[cst.Arg], cst.Arg | None]  # None drops the argument


class _KeywordEditor(cst.CSTTransformer):
    def __init__(
        self,
        context: RuleContext,
        applies: Callable[[cst.Call, RuleContext], bool],
        edits: dict[str, KeywordEdit],
    ) -> None:
        self.context, self.applies, self.edits = context, applies, edits

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self.applies(original_node, self.context):
            return updated_node
        args: list[cst.Arg] = []
        changed = False
        for arg in updated_node.args:
            keyword = arg.keyword.value if arg.keyword else None
            if keyword in self.edits:
                edited = self.edits[keyword](arg)
                changed = changed or edited is not arg
                if edited is not None:
                    args.append(edited)
            else:
                args.append(arg)
        if not changed:
            return updated_node
        if args:
            last = args[-1]
            args[-1] = last.with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(args=args)


def edit_keywords(
    applies: Callable[[cst.Call, RuleContext], bool], edits: dict[str, KeywordEdit]
) -> Rewrite:
    return cst_rewrite(lambda context: _KeywordEditor(context, applies, edits))


def calls_to(*names: str) -> Callable[[cst.Call, RuleContext], bool]:
    return lambda call, context: callee_is(call, names, context)


def method_calls(*names: str) -> Callable[[cst.Call, RuleContext], bool]:
    return lambda call, _context: method_name(call) in names


def rename_to(new: str) -> KeywordEdit:
    return lambda arg: arg.with_changes(keyword=cst.Name(new))


def drop() -> KeywordEdit:
    return lambda _arg: None


def string_value(arg: cst.Arg) -> str | None:
    node = arg.value
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def map_value(mapping: dict[str, str], rename: str | None = None) -> KeywordEdit:
    """Replace a string value (`'auto'` -> `'sqrt'`) with Python code; optionally rename."""

    def edit(arg: cst.Arg) -> cst.Arg:
        value = string_value(arg)
        if value not in mapping:
            return arg.with_changes(keyword=cst.Name(rename)) if rename else arg
        changed = arg.with_changes(value=expression(mapping[value]))
        return changed.with_changes(keyword=cst.Name(rename)) if rename else changed

    return edit


class _MethodRenamer(cst.CSTTransformer):
    def __init__(self, renames: dict[str, str]) -> None:
        self.renames = renames

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and func.attr.value in self.renames:
            return updated_node.with_changes(
                func=func.with_changes(attr=cst.Name(self.renames[func.attr.value]))
            )
        return updated_node


def rename_methods(renames: dict[str, str]) -> Rewrite:
    """`x.iteritems()` -> `x.items()`: by method name, whatever the receiver."""
    return cst_rewrite(lambda _context: _MethodRenamer(renames))


def arg_source(arg: cst.Arg | cst.BaseExpression) -> str:
    node = arg.value if isinstance(arg, cst.Arg) else arg
    return cst.Module(body=[]).code_for_node(node)
