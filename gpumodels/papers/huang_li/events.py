"""Event selection of Huang & Li (2017) §II-B: cosine similarity against the time
vector, threshold 0.94.

For one kernel with N placements, the *time vector* holds the N execution times and each
*event vector* one nvprof event's N values; events whose (uncentred) cosine similarity
with the time vector exceeds 0.94 are selected (Table I). A property the paper does not
mention: for positive vectors the cosine between t and a *constant* vector is
``mean(t)/rms(t) = 1/sqrt(1 + CV(t)²)`` (:func:`cosine_of_constant`), so an event that
never changes passes the threshold whenever the times vary by less than CV =
sqrt(1/0.94² − 1) = 0.36295 (:func:`threshold_cv`).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pandas as pd

from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import OutOfRangeError, OutsideDomainError
from gpumodels.ground.validate import as_array, check_mapping, check_real
from gpumodels.papers.huang_li._checks import float_array

THRESHOLD = 0.94


def cosine_similarity(a, b) -> float:
    """Uncentred cosine similarity ``a·b / (|a| |b|)``
    of two equally long non-zero vectors.

    >>> cosine_similarity([1, 2, 3], [2, 4, 6])
    1.0
    """
    return _cosine(a, b, "a", "b")


def _vector(name: str, value) -> np.ndarray:
    """``value`` as a 1-D, non-empty, finite float vector (``name`` named)."""
    x = float_array(name, value)
    if x.ndim != 1 or x.size == 0:
        raise OutOfRangeError(
            f"{name} must be a 1-D vector of at least one number, got shape {x.shape}"
        )
    if not np.all(np.isfinite(x)):
        raise OutOfRangeError(
            f"{name} must hold finite numbers, got {x[~np.isfinite(x)][0]!r}"
        )
    return x


def _cosine(a, b, name_a: str, name_b: str) -> float:
    """:func:`cosine_similarity` with the arguments' names for its errors."""
    x = _vector(name_a, a)
    y = _vector(name_b, b)
    if x.shape != y.shape:
        raise ValueError(
            f"{name_a} and {name_b} must be 1-D vectors of one length, got shapes "
            f"{x.shape} and {y.shape}"
        )
    with np.errstate(all="ignore"):
        na, nb = np.linalg.norm(x), np.linalg.norm(y)
        if na == 0 or nb == 0:
            raise ValueError(
                f"{name_a} and {name_b} must not be zero vectors (the cosine is "
                "undefined)"
            )
        cos = x @ y / (na * nb)
    if not (math.isfinite(na) and math.isfinite(nb) and math.isfinite(cos)):
        raise OutsideDomainError(
            f"the cosine of {name_a} and {name_b} is not computable: their norms or "
            "dot product are beyond the floating-point range"
        )
    return float(min(1.0, cos))


def cosine_of_constant(times) -> float:
    """Cosine between a positive time vector and any constant vector: ``1/sqrt(1 +
    CV²)`` (population CV)."""
    t = as_array("times", times, 0.0, lo_open=True)
    cv = t.std() / t.mean()
    return 1.0 / math.sqrt(1.0 + cv * cv)


def threshold_cv(threshold: float = THRESHOLD) -> float:
    """The CV of the times below which a constant event passes ``threshold``:
    ``sqrt(1/threshold² − 1)``.

    >>> round(threshold_cv(), 5)
    0.36295
    """
    th = check_real("threshold", threshold, 0.0, 1.0, lo_open=True)
    return math.sqrt(1.0 / th**2 - 1.0)


def select(
    time_vector, event_vectors: dict, threshold: float = THRESHOLD
) -> dict[str, float]:
    """Events whose cosine with the time vector exceeds ``threshold``
    (name → cosine)."""
    th = check_real("threshold", threshold, 0.0, 1.0)
    _vector("time_vector", time_vector)
    check_mapping("event_vectors", event_vectors)
    cos = {
        k: _cosine(time_vector, v, "time_vector", f"event_vectors[{k!r}]")
        for k, v in event_vectors.items()
    }
    return {k: c for k, c in cos.items() if c > th}


@cache
def _table_i() -> tuple[dict[str, str], ...]:
    return read_rows("huang_li/table_1.csv")


def table_1():
    """Table I as printed
    (``data/huang_li/table_1.csv``; empty = "N/A", i.e. below 0.94)."""

    df = pd.DataFrame(_table_i()).set_index("kernel")
    cols = [c for c in df.columns if c != "source"]
    return df[cols].replace("", np.nan).astype(float)


def table_1_selection() -> dict[str, int]:
    """Events selected per kernel under the 0.94 rule, counted from the printed
    Table I."""
    t = table_1()
    return {k: int((row > THRESHOLD).sum()) for k, row in t.iterrows()}
