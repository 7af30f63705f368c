"""Python 2 leftovers: syntax that Python 3 rejects (print and exec statements, `except E, e`, backticks, `<>`, old literals)."""

from __future__ import annotations

import ast
import re

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.cells import only_if, parses, text_rewrite
from nbmodernizer.fixers.rules.toolkit.needles import nodes
from nbmodernizer.fixers.rules.toolkit.probes import all_of, rejects
from nbmodernizer.fixers.rules.toolkit.text import (
    Edit,
    apply_edits,
    compound_headers,
    simple_statements,
    split_top_level,
    string_tokens,
    strip_span,
)


def _statement_parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def _items(source: str, mask: str, start: int, end: int) -> list[str]:
    """The comma-separated items of source[start:end] (an empty last item: trailing comma)."""
    return [
        source[a:b]
        for a, b in (strip_span(mask, part) for part in split_top_level(mask, (start, end)))
    ]


# --- print ------------------------------------------------------------------------------------


def _chevron(tree: ast.Module, _context: RuleContext) -> bool:
    """The trigger of `_print_statements` on a cell that parses as Python 3, where only
    `print >>f, x` (read as a shift) is rewritten."""
    return any(
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.RShift)
        and isinstance(node.left, ast.Name)
        and node.left.id == "print"
        for node in nodes(tree, ast.BinOp)
    )


def _print_statements(source: str, mask: str, _context: RuleContext) -> str:
    cell_parses = parses(source)
    edits: list[Edit] = []
    for start, end in simple_statements(mask):
        if not re.match(r"print\b", mask[start:end]):
            continue
        rest = mask[start + 5 : end]
        chevron = re.match(r"\s*>>", rest)
        if not rest.strip():
            if not cell_parses:  # a bare `print` wrote an empty line; in a Python 3 cell: no-op
                edits.append((start, end, "print()"))
            continue
        if not chevron and (cell_parses or _statement_parses(source[start:end])):
            continue
        items = _items(source, mask, start + 5, end)
        extra: list[str] = []
        if chevron:
            extra.append("file=" + items[0].lstrip()[2:].strip())
            items = items[1:]
        if len(items) > 1 and not items[-1]:
            items = items[:-1]
            extra.insert(0, 'end=" "')
        arguments = [item for item in items if item] + extra
        edits.append((start, end, "print(" + ", ".join(arguments) + ")"))
    return apply_edits(source, edits)


# --- except, raise, exec ---------------------------------------------------------------------


def _except_comma(source: str, mask: str, _context: RuleContext) -> str:
    edits: list[Edit] = []
    for keyword, header in compound_headers(mask):
        if keyword != "except":
            continue
        parts = [strip_span(mask, part) for part in split_top_level(mask, header)]
        if len(parts) == 2 and re.fullmatch(r"[A-Za-z_]\w*", mask[parts[1][0] : parts[1][1]]):
            edits.append((parts[0][1], parts[1][0], " as "))
    return apply_edits(source, edits)


def _tuple_contents(source: str, mask: str, text_start: int, text_end: int) -> str | None:
    """`a, b` for a parenthesized tuple `(a, b)` spanning exactly source[text_start:text_end]."""
    if mask[text_start] != "(" or mask[text_end - 1] != ")":
        return None
    depth = 0
    for index in range(text_start, text_end):
        depth += {"(": 1, ")": -1}.get(mask[index], 0)
        if depth == 0 and index < text_end - 1:
            return None  # `(a) + (b)`: the first paren closes early
    inner = (text_start + 1, text_end - 1)
    if len(split_top_level(mask, inner)) < 2:
        return None
    return source[inner[0] : inner[1]].strip().rstrip(",").rstrip()


def _raise_comma(source: str, mask: str, _context: RuleContext) -> str:
    edits: list[Edit] = []
    for start, end in simple_statements(mask):
        if not re.match(r"raise\s", mask[start:end]):
            continue
        parts = [strip_span(mask, part) for part in split_top_level(mask, (start + 5, end))]
        if len(parts) not in (2, 3) or any(a >= b for a, b in parts):
            continue
        kind = source[parts[0][0] : parts[0][1]]
        value = _tuple_contents(source, mask, *parts[1])
        if value is None:
            value = source[parts[1][0] : parts[1][1]]
        replacement = kind if value == "None" else f"{kind}({value})"
        if len(parts) == 3:
            replacement += f".with_traceback({source[parts[2][0] : parts[2][1]]})"
        edits.append((parts[0][0], end, replacement))
    return apply_edits(source, edits)


