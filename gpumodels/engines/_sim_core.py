"""The compiled engine of :func:`gpumodels.engines.sim.simulate`
(``engine="compiled"``).

The Python engine of :mod:`gpumodels.engines.sim` is the readable reference; this one
applies the same rules, visits the same cycles, makes the same decisions in the same
order and does the same floating-point operations, so its traces are identical. Only
the bookkeeping differs, so that the time grows with the instructions issued and the
cycles visited, not with cycles × warps:

* a warp slot that cannot issue waits in a heap keyed by the first cycle at which its
  operands are ready and its ILP delay has passed (its *eligible* cycle, fixed until it
  issues); from that cycle on it sits in a bitset of its scheduler and of the unit of
  its next op (``fresh``), or of the queue of a unit with ``max_in_flight`` it has
  joined (``queued``);
* a scheduler's scan walks those bitsets in ``policy`` order, skipping units whose
  throughput backlog blocks them and queued warps whose examination could change
  nothing (not among the first ``free`` of the queue, no finished server to pop), so
  it examines only the warps the Python scan would act on;
* the next-event step reads the earliest future cycle a warp named (its ILP delay or
  its operands) from a heap of such cycles instead of scanning the slots;
* the recent issues of a unit with a :class:`~gpumodels.engines.sim.LoadedLatency`
  are kept as (cycle, count) runs; the occupancy as (first cycle, value) runs.

The state is numpy arrays grouped in the named tuples below, allocated by :func:`run`.
The loop (:func:`_loop`) allocates nothing, so it is compiled without reference
counting, with the steps of every issue inlined into it; when the growing arrays
(:data:`_Grow`: issue records, occupancy runs, the in-flight heaps, the recent-issue
rings) lack room for another cycle, it returns and :func:`run` grows them and calls it
again. Times beyond every run (huge latencies, delays) are clamped to ``_BIG``, which
compares the same against any cycle a run can reach. Tested against the Python engine
in ``tests/test_sim_compiled.py``.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from gpumodels.ground._jit import njit

_EPS = 1e-9
_BIG = 1 << 61  # later than any cycle a run reaches (sim.MAX_CYCLES)
# integer delays (ILP latency, issue cycles, launch latency) above this are all "after
# the run": clamped so that sums of them stay exact int64
_CLAMP = 1 << 40

# scalars of the run, in one int64 array ``sc``
N_ACTIVE, LAUNCHED, N_REF, REF_MIN, N_PEND, N_WAKE, N_REC, N_SEG, ERR, T, STARTED = (
    range(11)
)

_Cfg = namedtuple(
    "_Cfg",
    "S n ips ilp rr repeat skip_idle limit total wpb launch_latency window U R",
)
"""The run's integer settings: schedulers, warp slots, issues per scheduler and cycle
(0: unlimited), ILP latency, round-robin policy, repeat, skip idle cycles, the last
cycle, warps in the launch, warps per block, launch latency, latency window, units and
registers."""

_Units = namedtuple(
    "_Units",
    "has_thr inv_thr issue_cycles mif lat_kind lat_const la_a la_scale la_cap "
    "t_lo t_hi term_b term_c dep",
)
"""Per unit: whether it has a throughput and ``1.0 / throughput``, issue cycles, the
``max_in_flight`` cap (-1: none), the latency's kind (0 a number, 1 a LoadedLatency),
the number, LoadedLatency's ``a``, ``gbs_per_ipc`` and ``cap`` (inf: none) and the
slice of its ``(b, c)`` terms; ``dep[producer, consumer]`` (NaN: no override)."""

_Progs = namedtuple("_Progs", "slot_prog p_start p_len op_unit op_dst op_s0 op_s1 srcs")
"""The programs: each slot's program, each program's first op and length; per op its
unit, destination register (-1: none) and the slice of its source registers."""

_Warps = namedtuple(
    "_Warps", "slot_warp pc seq next_ok reg_t0 reg_u reg_lat reg_ok qpos"
)
"""Per slot: the warp in it (-1: empty), its next op, ops issued, earliest next issue,
per register the last write's issue cycle, unit and latency (``reg_ok``: written), and
its index in a unit's queue (-1: in none)."""

_Launch = namedtuple(
    "_Launch", "block_left ref_blk ref_when warp_start warp_end pend_key pend_slot wake"
)
"""Unfinished warps per block; the blocks waiting to be refilled and when, in the order
they finished; per launched warp its start and end (-1: not finished); the heap of
waiting slots by eligible cycle; the heap of cycles the waiting slots name."""

_Sched = namedtuple("_Sched", "busy rr_last fresh queued n_fresh n_queued cand")
"""Per scheduler: busy until (issue cycles), the slot (index within the scheduler) that
issued last, and per unit the bitsets of eligible slots not in the unit's queue and in
it, with their counts; ``cand`` is the scan's scratch space."""

