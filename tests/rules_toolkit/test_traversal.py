"""toolkit.traversal: LibCST's visit without rebuilding the tree. The same hooks in the same
order as `node.visit`, and every LibCST rule's transform giving the same code, on every rule's
own examples (before and after) and on the repository's notebooks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import libcst as cst
import nbformat
import pytest

from nbmodernizer import cells
from nbmodernizer.fixers.rules import all_rules
from nbmodernizer.fixers.rules.fixer import notebook_context
from nbmodernizer.fixers.rules.toolkit.cells import walkable
from nbmodernizer.fixers.rules.toolkit.traversal import fields, look, transform, trivia
from nbmodernizer.notebook import code_cells

ROOT = Path(__file__).resolve().parents[2]
RULES = all_rules()
# every corner of the grammar the node types' fields have: conditional fields (`from m import
# *` and `import a, b`, an f-string's format spec), sentinels, blocks, decorators, matches
GRAMMAR = '''\
from __future__ import annotations
from . import a
from .b import (c as d, e,)
from m import *
import x.y as z, w
@dec(1)
class K(Base, metaclass=M):
    """doc"""
    attr: int = 1
    async def f(self, a, /, b=2, *c, d: int = 3, **e) -> None:
        async with g() as (h, i), j:
            async for k in l:
                await m
        return [n async for n in o if n]
def p[T: int, *U, **V](q=lambda r, *, s=1: r): yield from q; yield
match t:
    case {"a": 1, **rest} | [1, *others] | Point(x=0, y=_) if t: pass
    case _: pass
try:
    u = v if w else ~x ** -y @ z // 2 % 3 << 4 >> 5 & 6 | 7 ^ 8
except* (E, F) as err:
    raise G from err
else:
    del u[1:2:3], u.attr
finally:
    global aa; nonlocal_ = 1
while not (a is not b and c not in d or e <= f != g):
    a += 1; b -= 1; c *= 2; d /= 2; e //= 1; f %= 3; g **= 2; h @= i; j &= 1; j |= 2; j ^= 3
    j <<= 1; j >>= 1; break
print(f"{a!r:>{width}.{prec}} {b=} {{c}}", rb'x', 'y' 'z', *args, **kwargs)
x = {1: 2, **other}; y = {1, 2}; z = (1,); w = [*a]; v = {k: v for k, v in i}
assert x, "msg"
with open(f) as g: pass
type Alias = list[int]
'''


def sources() -> list[str]:
    found = [GRAMMAR]
    for rule in RULES:
        for example in rule.examples:
            found += [example.before, example.after]
    for path in sorted(ROOT.glob("examples/*/notebook.ipynb")):
        found += [cell.source for cell in code_cells(nbformat.read(path, as_version=4))]
    return [source for source in dict.fromkeys(found)]


def _module(source: str) -> cst.Module | None:
    parsed = cells.parse(source)
    if not parsed.is_python:
        return None
    try:
        return cst.parse_module(parsed.masked)
    except cst.ParserSyntaxError:
        return None


class _Trace(cst.CSTTransformer):
    """Every hook, with the node's type and the attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, str, str]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.events.append(("visit", type(node).__name__, ""))
        return True

    def on_leave(self, original_node: Any, updated_node: Any) -> Any:
        self.events.append(("leave", type(original_node).__name__, ""))
        return updated_node

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        self.events.append(("visit_attribute", type(node).__name__, attribute))

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        self.events.append(("leave_attribute", type(original_node).__name__, attribute))


def test_every_node_type_has_its_fields_read() -> None:
    def subclasses(kind: type) -> set[type]:
        found: set[type] = set(kind.__subclasses__())
        for sub in list(found):
            found |= subclasses(sub)
        return found

    import inspect

    concrete = [k for k in subclasses(cst.CSTNode) if not inspect.isabstract(k)]
    assert len(concrete) > 200
    assert [k.__name__ for k in concrete if fields(k) is None] == []


def test_the_grammar_parses() -> None:
    assert _module(GRAMMAR) is not None


def python3_sources() -> list[str]:
    """The sources LibCST parses (the Python 2 examples' legacy side does not)."""
    return [source for source in sources() if _module(source) is not None]


