"""Whether a cell mentions a rule's trigger names (`needles`), without parsing it: a rule
whose needles a cell does not mention cannot change it, so the cell is not parsed for that
rule (pyupgrade's token pass). The names of a cell are read once per state of the cell.

A needle that is a name (`as_matrix`, `n_iter`) matches a whole word of the cell (`\\w+`: the
names, and the words inside its strings and comments), or an imported name that stands for a
qualified name with that part (`from scipy.misc import imread as read`: a cell that mentions
`read` mentions `imread`, `misc` and `scipy`); any other needle (`.ix[`, `'liblinear'`)
matches as text.

The memos of the last cell (its names and references) are per thread: the
operator's workers fix several notebooks at once.

A rule may also declare an `AstTrigger`: a cheap test on the stdlib `ast` tree that
`cells.parse` already built (a superset of where the rule could change the cell: an assignment
to a subscript of a subscript, an attribute whose qualified name is a target), checked after
the needles and before LibCST parses the cell. A cell that does not parse as Python 3 is not
filtered by triggers.
"""

from __future__ import annotations

import ast
import functools
import re
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

from nbmodernizer.cells import nodes_by_type
from nbmodernizer.fidelity.syntax import dotted
from nbmodernizer.fixers.rules.context import RuleContext

_WORD = re.compile(r"\w+")

# The tests turn this off to check that the needles and triggers never hide a finding.
ENABLED = True


@functools.lru_cache(maxsize=256)
def _words(source: str) -> frozenset[str]:
    return frozenset(_WORD.findall(source))


@functools.lru_cache(maxsize=1024)
def _split(needles: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]]:
    """The needles that are names, and the others (matched as text)."""
    return (
        frozenset(n for n in needles if n.isidentifier()),
        tuple(n for n in needles if not n.isidentifier()),
    )


class _Mentioned(threading.local):
    """The last cell's names with its imported names' parts (the rules of a cell ask in turn
    about the same state of it, in the same notebook)."""

    def __init__(self) -> None:
        self.aliases: Mapping[str, str] | None = None  # held: its id is not reused meanwhile
        self.parts: dict[str, frozenset[str]] = {}
        self.source: str | None = None
        self.names: frozenset[str] = frozenset()

    def __call__(self, source: str, aliases: Mapping[str, str]) -> frozenset[str]:
        if aliases is not self.aliases:
            self.aliases, self.source = aliases, None
            self.parts = {
                local: frozenset(qualified.split("."))
                for local, qualified in aliases.items()
                if qualified != local
            }
        if source != self.source:
            words = _words(source)
            extra = [self.parts[word] for word in words.intersection(self.parts)]
            self.source, self.names = source, words.union(*extra) if extra else words
        return self.names


mentioned = _Mentioned()


def mentions(source: str, needles: Collection[str], aliases: Mapping[str, str]) -> bool:
    """Whether the cell mentions one of the needles (True when there are none)."""
    if not needles or not ENABLED:
        return True
    names, texts = _split(tuple(needles))
    return not names.isdisjoint(mentioned(source, aliases)) or any(t in source for t in texts)


class NeedleIndex:
    """Which of many rewrites' needles a cell mentions, read from the cell's names once
    (`mentions` for each, at the cost of about one): a rule set's needles, indexed."""

    def __init__(self, needles: Sequence[Collection[str]]) -> None:
        self.size = len(needles)
        self.always = [n for n, found in enumerate(needles) if not found]
        self.by_name: dict[str, list[int]] = {}
        self.by_text: dict[str, list[int]] = {}
        for n, found in enumerate(needles):
            names, texts = _split(tuple(found))
            for name in names:
                self.by_name.setdefault(name, []).append(n)
            for text in texts:
                self.by_text.setdefault(text, []).append(n)

    def mentioned(self, source: str, aliases: Mapping[str, str]) -> list[int]:
        """The positions whose needles the cell mentions (all of them, in order, where
        `mentions` would say so)."""
        if not ENABLED:
            return list(range(self.size))
        found = set(self.always)
        words = mentioned(source, aliases)
        for name in words.intersection(self.by_name):
            found.update(self.by_name[name])
        for text, positions in self.by_text.items():
            if text in source:
                found.update(positions)
        return sorted(found)


def parts(*qualified: str) -> tuple[str, ...]:
    """Needles for rules that find qualified names (`numpy.float`, `sklearn.cross_validation`):
    each name's parts but its package, or the name itself when it has no package."""
    found: dict[str, None] = {}
    for name in qualified:
        pieces = name.split(".")
        for piece in pieces[1:] or pieces:
            found[piece] = None
    return tuple(found)


