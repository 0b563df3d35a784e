"""Input checks shared by the public functions.

Every public function checks its arguments here so that bad input fails early with an
error that names the parameter, the allowed range and the value received:
``InputTypeError`` (a ``TypeError`` that is also a ``ValueError``) for a wrong type,
``OutOfRangeError`` (a ``ValueError``) for a bad value, ``UnknownNameError`` for an
unknown choice (see :mod:`gpumodels.ground.errors`), e.g. ``threads_per_block must be
an integer in [1, 1024] for compute capability 7.0, got 2048``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Collection

import numpy as np

from gpumodels.ground.errors import (
    DataError,
    InputTypeError,
    OutOfRangeError,
    OutsideDomainError,
    UnknownNameError,
)

MAX_INT = 2**63
"""The largest integer an unbounded count may take
(no count in the book comes near it)."""


def to_float(value) -> float:
    """``float(value)``, with an integer too large for a float read as ``inf``
    (never OverflowError)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf
    except (TypeError, ValueError):
        raise InputTypeError(
            f"value must be a real number, got {value!r:.40}"
        ) from None


_SMALL = 1 << 1000


def _plain_int(x) -> bool:
    """A Python ``int`` (not ``bool``) small enough for a float."""
    return type(x) is int and -_SMALL < x < _SMALL


def _plain_number(x) -> bool:
    """A Python ``float`` or :func:`_plain_int`: the values the checkers test without
    the slower ``numbers`` ABCs. Anything else (``bool``, numpy scalars, huge ints)
    takes the general path, with the same outcome."""
    return type(x) is float or _plain_int(x)


def _bound_types(lo, hi, lo_required: bool) -> None:
    """The type and range checks of :func:`_bounds` (``lo`` and ``hi`` numbers within
    the floating-point range, or None where allowed)."""
    if lo_required and lo is None:
        raise InputTypeError("lo must be a number, got None")
    for bname, b in (("lo", lo), ("hi", hi)):
        if b is not None and (
            isinstance(b, (bool, np.bool_)) or not isinstance(b, numbers.Real)
        ):
            raise InputTypeError(f"{bname} must be a number or None, got {b!r:.40}")
        huge = isinstance(b, numbers.Integral) and math.isinf(to_float(b))
        if b is not None and huge:
            raise OutOfRangeError(
                f"{bname} must be a number within the floating-point range, got "
                f"{b!r:.40}"
            )


def _bounds(lo, hi, lo_required: bool = False) -> None:
    """``InputTypeError`` unless the bounds a checker is given are numbers (or None),
    ``ValueError`` if ``lo > hi``."""
    plain = (_plain_number(lo) or (lo is None and not lo_required)) and (
        hi is None or _plain_number(hi)
    )  # the usual call: the type checks below would all pass
    if not plain:
        _bound_types(lo, hi, lo_required)
    if lo is not None and hi is not None and lo > hi:
        raise OutOfRangeError(f"lo must be <= hi, got lo={lo!r:.40} and hi={hi!r:.40}")


def _where(context: str | None) -> str:
    return f" for {context}" if context else ""


def check_int(
    name: str, value, lo: int, hi: int | None = None, context: str | None = None
) -> int:
    """Return ``value`` as ``int`` if it is an integer in ``[lo, hi]``; raise
    ``ValueError`` otherwise.

    Booleans are rejected (``True`` is not a thread count). Integral floats such as
    ``256.0`` are accepted; ``256.5`` is not.
    """
    _bounds(lo, hi, lo_required=True)
    if (
        _plain_int(value)
        and value >= lo
        and (value <= hi if hi is not None else abs(value) <= MAX_INT)
    ):
        return value  # the usual call, as the general path below returns it
    rng = f"[{lo}, {hi}]" if hi is not None else f"[{lo}, inf)"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputTypeError(
            f"{name} must be an integer in {rng}{_where(context)}, got {value!r}"
        )
    if isinstance(value, numbers.Integral):
        ivalue = int(value)
    else:
        fvalue = float(value)
        if not math.isfinite(fvalue) or fvalue != int(fvalue):
            raise OutOfRangeError(
                f"{name} must be an integer in {rng}{_where(context)}, got {value!r}"
            )
        ivalue = int(fvalue)
    if hi is None and abs(ivalue) > MAX_INT:
        raise OutOfRangeError(
            f"{name} must be an integer in {rng}{_where(context)} no larger than "
            f"2**63, got {value!r:.40}"
        )
    if ivalue < lo or (hi is not None and ivalue > hi):
        raise OutOfRangeError(
            f"{name} must be an integer in {rng}{_where(context)}, got {ivalue}"
        )
    return ivalue


