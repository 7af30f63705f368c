"""Status conditions, per the Kubernetes API conventions: `phase` is for people, conditions
are for machines (`kubectl wait --for=condition=Reproduced`).

| type           | True when                                   | reasons                         |
|----------------|---------------------------------------------|---------------------------------|
| Progressing    | the loop is still going                     | the phase; Finished when done   |
| Reproduced     | it finished and the score reproduces        | the outcome; NotFinished        |
| SpecAccepted   | the spec is valid, its files admitted       | Accepted, InvalidSpec,          |
|                | (`admit`), and unchanged since start        | SpecChangedAfterStart           |
| StoreAvailable | the revision store answered last time       | Available, StoreUnavailable     |
| LLMBudgetAvailable | the fleet's LLM budget has room (only   | Available, BudgetSpent          |
|                | once a fix waited for it)                   |                                 |
"""

from __future__ import annotations

from nbmodernizer.status import Outcome, Phase

FINAL = (Phase.SUCCEEDED, Phase.FAILED)

Condition = dict[str, object]  # as the API conventions spell one


def _condition(
    kind: str, status: bool | None, reason: str, message: str, generation: int | None
) -> Condition:
    value = "Unknown" if status is None else ("True" if status else "False")
    condition: Condition = {
        "type": kind,
        "status": value,
        "reason": reason,
        "message": message,
    }
    if generation is not None:
        condition["observedGeneration"] = generation
    return condition


def conditions_for(
    phase: Phase,
    outcome: Outcome | None,
    message: str,
    previous: list[Condition],
    generation: int | None,
    now: str,
    store_error: str | None = None,
    spec_error: str | None = None,
    budget_hold: str | None = None,
) -> list[Condition]:
    finished = phase in FINAL
    fresh = [
        _condition(
            "Progressing",
            not finished,
            "Finished" if finished else phase.value,
            message,
            generation,
        ),
        _condition(
            "Reproduced",
            (outcome is not None and outcome.reproducible) if finished else None,
            outcome.value if finished and outcome else "NotFinished",
            message if finished else "",
            generation,
        ),
        _condition(
            "StoreAvailable",
            store_error is None,
            "StoreUnavailable" if store_error else "Available",
            store_error or "",
            generation,
        ),
    ]
    before = {c.get("type"): c for c in previous}
    kept_spec = before.get("SpecAccepted")
    if spec_error is not None:
        fresh.append(_condition("SpecAccepted", False, "InvalidSpec", spec_error, generation))
    elif kept_spec is not None and kept_spec.get("reason") == "SpecChangedAfterStart":
        fresh.append(dict(kept_spec))
    else:
        fresh.append(_condition("SpecAccepted", True, "Accepted", "", generation))
    if budget_hold is not None:
        fresh.append(
            _condition("LLMBudgetAvailable", False, "BudgetSpent", budget_hold, generation)
        )
    elif "LLMBudgetAvailable" in before:
        fresh.append(_condition("LLMBudgetAvailable", True, "Available", "", generation))
    for condition in fresh:
        old = before.get(condition["type"])
        same = old is not None and old.get("status") == condition["status"]
        condition["lastTransitionTime"] = (
            old.get("lastTransitionTime", now) if same and old is not None else now
        )
    return fresh