_Unitst = namedtuple(
    "_Unitst", "free_at qarr qhead qtail qlive hsize rhead rsize rtotal"
)
"""Per unit: the end of its backlog; its first-come-first-served queue of slots (-1:
left) with head, tail and live count; the size of its in-flight heap; the head, size
and issue count of its recent-issue ring."""

_Grow = namedtuple("_Grow", "rw rs ru ri rr ot ov heap rt rn")
"""Arrays that grow: issue records (warp, seq, unit, issue, ready), occupancy runs
(first cycle, value), the in-flight heaps (one row per unit) and the recent-issue rings
(cycle, count; one row per unit)."""

_ONE = np.uint64(1)


# ---------------------------------------------------------------- small structures


@njit(cache=True)
def _ctz(word):
    """The number of trailing zero bits of a non-zero 64-bit word."""
    n = 0
    for half in (32, 16, 8, 4, 2, 1):
        low = (_ONE << np.uint64(half)) - _ONE
        if word & low == 0:
            n += half
            word >>= np.uint64(half)
    return n


@njit(cache=True)
def _next_bit(bits, lo, hi):
    """The first set bit in ``[lo, hi)`` of the bitset ``bits``, or -1."""
    if lo >= hi:
        return -1
    wi = lo >> 6
    word = bits[wi] & (np.uint64(0xFFFFFFFFFFFFFFFF) << np.uint64(lo & 63))
    while word == 0:
        wi += 1
        if wi << 6 >= hi:
            return -1
        word = bits[wi]
    k = (wi << 6) + _ctz(word)
    return k if k < hi else -1


@njit(cache=True)
def _set_bit(bits, k):
    bits[k >> 6] |= _ONE << np.uint64(k & 63)


@njit(cache=True)
def _clear_bit(bits, k):
    bits[k >> 6] &= ~(_ONE << np.uint64(k & 63))


@njit(cache=True)
def _ceil(x):
    """``ceil(x)`` as an int, clamped to ``_BIG``."""
    return _BIG if x >= _BIG else np.int64(math.ceil(x))


@njit(cache=True)
def _fpush(h, n, x):
    """Push float ``x`` on the min-heap ``h[:n]``; returns the new size."""
    i = n
    h[i] = x
    while i > 0:
        p = (i - 1) >> 1
        if h[p] <= h[i]:
            break
        h[p], h[i] = h[i], h[p]
        i = p
    return n + 1


@njit(cache=True)
def _fpop(h, n):
    """Drop the smallest of the min-heap ``h[:n]``; returns the new size."""
    n -= 1
    h[0] = h[n]
    i = 0
    while True:
        a = 2 * i + 1
        m = i
        if a < n and h[a] < h[m]:
            m = a
        if a + 1 < n and h[a + 1] < h[m]:
            m = a + 1
        if m == i:
            return n
        h[m], h[i] = h[i], h[m]
        i = m


@njit(cache=True)
def _kpush(key, val, n, k, v):
    """Push ``(k, v)`` on the min-heap (by key) ``key[:n]``, ``val[:n]``."""
    i = n
    key[i] = k
    val[i] = v
    while i > 0:
        p = (i - 1) >> 1
        if key[p] <= key[i]:
            break
        key[p], key[i] = key[i], key[p]
        val[p], val[i] = val[i], val[p]
        i = p
    return n + 1


@njit(cache=True)
def _kpop(key, val, n):
    """Drop the smallest of the keyed min-heap; returns the new size."""
    n -= 1
    key[0] = key[n]
    val[0] = val[n]
    i = 0
    while True:
        a = 2 * i + 1
        m = i
        if a < n and key[a] < key[m]:
            m = a
        if a + 1 < n and key[a + 1] < key[m]:
            m = a + 1
        if m == i:
            return n
        key[m], key[i] = key[i], key[m]
        val[m], val[i] = val[i], val[m]
        i = m


# ---------------------------------------------------------------- queues (rule 3)


@njit(cache=True, _nrt=False)
def _join(us, wp, u, i):
    """Slot ``i`` joins the end of unit ``u``'s queue."""
    cap = us.qarr.shape[1]
    if us.qtail[u] == cap:  # compact: live entries to the front, in order
        m = 0
        for j in range(us.qhead[u], cap):
            x = us.qarr[u, j]
            if x >= 0:
                us.qarr[u, m] = x
                wp.qpos[x] = m
                m += 1
        us.qhead[u] = 0
        us.qtail[u] = m
    us.qarr[u, us.qtail[u]] = i
    wp.qpos[i] = us.qtail[u]
    us.qtail[u] += 1
    us.qlive[u] += 1


