"""Python 2 leftovers: removed builtins, renamed modules and methods, lists that became views."""

from __future__ import annotations

import builtins
import importlib.util
import itertools
import string
import sys

from nbmodernizer.fixers.rules.cst_tools import (
    chain,
    cst_rewrite,
    replace_attributes,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.python2_transforms import (
    RENAMED_MODULES,
    HasKey,
    IterMethods,
    Itertools,
    LazyViews,
    RangeLists,
    RenamedModules,
    StringFunctions,
    import_reduce,
)
from nbmodernizer.fixers.rules.text_tools import (
    rename_names,
)

RULES = (
    Rule(
        id="python2.xrange",
        library="python",
        changed_in="3.0",
        summary="`xrange(...)` -> `range(...)`",
        kind=Kind.PYTHON2,
        rewrite=rename_names({"xrange": "range"}),
        symptoms=(Symptom("NameError", r"name 'xrange' is not defined"),),
        gone=lambda: not hasattr(builtins, "xrange"),
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
        gone=lambda: not hasattr(builtins, "raw_input"),
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
        rewrite=import_reduce,
        symptoms=(Symptom("NameError", r"name 'reduce' is not defined"),),
        examples=(
            Example(
                before="# product\nimport operator\nproduct = reduce(operator.mul, [1, 2, 3, 4])\n",
                after=(
                    "# product\nfrom functools import reduce\nimport operator\n"
                    "product = reduce(operator.mul, [1, 2, 3, 4])\n"
                ),
                error="NameError",
                check="product == 24",
            ),
        ),
    ),
    Rule(
        id="python2.dict-iter-methods",
        library="python",
        changed_in="3.0",
        summary="`d.iteritems()` / `itervalues()` / `iterkeys()` / `viewitems()` ... -> "
        "`d.items()` / `values()` / `keys()`",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(IterMethods),
        symptoms=(
            Symptom("AttributeError", r"object has no attribute '(iter|view)(items|values|keys)'"),
        ),
        gone=lambda: not hasattr(dict, "iteritems"),
        examples=(
            Example(
                before=(
                    "d = {'a': 1, 'b': 2}\n"
                    "pairs = sorted((k, v) for k, v in d.iteritems())\n"
                    "total = sum(d.itervalues()) + len(list(d.viewkeys()))\n"
                    "first = next(d.iterkeys())\n"
                ),
                after=(
                    "d = {'a': 1, 'b': 2}\n"
                    "pairs = sorted((k, v) for k, v in d.items())\n"
                    "total = sum(d.values()) + len(list(d.keys()))\n"
                    "first = next(iter(d.keys()))\n"
                ),
                error="AttributeError",
                check="pairs == [('a', 1), ('b', 2)] and total == 5 and first == 'a'",
            ),
        ),
    ),
    Rule(
        id="python2.has-key",
        library="python",
        changed_in="3.0",
        summary="`d.has_key(k)` -> `k in d` (`not d.has_key(k)` -> `k not in d`)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(HasKey),
        symptoms=(Symptom("AttributeError", r"object has no attribute 'has_key'"),),
        gone=lambda: not hasattr(dict, "has_key"),
        examples=(
            Example(
                before=(
                    "d = {'a': 1}\n"
                    "found = [d.has_key('a'), not d.has_key('b')]\n"
                    "if d.has_key('a') and not d.has_key('z'):\n"
                    "    found.append(d.has_key('b') == False)\n"
                ),
                after=(
                    "d = {'a': 1}\n"
                    "found = [('a' in d), 'b' not in d]\n"
                    "if 'a' in d and 'z' not in d:\n"
                    "    found.append(('b' in d) == False)\n"
                ),
                error="AttributeError",
                check="found == [True, True, True]",
            ),
        ),
    ),
    Rule(
        id="python2.renamed-modules",
        library="python",
        changed_in="3.0",
        summary="`cPickle`, `cStringIO`/`StringIO`, `urllib2`, `urlparse`, `Queue`, "
        "`ConfigParser`, ... -> `pickle`, `io`, `urllib.request`, ... (local names kept)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(RenamedModules),
        symptoms=(
            Symptom(
                "ModuleNotFoundError", r"No module named '(" + "|".join(RENAMED_MODULES) + ")'"
            ),
        ),
        gone=lambda: importlib.util.find_spec("cPickle") is None,
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
            cst_rewrite(Itertools),
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
        gone=lambda: not hasattr(itertools, "izip"),
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
        gone=lambda: not hasattr(string, "letters") and not hasattr(sys, "maxint"),
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
            cst_rewrite(StringFunctions),
        ),
        symptoms=(
            Symptom("AttributeError", r"module 'string' has no attribute '\w+'"),
            Symptom("TypeError", r"translate\(\) takes exactly one argument \(2 given\)"),
        ),
        gone=lambda: not hasattr(string, "join"),
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
    Rule(
        id="python2.lazy-views",
        library="python",
        changed_in="3.0",
        summary="`d.keys()[0]` -> `list(d.keys())[0]`, `map(...)[i]`, `len(filter(...))` -> "
        "`list(...)` first (reactive)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(LazyViews),
        symptoms=(
            Symptom(
                "TypeError",
                r"'(dict_keys|dict_values|dict_items|map|filter|zip)' object is not subscriptable",
            ),
            Symptom("TypeError", r"object of type '(map|filter|zip)' has no len\(\)"),
        ),
        examples=(
            Example(
                before=(
                    "d = {'a': 1, 'b': 2}\n"
                    "first = d.keys()[0]\n"
                    "doubled = map(lambda x: 2 * x, [1, 2, 3])[1:]\n"
                    "n = len(filter(None, [0, 1, 2]))\n"
                ),
                after=(
                    "d = {'a': 1, 'b': 2}\n"
                    "first = list(d.keys())[0]\n"
                    "doubled = list(map(lambda x: 2 * x, [1, 2, 3]))[1:]\n"
                    "n = len(list(filter(None, [0, 1, 2])))\n"
                ),
                error="TypeError",
                check="first == 'a' and doubled == [4, 6] and n == 2",
            ),
        ),
    ),
    Rule(
        id="python2.range-list",
        library="python",
        changed_in="3.0",
        summary="`range(...)` used as a list (`+`, `.append`, item assignment) -> "
        "`list(range(...))` (reactive; loops keep `range`)",
        kind=Kind.PYTHON2,
        rewrite=cst_rewrite(RangeLists),
        symptoms=(
            Symptom("TypeError", r"unsupported operand type\(s\) for \+: 'range' and"),
            Symptom("TypeError", r"'range' object does not support item (assignment|deletion)"),
            Symptom("AttributeError", r"'range' object has no attribute"),
        ),
        examples=(
            Example(
                before=(
                    "order = range(5)\n"
                    "order.append(5)\n"
                    "both = range(2) + range(3)\n"
                    "squares = [i * i for i in range(3)]\n"
                    "for i in range(2):\n"
                    "    both[i] = sum(range(4))\n"
                ),
                after=(
                    "order = list(range(5))\n"
                    "order.append(5)\n"
                    "both = list(range(2)) + list(range(3))\n"
                    "squares = [i * i for i in range(3)]\n"
                    "for i in range(2):\n"
                    "    both[i] = sum(range(4))\n"
                ),
                error="AttributeError",
                check="order == [0, 1, 2, 3, 4, 5] and both == [6, 6, 0, 1, 2] and squares == [0, 1, 4]",
            ),
        ),
    ),
)
