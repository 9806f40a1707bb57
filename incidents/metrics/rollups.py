"""Mergeable sketches of sample values, from which rollups read p95 without raw samples.

A sketch counts values in logarithmic buckets: bucket i holds values in (γ^(i-1), γ^i]
with γ = (1 + α) / (1 − α), so any quantile read from it is within α (1 %) of the true
value, relative. Sketches of minutes merge into hours and days by adding counts.
"""

import math

RELATIVE_ACCURACY = 0.01
GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY)
LOG_GAMMA = math.log(GAMMA)
# Values at or below this are counted as zero (latencies are never that small).
ZERO_BELOW = 1e-9


def bucket_of(value: float) -> str:
    if value <= ZERO_BELOW:
        return "z"
    return str(math.ceil(math.log(value) / LOG_GAMMA))


def add(sketch: dict[str, int], value: float) -> dict[str, int]:
    key = bucket_of(value)
    sketch[key] = sketch.get(key, 0) + 1
    return sketch


def merge(into: dict[str, int], other: dict[str, int]) -> dict[str, int]:
    for key, count in other.items():
        into[key] = into.get(key, 0) + count
    return into


def _bucket_value(key: str) -> float:
    if key == "z":
        return 0.0
    index = int(key)
    # The midpoint (in relative terms) of (γ^(i-1), γ^i].
    return 2 * GAMMA**index / (GAMMA + 1)


def quantile(sketch: dict[str, int], q: float) -> float | None:
    """The q-quantile (0 ≤ q ≤ 1) of the values in the sketch, or None when empty."""
    total = sum(sketch.values())
    if not total:
        return None
    rank = q * (total - 1)
    seen = 0
    ordered = sorted(sketch, key=lambda k: -math.inf if k == "z" else int(k))
    for key in ordered:
        seen += sketch[key]
        if seen > rank:
            return _bucket_value(key)
    return _bucket_value(ordered[-1])


def p95(sketch: dict[str, int], *, minimum: float | None, maximum: float | None) -> float | None:
    """The 95th percentile, held between the smallest and largest value: a midpoint may lie outside."""
    value = quantile(sketch, 0.95)
    if value is None or minimum is None or maximum is None:
        return value
    return min(max(value, minimum), maximum)


def exact_quantile(values: list[float], q: float) -> float | None:
    """The same quantile computed from every value (nearest rank, as `quantile` does)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[math.floor(q * (len(ordered) - 1))]