@njit(cache=True, inline="always")
def _leave(us, wp, u, i):
    """Slot ``i`` leaves unit ``u``'s queue."""
    us.qarr[u, wp.qpos[i]] = -1
    wp.qpos[i] = -1
    us.qlive[u] -= 1
    while us.qhead[u] < us.qtail[u] and us.qarr[u, us.qhead[u]] < 0:
        us.qhead[u] += 1
    if us.qlive[u] == 0:
        us.qhead[u] = 0
        us.qtail[u] = 0


@njit(cache=True, _nrt=False)
def _among_first(us, u, i, free):
    """Whether slot ``i`` is among the first ``free`` of unit ``u``'s queue."""
    if free >= us.qlive[u]:
        return True
    seen = 0
    j = us.qhead[u]
    while seen < free:
        x = us.qarr[u, j]
        j += 1
        if x < 0:
            continue
        if x == i:
            return True
        seen += 1
    return False


@njit(cache=True, _nrt=False)
def _first_admissible(us, u, s, S, lo, hi, free):
    """The smallest index in ``[lo, hi)`` within scheduler ``s`` of a slot among the
    first ``free`` (fewer than the queue's length) of unit ``u``'s queue, or -1."""
    best = -1
    seen = 0
    j = us.qhead[u]
    while seen < free:
        x = us.qarr[u, j]
        j += 1
        if x < 0:
            continue
        seen += 1
        if x % S == s:
            k = x // S
            if lo <= k < hi and (best < 0 or k < best):
                best = k
    return best


@njit(cache=True, inline="always")
def _pop_done(us, g, u, t):
    """Results ready at ``t``: their servers are free (the Python engine's ``_admit``
    pops them whenever it examines a warp for the unit)."""
    n = us.hsize[u]
    h = g.heap[u]
    while n > 0 and h[0] <= t:
        n = _fpop(h, n)
    us.hsize[u] = n


# ---------------------------------------------------------------- issue (rules 1-5)


@njit(cache=True)
def _loaded(un, u, rate):
    """LoadedLatency: ``a + Σ b·X/(c − X)``, ``X = min(rate·gbs_per_ipc, cap)``."""
    x = rate * un.la_scale[u]
    x = min(x, un.la_cap[u])
    lat = un.la_a[u]
    for j in range(un.t_lo[u], un.t_hi[u]):
        c = un.term_c[j]
        if x >= c:
            return math.inf
        lat = lat + un.term_b[j] * x / (c - x)
    return lat


@njit(cache=True, inline="always")
def _latency(c, un, us, g, sc, err, u, t):
    """Latency of an op issued on ``u`` at ``t`` (rule 4); records the issue in the
    unit's recent-issue ring when its latency depends on it."""
    if un.lat_kind[u] == 0:
        return un.lat_const[u]
    cap = g.rt.shape[1]
    head, size, total = us.rhead[u], us.rsize[u], us.rtotal[u]
    while size > 0 and g.rt[u, head] < t - c.window:
        total -= g.rn[u, head]
        head = (head + 1) % cap
        size -= 1
    rate = total / c.window
    lat = _loaded(un, u, rate)
    last = (head + size - 1) % cap
    if size > 0 and g.rt[u, last] == t:
        g.rn[u, last] += 1
    else:
        last = (head + size) % cap
        g.rt[u, last] = t
        g.rn[u, last] = 1
        size += 1
    us.rhead[u], us.rsize[u], us.rtotal[u] = head, size, total + 1
    if not (math.isfinite(lat) and lat >= 0):
        if sc[ERR] == 0:
            sc[ERR] = 1
            err[0] = lat
            err[1] = rate
        return 0.0
    return lat


@njit(cache=True, inline="always")
def _ready_at(un, pr, wp, i, op):
    """The cycle at which every register ``op`` reads is ready (-inf: none in
    flight)."""
    ready = -math.inf
    v = pr.op_unit[op]
    for j in range(pr.op_s0[op], pr.op_s1[op]):
        r = pr.srcs[j]
        if wp.reg_ok[i, r]:
            d = un.dep[wp.reg_u[i, r], v]
            lat = wp.reg_lat[i, r] if math.isnan(d) else d
            ready = max(ready, wp.reg_t0[i, r] + lat)
    return ready


@njit(cache=True, inline="always")
def _park(un, pr, wp, ln, sc, i, t):
    """Slot ``i`` issued at ``t`` and has another op: it waits until its eligible
    cycle; the cycles it names go on the next-event heap."""
    op = pr.p_start[pr.slot_prog[i]] + wp.pc[i]
    ready = _ready_at(un, pr, wp, i, op)
    nxt = wp.next_ok[i]
    e = nxt
    if ready > t:
        r = _ceil(ready)
        e = max(e, r)
        sc[N_WAKE] = _fpush(ln.wake, sc[N_WAKE], r)
    sc[N_WAKE] = _fpush(ln.wake, sc[N_WAKE], nxt)
    sc[N_PEND] = _kpush(ln.pend_key, ln.pend_slot, sc[N_PEND], e, i)