# --- triggers on the `ast` tree ---------------------------------------------------------------

# (the cell's tree, what the rules know of the notebook: its import aliases, its environment's
# facts) -> whether the rule could change the cell
AstTrigger = Callable[[ast.Module, RuleContext], bool]


def nodes(tree: ast.Module, *kinds: type) -> Iterable[ast.AST]:
    """The nodes of these exact types in the tree (`cells.nodes_by_type`)."""
    by_type = nodes_by_type(tree)
    for kind in kinds:
        yield from by_type.get(kind, ())


def triggered(tree: ast.Module | None, trigger: AstTrigger | None, context: RuleContext) -> bool:
    """Whether the rule's trigger holds for the cell (True without a trigger, or for a cell
    that does not parse as Python 3)."""
    if trigger is None or tree is None or not ENABLED:
        return True
    return trigger(tree, context)


def _qualified(node: ast.expr, aliases: Mapping[str, str]) -> str | None:
    """`toolkit.nodes.qualified` on the `ast` tree."""
    name = dotted(node)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    resolved = aliases.get(head, head)
    return f"{resolved}.{rest}" if rest else resolved


def _names(tree: ast.Module) -> Iterable[str]:
    """The identifiers LibCST sees as `Name` nodes outside imports (not keywords, parameters,
    definitions' or attributes' names)."""
    for node in nodes(tree, ast.Name, ast.ExceptHandler, ast.Global, ast.Nonlocal):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name
        elif isinstance(node, ast.Global | ast.Nonlocal):
            yield from node.names


def _imported(tree: ast.Module) -> Iterable[str]:
    """The qualified names imports name: `a.b.c` for `import a.b.c` and `from a.b import c`,
    the module for `from a.b import *`."""
    for node in nodes(tree, ast.Import, ast.ImportFrom):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


class _References(threading.local):
    """The last tree's references, with every dotted prefix of each (`numpy`, `numpy.random`,
    `numpy.random.rand`): the qualified names (through the import aliases) of its attribute
    chains, of its names bound by an import, and of what its imports name."""

    def __init__(self) -> None:
        self.key: tuple[ast.Module, Mapping[str, str]] | None = None  # held: ids not reused
        self.found: frozenset[str] = frozenset()
        self.dotted: frozenset[str] = frozenset()  # of attribute chains and imports only
        self.bound: frozenset[str] = frozenset()  # the names bound by an import, used bare

    def __call__(
        self, tree: ast.Module, aliases: Mapping[str, str], bare: bool = True
    ) -> frozenset[str]:
        """All of them; without `bare`, not those only a bare name refers to."""
        self._read(tree, aliases)
        return self.found if bare else self.dotted

    def bare_names(self, tree: ast.Module, aliases: Mapping[str, str]) -> frozenset[str]:
        """The names bound by an import (in any cell) that the tree uses bare."""
        self._read(tree, aliases)
        return self.bound

    def _read(self, tree: ast.Module, aliases: Mapping[str, str]) -> None:
        if self.key is None or self.key[0] is not tree or self.key[1] is not aliases:
            self.bound = frozenset(name for name in set(_names(tree)) if name in aliases)
            attributes = (
                _qualified(node, aliases)
                for node in nodes(tree, ast.Attribute)
                if isinstance(node, ast.Attribute)
            )
            self.dotted = _prefixes([*attributes, *_imported(tree)])
            self.found = self.dotted | _prefixes(aliases[name] for name in self.bound)
            self.key = (tree, aliases)


def _prefixes(names: Iterable[str | None]) -> frozenset[str]:
    found: set[str] = set()
    for name in names:
        if name is not None:
            pieces = name.split(".")
            found.update(".".join(pieces[:end]) for end in range(1, len(pieces) + 1))
    return frozenset(found)


references = _References()


def refers_to(
    targets: Collection[str], bare: Callable[[str, Mapping[str, str]], bool] | None = None
) -> AstTrigger:
    """A trigger: the cell refers to a target, or to something under it (`references`):
    through an attribute chain (`np.float`), a name an import bound (`imread` from
    `from scipy.misc import imread`), or an import. `bare(name, aliases)`: whether the rule
    could change that name where it stands bare (a name bound by an import, maybe in
    another cell); a bare name it would leave as it is does not count."""
    wanted = frozenset(targets)

    def trigger(tree: ast.Module, context: RuleContext) -> bool:
        aliases = context.aliases
        if bare is None:
            return not wanted.isdisjoint(references(tree, aliases))
        if not wanted.isdisjoint(references(tree, aliases, bare=False)):
            return True
        return any(bare(name, aliases) for name in references.bare_names(tree, aliases))

    return trigger


