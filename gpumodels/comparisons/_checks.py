"""Argument checks shared by the comparison modules (issue 38): lists of names and
scalar intensities, each refused with an error naming the argument."""

from __future__ import annotations

import numbers

import numpy as np

from gpumodels.ground.errors import InputTypeError, UnknownNameError
from gpumodels.ground.validate import as_array, to_float


def names_of(name: str, value, allowed=None) -> tuple:
    """``value`` as a tuple of names: a list, tuple or other iterable of strings (not a
    single string, a number or ``None``), each one of ``allowed`` if given."""
    if isinstance(value, (str, bytes)) or not is_iterable(value) or value is None:
        raise InputTypeError(
            f"{name} must be a list or tuple of names, got {value!r:.80}"
        )
    out = tuple(value)
    for v in out:
        if not isinstance(v, str):
            raise InputTypeError(
                f"{name} must hold names (strings), got {v!r:.40} in {value!r:.80}"
            )
        if allowed is not None and v not in allowed:
            raise UnknownNameError(
                f"{name} must hold names among {', '.join(map(str, allowed))}, "
                f"got {v!r}"
            )
    return out


def is_iterable(value) -> bool:
    try:
        iter(value)
    except TypeError:
        return False
    return True


def numbers_list(name: str, value, lo: float = 0.0, allow_inf: bool = True) -> tuple:
    """``value`` as a tuple of numbers (a non-empty list, tuple or 1-d array of real
    numbers in ``[lo, inf]``)."""
    if isinstance(value, (str, bytes)) or value is None or not is_iterable(value):
        raise InputTypeError(
            f"{name} must be a list or tuple of numbers, got {value!r:.80}"
        )
    out = tuple(value)
    if not out:
        raise ValueError(f"{name} must hold at least one number, got {value!r:.80}")
    as_array(name, np.array(out, dtype=object), lo=lo, allow_inf=allow_inf)
    return out


def checked_alpha(name: str, value) -> float:
    """A scalar arithmetic intensity: a real number >= 0, ``inf`` allowed."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        if isinstance(value, np.ndarray) and value.ndim == 0:
            return checked_alpha(name, value.item())
        raise InputTypeError(
            f"{name} must be a number in [0, inf], got {value!r:.80}"
        )
    v = to_float(value)
    if isinstance(value, numbers.Integral) and np.isinf(v):
        raise ValueError(
            f"{name} must be a number in [0, inf], got an integer too large for a "
            "float"
        )
    if np.isnan(v) or v < 0:
        raise ValueError(f"{name} must be a number in [0, inf], got {value!r:.40}")
    return v
