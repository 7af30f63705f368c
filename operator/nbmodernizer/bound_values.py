"""Run code snippets and print a fingerprint of each value they bind, as JSON.

Standalone, like envprobe.py: it runs in the environment under test (an era's interpreter of
2017, today's), so it imports only the standard library, never `nbmodernizer`, and runs on
any CPython >= 3.6 (no walrus, no f-string `=`, typing's `Dict`/`List` in annotations, which
3.6 evaluates: ruff's pyupgrade rules are off for this file).

Usage: `PYTHON bound_values.py REQUEST.json` prints RESULTS as JSON on stdout and exits 0,
even when snippets fail (their errors are recorded); exit 2 with a message on stderr for a bad
request.

REQUEST = {"snippets": {"<id>": {"source": "<python>", "check": "<expression>",
                                 "files": {"input/train.csv": "<text>", ...}}, ...},
           "runs": 2, "timeout": 60}
    Each snippet runs `runs` times in a fresh namespace, in a fresh Kaggle-style folder
    (`input/` holding `files`, cwd `working/`); `get_ipython()` is a recorder (`!cmd` and
    magics arrive turned into calls by the caller), whose calls `check` sees as `ipython_calls`.
RESULTS = {"python": "3.7.16", "packages": {"numpy": "1.17.5", ...},
           "results": {"<id>": {"error": "<Name>: <message>" | null,
                                "check": true | false | null, "check_error": "<one line>" | null,
                                "values": {"<name>": FINGERPRINT, ...},
                                "unstable": ["<name>", ...]}}}
    `unstable`: names whose fingerprint differed between runs (randomness).
FINGERPRINT = {"kind": "int" | "float" | "bool" | "none" | "str" | "bytes" | "complex" | "time",
               "value": ...}   # a duration is a float of seconds, a date or time its isoformat
            | {"kind": "sequence" | "set", "type": ..., "length": n, "items": [FINGERPRINT, ...]}
            | {"kind": "mapping", "length": n, "items": [[key FINGERPRINT, FINGERPRINT], ...]}
            | {"kind": "array", "type": ..., "shape": [...], "dtype": "int64", "dtype_kind": "i",
               "summary": {"min":, "max":, "mean":, "std":} | null, "values": [...] | null}
            | {"kind": "frame", "shape": [...], "index": FINGERPRINT,
               "columns": [[label FINGERPRINT, array FINGERPRINT], ...]}   # one per column
            | {"kind": "series", "name": FINGERPRINT, "index": FINGERPRINT, "values": FINGERPRINT}
            | {"kind": "sparse", "shape": [...], "nnz": n, "values": FINGERPRINT}
            | {"kind": "opaque", "type": "<module.Class>"}   # not compared: models, figures
    Small values are kept exactly (up to SMALL items), larger ones as summary statistics.

In a notebook's kernel (the differential run, `bound_cells.py`), this file is executed as a
hidden module and `Cells().after(...)` fingerprints, after each cell, the names the cell bound,
rebound or may have changed in place: CELL = {"values": {"<name>": FINGERPRINT, ...},
"cut": true when names or text were left out}, as JSON of at most CELL_TEXT characters.
"""

import contextlib
import datetime
import json
import math
import os
import signal
import sys
import tempfile
import traceback
import types
import warnings
from typing import Any, Dict, List, Optional, Set

SMALL = 200  # arrays and frames up to this many cells keep their values
ITEMS = 50  # sequences and mappings keep this many items
TEXT = 2000  # strings keep this many characters (and their length)
DISTRIBUTIONS = {  # import name -> distribution, for RESULTS.packages
    "numpy": "numpy",
    "pandas": "pandas",
    "sklearn": "scikit-learn",
    "scipy": "scipy",
    "matplotlib": "matplotlib",
    "seaborn": "seaborn",
    "xgboost": "xgboost",
    "lightgbm": "lightgbm",
}


class Recorder:
    """`get_ipython()`: records shell commands and magics, never runs them."""

    def __init__(self) -> None:
        self.calls: List[List[str]] = []

    def system(self, command: str) -> None:
        self.calls.append(["system", command])

    def getoutput(self, command: str) -> List[str]:
        self.calls.append(["system", command])
        return []

    def run_line_magic(self, name: str, line: str, *_args: Any) -> None:
        self.calls.append(["magic", (name + " " + line).strip()])

    def run_cell_magic(self, name: str, line: str, cell: str) -> None:
        self.calls.append(["magic", (name + " " + line).strip()])