def _exec_statements(source: str, mask: str, _context: RuleContext) -> str:
    edits: list[Edit] = []
    for start, end in simple_statements(mask):
        if not re.match(r"exec\b", mask[start:end]):
            continue
        statement_parses = _statement_parses(source[start:end])
        if statement_parses and not re.search(r"\)\s+in\s", mask[start:end]):
            continue  # `exec(code)`; but `exec (code) in ns` parses and means something else
        code_end = end
        namespaces: list[str] = []
        depth = 0
        for index in range(start + 4, end):
            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(mask[index], 0)
            if depth == 0 and re.match(r"\sin\s", mask[index - 1 : index + 3]):
                code_end = index
                namespaces = _items(source, mask, index + 2, end)
                break
        code = source[start + 4 : code_end].strip()
        edits.append((start, end, "exec(" + ", ".join([code, *namespaces]) + ")"))
    return apply_edits(source, edits)


# --- operators and literals -------------------------------------------------------------------


def _backticks(source: str, mask: str, _context: RuleContext) -> str:
    edits: list[Edit] = []
    for m in re.finditer(r"`([^`\n]+)`", mask):
        inner = source[m.start(1) : m.end(1)].strip()
        try:
            ast.parse(f"({inner})", mode="eval")
        except SyntaxError:
            continue  # nested backticks: left alone
        if len(split_top_level(mask, (m.start(1), m.end(1)))) > 1:
            inner = f"({inner})"  # `1, 2` was the repr of a tuple
        edits.append((m.start(), m.end(), f"repr({inner})"))
    return apply_edits(source, edits)


def _diamond(source: str, mask: str, _context: RuleContext) -> str:
    return apply_edits(source, [(m.start(), m.end(), "!=") for m in re.finditer(r"<>", mask)])


def _numeric_literals(source: str, mask: str, _context: RuleContext) -> str:
    edits: list[Edit] = [  # octal first: `0777L` is octal (apply_edits keeps the first)
        (m.start(), m.end(), "0o" + m.group(1))
        # not the exponent of a float: `1e-05` is not octal
        for m in re.finditer(r"(?<![\w.])(?<![\d.][eE][+-])0([0-7]+)[lL]?(?![\w.])", mask)
        if m.group(1).strip("0")
    ]
    edits += [
        (m.start(), m.end(), m.group(1))
        for m in re.finditer(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)[lL]\b", mask)
    ]
    return apply_edits(source, edits)


def _ur_strings(source: str, _mask: str, _context: RuleContext) -> str:
    edits: list[Edit] = []
    for token in string_tokens(source):
        body = token.body(source)
        if token.prefix.lower() == "ur" and "\\u" not in body and "\\U" not in body:
            edits.append((token.start, token.start + 2, token.prefix[1]))
    return apply_edits(source, edits)


