"""Which PyPI distribution provides an import name: `module_packages.tsv`, derived from the
distributions' own data (their wheels' top-level names) by `scripts/module_packages.py`.

A name that is not there (a Kaggle-only helper such as `learntools`, a file the author had
next to the notebook) is no package's: nothing to install.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

DATA_FILE = "module_packages.tsv"


def parse(text: str) -> dict[str, str]:
    """`module<TAB>distribution` lines; `#` lines are comments."""
    providers: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        module, tab, distribution = line.partition("\t")
        if not tab or not module or not distribution or "\t" in distribution:
            raise ValueError(
                f"{DATA_FILE} line {number}: expected `module<TAB>distribution`, got {line!r}"
            )
        providers[module] = distribution
    return providers


@cache
def _providers() -> dict[str, str]:
    return parse(resources.files("nbmodernizer").joinpath(DATA_FILE).read_text("utf-8"))


def distribution_providing(module: str) -> str | None:
    """The distribution to install for `import module` (a top-level name, or a dotted name
    the map lists, such as a namespace package's `google.protobuf`); None: no package's."""
    return _providers().get(module)
