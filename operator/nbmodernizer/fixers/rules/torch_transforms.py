"""LibCST transforms for PyTorch drift."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.arguments import literal_bool
from nbmodernizer.fixers.rules.cells import expression, qualified
from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.cst_moves import ImportingTransformer
from nbmodernizer.fixers.rules.cst_tools import new_arg
from nbmodernizer.fixers.rules.keras_calls import call_args, is_zero_index

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
            args = call_args(call, ("input", "A"), {})
            if args is None or set(args) != {"input", "A"}:
                return None
            return cst.Call(
                func=self._linalg("solve"),
                args=[cst.Arg(value=args["A"]), cst.Arg(value=args["input"])],
            )
        if function == "symeig":
            args = call_args(call, ("input", "eigenvectors", "upper"), {"upper": "True"})
            upper = literal_bool(args["upper"]) if args and "input" in args else None
            if args is None or upper is None:
                return None
            uplo = new_arg("UPLO", "'U'" if upper else "'L'")
            return cst.Call(
                func=self._linalg("eigvalsh"), args=[cst.Arg(value=args["input"]), uplo]
            )
        if function == "eig":
            args = call_args(call, ("input", "eigenvectors"), {})
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
            args = call_args(updated_node, ("input", "tol", "symmetric"), {})
            if args is None or "input" not in args:
                return updated_node
            new = [cst.Arg(value=args["input"])]
            if "tol" in args:
                new.append(new_arg("atol", args["tol"]))
            if "symmetric" in args:
                new.append(new_arg("hermitian", args["symmetric"]))
            return cst.Call(func=self._linalg("matrix_rank"), args=new)
        if function == "symeig":
            args = call_args(updated_node, ("input", "eigenvectors", "upper"), {"upper": "True"})
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
