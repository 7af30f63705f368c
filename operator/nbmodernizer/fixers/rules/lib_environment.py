"""Environment drift: the notebook assumes an environment it does not get.

In-notebook installs (the environment is fixed: versions are chosen by the tool), GPUs the
run does not have, and the Kaggle input layout of the time (`../input/train.csv`, where the
file is now at `../input/<dataset>/train.csv`).
"""

from __future__ import annotations

import glob
import os
import re
from pathlib import Path

import libcst as cst

from nbmodernizer.fixers.rules.arguments import keyword_arg
from nbmodernizer.fixers.rules.cells import is_cell_magic, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_tools import callee_is, cst_rewrite, string_value
from nbmodernizer.fixers.rules.model import Example, Kind, Rewrite, Rule, Symptom
from nbmodernizer.fixers.rules.text_tools import module_alias, with_keywords

# --- in-notebook installs ----------------------------------------------------------------------

MARKER = "# nbmodernizer: disabled in-notebook install (the environment is fixed): "

_INSTALLER = r"(pip3?|conda|mamba|apt-get|apt|\{sys\.executable\}\s+-m\s+pip|python3?\s+-m\s+pip)"
_SHELL_INSTALL = re.compile(
    rf"^(?P<indent>[ \t]*)(?:[!%]|get_ipython\(\)\.system\(['\"])\s*(sudo\s+)?{_INSTALLER}"
    r"\s+(-\S+\s+)*(install|uninstall|remove)\b"
)
_PYTHON_CALL = re.compile(
    r"^(?P<indent>[ \t]*)(os\.system|subprocess\.(call|check_call|check_output|run|Popen)"
    r"|pip\.main|pip\._internal\.main)\s*\(.*\)\s*(#.*)?$"
)
_INSTALL_WORDS = re.compile(rf"\b{_INSTALLER}\s+(-\S+\s+)*(install|uninstall)\b|^install\b")


def _is_python_install(line: str) -> re.Match[str] | None:
    match = _PYTHON_CALL.match(line)
    if match is None:
        return None
    words = re.sub(r"[\[\]'\",()]", " ", line[match.end(2) :])
    words = re.sub(r"sys\.executable\s+-m\s+", "", words)
    return match if _INSTALL_WORDS.search(words.strip()) else None


def disable_installs(source: str, context: RuleContext) -> str:
    if is_cell_magic(source) and not source.lstrip().startswith("%%capture"):
        return source
    lines = source.split("\n")
    continuing: str | None = None  # the indentation while inside a disabled `\` continuation
    changed = False
    for index, line in enumerate(lines):
        if continuing is None:
            match = _SHELL_INSTALL.match(line) or _is_python_install(line)
            if match is None:
                continue
            indent = match.group("indent")
            context.notes.append(f"disabled in-notebook install `{line.strip()}`")
            head = f"{indent}pass  " if indent else ""
            lines[index] = f"{head}{MARKER}{line.strip()}"
        else:
            lines[index] = f"{continuing}# {line.strip()}"
            indent = continuing
        changed = True
        continuing = indent if line.rstrip().endswith("\\") else None
    return "\n".join(lines) if changed else source


# --- GPUs the run does not have ------------------------------------------------------------------


def _string_node(value: str, like: cst.SimpleString) -> cst.SimpleString:
    quote = like.quote
    return cst.SimpleString(f"{like.prefix}{quote}{value}{quote}")


def _cuda_string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        if isinstance(value, str) and re.fullmatch(r"cuda(:\d+)?", value):
            return value
    return None


