"""What the pandas rules share: probes, symptoms, receivers that are not frames."""

from __future__ import annotations

from typing import Any

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Symptom
from nbmodernizer.fixers.rules.toolkit.nodes import dotted_name


def pandas_module() -> Any:
    import pandas

    return pandas


def pandas_lacks(owner: str, *names: str) -> bool:
    """Whether `pandas.<owner>` (or pandas itself for "") has none of `names`."""
    pd = pandas_module()
    target = pd if not owner else getattr(pd, owner)
    return not any(hasattr(target, name) for name in names)


def missing(kind: str, attribute: str) -> Symptom:
    return Symptom("AttributeError", rf"'{kind}' object has no attribute '{attribute}'")


FRAME_OR_SERIES = "(DataFrame|Series)"


def is_module_receiver(node: cst.BaseExpression, context: RuleContext) -> bool:
    """Whether `node` (a method call's receiver) is an imported module or name (`np`, `tf.x`)."""
    name = dotted_name(node)
    return name is not None and name.split(".")[0] in context.aliases
