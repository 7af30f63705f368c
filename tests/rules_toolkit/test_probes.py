"""toolkit.probes: the rules' probes as data, which envprobe.py evaluates where the notebook
runs (its kinds are tested for real in tests/test_envprobe.py)."""

from __future__ import annotations

from nbmodernizer import envprobe
from nbmodernizer.fixers.rules import all_rules
from nbmodernizer.fixers.rules.toolkit.probes import (
    ALWAYS,
    AllOf,
    AnyOf,
    KeywordOnly,
    Lacks,
    LacksAttribute,
    LacksItem,
    ModuleGone,
    NoParameter,
    Not,
    Probe,
    Rejects,
    all_of,
    any_of,
    keyword_only,
    lacks,
    lacks_attribute,
    lacks_item,
    module_gone,
    no_parameter,
    not_,
    rejects,
)

KINDS = (
    Lacks,
    LacksAttribute,
    LacksItem,
    NoParameter,
    KeywordOnly,
    ModuleGone,
    Rejects,
    type(ALWAYS),
    Not,
    AllOf,
    AnyOf,
)


def test_each_kind_is_the_json_envprobe_reads() -> None:
    probes: list[Probe] = [
        lacks("numpy", "float", "int"),
        lacks_attribute("pandas.DataFrame", "ix"),
        lacks_item("matplotlib.rcParams", "axes.color_cycle"),
        no_parameter("sklearn.svm.SVC", "x"),
        keyword_only("pandas.DataFrame.drop", "axis"),
        module_gone("sklearn.cross_validation"),
        rejects("print 'x'"),
        ALWAYS,
        not_(ALWAYS),
        all_of(ALWAYS, module_gone("cPickle")),
        any_of(ALWAYS, rejects("x = 1")),
    ]
    assert {type(probe) for probe in probes} == set(KINDS)
    assert [probe.to_json()["kind"] for probe in probes] == list(envprobe.KINDS)
    for probe in probes:
        envprobe.check_probe(probe.to_json(), "probe")  # raises BadRequestError when not
    assert lacks("numpy", "float").to_json() == {
        "kind": "lacks",
        "module": "numpy",
        "names": ["float"],
    }
    assert all_of(ALWAYS, not_(ALWAYS)).to_json() == {
        "kind": "all",
        "probes": [{"kind": "always"}, {"kind": "not", "probe": {"kind": "always"}}],
    }


def test_probes_read_as_text() -> None:
    assert lacks("numpy", "float").describe() == "numpy lacks `float`"
    assert no_parameter("json.dumps", "**").describe() == "json.dumps() takes no **kwargs"
    both = all_of(lacks("a", "x"), any_of(module_gone("b"), ALWAYS))
    assert both.describe() == "a lacks `x` and (no module b or always)"


def test_every_rules_probe_is_data_envprobe_accepts() -> None:
    for rule in all_rules():
        for name, probe in rule.probes().items():
            assert isinstance(rule.gone, KINDS) or rule.gone is None, rule.id
            envprobe.check_probe(probe, name)