class SnippetTimeoutError(Exception):
    pass


def _type_name(value: Any) -> str:
    kind = type(value)
    return kind.__module__ + "." + kind.__qualname__


def _library(value: Any) -> str:
    return type(value).__module__.split(".")[0]


def _number(value: Any) -> Any:
    """A float for JSON: nan and infinities as strings."""
    number = float(value)
    if math.isnan(number):
        return "nan"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return number


def _plain(value: Any) -> Any:
    """What tolist() gave, made JSON-safe: floats as _number, others as repr when odd."""
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return _number(value)
    return fingerprint(value)


def _array(value: Any) -> Dict[str, Any]:
    dtype = value.dtype
    summary: Optional[Dict[str, Any]] = None
    if dtype.kind in "biuf" and value.size:
        as_float = value.astype("float64")
        finite = as_float[~(as_float != as_float)]  # drop nan without importing numpy
        if finite.size:
            summary = {
                "min": _number(finite.min()),
                "max": _number(finite.max()),
                "mean": _number(finite.mean()),
                "std": _number(finite.std()),
                "nan": int(value.size - finite.size),
            }
    if dtype.kind in "Mm":  # datetimes and durations: nanoseconds, whatever the unit
        unit = "datetime64[ns]" if dtype.kind == "M" else "timedelta64[ns]"
        values = value.astype(unit).astype("int64").tolist() if value.size <= SMALL else None
    else:
        values = _plain(value.tolist()) if value.size <= SMALL else None
    return {
        "kind": "array",
        "type": _type_name(value),
        "shape": list(value.shape),
        "dtype": str(dtype),
        "dtype_kind": dtype.kind,
        "summary": summary,
        "values": values,
    }


def _pandas(value: Any) -> Optional[Dict[str, Any]]:
    name = type(value).__name__
    if name == "DataFrame" or (hasattr(value, "columns") and hasattr(value, "dtypes")):
        columns = [
            [fingerprint(label), _array(_values(value.iloc[:, n]))]
            for n, label in enumerate(list(value.columns)[:ITEMS])
        ]
        return {
            "kind": "frame",
            "shape": list(value.shape),
            "index": fingerprint(value.index),
            "columns": columns,
        }
    if name == "Series" or (hasattr(value, "index") and hasattr(value, "dtype")):
        return {
            "kind": "series",
            "name": fingerprint(value.name),
            "index": fingerprint(value.index),
            "values": _array(_values(value)),
        }
    if hasattr(value, "dtype") and hasattr(value, "tolist"):  # an Index, a Categorical
        return _array(_values(value))
    return None


def _values(value: Any) -> Any:
    """The numpy array of a pandas object: `to_numpy()` since pandas 0.24 (an extension
    array's `.values` is no numpy array), `.values` before."""
    if hasattr(value, "to_numpy"):
        return value.to_numpy()
    return value.values


