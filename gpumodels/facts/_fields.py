"""Checks of record fields in ``__post_init__`` (issue 38): each field that a user may
set is checked for its type and physical range, and a bad one raises the package's
error naming the class, the field and the value. The value is checked only, never
converted, so a valid record is exactly what it was before; the one exception is
:func:`pairs`, which returns the checked pairs as floats for a record that stores them
so."""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping

import numpy as np

from gpumodels.ground.errors import InputTypeError
from gpumodels.ground.validate import as_array, check_int, check_real


def _name(obj, field: str) -> str:
    return f"{type(obj).__name__}.{field}"


def ints(obj, names, lo: int = 0, hi: int | None = None) -> None:
    """Each field of ``names`` an integer in ``[lo, hi]``."""
    for n in names:
        check_int(_name(obj, n), getattr(obj, n), lo, hi)


def reals(
    obj, names, lo: float | None = 0.0, hi: float | None = None, lo_open=False
) -> None:
    """Each field of ``names`` a finite real number in its range."""
    for n in names:
        check_real(_name(obj, n), getattr(obj, n), lo, hi, lo_open=lo_open)


def optional_reals(obj, names, lo: float | None = 0.0, lo_open=False) -> None:
    """Each field of ``names`` ``None`` or a finite real number ``>= lo``."""
    for n in names:
        if getattr(obj, n) is not None:
            check_real(_name(obj, n), getattr(obj, n), lo, lo_open=lo_open)


def optional_ints(obj, names, lo: int = 0) -> None:
    """Each field of ``names`` ``None`` or an integer ``>= lo``."""
    for n in names:
        if getattr(obj, n) is not None:
            check_int(_name(obj, n), getattr(obj, n), lo)


def texts(obj, names) -> None:
    """Each field of ``names`` a string."""
    for n in names:
        v = getattr(obj, n)
        if not isinstance(v, str):
            raise InputTypeError(
                f"{_name(obj, n)} must be a string, got {v!r:.60} ({type(v).__name__})"
            )


def flags(obj, names) -> None:
    """Each field of ``names`` ``True`` or ``False``."""
    for n in names:
        v = getattr(obj, n)
        if not isinstance(v, (bool, np.bool_)):
            raise InputTypeError(
                f"{_name(obj, n)} must be True or False, got {v!r:.60}"
            )


def mappings(obj, names, values=None) -> None:
    """Each field of ``names`` a mapping (of strings to strings when ``values`` is
    ``str``)."""
    for n in names:
        v = getattr(obj, n)
        if not isinstance(v, Mapping):
            raise InputTypeError(
                f"{_name(obj, n)} must be a mapping, got {v!r:.60} ({type(v).__name__})"
            )
        if values is not None:
            for k, x in v.items():
                if not isinstance(x, values):
                    raise InputTypeError(
                        f"{_name(obj, n)}[{k!r}] must be a {values.__name__}, got "
                        f"{x!r:.60}"
                    )


def of_type(obj, name: str, kind, what: str | None = None) -> None:
    """The field ``name`` an instance of ``kind``."""
    v = getattr(obj, name)
    if not isinstance(v, kind):
        expected = what or getattr(kind, "__name__", str(kind))
        raise InputTypeError(
            f"{_name(obj, name)} must be {expected}, got {v!r:.60} ({type(v).__name__})"
        )


def pairs(
    obj, name: str, empty: str, context: str | None = None
) -> tuple[tuple[float, float], ...]:
    """The field ``name`` a tuple of ``(b, c)`` pairs (``empty``: what no pair means),
    the form of a latency-under-load fit (Volkov's Table 6.5): each ``b`` a finite
    number ``>= 0``, each ``c`` a number in ``(0, inf]``. Returns the pairs as floats;
    errors name the field and ``context`` (e.g. the GPU)."""
    v = getattr(obj, name)
    label = _name(obj, name)
    if not isinstance(v, tuple) or not all(
        isinstance(t, tuple) and len(t) == 2 for t in v
    ):
        raise InputTypeError(
            f"{label} must be a tuple of (b, c) pairs (empty: {empty}), got {v!r:.60}"
        )
    where = f" ({context})" if context else ""
    checked = []
    for b, c in v:
        b = check_real(f"{label} b", b, lo=0.0, context=context)
        if not is_real(c):
            raise InputTypeError(
                f"{label} c{where} must be a number in (0, inf], got {c!r:.40}"
            )
        c = as_array(f"{label} c{where}", c, lo=0.0, lo_open=True, allow_inf=True)
        checked.append((b, float(c)))
    return tuple(checked)


def array(
    obj,
    name: str,
    lo: float | None = None,
    ndim: int | None = None,
    integer: bool = False,
    allow_nan: bool = False,
) -> None:
    """The field ``name`` a numeric numpy array (of ``ndim`` dimensions, integers when
    ``integer``), with no NaN (unless ``allow_nan``) or infinity and, when ``lo`` is
    set, nothing below ``lo``."""
    v = getattr(obj, name)
    kinds = "iu" if integer else "iuf"
    if not isinstance(v, np.ndarray) or v.dtype.kind not in kinds:
        raise InputTypeError(
            f"{_name(obj, name)} must be a numpy array of "
            f"{'integers' if integer else 'numbers'}, got {v!r:.60} "
            f"({type(v).__name__})"
        )
    if ndim is not None and v.ndim != ndim:
        raise ValueError(
            f"{_name(obj, name)} must be a {ndim}-d array, got shape {v.shape}"
        )
    if v.dtype.kind == "f" and v.size:
        bad = np.isinf(v) if allow_nan else ~np.isfinite(v)
        if bad.any():
            raise ValueError(
                f"{_name(obj, name)} must hold finite numbers, got {v[bad].flat[0]!r}"
            )
    if lo is not None and v.size:
        low = v < lo  # NaN compares False
        if low.any():
            raise ValueError(
                f"{_name(obj, name)} must hold numbers >= {lo}, got {v[low].flat[0]!r}"
            )


def is_real(v) -> bool:
    """Whether ``v`` is a real number (not a boolean)."""
    return isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))


def name_list(
    name: str, values, what: str = "names", numbers_too: bool = False
) -> list:
    """``values`` as a list: one string (with ``numbers_too`` also one number) is one
    item; ``InputTypeError`` naming ``name`` and ``what`` it should list for a mapping
    or anything that is not a sequence."""
    if isinstance(values, str) or (numbers_too and is_real(values)):
        return [values]
    if isinstance(values, Mapping) or not isinstance(values, Iterable):
        raise InputTypeError(
            f"{name} must be a list of {what}, got {values!r:.60} "
            f"({type(values).__name__})"
        )
    return list(values)

