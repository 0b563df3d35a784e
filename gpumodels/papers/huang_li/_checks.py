"""Argument and field checks shared by the Huang & Li modules (on top of
:mod:`gpumodels.ground.validate`): types of package objects, mappings of counts,
sequences of numbers, seeds."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np

from gpumodels.ground.errors import InputTypeError
from gpumodels.ground.validate import check_flag, check_int, check_real


def check_kind(name: str, value, types, expected: str):
    """``value`` if it is an instance of ``types``; ``InputTypeError`` naming ``name``,
    the ``expected`` type and the type given otherwise."""
    if not isinstance(value, types):
        raise InputTypeError(
            f"{name} must be {expected}, got {type(value).__name__} {value!r:.60}"
        )
    return value


def check_str(name: str, value, empty: bool = True) -> str:
    """``value`` if it is a string (non-empty unless ``empty``)."""
    check_kind(name, value, str, "a string")
    if not empty and not value:
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value


def check_map(name: str, value, kind: str | None = None, lo: float = 0.0):
    """``value`` if it is a mapping; with ``kind`` ``"int"``, ``"real"`` or ``"flag"``
    every value must be an integer >= ``lo``, a finite number >= ``lo`` or a bool."""
    check_kind(name, value, Mapping, "a mapping (dict)")
    for k, v in value.items():
        item = f"{name}[{k!r}]"
        if kind == "int":
            check_int(item, v, int(lo))
        elif kind == "real":
            check_real(item, v, lo)
        elif kind == "flag":
            check_flag(item, v)
        elif kind == "str":
            check_str(item, v)
    return value


def check_real_or_nan(
    name: str, value, lo: float | None, allow_nan: bool, lo_open: bool = False
) -> float:
    """A finite number >= ``lo`` (``> lo`` if ``lo_open``), or NaN where
    ``allow_nan`` (a saturated queue's flagged NaN)."""
    # only a float is NaN; an int too large for a float would overflow math.isnan
    if allow_nan and isinstance(value, (float, np.floating)) and math.isnan(value):
        return float(value)
    return check_real(name, value, lo, lo_open=lo_open)


def check_seed(name: str, value) -> int:
    """A random seed: an integer >= 0 (``None``, which would draw fresh entropy, is
    refused so that every result is reproducible)."""
    return check_int(name, value, 0)


def check_reals(
    name: str,
    values,
    lo: float | None = 0.0,
    hi: float | None = None,
    lo_open: bool = False,
    min_len: int = 1,
) -> list[float]:
    """``values`` as a list of finite floats, each in range (``name[i]`` named)."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise InputTypeError(
            f"{name} must be a sequence of numbers, got {type(values).__name__} "
            f"{values!r:.60}"
        )
    out = [
        check_real(f"{name}[{i}]", v, lo, hi, lo_open=lo_open)
        for i, v in enumerate(values)
    ]
    if len(out) < min_len:
        raise ValueError(
            f"{name} must hold at least {min_len} number(s), got {len(out)}"
        )
    return out


def check_ints(
    name: str, values, lo: int, hi: int | None = None, min_len: int = 1
) -> list[int]:
    """``values`` as a list of ints, each in ``[lo, hi]`` (``name[i]`` named)."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise InputTypeError(
            f"{name} must be a sequence of integers, got {type(values).__name__} "
            f"{values!r:.60}"
        )
    out = [check_int(f"{name}[{i}]", v, lo, hi) for i, v in enumerate(values)]
    if len(out) < min_len:
        raise ValueError(
            f"{name} must hold at least {min_len} integer(s), got {len(out)}"
        )
    return out


def float_array(name: str, value) -> np.ndarray:
    """``value`` as a float array; ``InputTypeError`` naming ``name`` if it is not
    numeric (NaN and inf pass: the caller says why they are refused)."""
    if isinstance(value, (str, bytes)) or value is None:
        raise InputTypeError(f"{name} must be an array of numbers, got {value!r:.60}")
    try:
        arr = np.asarray(value)
        if arr.dtype.kind == "b":
            raise TypeError
        return arr.astype(float)
    except (TypeError, ValueError, OverflowError):
        raise InputTypeError(
            f"{name} must be an array of numbers, got {value!r:.60}"
        ) from None
