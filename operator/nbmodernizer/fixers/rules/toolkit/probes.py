"""Probes as data: does an environment still have a rule's legacy API? (A rule whose probe says
"gone" is applied to every cell of a notebook that imports its library.)

A probe is evaluated where the notebook runs, by `envprobe.py` (stdlib-only), never in the
process that applies the rules: these classes mirror its JSON kinds (see its docstring), and
`to_json()` is what it reads. A library that is not installed never has anything gone.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

# --- the kinds -------------------------------------------------------------------------------


class _Kind:
    """What every probe shares: its JSON is its kind and its fields, as envprobe.py reads it."""

    kind: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind} | {
            field.name: _json(getattr(self, field.name))
            for field in fields(self)  # type: ignore[arg-type]
        }


def _json(value: Any) -> Any:
    if isinstance(value, _Kind):
        return value.to_json()
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    return value


@dataclass(frozen=True)
class Lacks(_Kind):
    """The module has none of `names`."""

    kind: ClassVar[str] = "lacks"

    module: str
    names: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.module} lacks {_names(self.names)}"


@dataclass(frozen=True)
class LacksAttribute(_Kind):
    """The object at `target` (a dotted path: modules, then attributes) has none of `names`."""

    kind: ClassVar[str] = "lacks_attribute"

    target: str
    names: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.target} lacks {_names(self.names)}"


@dataclass(frozen=True)
class LacksItem(_Kind):
    """The container at `target` holds none of `items` (`in`)."""

    kind: ClassVar[str] = "lacks_item"

    target: str
    items: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.target} holds none of {_names(self.items, quote=True)}"


@dataclass(frozen=True)
class NoParameter(_Kind):
    """The callable at `function` takes no `parameter` (`**`: no **kwargs)."""

    kind: ClassVar[str] = "no_parameter"

    function: str
    parameter: str

    def describe(self) -> str:
        if self.parameter == "**":
            return f"{self.function}() takes no **kwargs"
        return f"{self.function}() takes no `{self.parameter}`"


@dataclass(frozen=True)
class KeywordOnly(_Kind):
    """The callable at `function` takes `parameter` by keyword only."""

    kind: ClassVar[str] = "keyword_only"

    function: str
    parameter: str

    def describe(self) -> str:
        return f"{self.function}() takes `{self.parameter}` by keyword only"


@dataclass(frozen=True)
class ModuleGone(_Kind):
    """The module cannot be found (a top-level module: it is not installed)."""

    kind: ClassVar[str] = "module_gone"

    module: str

    def describe(self) -> str:
        return f"no module {self.module}"


@dataclass(frozen=True)
class Rejects(_Kind):
    """The snippet raises ValueError or TypeError (or does not compile): used where no simpler
    kind says it."""

    kind: ClassVar[str] = "rejects"

    code: str

    def describe(self) -> str:
        lines = "; ".join(line.strip() for line in self.code.strip().splitlines())
        fence = "``" if "`" in lines else "`"
        return f"rejects {fence} {lines} {fence}" if fence == "``" else f"rejects `{lines}`"


@dataclass(frozen=True)
class Always(_Kind):
    """Always gone: the rule is applied to every relevant notebook."""

    kind: ClassVar[str] = "always"

    def describe(self) -> str:
        return "always"


@dataclass(frozen=True)
class Not(_Kind):
    kind: ClassVar[str] = "not"
    probe: Probe

    def describe(self) -> str:
        return f"not ({self.probe.describe()})"


@dataclass(frozen=True)
class AllOf(_Kind):
    kind: ClassVar[str] = "all"
    probes: tuple[Probe, ...]

    def describe(self) -> str:
        return " and ".join(_group(probe) for probe in self.probes)


@dataclass(frozen=True)
class AnyOf(_Kind):
    kind: ClassVar[str] = "any"
    probes: tuple[Probe, ...]

    def describe(self) -> str:
        return " or ".join(_group(probe) for probe in self.probes)


Probe = (
    Lacks
    | LacksAttribute
    | LacksItem
    | NoParameter
    | KeywordOnly
    | ModuleGone
    | Rejects
    | Always
    | Not
    | AllOf
    | AnyOf
)

ALWAYS = Always()


def _names(names: tuple[str, ...], quote: bool = False) -> str:
    shown = [f"'{name}'" if quote else f"`{name}`" for name in names]
    return shown[0] if len(shown) == 1 else "all of " + ", ".join(shown)


def _group(probe: Probe) -> str:
    return f"({probe.describe()})" if isinstance(probe, AllOf | AnyOf) else probe.describe()


# --- how rules write them --------------------------------------------------------------------


def lacks(module: str, *names: str) -> Lacks:
    """The (installed) `module` has none of `names`."""
    return Lacks(module, names)


def lacks_attribute(target: str, *names: str) -> LacksAttribute:
    """The object at the dotted path `target` (`pandas.DataFrame`) has none of `names`."""
    return LacksAttribute(target, names)


def lacks_item(target: str, *items: str) -> LacksItem:
    return LacksItem(target, items)


def no_parameter(function: str, parameter: str) -> NoParameter:
    """The callable at the dotted path `function` (`sklearn.svm.SVC`) takes no `parameter`."""
    return NoParameter(function, parameter)


def keyword_only(function: str, parameter: str) -> KeywordOnly:
    return KeywordOnly(function, parameter)


def module_gone(name: str) -> ModuleGone:
    return ModuleGone(name)


def rejects(code: str) -> Rejects:
    """Today's library refuses the legacy snippet (ValueError or TypeError; scikit-learn's
    InvalidParameterError is both), or today's Python does not compile it."""
    return Rejects(code)


def all_of(*probes: Probe) -> AllOf:
    return AllOf(probes)


def any_of(*probes: Probe) -> AnyOf:
    return AnyOf(probes)


def not_(probe: Probe) -> Not:
    return Not(probe)
