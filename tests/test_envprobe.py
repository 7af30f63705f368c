"""envprobe.py, run for real in the interpreters a notebook's environment may have: the era
interpreters (3.6, 3.7: issue #22) and this venv's; and the facts read from what it prints
(issue #20: probes where the notebook runs)."""

from __future__ import annotations

import glob
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy
import pytest

from nbmodernizer.facts import ENVPROBE, EnvironmentFacts, FactsError, ProbeRequest, gather


def era_python(version: str) -> str:
    found = sorted(glob.glob(f"/root/.pyenv/versions/{version}.*/bin/python"))
    assert found, f"no Python {version} interpreter under /root/.pyenv/versions (issue #22's era)"
    return found[-1]


INTERPRETERS = {
    "3.6": lambda: era_python("3.6"),
    "3.7": lambda: era_python("3.7"),
    "venv": lambda: sys.executable,
}

# legacy APIs of the standard library: the same answers in every Python 3
STDLIB_PROBES: dict[str, tuple[dict[str, Any], bool]] = {
    "lacks": ({"kind": "lacks", "module": "string", "names": ["letters", "maketrans"]}, True),
    "lacks-kept": ({"kind": "lacks", "module": "string", "names": ["ascii_letters"]}, False),
    "lacks-attribute": (
        {"kind": "lacks_attribute", "target": "builtins.dict", "names": ["iteritems"]},
        True,
    ),
    "lacks-attribute-kept": (
        {"kind": "lacks_attribute", "target": "json.JSONDecoder", "names": ["decode"]},
        False,
    ),
    "lacks-item": (
        {"kind": "lacks_item", "target": "sys.builtin_module_names", "items": ["nosuch"]},
        True,
    ),
    "lacks-item-kept": (
        {"kind": "lacks_item", "target": "sys.builtin_module_names", "items": ["sys"]},
        False,
    ),
    "no-parameter": (
        {"kind": "no_parameter", "function": "json.dumps", "parameter": "encoding"},
        True,
    ),
    "no-parameter-kept": (
        {"kind": "no_parameter", "function": "json.dumps", "parameter": "sort_keys"},
        False,
    ),
    "no-kwargs": ({"kind": "no_parameter", "function": "json.dumps", "parameter": "**"}, False),
    # json.loads lost `encoding` in 3.9: gone there only (`_expected`)
    "no-parameter-since-3.9": (
        {"kind": "no_parameter", "function": "json.loads", "parameter": "encoding"},
        False,
    ),
    "keyword-only": (
        {"kind": "keyword_only", "function": "json.dumps", "parameter": "sort_keys"},
        True,
    ),
    "keyword-only-positional": (
        {"kind": "keyword_only", "function": "json.dumps", "parameter": "obj"},
        False,
    ),
    "lacks-gone-module": ({"kind": "lacks", "module": "json.nosuch", "names": ["x"]}, True),
    "module-gone": ({"kind": "module_gone", "module": "cPickle"}, True),
    "module-gone-sub": ({"kind": "module_gone", "module": "json.nosuch"}, True),
    "module-kept": ({"kind": "module_gone", "module": "json.decoder"}, False),
    "syntax-rejected": ({"kind": "rejects", "code": "print 'x'"}, True),
    "value-rejected": ({"kind": "rejects", "code": "int('x')"}, True),
    "type-rejected": ({"kind": "rejects", "code": "len(1)"}, True),
    "accepted": ({"kind": "rejects", "code": "print('noise on stdout')\nx = 1"}, False),
    "always": ({"kind": "always"}, True),
    "not": ({"kind": "not", "probe": {"kind": "always"}}, False),
    "all": (
        {
            "kind": "all",
            "probes": [
                {"kind": "module_gone", "module": "cPickle"},
                {"kind": "rejects", "code": "x = 1 <> 2"},
            ],
        },
        True,
    ),
    "all-one-kept": (
        {"kind": "all", "probes": [{"kind": "always"}, {"kind": "rejects", "code": "x = 1"}]},
        False,
    ),
    "any": (
        {
            "kind": "any",
            "probes": [
                {"kind": "lacks", "module": "nosuchlib", "names": ["x"]},
                {"kind": "rejects", "code": "x = `1`"},
            ],
        },
        True,
    ),
    # a library that is not installed never has anything gone, and that is no error
    "absent-lacks": ({"kind": "lacks", "module": "nosuchlib", "names": ["x"]}, False),
    "absent-attribute": (
        {"kind": "lacks_attribute", "target": "nosuchlib.Frame", "names": ["ix"]},
        False,
    ),
    "absent-parameter": (
        {"kind": "no_parameter", "function": "nosuchlib.f", "parameter": "x"},
        False,
    ),
    "absent-module": ({"kind": "module_gone", "module": "nosuchlib.cross_validation"}, False),
    "absent-import": ({"kind": "rejects", "code": "import nosuchlib\nnosuchlib.f(1)"}, False),
    "absent-not": (
        {"kind": "not", "probe": {"kind": "lacks", "module": "nosuchlib", "names": ["x"]}},
        False,
    ),
}
# probes that cannot be evaluated: false, with their error
BROKEN_PROBES: dict[str, dict[str, Any]] = {
    "other-exception": {"kind": "rejects", "code": "raise KeyError('k')"},
    "no-such-target": {"kind": "lacks_attribute", "target": "json.nosuch", "names": ["x"]},
}


