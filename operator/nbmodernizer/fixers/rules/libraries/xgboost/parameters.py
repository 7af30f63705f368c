"""Model parameters renamed or removed (`tree_method='gpu_hist'`, `silent`)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.xgboost.common import (
    DATA,
    is_xgb_model,
)
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import (
    keyword_arg,
    with_keywords,
    without_keywords,
)
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite, only_if
from nbmodernizer.fixers.rules.toolkit.needles import either, has_string, passes_keyword
from nbmodernizer.fixers.rules.toolkit.nodes import code
from nbmodernizer.fixers.rules.toolkit.probes import no_parameter, rejects


class GpuParams(cst.CSTTransformer):
    """`tree_method='gpu_hist'` -> `'hist'` (+ `device='cuda'` on a GPU), `gpu_id=n` ->
    `device='cuda:n'` on a GPU (else dropped), `predictor=...` dropped: in XGBoost model
    constructors, in params dicts that set `tree_method`, and in `params['tree_method'] = ...`."""

    def __init__(self, context: RuleContext) -> None:
        self.context = context

    def _device(self, gpu_id: cst.BaseExpression | None) -> cst.BaseExpression | None:
        if not self.context.gpu_available:
            return None
        if gpu_id is None:
            return cst.SimpleString("'cuda'")
        if isinstance(gpu_id, cst.Integer):
            return cst.SimpleString(f"'cuda:{gpu_id.value}'")
        return cst.parse_expression(f"f'cuda:{{{code(gpu_id)}}}'")

    @staticmethod
    def _cpu_method(node: cst.BaseExpression) -> cst.BaseExpression | None:
        value = node.evaluated_value if isinstance(node, cst.SimpleString) else None
        if value in ("gpu_hist", "gpu_exact"):
            assert isinstance(node, cst.SimpleString)
            return cst.SimpleString(f"{node.quote}{value[4:]}{node.quote}")
        return None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not is_xgb_model(updated_node, self.context):
            return updated_node
        method = keyword_arg(updated_node, "tree_method")
        cpu = self._cpu_method(method.value) if method else None
        gpu_id = keyword_arg(updated_node, "gpu_id")
        predictor = keyword_arg(updated_node, "predictor")
        if cpu is None and gpu_id is None and predictor is None:
            return updated_node
        args = [
            arg.with_changes(value=cpu) if arg is method and cpu is not None else arg
            for arg in updated_node.args
        ]
        call = without_keywords(updated_node.with_changes(args=args), ["gpu_id", "predictor"])
        device = self._device(gpu_id.value if gpu_id else None) if (cpu or gpu_id) else None
        if device is not None and keyword_arg(call, "device") is None:
            call = with_keywords(call, [("device", device)])
        return call

    def leave_Dict(self, original_node: cst.Dict, updated_node: cst.Dict) -> cst.BaseExpression:
        entries = {
            key: element
            for element in updated_node.elements
            if isinstance(element, cst.DictElement)
            and isinstance(element.key, cst.SimpleString)
            and isinstance(key := element.key.evaluated_value, str)
        }
        method = entries.get("tree_method")
        if method is None:
            return updated_node
        cpu = self._cpu_method(method.value)
        gpu_id = entries.get("gpu_id")
        if cpu is None and gpu_id is None and "predictor" not in entries:
            return updated_node
        elements: list[cst.BaseDictElement] = []
        for element in updated_node.elements:
            if element is entries.get("gpu_id") or element is entries.get("predictor"):
                continue
            elements.append(
                element.with_changes(value=cpu) if element is method and cpu else element
            )
        device = self._device(gpu_id.value if gpu_id else None) if (cpu or gpu_id) else None
        if device is not None and "device" not in entries:
            quote = method.key.quote if isinstance(method.key, cst.SimpleString) else "'"
            elements.append(cst.DictElement(cst.SimpleString(f"{quote}device{quote}"), device))
        fixed = [
            element.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            for element in elements[:-1]
        ]
        last = elements[-1].with_changes(comma=updated_node.elements[-1].comma)
        return updated_node.with_changes(elements=[*fixed, last])

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        """`params['tree_method'] = 'gpu_hist'` -> `'hist'` (no device on a CPU)."""
        target = updated_node.targets[0].target if len(updated_node.targets) == 1 else None
        if not isinstance(target, cst.Subscript) or len(target.slice) != 1:
            return updated_node
        index = target.slice[0].slice
        key = index.value if isinstance(index, cst.Index) else None
        if not isinstance(key, cst.SimpleString) or key.evaluated_value != "tree_method":
            return updated_node
        cpu = self._cpu_method(updated_node.value)
        return updated_node if cpu is None else updated_node.with_changes(value=cpu)


def silent_to_verbosity(source: str, context: RuleContext) -> str:
    class Silent(cst.CSTTransformer):
        def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
            silent = keyword_arg(updated_node, "silent")
            if silent is None or not is_xgb_model(updated_node, context):
                return updated_node
            if keyword_arg(updated_node, "verbosity") is not None:
                return without_keywords(updated_node, ["silent"])
            value = silent.value
            if isinstance(value, cst.Name) and value.value in ("True", "False"):
                level: cst.BaseExpression = cst.Integer("0" if value.value == "True" else "1")
            elif isinstance(value, cst.Integer):
                level = cst.Integer("0" if value.value != "0" else "1")
            else:
                level = cst.parse_expression(f"0 if {code(value)} else 1")
            args = [
                arg.with_changes(keyword=cst.Name("verbosity"), value=level)
                if arg is silent
                else arg
                for arg in updated_node.args
            ]
            return updated_node.with_changes(args=args)

    return cst_rewrite(lambda _context: Silent())(source, context)


RULES = (
    Rule(
        id="xgboost.gpu-params",
        library="xgboost",
        changed_in="2.0",
        summary="`tree_method='gpu_hist'` -> `'hist'` (+ `device='cuda'` with a GPU), `gpu_id` -> "
        "`device`, `predictor` dropped",
        kind=Kind.API,
        rewrite=cst_rewrite(
            GpuParams,
            ("gpu_hist", "gpu_exact", "gpu_id", "predictor"),
            # the parameters passed by keyword, or a 'tree_method' key (a dict's, a subscript's)
            either(
                passes_keyword(("tree_method", "gpu_id", "predictor")),
                has_string(("tree_method",)),
            ),
        ),
        symptoms=(
            Symptom("XGBoostError", r"Invalid Input: 'gpu_(hist|exact)'"),
            Symptom("XGBoostError", r"`gpu_id` has been removed"),
        ),
        gone=rejects(
            "import numpy as np\nimport xgboost\n"
            "xgboost.train({'tree_method': 'gpu_hist'}, xgboost.DMatrix(np.zeros((2, 1))), 1)"
        ),
        examples=(
            Example(
                before=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=5, tree_method='gpu_hist', gpu_id=0,\n"
                    "                          predictor='gpu_predictor').fit(X, y)\n"
                    "params = {'max_depth': 2, \"tree_method\": \"gpu_hist\", 'gpu_id': 0}\n"
                    "booster = xgb.train(params, xgb.DMatrix(X, label=y), 5)\n"
                    "params['tree_method'] = 'gpu_hist'\n"
                ),
                after=(
                    DATA + "import xgboost as xgb\n"
                    "model = xgb.XGBClassifier(n_estimators=5, tree_method='hist').fit(X, y)\n"
                    'params = {\'max_depth\': 2, "tree_method": "hist"}\n'
                    "booster = xgb.train(params, xgb.DMatrix(X, label=y), 5)\n"
                    "params['tree_method'] = 'hist'\n"
                ),
                error="XGBoostError",
                check=(
                    "np.allclose(model.predict_proba(X), xgb.XGBClassifier(n_estimators=5, "
                    "tree_method='hist').fit(X, y).predict_proba(X)) "
                    "and booster.num_boosted_rounds() == 5"
                ),
            ),
        ),
    ),
    Rule(
        id="xgboost.silent-to-verbosity",
        library="xgboost",
        changed_in="1.0",
        summary="`XGBClassifier(silent=True)` -> `verbosity=0` (`silent` is ignored now)",
        kind=Kind.SILENT,
        rewrite=only_if("silent", rewrite=silent_to_verbosity),
        gone=no_parameter("xgboost.XGBModel.__init__", "silent"),
        examples=(
            Example(
                before=(
                    DATA + "from xgboost import XGBClassifier, XGBRegressor\n"
                    "quiet = XGBClassifier(n_estimators=2, silent=True).fit(X, y)\n"
                    "loud = XGBRegressor(n_estimators=2, silent=False)\n"
                ),
                after=(
                    DATA + "from xgboost import XGBClassifier, XGBRegressor\n"
                    "quiet = XGBClassifier(n_estimators=2, verbosity=0).fit(X, y)\n"
                    "loud = XGBRegressor(n_estimators=2, verbosity=1)\n"
                ),
                check=(
                    "quiet.get_params()['verbosity'] == 0 and loud.get_params()['verbosity'] == 1 "
                    "and 'silent' not in quiet.get_params()"
                ),
            ),
        ),
    ),
)
