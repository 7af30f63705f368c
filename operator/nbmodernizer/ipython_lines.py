"""IPython-only lines (`%magic`, `!shell`, `x = !cmd`) masked so that `ast` and LibCST can
parse a cell, and put back afterwards. No third-party imports: the executor, the fidelity
assessment, the LLM fixer and the rules all use it."""

from __future__ import annotations

import re

_MAGIC = re.compile(r"^(?P<indent>[ \t]*)(?P<body>(?:%|!|[A-Za-z_][\w.]*\s*=\s*[!%]).*)$")
_MARK = "# __nbmodernizer_masked_{}__"


def mask_ipython(source: str) -> tuple[str, list[str]]:
    """Replace IPython-only lines (`%magic`, `!shell`, `x = !cmd`) by placeholders."""
    masked_lines: list[str] = []
    originals: list[str] = []
    indent: str | None = None  # set while inside a masked line's backslash continuation
    for line in source.split("\n"):
        match = _MAGIC.match(line)
        if indent is None and match and not line.lstrip().startswith("%%"):
            indent = match.group("indent")
        if indent is not None:
            masked_lines.append(f"{indent}pass  {_MARK.format(len(originals))}")
            originals.append(line)
            indent = indent if line.rstrip().endswith("\\") else None
        else:
            masked_lines.append(line)
    return "\n".join(masked_lines), originals


def unmask_ipython(source: str, originals: list[str]) -> str:
    if not originals:
        return source
    lines = source.split("\n")
    for index, line in enumerate(lines):
        found = re.search(r"# __nbmodernizer_masked_(\d+)__", line)
        if found:
            lines[index] = originals[int(found.group(1))]
    return "\n".join(lines)


def is_cell_magic(source: str) -> bool:
    return source.lstrip().startswith("%%")
