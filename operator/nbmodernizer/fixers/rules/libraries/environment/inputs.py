"""The Kaggle input layout of the time (`../input/train.csv`, where the file is now at
`../input/<dataset>/train.csv`)."""

from __future__ import annotations

import glob
import os
import re
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


class _InputPaths(cst.CSTTransformer):
    def __init__(self, context: RuleContext) -> None:
        self.input_dir = context.input_dir

    def _fixed(self, value: str) -> str | None:
        match = _INPUT_PREFIX.match(value)
        if match is None or self.input_dir is None or "\\" in value:
            return None
        real = _relocated(value[match.end() :], self.input_dir)
        return None if real is None else f"{match.group(1)}/{real}"

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
        real = _relocated(relative, self.input_dir)
        if real is None:
            return updated_node
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
)