@njit(cache=True, _nrt=False)
def _finish(c, wp, ln, sc, i, t):
    """The warp in slot ``i`` issued its last op at ``t`` (rule 5)."""
    w = wp.slot_warp[i]
    pending = np.float64(t)
    have = False
    for r in range(c.R):
        if wp.reg_ok[i, r]:
            x = wp.reg_t0[i, r] + wp.reg_lat[i, r]
            if not have or x > pending:
                pending = x
                have = True
    end = max(np.float64(t + 1), pending)
    ln.warp_end[w] = end
    wp.slot_warp[i] = -1
    sc[N_ACTIVE] -= 1
    blk = i // c.wpb
    ln.block_left[blk] -= 1
    if ln.block_left[blk] == 0 and sc[LAUNCHED] < c.total:
        when = _ceil(max(end, np.float64(t + 1))) + c.launch_latency
        ln.ref_blk[sc[N_REF]] = blk
        ln.ref_when[sc[N_REF]] = when
        sc[N_REF] += 1
        sc[REF_MIN] = min(sc[REF_MIN], when)


@njit(cache=True, inline="always")
def _issue(c, un, pr, wp, ln, sd, us, g, sc, err, i, u, s, k, t):
    """Issue the next op of slot ``i`` (index ``k`` of scheduler ``s``) on unit ``u``
    at ``t`` (rules 3-5)."""
    if un.has_thr[u]:
        us.free_at[u] = max(us.free_at[u], np.float64(t)) + un.inv_thr[u]
    lat = _latency(c, un, us, g, sc, err, u, t)
    if un.mif[u] >= 0:
        us.hsize[u] = _fpush(g.heap[u], us.hsize[u], t + lat)
    op = pr.p_start[pr.slot_prog[i]] + wp.pc[i]
    d = pr.op_dst[op]
    if d >= 0:
        wp.reg_t0[i, d] = t
        wp.reg_u[i, d] = u
        wp.reg_lat[i, d] = lat
        wp.reg_ok[i, d] = True
    n = sc[N_REC]
    g.rw[n] = wp.slot_warp[i]
    g.rs[n] = wp.seq[i]
    g.ru[n] = u
    g.ri[n] = t
    g.rr[n] = t + lat
    sc[N_REC] = n + 1
    wp.seq[i] += 1
    wp.next_ok[i] = t + c.ilp
    sd.rr_last[s] = k
    if un.issue_cycles[u] > 1:
        sd.busy[s] = t + un.issue_cycles[u]
    wp.pc[i] += 1
    if wp.pc[i] == pr.p_len[pr.slot_prog[i]]:
        if c.repeat:
            wp.pc[i] = 0
        else:
            _finish(c, wp, ln, sc, i, t)
            return
    _park(un, pr, wp, ln, sc, i, t)


# ---------------------------------------------------------------- scheduling


@njit(cache=True, inline="always")
def _blocked(un, us, u, t):
    """Rule 3: the unit's backlog does not end before ``t + 1``."""
    return un.has_thr[u] and us.free_at[u] >= t + 1 - _EPS


@njit(cache=True, inline="always")
def _queued_candidate(c, un, sd, us, g, u, s, lo, hi, t):
    """The first slot in ``[lo, hi)`` of scheduler ``s`` waiting in unit ``u``'s queue
    whose examination could change anything: any, while a finished server is still to
    be popped; else one that would be admitted. -1 if none."""
    if us.hsize[u] > 0 and g.heap[u, 0] <= t:
        return _next_bit(sd.queued[s, u], lo, hi)
    free = un.mif[u] - us.hsize[u]
    if free <= 0:
        return -1
    if free >= us.qlive[u]:
        return _next_bit(sd.queued[s, u], lo, hi)
    return _first_admissible(us, u, s, c.S, lo, hi, free)


@njit(cache=True, inline="always")
def _candidate(c, un, sd, us, g, u, s, lo, hi, t):
    """The first slot in ``[lo, hi)`` of scheduler ``s`` that the Python scan would act
    on for unit ``u``, or -1."""
    if _blocked(un, us, u, t):
        return -1
    kf = -1
    if sd.n_fresh[s, u] > 0:
        kf = _next_bit(sd.fresh[s, u], lo, hi)
    if un.mif[u] < 0 or sd.n_queued[s, u] == 0:
        return kf
    kq = _queued_candidate(c, un, sd, us, g, u, s, lo, hi, t)
    if kq < 0:
        return kf
    if kf < 0:
        return kq
    return min(kf, kq)


