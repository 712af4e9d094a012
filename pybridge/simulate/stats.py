"""The statistics a balance report needs: intervals for rates and means, and the two tests
``--compare`` names (two-proportion z-test, Welch's z-test for means of large samples).

Standard library only (``math.erfc`` for the normal distribution), so results can be read
and compared without the plotting extra.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; (0, 1) when there are no trials. Unlike the
    normal interval it stays inside [0, 1] and behaves at 0% and 100%."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)  # exact at the ends
    return low, high


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_z(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float]:
    """Pooled two-proportion z-test of x1/n1 against x2/n2: (z, two-sided p). With no
    trials on a side, or no variance at all (both 0% or both 100%), there is no evidence of a
    difference: (0, 1)."""
    if n1 <= 0 or n2 <= 0:
        return 0.0, 1.0
    pooled = (x1 + x2) / (n1 + n2)
    variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if variance <= 0:
        return 0.0, 1.0
    z = (x2 / n2 - x1 / n1) / math.sqrt(variance)
    return z, normal_two_sided_p(z)


def mean_and_variance(total: float, squares: float, n: int) -> tuple[float, float]:
    """Mean and sample variance from a count, a sum and a sum of squares."""
    if n <= 0:
        return 0.0, 0.0
    mean = total / n
    if n == 1:
        return mean, 0.0
    return mean, max(0.0, (squares - n * mean * mean) / (n - 1))


def mean_interval(total: float, squares: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Normal-approximation interval for a mean (fine for the hundreds of battles a sweep
    plays; with fewer than two samples it is just the mean)."""
    mean, variance = mean_and_variance(total, squares, n)
    half = z * math.sqrt(variance / n) if n > 1 else 0.0
    return mean - half, mean + half


def welch_z(sample1: tuple[float, float, int], sample2: tuple[float, float, int]
            ) -> tuple[float, float]:  # fmt: skip
    """Welch's test for a difference of means, each sample given as (sum, sum of squares,
    n), with the normal distribution for the statistic (large samples): (z, two-sided p)."""
    mean1, var1 = mean_and_variance(*sample1)
    mean2, var2 = mean_and_variance(*sample2)
    n1, n2 = sample1[2], sample2[2]
    if n1 < 2 or n2 < 2:
        return 0.0, 1.0
    spread = var1 / n1 + var2 / n2
    if spread <= 0:
        return (0.0, 1.0) if mean1 == mean2 else (math.copysign(math.inf, mean2 - mean1), 0.0)
    z = (mean2 - mean1) / math.sqrt(spread)
    return z, normal_two_sided_p(z)


@dataclass(frozen=True, slots=True)
class Stratified:
    """A difference of proportions (second group minus first) combined over strata."""

    difference: float
    low: float
    high: float
    z: float
    p: float


def mantel_haenszel(strata: list[tuple[int, int, int, int]], z95: float = Z95
                    ) -> Stratified | None:  # fmt: skip
    """Strata ``(x1, n1, x2, n2)``: the Mantel-Haenszel weighted difference x2/n2 - x1/n1
    (weights n1*n2/N), a normal interval from the weighted stratum variances, and the
    Cochran-Mantel-Haenszel test (signed z; two-sided p). Strata without both groups carry
    no information and are skipped; None when none is left.

    Comparing within strata first keeps a mix of easy and hard encounters from faking an
    effect (Simpson's paradox); with one stratum the test is the two-proportion z-test up to
    a factor N/(N-1) in the variance."""
    weights = deviation = variance = weighted = spread = 0.0
    for x1, n1, x2, n2 in strata:
        total = n1 + n2
        if n1 <= 0 or n2 <= 0:
            continue
        p1, p2 = x1 / n1, x2 / n2
        weight = n1 * n2 / total
        weights += weight
        weighted += weight * (p2 - p1)
        spread += weight * weight * (p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2)
        successes = x1 + x2
        deviation += x2 - n2 * successes / total
        if total > 1:
            variance += n1 * n2 * successes * (total - successes) / (total * total * (total - 1))
    if weights <= 0:
        return None
    difference = weighted / weights
    half = z95 * math.sqrt(spread) / weights
    if variance <= 0:
        return Stratified(difference, difference - half, difference + half, 0.0, 1.0)
    z = deviation / math.sqrt(variance)
    return Stratified(difference, difference - half, difference + half, z, normal_two_sided_p(z))


def holm(p_values: list[float], alpha: float = 0.05) -> list[bool]:
    """Holm-Bonferroni: which of several tests stay significant at family-wise ``alpha``."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    keep = [False] * len(p_values)
    for rank, index in enumerate(order):
        if p_values[index] > alpha / (len(p_values) - rank):
            break
        keep[index] = True
    return keep
