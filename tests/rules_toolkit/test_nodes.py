"""toolkit.nodes: code, names, literals, lists, subscripts."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.toolkit.nodes import (
    atom,
    code,
    dotted_expression,
    dotted_name,
    expression,
    is_constant,
    is_zero_index,
    literal_bool,
    names_in,
    qualified,
    replace_string,
    single_index,
    string_literal,
    subscript_of,
    with_commas,
)


def test_code_and_dotted_names() -> None:
    assert code(dotted_expression("a.b.c")) == "a.b.c"
    assert dotted_name(expression("np.random.rand")) == "np.random.rand"
    assert dotted_name(expression("f().x")) is None
    aliases = {"np": "numpy", "rand": "numpy.random.rand"}
    assert qualified(expression("np.random.rand"), aliases) == "numpy.random.rand"
    assert qualified(expression("rand"), aliases) == "numpy.random.rand"
    assert qualified(expression("other.x"), aliases) == "other.x"


def test_literals() -> None:
    assert string_literal(expression("'a'")) == "a"
    assert string_literal(expression("b'a'")) is None
    assert string_literal(expression("f'{a}'")) is None
    assert literal_bool(expression("True")) is True
    assert literal_bool(expression("x")) is None
    assert is_constant(cst.Arg(expression("None")), "None")
    assert not is_constant(None, "None")
    text = expression('u"cuda"')
    assert isinstance(text, cst.SimpleString)
    assert code(replace_string(text, "cpu")) == 'u"cpu"'


def test_atom_parenthesizes_what_an_operator_could_split() -> None:
    assert code(atom(expression("a + b"))) == "(a + b)"
    assert code(atom(expression("a.b"))) == "a.b"
    assert code(atom(expression("(a + b)"))) == "(a + b)"


def test_commas_between_items() -> None:
    names = [cst.ImportAlias(cst.Name(n)) for n in "abc"]
    line = cst.ImportFrom(module=cst.Name("m"), names=with_commas(names))
    assert code(line) == "from m import a, b, c"


def test_subscripts() -> None:
    built = subscript_of(expression("df"), expression("mask"), expression("'a'"), attr="loc")
    assert code(built) == "df.loc[mask, 'a']"
    single = expression("x[0]")
    assert isinstance(single, cst.Subscript)
    assert is_zero_index(single)
    index = single_index(single)
    assert index is not None and code(index) == "0"
    pair = expression("x[0, 1]")
    assert isinstance(pair, cst.Subscript) and single_index(pair) is None
    assert names_in(expression("a + f(b)")) == {"a", "f", "b"}
