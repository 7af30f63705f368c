"""torch drift."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.calls import bound_arguments, keyword_arg, new_arg, with_args
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.nodes import (
    expression,
    is_zero_index,
    literal_bool,
    qualified,
)
from nbmodernizer.fixers.rules.toolkit.probes import Probe, rejects

# the legacy functions' result pairs: the name of the first element
_TORCH_FIRST = {"solve": "solution", "symeig": "eigenvalues", "eig": "eigenvalues"}


class TorchLinalg(ImportingTransformer):
    """`torch.solve`, `torch.symeig`, `torch.eig` and `torch.matrix_rank` -> `torch.linalg`.

    The removed functions returned pairs (solution, LU) / (eigenvalues, eigenvectors); the
    first element (`[0]`, `.solution`/`.eigenvalues`, or `x, _ = ...`) is rewritten to its
    `torch.linalg` spelling. Forms whose second element is used are left alone except for
    `symeig(..., eigenvectors=True)`, which `torch.linalg.eigh` returns as it did.
    """

    def __init__(self, context: RuleContext, function: str) -> None:
        super().__init__(context)
        self.function = function  # the one legacy function this instance rewrites

    def _torch_function(self, node: cst.BaseExpression) -> str | None:
        if not isinstance(node, cst.Call):
            return None
        name = qualified(node.func, self.aliases)
        if name is None or not name.startswith("torch.") or name.count(".") != 1:
            return None
        function = name.split(".")[1]
        return function if function == self.function else None

    def _linalg(self, function: str) -> cst.BaseExpression:
        return expression(f"{self.module_ref('torch')}.linalg.{function}")

    def _first(self, call: cst.Call) -> cst.BaseExpression | None:
        """The new expression for the first element of the legacy pair."""
        function = self._torch_function(call)
        if function == "solve":
            args = bound_arguments(call, ("input", "A"), {})
            if args is None or set(args) != {"input", "A"}:
                return None
            return cst.Call(
                func=self._linalg("solve"),
                args=[cst.Arg(value=args["A"]), cst.Arg(value=args["input"])],
            )
        if function == "symeig":
            args = bound_arguments(call, ("input", "eigenvectors", "upper"), {"upper": "True"})
            upper = literal_bool(args["upper"]) if args and "input" in args else None
            if args is None or upper is None:
                return None
            uplo = new_arg("UPLO", "'U'" if upper else "'L'")
            return cst.Call(
                func=self._linalg("eigvalsh"), args=[cst.Arg(value=args["input"]), uplo]
            )
        if function == "eig":
            args = bound_arguments(call, ("input", "eigenvectors"), {})
            if args is None or "input" not in args:
                return None
            eigvals = cst.Call(func=self._linalg("eigvals"), args=[cst.Arg(value=args["input"])])
            view = expression(f"{self.module_ref('torch')}.view_as_real")
            return cst.Call(func=view, args=[cst.Arg(value=eigvals)])
        return None

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if not is_zero_index(updated_node) or not isinstance(updated_node.value, cst.Call):
            return updated_node
        first = self._first(updated_node.value)
        return (
            first.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
            if first
            else updated_node
        )

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        function = self._torch_function(updated_node.value)
        if function is None or _TORCH_FIRST.get(function) != updated_node.attr.value:
            return updated_node
        assert isinstance(updated_node.value, cst.Call)
        first = self._first(updated_node.value)
        return (
            first.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)
            if first
            else updated_node
        )

    def leave_Assign(
        self, original_node: cst.Assign, updated_node: cst.Assign
    ) -> cst.BaseSmallStatement:
        if len(updated_node.targets) != 1 or not isinstance(updated_node.value, cst.Call):
            return updated_node
        target = updated_node.targets[0].target
        if not isinstance(target, cst.Tuple | cst.List) or len(target.elements) != 2:
            return updated_node
        second = target.elements[1].value
        if not (isinstance(second, cst.Name) and second.value == "_"):
            return updated_node
        first = self._first(updated_node.value)
        if first is None:
            return updated_node
        return updated_node.with_changes(
            targets=[updated_node.targets[0].with_changes(target=target.elements[0].value)],
            value=first,
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        function = self._torch_function(updated_node)
        if function == "matrix_rank":
            args = bound_arguments(updated_node, ("input", "tol", "symmetric"), {})
            if args is None or "input" not in args:
                return updated_node
            new = [cst.Arg(value=args["input"])]
            if "tol" in args:
                new.append(new_arg("atol", args["tol"]))
            if "symmetric" in args:
                new.append(new_arg("hermitian", args["symmetric"]))
            return cst.Call(func=self._linalg("matrix_rank"), args=new)
        if function == "symeig":
            args = bound_arguments(
                updated_node, ("input", "eigenvectors", "upper"), {"upper": "True"}
            )
            if args is None or "input" not in args or "eigenvectors" not in args:
                return updated_node
            vectors, upper = literal_bool(args["eigenvectors"]), literal_bool(args["upper"])
            if vectors is not True or upper is None:
                return updated_node
            uplo = new_arg("UPLO", "'U'" if upper else "'L'")
            return cst.Call(func=self._linalg("eigh"), args=[cst.Arg(value=args["input"]), uplo])
        return updated_node


class ZeroDimDataIndex(cst.CSTTransformer):
    """`loss.data[0]` (PyTorch 0.3: a 1-element tensor) -> `loss.item()`; also
    `loss.data.numpy()[0]` / `loss.data.cpu().numpy()[0]`."""

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        if not is_zero_index(updated_node):
            return updated_node
        value = updated_node.value
        receiver: cst.BaseExpression | None
        if isinstance(value, cst.Attribute) and value.attr.value == "data":
            receiver = value.value
        else:
            receiver = _numpy_of_data(value)
        if receiver is None:
            return updated_node
        item = cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name("item")))
        return item.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


def _numpy_of_data(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x.data.numpy()` / `x.data.cpu().numpy()` / `x.cpu().data.numpy()` -> `x`."""
    if not (isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute)):
        return None
    if node.func.attr.value != "numpy":
        return None
    chain_node = node.func.value
    seen_data = False
    while True:
        if isinstance(chain_node, cst.Attribute) and chain_node.attr.value == "data":
            seen_data = True
            chain_node = chain_node.value
        elif (
            isinstance(chain_node, cst.Call)
            and not chain_node.args
            and isinstance(chain_node.func, cst.Attribute)
            and chain_node.func.attr.value == "cpu"
        ):
            chain_node = chain_node.func.value
        else:
            break
    return chain_node if seen_data else None


