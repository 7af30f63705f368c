"""Renamed backend functions and history keys (`image_dim_ordering`, `'acc'`)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.libraries.keras.common import MODEL
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    CallBuilder,
    CallRewriter,
    rewrite_calls,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.examples import TF_QUIET
from nbmodernizer.fixers.rules.toolkit.nodes import (
    code,
    expression,
    replace_string,
    string_literal,
)
from nbmodernizer.fixers.rules.toolkit.probes import lacks

# --- backend image ordering -----------------------------------------------------------------

_ORDERINGS = {"th": "channels_first", "tf": "channels_last"}


def _set_ordering(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if len(call.args) != 1 or call.args[0].keyword is not None:
        return None
    arg = call.args[0]
    value = string_literal(arg.value)
    if isinstance(arg.value, cst.SimpleString) and value in _ORDERINGS:
        new_value: cst.BaseExpression = replace_string(arg.value, _ORDERINGS[value])
    else:
        new_value = expression(
            f"{{'th': 'channels_first', 'tf': 'channels_last'}}[{code(arg.value)}]"
        )
    func = call.func
    new_func = (
        func.with_changes(attr=cst.Name("set_image_data_format"))
        if isinstance(func, cst.Attribute)
        else cst.Name("set_image_data_format")
    )
    return call.with_changes(func=new_func, args=[arg.with_changes(value=new_value)])


def _get_ordering(call: cst.Call, rewriter: CallRewriter) -> cst.BaseExpression | None:
    if call.args or not isinstance(call.func, cst.Attribute):
        return None
    data_format = call.with_changes(func=call.func.with_changes(attr=cst.Name("image_data_format")))
    return expression(f"('th' if {code(data_format)} == 'channels_first' else 'tf')")


def backend_targets() -> dict[str, CallBuilder]:
    targets: dict[str, CallBuilder] = {}
    for backend in ("keras.backend", "tensorflow.keras.backend"):
        targets[f"{backend}.set_image_dim_ordering"] = _set_ordering
        targets[f"{backend}.image_dim_ordering"] = _get_ordering
    return targets


# --- history keys ---------------------------------------------------------------------------

_HISTORY_KEYS = {"acc": "accuracy", "val_acc": "val_accuracy"}


class HistoryKeys(cst.CSTTransformer):
    """`history.history['acc']` -> `history.history['accuracy']` (and `val_acc`)."""

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        value = updated_node.value
        if not (isinstance(value, cst.Attribute) and value.attr.value == "history"):
            return updated_node
        if len(updated_node.slice) != 1:
            return updated_node
        element = updated_node.slice[0]
        index = element.slice
        if not isinstance(index, cst.Index) or not isinstance(index.value, cst.SimpleString):
            return updated_node
        key = string_literal(index.value)
        if key not in _HISTORY_KEYS:
            return updated_node
        new_index = index.with_changes(value=replace_string(index.value, _HISTORY_KEYS[key]))
        return updated_node.with_changes(slice=[element.with_changes(slice=new_index)])


RULES = (
    Rule(
        id="keras.image-dim-ordering",
        library="keras",
        changed_in="2.2",
        summary="`K.set_image_dim_ordering('th')` -> `K.set_image_data_format('channels_first')` "
        "(`'tf'` -> `'channels_last'`); `K.image_dim_ordering()` -> the same 'th'/'tf' from "
        "`K.image_data_format()`",
        kind=Kind.API,
        rewrite=rewrite_calls(backend_targets()),
        symptoms=(
            Symptom(
                "AttributeError",
                r"module '(keras|tensorflow\.keras)\.backend' has no attribute "
                r"'(set_)?image_dim_ordering'",
            ),
        ),
        gone=lacks("keras.backend", "set_image_dim_ordering"),
        examples=(
            Example(
                before=TF_QUIET
                + "from keras import backend as K\n"
                + "K.set_image_dim_ordering('th')\nfirst = K.image_dim_ordering()\n"
                + "K.set_image_dim_ordering('tf')\nlast = K.image_dim_ordering()\n",
                after=TF_QUIET
                + "from keras import backend as K\n"
                + "K.set_image_data_format('channels_first')\n"
                + "first = ('th' if K.image_data_format() == 'channels_first' else 'tf')\n"
                + "K.set_image_data_format('channels_last')\n"
                + "last = ('th' if K.image_data_format() == 'channels_first' else 'tf')\n",
                error="AttributeError",
                check="(first, last) == ('th', 'tf') and K.image_data_format() == 'channels_last'",
            ),
        ),
    ),
    Rule(
        id="keras.history-accuracy-key",
        library="keras",
        changed_in="2.3",
        summary="`history.history['acc']` / `['val_acc']` -> `['accuracy']` / "
        "`['val_accuracy']` (metrics=['accuracy'] is logged under its full name); only in "
        "cells that failed on the key",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: HistoryKeys()),
        symptoms=(Symptom("KeyError", r"^'(val_)?acc'$"),),
        gone=None,
        examples=(
            Example(
                before=TF_QUIET
                + MODEL
                + "model = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "model.compile(loss='binary_crossentropy', optimizer='sgd', "
                + "metrics=['accuracy'])\n"
                + "history = model.fit(X, y, epochs=2, validation_split=0.25, verbose=0)\n"
                + "curves = (history.history['acc'], history.history['val_acc'])\n",
                after=TF_QUIET
                + MODEL
                + "model = Sequential([keras.Input((3,)), Dense(1, activation='sigmoid')])\n"
                + "model.compile(loss='binary_crossentropy', optimizer='sgd', "
                + "metrics=['accuracy'])\n"
                + "history = model.fit(X, y, epochs=2, validation_split=0.25, verbose=0)\n"
                + "curves = (history.history['accuracy'], history.history['val_accuracy'])\n",
                error="KeyError",
                check="len(curves[0]) == 2 and len(curves[1]) == 2",
            ),
        ),
    ),
)
