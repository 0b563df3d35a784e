"""Coalescing of global loads on compute capability 1.x: Hong & Kim's Algorithms 1 and
2.

The paper's appendix decides statically, from a load's index expression, whether the
accesses of a warp coalesce (Algorithm 1, compute capability < 1.3) and how many
transactions of which size they need (Algorithm 2, compute capability ≥ 1.3). Both look
at three things: the element size, the derivative of the index with respect to ``tx``
and whether the index at the first thread of every half-warp (``tx = 16 t``) is a
multiple of 16.

For checking them, :func:`guide_transactions` applies the rules of the CUDA C
Programming Guide (versions 2.x-3.0, section "Coalesced Access to Global Memory",
compute capabilities 1.0/1.1 and 1.2/1.3) to the byte addresses of one half-warp. The
two algorithms are a static summary of those rules. Where they differ the tests and the
book say so: Algorithm 2 counts one extra transaction for every misaligned pattern, does
not cap the count at one per thread, and for 1-, 2- and 4-byte elements its alignment
test (index a multiple of 16) is weaker than alignment to the 32-, 64- or 128-byte
segment, so a half-warp that starts in the middle of a segment can need one transaction
more than it counts.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpumodels.ground.errors import InputTypeError
from gpumodels.ground.validate import check_flag, check_int, check_items

HALF_WARP = 16
"""Threads whose accesses cc 1.x coalesces together."""


def index_terms(index: Callable[[int], int], threads: int) -> tuple[int, bool]:
    """The inputs of Algorithms 1 and 2 for an index expression ``index(tx)``.

    Returns ``(derivative, aligned)``: the increment of ``index`` per thread (it must be
    the same for every ``tx < threads``, i.e. the index is affine in ``tx``) and whether
    the index at every half-warp start ``tx = 16 t < threads`` is a multiple of 16
    (STEP3 of both algorithms).

    >>> index_terms(lambda tx: 5 * 64 + tx, 128)      # e.g. a + wM*ty + tx with a = 320
    (1, True)
    >>> index_terms(lambda tx: 7 + 2 * tx, 64)
    (2, False)
    """
    threads = check_int("threads", threads, 2, 1024)
    if not callable(index):
        raise InputTypeError(
            "index must be a function of the thread index tx, got "
            f"{type(index).__name__} {index!r:.40}"
        )
    vals = [int(index(tx)) for tx in range(threads)]
    steps = {b - a for a, b in itertools.pairwise(vals)}
    if len(steps) != 1:
        raise ValueError(
            "index must be affine in tx (a constant increment per thread), got "
            f"increments {sorted(steps)}"
        )
    aligned = all(vals[tx] % HALF_WARP == 0 for tx in range(0, threads, HALF_WARP))
    return steps.pop(), aligned


def _check(derivative: int, element_size: int) -> tuple[int, int]:
    d = check_int("derivative", derivative, 0)
    s = check_int("element_size", element_size, 1, 16)
    if s not in (1, 2, 4, 8, 16):
        raise ValueError(f"element_size must be 1, 2, 4, 8 or 16 bytes, got {s}")
    return d, s


def coalesced_cc1x(derivative: int, aligned: bool, element_size: int = 4) -> bool:
    """Algorithm 1 (compute capability < 1.3): is the load coalesced?

    STEP1: the element is 4, 8 or 16 bytes; STEP2: ``d Index / d tx == 1``; STEP3: the
    index at every half-warp start is a multiple of 16 (``aligned``). Coalesced if all
    three hold; otherwise every thread's access is a separate transaction (32 per warp,
    Table 3).

    >>> [coalesced_cc1x(d, a, 4) for d, a in ((1, True), (1, False), (2, True))]
    [True, False, False]
    """
    d, s = _check(derivative, element_size)
    aligned = check_flag("aligned", aligned)
    return s in (4, 8, 16) and d == 1 and aligned


@dataclass(frozen=True)
class Transactions:
    """Algorithm 2's output for one half-warp: ``count`` transactions of ``size`` bytes.

    ``per_warp`` doubles the count: a warp is two half-warps on compute capability 1.x,
    and Hong & Kim's ``#Uncoal_per_mw`` counts transactions per warp.
    """

    count: int
    size: int

    def __post_init__(self):
        check_int("count", self.count, 0, context="Transactions")
        check_int("size", self.size, 1, context="Transactions")

    @property
    def per_warp(self) -> int:
        return 2 * self.count


def transactions_cc13(
    derivative: int, aligned: bool, element_size: int = 4
) -> Transactions:
    """Algorithm 2 (compute capability ≥ 1.3): number and size of a half-warp's
    transactions.

    STEP2 adds one transaction if some half-warp start is not a multiple of 16; STEP3
    picks the segment (32 B for 1-byte, 64 B for 2-byte, 128 B for 4-, 8- and 16-byte
    elements); STEP4 adds ``ceil(derivative × 16 × element_size / segment)``. Defined
    for increasing indices (``derivative ≥ 1``): for a broadcast (derivative 0) the
    printed formula would give zero transactions.

    >>> transactions_cc13(1, True), transactions_cc13(1, False)
    (Transactions(count=1, size=128), Transactions(count=2, size=128))
    >>> transactions_cc13(32, True)
    Transactions(count=16, size=128)
    """
    d, s = _check(derivative, element_size)
    aligned = check_flag("aligned", aligned)
    if d == 0:
        raise ValueError(
            "derivative must be an integer >= 1 for Algorithm 2 (a broadcast, "
            "derivative 0, "
            "would get zero transactions from the printed formula)"
        )
    size = {1: 32, 2: 64}.get(s, 128)
    n = (0 if aligned else 1) + math.ceil(d * HALF_WARP * s / size)
    return Transactions(n, size)


def guide_transactions(
    addresses: Sequence[int | None], element_size: int, cc: str
) -> list[tuple[int, int]]:
    """The CUDA Programming Guide's coalescing rules for one half-warp: ``[(start,
    bytes), ...]``.

    ``addresses`` are the 16 threads' byte addresses (``None`` for a thread that does
    not load). ``cc`` is ``"1.0"``, ``"1.1"``, ``"1.2"`` or ``"1.3"``.

    * cc 1.0/1.1: the half-warp coalesces into one 64-byte (4-byte words), one 128-byte
      (8-byte) or two 128-byte (16-byte) transactions if thread k accesses word k of a
      segment aligned to 16 words; otherwise each loading thread gets its own
      transaction (32 bytes here, the minimum transaction size).
    * cc 1.2/1.3: take the lowest-numbered thread still waiting, its segment (32 B for
      1-byte, 64 B for 2-byte, 128 B for larger words), serve every waiting thread in
      that segment, halve the transaction while only one half of it is used (down to 32
      B); repeat.

    >>> guide_transactions([4 * k for k in range(16)], 4, "1.0")
    [(0, 64)]
    >>> guide_transactions([4 + 4 * k for k in range(16)], 4, "1.3")  # misaligned
    [(0, 128)]
    """
    s = check_int("element_size", element_size, 1, 16)
    addresses = check_items(
        "addresses", addresses, context=f"the {HALF_WARP} threads of a half-warp"
    )
    if len(addresses) != HALF_WARP:
        raise ValueError(
            f"addresses must list the {HALF_WARP} threads of a half-warp, got "
            f"{len(addresses)}"
        )
    active = [(k, int(a)) for k, a in enumerate(addresses) if a is not None]
    for _, a in active:
        if a < 0 or a % s:
            raise ValueError(
                f"addresses must be non-negative multiples of element_size ({s}), got "
                f"{a}"
            )
    if cc in ("1.0", "1.1"):
        if s in (4, 8, 16) and active:
            span = HALF_WARP * s
            base = active[0][1] - active[0][0] * s
            if base % span == 0 and all(a == base + k * s for k, a in active):
                if s == 16:
                    return [(base, 128), (base + 128, 128)]
                return [(base, span)]
        return [(a - a % 32, 32) for _, a in active]
    if cc not in ("1.2", "1.3"):
        raise ValueError(f"cc must be '1.0', '1.1', '1.2' or '1.3', got {cc!r}")
    seg = {1: 32, 2: 64}.get(s, 128)
    waiting = list(active)
    out = []
    while waiting:
        start = waiting[0][1] - waiting[0][1] % seg
        served = [(k, a) for k, a in waiting if start <= a < start + seg]
        lo = min(a for _, a in served)
        hi = max(a + s for _, a in served)
        size = seg
        while size > 32:
            half = size // 2
            if hi <= start + half:
                size = half
            elif lo >= start + half:
                start, size = start + half, half
            else:
                break
        out.append((start, size))
        waiting = [w for w in waiting if w not in served]
    return out
