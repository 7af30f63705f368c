"""The fleet's LLM budget: a fix waits when the hour's (or the total) dollars are spent, and
goes on when the hour's window has room again."""

from __future__ import annotations

from dataclasses import replace

import pytest

from nbmodernizer.cluster.budget import BudgetedFixer, BudgetHold, BudgetLimits, FleetBudget
from nbmodernizer.diagnose import diagnose
from nbmodernizer.fixers.base import FixAttempt, FixRequest
from nbmodernizer.spec import ModernizationSpec
from nbmodernizer.status import CostSummary, EnvironmentKind, FixType, Issue
from testing.factories import ran, scored
from testing.notebooks import notebook


@pytest.fixture
def fix_request() -> FixRequest:
    execution, score = ran((1, "NameError")), scored(None)
    spec = ModernizationSpec.model_validate(
        {"notebook": "n.ipynb", "score": {"metric": "accuracy", "target": 0.9, "answers": "a"}}
    )
    return FixRequest(
        notebook=notebook("x = undefined"),
        executed=notebook("x = undefined"),
        execution=execution,
        score=score,
        diagnosis=diagnose(execution, score),
        issue=Issue.ERROR,
        fix_type=FixType.ERROR_REPAIR,
        spec=spec,
        input_dir=None,
    )


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_the_hour_holds_then_opens_again() -> None:
    clock = Clock()
    budget = FleetBudget(BudgetLimits(per_hour_usd=1.0), clock)
    budget.charge(0.6)
    clock.now += 1200
    budget.charge(0.5)
    with pytest.raises(BudgetHold) as held:
        budget.check()
    assert held.value.seconds == pytest.approx(2400)  # the first charge leaves the window
    assert "$1.00 per hour is spent ($1.10 in the last hour); resumes in 2400s" in held.value.reason
    clock.now += 2400
    budget.check()  # only 0.5 left in the last hour


def test_a_spent_total_holds_until_the_limit_is_raised() -> None:
    clock = Clock()
    budget = FleetBudget(BudgetLimits(total_usd=2.0), clock)
    budget.add_earlier(1.5)  # what the statuses it found had spent
    budget.check()
    budget.charge(0.5)
    with pytest.raises(BudgetHold) as held:
        budget.check()
    assert held.value.seconds is None and "$2.00 is spent ($2.00)" in held.value.reason
    clock.now += 10 * 3600
    with pytest.raises(BudgetHold):
        budget.check()


class Paid:
    name = "llm"

    def __init__(self) -> None:
        self.asked = 0

    def propose(self, request: FixRequest) -> FixAttempt:
        self.asked += 1
        return FixAttempt(None, CostSummary(usd=0.7), "no change")


def test_the_budgeted_fixer_asks_first_and_charges_after(fix_request: FixRequest) -> None:
    budget = FleetBudget(BudgetLimits(per_hour_usd=1.0), Clock())
    paid = Paid()
    fixer = BudgetedFixer(paid, budget)
    fixer.propose(fix_request)
    fixer.propose(fix_request)  # 0.7 < 1.0: still room; this one overshoots by its own cost
    with pytest.raises(BudgetHold):
        fixer.propose(fix_request)
    assert paid.asked == 2
    environment = replace(
        fix_request,
        diagnosis=fix_request.diagnosis.model_copy(
            update={"environment": EnvironmentKind.MISSING_INPUT}
        ),
    )
    fixer.propose(environment)  # the LLM will not be asked for it: nothing to hold
    assert paid.asked == 3