def check_real(
    name: str,
    value,
    lo: float | None = None,
    hi: float | None = None,
    context: str | None = None,
    lo_open: bool = False,
) -> float:
    """Return ``value`` as ``float`` if it is finite and within bounds; raise
    ``ValueError`` otherwise.

    ``-0.0`` is returned as ``0.0`` (so that nothing downstream divides by a negative
    zero).
    """
    _bounds(lo, hi)
    if _plain_number(value):  # the usual call
        v = float(value) + 0.0
        if math.isfinite(v) and not (
            (lo is not None and (v < lo or (lo_open and v == lo)))
            or (hi is not None and v > hi)
        ):
            return v
    lo_b = "(" if lo_open else "["
    rng = f"{lo_b}{'-inf' if lo is None else lo}, {'inf' if hi is None else hi}]"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputTypeError(
            f"{name} must be a finite number in {rng}{_where(context)}, got {value!r}"
        )
    v = to_float(value) + 0.0  # + 0.0 turns -0.0 into 0.0
    if not math.isfinite(v):
        raise OutOfRangeError(
            f"{name} must be a finite number in {rng}{_where(context)}, got "
            f"{value!r:.40}"
        )
    if (lo is not None and (v < lo or (lo_open and v == lo))) or (
        hi is not None and v > hi
    ):
        raise OutOfRangeError(
            f"{name} must be a finite number in {rng}{_where(context)}, got {v}"
        )
    return v


# ---- numpy arrays (the vectorised models) ----


def as_array(
    name: str, value, lo: float = 0.0, allow_inf: bool = False, lo_open: bool = False
) -> np.ndarray:
    """``value`` as a float array; ``ValueError`` naming ``name`` if it is not numeric,
    NaN or out of range.

    Only real numbers are taken: strings (``"8"``), booleans and boolean arrays are
    refused rather than converted, an integer too large for a float is refused, and
    ``-0.0`` becomes ``0.0``.
    """
    _bounds(lo, None, lo_required=True)
    if _plain_number(value):  # a plain scalar, the usual call
        v = float(value) + 0.0
        if not (
            math.isnan(v)
            or v < lo
            or (lo_open and v == lo)
            or (not allow_inf and math.isinf(v))
        ):
            return np.float64(v)
    what = f"{name} must be a number or an array of numbers"
    if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
        raise InputTypeError(f"{what}, got {value!r}")
    try:
        raw = np.asarray(value)
        if raw.dtype.kind == "O" and not all(
            isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_))
            for x in raw.flat
        ):
            raise TypeError
        if raw.dtype.kind not in "iufO":
            raise TypeError
        arr = raw.astype(float) + 0.0  # + 0.0 turns -0.0 into 0.0
    except OverflowError:
        raise OutOfRangeError(
            f"{name} must be a finite number, got a value too large for a float"
        ) from None
    except (TypeError, ValueError):
        raise InputTypeError(f"{what}, got {value!r}") from None
    rng = f"{'(' if lo_open else '['}{lo}, {'inf]' if allow_inf else 'inf)'}"
    bad = np.isnan(arr) | (arr < lo) | ((arr == lo) if lo_open else False)
    if not allow_inf:
        bad |= np.isinf(arr)
    if np.any(bad):
        first = arr[bad].flat[0] if arr.ndim else float(arr)
        raise OutOfRangeError(f"{name} must be in {rng}, got {first!r}")
    return arr


