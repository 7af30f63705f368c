"""What the pandas rules share: probes, symptoms, receivers that are not frames."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Symptom
from nbmodernizer.fixers.rules.toolkit.nodes import dotted_name
from nbmodernizer.fixers.rules.toolkit.probes import Probe, lacks, lacks_attribute


def pandas_lacks(owner: str, *names: str) -> Probe:
    """`pandas.<owner>` (or pandas itself for "") has none of `names`."""
    return lacks_attribute(f"pandas.{owner}", *names) if owner else lacks("pandas", *names)


def missing(kind: str, attribute: str) -> Symptom:
    return Symptom("AttributeError", rf"'{kind}' object has no attribute '{attribute}'")


FRAME_OR_SERIES = "(DataFrame|Series)"


def is_module_receiver(node: cst.BaseExpression, context: RuleContext) -> bool:
    """Whether `node` (a method call's receiver) is an imported module or name (`np`, `tf.x`)."""
    name = dotted_name(node)
    return name is not None and name.split(".")[0] in context.aliases