def _removed(function: str) -> Probe:
    """`torch.<function>` is gone: absent, or a stub that raises "is now removed"."""
    call = "f(one, one)" if function in {"solve", "lstsq"} else "f(one)"
    return rejects(
        "import torch\n"
        f"f = getattr(torch, {function!r}, None)\n"
        "if f is None:\n"
        "    raise TypeError('absent')\n"
        "one = torch.ones(1, 1)\n"
        "try:\n"
        f"    {call}\n"
        "except RuntimeError as error:\n"
        "    if 'removed' in str(error):\n"
        "        raise TypeError('removed') from None\n"
    )


class _WeightsOnlyFalse(cst.CSTTransformer):
    """`torch.load(path)` -> `torch.load(path, weights_only=False)`."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.aliases = context.aliases

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if qualified(original_node.func, self.aliases) != "torch.load":
            return updated_node
        if keyword_arg(updated_node, "weights_only") is not None or any(
            arg.star == "**" for arg in updated_node.args
        ):
            return updated_node
        return with_args(updated_node, [*updated_node.args, new_arg("weights_only", "False")])


_A = "import torch\nA = torch.tensor([[2.0, 1.0], [1.0, 3.0]])\nB = torch.tensor([[1.0], [2.0]])\n"

RULES = (
    Rule(
        id="torch.zero-dim-data-index",
        library="torch",
        changed_in="0.4",
        summary="`loss.data[0]` (a 1-element tensor in PyTorch 0.3, a 0-dim one since) -> "
        "`loss.item()`, also `loss.data.cpu().numpy()[0]`; only in cells that failed on it, "
        "since `x.data[0]` is also the first row of a batch",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda _context: ZeroDimDataIndex()),
        symptoms=(
            Symptom("IndexError", r"invalid index of a 0-dim tensor"),
            Symptom("IndexError", r"too many indices for array: array is 0-dimensional"),
        ),
        gone=None,
        examples=(
            Example(
                before="import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
                "loss = (x ** 2).sum()\nrunning = 0.0\nrunning += loss.data[0]\n"
                "mean = x.mean().data.cpu().numpy()[0]\n",
                after="import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
                "loss = (x ** 2).sum()\nrunning = 0.0\nrunning += loss.item()\n"
                "mean = x.mean().item()\n",
                error="IndexError",
                check="running == 14.0 and mean == 2.0 and isinstance(running, float)",
            ),
        ),
    ),
    Rule(
        id="torch.load-weights-only",
        library="torch",
        changed_in="2.6",
        summary="`torch.load(path)` of a pickled model or of numpy objects -> "
        "`torch.load(path, weights_only=False)`, the old default; only in cells that failed "
        "on it, and only safe for checkpoints you trust (unpickling can run code)",
        kind=Kind.API,
        rewrite=cst_rewrite(_WeightsOnlyFalse),
        symptoms=(Symptom("UnpicklingError", r"Weights only load failed"),),
        gone=None,
        examples=(
            Example(
                before="import torch\ntorch.manual_seed(0)\nnet = torch.nn.Linear(2, 1)\n"
                "torch.save(net, 'model.pt')\nrestored = torch.load('model.pt')\n",
                after="import torch\ntorch.manual_seed(0)\nnet = torch.nn.Linear(2, 1)\n"
                "torch.save(net, 'model.pt')\nrestored = torch.load('model.pt', weights_only=False)\n",
                error="UnpicklingError",
                check="isinstance(restored, torch.nn.Linear) "
                "and torch.equal(restored.weight, net.weight)",
            ),
        ),
    ),
    Rule(
        id="torch.solve",
        library="torch",
        changed_in="1.13",
        summary="`torch.solve(B, A)[0]` / `.solution` / `X, _ = torch.solve(B, A)` -> "
        "`torch.linalg.solve(A, B)` (arguments swapped; the LU factor is no longer returned, "
        "so forms that use it are left alone)",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda context: TorchLinalg(context, "solve")),
        symptoms=(Symptom("RuntimeError", r"`torch\.solve` is deprecated in favor of"),),
        gone=_removed("solve"),
        examples=(
            Example(
                before=_A + "X, _ = torch.solve(B, A)\nX2 = torch.solve(2 * B, A)[0]\n"
                "X3 = torch.solve(B, A).solution\n",
                after=_A + "X = torch.linalg.solve(A, B)\nX2 = torch.linalg.solve(A, 2 * B)\n"
                "X3 = torch.linalg.solve(A, B)\n",
                error="RuntimeError",
                # 2 * 0.2 + 0.6 = 1 and 0.2 + 3 * 0.6 = 2: the solution of A X = B
                check="torch.allclose(X, torch.tensor([[0.2], [0.6]])) "
                "and torch.allclose(X2, 2 * X) and torch.equal(X3, X)",
            ),
        ),
    ),
    Rule(
        id="torch.symeig",
        library="torch",
        changed_in="1.13",
        summary="`torch.symeig(A, eigenvectors=True)` -> `torch.linalg.eigh(A, UPLO='U')`; "
        "eigenvalues only (`[0]`, `e, _ =`) -> `torch.linalg.eigvalsh(A, UPLO='U')` "
        "(symeig read the upper triangle by default, linalg the lower)",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda context: TorchLinalg(context, "symeig")),
        symptoms=(Symptom("RuntimeError", r"torch\.symeig\("),),
        gone=_removed("symeig"),
        examples=(
            Example(
                # only the upper triangle counts: the 100 below the diagonal must be ignored
                before="import torch\nA = torch.tensor([[2.0, 1.0], [100.0, 3.0]])\n"
                "values, vectors = torch.symeig(A, eigenvectors=True)\n"
                "only, _ = torch.symeig(A)\nlower = torch.symeig(A.T, upper=False)[0]\n",
                after="import torch\nA = torch.tensor([[2.0, 1.0], [100.0, 3.0]])\n"
                "values, vectors = torch.linalg.eigh(A, UPLO='U')\n"
                "only = torch.linalg.eigvalsh(A, UPLO='U')\n"
                "lower = torch.linalg.eigvalsh(A.T, UPLO='L')\n",
                error="RuntimeError",
                check="torch.allclose(values, torch.tensor([(5 - 5 ** 0.5) / 2, (5 + 5 ** 0.5) / 2])) "
                "and torch.allclose(only, values) and torch.allclose(lower, values) "
                "and torch.allclose(torch.triu(A) + torch.triu(A, 1).T, "
                "vectors @ torch.diag(values) @ vectors.T, atol=1e-5)",
            ),
        ),
    ),
    Rule(
        id="torch.eig",
        library="torch",
        changed_in="1.13",
        summary="eigenvalues of `torch.eig(A)` (`[0]`, `e, _ =`) -> "
        "`torch.view_as_real(torch.linalg.eigvals(A))`: the same (n, 2) real/imaginary "
        "table; `eigenvectors=True` forms are left alone",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda context: TorchLinalg(context, "eig")),
        symptoms=(Symptom("RuntimeError", r"torch\.eig\("),),
        gone=_removed("eig"),
        examples=(
            Example(
                before="import torch\nrotation = torch.tensor([[0.0, -1.0], [1.0, 0.0]])\n"
                "e, _ = torch.eig(rotation)\n"
                "d = torch.eig(torch.diag(torch.tensor([2.0, 3.0])))[0]\n",
                after="import torch\nrotation = torch.tensor([[0.0, -1.0], [1.0, 0.0]])\n"
                "e = torch.view_as_real(torch.linalg.eigvals(rotation))\n"
                "d = torch.view_as_real(torch.linalg.eigvals(torch.diag(torch.tensor([2.0, 3.0]))))\n",
                error="RuntimeError",
                check="e.tolist() == [[0.0, 1.0], [0.0, -1.0]] and d.tolist() == [[2.0, 0.0], [3.0, 0.0]] "
                "and e.dtype == torch.float32",
            ),
        ),
    ),
    Rule(
        id="torch.matrix-rank",
        library="torch",
        changed_in="1.13",
        summary="`torch.matrix_rank(A, tol, symmetric)` -> "
        "`torch.linalg.matrix_rank(A, atol=tol, hermitian=symmetric)` (same default "
        "tolerance: largest singular value x max(m, n) x eps)",
        kind=Kind.API,
        rewrite=cst_rewrite(lambda context: TorchLinalg(context, "matrix_rank")),
        symptoms=(Symptom("RuntimeError", r"torch\.linalg\.matrix_rank"),),
        gone=_removed("matrix_rank"),
        examples=(
            Example(
                before="import torch\nM = torch.tensor([[1.0, 2.0], [2.0, 4.0]])\n"
                "ranks = [torch.matrix_rank(M), torch.matrix_rank(M, 6.0), "
                "torch.matrix_rank(torch.eye(3), symmetric=True)]\n",
                after="import torch\nM = torch.tensor([[1.0, 2.0], [2.0, 4.0]])\n"
                "ranks = [torch.linalg.matrix_rank(M), torch.linalg.matrix_rank(M, atol=6.0), "
                "torch.linalg.matrix_rank(torch.eye(3), hermitian=True)]\n",
                error="RuntimeError",
                # singular values of M: 5 and 0
                check="[int(r) for r in ranks] == [1, 0, 3]",
            ),
        ),
    ),
)