def call_to(
    targets: Collection[str], keywords: Mapping[str, Collection[str]] | None = None
) -> AstTrigger:
    """A trigger: a call whose callee's qualified name (`pd.DataFrame(`) is a target; for a
    target in `keywords`, only a call that passes one of its keyword arguments by name."""
    wanted = frozenset(targets)
    needed = {target: frozenset(names) for target, names in (keywords or {}).items()}

    def fits(call: ast.Call, aliases: Mapping[str, str]) -> bool:
        name = _qualified(call.func, aliases)
        if name not in wanted:
            return False
        names = needed.get(name)
        return names is None or any(keyword.arg in names for keyword in call.keywords)

    def trigger(tree: ast.Module, context: RuleContext) -> bool:
        aliases = context.aliases
        return any(
            fits(node, aliases) for node in nodes(tree, ast.Call) if isinstance(node, ast.Call)
        )

    return trigger


def call_named(*names: str) -> AstTrigger:
    """A trigger: a call whose callee ends with the last segment of one of `names`: a name, or
    an attribute on any receiver (`toolkit.calls.calls_to` matches a bare last segment too;
    `'a'.translate(...)`, `Model().fit(...)`)."""
    lasts = frozenset(name.rsplit(".", 1)[-1] for name in names)

    def trigger(tree: ast.Module, _context: RuleContext) -> bool:
        return any(
            _last(node.func) in lasts
            for node in nodes(tree, ast.Call)
            if isinstance(node, ast.Call)
        )

    return trigger


def _last(func: ast.expr) -> str | None:
    """The callee's last name: `fit` of `Model().fit`, `f` of `f`; None for anything else."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


# what a callee takes by position, from its qualified name (or a method's name) and the
# environment's facts; None: a callee the rule does not know
Positional = Callable[[str, RuleContext], int | None]


def _positional(call: ast.Call) -> int | None:
    """How many arguments a call passes by position; None when it unpacks `*a` or `**k`
    (`toolkit.calls.call_arguments`: such a call is left alone)."""
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(
        keyword.arg is None for keyword in call.keywords
    ):
        return None
    return len(call.args)


def extra_positional(
    function: Positional | None = None, method: Positional | None = None
) -> AstTrigger:
    """A trigger for rules that name extra positional arguments (`toolkit.signatures`): a call
    passing more arguments by position than its callee takes, the callee known by its
    qualified name through the imports (`function`) or, on any receiver but an imported
    name (`_module_receiver`), by the method's name (`method`)."""

    def takes(call: ast.Call, context: RuleContext) -> int | None:
        if function is not None:
            name = _qualified(call.func, context.aliases)
            taken = None if name is None else function(name, context)
            if taken is not None:
                return taken
        func = call.func
        if method is None or not isinstance(func, ast.Attribute):
            return None
        taken = method(func.attr, context)
        return None if taken is None or _module_receiver(func.value, context) else taken

    def trigger(tree: ast.Module, context: RuleContext) -> bool:
        for node in nodes(tree, ast.Call):
            assert isinstance(node, ast.Call)
            passed = _positional(node)
            if passed is None or passed == 0:
                continue
            taken = takes(node, context)
            if taken is not None and passed > taken:
                return True
        return False

    return trigger


def _ends_with(call: ast.Call, lasts: frozenset[str], aliases: Mapping[str, str]) -> bool:
    """Whether the callee (a name or attribute chain) ends with one of `lasts`, as written or
    through the imports (`KF(...)` after `import KFold as KF`): `toolkit.calls.callee_is`."""
    qualified = _qualified(call.func, aliases)
    return _last(call.func) in lasts or (
        qualified is not None and qualified.rsplit(".", 1)[-1] in lasts
    )