def _expected(name: str, python: str) -> bool:
    if name == "no-parameter-since-3.9":
        version = subprocess.run(
            [python, "-c", "import sys; print(sys.version_info >= (3, 9))"],
            capture_output=True,
            text=True,
            check=True,
        )
        return version.stdout.strip() == "True"
    return STDLIB_PROBES[name][1]


@pytest.mark.parametrize("interpreter", sorted(INTERPRETERS))
def test_each_probe_kind_in_each_interpreter(interpreter: str) -> None:
    python = INTERPRETERS[interpreter]()
    probes = {name: probe for name, (probe, _) in STDLIB_PROBES.items()}
    request = ProbeRequest(
        modules=("pip", "json", "nosuchlib"),
        probes={**probes, **BROKEN_PROBES},
        signatures=("json.dumps", "nosuchlib.f", "json.nosuch"),
        names=("json", "nosuchlib"),
    )
    facts = gather(python, request)
    assert facts.executable == python or Path(facts.executable).resolve() == Path(python).resolve()
    assert facts.python.startswith(interpreter if interpreter != "venv" else "3.11")
    expected = {name: _expected(name, python) for name in STDLIB_PROBES}
    assert {name: facts.probes[name] for name in STDLIB_PROBES} == expected
    assert set(facts.probe_errors) == {*BROKEN_PROBES, "signature json.nosuch"}
    assert facts.probe_errors["other-exception"].startswith("KeyError")
    assert not any(facts.probes[name] for name in BROKEN_PROBES)
    # the distribution providing an imported module, read from its metadata
    pip_version = subprocess.run(
        [python, "-c", "import pip; print(pip.__version__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert facts.packages == {"pip": pip_version}
    dumps = dict(facts.signatures["json.dumps"])
    assert dumps["obj"] == "POSITIONAL_OR_KEYWORD"
    assert dumps["sort_keys"] == "KEYWORD_ONLY"
    assert dumps["kw"] == "VAR_KEYWORD"
    assert set(facts.signatures) == {"json.dumps"}
    json_names = facts.public_names("json")
    assert json_names is not None and {"dumps", "loads", "JSONDecoder"} <= json_names
    assert not any(name.startswith("_") for name in json_names)
    assert facts.public_names("nosuchlib") is None


def test_an_installed_library_is_probed_in_its_own_environment() -> None:
    request = ProbeRequest(
        modules=("numpy",),
        probes={
            "float": {"kind": "lacks", "module": "numpy", "names": ["float"]},
            "float64": {"kind": "lacks", "module": "numpy", "names": ["float64"]},
        },
    )
    venv = gather(sys.executable, request)
    assert venv.packages == {"numpy": numpy.__version__}
    assert venv.probes == {"float": not hasattr(numpy, "float"), "float64": False}
    # the era interpreter has no numpy: nothing of it is gone there
    era = gather(era_python("3.6"), request)
    assert era.packages == {}
    assert era.probes == {"float": False, "float64": False}
    assert era.probe_errors == {}


def _dist_info(site: Path, name: str, record: str, top_level: str | None) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "RECORD").write_text(record)
    if top_level is not None:
        (info / "top_level.txt").write_text(top_level)


# envprobe.packages with each metadata file read noted
NOTE_READS = """
import json, os, sys
sys.path[:0] = sys.argv[1:3]
import envprobe
read = []
original = envprobe._read
def noted(folder, name):
    read.append([os.path.basename(folder), name])
    return original(folder, name)
envprobe._read = noted
print(json.dumps([envprobe.packages(["right", "only"]), read]))
"""


@pytest.mark.parametrize("interpreter", ["3.6", "venv"])
def test_a_distributions_files_are_read_only_without_its_top_level_txt(
    interpreter: str, tmp_path: Path
) -> None:
    """top_level.txt names a distribution's modules; its RECORD (the file list: reading every
    distribution's was the probe's slowest step) is read only when that is missing."""
    site = tmp_path / "site"
    _dist_info(site, "listed", "right/__init__.py,,\n", "right\n")
    _dist_info(site, "unlisted", "only/__init__.py,,\nunlisted-1.0.dist-info/RECORD,,\n", None)
    done = subprocess.run(
        [INTERPRETERS[interpreter](), "-c", NOTE_READS, str(ENVPROBE.parent), str(site)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found, read = json.loads(done.stdout)
    assert found == {"listed": "1.0", "unlisted": "1.0"}
    assert ["unlisted-1.0.dist-info", "RECORD"] in read, read
    assert ["listed-1.0.dist-info", "top_level.txt"] in read, read
    assert ["listed-1.0.dist-info", "RECORD"] not in read, read


# every installed distribution's top-level modules as importlib.metadata reads them (the
# reference envprobe's own, faster reader must agree with), and as envprobe reads them
METADATA_READING = """
import json, sys
sys.path[:0] = sys.argv[1:]
import envprobe
from importlib import metadata
expected = {}
for distribution in metadata.distributions():
    name = distribution.metadata["Name"]
    listed = distribution.read_text("top_level.txt")
    files = [str(path) for path in distribution.files or []] if not listed else []
    for module in envprobe._top_level(listed, files) if name else []:
        pair = [name, distribution.version]
        if pair not in expected.setdefault(module, []):
            expected[module].append(pair)
print(json.dumps([envprobe._providers(), expected]))
"""


def test_the_distributions_are_read_as_importlib_metadata_reads_them(tmp_path: Path) -> None:
    """On the test environment's hundreds of distributions, and on the older layouts: an
    *.egg-info folder with PKG-INFO, an *.egg on sys.path with its EGG-INFO, an egg-info
    that is a file (distutils'), an upper-case suffix."""
    site = tmp_path / "site"
    _dist_info(site, "unlisted", "only/__init__.py,,\n", None)
    legacy = site / "legacy-2.0.egg-info"
    legacy.mkdir()
    (legacy / "PKG-INFO").write_text("Metadata-Version: 1.0\nName: legacy\nVersion: 2.0\n\nx\n")
    (legacy / "top_level.txt").write_text("legacy\n")
    (site / "flat-1.0.egg-info").write_text("Metadata-Version: 1.0\nName: flat\nVersion: 1.0\n")
    _dist_info(site, "Upper", "upper.py,,\n", None)
    (site / "Upper-1.0.dist-info").rename(site / "Upper-1.0.DIST-INFO")
    egg = tmp_path / "eggy-3.0-py3.11.egg"
    (egg / "EGG-INFO").mkdir(parents=True)
    (egg / "EGG-INFO" / "PKG-INFO").write_text("Metadata-Version: 1.0\nName: eggy\nVersion: 3.0\n")
    (egg / "EGG-INFO" / "top_level.txt").write_text("eggy\n")
    done = subprocess.run(
        [sys.executable, "-c", METADATA_READING, str(ENVPROBE.parent), str(site), str(egg)],
        capture_output=True,
        text=True,
        check=True,
    )
    found, expected = json.loads(done.stdout)
    assert len(expected) > 100  # the test environment's hundreds of distributions
    for module, name, version in [("only", "unlisted", "1.0"), ("legacy", "legacy", "2.0")]:
        assert expected[module] == [[name, version]]
    assert expected["eggy"] == [["eggy", "3.0"]] and expected["upper"] == [["Upper", "1.0"]]
    assert {module: sorted(pairs) for module, pairs in found.items()} == {
        module: sorted(pairs) for module, pairs in expected.items()
    }


def _run(request: object, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request))
    return subprocess.run(
        [era_python("3.6"), str(ENVPROBE), str(path)], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ([], "the request is a JSON object, got list"),
        ({"modules": "numpy"}, "modules: a list of strings is required"),
        ({"extra": 1}, "extra: not a field of a request"),
        ({"probes": {"r": {"kind": "gone"}}}, "probes['r'].kind: 'gone' is not a probe kind"),
        ({"probes": {"r": {"kind": "lacks", "module": "np"}}}, "probes['r'].names: a non-empty"),
        (
            {"probes": {"r": {"kind": "all", "probes": [{"kind": "always", "x": 1}]}}},
            "probes['r'].probes[0].x: not a field of a 'always' probe",
        ),
    ],
)
def test_a_bad_request_exits_2_naming_the_field(
    request_: object, message: str, tmp_path: Path
) -> None:
    done = _run(request_, tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert message in done.stderr


def test_gather_quotes_envprobes_refusal() -> None:
    bad = ProbeRequest(probes={"r": {"kind": "gone"}})
    with pytest.raises(FactsError, match=r"exited 2: envprobe: bad request: probes\['r'\]\.kind"):
        gather(sys.executable, bad)
    with pytest.raises(FactsError, match="no interpreter at /nonexistent/python"):
        gather("/nonexistent/python", ProbeRequest())


def test_facts_are_read_with_a_clear_error() -> None:
    facts = EnvironmentFacts.parse(
        b'{"python": "3.6.15", "executable": "/p", "probes": {"a": true},'
        b' "signatures": {"f": [["x", "KEYWORD_ONLY"]]}}'
    )
    assert facts.gone("a") and not facts.gone("b")
    assert facts.parameters("f") == (("x", "KEYWORD_ONLY"),)
    assert facts.parameters("g") is None
    with pytest.raises(FactsError, match="not JSON"):
        EnvironmentFacts.parse(b"{")
    with pytest.raises(FactsError, match=r"probes\.a: Input should be a valid boolean"):
        EnvironmentFacts.parse(b'{"python": "3", "executable": "/p", "probes": {"a": "yes"}}')
    with pytest.raises(FactsError, match="executable: Field required"):
        EnvironmentFacts.parse(b'{"python": "3"}')
