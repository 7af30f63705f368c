"""Modules Python 3 renamed, and the functions of the `string` module it removed."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import method_name
from nbmodernizer.fixers.rules.toolkit.cells import chain, cst_rewrite
from nbmodernizer.fixers.rules.toolkit.moves import replace_attributes
from nbmodernizer.fixers.rules.toolkit.needles import call_named, call_to, either, parts
from nbmodernizer.fixers.rules.toolkit.nodes import atom, dotted_expression, dotted_name
from nbmodernizer.fixers.rules.toolkit.probes import all_of, lacks, module_gone

RENAMED_MODULES = {
    "cPickle": "pickle",
    "cStringIO": "io",
    "StringIO": "io",
    "Queue": "queue",
    "ConfigParser": "configparser",
    "urllib2": "urllib.request",
    "urlparse": "urllib.parse",
    "HTMLParser": "html.parser",
    "httplib": "http.client",
    "cookielib": "http.cookiejar",
    "Tkinter": "tkinter",
    "commands": "subprocess",
}


# exceptions whose handler catches a failed import
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _catches_import_error(node: cst.Try) -> bool:
    for handler in node.handlers:
        caught = handler.type
        if caught is None:
            return True
        types = [e.value for e in caught.elements] if isinstance(caught, cst.Tuple) else [caught]
        if any(dotted_name(t) in _IMPORT_ERRORS for t in types):
            return True
    return False


class RenamedModules(cst.CSTTransformer):
    """`import cPickle as pickle` -> `import pickle`; `import urllib2` ->
    `import urllib.request as urllib2` (the local name stays, so later cells still work).
    Not in a `try` that catches ImportError: a compatibility branch that works already."""

    def __init__(self, _context: RuleContext) -> None:
        pass

    def visit_Try(self, node: cst.Try) -> bool:
        return not _catches_import_error(node)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        names = []
        for alias in updated_node.names:
            old = dotted_name(alias.name)
            if old not in RENAMED_MODULES:
                names.append(alias)
                continue
            new = RENAMED_MODULES[old]
            local = (
                alias.asname.name.value
                if alias.asname and isinstance(alias.asname.name, cst.Name)
                else old
            )
            asname = None if local == new else cst.AsName(name=cst.Name(local))
            names.append(alias.with_changes(name=dotted_expression(new), asname=asname))
        return updated_node.with_changes(names=names)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        old = dotted_name(updated_node.module) if updated_node.module else None
        if old not in RENAMED_MODULES or updated_node.relative:
            return updated_node
        return updated_node.with_changes(module=dotted_expression(RENAMED_MODULES[old]))


_ITERTOOLS_BUILTINS = {"izip": "zip", "imap": "map", "ifilter": "filter"}

_ITERTOOLS_RENAMED = {"izip_longest": "zip_longest", "ifilterfalse": "filterfalse"}


class Itertools(cst.CSTTransformer):
    """`from itertools import izip` -> `izip = zip` (the name stays bound for later cells)."""

    def __init__(self, _context: RuleContext) -> None:
        pass

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement]:
        module = dotted_name(updated_node.module) if updated_node.module else None
        if module != "itertools" or isinstance(updated_node.names, cst.ImportStar):
            return updated_node
        kept: list[cst.ImportAlias] = []
        assigns: list[cst.BaseSmallStatement] = []
        for alias in updated_node.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else ""
            local = (
                alias.asname.name.value
                if alias.asname and isinstance(alias.asname.name, cst.Name)
                else name
            )
            if name in _ITERTOOLS_BUILTINS:
                assigns.append(
                    cst.Assign(
                        targets=[cst.AssignTarget(cst.Name(local))],
                        value=cst.Name(_ITERTOOLS_BUILTINS[name]),
                    )
                )
            elif name in _ITERTOOLS_RENAMED:
                kept.append(
                    alias.with_changes(
                        name=cst.Name(_ITERTOOLS_RENAMED[name]),
                        asname=cst.AsName(name=cst.Name(local)),
                    )
                )
            else:
                kept.append(alias)
        if not assigns:
            if kept == list(updated_node.names):
                return updated_node
            return updated_node.with_changes(names=kept)
        if not kept:
            return cst.FlattenSentinel(assigns)
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return cst.FlattenSentinel([updated_node.with_changes(names=kept), *assigns])


_STRING_METHODS = frozenset(
    {
        *("lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "replace"),
        *("find", "rfind", "index", "rindex", "count", "capitalize", "swapcase", "zfill"),
        *("ljust", "rjust", "center", "expandtabs"),
    }
)

_STRING_CONVERSIONS = {"atoi": "int", "atof": "float", "atol": "int"}


class StringFunctions(cst.CSTTransformer):
    """`string.join(words, sep)` -> `sep.join(words)`, `string.lower(s)` -> `s.lower()`, ...;
    `s.translate(str.maketrans('', ''), chars)` -> `s.translate(str.maketrans('', '', chars))`."""

    def __init__(self, context: RuleContext) -> None:
        self.local = {name for name, module in context.aliases.items() if module == "string"}

    def _function(self, call: cst.Call) -> str | None:
        func = call.func
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value in self.local
        ):
            return func.attr.value
        return None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        function = self._function(updated_node)
        args = updated_node.args
        if any(arg.keyword or arg.star for arg in args):
            return updated_node
        if function == "join" and len(args) in (1, 2):
            separator = args[1].value if len(args) == 2 else cst.SimpleString('" "')
            return cst.Call(
                func=cst.Attribute(value=atom(separator), attr=cst.Name("join")),
                args=[args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)],
            )
        if function in _STRING_METHODS and args:
            rest = list(args[1:])
            if rest:
                rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            return cst.Call(
                func=cst.Attribute(value=atom(args[0].value), attr=cst.Name(function)),
                args=rest,
            )
        if function in _STRING_CONVERSIONS and args:
            return updated_node.with_changes(func=cst.Name(_STRING_CONVERSIONS[function]))
        if method_name(updated_node) == "translate" and len(args) == 2:
            table = args[0].value
            if (
                isinstance(table, cst.Call)
                and dotted_name(table.func)
                in {"str.maketrans", *(f"{n}.maketrans" for n in self.local)}
                and len(table.args) == 2
                and all(
                    isinstance(a.value, cst.SimpleString) and a.value.evaluated_value == ""
                    for a in table.args
                )
            ):
                identity = cst.Call(
                    func=dotted_expression("str.maketrans"),
                    args=[
                        table.args[0].with_changes(
                            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                        ),
                        table.args[1].with_changes(
                            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
                        ),
                        args[1].with_changes(comma=cst.MaybeSentinel.DEFAULT),
                    ],
                )
                return updated_node.with_changes(args=[cst.Arg(identity)])
        return updated_node


RULES = (
    Rule(
        id="python2.renamed-modules",
        library="python",
        changed_in="3.0",
        summary="`cPickle`, `cStringIO`/`StringIO`, `urllib2`, `urlparse`, `Queue`, "
        "`ConfigParser`, ... -> `pickle`, `io`, `urllib.request`, ... (local names kept)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(RenamedModules, parts(*RENAMED_MODULES)),
        symptoms=(
            Symptom(
                "ModuleNotFoundError", r"No module named '(" + "|".join(RENAMED_MODULES) + ")'"
            ),
        ),
        gone=module_gone("cPickle"),
        examples=(
            Example(
                before=(
                    "import cPickle as pickle\n"
                    "import cPickle, os\n"
                    "from StringIO import StringIO\n"
                    "import urllib2\n"
                    "data = pickle.loads(cPickle.dumps([1, 2]))\n"
                    "text = StringIO('abc').read()\n"
                ),
                after=(
                    "import pickle\n"
                    "import pickle as cPickle, os\n"
                    "from io import StringIO\n"
                    "import urllib.request as urllib2\n"
                    "data = pickle.loads(cPickle.dumps([1, 2]))\n"
                    "text = StringIO('abc').read()\n"
                ),
                error="ModuleNotFoundError",
                check="data == [1, 2] and text == 'abc' and urllib2.urlopen and urllib2.HTTPError",
            ),
        ),
    ),
    Rule(
        id="python2.itertools-builtins",
        library="python",
        changed_in="3.0",
        summary="`from itertools import izip, imap, ifilter` -> `izip = zip` ...; "
        "`izip_longest` / `ifilterfalse` -> `zip_longest` / `filterfalse`",
        kind=Kind.PYTHON2,
        rewrite=chain(
            cst_rewrite(Itertools, ("itertools",)),
            replace_attributes(
                {
                    "itertools.izip": "zip",
                    "itertools.imap": "map",
                    "itertools.ifilter": "filter",
                    "itertools.izip_longest": "itertools.zip_longest",
                    "itertools.ifilterfalse": "itertools.filterfalse",
                }
            ),
        ),
        symptoms=(
            Symptom(
                "ImportError", r"cannot import name '(izip|imap|ifilter|izip_longest|ifilterfalse)'"
            ),
            Symptom("AttributeError", r"module 'itertools' has no attribute"),
        ),
        gone=lacks("itertools", "izip"),
        examples=(
            Example(
                before=(
                    "import itertools\n"
                    "from itertools import izip, chain, izip_longest as zl\n"
                    "from itertools import imap\n"
                    "pairs = list(izip('ab', [1, 2])) + list(itertools.izip('c', [3]))\n"
                    "squares = list(imap(lambda x: x * x, [1, 2]))\n"
                    "longest = list(zl('ab', [1]))\n"
                ),
                after=(
                    "import itertools\n"
                    "from itertools import chain, zip_longest as zl; izip = zip\n"
                    "imap = map\n"
                    "pairs = list(izip('ab', [1, 2])) + list(zip('c', [3]))\n"
                    "squares = list(imap(lambda x: x * x, [1, 2]))\n"
                    "longest = list(zl('ab', [1]))\n"
                ),
                error="ImportError",
                check=(
                    "pairs == [('a', 1), ('b', 2), ('c', 3)] and squares == [1, 4] "
                    "and longest == [('a', 1), ('b', None)]"
                ),
            ),
        ),
    ),
    Rule(
        id="python2.module-attributes",
        library="python",
        changed_in="3.0",
        summary="`string.letters` / `lowercase` / `uppercase` -> `string.ascii_*`, "
        "`string.maketrans` -> `str.maketrans`, `sys.maxint` -> `sys.maxsize`, "
        "`os.getcwdu` -> `os.getcwd`",
        kind=Kind.PYTHON2,
        rewrite=replace_attributes(
            {
                "string.letters": "string.ascii_letters",
                "string.lowercase": "string.ascii_lowercase",
                "string.uppercase": "string.ascii_uppercase",
                "string.maketrans": "str.maketrans",
                "sys.maxint": "sys.maxsize",
                "os.getcwdu": "os.getcwd",
            }
        ),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module 'string' has no attribute '(letters|lowercase|uppercase|maketrans)'",
            ),
            Symptom("AttributeError", r"module 'sys' has no attribute 'maxint'"),
            Symptom("AttributeError", r"module 'os' has no attribute 'getcwdu'"),
        ),
        gone=all_of(lacks("string", "letters"), lacks("sys", "maxint")),
        examples=(
            Example(
                before=(
                    "import string, sys\n"
                    "alphabet = string.letters[:3] + string.uppercase[-1]\n"
                    "table = string.maketrans('ab', 'xy')\n"
                    "swapped = 'abc'.translate(table)\n"
                    "big = sys.maxint > 2 ** 31\n"
                ),
                after=(
                    "import string, sys\n"
                    "alphabet = string.ascii_letters[:3] + string.ascii_uppercase[-1]\n"
                    "table = str.maketrans('ab', 'xy')\n"
                    "swapped = 'abc'.translate(table)\n"
                    "big = sys.maxsize > 2 ** 31\n"
                ),
                error="AttributeError",
                check="alphabet == 'abcZ' and swapped == 'xyc' and big",
            ),
        ),
    ),
    Rule(
        id="python2.string-functions",
        library="python",
        changed_in="3.0",
        summary="`string.join(words, sep)` -> `sep.join(words)`, `string.lower(s)` -> "
        "`s.lower()`, `string.atoi(s)` -> `int(s)`, two-argument `s.translate(table, delete)` "
        "-> `s.translate(str.maketrans('', '', delete))`",
        kind=Kind.PYTHON2,
        rewrite=chain(
            replace_attributes({"string.maketrans": "str.maketrans"}),
            cst_rewrite(
                StringFunctions,
                ("string", "translate"),
                either(
                    call_to(
                        [
                            f"string.{name}"
                            for name in ("join", *_STRING_METHODS, *_STRING_CONVERSIONS)
                        ]
                    ),
                    call_named("translate"),
                ),
            ),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'string' has no attribute '\w+'"),
            Symptom("TypeError", r"translate\(\) takes exactly one argument \(2 given\)"),
        ),
        gone=lacks("string", "join"),
        examples=(
            Example(
                before=(
                    "import string\n"
                    "words = string.split('a b,c', ',')\n"
                    "joined = string.join(words, '-') + string.join(['x', 'y'])\n"
                    "shout = string.upper(joined + 'z')\n"
                    "n = string.atoi('12')\n"
                    "clean = 'a.b!'.translate(string.maketrans('', ''), string.punctuation)\n"
                ),
                after=(
                    "import string\n"
                    "words = 'a b,c'.split(',')\n"
                    "joined = '-'.join(words) + \" \".join(['x', 'y'])\n"
                    "shout = (joined + 'z').upper()\n"
                    "n = int('12')\n"
                    "clean = 'a.b!'.translate(str.maketrans('', '', string.punctuation))\n"
                ),
                error="AttributeError",
                check="joined == 'a b-cx y' and shout == 'A B-CX YZ' and n == 12 and clean == 'ab'",
            ),
        ),
    ),
)
