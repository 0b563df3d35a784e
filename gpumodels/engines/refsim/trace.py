"""Issued-instruction rules of Huang & Li (2017) §III-B: addressing modes and replays
(1)–(4).

*Addressing* (:func:`addressing_instructions`): the instructions that turn an element
index into an address. The paper prints 2, 0, 1, 1 for a 1D float in global, 1D texture,
constant and shared memory (Fig. 2); the other types and the 2D texture are the book's
reading, in ``data/huang_li/addressing.csv`` with the reasoning per row.

*Replays* of the four memory-related causes, one warp-level memory instruction at a
time:

1. global address divergence (:func:`global_replays`): the printed rule "total words of
   the warp divided by the transaction size, minus 1" (``rule="printed"``, the model's
   default), or the distinct transaction-sized segments touched minus 1
   (``rule="segments"``, the book's labelled reading of "address divergence" [A6]);
2. constant-cache misses: one replay per missing line (counted by the cache model);
3. constant address divergence (:func:`constant_divergence_replays`): distinct addresses
   − 1;
4. shared-memory bank conflicts (:func:`shared_conflict_replays`): the most distinct
   words any bank must serve, minus 1 (threads reading one word share it: a broadcast).

Every rule has a batch form over a ``(warps, 32)`` array of byte addresses, where a
negative address marks an inactive lane.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from gpumodels.ground._jit import njit
from gpumodels.ground.data import read_rows
from gpumodels.ground.validate import check_choice, check_int

SPACES = ("G", "T", "2T", "C", "S")
"""The memory spaces (global, 1D texture, 2D texture, constant, shared) by Table IV's
letters."""

OFF_CHIP = ("G", "T", "2T", "C")
READ_ONLY = ("T", "2T", "C")

DTYPE_BYTES = {
    "float": 4,
    "int": 4,
    "double": 8,
    "float2": 8,
    "float4": 16,
    "int2": 8,
    "int4": 16,
}
"""Element sizes. Vector types take the addressing counts of their scalar (``float4`` as
``float``)."""

_BASE_DTYPE = {
    "float": "float",
    "int": "int",
    "double": "double",
    "float2": "float",
    "float4": "float",
    "int2": "int",
    "int4": "int",
}

RULES = ("printed", "segments")


def check_space(space: str) -> str:
    """``space`` if it is one of :data:`SPACES`; ``ValueError`` otherwise."""
    return check_choice("space", space, SPACES)


def check_dtype(dtype: str) -> str:
    return check_choice("dtype", dtype, tuple(DTYPE_BYTES))


@cache
def _addressing() -> dict[tuple[str, str], dict[str, str]]:
    return {(r["space"], r["dtype"]): r for r in read_rows("huang_li/addressing.csv")}


def addressing_instructions(space: str, dtype: str = "float") -> int:
    """Instructions that compute the address of one array element in ``space`` (§III-B).

    The paper prints 2, 0, 1, 1 for G, T, C and S; the counts for 2T and for
    double-precision C are the book's reading:

    >>> [addressing_instructions(s) for s in ("G", "T", "C", "S")]
    [2, 0, 1, 1]
    >>> addressing_instructions("2T"), addressing_instructions("C", "double")
    (2, 1)
    """
    row = _addressing()[(check_space(space), _BASE_DTYPE[check_dtype(dtype)])]
    return int(row["instructions"])


def addressing_table():
    """``data/huang_li/addressing.csv`` as a DataFrame: count, printed or the book's
    reading, and why."""

    return pd.DataFrame(read_rows("huang_li/addressing.csv"))


# --------------------------------------------------------------------------------------
# replay rules


def _warps(addresses, name: str = "addresses") -> np.ndarray:
    a = np.asarray(addresses)
    if a.dtype == bool or not (
        np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)
    ):
        raise ValueError(
            f"{name} must hold integer byte addresses (negative = inactive lane), got "
            f"dtype {a.dtype}"
        )
    if np.issubdtype(a.dtype, np.floating):
        if not np.all(np.isfinite(a)) or np.any(a != np.round(a)):
            raise ValueError(
                f"{name} must hold integer byte addresses (negative = inactive lane)"
            )
        a = a.astype(np.int64)
    a = a.astype(np.int64, copy=False)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2 or a.shape[1] == 0 or a.shape[1] > 32:
        raise ValueError(
            f"{name} must be one warp's addresses (1 to 32 lanes) or a (warps, lanes) "
            f"array, got shape {a.shape}"
        )
    return a


def _word_bytes(word_bytes, rows: int) -> np.ndarray:
    """``word_bytes`` (one size, or one per row) as a ``(rows, 1)`` integer column, each
    in [1, 64]."""
    if np.ndim(word_bytes) == 0:
        return np.full(
            (rows, 1), check_int("word_bytes", word_bytes, 1, 64), dtype=np.int64
        )
    wb = np.asarray(word_bytes)
    if (
        wb.shape != (rows,)
        or not np.issubdtype(wb.dtype, np.integer)
        or (rows and (wb.min() < 1 or wb.max() > 64))
    ):
        raise ValueError(
            "word_bytes must be an integer in [1, 64] or one such integer per row "
            f"({rows}), got {wb!r}"
        )
    return wb.astype(np.int64)[:, None]


def global_replays_batch(
    addresses, word_bytes: int, transaction_bytes: int, rule: str = "printed"
) -> np.ndarray:
    """Replays of cause (1) for each row (warp instruction) of a ``(warps, lanes)``
    address array.

    ``word_bytes`` is one size for every row or one per row."""
    a = _warps(addresses)
    wb = _word_bytes(word_bytes, a.shape[0])
    tb = check_int("transaction_bytes", transaction_bytes, 1, 4096)
    check_choice("rule", rule, RULES)
    if rule == "printed":
        words = (a >= 0).sum(axis=1)
        return np.maximum(-(-(words * wb[:, 0]) // tb) - 1, 0)
    # the distinct segments each row touches, counting each access's first and last
    # segment (one wider than two segments skips the middle ones, as the numpy form
    # this replaced did)
    return np.maximum(lines_per_row(a, tb, wb[:, 0]) - 1, 0)


def global_replays(
    addresses, word_bytes: int = 4, transaction_bytes: int = 128, rule: str = "printed"
) -> int:
    """Replays of one warp's global load or store, cause (1) of §III-B.

    ``addresses`` are the warp's byte addresses (up to 32; a negative one marks an
    inactive lane). ``rule="printed"``: ``ceil(active lanes × word_bytes /
    transaction_bytes) − 1``, the paper's words-per-transaction rule (at least 0).
    ``rule="segments"``: distinct ``transaction_bytes`` segments touched − 1 (each
    lane's first and last segment; a word wider than two segments, which no kernel of
    the book has, counts only those two).

    >>> stride32 = [32 * 4 * i for i in range(32)]  # one float per 128-B segment
    >>> global_replays(stride32), global_replays(stride32, rule="segments")
    (0, 31)
    >>> global_replays([8 * i for i in range(32)], word_bytes=8)  # 256 B of doubles
    1
    """
    return int(global_replays_batch(addresses, word_bytes, transaction_bytes, rule)[0])


@njit(cache=True)
def _conflicts(
    a, nb, bb
):  # pragma: no cover - compiled; tested against brute force via the public function
    """Per row: the active lanes' words sorted (insertion sort: rows are short and
    mostly in order), each distinct word counted once in its bank; replays = the
    busiest bank's count − 1."""
    out = np.zeros(a.shape[0], dtype=np.int64)
    ways = np.zeros(nb, dtype=np.int64)
    words = np.empty(a.shape[1], dtype=np.int64)
    for r in range(a.shape[0]):
        n = 0
        for i in range(a.shape[1]):
            if a[r, i] >= 0:
                w = a[r, i] // bb
                j = n - 1
                while j >= 0 and words[j] > w:
                    words[j + 1] = words[j]
                    j -= 1
                words[j + 1] = w
                n += 1
        worst = 0
        for i in range(n):
            if i > 0 and words[i] == words[i - 1]:
                continue
            b = words[i] % nb
            ways[b] += 1
            worst = max(worst, ways[b])
        for i in range(n):
            ways[words[i] % nb] = 0
        out[r] = max(worst - 1, 0)
    return out


