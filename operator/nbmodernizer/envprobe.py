"""What an environment has: run IN the interpreter where a notebook's kernel runs, it reports
the versions of the distributions the notebook imports, which legacy APIs are gone (the rules'
probes, given as data), and the parameters of the callables the rules read.

    PYTHON envprobe.py REQUEST.json   ->  FACTS as JSON on stdout

Standalone on purpose: only the standard library, never `nbmodernizer`, and it runs unchanged
on any CPython >= 3.6 (the era environments), so annotations are strings and nothing newer
than 3.6's syntax is used. Exit 0 even when single probes fail (their errors are recorded and
they count as "not gone"); exit 2 with a message on stderr for a bad request.

REQUEST = {"modules": [top-level modules the notebook imports],
           "probes": {rule id: PROBE},
           "signatures": [dotted paths of callables whose parameters the rules need;
                          "sklearn.*": the public classes and functions of the package and
                          of the submodules in its __all__ that take keyword-only parameters],
           "names": [modules (dotted paths) whose public names (dir(), no leading _) the
                     rules need]}

PROBE kinds (a JSON object with "kind"); each answers "is the legacy API gone?":
  lacks            {"module": "numpy", "names": ["float"]}: the module has none of the names
                   (a submodule that is gone has none)
  lacks_attribute  {"target": "pandas.DataFrame", "names": ["ix"]}: the object (a dotted path:
                   modules, then attributes) has none of the names
  lacks_item       {"target": "matplotlib.rcParams", "items": ["axes.color_cycle"]}: the
                   container (a dotted path) holds none of the items (`in`)
  no_parameter     {"function": "sklearn.svm.SVC", "parameter": "x"}: the callable takes no
                   such parameter ("**": it takes no **kwargs)
  keyword_only     {"function": "pandas.DataFrame.drop", "parameter": "axis"}: the callable's
                   parameter can only be passed by keyword
  module_gone      {"module": "sklearn.cross_validation"}: the module cannot be found (a
                   top-level module: it is not installed)
  rejects          {"code": "..."}: the snippet raises ValueError or TypeError when run, or
                   SyntaxError when compiled (an ImportError: its library is not installed,
                   so not gone)
  always           {}: always gone (the rule is always applied)
  not              {"probe": PROBE}
  all              {"probes": [PROBE, ...]}: every one is gone
  any              {"probes": [PROBE, ...]}: at least one is gone

A library that is not installed never has anything gone: its probes are false, without error.

FACTS = {"python": "3.11.7", "executable": "/path/python",
         "packages": {distribution: version},     # those providing REQUEST.modules
         "probes": {rule id: true|false},         # true = the legacy API is gone
         "probe_errors": {rule id: "one line"},   # could not be evaluated (counts as false);
                                                  # "signature <path>" for a signature
         "signatures": {path: [[parameter, kind], ...]},  # kind: inspect's, e.g. KEYWORD_ONLY
         "names": {module: [public names]}}        # those installed
"""

import contextlib
import importlib
import importlib.util
import inspect
import json
import os
import platform
import sys
import warnings

KINDS = (
    "lacks",
    "lacks_attribute",
    "lacks_item",
    "no_parameter",
    "keyword_only",
    "module_gone",
    "rejects",
    "always",
    "not",
    "all",
    "any",
)
# what each kind needs besides "kind": field -> "str", "names" (a non-empty list of str),
# "probe" or "probes"
FIELDS = {
    "lacks": {"module": "str", "names": "names"},
    "lacks_attribute": {"target": "str", "names": "names"},
    "lacks_item": {"target": "str", "items": "names"},
    "no_parameter": {"function": "str", "parameter": "str"},
    "keyword_only": {"function": "str", "parameter": "str"},
    "module_gone": {"module": "str"},
    "rejects": {"code": "str"},
    "always": {},
    "not": {"probe": "probe"},
    "all": {"probes": "probes"},
    "any": {"probes": "probes"},
}


class BadRequestError(Exception):
    """The request is not what this program reads (exit 2)."""


class NotInstalledError(Exception):
    """The library a probe asks about is not installed: nothing of it is gone."""


# --- reading the request ---------------------------------------------------------------------


