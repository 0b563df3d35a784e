"""Volkov (2016), chapter 5: the experimental setup, as functions.

Three pieces of the dissertation's method are needed both by the book and by the CUDA
microbenchmarks in ``bench/``:

* **Occupancy tracking** (§5.5–5.6). Every warp records its start and end clock and the
  SM it ran on. Per SM, the sorted start/end events give the occupancy at every moment;
  the span from the first to the last timestamp is that SM's execution time, and the
  longest span is the kernel's time. Warp latency is end − start.
* **Occupancy control** (§5.7). Occupancy is capped by allocating shared memory; the
  allocation granularity decides which caps are reachable.
* **The pointer-chase arrays** (§5.10, §6.3, §6.7). Streaming access: entry ``i`` holds
  ``i + N`` (``N`` threads per block), thread ``i`` of block ``j`` starts at entry ``i +
  j·spacing``; each block sweeps its own contiguous section once. With ILP = k each
  thread follows k interleaved chains. Unstructured access: one pseudo-random loop
  through every entry.

>>> from gpumodels.papers.volkov import experiment as ex
>>> t = ex.occupancy_trace([0, 0, 5], [10, 4, 12])    # three warps on one SM
>>> t.time.tolist(), t.warps.tolist()
([0.0, 4.0, 5.0, 10.0, 12.0], [2, 1, 2, 1, 0])
>>> s = ex.streaming_chase(n_entries=4096, threads_per_block=64, blocks=4)
>>> int(s.next[0]), int(s.starts[1, 0]), s.spacing, s.iterations
(64, 1024, 1024, 16)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from gpumodels.engines import sim
from gpumodels.facts import occupancy as _occ
from gpumodels.facts.param_sets import params
from gpumodels.ground.validate import (
    check_int,
    check_mapping,
    check_numbers,
    check_real,
    check_type,
)

SPACING_ALIGN = 32
"""Block start offsets are multiples of this many entries (§5.10: "aligned to multiples
of 32")."""

MAX_CHASE_ENTRIES = 1 << 26
"""The largest pointer-chase array :func:`streaming_chase` and :func:`random_chase`
build (64 Mi entries, 256 MiB of 4-byte entries on the GPU), and the most threads
:func:`random_chase` starts: their arrays, and the shuffle's loop, scale with it."""

MAX_PROGRAM_OPS = 100_000
"""The longest program per warp :func:`phases_run` (ops per α-group × ``iterations``)
and :func:`imbalance_run` (``instructions``) simulate."""


# ---------------------------------------------------------------- occupancy tracking
# (§5.5–5.6)


def _timestamps(start, end, sm):
    try:
        s = np.asarray(start, dtype=float).ravel()
        e = np.asarray(end, dtype=float).ravel()
        if s.dtype.kind == "b" or e.dtype.kind == "b":
            raise TypeError
    except (TypeError, ValueError, OverflowError):
        raise ValueError(
            "start and end must be arrays of numbers (finite clock cycles >= 0), got "
            f"start={start!r:.40} and end={end!r:.40}"
        ) from None
    if s.size == 0 or s.shape != e.shape:
        raise ValueError(
            f"start and end must be non-empty and of equal length, got {s.size} and "
            f"{e.size}"
        )
    if not (np.all(np.isfinite(s)) and np.all(np.isfinite(e))):
        raise ValueError("start and end must be finite clock values")
    if np.any(s < 0):
        raise ValueError(
            f"start must hold clock values >= 0, got {s[np.argmax(s < 0)]}"
        )
    if np.any(e < s):
        k = int(np.argmax(e < s))
        raise ValueError(
            f"end must be >= start for every warp; warp {k} has start {s[k]} and end "
            f"{e[k]}"
        )
    if sm is None:
        ids = np.zeros(s.size, dtype=int)
    else:
        ids = np.asarray(sm).ravel()
        if (
            ids.dtype.kind not in "iuf"
            or not np.all(np.isfinite(ids))
            or np.any(ids < 0)
            or np.any(ids != np.round(ids))
        ):
            raise ValueError(
                f"sm must be whole SM ids >= 0, one per warp, got {sm!r:.60}"
            )
        if ids.shape != s.shape:
            raise ValueError(
                f"sm must give one SM id per warp ({s.size}), got {ids.size}"
            )
    return s, e, ids


@dataclass(frozen=True)
class OccupancyTrace:
    """Resident warps on one SM as a step function: ``warps[k]`` holds from ``time[k]``
    to ``time[k+1]``."""

    time: np.ndarray
    warps: np.ndarray

    def __post_init__(self):
        check_numbers("time", self.time, None, "OccupancyTrace")
        check_numbers("warps", self.warps, 0, "OccupancyTrace")
        if self.time.shape != self.warps.shape:
            raise ValueError(
                "time and warps must have the same shape for OccupancyTrace, got "
                f"{self.time.shape} and {self.warps.shape}"
            )

    def at(self, t) -> np.ndarray:
        """Occupancy (warps) at time(s) ``t``;
        0 before the first and after the last event."""
        t = np.asarray(t, dtype=float)
        k = np.searchsorted(self.time, t, side="right") - 1
        return np.where(k >= 0, self.warps[np.clip(k, 0, None)], 0)

    @property
    def max(self) -> int:
        """The largest occupancy attained (the value Volkov plots on the horizontal
        axis, §5.7)."""
        return int(self.warps.max())

    @property
    def mean(self) -> float:
        """Time-averaged occupancy between the first and the last event."""
        dt = np.diff(self.time)
        return (
            float(np.sum(self.warps[:-1] * dt) / dt.sum())
            if dt.sum() > 0
            else float(self.warps.max())
        )

    def fraction_below(self, warps: float) -> float:
        """Share of the SM's execution time during which
        fewer than ``warps`` warps were resident."""
        dt = np.diff(self.time)
        return (
            float(np.sum(dt[self.warps[:-1] < warps]) / dt.sum())
            if dt.sum() > 0
            else 0.0
        )


def occupancy_trace(start, end) -> OccupancyTrace:
    """§5.6: sort the start and end timestamps of the warps of *one* SM and count
    resident warps.

    Ends sort before starts at equal times, so a warp that replaces a finished one at
    the same clock does not count twice.
    """
    s, e, _ = _timestamps(start, end, None)
    t = np.concatenate([e, s])
    step = np.concatenate([-np.ones(e.size, dtype=int), np.ones(s.size, dtype=int)])
    order = np.lexsort((step, t))  # by time, then ends (-1) before starts (+1)
    t, step = t[order], step[order]
    level = np.cumsum(step)
    # keep the level after the last event at each time
    last = np.r_[t[1:] != t[:-1], True]
    return OccupancyTrace(time=t[last], warps=level[last])


@dataclass(frozen=True)
class Timing:
    """What Volkov extracts from one run's timestamps (§5.5–5.6), per SM and in total.

    ``time`` is the longest per-SM span (clocks of different SMs are not compared);
    ``mean_warp_latency`` the mean of end − start; ``max_occupancy`` the smallest, over
    SMs, of the largest occupancy attained on each SM (a target occupancy counts as
    attained only if every SM reached it); ``throughput`` the repeated instructions per
    cycle per SM, if the instruction count per warp was given.
    """

    sm: np.ndarray
    span: np.ndarray
    max_occupancy_per_sm: np.ndarray
    time: float
    mean_warp_latency: float
    max_occupancy: int
    warps: int
    throughput: float | None
    traces: dict

    def __post_init__(self):
        ctx = "Timing"
        check_numbers("sm", self.sm, 0, ctx)
        check_numbers("span", self.span, 0, ctx)
        check_numbers("max_occupancy_per_sm", self.max_occupancy_per_sm, 0, ctx)
        check_real("time", self.time, 0.0, context=ctx)
        check_real("mean_warp_latency", self.mean_warp_latency, 0.0, context=ctx)
        check_int("max_occupancy", self.max_occupancy, 0, context=ctx)
        check_int("warps", self.warps, 1, context=ctx)
        if self.throughput is not None:
            check_real("throughput", self.throughput, 0.0, context=ctx)
        check_mapping("traces", self.traces, ctx)


def timing(start, end, sm=None, instructions_per_warp: int | None = None) -> Timing:
    """Per-SM spans, occupancy traces,
    mean warp latency and throughput from warp timestamps.

    ``start`` and ``end`` hold each warp's start and end clock (cycles of its own SM's
    clock), ``sm`` the SM each warp ran on (all on one SM if omitted), and
    ``instructions_per_warp`` the repeated instructions each warp executed; with it,
    ``throughput`` is in IPC per SM (instructions per cycle per SM, summed over warps
    and divided by ``time`` × SMs).
    """
    s, e, ids = _timestamps(start, end, sm)
    sms = np.unique(ids)
    spans, maxocc, traces = [], [], {}
    for k in sms:
        sel = ids == k
        tr = occupancy_trace(s[sel], e[sel])
        traces[k.item()] = tr
        spans.append(e[sel].max() - s[sel].min())
        maxocc.append(tr.max)
    time = float(max(spans))
    thr = None
    if instructions_per_warp is not None:
        n = check_int("instructions_per_warp", instructions_per_warp, 1)
        if time <= 0:
            raise ValueError(
                "throughput needs a positive execution time; every warp has end == "
                f"start, so instructions_per_warp={instructions_per_warp!r} gives no "
                "throughput"
            )
        thr = n * s.size / (time * sms.size)
    return Timing(
        sm=sms,
        span=np.array(spans),
        max_occupancy_per_sm=np.array(maxocc),
        time=time,
        mean_warp_latency=float(np.mean(e - s)),
        max_occupancy=int(min(maxocc)),
        warps=int(s.size),
        throughput=thr,
        traces=traces,
    )


# ---------------------------------------------------------------- occupancy control
# (§5.7)


def _at(cc, threads_per_block, smem, registers_per_thread, kernel_param_bytes):
    return _occ.occupancy(
        cc,
        threads_per_block,
        registers_per_thread,
        smem,
        kernel_param_bytes=kernel_param_bytes,
    )


def shared_memory_for_blocks(
    cc,
    threads_per_block: int,
    blocks: int,
    *,
    registers_per_thread: int = 0,
    kernel_param_bytes: int = 0,
) -> int | None:
    """The smallest shared-memory request (bytes per block) that caps residency at
    exactly ``blocks``.

    Uses :func:`gpumodels.facts.occupancy.occupancy` (allocation granularity and
    per-block overheads included). Returns ``None`` when no request gives exactly
    ``blocks`` blocks/SM -- e.g. 7 on G80/GT200 or 1 on Maxwell (§5.7).
    """
    lim = _occ.limits(cc)
    blocks = check_int(
        "blocks", blocks, 1, lim.max_blocks_per_sm, f"compute capability {lim.cc}"
    )

    def count(b):
        return _at(
            cc, threads_per_block, b, registers_per_thread, kernel_param_bytes
        ).blocks_per_sm

    lo, hi = 0, lim.max_shared_mem_per_block
    if count(lo) < blocks or count(hi) > blocks:
        return None
    # smallest request with count <= blocks (count never grows with the request)
    while lo < hi:
        mid = (lo + hi) // 2
        if count(mid) <= blocks:
            hi = mid
        else:
            lo = mid + 1
    return lo if count(lo) == blocks else None


def occupancy_control(
    cc,
    threads_per_block: int,
    *,
    registers_per_thread: int = 0,
    kernel_param_bytes: int = 0,
):
    """Every blocks/SM cap reachable by allocating shared memory, with the request that
    gives it.

    A DataFrame with ``blocks_per_sm, warps_per_sm, shared_mem_request, allocated``;
    caps that cannot be reached have ``shared_mem_request`` = ``None`` (<NA>).
    """

    opts = {
        "registers_per_thread": registers_per_thread,
        "kernel_param_bytes": kernel_param_bytes,
    }
    free = _at(cc, threads_per_block, 0, **opts)
    rows = []
    for b in range(1, free.blocks_per_sm + 1):
        req = shared_memory_for_blocks(cc, threads_per_block, b, **opts)
        alloc = (
            None
            if req is None
            else _at(cc, threads_per_block, req, **opts).allocated_shared_mem_per_block
        )
        rows.append(
            {
                "cc": free.cc,
                "blocks_per_sm": b,
                "warps_per_sm": b * free.warps_per_block,
                "shared_mem_request": req,
                "allocated": alloc,
            }
        )
    return pd.DataFrame(rows).astype(
        {"shared_mem_request": "Int64", "allocated": "Int64"}
    )


# ---------------------------------------------------------------- pointer chasing
# (§5.10, §6.3, §6.7)


@dataclass(frozen=True)
class Chase:
    """A pointer-chase setup: ``next[i]`` is the entry read after entry ``i`` (-1: never
    read), ``starts[b, t]`` the first entry of thread ``t`` of block ``b`` (chains of
    one thread are consecutive in the last axis when ``ilp`` > 1), ``iterations`` loads
    per chain."""

    next: np.ndarray
    starts: np.ndarray
    spacing: int
    iterations: int
    ilp: int

    def __post_init__(self):
        check_type("next", self.next, np.ndarray, "Chase")
        check_numbers("next", self.next, -1, "Chase")
        check_numbers("starts", self.starts, 0, "Chase")
        check_int("spacing", self.spacing, 0, context="Chase")
        check_int("iterations", self.iterations, 0, context="Chase")
        check_int("ilp", self.ilp, 1, context="Chase")

    def walk(self) -> np.ndarray:
        """Every entry each chain visits,
        shape ``starts.shape + (iterations,)`` -- for checks."""
        out = np.empty(self.starts.shape + (self.iterations,), dtype=np.int64)
        cur = self.starts.astype(np.int64)
        for k in range(self.iterations):
            out[..., k] = cur
            cur = self.next[cur]
        return out


def streaming_chase(
    n_entries: int,
    threads_per_block: int,
    blocks: int,
    *,
    ilp: int = 1,
    spacing: int | None = None,
    iterations: int | None = None,
) -> Chase:
    """§5.10's streaming setup (with §6.3's ILP variant): each block sweeps its own
    section once.

    Entry ``i`` holds ``i + ilp·N`` (``N = threads_per_block``); chain ``m`` of thread
    ``t`` in block ``j`` starts at ``j·spacing + m·N + t``, so a warp's 32 loads are 32
    consecutive entries (one coalesced access) and a block walks a contiguous section.
    ``spacing`` (default: the array split evenly, rounded down to a multiple of 32) must
    be a multiple of 32; ``iterations`` (default: as many as fit in ``spacing``) is
    capped so that sections never overlap and no entry is read twice.
    """
    n = check_int("n_entries", n_entries, 32, MAX_CHASE_ENTRIES)
    tpb = check_int("threads_per_block", threads_per_block, 1, 1024)
    nb = check_int("blocks", blocks, 1)
    k = check_int("ilp", ilp, 1, 64)
    stride = k * tpb
    if spacing is None:
        spacing = (n // nb) // SPACING_ALIGN * SPACING_ALIGN
    spacing = check_int("spacing", spacing, 1)
    if spacing % SPACING_ALIGN:
        raise ValueError(
            f"spacing must be a multiple of {SPACING_ALIGN} entries, got {spacing}"
        )
    fit = spacing // stride
    if fit < 1:
        raise ValueError(
            f"spacing ({spacing}) must hold at least one step of "
            f"ilp × threads_per_block = {stride} entries; "
            f"use fewer blocks or a larger array"
        )
    iterations = check_int(
        "iterations", fit if iterations is None else iterations, 1, fit
    )
    if nb * spacing > n:
        raise ValueError(f"blocks × spacing = {nb * spacing} exceeds n_entries = {n}")
    idx = np.arange(n, dtype=np.int64)
    nxt = np.where(idx + stride < n, idx + stride, -1)
    t = np.arange(tpb)
    m = np.arange(k)
    starts = (
        np.arange(nb)[:, None, None] * spacing
        + m[None, :, None] * tpb
        + t[None, None, :]
    )
    # thread-major: thread t's chains together
    starts = starts.transpose(0, 2, 1).reshape(nb, tpb * k)
    return Chase(next=nxt, starts=starts, spacing=spacing, iterations=iterations, ilp=k)


def random_chase(
    n_entries: int,
    threads: int,
    *,
    seed: int = 0,
    start_stride: int = 32,
    iterations: int | None = None,
) -> Chase:
    """§6.7's unstructured setup:
    one pseudo-random loop through all ``n_entries`` entries.

    The loop is a uniformly random cyclic permutation (Sattolo's algorithm, seeded), so
    every entry is read once per lap. Thread ``g`` starts at entry ``g·start_stride mod
    n`` -- ``start_stride`` ≥ 8 four-byte entries puts the 32 threads of a warp in 32
    different 32-byte segments, so even the first access of a warp is fully divergent.
    ``starts`` has shape ``(1, threads)``.
    """
    n = check_int("n_entries", n_entries, 2, MAX_CHASE_ENTRIES)
    g = check_int("threads", threads, 1, MAX_CHASE_ENTRIES)
    st = check_int("start_stride", start_stride, 1)
    seed = check_int("seed", seed, 0)
    it = n if iterations is None else check_int("iterations", iterations, 1)
    rng = np.random.default_rng(seed)
    perm = np.arange(n, dtype=np.int64)
    for i in range(n - 1, 0, -1):  # Sattolo: j < i gives a single n-cycle
        j = int(rng.integers(0, i))
        perm[i], perm[j] = perm[j], perm[i]
    return Chase(
        next=perm,
        starts=(np.arange(g, dtype=np.int64) * st % n)[None, :],
        spacing=st,
        iterations=it,
        ilp=1,
    )


# ---------------------------------------------------------------- simulated timestamps
# (Figs. 5.1, 5.2)


def imbalance_bound(
    n_warps, schedulers: int, latency: float, throughput_per_scheduler: float
) -> float:
    """Throughput (IPC/SM) of one block of ``n_warps`` identical, dependent-instruction
    warps spread round-robin over ``schedulers`` (§5.8, Fig. 5.2).

    Scheduler ``s`` holds ``k_s`` warps; each of its warps advances one instruction per
    ``max(latency, k_s / throughput_per_scheduler)`` cycles, and the block is done when
    the slowest scheduler is. With blocks replaced only as a whole, the SM sustains
    ``n_warps / max_s max(latency, k_s / throughput_per_scheduler)``: a jigsaw in
    ``n_warps`` (17 warps on 4 schedulers: 17/20 of the peak, as Volkov measured, 15%
    less).
    """
    n = check_int("n_warps", n_warps, 1)
    s = check_int("schedulers", schedulers, 1)
    lat = check_real("latency", latency, 0.0, lo_open=True)
    thr = check_real(
        "throughput_per_scheduler", throughput_per_scheduler, 0.0, lo_open=True
    )
    k_max = -(-n // s)
    return n / max(lat, k_max / thr)


def imbalance_run(
    n_warps: int,
    *,
    schedulers: int = 4,
    latency: float = 9,
    throughput_per_scheduler: float = 0.25,
    instructions: int = 100,
    blocks: int = 3,
):
    """Simulate Fig. 5.2's setting on :mod:`gpumodels.engines.sim`: blocks of
    ``n_warps`` warps, one block per SM, each warp ``instructions`` back-to-back
    dependent ops on its scheduler's own unit (Kepler SFU defaults: 9 cycles, 8
    ops/cycle/scheduler). Returns the simulated :class:`gpumodels.engines.sim.Trace`;
    its ``warp_start``/``warp_end`` are the timestamps."""

    n = check_int("n_warps", n_warps, 1, 1024)
    s = check_int("schedulers", schedulers, 1)
    latency = check_real("latency", latency, 0.0)
    throughput_per_scheduler = check_real(
        "throughput_per_scheduler", throughput_per_scheduler, 0.0, lo_open=True
    )
    units = {f"u{k}": sim.Unit(latency, throughput_per_scheduler) for k in range(s)}
    machine = sim.SM(units, schedulers=s, issue_per_scheduler=1)
    ins = check_int("instructions", instructions, 1, MAX_PROGRAM_OPS)
    progs = [[sim.Op(f"u{i % s}", "r", ("r",))] * ins for i in range(n)]
    return sim.simulate(
        machine,
        progs,
        n,
        None,
        repeat=False,
        total_warps=n * check_int("blocks", blocks, 1),
        warps_per_block=n,
        policy="round_robin",
    )


def phases_run(
    gpu: str = "Kepler",
    *,
    alpha: int = 0,
    warps_per_block: int = 4,
    iterations: int = 10,
    rounds: int = 14,
    policy: str = "oldest",
):
    """Simulate Fig. 5.1's setting: a full SM (``max_warps_per_sm`` warps in blocks of
    ``warps_per_block``) running the α-mix with contention-dependent memory latency
    (Table 6.5), oversubscribed ``rounds`` times. Returns the simulated Trace."""

    p = params(check_type("gpu", gpu, str))
    n = p.max_warps_per_sm
    group = sim.alpha_program(alpha)
    most = max(1, MAX_PROGRAM_OPS // len(group))
    prog = group * check_int("iterations", iterations, 1, most)
    return sim.simulate(
        sim.volkov_sm(p, contention=True),
        prog,
        n,
        None,
        repeat=False,
        total_warps=n * check_int("rounds", rounds, 1),
        warps_per_block=warps_per_block,
        policy=policy,
    )