def shared_conflict_replays_batch(
    addresses, banks: int = 32, bank_bytes: int = 4
) -> np.ndarray:
    """Replays of cause (4) for each row of a ``(warps, lanes)`` address array."""
    a = _warps(addresses)
    nb = check_int("banks", banks, 1, 1024)
    bb = check_int("bank_bytes", bank_bytes, 1, 64)
    return _conflicts(np.ascontiguousarray(a), nb, bb)


def shared_conflict_replays(addresses, banks: int = 32, bank_bytes: int = 4) -> int:
    """Replays of one warp's shared-memory access from bank conflicts, cause (4) of
    §III-B.

    The bank of a byte address is ``(address // bank_bytes) % banks``; the access needs
    as many passes as the largest number of *distinct* words any one bank must deliver,
    so the replays are that maximum minus 1. Lanes reading the same word do not conflict
    (broadcast).

    A unit stride is conflict-free, a stride of 2 words a 2-way conflict, and lanes that
    all read one word get it by broadcast:

    >>> shared_conflict_replays([4 * i for i in range(32)])
    0
    >>> shared_conflict_replays([8 * i for i in range(32)])
    1
    >>> shared_conflict_replays([0] * 32)
    0
    """
    return int(shared_conflict_replays_batch(addresses, banks, bank_bytes)[0])