def check_probe(probe: "object", where: str) -> None:
    """Raise BadRequestError naming the field when `probe` is not a PROBE."""
    if not isinstance(probe, dict):
        raise BadRequestError(f"{where}: a probe is a JSON object, got {_kind_of(probe)}")
    kind = probe.get("kind")
    if kind not in FIELDS:
        raise BadRequestError(
            "{}.kind: {!r} is not a probe kind (one of {})".format(where, kind, ", ".join(KINDS))
        )
    fields = FIELDS[kind]
    for name in sorted(set(probe) - set(fields) - {"kind"}):
        raise BadRequestError(f"{where}.{name}: not a field of a {kind!r} probe")
    for name, shape in sorted(fields.items()):
        value = probe.get(name)
        at = f"{where}.{name}"
        if shape == "str":
            if not isinstance(value, str) or not value:
                raise BadRequestError(f"{at}: a non-empty string is required")
        elif shape == "names":
            if (
                not isinstance(value, list)
                or not value
                or not all(isinstance(item, str) for item in value)
            ):
                raise BadRequestError(f"{at}: a non-empty list of strings is required")
        elif shape == "probe":
            check_probe(value, at)
        else:
            if not isinstance(value, list) or not value:
                raise BadRequestError(f"{at}: a non-empty list of probes is required")
            for index, item in enumerate(value):
                check_probe(item, f"{at}[{index}]")


def read_request(text: str) -> "dict[str, object]":
    try:
        request = json.loads(text)
    except ValueError as error:
        raise BadRequestError(f"the request is not JSON: {error}") from None
    if not isinstance(request, dict):
        raise BadRequestError(f"the request is a JSON object, got {_kind_of(request)}")
    for name in sorted(set(request) - {"modules", "probes", "signatures", "names"}):
        raise BadRequestError(
            f"{name}: not a field of a request (modules, probes, signatures, names)"
        )
    for name in ("modules", "signatures", "names"):
        value = request.setdefault(name, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise BadRequestError(f"{name}: a list of strings is required")
    probes = request.setdefault("probes", {})
    if not isinstance(probes, dict):
        raise BadRequestError("probes: an object (rule id -> probe) is required")
    for rule_id, probe in probes.items():
        check_probe(probe, f"probes[{rule_id!r}]")
    return request


def _kind_of(value: "object") -> str:
    return type(value).__name__


# --- finding what is installed ---------------------------------------------------------------


def installed(module: str) -> bool:
    """Whether the top-level package of `module` can be found."""
    root = module.split(".")[0]
    try:
        return importlib.util.find_spec(root) is not None
    except (ImportError, ValueError):
        return False


def import_module(name: str) -> "object":
    """The module `name`; NotInstalledError when its top-level package is not there."""
    if not installed(name):
        raise NotInstalledError(name)
    return importlib.import_module(name)


def resolve(path: str) -> "object":
    """The object a dotted path names: its top-level module, then submodules or attributes.
    NotInstalledError when the top-level package is missing; AttributeError when a part is."""
    parts = path.split(".")
    found = import_module(parts[0])
    for index in range(1, len(parts)):
        part = parts[index]
        if hasattr(found, part):
            found = getattr(found, part)
            continue
        prefix = ".".join(parts[: index + 1])
        if inspect.ismodule(found):
            try:
                found = importlib.import_module(prefix)
                continue
            except ImportError as error:
                if getattr(error, "name", None) not in (prefix, None):
                    raise
        raise AttributeError("{} has no attribute {!r}".format(".".join(parts[:index]), part))
    return found


# --- evaluating probes -----------------------------------------------------------------------


def evaluate(probe: "dict[str, object]") -> bool:
    """Whether the legacy API the probe describes is gone here. NotInstalledError propagates from
    a leaf (the caller counts it as not gone); other exceptions are the probe's errors."""
    kind = probe["kind"]
    if kind == "always":
        return True
    if kind == "not":
        return not evaluate(_probe(probe["probe"]))
    if kind == "all":
        return all(evaluate(_probe(item)) for item in _list(probe["probes"]))
    if kind == "any":
        return any(_gone_or_false(_probe(item)) for item in _list(probe["probes"]))
    if kind == "lacks":
        name = str(probe["module"])
        if not installed(name):
            raise NotInstalledError(name)
        if module_gone(name):
            return True  # a submodule that is gone has none of the names
        module = import_module(name)
        return not any(hasattr(module, name) for name in _names(probe["names"]))
    if kind == "lacks_attribute":
        target = resolve(str(probe["target"]))
        return not any(hasattr(target, name) for name in _names(probe["names"]))
    if kind == "lacks_item":
        container = resolve(str(probe["target"]))
        return not any(item in container for item in _names(probe["items"]))  # type: ignore[operator]
    if kind == "no_parameter":
        parameters = inspect.signature(resolve(str(probe["function"]))).parameters  # type: ignore[arg-type]
        if probe["parameter"] == "**":
            return not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
        return probe["parameter"] not in parameters
    if kind == "keyword_only":
        parameters = inspect.signature(resolve(str(probe["function"]))).parameters  # type: ignore[arg-type]
        found = parameters.get(str(probe["parameter"]))
        return found is not None and found.kind is inspect.Parameter.KEYWORD_ONLY
    if kind == "module_gone":
        return module_gone(str(probe["module"]))
    if kind == "rejects":
        return rejects(str(probe["code"]))
    raise BadRequestError(f"unknown probe kind {kind!r}")


def judge(probe: "dict[str, object]") -> "tuple[bool, str | None]":
    """Whether the legacy API is gone, and why the probe could not be evaluated (then it is
    not gone); a library that is not installed has nothing gone, without error."""
    try:
        return evaluate(probe), None
    except NotInstalledError:
        return False, None
    except Exception as error:  # a probe that cannot be evaluated counts as false
        return False, one_line(error)


def _gone_or_false(probe: "dict[str, object]") -> bool:
    """`any`'s branches: one whose library is not installed is simply not gone."""
    try:
        return evaluate(probe)
    except NotInstalledError:
        return False


def _probe(value: "object") -> "dict[str, object]":
    assert isinstance(value, dict)
    return value


def _list(value: "object") -> "list[object]":
    assert isinstance(value, list)
    return value


def _names(value: "object") -> "list[str]":
    return [str(name) for name in _list(value)]


def module_gone(name: str) -> bool:
    if "." in name and not installed(name):
        raise NotInstalledError(name)
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):  # a parent is missing, or is not a package any more
        return True