def broadcast(**arrays) -> list[np.ndarray]:
    """``np.broadcast_arrays`` of the named arrays; ``ValueError`` naming them and their
    shapes if they do not broadcast."""
    try:
        return np.broadcast_arrays(*arrays.values())
    except ValueError:
        shapes = ", ".join(f"{k} {np.shape(v)}" for k, v in arrays.items())
        raise OutOfRangeError(f"shapes do not broadcast together: {shapes}") from None


def out(x: np.ndarray):
    """Return a 0-d result as a Python float and anything else as an array."""
    return to_float(x) if np.ndim(x) == 0 else x


def check_fraction(name: str, value) -> float:
    """Return ``value`` as ``float`` if it is a number in (0, 1];
    ``ValueError`` otherwise."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputTypeError(f"{name} must be a number in (0, 1], got {value!r}")
    v = to_float(value)
    if not (0 < v <= 1):  # NaN fails this too
        raise OutOfRangeError(f"{name} must be a number in (0, 1], got {value!r:.40}")
    return v


def check_choice(name: str, value, allowed) -> str:
    """Return ``value`` if it is one of ``allowed``;
    ``ValueError`` naming the choices otherwise; ``InputTypeError`` naming ``allowed``
    unless it is a collection of choices (not a string)."""
    if isinstance(allowed, (str, bytes)) or not isinstance(allowed, Collection):
        raise InputTypeError(
            f"allowed must be a collection of choices (a tuple, list, set or dict), "
            f"got {type(allowed).__name__} {allowed!r:.40}"
        )
    try:
        ok = value in allowed
    except TypeError:  # an unhashable value looked up in a set or dict
        ok = False
    if not ok:
        raise UnknownNameError(
            f"{name} must be one of {', '.join(map(str, allowed))}, got {value!r}"
        )
    return value


def check_flag(name: str, value) -> bool:
    """Return ``value`` if it is ``True`` or ``False`` (numpy booleans too);
    ``ValueError`` otherwise — the string ``"False"`` is not taken as true."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputTypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def finite_result(what: str, value, **inputs):
    """``value`` if every number in it is finite; ``OutsideDomainError`` naming ``what``
    and the ``inputs`` otherwise (valid inputs whose result leaves the floating-point
    range, e.g. a latency of 1e300 cycles times a throughput of 1e300)."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise InputTypeError(
            f"value must be a number or an array of numbers for {what}, got "
            f"{value!r:.40}"
        ) from None
    if not np.all(np.isfinite(arr)):
        shown = ", ".join(f"{k}={v!r:.24}" for k, v in inputs.items())
        raise OutsideDomainError(
            f"{what} is not a finite number for {shown}: the inputs are beyond the "
            f"floating-point range of the model"
        )
    return value


# ---- record fields and other package types (added for issue 38, round 2) ----


def _type_names(types) -> str:
    types = types if isinstance(types, tuple) else (types,)
    return " or ".join(getattr(t, "__name__", str(t)) for t in types)


def check_type(name: str, value, types, context: str | None = None):
    """Return ``value`` if it is an instance of ``types`` (a type or a tuple of types);
    ``InputTypeError`` naming ``name``, the expected type(s) and the type given
    otherwise. A boolean never passes for a number type."""
    types_t = types if isinstance(types, tuple) else (types,)
    if not types_t or not all(isinstance(t, type) for t in types_t):
        raise InputTypeError(
            f"types must be a type or a tuple of types, got {types!r:.60}"
        )
    is_bool = isinstance(value, (bool, np.bool_)) and not any(
        t in (bool, np.bool_, object) for t in types_t
    )
    if is_bool or not isinstance(value, types_t):
        raise InputTypeError(
            f"{name} must be a {_type_names(types)}{_where(context)}, got "
            f"{type(value).__name__} {value!r:.60}"
        )
    return value


def check_text(name: str, value, context: str | None = None) -> str:
    """Return ``value`` if it is a string; ``InputTypeError`` naming ``name``
    otherwise."""
    return check_type(name, value, str, context)


def check_sequence(name: str, value, context: str | None = None):
    """Return ``value`` if it is a list or tuple (not a string); ``InputTypeError``
    naming ``name`` otherwise."""
    return check_type(name, value, (tuple, list), context)


def check_numbers(
    name: str,
    value,
    lo: float | None = 0.0,
    context: str | None = None,
    allow_inf: bool = False,
) -> np.ndarray:
    """Return ``value`` if it is a numpy array of real numbers, none NaN, none below
    ``lo`` (``None``: no bound) and, unless ``allow_inf``, none infinite; the array
    itself is returned unchanged. ``InputTypeError`` for anything but a numeric array,
    ``ValueError`` naming ``name`` and the first bad number otherwise; ``lo`` must be
    a number or None."""
    _bounds(lo, None)
    if not isinstance(value, np.ndarray) or value.dtype.kind not in "iuf":
        raise InputTypeError(
            f"{name} must be a numpy array of numbers{_where(context)}, got "
            f"{type(value).__name__} {value!r:.60}"
        )
    arr = value.astype(float)
    bad = np.isnan(arr)
    if lo is not None:
        bad |= arr < lo
    if not allow_inf:
        bad |= np.isinf(arr)
    if np.any(bad):
        rng = f"[{'-inf' if lo is None else lo}, inf{']' if allow_inf else ')'}"
        raise OutOfRangeError(
            f"{name} must hold numbers in {rng}{_where(context)}, got "
            f"{arr[bad].flat[0]!r}"
        )
    return value


def check_mapping(name: str, value, context: str | None = None):
    """Return ``value`` if it is a mapping (a dict or alike); ``InputTypeError`` naming
    ``name`` otherwise."""
    import collections.abc

    return check_type(name, value, collections.abc.Mapping, context)


def check_keys(name: str, value, keys, context: str | None = None):
    """Return ``value`` if it has every one of ``keys`` (the keys of a mapping or the
    columns of a DataFrame); ``InputTypeError`` naming ``name`` if it is neither,
    ``DataError`` naming ``name`` and the missing keys otherwise (an argument that is
    a table or record lacking fields fails like a data table does)."""
    import collections.abc

    keys = check_items("keys", keys)
    if hasattr(value, "columns") and hasattr(value, "iloc"):
        have = set(value.columns)
    elif isinstance(value, collections.abc.Mapping):
        have = set(value)
    else:
        raise InputTypeError(
            f"{name} must be a mapping or a table with the keys "
            f"{', '.join(map(str, keys))}{_where(context)}, got "
            f"{type(value).__name__} {value!r:.60}"
        )
    missing = [k for k in keys if k not in have]
    if missing:
        raise DataError(
            f"{name} lacks the key(s) {', '.join(map(str, missing))}{_where(context)} "
            f"(needs {', '.join(map(str, keys))})"
        )
    return value


def check_items(
    name: str,
    value,
    types=None,
    context: str | None = None,
    allow_empty: bool = True,
) -> list:
    """``value`` as a list if it is an iterable of items (a list, tuple, range, set,
    1-d numpy array or pandas Series; not a string, bytes or a mapping), each an
    instance of ``types`` if given; ``InputTypeError`` naming ``name`` (or
    ``name[i]`` for a bad item) otherwise, ``OutOfRangeError`` if it is empty and
    ``allow_empty`` is false. A numpy array must be one-dimensional."""
    import collections.abc

    what = "a list" + (f" of {_type_names(types)}" if types is not None else "")
    if (
        isinstance(value, (str, bytes, collections.abc.Mapping))
        or not isinstance(value, collections.abc.Iterable)
        or (isinstance(value, np.ndarray) and value.ndim != 1)
    ):
        raise InputTypeError(
            f"{name} must be {what}{_where(context)}, got {type(value).__name__} "
            f"{value!r:.60}"
        )
    items = list(value)
    if not items and not allow_empty:
        raise OutOfRangeError(f"{name} must not be empty{_where(context)}")
    if types is not None:
        for i, item in enumerate(items):
            check_type(f"{name}[{i}]", item, types, context)
    return items
