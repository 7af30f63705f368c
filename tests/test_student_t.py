"""Student's t in pure Python (issue #20) agrees with SciPy within 1e-9 relative: the
incomplete beta function under it, the two-sided tail, the quantile the adaptive runs' intervals
take and the one-sample t-test of the reproducibility check, on seeded random inputs."""

from __future__ import annotations

import math
import random

import pytest
from scipy import special, stats

from nbmodernizer.student_t import one_sample_t_test, quantile, regularized_beta, two_sided_p

RELATIVE = 1e-9


def close(mine: float, reference: float) -> bool:
    return math.isclose(mine, reference, rel_tol=RELATIVE, abs_tol=1e-300)


def test_the_incomplete_beta_function_matches_scipy() -> None:
    rng = random.Random("betainc")
    for _ in range(3000):
        a = rng.choice([0.5, 1, 2, 5, 50, 500]) * rng.random() + 0.01
        b = rng.choice([0.5, 1, 3, 100]) * rng.random() + 0.01
        x = rng.choice([rng.random(), rng.random() ** 8, 1 - rng.random() ** 8])
        assert close(regularized_beta(a, b, x), special.betainc(a, b, x)), (a, b, x)
    assert regularized_beta(2, 3, 0.0) == 0.0 and regularized_beta(2, 3, 1.0) == 1.0


@pytest.mark.parametrize("df", [1, 2, 3, 4, 9, 29, 99, 999])
def test_the_two_sided_tail_matches_scipy(df: int) -> None:
    rng = random.Random(f"tail-{df}")
    for _ in range(300):
        t = rng.choice([0.01, 0.5, 2, 5, 20]) * rng.random() * rng.choice([1, -1])
        assert close(two_sided_p(t, df), 2 * stats.t.sf(abs(t), df)), t
    assert two_sided_p(0.0, df) == 1.0 and two_sided_p(math.inf, df) == 0.0


@pytest.mark.parametrize("df", [1, 2, 3, 4, 9, 29, 99])
def test_the_quantile_matches_scipy(df: int) -> None:
    rng = random.Random(f"ppf-{df}")
    levels = [0.5 + (1 - 0.05 / looks) / 2 for looks in range(1, 20)]  # what evidence asks
    for p in [*levels, *(rng.random() for _ in range(200)), 1e-6, 1 - 1e-9]:
        assert close(quantile(p, df), stats.t.ppf(p, df)), p
    assert quantile(0.5, df) == 0.0


@pytest.mark.parametrize("p", [0.5 + 1e-9, 0.5 - 1e-7, 0.5 + 1e-4, 0.6, 0.95])
def test_the_quantile_near_the_median_is_exact_where_a_closed_form_says_so(p: float) -> None:
    """Within 1e-9 of the median SciPy's t.ppf drifts (3.1415926029e-09 at p = 0.5 + 1e-9
    for df = 1, where tan(pi (p - 1/2)) is 3.1415925647e-09); df 1 and 2 have closed forms."""
    cauchy = math.tan(math.pi * (p - 0.5))
    df_2 = (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    assert close(quantile(p, 1), cauchy) and close(quantile(p, 2), df_2)


def test_the_one_sample_t_test_matches_scipy() -> None:
    rng = random.Random("ttest")
    for _ in range(2000):
        n = rng.randint(2, 40)
        spread = rng.choice([1e-4, 1e-3, 0.01, 0.1])
        values = [rng.gauss(0.8, spread) for _ in range(n)]
        if rng.random() < 0.1:  # ties, scores rounded as a metric often is
            values = [round(v, 3) for v in values]
            if max(values) == min(values):
                continue
        target = 0.8 + rng.gauss(0, spread * rng.choice([0.1, 1, 10]))
        mine, reference = one_sample_t_test(values, target), stats.ttest_1samp(values, target)
        assert close(mine.statistic, float(reference.statistic)), values
        assert close(mine.p_value, float(reference.pvalue)), values


def test_identical_values_have_no_spread_to_test() -> None:
    assert math.isnan(one_sample_t_test([0.8, 0.8], 0.8).p_value)
    assert one_sample_t_test([0.8, 0.8], 0.7).p_value == 0.0
    with pytest.raises(ValueError, match="at least two"):
        one_sample_t_test([0.8], 0.8)