def rejects(code: str) -> bool:
    try:
        compiled = compile(code, "<probe>", "exec")
    except SyntaxError:
        return True
    try:
        exec(compiled, {"__name__": "__probe__"})
    except (ValueError, TypeError):  # sklearn's InvalidParameterError is both
        return True
    except ImportError as error:
        missing = getattr(error, "name", None)
        if missing is not None and not installed(missing):
            raise NotInstalledError(missing) from None
        raise
    return False


def signature(path: str) -> "list[list[str]]":
    return signature_of(resolve(path))


def keyword_only_signatures(package: str) -> "dict[str, list[list[str]]]":
    """The signatures of the public classes and functions, of `package` and of the submodules
    its __all__ names, that take keyword-only parameters."""
    root = import_module(package)
    modules = [root]
    for name in getattr(root, "__all__", []):
        if not hasattr(root, name) or inspect.ismodule(getattr(root, name)):
            try:
                modules.append(importlib.import_module(package + "." + name))
            except ImportError:
                continue
    found = {}  # type: dict[str, list[list[str]]]
    for module in modules:
        prefix = getattr(module, "__name__", package)
        for name in dir(module):
            value = getattr(module, name, None)
            if name.startswith("_") or not (inspect.isclass(value) or inspect.isfunction(value)):
                continue
            try:
                parameters = signature_of(value)
            except (TypeError, ValueError):
                continue
            if any(kind == "KEYWORD_ONLY" for _, kind in parameters):
                found[prefix + "." + name] = parameters
    return found


def signature_of(value: "object") -> "list[list[str]]":
    parameters = inspect.signature(value).parameters  # type: ignore[arg-type]
    return [[name, parameter.kind.name] for name, parameter in parameters.items()]


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    line = f"{type(error).__name__}: {text}" if text else type(error).__name__
    return line[:500]


# --- packages --------------------------------------------------------------------------------


def packages(modules: "list[str]") -> "dict[str, str]":
    """Distribution -> version for the distributions that provide `modules` (those installed)."""
    providers = _providers()
    found = {}  # type: dict[str, str]
    for module in sorted(set(modules)):
        for distribution, version in providers.get(module, []):
            found[distribution] = version
    return found


