"""GPUs the run does not have: device parameters and tensors moved to the CPU."""

from __future__ import annotations

import re

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rewrite, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    callee_is,
    keyword_arg,
    with_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import imports_module, module_alias
from nbmodernizer.fixers.rules.toolkit.nodes import qualified, replace_string
from nbmodernizer.fixers.rules.toolkit.probes import ALWAYS


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
            return replace_string(node, "cpu")
        return cst.IfExp(
            test=cst.parse_expression(f"{self.torch}.cuda.is_available()"),
            body=node,
            orelse=replace_string(node, "cpu"),
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
    if context.gpu_available or not imports_module(context, "torch"):
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
                return replace_string(node, self.values[value.lower()])
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
    transform = cst_rewrite(lambda context: _ParamValues(context, classes, keys, values), keys)

    def rewrite(source: str, context: RuleContext) -> str:
        if context.gpu_available or not imports_module(context, library):
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

RULES = (
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
        gone=ALWAYS,
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
        gone=ALWAYS,
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
        gone=ALWAYS,
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
)