def fingerprint(value: Any, depth: int = 0) -> Dict[str, Any]:
    if value is None:
        return {"kind": "none", "value": None}
    if isinstance(value, bool):
        return {"kind": "bool", "value": value}
    library = _library(value)
    if (
        library == "numpy"
        and hasattr(value, "dtype")
        and getattr(value, "shape", None) == ()
        and value.dtype.kind not in "Mm"
    ):
        value = value.item()  # a numpy scalar is its Python value
        if isinstance(value, bool):
            return {"kind": "bool", "value": value}
    if isinstance(value, int):
        return {"kind": "int", "value": value if abs(value) < 2**53 else str(value)}
    if isinstance(value, float):
        return {"kind": "float", "value": _number(value)}
    if isinstance(value, complex):
        return {"kind": "complex", "value": [_number(value.real), _number(value.imag)]}
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return {"kind": "time", "value": value.isoformat()}  # pandas' Timestamp too
    if isinstance(value, datetime.timedelta):
        return {"kind": "float", "value": value.total_seconds()}
    if library == "numpy" and hasattr(value, "dtype") and value.dtype.kind in "Mm":
        return _array(value.reshape(1))  # a numpy datetime64 scalar
    if isinstance(value, str):
        return {"kind": "str", "length": len(value), "value": value[:TEXT]}
    if isinstance(value, bytes):
        return {"kind": "bytes", "length": len(value), "value": value[:TEXT].hex()}
    if depth > 3:
        return {"kind": "opaque", "type": _type_name(value)}
    if library == "numpy" and hasattr(value, "dtype") and hasattr(value, "shape"):
        return _array(value)
    if library == "pandas":
        found = _pandas(value)
        if found is not None:
            return found
    if library == "scipy" and hasattr(value, "nnz") and hasattr(value, "toarray"):
        small = value.shape[0] * value.shape[1] <= SMALL
        return {
            "kind": "sparse",
            "shape": list(value.shape),
            "nnz": int(value.nnz),
            "values": _array(value.toarray()) if small else None,
        }
    if isinstance(value, (list, tuple)):
        return {
            "kind": "sequence",
            "type": type(value).__name__,
            "length": len(value),
            "items": [fingerprint(item, depth + 1) for item in value[:ITEMS]],
        }
    if isinstance(value, (set, frozenset)):
        items = sorted(value, key=repr)[:ITEMS]
        return {
            "kind": "set",
            "length": len(value),
            "items": [fingerprint(item, depth + 1) for item in items],
        }
    if isinstance(value, dict):
        pairs = sorted(value.items(), key=lambda pair: repr(pair[0]))[:ITEMS]
        return {
            "kind": "mapping",
            "length": len(value),
            "items": [[fingerprint(k, depth + 1), fingerprint(v, depth + 1)] for k, v in pairs],
        }
    return {"kind": "opaque", "type": _type_name(value)}


def _bound(namespace: Dict[str, Any]) -> Dict[str, Any]:
    """The values a snippet bound: not modules, functions, classes, or dunder names."""
    skipped = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)
    return {
        name: value
        for name, value in namespace.items()
        if not name.startswith("__")
        and name not in ("get_ipython", "ipython_calls")
        and not isinstance(value, skipped)
    }


CELL_NAMES = 40  # names fingerprinted after one cell
CELL_TEXT = 200000  # characters of one cell's JSON


class Cells:
    """The kernel's side of the differential run: which names each cell bound or rebound (their
    identity changed since the last cell), with those the caller says it may change in place."""

    def __init__(self) -> None:
        self.ids: Dict[str, int] = {}

    def after(self, namespace: Dict[str, Any], hidden: Any, mutated: List[str]) -> str:
        bound = {
            name: value
            for name, value in _bound(namespace).items()
            if not name.startswith("_") and name not in hidden
        }
        changed = sorted(
            name
            for name, value in bound.items()
            if name in mutated or self.ids.get(name) != id(value)
        )
        self.ids = {name: id(value) for name, value in bound.items()}
        values = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name in changed[:CELL_NAMES]:
                try:
                    values[name] = fingerprint(bound[name])
                except Exception as error:
                    values[name] = {"kind": "error", "value": _one_line(error)}
        text = json.dumps({"values": values, "cut": len(changed) > CELL_NAMES}, sort_keys=True)
        if len(text) > CELL_TEXT:
            return json.dumps({"values": {}, "cut": True})
        return text


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return type(error).__name__ + (": " + text[0] if text else "")


def _on_alarm(_signal: int, _frame: Any) -> None:
    raise SnippetTimeoutError("the snippet ran past the timeout")


def run_once(snippet: Dict[str, Any], timeout: int, keep: List[Any]) -> Dict[str, Any]:
    """One run; its namespace is appended to `keep`, so that a later run allocates elsewhere
    (a value that is an address then differs between runs)."""
    previous = os.getcwd()
    recorder = Recorder()
    namespace: Dict[str, Any] = {"get_ipython": lambda: recorder, "__name__": "__main__"}
    keep.append(namespace)
    result: Dict[str, Any] = {"error": None, "check": None, "check_error": None, "values": {}}
    with tempfile.TemporaryDirectory(prefix="nbmod-era-") as root:
        os.mkdir(os.path.join(root, "input"))
        os.mkdir(os.path.join(root, "working"))
        for relative, content in snippet.get("files", {}).items():
            target = os.path.join(root, relative)
            if not os.path.isdir(os.path.dirname(target)):
                os.makedirs(os.path.dirname(target))
            with open(target, "w") as handle:
                handle.write(content)
        os.chdir(os.path.join(root, "working"))
        signal.alarm(timeout)
        try:
            with contextlib.redirect_stdout(sys.stderr), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    exec(compile(snippet["source"], "<snippet>", "exec"), namespace)
                except Exception as error:
                    result["error"] = _one_line(error)
                if result["error"] is None:
                    values = {}
                    for name, value in sorted(_bound(namespace).items()):
                        try:
                            values[name] = fingerprint(value)
                        except Exception as error:
                            values[name] = {"kind": "error", "value": _one_line(error)}
                    result["values"] = values
                    namespace["ipython_calls"] = [tuple(call) for call in recorder.calls]
                    try:
                        result["check"] = bool(eval(snippet.get("check") or "True", namespace))
                    except Exception as error:
                        result["check_error"] = _one_line(error)
        finally:
            signal.alarm(0)
            os.chdir(previous)
    return result


