"""toolkit.calls: reading a call's arguments and editing them in the call's layout."""

from __future__ import annotations

import libcst as cst
import pytest

from nbmodernizer.fixers.rules.toolkit.calls import (
    add_keywords,
    argument,
    bound_arguments,
    call_arguments,
    callee_is,
    calls_to,
    drop,
    edit_keywords,
    keyword_arg,
    keywordize,
    map_value,
    method_call,
    method_calls,
    positional_args,
    rename_to,
    renamed_callee,
    replace_keywords,
    set_keyword,
    with_args,
    with_keywords,
    without_keywords,
)
from nbmodernizer.fixers.rules.toolkit.nodes import code, expression
from testing.rules_toolkit import context, on_calls


def call(text: str) -> cst.Call:
    node = expression(text)
    assert isinstance(node, cst.Call)
    return node


# --- reading ------------------------------------------------------------------------------------


def test_arguments_by_position_and_keyword() -> None:
    node = call("f(a, b, c=1, *rest)")
    assert [code(arg.value) for arg in positional_args(node)] == ["a", "b"]
    assert keyword_arg(node, "c") is not None and keyword_arg(node, "d") is None
    assert call_arguments(node) is None  # unpacking: not read statically
    positional, keywords = call_arguments(call("f(a, c=1)")) or ([], {})
    assert [code(a.value) for a in positional] == ["a"] and list(keywords) == ["c"]
    assert argument(call("f(a, b)"), 1, "y") is not None
    found = argument(call("f(a, y=2)"), 1, "y")
    assert found is not None and code(found.value) == "2"


def test_a_method_call_with_its_arguments() -> None:
    found = method_call(call("df.fillna(0, method='ffill')"), "fillna", "ffill")
    assert found is not None
    func, positional, keywords = found
    assert code(func) == "df.fillna" and len(positional) == 1 and list(keywords) == ["method"]
    assert method_call(call("df.fillna(*values)"), "fillna") is None
    assert method_call(call("fillna(0)"), "fillna") is None
    assert method_call(call("df.dropna()"), "fillna") is None


def test_arguments_bound_to_parameter_names_with_defaults() -> None:
    bound = bound_arguments(call("f(x, upper=False)"), ("input", "upper"), {"upper": "True"})
    assert bound is not None and {k: code(v) for k, v in bound.items()} == {
        "input": "x",
        "upper": "False",
    }
    defaulted = bound_arguments(call("f(x)"), ("input", "upper"), {"upper": "True"})
    assert defaulted is not None and code(defaulted["upper"]) == "True"
    assert bound_arguments(call("f(x, y, z)"), ("input", "upper"), {}) is None
    assert bound_arguments(call("f(x, other=1)"), ("input",), {}) is None


def test_callees_match_qualified_or_by_their_last_name() -> None:
    aliases = context(pd="pandas", read_csv="pandas.read_csv")
    assert callee_is(call("pd.read_csv('a')"), ["pandas.read_csv"], aliases)
    assert callee_is(call("read_csv('a')"), ["pandas.read_csv"], aliases)
    assert not callee_is(call("pd.read_json('a')"), ["pandas.read_csv"], aliases)
    assert calls_to("pandas.read_csv")(call("pd.read_csv('a')"), aliases)
    assert method_calls("fit")(call("model.fit(X)"), aliases)


# --- editing in the call's layout ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("f()", "f(k=1)"),
        ("f(a)", "f(a, k=1)"),
        ("f(a )", "f(a, k=1 )"),
        ("f(a,\n  b)", "f(a,\n  b, k=1)"),
        ("f(\n    a,\n    b,\n)", "f(\n    a,\n    b,\n    k=1,\n)"),
        ("f(\n    a,\n)", "f(\n    a,\n    k=1,\n)"),
    ],
)
def test_keywords_are_appended_in_the_calls_layout(source: str, expected: str) -> None:
    append = on_calls(lambda node: with_keywords(node, [("k", expression("1"))]))
    assert append(source) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("f(a, k=1)", "f(a)"),
        ("f(a, k=1, b=2)", "f(a, b=2)"),
        ("f(k=1, b=2)", "f(b=2)"),
        ("f(\n    a,\n    k=1,\n)", "f(\n    a,\n)"),
        ("f(\n    a,\n    k=1,\n    b=2,\n)", "f(\n    a,\n    b=2,\n)"),
    ],
)
def test_dropped_keywords_leave_the_lines_in_shape(source: str, expected: str) -> None:
    assert on_calls(lambda node: without_keywords(node, ["k"]))(source) == expected


