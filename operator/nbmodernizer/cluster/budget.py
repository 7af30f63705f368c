"""The fleet's LLM budget: dollars per hour and in total, over every modernization.

Before an LLM fixer is asked, the budget must have room: no more than `per_hour_usd` spent
in the last hour and no more than `total_usd` since the operator started (plus what the
statuses it found had spent already). Past either, the fix is held: the modernization waits
(phase Queued, condition `LLMBudgetAvailable=False` saying until when) and resumes when the
hour's window has room again; a spent total holds it until the limit is raised. A fix that
starts with room may overshoot by its own cost: the check comes before each LLM fix, not
inside it. The hourly window lives in the operator's memory: after a restart it starts empty.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from nbmodernizer.fixers.base import FixAttempt, Fixer, FixerChain, FixRequest

HOUR = 3600.0
LLM_FIXER = "llm"


class BudgetHold(Exception):  # noqa: N818 - a hold, not an error
    """The LLM may not be asked now; `seconds`: when to look again (None: not by itself)."""

    def __init__(self, reason: str, seconds: float | None) -> None:
        super().__init__(reason)
        self.reason, self.seconds = reason, seconds


@dataclass(frozen=True)
class BudgetLimits:
    per_hour_usd: float | None = None
    total_usd: float | None = None

    @property
    def any(self) -> bool:
        return self.per_hour_usd is not None or self.total_usd is not None


class FleetBudget:
    def __init__(self, limits: BudgetLimits, clock: Callable[[], float] = time.time) -> None:
        self.limits, self.clock = limits, clock
        self.lock = threading.Lock()
        self.hour: deque[tuple[float, float]] = deque()  # (when, usd) within the last hour
        self.total = 0.0

    def add_earlier(self, usd: float) -> None:
        """What modernizations had spent before this operator started (their statuses)."""
        with self.lock:
            self.total += usd

    def charge(self, usd: float) -> None:
        if usd <= 0:
            return
        with self.lock:
            self.hour.append((self.clock(), usd))
            self.total += usd

    def check(self) -> None:
        """Raise BudgetHold when the fleet may not spend now."""
        now = self.clock()
        with self.lock:
            while self.hour and self.hour[0][0] <= now - HOUR:
                self.hour.popleft()
            in_hour = sum(usd for _, usd in self.hour)
            total = self.total
            oldest = self.hour[0][0] if self.hour else now
        limit = self.limits.total_usd
        if limit is not None and total >= limit:
            raise BudgetHold(
                f"the fleet's LLM budget of ${limit:.2f} is spent (${total:.2f}); "
                "raise --llm-budget-usd to go on",
                None,
            )
        hourly = self.limits.per_hour_usd
        if hourly is not None and in_hour >= hourly:
            wait = max(1.0, oldest + HOUR - now)
            raise BudgetHold(
                f"the fleet's LLM budget of ${hourly:.2f} per hour is spent "
                f"(${in_hour:.2f} in the last hour); resumes in {wait:.0f}s",
                wait,
            )


class BudgetedFixer:
    """An LLM fixer that asks the fleet's budget first and charges what it spent."""

    def __init__(self, inner: Fixer, budget: FleetBudget) -> None:
        self.inner, self.budget = inner, budget

    @property
    def name(self) -> str:
        return self.inner.name

    def propose(self, request: FixRequest) -> FixAttempt:
        if request.diagnosis.environment is None:  # else the LLM is not asked: nothing to hold
            self.budget.check()
        attempt = self.inner.propose(request)
        self.budget.charge(attempt.spent.usd)
        return attempt


def budgeted(chain: FixerChain, budget: FleetBudget) -> FixerChain:
    """The chain with its LLM fixer behind the fleet's budget."""
    fixers = [
        BudgetedFixer(fixer, budget) if fixer.name == LLM_FIXER else fixer for fixer in chain.fixers
    ]
    return FixerChain(fixers, chain.notes)