def _top_level(listed: "str | None", files: "list[str]") -> "list[str]":
    """A distribution's top-level modules: its top_level.txt, else its files' first parts."""
    if listed:
        return [line.strip() for line in listed.splitlines() if line.strip()]
    found = []  # type: list[str]
    for path in files:
        parts = path.replace("\\", "/").split("/")
        first = parts[0]
        if len(parts) == 1:
            if not first.endswith(".py"):
                continue
            first = first[:-3]
        elif first.endswith((".dist-info", ".egg-info", ".data")) or first in ("..", "__pycache__"):
            continue
        first = first.split(".")[0]
        if first.isidentifier() and first not in found:
            found.append(first)
    return found


def _providers() -> "dict[str, list[tuple[str, str]]]":
    """Top-level module -> [(distribution, version)], from the *.dist-info and *.egg-info
    folders on sys.path (and an *.egg's EGG-INFO): those importlib.metadata finds, read here
    on every version, as importlib.metadata (3.8+) reads them but faster: its
    `metadata["Name"]` and `version` parse a distribution's whole METADATA (its long
    description too) with the email parser, seven times slower than reading the headers up
    to their first blank line."""
    providers = {}  # type: dict[str, list[tuple[str, str]]]
    for entry in sys.path:
        entry = entry or "."  # the current folder, as the import system reads it
        if not os.path.isdir(entry):
            continue
        egg = entry.lower().endswith(".egg")
        for folder in sorted(os.listdir(entry)):
            low = folder.lower()
            if not (low.endswith((".dist-info", ".egg-info")) or (egg and low == "egg-info")):
                continue
            base = os.path.join(entry, folder)
            headers = _read(base, "METADATA") or _read(base, "PKG-INFO") or ""
            name, version = _header(headers, "Name"), _header(headers, "Version")
            if not name or not version:
                continue
            listed = _read(base, "top_level.txt")
            record = "" if listed else _read(base, "RECORD") or ""  # read only when needed
            files = [line.split(",")[0] for line in record.splitlines() if line]
            for module in _top_level(listed, files):
                pair = (name, version)
                if pair not in providers.setdefault(module, []):
                    providers[module].append(pair)
    return providers


def _read(folder: str, name: str) -> "str | None":
    path = os.path.join(folder, name)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def _header(text: str, name: str) -> "str | None":
    prefix = name.lower() + ":"
    for line in text.splitlines():
        if not line.strip():
            break  # the headers end at the first blank line
        if line.lower().startswith(prefix):
            return line[len(prefix) :].strip()
    return None


# --- the program -----------------------------------------------------------------------------


def facts(request: "dict[str, object]") -> "dict[str, object]":
    gone = {}  # type: dict[str, bool]
    errors = {}  # type: dict[str, str]
    signatures = {}  # type: dict[str, list[list[str]]]
    # libraries print while imported; stdout is the FACTS' alone
    with warnings.catch_warnings(), contextlib.redirect_stdout(sys.stderr):
        warnings.simplefilter("ignore")
        for rule_id, probe in sorted(_probes(request).items()):
            gone[rule_id], error = judge(probe)
            if error is not None:
                errors[rule_id] = error
        for path in sorted(set(_names(request["signatures"]))):
            try:
                if path.endswith(".*"):
                    signatures.update(keyword_only_signatures(path[:-2]))
                else:
                    signatures[path] = signature(path)
            except NotInstalledError:
                continue
            except Exception as error:
                errors["signature " + path] = one_line(error)
        listed = {}  # type: dict[str, list[str]]
        for module in sorted(set(_names(request.get("names", [])))):
            try:
                listed[module] = sorted(n for n in dir(resolve(module)) if n[:1] != "_")
            except NotInstalledError:
                continue
            except Exception as error:
                errors["names " + module] = one_line(error)
        found = packages(_names(request["modules"]))
    return {
        "python": platform.python_version(),
        "executable": sys.executable,
        "packages": found,
        "probes": gone,
        "probe_errors": errors,
        "signatures": signatures,
        "names": listed,
    }


def _probes(request: "dict[str, object]") -> "dict[str, dict[str, object]]":
    probes = request["probes"]
    assert isinstance(probes, dict)
    return probes


def main(argv: "list[str]") -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: python envprobe.py REQUEST.json\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8") as handle:
            request = read_request(handle.read())
    except OSError as error:
        sys.stderr.write(f"envprobe: cannot read the request: {error}\n")
        return 2
    except BadRequestError as error:
        sys.stderr.write(f"envprobe: bad request: {error}\n")
        return 2
    result = facts(request)
    sys.stdout.write(json.dumps(result, sort_keys=True) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
