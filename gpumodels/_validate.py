"""Input checks shared by the public functions.

Every public function checks its arguments here so that bad input fails early with a
``ValueError`` that names the parameter, the allowed range and the value received, e.g.
``threads_per_block must be an integer in [1, 1024] for compute capability 7.0, got 2048``.
"""

from __future__ import annotations

import math
import numbers


def _where(context: str | None) -> str:
    return f" for {context}" if context else ""


def check_int(name: str, value, lo: int, hi: int | None = None, context: str | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer in ``[lo, hi]``; raise ``ValueError`` otherwise.

    Booleans are rejected (``True`` is not a thread count). Integral floats such as ``256.0``
    are accepted; ``256.5`` is not.
    """
    rng = f"[{lo}, {hi}]" if hi is not None else f"[{lo}, inf)"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be an integer in {rng}{_where(context)}, got {value!r}")
    if isinstance(value, numbers.Integral):
        ivalue = int(value)
    else:
        fvalue = float(value)
        if not math.isfinite(fvalue) or fvalue != int(fvalue):
            raise ValueError(f"{name} must be an integer in {rng}{_where(context)}, got {value!r}")
        ivalue = int(fvalue)
    if ivalue < lo or (hi is not None and ivalue > hi):
        raise ValueError(f"{name} must be an integer in {rng}{_where(context)}, got {ivalue}")
    return ivalue


def check_real(name: str, value, lo: float | None = None, hi: float | None = None,
               context: str | None = None, lo_open: bool = False) -> float:
    """Return ``value`` as ``float`` if it is finite and within bounds; raise ``ValueError`` otherwise."""
    lo_b = "(" if lo_open else "["
    rng = f"{lo_b}{'-inf' if lo is None else lo}, {'inf' if hi is None else hi}]"
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
        raise ValueError(f"{name} must be a finite number in {rng}{_where(context)}, got {value!r}")
    v = float(value)
    if (lo is not None and (v < lo or (lo_open and v == lo))) or (hi is not None and v > hi):
        raise ValueError(f"{name} must be a finite number in {rng}{_where(context)}, got {v}")
    return v