@njit(cache=True, inline="always")
def _examine(c, un, pr, wp, ln, sd, us, g, sc, err, i, u, s, k, t):
    """Slot ``i`` is ready for unit ``u`` whose backlog allows an op: admission (a
    capped unit's queue, first come first served) and issue. True if it issued."""
    if un.mif[u] >= 0:
        _pop_done(us, g, u, t)
        free = un.mif[u] - us.hsize[u]
        if wp.qpos[i] < 0:
            _join(us, wp, u, i)
            _clear_bit(sd.fresh[s, u], k)
            sd.n_fresh[s, u] -= 1
            _set_bit(sd.queued[s, u], k)
            sd.n_queued[s, u] += 1
        if free <= 0 or not _among_first(us, u, i, free):
            return False
        _leave(us, wp, u, i)
        _clear_bit(sd.queued[s, u], k)
        sd.n_queued[s, u] -= 1
    else:
        _clear_bit(sd.fresh[s, u], k)
        sd.n_fresh[s, u] -= 1
    _issue(c, un, pr, wp, ln, sd, us, g, sc, err, i, u, s, k, t)
    return True


@njit(cache=True, inline="always")
def _scan_range(c, un, pr, wp, ln, sd, us, g, sc, err, s, lo, hi, t, issued, cap):
    """Scan the slots ``[lo, hi)`` of scheduler ``s`` in order; returns the number
    issued so far (the scan stops at ``cap`` or when the scheduler becomes busy).

    ``cand[u]`` is the next slot to act on for unit ``u`` (-2: to be found from ``p``
    on): only the unit of the slot just examined changes."""
    cand = sd.cand
    cand[:] = -2
    p = lo
    while True:
        # typed int64, not the literal -1: a literal would make numba compile the
        # helpers these reach (_join, _among_first, _set_bit, ...) twice
        best = np.int64(-1)
        bu = np.int64(-1)
        for u in range(c.U):
            if cand[u] == -2:
                cand[u] = _candidate(c, un, sd, us, g, u, s, p, hi, t)
            if cand[u] >= 0 and (best < 0 or cand[u] < best):
                best = cand[u]
                bu = u
        if best < 0:
            return issued
        i = s + best * c.S
        if _examine(c, un, pr, wp, ln, sd, us, g, sc, err, i, bu, s, best, t):
            issued += 1
            if issued >= cap or sd.busy[s] > t:
                return issued
        cand[bu] = -2
        p = best + 1


@njit(cache=True, inline="always")
def _scan(c, un, pr, wp, ln, sd, us, g, sc, err, s, t):
    """Issue step of scheduler ``s`` at ``t`` (rules 1-3): its slots in ``policy``
    order, from after the one that issued last for round robin. True if it issued."""
    if sd.busy[s] > t:
        return False
    slots = (c.n - s + c.S - 1) // c.S
    cap = c.ips if c.ips > 0 else slots
    k0 = sd.rr_last[s] if c.rr else -1
    issued = 0
    lo = k0 + 1
    for part in range(2 if k0 >= 0 else 1):
        hi = slots if part == 0 else k0 + 1
        issued = _scan_range(
            c, un, pr, wp, ln, sd, us, g, sc, err, s, lo, hi, t, issued, cap
        )
        if issued >= cap or sd.busy[s] > t:
            break
        lo = 0
    return issued > 0


@njit(cache=True, inline="always")
def _make_eligible(c, pr, wp, sd, i):
    """Slot ``i`` may issue from now on: into the bitset of its next op's unit."""
    s = i % c.S
    k = i // c.S
    u = pr.op_unit[pr.p_start[pr.slot_prog[i]] + wp.pc[i]]
    _set_bit(sd.fresh[s, u], k)
    sd.n_fresh[s, u] += 1


@njit(cache=True, inline="always")
def _wake_due(c, pr, wp, ln, sd, sc, t):
    """Slots whose eligible cycle has come become eligible."""
    n = sc[N_PEND]
    while n > 0 and ln.pend_key[0] <= t:
        i = ln.pend_slot[0]
        n = _kpop(ln.pend_key, ln.pend_slot, n)
        _make_eligible(c, pr, wp, sd, i)
    sc[N_PEND] = n


