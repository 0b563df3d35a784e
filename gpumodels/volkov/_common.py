"""Array checks shared by the Volkov model functions (numpy broadcasting with clear errors)."""

from __future__ import annotations

import numbers

import numpy as np


def as_array(name: str, value, lo: float = 0.0, allow_inf: bool = False, lo_open: bool = False) -> np.ndarray:
    """``value`` as a float array; ``ValueError`` naming ``name`` if it is not numeric, NaN or out of range."""
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a number or an array of numbers, got {value!r}")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number or an array of numbers, got {value!r}") from None
    if arr.dtype == bool:
        raise ValueError(f"{name} must be a number or an array of numbers, got booleans")
    rng = f"{'(' if lo_open else '['}{lo}, {'inf]' if allow_inf else 'inf)'}"
    bad = np.isnan(arr) | (arr < lo) | ((arr == lo) if lo_open else False)
    if not allow_inf:
        bad |= np.isinf(arr)
    if np.any(bad):
        first = arr[bad].flat[0] if arr.ndim else float(arr)
        raise ValueError(f"{name} must be in {rng}, got {first!r}")
    return arr


def out(x: np.ndarray):
    """Return a 0-d result as a Python float and anything else as an array."""
    return float(x) if np.ndim(x) == 0 else x


def check_fraction(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not (0 < float(value) <= 1):
        raise ValueError(f"{name} must be a number in (0, 1], got {value!r}")
    return float(value)
