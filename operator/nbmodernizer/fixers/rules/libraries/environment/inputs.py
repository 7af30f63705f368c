"""The Kaggle input layout of the time (`../input/train.csv`, where the file is now at
`../input/<dataset>/train.csv`), and input folders the code names otherwise (`../input/data/`,
a typo in the competition's name)."""

from __future__ import annotations

import glob
import os
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import string_value
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.nodes import qualified, replace_string

# --- the Kaggle input layout -------------------------------------------------------------------

_INPUT_PREFIX = re.compile(r"^(\.\./input|/kaggle/input)(/|$)")


def _relocated(relative: str, input_dir: Path) -> str | None:
    """Where `input/<relative>` really is when it is missing: `<extra>/<relative>`, the one
    path found one or two folders deeper (`train/train.csv`, `<dataset>/train.csv`)."""
    relative = relative.strip("/")
    if not relative or (input_dir / relative).exists():
        return None
    root = glob.escape(str(input_dir))
    for depth in (1, 2):
        pattern = os.path.join(root, *["*"] * depth, glob.escape(relative))
        found = glob.glob(pattern)
        if len(found) > 1:
            return None
        if found:
            return Path(found[0]).relative_to(input_dir).as_posix()
    return None


# Folder names a notebook written outside Kaggle gives its inputs.
_GENERIC_FOLDERS = frozenset({"data", "dataset", "datasets", "input", "inputs", "kaggle"})
_MAX_TYPOS = 2  # edits between the folder the code names and the real one
_MIN_NAME = 8  # shorter folder names are too alike to call one a typo of another


def _dashes(name: str) -> str:
    """Any dash (a non-breaking hyphen, an en dash) as `-`."""
    return "".join("-" if unicodedata.category(c) == "Pd" else c for c in name.lower())


def _edits(a: str, b: str) -> int:
    """Levenshtein distance."""
    row = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (char != other))
    return row[-1]


def _renamed(relative: str, input_dir: Path) -> str | None:
    """Where `input/<folder>/<rest>` really is when `<folder>` is missing: in the one input
    folder that has `<rest>` (the one folder, for a folder alone), if `<folder>` is a generic
    name (`data`) or that folder's name with a typo (at most two edits, dashes alike)."""
    head, _, rest = relative.strip("/").partition("/")
    if not head or (input_dir / head).exists():
        return None
    folders = [p for p in input_dir.iterdir() if p.is_dir() and not p.name.startswith(".")]
    found = [p for p in folders if (p / rest).exists()] if rest else folders
    if len(found) != 1:
        return None
    real = found[0].name
    typo = len(real) >= _MIN_NAME and _edits(_dashes(head), _dashes(real)) <= _MAX_TYPOS
    if head.lower() not in _GENERIC_FOLDERS and not typo:
        return None
    return f"{real}/{rest}" if rest else real


class _InputPaths(cst.CSTTransformer):
    def __init__(
        self, context: RuleContext, locate: Callable[[str, Path], str | None] = _relocated
    ) -> None:
        self.input_dir = context.input_dir
        self.locate = locate

    def _fixed(self, value: str) -> str | None:
        match = _INPUT_PREFIX.match(value)
        if match is None or self.input_dir is None or "\\" in value:
            return None
        relative = value[match.end() :]
        real = self.locate(relative, self.input_dir)
        if real is None:
            return None
        return f"{match.group(1)}/{real}" + ("/" if relative.endswith("/") else "")

    def leave_SimpleString(
        self, original_node: cst.SimpleString, updated_node: cst.SimpleString
    ) -> cst.SimpleString:
        value = updated_node.evaluated_value
        if not isinstance(value, str) or "\\" in updated_node.value:
            return updated_node
        fixed = self._fixed(value)
        return updated_node if fixed is None else replace_string(updated_node, fixed)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        """`os.path.join('../input', 'train.csv')` -> `os.path.join('../input/train', ...)`."""
        callee = qualified(updated_node.func, {})
        if callee is None or not callee.endswith("path.join") or len(updated_node.args) < 2:
            return updated_node
        parts = [string_value(arg) for arg in updated_node.args]
        if any(
            part is None or arg.keyword or arg.star
            for part, arg in zip(parts, updated_node.args, strict=True)
        ):
            return updated_node
        head = parts[0]
        assert head is not None
        match = _INPUT_PREFIX.match(head)
        if match is None or self.input_dir is None:
            return updated_node
        relative = "/".join([head[match.end() :].strip("/"), *(p or "" for p in parts[1:])]).strip(
            "/"
        )
        real = self.locate(relative, self.input_dir)
        if real is None or not real.endswith(relative):
            return updated_node  # the head's folder itself is renamed: not here
        extra = real[: len(real) - len(relative)].strip("/")
        first = updated_node.args[0]
        assert isinstance(first.value, cst.SimpleString)
        new_head = head.rstrip("/") + "/" + extra
        return updated_node.with_changes(
            args=[
                first.with_changes(value=replace_string(first.value, new_head)),
                *updated_node.args[1:],
            ]
        )