@pytest.mark.parametrize("source", python3_sources()[:1] + python3_sources()[1::7])
def test_the_same_hooks_in_the_same_order(source: str) -> None:
    module = _module(source)
    assert module is not None
    theirs, looked, transformed = _Trace(), _Trace(), _Trace()
    module.visit(theirs)
    look(module, looked)
    assert transform(module, transformed) is module  # nothing replaced, nothing rebuilt
    assert looked.events == theirs.events
    assert transformed.events == theirs.events


def test_every_rule_transforms_as_libcst_does() -> None:
    """Each LibCST rule on its own examples and on a sample of the other sources."""
    sample = sources()[::20]
    compared = changed = 0
    for rule in RULES:
        own = [text for example in rule.examples for text in (example.before, example.after)]
        for source in dict.fromkeys(own + sample):
            module = _module(source)
            if module is None:
                continue
            context, _ = notebook_context([source], False, None)
            for step in walkable(rule.rewrite) or ():
                try:
                    expected: str | type = module.visit(step.factory(context)).code
                except Exception as error:  # a transformer that raises raises the same way
                    expected = type(error)
                try:
                    got: str | type = transform(module, step.factory(context)).code
                except Exception as error:
                    got = type(error)
                assert got == expected, (rule.id, source)
                compared += 1
                changed += expected != module.code
    assert compared > 3_000 and changed > 150


def _nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = [node]
    for child in node.children:
        found += _nodes(child)
    return found


def test_trivia_hold_only_trivia() -> None:
    """What `look` and `transform` skip for a visitor with no trivia hook: every node under a
    trivia node is trivia, on the grammar, every rule's examples and the notebooks."""
    seen: set[str] = set()
    for source in python3_sources():
        module = _module(source)
        assert module is not None
        for node in _nodes(module):
            if trivia(type(node)):
                seen.add(type(node).__name__)
                assert all(trivia(type(inner)) for inner in _nodes(node)), (source, node)
    assert {"SimpleWhitespace", "Comma", "LeftParen", "Comment", "Add"} <= seen
    assert not trivia(cst.Name) and not trivia(cst.Call) and not trivia(cst.Arg)


class _Calls(cst.CSTTransformer):
    """A dispatching visitor (pruned: it has no trivia hook) recording its hooks' calls."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, str]] = []

    def visit_Call(self, node: cst.Call) -> bool:
        self.events.append(("visit", cst.Module([]).code_for_node(node)))
        return True

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        self.events.append(("leave", original_node.value))
        return updated_node.with_changes(value=updated_node.value + "_")


@pytest.mark.parametrize("source", python3_sources()[:1] + python3_sources()[3::11])
def test_pruned_walks_call_the_same_hooks_and_replace_the_same(source: str) -> None:
    module = _module(source)
    assert module is not None
    theirs, looked, transformed = _Calls(), _Calls(), _Calls()
    expected = module.visit(theirs).code
    look(module, looked)
    assert transform(module, transformed).code == expected
    assert looked.events == theirs.events == transformed.events


def test_the_hooks_a_visitor_defines_are_those_dir_finds_for_every_visitor_of_the_rules() -> None:
    from nbmodernizer.fixers.rules.toolkit.traversal import overrides

    def below(kind: type) -> set[type]:
        children: list[type] = kind.__subclasses__()
        return {kind} | {sub for child in children for sub in below(child)}

    def by_dir(kind: type) -> frozenset[str]:
        base = cst.CSTTransformer if issubclass(kind, cst.CSTTransformer) else cst.CSTVisitor
        return frozenset(
            name
            for name in dir(kind)
            if name.startswith(("visit_", "leave_"))
            and getattr(kind, name) is not getattr(base, name, None)
        )

    class Local(cst.CSTTransformer):  # as rules define them inside functions
        def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
            return updated_node

    all_rules()
    visitors = below(cst.CSTVisitor) | below(cst.CSTTransformer)
    assert len(visitors) > 100
    assert all(overrides(kind) == by_dir(kind) for kind in visitors)
    assert overrides(Local) == {"leave_Name"}
