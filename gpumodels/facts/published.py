"""Values printed in the papers, and tables that set computed values beside them.

``data/published/`` holds one table per paper (``hong_kim.csv``, ``volkov.csv``, ...)
with every number the book takes from that paper, one row each: its printed text, its
declared status and, rarely, a tolerance wider or narrower than the printed precision
with its reason. The status is ``reproduced`` (a model, or arithmetic on *other*
printed numbers, gives it), ``outside`` (computed but outside the tolerance; the reason
is in ``note``), ``not derivable`` (the missing inputs are in ``note``) or ``input``: a
number the book takes in (measured, specified, or read from a table), shown on the
scoreboard but not counted. A row with a ``bound`` (``>`` or ``<``) is a printed claim,
such as "more than 8x" or "within about 10 %": it holds when the computed quantity is
above (below) the printed ``value``.

:func:`value` and :func:`record` look rows up; :func:`compare` and
:func:`compare_printed` set computed values beside printed ones; :func:`compact` formats
a scoreboard table for reading and :func:`check` asserts that each row's status is the
one declared, so that nbval (and the unit tests) fail when a reproduction breaks or an
explained difference disappears. The scoreboard itself, which computes every row, is the
package's top layer, :mod:`gpumodels.scoreboard`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import pandas as pd

from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import DataError, InputTypeError, UnknownNameError
from gpumodels.ground.schemas import PUBLISHED_FILES, PUBLISHED_STATUSES
from gpumodels.ground.tables import Table, decimals, number, significant_places
from gpumodels.ground.validate import check_flag, check_mapping, check_real

STATUSES = PUBLISHED_STATUSES[:3]
"""The three statuses of a scored row (reproduced, outside, not derivable)."""

INPUT = PUBLISHED_STATUSES[3]
"""Status of a printed number the book takes in (shown on the scoreboard, not
counted)."""

FILES = tuple(f"published/{name}.csv" for name in PUBLISHED_FILES)
"""The tables of printed values, one per paper."""


@cache
def _rows() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for relpath in FILES:
        for r in read_rows(relpath):
            if r["key"] in out:
                raise DataError(
                    f"published key {r['key']!r} is in data/{relpath} and in another "
                    "table of data/published/"
                )
            out[r["key"]] = r
    return out


def rows() -> dict[str, dict[str, str]]:
    """Every row by key, in the order of :data:`FILES` and of each file (read-only)."""
    return _rows()


def _check_str(name: str, value) -> str:
    if not isinstance(value, str):
        raise InputTypeError(
            f"{name} must be a string (a key of data/published/), got {value!r:.60} "
            f"({type(value).__name__})"
        )
    return value


def _check_board(name: str, board, columns: tuple[str, ...]):
    if not isinstance(board, pd.DataFrame):
        raise InputTypeError(
            f"{name} must be a pandas DataFrame, got {type(board).__name__}"
        )
    missing = [c for c in columns if c not in board.columns]
    if missing:
        raise ValueError(
            f"{name} must have the columns {', '.join(columns)}; missing "
            f"{', '.join(missing)}"
        )
    return board


def keys(prefix: str = "") -> list[str]:
    """Keys of published values, in file order, that start with ``prefix``."""
    _check_str("prefix", prefix)
    return [k for k in _rows() if k.startswith(prefix)]


def value(key: str) -> float:
    """The printed number stored under ``key``; an unknown key raises ``KeyError`` with
    close matches."""
    _check_str("key", key)
    rows = _rows()
    if key not in rows:
        stem = key.rsplit(".", 1)[0]
        close = [k for k in rows if k.startswith(stem)][:8]
        raise UnknownNameError(
            f"no published value {key!r}"
            + (f"; similar keys: {', '.join(close)}" if close else "")
        )
    return float(rows[key]["value"])


def record(key: str) -> dict[str, str]:
    """The whole row (paper, source, quantity, context, value, unit, note)
    for ``key``."""
    value(key)  # raises KeyError with suggestions for an unknown key
    return dict(_rows()[key])  # a copy: the cached rows stay unchanged


def compare(computed: Mapping[str, float], rtol: float = 0.0, atol: float = 0.0):
    """Computed vs published vs difference, one row per key of ``computed``.

    Columns: ``key, context, quantity, source, computed, published, difference,
    rel_difference, within_tolerance`` where a row is within tolerance when ``|computed
    - published| <= atol + rtol * |published|``.
    """

    rtol = check_real("rtol", rtol, 0.0)
    atol = check_real("atol", atol, 0.0)
    if not isinstance(computed, Mapping):
        raise InputTypeError(
            "computed must be a mapping of published key -> computed number, got "
            f"{type(computed).__name__}"
        )
    out = []
    for key, comp in computed.items():
        rec = record(key)
        pub = float(rec["value"])
        c = check_real(f"computed[{key!r}]", comp)
        diff = c - pub
        out.append(
            {
                "key": key,
                "context": rec["context"],
                "quantity": rec["quantity"],
                "source": f"{rec['paper']}, {rec['source']}",
                "computed": c,
                "published": pub,
                "difference": diff,
                "rel_difference": diff / pub if pub else float("nan"),
                "within_tolerance": abs(diff) <= atol + rtol * abs(pub),
            }
        )
    return pd.DataFrame(out)


def check(table, expect_outside: tuple[str, ...] = ()) -> None:
    """Assert every row of a :func:`compare` table is within tolerance, except exactly
    ``expect_outside``.

    Given a :func:`~gpumodels.scoreboard.table` table instead, assert that every row has
    the status its data row declares (``expect_outside`` is then unused: the data file
    says which rows are outside).

    A reproduction the book cannot match is listed in ``expect_outside`` (and explained
    in the text); the check then also fails if such a row *starts* matching, so the text
    stays true.
    """
    if not isinstance(table, pd.DataFrame):
        raise InputTypeError(
            f"table must be a pandas DataFrame, got {type(table).__name__}"
        )
    if not isinstance(expect_outside, (tuple, list, set, frozenset)) or not all(
        isinstance(k, str) for k in expect_outside
    ):
        raise InputTypeError(
            "expect_outside must be a tuple of published keys, got "
            f"{expect_outside!r:.60}"
        )
    if "declared" in table.columns:  # a scoreboard: each row as its data row declares
        wrong = table[table["status"] != table["declared"]]
        if len(wrong):
            raise AssertionError(
                "rows whose status differs from the declared one: "
                + "; ".join(
                    f"{r.key}: {r.status} (declared {r.declared or 'nothing'})"
                    for r in wrong.itertuples()
                )
            )
        return
    _check_board("table", table, ("key", "within_tolerance"))
    outside = tuple(table.loc[~table["within_tolerance"], "key"])
    if set(outside) != set(expect_outside):
        raise AssertionError(
            f"rows outside tolerance: {sorted(outside)}; expected exactly: "
            f"{sorted(expect_outside)}"
        )


def printed_half_unit(key: str) -> float:
    """Half a unit in the last digit the paper printed for ``key`` (0.5 for an integer,
    0.005 for 2 decimals)."""
    text = record(key)["value"]
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    return 0.5 * 10.0**-decimals


def tolerance(key: str) -> float:
    """The row's tolerance: its ``tolerance`` column if set (the reason is in ``note``),
    else the printed precision."""
    t = record(key).get("tolerance", "")
    return float(t) if t else printed_half_unit(key)


def compare_printed(computed: Mapping[str, float]):
    """:func:`compare` with each row's tolerance set to the paper's printed precision
    (:func:`printed_half_unit`): a row agrees when it rounds to the printed number;
    an empty ``computed`` gives an empty table."""
    check_mapping("computed", computed)
    if not computed:
        return compare({}).assign(tolerance=[])
    rows = [
        compare({k: v}, atol=printed_half_unit(k)).assign(
            tolerance=printed_half_unit(k)
        )
        for k, v in computed.items()
    ]
    return pd.concat(rows, ignore_index=True)


COMPACT_COLUMNS = (
    "status",
    "quantity (unit)",
    "printed",
    "computed",
    "difference",
    "tolerance",
)
"""The columns of :func:`compact`, status first."""

_BOARD_COLUMNS = (
    "key",
    "status",
    "quantity",
    "unit",
    "printed",
    "printed_text",
    "computed",
    "difference",
    "tolerance",
)
"""The scoreboard columns :func:`compact` reads."""


def _exact_places(x: float) -> int:
    """Decimals of the shortest exact writing of ``x`` (0.25 -> 2, 50 -> 0)."""
    frac = f"{float(x):.12f}".split(".")[1].rstrip("0")
    return len(frac)


def compact(
    board, *, note: bool = False, extra: Mapping[str, object] | None = None
) -> Table:
    """A :func:`~gpumodels.scoreboard.table` table for reading (a
    :class:`gpumodels.ground.tables.Table`, indexed by key).

    Status first, the quantity in full with its unit, the printed text as printed, and
    the computed value, difference and tolerance at the printed precision (one decimal
    more for the difference and the tolerance, so that a row just outside shows why); a
    printed fraction or wording ("1/6 IPC", "nearly twice") gives no precision, so those
    rows show three significant digits (two for the difference and the tolerance).
    ``note=True`` shows each row's reason in place of the difference and the tolerance
    (the table must still fit the column); ``extra`` adds columns (name -> values, one
    per row, shown as given).
    """
    note = check_flag("note", note)
    _check_board("board", board, _BOARD_COLUMNS + (("note",) if note else ()))
    if extra is not None and not isinstance(extra, Mapping):
        raise InputTypeError(
            f"extra must be a mapping of column name -> values, got "
            f"{type(extra).__name__}"
        )
    rows = []
    for r in board.itertuples():
        bound = getattr(r, "bound", "")
        d = decimals(r.printed_text)
        # a fraction or words ("1/6 IPC", "nearly twice"): significant digits
        if d is None or bound or r.status == INPUT:
            places = (
                significant_places(r.computed, 3),
                significant_places(r.difference, 2),
                significant_places(r.tolerance, 2),
            )
        else:  # a tolerance of the row's own (e.g. a printed step) is shown exactly
            places = (d, d + 1, max(d + 1, _exact_places(r.tolerance)))
        if r.status == INPUT:  # taken in, not computed
            shown = ("taken in", "", "")
        elif bound:  # a claim: holds when the computed value is on the printed side
            side = "above" if bound == ">" else "below"
            shown = (
                number(r.computed, places[0]),
                number(r.difference, places[1], signed=True),
                f"holds {side} {r.printed:g}",
            )
        else:
            shown = (
                number(r.computed, places[0]),
                number(r.difference, places[1], signed=True),
                "±" + number(r.tolerance, places[2]),
            )
        rows.append(
            {
                "key": r.key,
                "status": r.status,
                "quantity (unit)": f"{r.quantity} ({r.unit})" if r.unit else r.quantity,
                "printed": r.printed_text,
                "computed": shown[0],
                "difference": shown[1],
                "tolerance": shown[2],
            }
        )

    out = pd.DataFrame(rows, columns=["key", *COMPACT_COLUMNS]).set_index("key")
    if note:  # the reason takes the room of the difference and the tolerance
        out = out.drop(columns=["difference", "tolerance"])
        out["note"] = list(board["note"])
    for name, values in (extra or {}).items():
        try:
            values = list(values)
        except TypeError:
            raise InputTypeError(
                f"extra[{name!r}] must be a sequence of values, one per row, got "
                f"{type(values).__name__}"
            ) from None
        if len(values) != len(out):
            raise ValueError(
                f"extra column {name!r} must have one value per row ({len(out)}), got "
                f"{len(values)}"
            )
        out[name] = values
    return Table(out)


def notes_markdown(board) -> str:
    """The notes of a :func:`~gpumodels.scoreboard.table` table as a Markdown list, one
    item per row that has a note (the key as code, its status, the note), in the table's
    order; an
    empty string when no row has one. Shown under a :func:`compact` table, so that the
    reasons read as sentences rather than in a narrow column."""
    _check_board("board", board, ("key", "status", "note"))
    items = [
        f"* `{r.key}` ({r.status}): {_markdown_text(r.note)}"
        for r in board.itertuples()
        if r.note.strip()
    ]
    return "\n".join(items)


def _markdown_text(text: str) -> str:
    """``text`` with the characters Markdown would read as markup escaped."""
    out = text.strip()
    for ch in ("\\", "*", "_", "`", "[", "]", "<", ">", "|", "#"):
        out = out.replace(ch, "\\" + ch)
    return out