RULES = (
    Rule(
        id="environment.nested-input-paths",
        library="environment",
        changed_in="-",
        summary="`'../input/train.csv'` missing, but the one `../input/<folder>/train.csv` there "
        "-> that path (Kaggle's per-dataset and unzipped layouts); reactive",
        kind=Kind.ENVIRONMENT,
        rewrite=cst_rewrite(_InputPaths),
        symptoms=(Symptom("FileNotFoundError", r"No such file or directory"),),
        examples=(
            Example(
                before=(
                    "import os\n"
                    "import pandas as pd\n"
                    "train = pd.read_csv('../input/train.csv')\n"
                    'test = pd.read_csv(os.path.join("../input", "test.csv"))\n'
                    "listed = os.listdir('../input')\n"
                ),
                after=(
                    "import os\n"
                    "import pandas as pd\n"
                    "train = pd.read_csv('../input/train/train.csv')\n"
                    'test = pd.read_csv(os.path.join("../input/titanic", "test.csv"))\n'
                    "listed = os.listdir('../input')\n"
                ),
                error="FileNotFoundError",
                files={
                    "input/train/train.csv": "a,b\n1,2\n",
                    "input/titanic/test.csv": "a\n3\n4\n",
                },
                check="train.shape == (1, 2) and test['a'].tolist() == [3, 4]",
            ),
        ),
    ),
    Rule(
        id="environment.renamed-input-folder",
        library="environment",
        changed_in="-",
        summary="`'../input/data/train.csv'` or `'../input/<competition with a typo>/train.csv'` "
        "missing, but the one `../input/<folder>/train.csv` there -> that path (a generic local "
        "folder name, or at most two edits from the real one); reactive",
        kind=Kind.ENVIRONMENT,
        rewrite=cst_rewrite(lambda context: _InputPaths(context, _renamed)),
        symptoms=(Symptom("FileNotFoundError", r"No such file or directory"),),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "train = pd.read_csv('../input/data/train.csv')\n"
                    "test = pd.read_csv('../input/plant-pathology-2021-fgfg8/test.csv')\n"
                    "PATH = '../input/plant\u2011pathology\u20112021\u2011fgvc8/'\n"
                    "sub = pd.read_csv(PATH + 'sample_submission.csv')\n"
                    "extra = '../input/external-data/train.csv'\n"
                ),
                after=(
                    "import pandas as pd\n"
                    "train = pd.read_csv('../input/plant-pathology-2021-fgvc8/train.csv')\n"
                    "test = pd.read_csv('../input/plant-pathology-2021-fgvc8/test.csv')\n"
                    "PATH = '../input/plant-pathology-2021-fgvc8/'\n"
                    "sub = pd.read_csv(PATH + 'sample_submission.csv')\n"
                    "extra = '../input/external-data/train.csv'\n"
                ),
                error="FileNotFoundError",
                files={
                    "input/plant-pathology-2021-fgvc8/train.csv": "a,b\n1,2\n",
                    "input/plant-pathology-2021-fgvc8/test.csv": "a\n3\n4\n",
                    "input/plant-pathology-2021-fgvc8/sample_submission.csv": "a\n5\n",
                },
                check="train.shape == (1, 2) and test['a'].tolist() == [3, 4] and len(sub) == 1",
            ),
        ),
    ),
)