@njit(cache=True, _nrt=False)
def _refill(c, pr, wp, ln, sd, sc, t):
    """Block refill step (rule 5), blocks in the order they finished."""
    keep = 0
    for j in range(sc[N_REF]):
        blk, when = ln.ref_blk[j], ln.ref_when[j]
        if when > t:
            ln.ref_blk[keep] = blk
            ln.ref_when[keep] = when
            keep += 1
            continue
        ln.block_left[blk] = 0
        for i in range(blk * c.wpb, (blk + 1) * c.wpb):
            if sc[LAUNCHED] < c.total:
                w = sc[LAUNCHED]
                wp.slot_warp[i] = w
                wp.pc[i] = 0
                wp.next_ok[i] = t
                wp.seq[i] = 0
                wp.reg_ok[i, :] = False
                ln.warp_start[w] = t
                sc[LAUNCHED] = w + 1
                ln.block_left[blk] += 1
                sc[N_ACTIVE] += 1
                _make_eligible(c, pr, wp, sd, i)
    sc[N_REF] = keep
    low = _BIG
    for j in range(keep):
        low = min(low, ln.ref_when[j])
    sc[REF_MIN] = low


@njit(cache=True, inline="always")
def _prune_wake(ln, sc, t):
    """Drop the next-event heap's cycles at or before ``t`` (never needed again)."""
    n = sc[N_WAKE]
    while n > 0 and ln.wake[0] <= t:
        n = _fpop(ln.wake, n)
    sc[N_WAKE] = n


@njit(cache=True, _nrt=False)
def _next_event(c, un, ln, sd, us, g, sc, t):
    """Next-event step after a cycle without issue: the first cycle after ``t`` at
    which a warp that could not issue at ``t`` might issue."""
    best = _BIG
    found = False
    if sc[N_REF] > 0:
        best = min(best, sc[REF_MIN])
        found = True
    for s in range(c.S):
        if sd.busy[s] > t:
            best = min(best, sd.busy[s])
            found = True
    for u in range(c.U):
        if _blocked(un, us, u, t):
            best = min(best, _ceil(np.floor(us.free_at[u] - 1 + _EPS)) + 1)
            found = True
        if un.mif[u] >= 0 and us.hsize[u] > 0:
            x = _ceil(g.heap[u, 0])
            if x > t:
                best = min(best, x)
                found = True
    _prune_wake(ln, sc, t)
    if sc[N_WAKE] > 0:
        best = min(best, ln.wake[0])
        found = True
    return best if found else t + 1


# ---------------------------------------------------------------- the loop


@njit(cache=True, inline="always")
def _room(c, us, sc, g):
    """Whether the growing arrays hold one more cycle: up to ``n`` issue records and
    in-flight results, an occupancy run and a recent-issue entry per unit."""
    if sc[N_REC] + c.n > g.rw.size or sc[N_SEG] >= g.ot.size:
        return False
    for u in range(c.U):
        if us.hsize[u] + c.n > g.heap.shape[1] or us.rsize[u] >= g.rt.shape[1]:
            return False
    return True


@njit(cache=True, inline="always")
def _occupy(g, sc, t, active):
    """The occupancy from cycle ``t`` on is ``active`` (a new run if it changed)."""
    n = sc[N_SEG]
    if n == 0 or g.ov[n - 1] != active:
        g.ot[n] = t
        g.ov[n] = active
        sc[N_SEG] = n + 1


@njit(cache=True, inline="always")
def _cycle(c, un, pr, wp, ln, sd, us, sc, err, g, t):
    """One visited cycle ``t`` (the Python engine's loop body); returns the next cycle
    to visit, or -1 when a finite run is over."""
    if sc[N_REF] > 0 and sc[REF_MIN] <= t:
        _refill(c, pr, wp, ln, sd, sc, t)
    active = sc[N_ACTIVE]
    if not c.repeat and active == 0 and sc[N_REF] == 0:
        return -1
    _occupy(g, sc, t, active)
    _wake_due(c, pr, wp, ln, sd, sc, t)
    issued = False
    for s in range(c.S):
        if _scan(c, un, pr, wp, ln, sd, us, g, sc, err, s, t):
            issued = True
    if sc[N_WAKE] + 2 * c.n > ln.wake.size:
        _prune_wake(ln, sc, t)
    if issued or not c.skip_idle or sc[ERR] != 0:
        return t + 1
    return min(_next_event(c, un, ln, sd, us, g, sc, t), c.limit)


@njit(cache=True, _nrt=False)
def _loop(c, un, pr, wp, ln, sd, us, sc, err, g):  # pragma: no cover - compiled
    """The cycle loop of ``simulate`` from cycle ``sc[T]``; returns 1 when the growing
    arrays ``g`` need room for the next cycle (the caller grows them and calls again),
    0 when the run is over (its last cycle in ``sc[T]``).

    Compiled without numba's reference counting (``_nrt=False``; the loop allocates
    nothing), with the steps of every issue inlined (as
    :mod:`gpumodels.engines.refsim.simulator` does): counting the references to the
    arrays handed to each step, or calling the steps, costs more than the steps. The
    rarer steps (refill, finish, next event, queue upkeep) are compiled on their own,
    also without reference counting, which keeps the compile time down."""
    t = sc[T]
    if sc[STARTED] == 0:  # every slot holds a warp that may issue at cycle 0
        for i in range(c.n):
            _make_eligible(c, pr, wp, sd, i)
        sc[STARTED] = 1
    while t < c.limit and sc[ERR] == 0:
        if not _room(c, us, sc, g):
            sc[T] = t
            return 1
        nxt = _cycle(c, un, pr, wp, ln, sd, us, sc, err, g, t)
        if nxt < 0:
            break
        t = nxt
    sc[T] = t
    return 0


