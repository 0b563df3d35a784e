"""Values printed in the papers (``data/published/published_values.csv``) and computed-vs-published tables.

Each chapter that re-derives a published number builds a table with :func:`compare` and
asserts the tolerance in a visible cell with :func:`check`, so that nbval fails when a change
breaks a reproduction.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping

from ._data import read_rows
from ._validate import check_real

_FILE = "published/published_values.csv"


@lru_cache(maxsize=None)
def _rows() -> dict[str, dict[str, str]]:
    return {r["key"]: r for r in read_rows(_FILE)}


def keys(prefix: str = "") -> list[str]:
    """Keys of published values, in file order, that start with ``prefix``."""
    return [k for k in _rows() if k.startswith(prefix)]


def value(key: str) -> float:
    """The printed number stored under ``key``; an unknown key raises ``KeyError`` with close matches."""
    rows = _rows()
    if key not in rows:
        stem = key.rsplit(".", 1)[0]
        close = [k for k in rows if k.startswith(stem)][:8]
        raise KeyError(f"no published value {key!r}" + (f"; similar keys: {', '.join(close)}" if close else ""))
    return float(rows[key]["value"])


def record(key: str) -> dict[str, str]:
    """The whole row (paper, source, quantity, context, value, unit, note) for ``key``."""
    value(key)                      # raises KeyError with suggestions for an unknown key
    return dict(_rows()[key])       # a copy: the cached rows stay unchanged


def compare(computed: Mapping[str, float], rtol: float = 0.0, atol: float = 0.0):
    """Computed vs published vs difference, one row per key of ``computed``.

    Columns: ``key, context, quantity, source, computed, published, difference, rel_difference,
    within_tolerance`` where a row is within tolerance when
    ``|computed - published| <= atol + rtol * |published|``.
    """
    import pandas as pd

    rtol = check_real("rtol", rtol, 0.0)
    atol = check_real("atol", atol, 0.0)
    out = []
    for key, comp in computed.items():
        rec = record(key)
        pub = float(rec["value"])
        c = float(comp)
        diff = c - pub
        out.append(dict(key=key, context=rec["context"], quantity=rec["quantity"],
                        source=f"{rec['paper']}, {rec['source']}", computed=c, published=pub,
                        difference=diff, rel_difference=diff / pub if pub else float("nan"),
                        within_tolerance=abs(diff) <= atol + rtol * abs(pub)))
    return pd.DataFrame(out)


def check(table, expect_outside: tuple[str, ...] = ()) -> None:
    """Assert every row of a :func:`compare` table is within tolerance, except exactly ``expect_outside``.

    A reproduction the book cannot match is listed in ``expect_outside`` (and explained in the
    text); the check then also fails if such a row *starts* matching, so the text stays true.
    """
    outside = tuple(table.loc[~table["within_tolerance"], "key"])
    if set(outside) != set(expect_outside):
        raise AssertionError(f"rows outside tolerance: {sorted(outside)}; expected exactly: {sorted(expect_outside)}")


def printed_half_unit(key: str) -> float:
    """Half a unit in the last digit the paper printed for ``key`` (0.5 for an integer, 0.005 for 2 decimals)."""
    text = record(key)["value"]
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    return 0.5 * 10.0 ** -decimals


def compare_printed(computed: Mapping[str, float]):
    """:func:`compare` with each row's tolerance set to the paper's printed precision
    (:func:`printed_half_unit`): a row agrees when it rounds to the printed number."""
    import pandas as pd

    rows = [compare({k: v}, atol=printed_half_unit(k)).assign(tolerance=printed_half_unit(k))
            for k, v in computed.items()]
    return pd.concat(rows, ignore_index=True)