def constant_divergence_replays_batch(addresses) -> np.ndarray:
    """Replays of cause (3) per row: distinct addresses among the active lanes − 1 (the
    book's reading)."""
    # distinct addresses: the distinct 1-byte lines of 1-byte words
    return np.maximum(lines_per_row(addresses, 1, 1) - 1, 0)


def constant_divergence_replays(addresses) -> int:
    """Replays of one indexed constant load from address divergence, cause (3): distinct
    addresses − 1.

    >>> constant_divergence_replays([64] * 32)
    0
    >>> constant_divergence_replays([4 * i for i in range(32)])
    31
    """
    return int(constant_divergence_replays_batch(addresses)[0])


@njit(cache=True)
def _row_lines(a, r, lb, wb, buf):  # pragma: no cover - compiled
    """The distinct ``lb``-byte lines of row ``r`` into ``buf``, ascending (insertion
    sort: rows are short and mostly in order); returns how many. Each active lane
    (``a >= 0``) reads ``wb`` bytes: its first line and, if it crosses, its last."""
    n = 0
    for i in range(a.shape[1]):
        x = a[r, i]
        if x < 0:
            continue
        first = x // lb
        last = (x + wb - 1) // lb
        for v in (first, last):
            j = n - 1
            while j >= 0 and buf[j] > v:
                j -= 1
            if j >= 0 and buf[j] == v:
                continue
            for m in range(n, j + 1, -1):
                buf[m] = buf[m - 1]
            buf[j + 1] = v
            n += 1
    return n


@njit(cache=True)
def _lines_per_row(a, lb, wb):  # pragma: no cover - compiled; tested via the caller
    """Per row of ``a``, how many distinct lines it touches (:func:`_row_lines`)."""
    out = np.empty(a.shape[0], dtype=np.int64)
    buf = np.empty(2 * a.shape[1], dtype=np.int64)
    for r in range(a.shape[0]):
        out[r] = _row_lines(a, r, lb, wb[r], buf)
    return out


@njit(cache=True)
def _distinct_lines(a, lb, wb):  # pragma: no cover - compiled; tested via the caller
    """Per row of ``a``, its distinct lines (:func:`_row_lines`): ``(row index, line
    index)`` pairs in row order, lines ascending within a row (two passes: count with
    :func:`_lines_per_row`, then fill)."""
    buf = np.empty(2 * a.shape[1], dtype=np.int64)
    total = _lines_per_row(a, lb, wb).sum()
    rows = np.empty(total, dtype=np.int64)
    out = np.empty(total, dtype=np.int64)
    k = 0
    for r in range(a.shape[0]):
        n = _row_lines(a, r, lb, wb[r], buf)
        for i in range(n):
            rows[k] = r
            out[k] = buf[i]
            k += 1
    return rows, out


def _lines_args(addresses, line_bytes, word_bytes):
    """The checked arguments of :func:`distinct_lines_batch` and :func:`lines_per_row`
    as the compiled functions take them."""
    a = _warps(addresses)
    lb = check_int("line_bytes", line_bytes, 1, 1 << 20)
    wb = _word_bytes(word_bytes, a.shape[0])[:, 0]
    return np.ascontiguousarray(a, dtype=np.int64), lb, wb


def distinct_lines_batch(
    addresses, line_bytes: int, word_bytes=4
) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``line_bytes`` lines each row touches: ``(row index, line address)``
    pairs, in row order, lines ascending within a row.

    ``word_bytes`` (one size, or one per row) is what each lane reads from its address:
    a lane touches its first line and, if its word crosses into the next, that one.
    """
    a, lb, wb = _lines_args(addresses, line_bytes, word_bytes)
    rows, lines = _distinct_lines(a, lb, wb)
    return rows, lines * lb


def lines_per_row(addresses, line_bytes: int, word_bytes=4) -> np.ndarray:
    """How many distinct ``line_bytes`` lines each row touches (the count per row of
    :func:`distinct_lines_batch`; a row with no active lane touches none).

    >>> lines_per_row([[0, 4, 124, -1], [0, 128, 256, -1]], 128).tolist()
    [1, 3]
    """
    return _lines_per_row(*_lines_args(addresses, line_bytes, word_bytes))