# ---------------------------------------------------------------- Python side


def _clamp(x: int) -> int:
    return min(int(x), _CLAMP)


def _encode_units(sm):
    """The :data:`_Units` of ``sm`` (latencies numbers or LoadedLatency records)."""
    names = list(sm.units)
    U = len(names)
    f = {k: np.zeros(U) for k in ("inv_thr", "lat_const", "la_a", "la_scale")}
    la_cap = np.full(U, np.inf)
    ints = {k: np.zeros(U, np.int64) for k in ("issue_cycles", "lat_kind", "t_lo")}
    t_hi, mif = np.zeros(U, np.int64), np.full(U, -1, np.int64)
    has_thr = np.zeros(U, np.bool_)
    term_b, term_c = [], []
    for u, name in enumerate(names):
        unit = sm.units[name]
        if unit.throughput is not None:
            has_thr[u] = True
            f["inv_thr"][u] = 1.0 / unit.throughput  # the Python engine's expression
        ints["issue_cycles"][u] = _clamp(unit.issue_cycles)
        if unit.max_in_flight is not None:
            mif[u] = min(int(unit.max_in_flight), 1 << 62)
        lat = unit.latency
        ints["t_lo"][u] = t_hi[u] = len(term_b)
        if callable(lat):  # a LoadedLatency (the caller checked)
            ints["lat_kind"][u] = 1
            f["la_a"][u], f["la_scale"][u] = lat.a, lat.gbs_per_ipc
            la_cap[u] = np.inf if lat.cap is None else lat.cap
            for b, cc in lat.terms:
                term_b.append(b)
                term_c.append(cc)
            t_hi[u] = len(term_b)
        else:
            f["lat_const"][u] = float(lat)
    dep = np.full((U, U), np.nan)
    for (p, q), v in sm.dependent_latency.items():
        dep[names.index(p), names.index(q)] = v
    return _Units(
        has_thr, f["inv_thr"], ints["issue_cycles"], mif, ints["lat_kind"],
        f["lat_const"], f["la_a"], f["la_scale"], la_cap, ints["t_lo"], t_hi,
        np.array(term_b, float), np.array(term_c, float), dep,
    )  # fmt: skip


def _encode_programs(progs, names):
    """The :data:`_Progs` of the slots' programs and the number of registers
    (register names become 0, 1, ... in order of appearance)."""
    unit_of = {n: u for u, n in enumerate(names)}
    regs: dict[str, int] = {}
    known: dict[tuple, int] = {}  # program -> its index (the same object or equal)
    by_id: dict[int, int] = {}
    slot_prog, p_start, p_len = [], [], []
    ops: list[tuple[int, int, tuple[int, ...]]] = []
    for prog in progs:
        k = by_id.get(id(prog))
        if k is None:
            k = by_id[id(prog)] = known.get(prog, -1)
        if k < 0:
            k = by_id[id(prog)] = known[prog] = len(p_start)
            p_start.append(len(ops))
            p_len.append(len(prog))
            for op in prog:
                dst = -1 if op.dst is None else regs.setdefault(op.dst, len(regs))
                src = tuple(regs.setdefault(r, len(regs)) for r in op.srcs)
                ops.append((unit_of[op.unit], dst, src))
        slot_prog.append(k)
    s1 = np.cumsum([len(src) for _, _, src in ops], dtype=np.int64)
    srcs = [r for _, _, src in ops for r in src]
    i8 = np.int64
    return (
        _Progs(
            np.array(slot_prog, i8), np.array(p_start, i8), np.array(p_len, i8),
            np.array([u for u, _, _ in ops], i8), np.array([d for _, d, _ in ops], i8),
            s1 - np.array([len(src) for _, _, src in ops], i8), s1,
            np.array(srcs, i8),
        ),
        len(regs),
    )  # fmt: skip