class _TorchOnCpu(cst.CSTTransformer):
    """`x.cuda()` -> `x.cpu()`; `torch.device('cuda')`, `device='cuda'`, `.to('cuda')` and
    `device = 'cuda'` -> `'cuda' if torch.cuda.is_available() else 'cpu'`."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        self.torch = module_alias(context, "torch")

    def _fallback(self, node: cst.SimpleString) -> cst.BaseExpression:
        if self.torch is None:
            return _string_node("cpu", node)
        return cst.IfExp(
            test=cst.parse_expression(f"{self.torch}.cuda.is_available()"),
            body=node,
            orelse=_string_node("cpu", node),
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "cuda":
            if qualified(func, self.context.aliases) in ("torch.cuda", "torch.Tensor.cuda"):
                return updated_node
            if isinstance(func.value, cst.Name) and func.value.value == self.torch:
                return updated_node
            return updated_node.with_changes(func=func.with_changes(attr=cst.Name("cpu")), args=[])
        args = list(updated_node.args)
        changed = False
        name = qualified(func, self.context.aliases)
        for index, arg in enumerate(args):
            positional = arg.keyword is None and not arg.star
            device_position = positional and (
                name == "torch.device"
                or (isinstance(func, cst.Attribute) and func.attr.value == "to")
            )
            keyword = arg.keyword is not None and arg.keyword.value == "device"
            if (device_position or keyword) and _cuda_string(arg.value) is not None:
                assert isinstance(arg.value, cst.SimpleString)
                args[index] = arg.with_changes(value=self._fallback(arg.value))
                changed = True
        return updated_node.with_changes(args=args) if changed else updated_node

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        value = updated_node.value
        if _cuda_string(value) is not None and all(
            isinstance(target.target, cst.Name) for target in updated_node.targets
        ):
            assert isinstance(value, cst.SimpleString)
            return updated_node.with_changes(value=self._fallback(value))
        return updated_node


def torch_on_cpu(source: str, context: RuleContext) -> str:
    if context.gpu_available or not any(
        name.split(".")[0] == "torch" for name in context.aliases.values()
    ):
        return source
    return cst_rewrite(_TorchOnCpu)(source, context)


class _TorchLoadOnCpu(cst.CSTTransformer):
    def __init__(self, context: RuleContext) -> None:
        self.context = context

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(updated_node.func, self.context.aliases) != "torch.load":
            return updated_node
        if keyword_arg(updated_node, "map_location") or len(updated_node.args) > 1:
            return updated_node
        return with_keywords(updated_node, [("map_location", cst.SimpleString("'cpu'"))])


def torch_load_on_cpu(source: str, context: RuleContext) -> str:
    return source if context.gpu_available else cst_rewrite(_TorchLoadOnCpu)(source, context)


class _ParamValues(cst.CSTTransformer):
    """Rewrite a parameter's string value in calls to some classes (keyword) and in dict
    literals (`{'task_type': 'GPU'}`), e.g. GPU -> CPU."""

    def __init__(
        self,
        context: RuleContext,
        classes: tuple[str, ...],
        keys: tuple[str, ...],
        values: dict[str, str],
    ) -> None:
        self.context, self.classes, self.keys, self.values = context, classes, keys, values

    def _new(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        if isinstance(node, cst.SimpleString):
            value = node.evaluated_value
            if isinstance(value, str) and value.lower() in self.values:
                return _string_node(self.values[value.lower()], node)
        return None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not callee_is(updated_node, self.classes, self.context):
            return updated_node
        args = list(updated_node.args)
        for index, arg in enumerate(args):
            if arg.keyword is not None and arg.keyword.value in self.keys:
                new = self._new(arg.value)
                if new is not None:
                    args[index] = arg.with_changes(value=new)
        return updated_node.with_changes(args=args)

    def leave_DictElement(
        self, original_node: cst.DictElement, updated_node: cst.DictElement
    ) -> cst.DictElement:
        key = updated_node.key
        if isinstance(key, cst.SimpleString) and key.evaluated_value in self.keys:
            new = self._new(updated_node.value)
            if new is not None:
                return updated_node.with_changes(value=new)
        return updated_node


def gpu_to_cpu(
    library: str, classes: tuple[str, ...], keys: tuple[str, ...], values: dict[str, str]
) -> Rewrite:
    """No GPU: a library's device parameter `keys` (keyword of `classes`, or dict entry) from
    a GPU value to its CPU value; only in notebooks that import the library."""
    transform = cst_rewrite(lambda context: _ParamValues(context, classes, keys, values))

    def rewrite(source: str, context: RuleContext) -> str:
        if context.gpu_available or not any(
            name.split(".")[0] == library for name in context.aliases.values()
        ):
            return source
        return transform(source, context)

    return rewrite


_CATBOOST_CLASSES = (
    "catboost.CatBoostClassifier",
    "catboost.CatBoostRegressor",
    "catboost.CatBoostRanker",
    "catboost.CatBoost",
)
_LIGHTGBM_CLASSES = (
    "lightgbm.LGBMClassifier",
    "lightgbm.LGBMRegressor",
    "lightgbm.LGBMRanker",
    "lightgbm.LGBMModel",
)


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
        return updated_node if fixed is None else _string_node(fixed, updated_node)

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
                first.with_changes(value=_string_node(new_head, first.value)),
                *updated_node.args[1:],
            ]
        )


# --- the rules ------------------------------------------------------------------------------------

RULES = (
    Rule(
        id="environment.disable-installs",
        library="environment",
        changed_in="-",
        summary="`!pip install ...`, `%pip`, `!conda install`, `!apt-get install`, "
        "`os.system('pip install ...')`, `subprocess.call(['pip', 'install', ...])` -> "
        "commented out with a marker (the environment is fixed)",
        kind=Kind.ENVIRONMENT,
        rewrite=disable_installs,
        gone=lambda: True,
        examples=(
            Example(
                before=(
                    "!pip install -q xgboost==0.90\n"
                    "%pip install lightgbm\n"
                    "if True:\n"
                    "    !conda install -y -c conda-forge \\\n"
                    "        catboost\n"
                    "!apt-get install -y graphviz\n"
                    "!pip uninstall -y tensorflow\n"
                    "!ls ../input\n"
                    "n = 1\n"
                ),
                after=(
                    f"{MARKER}!pip install -q xgboost==0.90\n"
                    f"{MARKER}%pip install lightgbm\n"
                    "if True:\n"
                    f"    pass  {MARKER}!conda install -y -c conda-forge \\\n"
                    "    # catboost\n"
                    f"{MARKER}!apt-get install -y graphviz\n"
                    f"{MARKER}!pip uninstall -y tensorflow\n"
                    "!ls ../input\n"
                    "n = 1\n"
                ),
                check="ipython_calls == [('system', 'ls ../input')] and n == 1",
            ),
            Example(
                before=(
                    "import types\n"
                    "shell = []  # stands in for the machine's shell\n"
                    "os = types.SimpleNamespace(system=shell.append)\n"
                    "subprocess = types.SimpleNamespace(check_call=shell.append)\n"
                    "os.system('pip install --upgrade pandas==0.23')\n"
                    "subprocess.check_call(['pip', 'install', 'seaborn==0.9'])  # pinned\n"
                    "os.system('ls -l')\n"
                ),
                after=(
                    "import types\n"
                    "shell = []  # stands in for the machine's shell\n"
                    "os = types.SimpleNamespace(system=shell.append)\n"
                    "subprocess = types.SimpleNamespace(check_call=shell.append)\n"
                    f"{MARKER}os.system('pip install --upgrade pandas==0.23')\n"
                    f"{MARKER}subprocess.check_call(['pip', 'install', 'seaborn==0.9'])  # pinned\n"
                    "os.system('ls -l')\n"
                ),
                check="shell == ['ls -l']",
            ),
        ),
    ),
    Rule(
        id="environment.torch-cuda-on-cpu",
        library="torch",
        changed_in="-",
        summary="no GPU: `x.cuda()` -> `x.cpu()`; `torch.device('cuda')`, `device='cuda'`, "
        "`.to('cuda')` -> `'cuda' if torch.cuda.is_available() else 'cpu'`",
        kind=Kind.ENVIRONMENT,
        rewrite=torch_on_cpu,
        symptoms=(
            Symptom("AssertionError", r"Torch not compiled with CUDA enabled"),
            Symptom("RuntimeError", r"Found no NVIDIA driver|No CUDA GPUs are available"),
        ),
        gone=lambda: True,
        examples=(
            Example(
                before=(
                    "import torch\n"
                    "torch.manual_seed(0)\n"
                    "model = torch.nn.Linear(2, 1).cuda()\n"
                    "x = torch.ones(1, 2).cuda(non_blocking=True)\n"
                    "if torch.cuda.is_available():\n"
                    "    torch.cuda.manual_seed(0)\n"
                    "y = model(x)\n"
                ),
                after=(
                    "import torch\n"
                    "torch.manual_seed(0)\n"
                    "model = torch.nn.Linear(2, 1).cpu()\n"
                    "x = torch.ones(1, 2).cpu()\n"
                    "if torch.cuda.is_available():\n"
                    "    torch.cuda.manual_seed(0)\n"
                    "y = model(x)\n"
                ),
                error="AssertionError",
                check="torch.allclose(y, model.weight.sum() + model.bias)",
            ),
            Example(
                before=(
                    "import torch as T\n"
                    "device = T.device('cuda:0')\n"
                    "DEVICE = 'cuda'\n"
                    "a = T.zeros(2, device='cuda')\n"
                    "b = T.ones(2).to(DEVICE) + T.ones(2).to('cuda')\n"
                ),
                after=(
                    "import torch as T\n"
                    "device = T.device('cuda:0' if T.cuda.is_available() else 'cpu')\n"
                    "DEVICE = 'cuda' if T.cuda.is_available() else 'cpu'\n"
                    "a = T.zeros(2, device='cuda' if T.cuda.is_available() else 'cpu')\n"
                    "b = T.ones(2).to(DEVICE) + T.ones(2).to('cuda' if T.cuda.is_available() else 'cpu')\n"
                ),
                error="AssertionError",
                check="device.type == 'cpu' and a.sum() == 0 and b.tolist() == [2.0, 2.0]",
            ),
        ),
    ),
    Rule(
        id="environment.torch-load-on-cpu",
        library="torch",
        changed_in="-",
        summary="no GPU: `torch.load(f)` of a checkpoint saved on a GPU -> "
        "`torch.load(f, map_location='cpu')`",
        kind=Kind.ENVIRONMENT,
        rewrite=torch_load_on_cpu,
        symptoms=(Symptom("RuntimeError", r"Attempting to deserialize object on a CUDA device"),),
        examples=(
            Example(
                before=(
                    "import io, torch\n"
                    "buffer = io.BytesIO()  # a checkpoint saved on a GPU machine:\n"
                    "torch.save({'w': torch.ones(2)}, buffer, _use_new_zipfile_serialization=False)\n"
                    "with open('model.pt', 'wb') as f:\n"
                    "    f.write(buffer.getvalue().replace(b'X\\x03\\0\\0\\0cpu', b'X\\x06\\0\\0\\0cuda:0'))\n"
                    "state = torch.load('model.pt')\n"
                ),
                after=(
                    "import io, torch\n"
                    "buffer = io.BytesIO()  # a checkpoint saved on a GPU machine:\n"
                    "torch.save({'w': torch.ones(2)}, buffer, _use_new_zipfile_serialization=False)\n"
                    "with open('model.pt', 'wb') as f:\n"
                    "    f.write(buffer.getvalue().replace(b'X\\x03\\0\\0\\0cpu', b'X\\x06\\0\\0\\0cuda:0'))\n"
                    "state = torch.load('model.pt', map_location='cpu')\n"
                ),
                error="RuntimeError",
                check="state['w'].tolist() == [1.0, 1.0] and state['w'].device.type == 'cpu'",
            ),
        ),
    ),
    Rule(
        id="environment.catboost-gpu-on-cpu",
        library="catboost",
        changed_in="-",
        summary="no GPU: CatBoost `task_type='GPU'` -> `'CPU'` (keyword or params dict)",
        kind=Kind.ENVIRONMENT,
        rewrite=gpu_to_cpu("catboost", _CATBOOST_CLASSES, ("task_type",), {"gpu": "CPU"}),
        symptoms=(Symptom("CatBoostError", r"CUDA|GPU|cuda"),),
        gone=lambda: True,
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "from catboost import CatBoostClassifier, CatBoost\n"
                    "X = np.arange(40.0).reshape(20, 2); y = np.arange(20) % 2\n"
                    "clf = CatBoostClassifier(iterations=5, task_type='GPU', verbose=0).fit(X, y)\n"
                    "params = {'iterations': 5, 'task_type': \"GPU\", 'verbose': 0}\n"
                    "booster = CatBoost(params).fit(X, y)\n"
                ),
                after=(
                    "import numpy as np\n"
                    "from catboost import CatBoostClassifier, CatBoost\n"
                    "X = np.arange(40.0).reshape(20, 2); y = np.arange(20) % 2\n"
                    "clf = CatBoostClassifier(iterations=5, task_type='CPU', verbose=0).fit(X, y)\n"
                    "params = {'iterations': 5, 'task_type': \"CPU\", 'verbose': 0}\n"
                    "booster = CatBoost(params).fit(X, y)\n"
                ),
                error="CatBoostError",
                check="clf.tree_count_ == 5 and booster.tree_count_ == 5",
            ),
        ),
    ),
    Rule(
        id="environment.lightgbm-gpu-on-cpu",
        library="lightgbm",
        changed_in="-",
        summary="no GPU: LightGBM `device='gpu'` / `device_type='cuda'` -> `'cpu'` "
        "(keyword or params dict)",
        kind=Kind.ENVIRONMENT,
        rewrite=gpu_to_cpu(
            "lightgbm", _LIGHTGBM_CLASSES, ("device", "device_type"), {"gpu": "cpu", "cuda": "cpu"}
        ),
        symptoms=(
            Symptom("LightGBMError", r"No OpenCL device found|CUDA Tree Learner was not enabled"),
        ),
        gone=lambda: True,
        examples=(
            Example(
                before=(
                    "import numpy as np\n"
                    "import lightgbm as lgb\n"
                    "X = np.arange(60.0).reshape(30, 2); y = (np.arange(30) > 14).astype(int)\n"
                    "clf = lgb.LGBMClassifier(n_estimators=3, device='gpu', min_child_samples=5, verbose=-1).fit(X, y)\n"
                    "params = {'objective': 'binary', 'device': 'gpu', 'min_data_in_leaf': 5, 'verbose': -1}\n"
                    "booster = lgb.train(params, lgb.Dataset(X, y), 3)\n"
                ),
                after=(
                    "import numpy as np\n"
                    "import lightgbm as lgb\n"
                    "X = np.arange(60.0).reshape(30, 2); y = (np.arange(30) > 14).astype(int)\n"
                    "clf = lgb.LGBMClassifier(n_estimators=3, device='cpu', min_child_samples=5, verbose=-1).fit(X, y)\n"
                    "params = {'objective': 'binary', 'device': 'cpu', 'min_data_in_leaf': 5, 'verbose': -1}\n"
                    "booster = lgb.train(params, lgb.Dataset(X, y), 3)\n"
                ),
                error="LightGBMError",
                check="clf.n_estimators_ == 3 and booster.num_trees() == 3",
            ),
        ),
    ),
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
