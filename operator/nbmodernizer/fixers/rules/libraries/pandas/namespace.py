"""Modules pandas re-exported (`pd.np`, `pd.datetime`)."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.pandas.common import pandas_lacks
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.cells import cst_rewrite
from nbmodernizer.fixers.rules.toolkit.imports import ImportingTransformer
from nbmodernizer.fixers.rules.toolkit.needles import refers_to
from nbmodernizer.fixers.rules.toolkit.nodes import (
    expression,
    qualified,
)
from nbmodernizer.fixers.rules.toolkit.probes import all_of


class ModuleAliases(ImportingTransformer):
    """`pd.datetime` -> `datetime.datetime`, `pd.np` -> `np` (imports added when needed)."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)

    def _datetime_class(self) -> str:
        for local, target in sorted(self.context.aliases.items()):
            if target == "datetime.datetime":
                return local
        module = self.module_ref("datetime", "datetime")
        return f"{module}.datetime"

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        name = qualified(original_node, self.context.aliases)
        if name == "pandas.np":
            np = self.module_ref("numpy", "np")
            replacement = expression(np)
        elif name == "pandas.datetime":
            replacement = expression(self._datetime_class())
        else:
            return updated_node
        return replacement.with_changes(lpar=updated_node.lpar, rpar=updated_node.rpar)


RULES = (
    Rule(
        id="pandas.module-aliases",
        library="pandas",
        changed_in="2.0",
        summary=(
            "`pd.datetime` -> `datetime.datetime`, `pd.np` -> `np` (the import is added at the "
            "top of the cell when the notebook has none)"
        ),
        kind=Kind.API,
        rewrite=cst_rewrite(
            ModuleAliases, ("datetime", "np"), refers_to(("pandas.np", "pandas.datetime"))
        ),
        symptoms=(Symptom("AttributeError", r"module 'pandas' has no attribute '(datetime|np)'"),),
        gone=all_of(pandas_lacks("", "datetime"), pandas_lacks("", "np")),
        examples=(
            Example(
                before=(
                    "import pandas as pd\n"
                    "stamp = pd.datetime(2017, 1, 2)\n"
                    "values = pd.np.arange(3) + pd.np.nan\n"
                ),
                after=(
                    "import datetime\n"
                    "import numpy as np\n"
                    "import pandas as pd\n"
                    "stamp = datetime.datetime(2017, 1, 2)\n"
                    "values = np.arange(3) + np.nan\n"
                ),
                error="AttributeError",
                check="stamp.year == 2017 and len(values) == 3 and np.isnan(values).all()",
            ),
            Example(
                before=(
                    "import numpy\n"
                    "import pandas as pd\n"
                    "from datetime import datetime\n"
                    "stamp = pd.datetime.now()\n"
                    "zeros = pd.np.zeros(2)\n"
                ),
                after=(
                    "import numpy\n"
                    "import pandas as pd\n"
                    "from datetime import datetime\n"
                    "stamp = datetime.now()\n"
                    "zeros = numpy.zeros(2)\n"
                ),
                error="AttributeError",
                check="stamp.year >= 2024 and zeros.tolist() == [0.0, 0.0]",
            ),
        ),
    ),
)