RULES = (
    Rule(
        id="python2.print-statement",
        library="python",
        changed_in="3.0",
        summary='`print x, y` -> `print(x, y)`; `print x,` -> `print(x, end=" ")`; '
        "`print >>f, x` -> `print(x, file=f)`",
        kind=Kind.PYTHON2,
        rewrite=only_if("print", rewrite=text_rewrite(_print_statements), trigger=_chevron),
        symptoms=(
            Symptom("SyntaxError", r"Missing parentheses in call to 'print'"),
            Symptom(
                "TypeError", r"unsupported operand type\(s\) for >>: 'builtin_function_or_method'"
            ),
        ),
        gone=rejects("print 'x'"),
        examples=(
            Example(
                before=(
                    "import io\n"
                    "out = io.StringIO()\n"
                    "rows = [(1, 'a'), (2, 'b')]\n"
                    "for n, s in rows:\n"
                    '    print >>out, "row %d:" % n, s  # one per row\n'
                    "    print >>out, n,\n"
                    "print >>out\n"
                    "if rows: print >>out, 'done'\n"
                    "text = out.getvalue()\n"
                ),
                after=(
                    "import io\n"
                    "out = io.StringIO()\n"
                    "rows = [(1, 'a'), (2, 'b')]\n"
                    "for n, s in rows:\n"
                    '    print("row %d:" % n, s, file=out)  # one per row\n'
                    '    print(n, end=" ", file=out)\n'
                    "print(file=out)\n"
                    "if rows: print('done', file=out)\n"
                    "text = out.getvalue()\n"
                ),
                error="TypeError",
                check="text == 'row 1: a\\n1 row 2: b\\n2 \\ndone\\n'",
            ),
            Example(
                before=(
                    "import contextlib, io\n"
                    "buffer = io.StringIO()\n"
                    "with contextlib.redirect_stdout(buffer):\n"
                    '    print "loss: %.2f" % 0.5, "(print x in a string stays)"\n'
                    "    print\n"
                ),
                after=(
                    "import contextlib, io\n"
                    "buffer = io.StringIO()\n"
                    "with contextlib.redirect_stdout(buffer):\n"
                    '    print("loss: %.2f" % 0.5, "(print x in a string stays)")\n'
                    "    print()\n"
                ),
                error="SyntaxError",
                check="buffer.getvalue() == 'loss: 0.50 (print x in a string stays)\\n\\n'",
            ),
        ),
    ),
    Rule(
        id="python2.except-comma",
        library="python",
        changed_in="3.0",
        summary="`except E, e:` -> `except E as e:`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_except_comma, python2_only=True),
        symptoms=(Symptom("SyntaxError", r"multiple exception types must be parenthesized"),),
        gone=rejects("try:\n    pass\nexcept ValueError, e:\n    pass\n"),
        examples=(
            Example(
                before=(
                    "caught = []\n"
                    "for value in ['x', None]:\n"
                    "    try:\n"
                    "        int(value)\n"
                    "    except ValueError, e:\n"
                    "        caught.append('value')\n"
                    "    except (TypeError, KeyError), error:  # two kinds\n"
                    "        caught.append(type(error).__name__)\n"
                ),
                after=(
                    "caught = []\n"
                    "for value in ['x', None]:\n"
                    "    try:\n"
                    "        int(value)\n"
                    "    except ValueError as e:\n"
                    "        caught.append('value')\n"
                    "    except (TypeError, KeyError) as error:  # two kinds\n"
                    "        caught.append(type(error).__name__)\n"
                ),
                error="SyntaxError",
                check="caught == ['value', 'TypeError']",
            ),
        ),
    ),
    Rule(
        id="python2.raise-comma",
        library="python",
        changed_in="3.0",
        summary='`raise E, "msg"` -> `raise E("msg")`; `raise E, v, tb` -> '
        "`raise E(v).with_traceback(tb)`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_raise_comma, python2_only=True),
        symptoms=(Symptom("SyntaxError", r"invalid syntax"),),
        gone=rejects("raise ValueError, 'x'"),
        examples=(
            Example(
                before=(
                    "messages = []\n"
                    "def check(x):\n"
                    "    if x < 0:\n"
                    '        raise ValueError, "negative: %d" % x\n'
                    "    if x > 9: raise KeyError, ('big', x)\n"
                    "for x in (-1, 10):\n"
                    "    try:\n"
                    "        check(x)\n"
                    "    except (ValueError, KeyError) as e:\n"
                    "        messages.append(e.args)\n"
                ),
                after=(
                    "messages = []\n"
                    "def check(x):\n"
                    "    if x < 0:\n"
                    '        raise ValueError("negative: %d" % x)\n'
                    "    if x > 9: raise KeyError('big', x)\n"
                    "for x in (-1, 10):\n"
                    "    try:\n"
                    "        check(x)\n"
                    "    except (ValueError, KeyError) as e:\n"
                    "        messages.append(e.args)\n"
                ),
                error="SyntaxError",
                check="messages == [('negative: -1',), ('big', 10)]",
            ),
        ),
    ),
    Rule(
        id="python2.exec-statement",
        library="python",
        changed_in="3.0",
        summary='`exec "code"` -> `exec("code")`; `exec code in ns` -> `exec(code, ns)`',
        kind=Kind.PYTHON2,
        rewrite=only_if("exec", rewrite=text_rewrite(_exec_statements)),
        symptoms=(Symptom("SyntaxError", r"Missing parentheses in call to 'exec'"),),
        gone=rejects("exec 'x = 1'"),
        examples=(
            Example(
                before=(
                    "ns = {'a': 5}\n"
                    'exec "a = 2"\n'
                    'exec "b = a * 3" in ns\n'
                    'exec "c = a + 1" in ns, ns\n'
                ),
                after=(
                    "ns = {'a': 5}\n"
                    'exec("a = 2")\n'
                    'exec("b = a * 3", ns)\n'
                    'exec("c = a + 1", ns, ns)\n'
                ),
                error="SyntaxError",
                check="a == 2 and ns['b'] == 15 and ns['c'] == 6",
            ),
        ),
    ),
    Rule(
        id="python2.backticks",
        library="python",
        changed_in="3.0",
        summary="`` `x` `` -> `repr(x)`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_backticks, python2_only=True),
        symptoms=(Symptom("SyntaxError", r"invalid syntax"),),
        gone=rejects("x = `1`"),
        examples=(
            Example(
                before="n = 3\nlabel = 'n=' + `n` + ', s=' + `'x'` + ' `kept`'\n",
                after="n = 3\nlabel = 'n=' + repr(n) + ', s=' + repr('x') + ' `kept`'\n",
                error="SyntaxError",
                check="label == \"n=3, s='x' `kept`\"",
            ),
        ),
    ),
    Rule(
        id="python2.diamond-operator",
        library="python",
        changed_in="3.0",
        summary="`a <> b` -> `a != b`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_diamond, python2_only=True),
        symptoms=(Symptom("SyntaxError", r"invalid syntax"),),
        gone=rejects("x = 1 <> 2"),
        examples=(
            Example(
                before="kept = [x for x in [1, 2, 3] if x <> 2]\nflag = '<>' <> 'x'\n",
                after="kept = [x for x in [1, 2, 3] if x != 2]\nflag = '<>' != 'x'\n",
                error="SyntaxError",
                check="kept == [1, 3] and flag",
            ),
        ),
    ),
    Rule(
        id="python2.numeric-literals",
        library="python",
        changed_in="3.0",
        summary="long literals `10L` -> `10`, octal `0777` -> `0o777`",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_numeric_literals, python2_only=True),
        symptoms=(
            Symptom("SyntaxError", r"invalid (decimal|hexadecimal) literal"),
            Symptom("SyntaxError", r"leading zeros in decimal integer literals"),
        ),
        gone=all_of(rejects("x = 10L"), rejects("x = 0777")),
        examples=(
            Example(
                before="big = 10L ** 20 + 0xFFL\nmode = 0755\nzero = 00\nf = 07.5\nx10L = 'x10L'\ntol = 1e-05\n",
                after="big = 10 ** 20 + 0xFF\nmode = 0o755\nzero = 00\nf = 07.5\nx10L = 'x10L'\ntol = 1e-05\n",
                error="SyntaxError",
                check="big == 10 ** 20 + 255 and mode == 493 and zero == 0 and f == 7.5 and tol == 1e-05",
            ),
        ),
    ),
    Rule(
        id="python2.ur-strings",
        library="python",
        changed_in="3.0",
        summary="`ur'...'` -> `r'...'` (strings without `\\u` escapes)",
        kind=Kind.PYTHON2,
        rewrite=text_rewrite(_ur_strings, python2_only=True),
        symptoms=(Symptom("SyntaxError", r"invalid syntax"),),
        gone=rejects("x = ur'a'"),
        examples=(
            Example(
                before="import re\nwords = re.findall(ur'\\w+', u'two words')\npat = UR\"\\d\"\n",
                after="import re\nwords = re.findall(r'\\w+', u'two words')\npat = R\"\\d\"\n",
                error="SyntaxError",
                check="words == ['two', 'words'] and pat == '\\\\d'",
            ),
        ),
    ),
)
