"""Parameters scikit-learn made keyword-only (SLEP009: a FutureWarning from 0.23, a TypeError
from 1.0), named from today's signatures."""

from __future__ import annotations

import libcst as cst

from nbmodernizer.fixers.rules.context import RuleContext
from nbmodernizer.fixers.rules.libraries.sklearn.common import DATA
from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.needles import extra_positional
from nbmodernizer.fixers.rules.toolkit.nodes import qualified
from nbmodernizer.fixers.rules.toolkit.probes import rejects
from nbmodernizer.fixers.rules.toolkit.signatures import (
    Accepts,
    accepts,
    keyword_only_by_signature,
    positional,
)

# SLEP009 inserted the `*` without reordering; parameters removed since (KMeans's
# `precompute_distances` sat after `tol`) shift what comes later, so only the first few
# keyword-only parameters are named: a call with more extra arguments is left alone.
_NAMED = 3


# every public scikit-learn callable with keyword-only parameters, read where the notebook runs
SIGNATURES = ("sklearn.*",)


def _accepts(name: str, context: RuleContext) -> Accepts | None:
    """What the scikit-learn class or function `name` accepts in the notebook's environment."""
    if not name.startswith("sklearn."):
        return None
    found = accepts(context.parameters(name))
    return None if found is None else Accepts(found.positional, found.keyword_only[:_NAMED])


def sklearn_callee(call: cst.Call, context: RuleContext) -> Accepts | None:
    """What a scikit-learn class or function, called through the notebook's imports, accepts
    in the notebook's environment."""
    name = qualified(call.func, context.aliases)
    return None if name is None else _accepts(name, context)


RULES = (
    Rule(
        id="sklearn.keyword-only-arguments",
        library="scikit-learn",
        changed_in="1.0",
        summary="positional arguments scikit-learn made keyword-only, named from today's "
        "signatures (at most three): `KFold(5, True, 0)` -> `KFold(5, shuffle=True, "
        "random_state=0)`, `f1_score(y, p, None, 1, 'macro')` -> `f1_score(y, p, labels=None, "
        "pos_label=1, average='macro')` (1.0 release highlights, 'Keyword and positional "
        "arguments': passing them by position, deprecated in 0.23 (SLEP009), raises a TypeError)",
        kind=Kind.API,
        rewrite=keyword_only_by_signature(
            sklearn_callee,
            trigger=extra_positional(lambda name, context: positional(_accepts(name, context))),
        ),
        signatures=SIGNATURES,
        symptoms=(
            Symptom(
                "TypeError", r"\w+\.__init__\(\) takes (from \d+ to )?\d+ positional arguments? but"
            ),
        ),
        gone=rejects("from sklearn.model_selection import KFold\nKFold(3, True, 0)"),
        examples=(
            Example(
                before=DATA + "from sklearn.model_selection import KFold\n"
                "from sklearn import metrics\n"
                "from sklearn.preprocessing import StandardScaler\n"
                "folds = [len(test) for _, test in KFold(3, True, 0).split(X)]\n"
                "scaled = StandardScaler(True, False).fit_transform(X)\n"
                "predicted = (X[:, 0] > 0.5).astype(int)\n"
                "score = metrics.f1_score(y, predicted, None, 1, 'macro')\n",
                after=DATA + "from sklearn.model_selection import KFold\n"
                "from sklearn import metrics\n"
                "from sklearn.preprocessing import StandardScaler\n"
                "folds = [len(test) for _, test in KFold(3, shuffle=True, random_state=0).split(X)]\n"
                "scaled = StandardScaler(copy=True, with_mean=False).fit_transform(X)\n"
                "predicted = (X[:, 0] > 0.5).astype(int)\n"
                "score = metrics.f1_score(y, predicted, labels=None, pos_label=1, average='macro')\n",
                error="TypeError",
                check="folds == [10, 10, 10] and abs(scaled.mean()) > 0.1 and 0 <= score <= 1",
            ),
        ),
    ),
)