def test_keywords_replaced_where_the_first_of_them_was() -> None:
    new = [("callbacks", expression("[cb]"))]
    replace = on_calls(lambda node: replace_keywords(node, ["a", "b"], new))
    assert replace("f(x, a=1, y=2, b=3)") == "f(x, callbacks=[cb], y=2)"
    assert replace("f(x)") == "f(x, callbacks=[cb])"
    assert on_calls(lambda node: replace_keywords(node, ["a"], []))("f(x, a=1)") == "f(x)"


def test_a_keyword_is_set_or_appended() -> None:
    assert on_calls(lambda node: set_keyword(node, "tol", "None"))("f(tol=1)") == "f(tol=None)"
    assert on_calls(lambda node: set_keyword(node, "tol", "None"))("f(x)") == "f(x, tol=None)"


def test_positional_arguments_become_keywords() -> None:
    named = on_calls(lambda node: keywordize(node, ("x", "y", "hue"), start=1))
    assert named("f(a, b, c)") == "f(a, y=b, hue=c)"
    assert named("f(a, *rest)") == "f(a, *rest)"  # unpacking: left alone


def test_new_argument_lists_and_callee_renames() -> None:
    keep = on_calls(lambda node: with_args(node, node.args[:1], keep_trailing_comma=True))
    assert keep("f(\n    a,\n    b,\n)") == "f(\n    a,\n)"
    assert code(renamed_callee(expression("sns.factorplot"), "factorplot", "catplot")) == (
        "sns.catplot"
    )
    assert code(renamed_callee(expression("factorplot"), "factorplot", "catplot")) == "catplot"
    assert code(renamed_callee(expression("fp"), "factorplot", "catplot")) == "fp"


# --- rewrites of keyword arguments -----------------------------------------------------------


def test_keyword_edits_rename_revalue_and_drop() -> None:
    rewrite = edit_keywords(
        calls_to("sklearn.svm.SVC"),
        {
            "gamma": map_value({"auto_deprecated": "'scale'"}),
            "decision": rename_to("decision_function_shape"),
            "cache": drop(),
        },
    )
    aliases = context(SVC="sklearn.svm.SVC")
    assert rewrite("SVC(gamma='auto_deprecated', decision='ovr', cache=5)", aliases) == (
        "SVC(gamma='scale', decision_function_shape='ovr')"
    )
    assert rewrite("other(cache=5)", aliases) == "other(cache=5)"


def test_a_mapped_string_may_keep_its_quotes() -> None:
    rewrite = edit_keywords(
        calls_to("f"), {"loss": map_value({"log": "'log_loss'"}, keep_quotes=True)}
    )
    assert rewrite('f(loss="log")', context()) == 'f(loss="log_loss")'
    plain = edit_keywords(calls_to("f"), {"loss": map_value({"log": "'log_loss'"})})
    assert plain('f(loss="log")', context()) == "f(loss='log_loss')"


def test_keywords_are_spelled_out_unless_given_or_maybe_passed_by_position() -> None:
    rewrite = add_keywords(calls_to("KMeans"), [("n_init", "10")], position=1)
    assert rewrite("KMeans(3)", context()) == "KMeans(3, n_init=10)"
    assert rewrite("KMeans(3, n_init=4)", context()) == "KMeans(3, n_init=4)"
    assert rewrite("KMeans(3, 'k-means++', 10)", context()) == "KMeans(3, 'k-means++', 10)"