def run(snippet: Dict[str, Any], runs: int, timeout: int) -> Dict[str, Any]:
    keep: List[Any] = []
    first = run_once(snippet, timeout, keep)
    unstable: Set[str] = set()
    for _ in range(runs - 1):
        again = run_once(snippet, timeout, keep)
        for name, value in first["values"].items():
            if again["values"].get(name) != value:
                unstable.add(name)
    first["unstable"] = sorted(unstable)
    return first


def _version(distribution: str) -> Optional[str]:
    """The installed version from the distribution's metadata (a module's `__version__` may
    lag: lightgbm 2.0.4 calls itself 2.0.1): importlib.metadata from 3.8, pkg_resources before."""
    try:
        from importlib import metadata  # type: ignore[attr-defined, unused-ignore]

        return str(metadata.version(distribution))
    except ImportError:
        pass
    except Exception:
        return None
    try:
        import pkg_resources  # type: ignore[import-not-found, unused-ignore]

        return str(pkg_resources.get_distribution(distribution).version)
    except Exception:
        return None


def packages() -> Dict[str, str]:
    found = {}
    for distribution in sorted(set(DISTRIBUTIONS.values())):
        version = _version(distribution)
        if version is not None:
            found[distribution] = version
    return found


def _request(path: str) -> Dict[str, Any]:
    with open(path) as handle:
        request: Dict[str, Any] = json.load(handle)
    snippets = request.get("snippets") if isinstance(request, dict) else None
    if not isinstance(snippets, dict):
        raise ValueError("request: 'snippets' must be an object of id -> snippet")
    for key, snippet in snippets.items():
        if not isinstance(snippet, dict) or not isinstance(snippet.get("source"), str):
            raise ValueError("request: snippets[" + repr(key) + "].source must be a string")
        if not isinstance(snippet.get("files", {}), dict):
            raise ValueError("request: snippets[" + repr(key) + "].files must be an object")
    for field in ("runs", "timeout"):
        if not isinstance(request.get(field, 1), int) or request.get(field, 1) < 1:
            raise ValueError("request: " + field + " must be a positive integer")
    return request


def main(argv: List[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: python bound_values.py REQUEST.json\n")
        return 2
    try:
        request = _request(argv[1])
    except (OSError, ValueError) as error:
        sys.stderr.write("bound_values.py: " + str(error) + "\n")
        return 2
    # RESULTS go to the real stdout; what snippets and libraries print, from Python or C
    # (LightGBM's "[LightGBM] ..."), goes to stderr
    results_out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    os.environ.setdefault("MPLBACKEND", "Agg")
    signal.signal(signal.SIGALRM, _on_alarm)
    runs, timeout = request.get("runs", 1), request.get("timeout", 60)
    results = {}
    for key, snippet in sorted(request["snippets"].items()):
        try:
            results[key] = run(snippet, runs, timeout)
        except BaseException as error:  # a snippet that exits or breaks the runner
            if isinstance(error, KeyboardInterrupt):
                raise
            traceback.print_exc(file=sys.stderr)
            results[key] = {"error": _one_line(error), "check": None, "check_error": None,
                            "values": {}, "unstable": []}  # fmt: skip
    facts = {"python": ".".join(str(part) for part in sys.version_info[:3]), "packages": packages()}
    facts["results"] = results
    json.dump(facts, results_out, sort_keys=True)
    results_out.write("\n")
    results_out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