def _grown(g, us, sc, n):
    """``g`` with room for one more cycle of ``n`` warps (see ``_room``)."""
    rec = [g.rw, g.rs, g.ru, g.ri, g.rr]
    if sc[N_REC] + n > g.rw.size:
        rec = [np.concatenate([a, np.zeros(a.size + n, a.dtype)]) for a in rec]
    ot, ov = g.ot, g.ov
    if sc[N_SEG] >= ot.size:
        ot, ov = (np.concatenate([a, np.zeros_like(a)]) for a in (ot, ov))
    heap = g.heap
    if us.hsize.max() + n > heap.shape[1]:
        heap = np.zeros((heap.shape[0], 2 * heap.shape[1] + n))
        heap[:, : g.heap.shape[1]] = g.heap
    rt, rn = g.rt, g.rn
    if us.rsize.max() >= rt.shape[1]:
        cap = rt.shape[1]
        order = (us.rhead[:, None] + np.arange(cap)) % cap  # each ring from its head
        rt, rn = (np.zeros((a.shape[0], 2 * cap), a.dtype) for a in (g.rt, g.rn))
        rt[:, :cap] = np.take_along_axis(g.rt, order, 1)
        rn[:, :cap] = np.take_along_axis(g.rn, order, 1)
        us.rhead[:] = 0
    return _Grow(*rec, ot, ov, heap, rt, rn)


def run(run):
    """Run the checked state ``run`` (a ``sim._Run`` at cycle 0) on the compiled
    engine. Returns ``(t, records, occupancy, warp_start, warp_end, error)``: the
    cycle the run stopped at, the issue records (warp, seq, unit index, issue, ready),
    the occupancy per cycle, the warps' start and end (-1: not finished) and ``None``
    or ``(latency, rate)`` of an invalid latency."""
    sm, n, S = run.sm, int(run.n_warps), int(run.sm.schedulers)
    names = list(sm.units)
    U = len(names)
    un = _encode_units(sm)
    pr, R = _encode_programs(run.progs, names)
    ips = 0 if sm.issue_per_scheduler is None else min(int(sm.issue_per_scheduler), n)
    c = _Cfg(
        S, n, ips, _clamp(sm.ilp_latency), int(run.policy == "round_robin"),
        int(run.repeat), int(run.skip_idle), int(run.limit), int(run.total),
        int(run.wpb), _clamp(run.launch_latency), int(sm.window), U, R,
    )  # fmt: skip
    i8 = np.int64
    kmax = -(-n // S)
    words = max(1, -(-kmax // 64))
    wp = _Warps(
        np.arange(n, dtype=i8), np.zeros(n, i8), np.zeros(n, i8), np.zeros(n, i8),
        np.zeros((n, R), i8), np.zeros((n, R), i8), np.zeros((n, R)),
        np.zeros((n, R), np.bool_), np.full(n, -1, i8),
    )  # fmt: skip
    blocks = n // run.wpb
    ln = _Launch(
        np.full(blocks, run.wpb, i8), np.zeros(blocks, i8), np.zeros(blocks, i8),
        np.zeros(run.total, i8), np.full(run.total, -1.0), np.zeros(n, i8),
        np.zeros(n, i8), np.zeros(4 * n + 8, i8),
    )  # fmt: skip
    sd = _Sched(
        np.zeros(S, i8), np.full(S, -1, i8), np.zeros((S, U, words), np.uint64),
        np.zeros((S, U, words), np.uint64), np.zeros((S, U), i8),
        np.zeros((S, U), i8), np.zeros(U, i8),
    )  # fmt: skip
    us = _Unitst(
        np.zeros(U), np.full((U, 2 * n + 2), -1, i8), np.zeros(U, i8),
        np.zeros(U, i8), np.zeros(U, i8), np.zeros(U, i8), np.zeros(U, i8),
        np.zeros(U, i8), np.zeros(U, i8),
    )  # fmt: skip
    m = 4 * n + 1024
    g = _Grow(
        np.zeros(m, i8), np.zeros(m, i8), np.zeros(m, i8), np.zeros(m, i8),
        np.zeros(m), np.zeros(64, i8), np.zeros(64, i8), np.zeros((U, n + 16)),
        np.zeros((U, 64), i8), np.zeros((U, 64), i8),
    )  # fmt: skip
    sc = np.zeros(11, i8)
    sc[N_ACTIVE], sc[LAUNCHED], sc[REF_MIN] = n, n, _BIG
    err = np.zeros(2)
    while _loop(c, un, pr, wp, ln, sd, us, sc, err, g):
        g = _grown(g, us, sc, n)
    t = sc[T]
    rec = tuple(a[: sc[N_REC]] for a in (g.rw, g.rs, g.ru, g.ri, g.rr))
    k = sc[N_SEG]
    starts = g.ot[:k]
    occ = np.repeat(g.ov[:k], np.diff(np.append(starts, t)))
    error = (float(err[0]), float(err[1])) if sc[ERR] else None
    return int(t), rec, occ, ln.warp_start, ln.warp_end, error
