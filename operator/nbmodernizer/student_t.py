"""Student's t distribution in pure Python: the one-sample t-test `grade.reproducibility` takes
and the quantile of `evidence.interval`, as SciPy computes them (tests/test_student_t.py
holds them to `scipy.stats` within 1e-9 relative).

The tail of t is the regularised incomplete beta function,
P(|T| > t) = I_x(df/2, 1/2) with x = df / (df + t^2), evaluated by its continued fraction
(modified Lentz) with `math.lgamma` for the front factor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

_EPSILON = 1e-16  # the continued fraction stops once a step changes it by less than this
_TINY = 1e-300  # keeps Lentz's divisions away from zero
_MAX_TERMS = 100_000


def regularized_beta(a: float, b: float, x: float, y: float | None = None) -> float:
    """I_x(a, b) for a, b > 0 and 0 <= x <= 1; `y` is 1 - x when the caller knows it more
    exactly than the subtraction gives it."""
    y = 1.0 - x if y is None else y
    if x <= 0:
        return 0.0
    if y <= 0:
        return 1.0
    if x < (a + 1) / (a + b + 2):
        return _front(a, b, x, y) * _continued_fraction(a, b, x) / a
    return 1.0 - _front(b, a, y, x) * _continued_fraction(b, a, y) / b


def _front(a: float, b: float, x: float, y: float) -> float:
    log_beta = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    return math.exp(a * math.log(x) + b * math.log(y) - log_beta)


def _continued_fraction(a: float, b: float, x: float) -> float:
    def bounded(value: float) -> float:
        return _TINY if abs(value) < _TINY else value

    c = 1.0
    d = 1.0 / bounded(1.0 - (a + b) * x / (a + 1.0))
    fraction = d
    for m in range(1, _MAX_TERMS):
        even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        d = 1.0 / bounded(1.0 + even * d)
        c = bounded(1.0 + even / c)
        fraction *= d * c
        odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1.0 / bounded(1.0 + odd * d)
        c = bounded(1.0 + odd / c)
        step = d * c
        fraction *= step
        if abs(step - 1.0) < _EPSILON:
            return fraction
    raise ArithmeticError(f"the incomplete beta fraction for a={a}, b={b}, x={x} did not converge")


def two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for T with `df` degrees of freedom."""
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 0.0
    square = t * t
    return regularized_beta(df / 2, 0.5, df / (df + square), square / (df + square))


def central_p(t: float, df: float) -> float:
    """P(|T| < |t|): one minus `two_sided_p`, exact where that is close to one."""
    square = t * t
    return regularized_beta(0.5, df / 2, square / (df + square), df / (df + square))


@lru_cache(maxsize=1024)  # the adaptive runs ask for the same few levels again and again
def quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p (SciPy's `t.ppf`), by bisection on P(|T| < t) = |2p - 1|
    (near the median) or on P(|T| >= t) = 1 - |2p - 1| (in the tails), whichever is the
    smaller, so that neither is computed as one minus the other."""
    if not 0 < p < 1:
        if p in (0, 1):
            return math.inf if p == 1 else -math.inf
        return math.nan
    if p == 0.5:
        return 0.0
    upper = p > 0.5
    central = 2 * (p - 0.5) if upper else 2 * (0.5 - p)  # exact: p - 0.5 rounds nothing
    tail = 2 * (1 - p) if upper else 2 * p

    def below(t: float) -> bool:  # |T| < t is less likely than `central`
        return central_p(t, df) < central if central < tail else two_sided_p(t, df) > tail

    low, high = 0.0, 1.0
    while below(high):
        low, high = high, high * 2
    while True:
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if below(middle):
            low = middle
        else:
            high = middle
    return high if upper else -high


@dataclass(frozen=True)
class TTest:
    statistic: float
    p_value: float


def one_sample_t_test(values: Sequence[float], mean: float) -> TTest:
    """Whether `values` (at least two) could have a population mean of `mean`: the two-sided
    one-sample t-test (SciPy's `ttest_1samp`)."""
    n = len(values)
    if n < 2:
        raise ValueError("a t-test needs at least two values")
    sample_mean = math.fsum(values) / n
    variance = math.fsum((value - sample_mean) ** 2 for value in values) / (n - 1)
    with_zero_spread = variance == 0
    difference = sample_mean - mean
    if with_zero_spread:
        statistic = math.nan if difference == 0 else math.copysign(math.inf, difference)
    else:
        statistic = difference / math.sqrt(variance / n)
    return TTest(statistic, two_sided_p(statistic, n - 1))
