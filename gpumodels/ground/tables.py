"""Tables for reading:
what a chapter shows when a ``pandas.DataFrame`` would print badly.

A DataFrame displayed in a notebook cuts long text at 50 characters, prints a column
that holds 0 and 1e-5 as ``0.000000e+00`` and shows every float to six digits. A
:class:`Table` holds a frame of already formatted cells and shows it whole: full text
that wraps (the book's stylesheet gives ``table.gm-table`` wrapping cells), no index
numbers unless the index means something, and a plain-text form for nbval and terminals.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from numbers import Real as _Real

import numpy as np

from gpumodels.ground.errors import InputTypeError, OutOfRangeError, UnknownNameError
from gpumodels.ground.validate import check_int, to_float


class Table:
    """A formatted table for reading;
    ``frame`` is the ``pandas.DataFrame`` of its cells (strings).

    In a notebook it renders as HTML (class ``gm-table``); ``str``/``repr`` give the
    aligned text.
    """

    def __init__(self, frame, *, index: bool = True):
        if not hasattr(frame, "to_html"):
            raise InputTypeError(
                f"frame must be a pandas.DataFrame, got {type(frame).__name__}"
            )
        self.frame = frame
        self.index = bool(index)

    def __len__(self) -> int:
        return len(self.frame)

    def rename(self, **kwargs) -> Table:
        """The table with its columns or index renamed (``pandas.DataFrame.rename``'s
        arguments)."""
        return Table(self.frame.rename(**kwargs), index=self.index)

    def _repr_html_(self) -> str:
        return self.frame.to_html(
            classes="gm-table", border=0, index=self.index, na_rep="—"
        )

    def __repr__(self) -> str:
        return self.frame.to_string(index=self.index, na_rep="—")


_NUMBER = re.compile(r"(?<![\d/.])\d[\d,]*(?:\.(\d+))?(?![\d/])")
_FRACTION = re.compile(r"\d\s*/\s*\d")


def decimals(text: str) -> int | None:
    """Digits after the decimal point of the first number in a printed text (``"15.50"``
    -> 2, ``"about 1.5 times"`` -> 1, ``"3 to 20%"`` -> 0, ``"2,880"`` -> 0); ``None``
    when the text prints no decimal number to take a precision from (``"1/6 IPC"``,
    ``"nearly twice"``)."""
    text = str(text)
    if _FRACTION.search(text):
        return None
    m = _NUMBER.search(text)
    return None if m is None else len(m.group(1) or "")


def significant_places(x: float, digits: int) -> int:
    """Decimal places that show ``x`` to ``digits`` significant digits (0 for NaN, inf
    or 0); ``digits`` an integer in [1, 100]."""
    x = abs(_real("x", x))
    digits = check_int("digits", digits, 1, 100)
    if not math.isfinite(x) or x == 0:
        return 0
    return max(0, digits - 1 - math.floor(math.log10(x)))


def number(x: float, places: int, *, signed: bool = False) -> str:
    """``x`` with ``places`` decimals (a minus sign, never ``-0``); "—" for NaN; an
    exact zero as ``0``; ``places`` an integer in [0, 100]."""
    x = _real("x", x)
    places = check_int("places", places, 0, 100)
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return ("+" if signed and x > 0 else "") + ("∞" if x > 0 else "−∞")
    if x == 0:
        return "0"
    text = f"{x:+.{places}f}" if signed else f"{x:.{places}f}"
    if float(text) == 0:  # rounds to zero: say so without a sign
        return f"{0:.{places}f}"
    return text.replace("-", "−")


def numbers(values, places: int, *, signed: bool = False) -> list[str]:
    """:func:`number` for each of ``values`` (a column formatted for a
    :class:`Table`)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise InputTypeError(
            f"values must be a list or array of numbers, got {values!r:.40}"
        )
    places = check_int("places", places, 0, 100)
    return [number(v, places, signed=signed) for v in values]


def _real(name: str, x) -> float:
    """``x`` as a float (NaN and infinities kept, an integer beyond the float range read
    as infinite); ``InputTypeError`` naming ``name`` for anything but a real number."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, _Real):
        raise InputTypeError(f"{name} must be a real number, got {x!r:.40}")
    return to_float(x)


def formatted(frame, fmt="{:.2f}", columns=None, *, na: str = "–", index: bool = True):
    """A :class:`Table` of ``frame`` with the numbers of ``columns`` (default: all)
    written with ``fmt`` (one format string, or a dict column -> format string) and
    missing values as ``na``; other cells as ``str``.

    >>> import pandas as pd
    >>> formatted(pd.DataFrame({"x": [0.1234, None]}), "{:.1%}")
           x
    0  12.3%
    1      –
    """
    if not hasattr(frame, "columns"):
        raise InputTypeError(
            f"frame must be a pandas.DataFrame, got {type(frame).__name__}"
        )
    if columns is not None and (
        isinstance(columns, (str, bytes, dict)) or not isinstance(columns, Iterable)
    ):
        raise InputTypeError(
            f"columns must be a list of column names of frame or None, got "
            f"{type(columns).__name__} {columns!r:.40}"
        )
    if not isinstance(na, str):
        raise InputTypeError(
            f"na must be a string (shown for missing values), got {na!r:.40}"
        )
    cols = list(frame.columns if columns is None else columns)
    for c in cols:
        try:
            known = c in frame.columns
        except TypeError:  # an unhashable name
            known = False
        if not known:
            raise UnknownNameError(
                f"columns must name columns of frame ({', '.join(map(str, frame))}), "
                f"got {c!r:.40}"
            )
    out = frame.copy().astype(object)
    for c in cols:
        if isinstance(fmt, dict) and c not in fmt:
            raise UnknownNameError(
                f"fmt must give a format string for every column formatted; it has "
                f"none for column {c!r}"
            )
        f = fmt[c] if isinstance(fmt, dict) else fmt
        if not isinstance(f, str):
            raise InputTypeError(f"fmt for column {c!r} must be a format string")
        out[c] = [na if _missing(v) else _format(f, v, c) for v in frame[c]]
    for c in out.columns:
        if c not in cols:
            out[c] = ["" if _missing(v) else str(v) for v in frame[c]]
    if out.index.nlevels == 1:  # a lone index name would print as a row of its own
        out.index.name = None
    out.columns.name = None
    return Table(out, index=index)


def _format(f: str, v, column) -> str:
    """``f.format(v)``; ``OutOfRangeError`` naming ``fmt`` and the column when the
    format string does not apply to the cell (a number format for text)."""
    try:
        return f.format(v)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
        raise OutOfRangeError(
            f"fmt {f!r} does not format the value {v!r:.40} of column {column!r}: {e}"
        ) from None


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))