def passes_keyword(
    names: Collection[str],
    called: Collection[str] = (),
    where: Callable[[ast.Call], bool] | None = None,
    on_built: Collection[str] = (),
) -> AstTrigger:
    """A trigger: a call passing one of these keyword arguments by name (`f(b=True)`; not
    through `**kwargs`); with `called`, only a call whose callee (a name or attribute chain)
    ends with the last segment of one of those names (as `toolkit.calls.callee_is`); with
    `where`, only a call that passes that test too; with `on_built`, only a method call on
    an object the cell builds with a call to one of those (matched as `called`):
    `LGBMClassifier(...).fit(...)`, or `m.fit(...)` where the cell assigns
    `m = LGBMClassifier(...)`."""
    wanted = frozenset(names)
    lasts = frozenset(name.rsplit(".", 1)[-1] for name in called)
    builders = frozenset(name.rsplit(".", 1)[-1] for name in on_built)

    def built(tree: ast.Module, aliases: Mapping[str, str]) -> set[str]:
        """The names the cell assigns a call to one of `builders`."""
        return {
            target.id
            for node in nodes(tree, ast.Assign)
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and _ends_with(node.value, builders, aliases)
            for target in node.targets
            if isinstance(target, ast.Name)
        }

    def trigger(tree: ast.Module, context: RuleContext) -> bool:
        aliases = context.aliases
        calls = [
            node
            for node in nodes(tree, ast.Call)
            if isinstance(node, ast.Call)
            and any(keyword.arg in wanted for keyword in node.keywords)
            and (not lasts or _ends_with(node, lasts, aliases))
            and (where is None or where(node))
        ]
        if not builders or not calls:
            return bool(calls)
        names: set[str] | None = None
        for call in calls:
            receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
            if isinstance(receiver, ast.Call) and _ends_with(receiver, builders, aliases):
                return True
            if isinstance(receiver, ast.Name):
                names = built(tree, aliases) if names is None else names
                if receiver.id in names:
                    return True
        return False

    return trigger


def has_string(values: Collection[str] | Callable[[str], bool]) -> AstTrigger:
    """A trigger: a string literal (or the literal text of an f-string) whose value is one of
    `values`, or, for a test, that passes it."""
    test = values if callable(values) else frozenset(values).__contains__

    def trigger(tree: ast.Module, _context: RuleContext) -> bool:
        return any(
            isinstance(node, ast.Constant) and isinstance(node.value, str) and test(node.value)
            for node in nodes(tree, ast.Constant)
        )

    return trigger


def attribute_named(*names: str) -> AstTrigger:
    """A trigger: an attribute with one of these names (`x.ftypes`, `df.order(...)`)."""
    wanted = frozenset(names)

    def trigger(tree: ast.Module, _context: RuleContext) -> bool:
        return any(
            isinstance(node, ast.Attribute) and node.attr in wanted
            for node in nodes(tree, ast.Attribute)
        )

    return trigger


def method_called(*names: str, on: str | None = None) -> AstTrigger:
    """A trigger: a method call `x.name(...)` for one of `names` whose receiver is not rooted
    in an imported name (`_module_receiver`); with `on`, only `x.<on>.name(...)`
    (`s.str.replace(...)`)."""
    wanted = frozenset(names)

    def trigger(tree: ast.Module, context: RuleContext) -> bool:
        for node in nodes(tree, ast.Call):
            func = node.func if isinstance(node, ast.Call) else None
            if not isinstance(func, ast.Attribute) or func.attr not in wanted:
                continue
            receiver = func.value
            if on is not None:
                if isinstance(receiver, ast.Attribute) and receiver.attr == on:
                    return True
                continue
            if not _module_receiver(receiver, context):
                return True
        return False

    return trigger


def _module_receiver(receiver: ast.expr, context: RuleContext) -> bool:
    """Whether a method call's receiver is rooted in an imported name (`np.sort(...)`,
    `tf.x.y(...)`: a module's function, which rules on methods leave alone:
    `pandas.common.is_module_receiver`)."""
    name = dotted(receiver)
    return name is not None and name.split(".")[0] in context.aliases


def either(*triggers: AstTrigger) -> AstTrigger:
    """A trigger that holds where one of these holds."""

    def trigger(tree: ast.Module, context: RuleContext) -> bool:
        return any(each(tree, context) for each in triggers)

    return trigger


def compares_to(names: Collection[str] = (), strings: Collection[str] = ()) -> AstTrigger:
    """A trigger: an `==` or `!=` comparison (one operator) with, on one side, a name or
    attribute chain whose qualified name is in `names`, or a string literal in `strings`."""
    wanted_names, wanted_strings = frozenset(names), frozenset(strings)

    def side(node: ast.expr, aliases: Mapping[str, str]) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str) and node.value in wanted_strings
        return _qualified(node, aliases) in wanted_names

    def trigger(tree: ast.Module, context: RuleContext) -> bool:
        aliases = context.aliases
        for node in nodes(tree, ast.Compare):
            assert isinstance(node, ast.Compare)
            if len(node.ops) != 1 or not isinstance(node.ops[0], ast.Eq | ast.NotEq):
                continue
            if side(node.left, aliases) or side(node.comparators[0], aliases):
                return True
        return False

    return trigger
