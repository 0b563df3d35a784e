"""The book's simulated reference GPU for Huang & Li: ground truth that the model never
sees inside.

The paper measured a Tesla K80. CI has no GPU, so the book runs the synthetic kernel
traces of :mod:`gpumodels.engines.refsim.kernels` on this event-driven simulator of one
Kepler-like GPU and calls its times and counters the **simulated reference**. It is not
a measurement, and it is built so that it does not share the model's simplifications
(design notes):

* **closed-loop warps**: a warp issues in order and blocks at its first arithmetic
  instruction after a load until every load it has in flight has returned (the
  arithmetic consumes them), so the memory system's delays feed back into the request
  rate;
* **issue rules of** :mod:`gpumodels.engines.sim` restated (Volkov's Kepler parameters):
  warp slot i on scheduler i mod 4, one issue per scheduler per cycle, oldest ready warp
  first, at most one issue per warp per cycle, arithmetic throughput 4 warp instructions
  per cycle, latency 9;
* **hardware coalescing**: a global access sends one request per distinct 32-B sector
  and holds the load/store unit one cycle per distinct 128-B line (replays = lines − 1);
  a shared access one cycle per pass (bank conflicts); a constant access one cycle per
  distinct address;
* **caches in time order**: per-SM texture caches (sectored, 32-B sectors in 128-B
  lines) and constant caches (64-B lines), a shared sectored L2 (128-B lines, 32-B
  sectors, LRU), each looked up at the event's own time; stores write through the L2 to
  DRAM;
* **DRAM**: 6 channels × 16 banks with the address map chosen before any result was seen
  (:data:`MAPPING`), FCFS queues per bank with open rows (open-page), bank occupancy
  (GDDR5 timings) separate from pipeline latency, and a data bus per channel that no
  burst can exceed (so no run beats the pin bandwidth);
* **2D textures in a block-linear layout** (tiles of 64 B × 8 rows); the model keeps the
  linear addresses, as the paper does;
* blocks go to SMs round-robin up to the occupancy limit, then to whichever SM frees a
  block slot first; each block starts 0–7 cycles late, drawn from ``seed``.

Left out (and said in the book): barriers (``__syncthreads``), instruction-cache and
register-bank effects, DRAM refresh and write-to-read turnarounds, L2 write-back (stores
write through), the texture filtering pipeline.

Calibrated to the paper only where it prints numbers: an isolated uncached access takes
exactly 352 / 742 / 1008 ns (row hit / miss / conflict) from issue to data — crossbar
and L2-to-DRAM delays, the bank's occupancy, then a return delay chosen to make the sum
exact. Every other number is in ``data/huang_li/refsim_parameters.csv``, sourced or
labelled as an assumption.

The sequential core (:func:`run_streams`) is compiled with numba and gives identical
results with ``NUMBA_DISABLE_JIT=1``; numpy builds its inputs. Public entry points:
:func:`simulate` (a kernel and a placement → :class:`Result` with ``time_ns``,
``counters`` and ``dram_log``), :func:`kernels`, :func:`second_access_latency` (the
latency oracle for Algorithm 1) and :func:`run_streams` (explicit per-warp instruction
streams, for tests and the Volkov check).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np
from numba import njit

from gpumodels.engines.refsim.dram import address_map, lindley
from gpumodels.engines.refsim.kernels import (
    GENERATORS,
    WARP,
    Kernel,
    Trace,
)
from gpumodels.engines.refsim.kernels import (
    kernel as _kernel_of,
)
from gpumodels.engines.refsim.placements import parse_moves
from gpumodels.engines.refsim.placements import tests as _placement_tests
from gpumodels.engines.refsim.trace import SPACES, shared_conflict_replays_batch
from gpumodels.engines.sim import rate_between, trip_starts
from gpumodels.facts.param_sets import params as volkov_params
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import UnknownNameError
from gpumodels.ground.validate import check_int, check_real

MAPPING = "gddr5_6x16"
"""The simulated GPU's address map (``data/huang_li/address_maps.csv``), fixed before
any result."""

# instruction kinds of a stream record
ALU, LDG, STG, LDT, LDC, LDS, STS, LDU = 0, 1, 2, 3, 4, 5, 6, 7
KIND_NAMES = (
    "alu",
    "ld.global",
    "st.global",
    "ld.texture",
    "ld.constant",
    "ld.shared",
    "st.shared",
    "ld.global.uncached",
)

COUNTERS = (
    "inst_executed",
    "inst_issued",
    "global_replays",
    "shared_replays",
    "constant_replays",
    "global_load_requests",
    "global_store_requests",
    "tex_requests",
    "tex_hits",
    "const_requests",
    "const_hits",
    "l2_read_requests",
    "l2_read_hits",
    "l2_write_requests",
    "dram_reads",
    "dram_writes",
    "row_hits",
    "row_misses",
    "row_conflicts",
    "ldst_global",
    "ldst_texture",
    "ldst_constant",
    "ldst_shared",
    "elapsed_cycles",
)
"""Names of the counters in a result's ``counters`` (nvprof's kind of event counts,
totals over the grid)."""

N_COUNTERS = len(COUNTERS)
(
    C_EXEC,
    C_ISSUED,
    C_G_REPLAYS,
    C_SH_REPLAYS,
    C_C_REPLAYS,
    C_G_LD,
    C_G_ST,
    C_TEX_REQ,
    C_TEX_HITS,
    C_CONST_REQ,
    C_CONST_HITS,
    C_L2_READS,
    C_L2_READ_HITS,
    C_L2_WRITES,
    C_DRAM_READS,
    C_DRAM_WRITES,
    C_ROW,
    _C_ROW_MISS,
    _C_ROW_CONFLICT,
    C_LDST_G,
    C_LDST_T,
    C_LDST_C,
    C_LDST_S,
    C_CYCLES,
) = range(N_COUNTERS)


@cache
def _param_rows() -> dict[str, dict[str, str]]:
    return {r["parameter"]: r for r in read_rows("huang_li/refsim_parameters.csv")}


@dataclass(frozen=True)
class RefMachine:
    """The simulated GPU's parameters (``data/huang_li/refsim_parameters.csv``; times in
    core cycles unless named ``*_ns``). ``fixed_mem_lat`` > 0 replaces the whole memory
    system by a fixed load latency (caches and DRAM off), for the cross-check with
    :mod:`gpumodels.engines.sim`."""

    sm_count: int
    clock_ghz: float
    schedulers: int
    issue_per_scheduler: int
    alu_lat: float
    alu_thru: float
    lsu_thru: float
    shmem_lat: float
    tex_hit_lat: float
    const_hit_lat: float
    l2_front: float
    l2_back: float
    l2_to_dram: float
    lat_ns: tuple[float, float, float]
    occupancy_ns: tuple[float, float, float]
    pin_bandwidth_gbs: float
    l2_sets: int
    l2_assoc: int
    tex_sets: int
    tex_assoc: int
    const_sets: int
    const_assoc: int
    const_line_bytes: int
    tex_tile_bytes: int
    tex_tile_rows: int
    launch_jitter: int
    fixed_mem_lat: float = 0.0
    mapping: str = MAPPING
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def with_(self, **changes) -> RefMachine:
        """A copy with some parameters changed (e.g. ``fixed_mem_lat=301`` or
        ``sm_count=1``)."""
        return replace(self, **changes)


def machine() -> RefMachine:
    """The simulated K80 (one GK210) of the book, from
    ``data/huang_li/refsim_parameters.csv``."""
    r = _param_rows()
    v = lambda k: float(r[k]["value"])
    sets = lambda total, line, ways: int(v(total) // (line * v(ways)))
    return RefMachine(
        sm_count=int(v("sm_count")),
        clock_ghz=v("clock_ghz"),
        schedulers=int(v("schedulers")),
        issue_per_scheduler=int(v("issue_per_scheduler")),
        alu_lat=v("alu_lat"),
        alu_thru=v("alu_thru"),
        lsu_thru=v("lsu_thru"),
        shmem_lat=v("shmem_lat"),
        tex_hit_lat=v("tex_hit_lat"),
        const_hit_lat=v("const_hit_lat"),
        l2_front=v("l2_front"),
        l2_back=v("l2_back"),
        l2_to_dram=v("l2_to_dram"),
        lat_ns=(v("lat_row_hit"), v("lat_row_miss"), v("lat_row_conflict")),
        occupancy_ns=(v("occupancy_hit"), v("occupancy_miss"), v("occupancy_conflict")),
        pin_bandwidth_gbs=v("pin_bandwidth"),
        l2_sets=sets("l2_bytes", v("l2_line_bytes"), "l2_assoc"),
        l2_assoc=int(v("l2_assoc")),
        tex_sets=sets("tex_bytes", 128, "tex_assoc"),
        tex_assoc=int(v("tex_assoc")),
        const_sets=sets("const_bytes", v("const_line_bytes"), "const_assoc"),
        const_assoc=int(v("const_assoc")),
        const_line_bytes=int(v("const_line_bytes")),
        tex_tile_bytes=int(v("tex_tile_bytes")),
        tex_tile_rows=int(v("tex_tile_rows")),
        launch_jitter=int(v("launch_jitter")),
        sources={k: f"{row['source']} [{row['status']}]" for k, row in r.items()},
    )


# ---------------------------------------------------------------------------------------------
# streams: what the core executes


@dataclass(frozen=True)
class Streams:
    """Per-warp instruction streams (CSR), the requests of each memory record, and the
    launch.

    A record is a run of ``count`` instructions of one ``kind`` (runs only for ALU;
    memory records have count 1); ``dep``: the run's first instruction waits for every
    result the warp has in flight; ``lsu``: cycles the record holds the load/store unit
    (1 + replays); ``req0:req1`` its requests in ``req_addr`` (32-B sectors for global
    and texture records, lines for constant records). ``warp_rec`` holds each warp's
    first record (CSR with one more entry at the end); warps are numbered block by
    block.
    """

    kind: np.ndarray
    count: np.ndarray
    dep: np.ndarray
    lsu: np.ndarray
    req0: np.ndarray
    req1: np.ndarray
    req_addr: np.ndarray
    warp_rec: np.ndarray
    blocks: int
    warps_per_block: int
    resident_blocks_per_sm: int

    @property
    def n_warps(self) -> int:
        return self.blocks * self.warps_per_block


def streams_from_records(
    records_per_warp, warps_per_block: int = 1, resident_blocks_per_sm: int = 1
) -> Streams:
    """Build :class:`Streams` from Python lists: per warp, a list of ``(kind, count,
    dep, lsu, addresses)``.

    ``addresses`` are the record's request addresses (empty for ALU and shared records).
    Used by the tests and the Volkov cross-check; kernels go through
    :func:`kernel_streams`.
    """
    kinds, counts, deps, lsus, r0, r1, addrs, wrec = [], [], [], [], [], [], [], [0]
    n_req = 0
    for recs in records_per_warp:
        if not recs:
            raise ValueError("every warp needs at least one record")
        for kind, count, dep, lsu, ad in recs:
            check_int("kind", kind, 0, len(KIND_NAMES) - 1)
            check_int("count", count, 1)
            kinds.append(kind)
            counts.append(count)
            deps.append(bool(dep))
            lsus.append(float(lsu))
            r0.append(n_req)
            n_req += len(ad)
            r1.append(n_req)
            addrs.extend(int(a) for a in ad)
        wrec.append(len(kinds))
    n_w = len(records_per_warp)
    wpb = check_int("warps_per_block", warps_per_block, 1)
    if n_w % wpb:
        raise ValueError(
            f"the number of warps ({n_w}) must be a multiple of warps_per_block ({wpb})"
        )
    return Streams(
        np.array(kinds, np.int8),
        np.array(counts, np.int64),
        np.array(deps, np.bool_),
        np.array(lsus, np.float64),
        np.array(r0, np.int64),
        np.array(r1, np.int64),
        np.array(addrs, np.int64),
        np.array(wrec, np.int64),
        n_w // wpb,
        wpb,
        check_int("resident_blocks_per_sm", resident_blocks_per_sm, 1),
    )


def block_linear(tr: Trace, rm: RefMachine) -> np.ndarray:
    """The trace's addresses with every 2D-texture array laid out block-linear (tiles of
    ``tex_tile_bytes`` × ``tex_tile_rows``); other addresses unchanged."""
    addr = tr.addr.copy()
    code = SPACES.index("2T")
    for name in tr.array_names:
        if tr.placement[name] != "2T":
            continue
        spec = tr.kernel.arrays[name]
        rows = (tr.space == code) & (tr.array == tr.array_names.index(name))
        a = addr[rows]
        act = a >= 0
        eb = spec.elem_bytes
        idx = (a - tr.bases[name]) // eb
        width = spec.dims[0]
        x, y = idx % width, idx // width
        xb = x * eb
        tb, tr_ = rm.tex_tile_bytes, rm.tex_tile_rows
        tiles_x = -(-(width * eb) // tb)
        off = ((y // tr_) * tiles_x + xb // tb) * (tb * tr_) + (y % tr_) * tb + xb % tb
        addr[rows] = np.where(act, tr.bases[name] + off, -1)
    return addr


def _distinct(addr: np.ndarray, unit: int):
    """Per row, the distinct ``addr // unit`` among active lanes: (row, key) pairs in
    row order, and counts."""
    big = np.iinfo(np.int64).max
    k = np.where(addr >= 0, addr // unit, big)
    k.sort(axis=1)
    new = np.ones_like(k, dtype=bool)
    new[:, 1:] = k[:, 1:] != k[:, :-1]
    new &= k != big
    rows = np.nonzero(new)[0]
    return rows, k[new], new.sum(axis=1)


def kernel_streams(tr: Trace, rm: RefMachine | None = None) -> Streams:
    """The :class:`Streams` of a placement's trace under the hardware rules (module
    docstring).

    Per memory row r of the trace: a run of the arithmetic before it (its first
    instruction waits for the warp's loads), a run of its addressing instructions (no
    wait), the memory record; then the warp's trailing arithmetic (waiting). Elements
    wider than 4 B are read as one access per lane (``word_bytes`` ≤ 16 never spans two
    32-B sectors in these kernels, which align every array).
    """
    rm = rm or machine()
    addr = block_linear(tr, rm)
    sp = tr.space
    n = tr.n_ops
    codes = {s: i for i, s in enumerate(SPACES)}
    is_g, is_c, is_s = sp == codes["G"], sp == codes["C"], sp == codes["S"]
    is_t = (sp == codes["T"]) | (sp == codes["2T"])
    kind = np.where(
        is_g,
        np.where(tr.store, STG, LDG),
        np.where(is_t, LDT, np.where(is_c, LDC, np.where(tr.store, STS, LDS))),
    ).astype(np.int8)
    lsu = np.ones(n)
    req_rows, req_addr = [], []
    wide = tr.word_bytes.astype(np.int64)[:, None]
    last = np.where(
        addr >= 0, addr + wide - 1, -1
    )  # a 16-B element may end in the next sector
    for mask in (is_g, is_t):
        if not mask.any():
            continue
        ri = np.nonzero(mask)[0]
        both = np.concatenate([addr[mask], last[mask]], axis=1)
        rows, sect, _ = _distinct(both, 32)
        req_rows.append(ri[rows])
        req_addr.append(sect * 32)
        _, _, nlines = _distinct(both, 128)
        lsu[ri] = nlines
    if is_c.any():
        ri = np.nonzero(is_c)[0]
        rows, lines, _ = _distinct(addr[is_c], rm.const_line_bytes)
        req_rows.append(ri[rows])
        req_addr.append(lines * rm.const_line_bytes)
        _, _, nw = _distinct(addr[is_c], 4)
        lsu[ri] = nw
    if is_s.any():
        lsu[is_s] = 1 + shared_conflict_replays_batch(addr[is_s])
    if req_rows:
        rr, ra = np.concatenate(req_rows), np.concatenate(req_addr)
        order = np.lexsort((ra, rr))
        rr, ra = rr[order], ra[order]
    else:
        rr, ra = np.zeros(0, np.int64), np.zeros(0, np.int64)
    q0 = np.searchsorted(rr, np.arange(n), "left")
    q1 = np.searchsorted(rr, np.arange(n), "right")

    # interleave ALU runs: per row, arithmetic (waits) then addressing (no wait), then
    # the memory record
    W = tr.kernel.n_warps
    first_row = np.searchsorted(tr.warp, np.arange(W), "left")
    prev_end = np.zeros(n, np.int64)
    same = np.zeros(n, bool)
    same[1:] = tr.warp[1:] == tr.warp[:-1]
    prev_end[1:] = np.where(same[1:], tr.pos[:-1] + 1, 0)
    n_alu = tr.pos - prev_end - tr.addressing
    if np.any(n_alu < 0):
        raise ValueError("trace positions are inconsistent with its addressing counts")
    last_row = np.searchsorted(tr.warp, np.arange(W), "right") - 1
    has = last_row >= first_row
    tail = tr.executed - np.where(has, tr.pos[np.maximum(last_row, 0)] + 1, 0)
    # each row contributes up to 3 records; each warp up to 1 tail record
    K = 3 * n + W
    r_kind = np.full(K, -1, np.int16)
    r_count = np.zeros(K, np.int64)
    r_dep = np.zeros(K, bool)
    r_lsu = np.ones(K)
    r_q0 = np.zeros(K, np.int64)
    r_q1 = np.zeros(K, np.int64)
    r_warp = np.zeros(K, np.int64)
    r_ord = np.zeros(K, np.int64)
    slot = 3 * np.arange(n)
    r_kind[slot] = np.where(n_alu > 0, ALU, -1)
    r_count[slot] = n_alu
    r_dep[slot] = True
    r_kind[slot + 1] = np.where(tr.addressing > 0, ALU, -1)
    r_count[slot + 1] = tr.addressing
    r_kind[slot + 2] = kind
    r_count[slot + 2] = 1
    r_lsu[slot + 2] = lsu
    r_q0[slot + 2] = q0
    r_q1[slot + 2] = q1
    for j in range(3):
        r_warp[slot + j] = tr.warp
        r_ord[slot + j] = 3 * tr.pos + j
    ts = 3 * n + np.arange(W)
    r_kind[ts] = np.where(tail > 0, ALU, -1)
    r_count[ts] = tail
    r_dep[ts] = True
    r_warp[ts] = np.arange(W)
    r_ord[ts] = np.iinfo(np.int64).max
    # copy-in of arrays moved into shared memory: each block loads its whole copy first
    # [A19]
    ck, cw, cord, cdep, clsu, cq0, cq1, ra = _copy_in(tr, addr, ra)
    r_kind = np.concatenate([r_kind, ck])
    r_count = np.concatenate([r_count, np.ones(ck.size, np.int64)])
    r_dep = np.concatenate([r_dep, cdep])
    r_lsu = np.concatenate([r_lsu, clsu])
    r_q0 = np.concatenate([r_q0, cq0])
    r_q1 = np.concatenate([r_q1, cq1])
    r_warp = np.concatenate([r_warp, cw])
    r_ord = np.concatenate([r_ord, cord])
    keep = r_kind >= 0
    order = np.lexsort((r_ord[keep], r_warp[keep]))
    idx = np.nonzero(keep)[0][order]
    warps = r_warp[idx]
    wrec = np.searchsorted(warps, np.arange(W + 1), "left")
    if np.any(np.diff(wrec) == 0):
        raise ValueError(f"kernel {tr.kernel.name}: a warp executes no instruction")
    return Streams(
        r_kind[idx].astype(np.int8),
        r_count[idx],
        r_dep[idx],
        r_lsu[idx],
        r_q0[idx],
        r_q1[idx],
        ra,
        wrec.astype(np.int64),
        tr.kernel.blocks,
        tr.kernel.warps_per_block,
        tr.resident_blocks_per_sm(),
    )


def _copy_in(tr: Trace, addr: np.ndarray, req_addr: np.ndarray):
    """Records that copy every array moved into shared memory from its global home,
    block by block.

    The sample keeps such an array in global memory; the target kernel must load it
    before use: each block's threads stride over the whole array (element ``k·threads +
    tid`` in trip k), a coalesced global load then a shared store that waits for it. The
    global copy sits after the trace's last address. Returns the records (kind, warp,
    order, dep, lsu, request range) and the request addresses with the copy's sectors
    appended.
    """
    k = tr.kernel
    sample = k.sample_placement()
    moved = [n for n in tr.array_names if tr.placement[n] == "S" and sample[n] != "S"]
    empty = np.zeros(0, np.int64)
    if not moved:
        return (
            np.zeros(0, np.int16),
            empty,
            empty,
            np.zeros(0, bool),
            np.zeros(0),
            empty,
            empty,
            req_addr,
        )
    W, wpb, tpb = k.n_warps, k.warps_per_block, k.threads_per_block
    tid = (np.arange(W)[:, None] % wpb) * WARP + np.arange(WARP)[None, :]
    base = -(-(int(max(addr.max(), 0)) + 1) // 4096) * 4096 + (1 << 32)
    kinds, warps, ords, deps, lsus, q0s, q1s, extra = [], [], [], [], [], [], [], []
    n_req = req_addr.size
    trip = 0
    for name in moved:
        spec = k.arrays[name]
        for it in range(-(-spec.n // tpb)):
            e = it * tpb + tid
            a = np.where((tid < tpb) & (e < spec.n), base + e * spec.elem_bytes, -1)
            live = (a >= 0).any(axis=1)
            rows, sect, _ = _distinct(a, 32)
            _, _, nlines = _distinct(a, 128)
            w = np.nonzero(live)[0]
            q0 = n_req + np.searchsorted(rows, w, "left")
            q1 = n_req + np.searchsorted(rows, w, "right")
            extra.append(sect * 32)
            n_req += sect.size
            order0 = -(1 << 40) + 2 * trip
            for kind, dep, lsu, qa, qb, off in (
                (LDG, False, nlines[w], q0, q1, 0),
                (STS, True, np.ones(w.size), q0 * 0, q0 * 0, 1),
            ):
                kinds.append(np.full(w.size, kind, np.int16))
                warps.append(w)
                ords.append(np.full(w.size, order0 + off))
                deps.append(np.full(w.size, dep))
                lsus.append(np.asarray(lsu, float))
                q0s.append(qa)
                q1s.append(qb)
            trip += 1
        base += -(-spec.bytes // 4096) * 4096
    cat = np.concatenate
    return (
        cat(kinds),
        cat(warps),
        cat(ords),
        cat(deps),
        cat(lsus),
        cat(q0s),
        cat(q1s),
        cat([req_addr] + extra),
    )


# ---------------------------------------------------------------------------------------------
# the compiled core


@njit(cache=True)
def _field(a, bits):
    out = 0
    for i in range(bits.size):
        out |= ((a >> bits[i]) & 1) << i
    return out


@njit(cache=True)
def _heap_push(ht, hs, hi, n, t, seq, item):
    i = n
    ht[i] = t
    hs[i] = seq
    hi[i] = item
    while i > 0:
        p = (i - 1) // 2
        if ht[p] < ht[i] or (ht[p] == ht[i] and hs[p] < hs[i]):
            break
        ht[p], ht[i] = ht[i], ht[p]
        hs[p], hs[i] = hs[i], hs[p]
        hi[p], hi[i] = hi[i], hi[p]
        i = p
    return n + 1


@njit(cache=True)
def _heap_pop(ht, hs, hi, n):
    t, item = ht[0], hi[0]
    n -= 1
    ht[0] = ht[n]
    hs[0] = hs[n]
    hi[0] = hi[n]
    i = 0
    while True:
        a = 2 * i + 1
        b = a + 1
        m = i
        if a < n and (ht[a] < ht[m] or (ht[a] == ht[m] and hs[a] < hs[m])):
            m = a
        if b < n and (ht[b] < ht[m] or (ht[b] == ht[m] and hs[b] < hs[m])):
            m = b
        if m == i:
            break
        ht[m], ht[i] = ht[i], ht[m]
        hs[m], hs[i] = hs[i], hs[m]
        hi[m], hi[i] = hi[i], hi[m]
        i = m
    return t, item, n


@njit(cache=True)
def _lookup(tag, valid, stamp, row0, assoc, line, sector_bit, clock, allocate):
    """Sectored LRU lookup in the set starting at row ``row0``: returns True on a hit of
    the sector."""
    victim = 0
    oldest = stamp[row0, 0]
    for w in range(assoc):
        if tag[row0, w] == line:
            stamp[row0, w] = clock
            if valid[row0, w] & sector_bit:
                return True
            valid[row0, w] |= sector_bit
            return False
        if stamp[row0, w] < oldest:
            oldest = stamp[row0, w]
            victim = w
    if allocate:
        tag[row0, victim] = line
        valid[row0, victim] = sector_bit
        stamp[row0, victim] = clock
    return False


@njit(cache=True)
def _deliver(ret, w, rc, ready, rec_done, pending):  # pragma: no cover - compiled
    """A load's request is back at ``ret``: the warp's results and the record's
    completion move on."""
    ready[w] = max(ready[w], ret)
    rec_done[rc] = max(rec_done[rc], ret)
    pending[w] -= 1


@njit(cache=True)
def _core(
    kind,
    count,
    dep,
    lsu,
    req0,
    req1,
    req_addr,
    warp_rec,
    blocks,
    wpb,
    res,
    block_delay,
    fp,
    ip,
    col_bits,
    row_bits,
    bank_bits,
    ch_bits,
    n_channels,
):  # pragma: no cover - compiled; tested via run_streams
    # parameters, in the order run_streams packs them (ip: integers, fp: floats, times
    # in cycles)
    n_sm = ip[0]
    S = ip[1]
    P = ip[2]
    l2_sets = ip[3]
    l2_assoc = ip[4]
    tex_sets = ip[5]
    tex_assoc = ip[6]
    c_sets = ip[7]
    c_assoc = ip[8]
    c_line = ip[9]
    alu_lat = fp[0]
    alu_thru = fp[1]
    lsu_thru = fp[2]
    shmem_lat = fp[3]
    tex_hit = fp[4]
    const_hit = fp[5]
    l2_front = fp[6]
    l2_back = fp[7]
    l2_to_dram = fp[8]
    burst = fp[9]
    fixed = fp[10]
    occ = fp[11:14]
    post = fp[14:17]
    eps = 1e-9
    W = blocks * wpb
    nslots = res * wpb
    n_banks = n_channels << bank_bits.size
    counters = np.zeros(N_COUNTERS, np.int64)
    # warp state
    cur = np.zeros(W, np.int64)
    left = np.zeros(W, np.int64)
    next_ok = np.zeros(W)
    ready = np.zeros(W)
    pending = np.zeros(W, np.int64)
    last_issue = np.zeros(W)
    done_issue = np.zeros(W, np.bool_)
    finished = np.zeros(W, np.bool_)
    finish = np.zeros(W)
    for w in range(W):
        cur[w] = warp_rec[w]
        left[w] = count[cur[w]]
    n_rec = kind.size
    rec_issue = np.full(n_rec, -1.0)
    rec_done = np.full(n_rec, -1.0)
    # SM state
    slot_warp = np.full((n_sm, nslots), -1, np.int64)
    bs_block = np.full((n_sm, res), -1, np.int64)
    bs_left = np.zeros((n_sm, res), np.int64)
    bs_free = np.full(
        (n_sm, res), 0.0
    )  # time the block slot can take a new block (when empty)
    bs_end = np.zeros((n_sm, res))
    alu_free = np.zeros(n_sm)
    lsu_free = np.zeros(n_sm)
    next_block = 0
    # caches
    l2_tag = np.full((l2_sets, l2_assoc), -1, np.int64)
    l2_val = np.zeros((l2_sets, l2_assoc), np.int64)
    l2_st = np.zeros((l2_sets, l2_assoc), np.int64)
    tx_tag = np.full((n_sm * tex_sets, tex_assoc), -1, np.int64)
    tx_val = np.zeros((n_sm * tex_sets, tex_assoc), np.int64)
    tx_st = np.zeros((n_sm * tex_sets, tex_assoc), np.int64)
    c_tag = np.full((n_sm * c_sets, c_assoc), -1, np.int64)
    c_val = np.zeros((n_sm * c_sets, c_assoc), np.int64)
    c_st = np.zeros((n_sm * c_sets, c_assoc), np.int64)
    clock = 0
    # DRAM
    bank_free = np.zeros(n_banks)
    open_row = np.full(n_banks, -1, np.int64)
    bus_free = np.zeros(n_channels)
    # events: item -> (stage, addr, warp, rec, flags)
    cap = 4 * req_addr.size + 16
    ht = np.zeros(cap)
    hs = np.zeros(cap, np.int64)
    hi = np.zeros(cap, np.int64)
    e_stage = np.zeros(cap, np.int8)
    e_addr = np.zeros(cap, np.int64)
    e_warp = np.zeros(cap, np.int64)
    e_rec = np.zeros(cap, np.int64)
    e_store = np.zeros(cap, np.bool_)
    e_bypass = np.zeros(cap, np.bool_)
    e_out = np.zeros(cap, np.int64)
    e_bank = np.zeros(cap, np.int64)
    e_arr = np.zeros(cap)
    e_start = np.zeros(cap)
    q_next = np.full(cap, -1, np.int64)
    q_head = np.full(n_banks, -1, np.int64)
    q_tail = np.full(n_banks, -1, np.int64)
    q_len = np.zeros(n_banks, np.int64)
    free_items = np.arange(cap - 1, -1, -1).astype(np.int64)
    n_free = cap
    nh = 0
    seq = 0
    # DRAM log
    logcap = 2 * req_addr.size + 16
    lg_bank = np.zeros(logcap, np.int64)
    lg_arr = np.zeros(logcap)
    lg_start = np.zeros(logcap)
    lg_serv = np.zeros(logcap)
    lg_out = np.zeros(logcap, np.int8)
    lg_write = np.zeros(logcap, np.bool_)
    lg_warp = np.zeros(logcap, np.int64)
    nlog = 0
    last_dram = 0.0
    t = 0.0
    n_done_warps = 0
    while True:
        # 1. memory events up to t, in time order
        while nh > 0 and ht[0] <= t:
            tau, it, nh = _heap_pop(ht, hs, hi, nh)
            stage = e_stage[it]
            a = e_addr[it]
            w = e_warp[it]
            rc = e_rec[it]
            st = e_store[it]
            if stage == 0:  # L2 slice
                clock += 1
                go_dram = True
                if not e_bypass[it]:
                    line = a >> 7
                    sbit = 1 << ((a >> 5) & 3)
                    hit = _lookup(
                        l2_tag,
                        l2_val,
                        l2_st,
                        line % l2_sets,
                        l2_assoc,
                        line,
                        sbit,
                        clock,
                        True,
                    )
                    if st:
                        counters[C_L2_WRITES] += 1
                    else:
                        counters[C_L2_READS] += 1
                        if hit:
                            counters[C_L2_READ_HITS] += 1
                            _deliver(tau + l2_back, w, rc, ready, rec_done, pending)
                            go_dram = False
                if go_dram:
                    e_stage[it] = 1
                    nh = _heap_push(ht, hs, hi, nh, tau + l2_to_dram, seq, it)
                    seq += 1
                else:
                    free_items[n_free] = it
                    n_free += 1
            elif stage == 1:  # arrival at a DRAM bank: FCFS queue, open page
                ch = _field(a, ch_bits) % n_channels
                b = (ch << bank_bits.size) | _field(a, bank_bits)
                row = _field(a, row_bits)
                if open_row[b] < 0:
                    o = 1
                elif open_row[b] == row:
                    o = 0
                else:
                    o = 2
                open_row[b] = (
                    row  # FCFS: the row this request finds is its predecessor's
                )
                e_out[it] = o
                e_bank[it] = b
                e_arr[it] = tau
                if (
                    q_len[b] == 0
                ):  # idle bank: service starts when its last burst has ended
                    s0 = max(tau, bank_free[b])
                    e_start[it] = s0
                    e_stage[it] = 2
                    nh = _heap_push(ht, hs, hi, nh, s0 + occ[o] - burst, seq, it)
                    seq += 1
                else:
                    q_next[q_tail[b]] = it
                q_next[it] = -1
                if q_len[b] == 0:
                    q_head[b] = it
                q_tail[b] = it
                q_len[b] += 1
            else:  # stage 2: the bank's data is ready for its channel's bus
                o = e_out[it]
                b = e_bank[it]
                ch = b >> bank_bits.size
                bs = max(tau, bus_free[ch])
                end = bs + burst
                bus_free[ch] = end
                bank_free[b] = end
                last_dram = max(last_dram, end)
                counters[C_ROW + o] += 1
                s0 = e_start[it]
                lg_bank[nlog] = b
                lg_arr[nlog] = e_arr[it]
                lg_start[nlog] = s0
                lg_serv[nlog] = end - s0
                lg_out[nlog] = o
                lg_write[nlog] = st
                lg_warp[nlog] = w
                nlog += 1
                if st:
                    counters[C_DRAM_WRITES] += 1
                else:
                    counters[C_DRAM_READS] += 1
                    _deliver(end + post[o], w, rc, ready, rec_done, pending)
                # the bank's queue: this request leaves, the next one starts when this
                # burst ends
                q_head[b] = q_next[it]
                q_len[b] -= 1
                free_items[n_free] = it
                n_free += 1
                if q_len[b] > 0:
                    j = q_head[b]
                    e_start[j] = end
                    e_stage[j] = 2
                    nh = _heap_push(ht, hs, hi, nh, end + occ[e_out[j]] - burst, seq, j)
                    seq += 1
        any_issue = False
        for sm in range(n_sm):
            # 2. retire finished warps, free and refill block slots
            for bsl in range(res):
                blk = bs_block[sm, bsl]
                if blk >= 0:
                    for k in range(wpb):
                        w = slot_warp[sm, bsl * wpb + k]
                        if (
                            w >= 0
                            and done_issue[w]
                            and not finished[w]
                            and pending[w] == 0
                        ):
                            finished[w] = True
                            n_done_warps += 1
                            finish[w] = max(last_issue[w] + 1.0, ready[w])
                            bs_end[sm, bsl] = max(bs_end[sm, bsl], finish[w])
                            bs_left[sm, bsl] -= 1
                            slot_warp[sm, bsl * wpb + k] = -1
                    if bs_left[sm, bsl] == 0:
                        bs_block[sm, bsl] = -1
                        bs_free[sm, bsl] = math.ceil(bs_end[sm, bsl])
        # block slots refilled slot-major, so that the first wave goes round-robin over
        # the SMs
        for bsl in range(res):
            for sm in range(n_sm):
                if (
                    bs_block[sm, bsl] < 0
                    and next_block < blocks
                    and bs_free[sm, bsl] <= t
                ):
                    blk = next_block
                    next_block += 1
                    bs_block[sm, bsl] = blk
                    bs_left[sm, bsl] = wpb
                    bs_end[sm, bsl] = 0.0
                    for k in range(wpb):
                        w = blk * wpb + k
                        slot_warp[sm, bsl * wpb + k] = w
                        next_ok[w] = t + block_delay[blk]
                        ready[w] = t
        for sm in range(n_sm):
            # 3. issue
            for sch in range(S):
                issued = 0
                for sl in range(sch, nslots, S):
                    if issued >= P:
                        break
                    w = slot_warp[sm, sl]
                    if w < 0 or done_issue[w] or next_ok[w] > t:
                        continue
                    r = cur[w]
                    k = kind[r]
                    if (
                        dep[r]
                        and left[w] == count[r]
                        and (pending[w] > 0 or ready[w] > t)
                    ):
                        continue
                    if k == 0:
                        if alu_free[sm] >= t + 1 - eps:
                            continue
                        alu_free[sm] = max(alu_free[sm], t) + 1.0 / alu_thru
                        ready[w] = max(ready[w], t + alu_lat)
                        counters[C_EXEC] += 1
                        counters[C_ISSUED] += 1
                        rec_issue[r] = t
                    else:
                        if lsu_free[sm] >= t + 1 - eps:
                            continue
                        lsu_free[sm] = max(lsu_free[sm], t) + lsu[r] / lsu_thru
                        counters[C_EXEC] += 1
                        nrep = int(lsu[r]) - 1
                        counters[C_ISSUED] += 1 + nrep
                        rec_issue[r] = t
                        rec_done[r] = t
                        if fixed > 0:
                            if k == 1 or k == 3 or k == 4 or k == 7 or k == 5:
                                ready[w] = max(ready[w], t + fixed)
                                rec_done[r] = t + fixed
                        elif k == 5:
                            counters[C_SH_REPLAYS] += nrep
                            counters[C_LDST_S] += 1
                            rec_done[r] = t + shmem_lat
                            ready[w] = max(ready[w], t + shmem_lat)
                        elif k == 6:
                            counters[C_SH_REPLAYS] += nrep
                            counters[C_LDST_S] += 1
                        elif k == 3 or k == 4:
                            if k == 3:
                                counters[C_LDST_T] += 1
                            else:
                                counters[C_LDST_C] += 1
                                counters[C_C_REPLAYS] += nrep
                            for q in range(req0[r], req1[r]):
                                a = req_addr[q]
                                clock += 1
                                if k == 3:
                                    counters[C_TEX_REQ] += 1
                                    line = a >> 7
                                    sbit = 1 << ((a >> 5) & 3)
                                    hit = _lookup(
                                        tx_tag,
                                        tx_val,
                                        tx_st,
                                        sm * tex_sets + line % tex_sets,
                                        tex_assoc,
                                        line,
                                        sbit,
                                        clock,
                                        True,
                                    )
                                    lat = tex_hit
                                    nsec = 1
                                else:
                                    counters[C_CONST_REQ] += 1
                                    line = a // c_line
                                    hit = _lookup(
                                        c_tag,
                                        c_val,
                                        c_st,
                                        sm * c_sets + line % c_sets,
                                        c_assoc,
                                        line,
                                        1,
                                        clock,
                                        True,
                                    )
                                    lat = const_hit
                                    nsec = c_line // 32
                                if hit:
                                    if k == 3:
                                        counters[C_TEX_HITS] += 1
                                    else:
                                        counters[C_CONST_HITS] += 1
                                    ready[w] = max(ready[w], t + lat)
                                    rec_done[r] = max(rec_done[r], t + lat)
                                else:
                                    for s_ in range(nsec):
                                        j = free_items[n_free - 1]
                                        n_free -= 1
                                        e_stage[j] = 0
                                        e_addr[j] = a + 32 * s_
                                        e_warp[j] = w
                                        e_rec[j] = r
                                        e_store[j] = False
                                        e_bypass[j] = False
                                        nh = _heap_push(
                                            ht, hs, hi, nh, t + l2_front, seq, j
                                        )
                                        seq += 1
                                        pending[w] += 1
                        else:  # global load, store, uncached load
                            st = k == 2
                            counters[C_LDST_G] += 1
                            counters[C_G_REPLAYS] += nrep
                            for q in range(req0[r], req1[r]):
                                if st:
                                    counters[C_G_ST] += 1
                                else:
                                    counters[C_G_LD] += 1
                                    pending[w] += 1
                                j = free_items[n_free - 1]
                                n_free -= 1
                                e_stage[j] = 0
                                e_addr[j] = req_addr[q]
                                e_warp[j] = w
                                e_rec[j] = r
                                e_store[j] = st
                                e_bypass[j] = k == 7
                                nh = _heap_push(ht, hs, hi, nh, t + l2_front, seq, j)
                                seq += 1
                    next_ok[w] = t + 1
                    last_issue[w] = t
                    issued += 1
                    any_issue = True
                    left[w] -= 1
                    if left[w] == 0:
                        cur[w] += 1
                        if cur[w] == warp_rec[w + 1]:
                            done_issue[w] = True
                        else:
                            left[w] = count[cur[w]]
        if n_done_warps == W and nh == 0:
            break
        # 4. the next cycle anything can happen
        if any_issue:
            t += 1.0
            continue
        nxt = np.inf
        if nh > 0:
            nxt = ht[0]
        for sm in range(n_sm):
            for sl in range(nslots):
                w = slot_warp[sm, sl]
                if w < 0:
                    continue
                if done_issue[w]:
                    if pending[w] == 0:
                        nxt = min(nxt, t + 1.0)
                    continue
                c = next_ok[w]
                r = cur[w]
                if dep[r] and left[w] == count[r]:
                    if pending[w] > 0:
                        continue
                    c = max(c, ready[w])
                if c <= t:
                    c = t + 1.0
                nxt = min(nxt, c)
            for bsl in range(res):
                if bs_block[sm, bsl] < 0 and next_block < blocks:
                    nxt = min(nxt, max(bs_free[sm, bsl], t + 1.0))
        if nxt == np.inf:
            raise RuntimeError(
                "refsim: no event and no runnable warp before every warp finished"
            )
        t = max(t + 1.0, math.ceil(nxt))
    end = 0.0
    for w in range(W):
        end = max(end, finish[w])
    end = max(end, last_dram)
    counters[C_CYCLES] = math.ceil(end)
    return (
        end,
        counters,
        lg_bank[:nlog],
        lg_arr[:nlog],
        lg_start[:nlog],
        lg_serv[:nlog],
        lg_out[:nlog],
        lg_write[:nlog],
        lg_warp[:nlog],
        rec_issue,
        rec_done,
        finish,
    )


# ---------------------------------------------------------------------------------------------
# Python entry points


@dataclass(frozen=True)
class Result:
    """One simulated run (the **simulated reference**; nothing here is measured).

    ``time_ns``: kernel time from the first issue to the last warp's last result or the
    last DRAM write, in ns at the simulated clock; ``cycles`` the same in core cycles.
    ``counters``: :data:`COUNTERS` → totals over the grid. ``dram_log``: one row per
    DRAM request in the order the banks served it (per bank that is arrival order: FCFS)
    with ``bank``, ``arrival_ns``, ``service_ns`` (the bank's busy time, bus wait
    included), ``wait_ns`` (arrival to start of service), ``outcome`` (hit / miss /
    conflict), ``write`` and ``warp``. ``record_issue`` and ``record_done`` give each
    stream record's issue and data-ready cycle (memory records; -1 for arithmetic runs);
    ``warp_finish`` each warp's finishing cycle.
    """

    time_ns: float
    cycles: float
    counters: Mapping[str, float]
    dram_log: object
    record_issue: np.ndarray = field(repr=False)
    record_done: np.ndarray = field(repr=False)
    warp_finish: np.ndarray = field(repr=False)
    kernel: str = ""
    placement: Mapping[str, str] = field(default_factory=dict)
    seed: int = 0

    def per_warp(self, n_warps: int) -> dict[str, float]:
        """``inst_executed`` and ``inst_issued`` per warp (what
        :func:`gpumodels.papers.huang_li.model.profile` takes)."""
        n = check_int("n_warps", n_warps, 1)
        return {
            "inst_executed": self.counters["inst_executed"] / n,
            "inst_issued": self.counters["inst_issued"] / n,
        }


def _bits(t) -> np.ndarray:
    return np.array(t, dtype=np.int64)


def run_streams(st: Streams, rm: RefMachine | None = None, seed: int = 0) -> Result:
    """Run :class:`Streams` on the simulated GPU ``rm`` (default :func:`machine`) and
    collect the result."""
    import pandas as pd

    rm = rm or machine()
    seed = check_int("seed", seed, 0)
    check_real("fixed_mem_lat", rm.fixed_mem_lat, 0.0)
    amap = address_map(rm.mapping)
    ghz = rm.clock_ghz
    front = rm.l2_front + rm.l2_to_dram  # cycles from issue to the bank
    occ = np.array(rm.occupancy_ns) * ghz
    post = (
        np.array(rm.lat_ns) * ghz - front - occ
    )  # return delay making isolated accesses exact
    if np.any(post < 0):
        raise ValueError(
            f"the printed latencies {rm.lat_ns} ns are shorter than the pipeline and "
            "bank times; "
            "lower l2_front or l2_to_dram"
        )
    channels = (
        amap.channels if amap.channels is not None else 1 << len(amap.channel_bits)
    )
    burst = (
        32.0 / (rm.pin_bandwidth_gbs / channels) * ghz
    )  # cycles a 32-B burst holds its channel's bus
    fp = np.concatenate(
        [
            [
                rm.alu_lat,
                rm.alu_thru,
                rm.lsu_thru,
                rm.shmem_lat,
                rm.tex_hit_lat,
                rm.const_hit_lat,
                rm.l2_front,
                rm.l2_back,
                rm.l2_to_dram,
                burst,
                rm.fixed_mem_lat,
            ],
            occ,
            post,
        ]
    ).astype(np.float64)
    ip = np.array(
        [
            rm.sm_count,
            rm.schedulers,
            rm.issue_per_scheduler,
            rm.l2_sets,
            rm.l2_assoc,
            rm.tex_sets,
            rm.tex_assoc,
            rm.const_sets,
            rm.const_assoc,
            rm.const_line_bytes,
        ],
        dtype=np.int64,
    )
    rng = np.random.default_rng(seed)
    delay = (
        rng.integers(0, rm.launch_jitter, st.blocks).astype(np.float64)
        if rm.launch_jitter > 0
        else np.zeros(st.blocks)
    )
    out = _core(
        st.kind,
        st.count,
        st.dep,
        st.lsu,
        st.req0,
        st.req1,
        st.req_addr,
        st.warp_rec,
        st.blocks,
        st.warps_per_block,
        st.resident_blocks_per_sm,
        delay,
        fp,
        ip,
        _bits(amap.column_bits),
        _bits(amap.row_bits),
        _bits(amap.bank_bits),
        _bits(amap.channel_bits),
        channels,
    )
    (
        end,
        counters,
        bank,
        arr,
        start,
        serv,
        outc,
        write,
        warp,
        rec_issue,
        rec_done,
        finish,
    ) = out
    order = np.lexsort((start, bank))  # per bank, in service order
    log = pd.DataFrame(
        {
            "bank": bank[order],
            "arrival_ns": arr[order] / ghz,
            "service_ns": serv[order] / ghz,
            "wait_ns": (start[order] - arr[order]) / ghz,
            "outcome": np.array(["hit", "miss", "conflict"])[outc[order]],
            "write": write[order],
            "warp": warp[order],
        }
    )
    return Result(
        time_ns=float(end) / ghz,
        cycles=float(end),
        counters=dict(zip(COUNTERS, map(int, counters))),
        dram_log=log,
        record_issue=rec_issue,
        record_done=rec_done,
        warp_finish=finish,
        seed=seed,
    )


def kernels() -> list[str]:
    """The kernel names :func:`simulate` accepts: Table IV's kernels and ``"vecAdd"``
    (benchmark names work too)."""
    return [_kernel_of(b).name for b in GENERATORS]


def _resolve(kernel_name: str) -> Kernel:
    for b in GENERATORS:
        if kernel_name == b or kernel_name == _kernel_of(b).name:
            return _kernel_of(b)
    raise UnknownNameError(
        f"kernel must be one of {', '.join(kernels())} (or a benchmark name), got "
        f"{kernel_name!r}"
    )


def _moves(k: Kernel, placement) -> dict[str, str]:
    if isinstance(placement, str):
        rows = [
            r
            for r in _placement_tests(None, counted_only=False)
            if r["test"] == placement
        ]
        if not rows:
            raise ValueError(
                "placement must be a test name of data/huang_li/placements.csv or a "
                "mapping "
                f"array -> space, got {placement!r}"
            )
        if rows[0]["kernel"] != k.name:
            raise ValueError(
                f"placement {placement!r} is a test of {rows[0]['kernel']}, not of "
                f"{k.name}"
            )
        return parse_moves(rows[0]["moves"])
    if placement is None:
        return {}
    if not isinstance(placement, Mapping):
        raise ValueError(
            "placement must be a test name or a mapping array -> space, got "
            f"{type(placement).__name__}"
        )
    return dict(placement)


def simulate(kernel: str, placement=None, seed: int = 0, **options) -> Result:
    """Simulate a Table IV kernel (or ``"vecAdd"``) under a placement; the **simulated
    reference**.

    ``placement``: a test name of ``data/huang_li/placements.csv`` (e.g. ``"NN_T"``), a
    mapping array → memory space applied on top of the kernel's sample placement, or
    ``None`` (the sample). ``options`` change :class:`RefMachine` parameters (e.g.
    ``sm_count=1``). Illegal placements raise ``ValueError`` naming the array, the rule
    and the value (writes to C, T or 2T; constant data over 64 KB; shared data over 48
    KB per block or beyond an SM; texture extents).
    """
    k = _resolve(kernel)
    moves = _moves(k, placement)
    rm = machine().with_(**options) if options else machine()
    tr = k.trace(moves)
    st = kernel_streams(tr, rm)
    return replace(
        run_streams(st, rm, seed), kernel=k.name, placement=dict(tr.placement)
    )


def second_access_latency(
    addr0: int, addr1: int, rm: RefMachine | None = None
) -> float:
    """Latency (ns) of an uncached load of ``addr1`` issued right after one of ``addr0``
    has returned, on an idle simulated GPU: the oracle Algorithm 1
    (:func:`gpumodels.engines.refsim.dram.detect_mapping`) runs against."""
    a0 = check_int("addr0", addr0, 0)
    a1 = check_int("addr1", addr1, 0)
    rm = rm or machine()
    st = streams_from_records(
        [[(LDU, 1, False, 1.0, [a0 - a0 % 32]), (LDU, 1, True, 1.0, [a1 - a1 % 32])]]
    )
    res = run_streams(st, rm.with_(sm_count=1, launch_jitter=0))
    return float(res.record_done[1] - res.record_issue[1]) / rm.clock_ghz


def lindley_waits(log) -> np.ndarray:
    """Per-bank waits of a ``dram_log`` recomputed by the Lindley recursion
    (:func:`gpumodels.engines.refsim.dram.lindley`) from its arrivals and services, bank
    by bank in the log's order (ns). For an FCFS bank this equals the logged ``wait_ns``
    (the test of the simulator's queues).
    """
    bank = np.asarray(log["bank"])
    a = np.asarray(log["arrival_ns"], dtype=float)
    s = np.asarray(log["service_ns"], dtype=float)
    w = np.zeros(a.size)
    edges = np.flatnonzero(np.r_[True, bank[1:] != bank[:-1], True])
    for i, j in itertools.pairwise(edges):
        w[i:j] = lindley(np.diff(a[i:j], prepend=a[i]), s[i:j])
    return w


def littles_law(log, start_ns: float, stop_ns: float) -> tuple[float, float]:
    """``(L, λ·W)`` for the DRAM (queue + service) in a time window of a ``dram_log``.

    L is the time-average number of requests in the banks over ``[start_ns, stop_ns)``
    (the step function of arrivals and departures integrated exactly); λ the arrivals
    per ns in the window; W the mean time in the banks of the requests that arrived in
    it.
    """
    a = np.asarray(log["arrival_ns"], dtype=float)
    d = (
        a
        + np.asarray(log["wait_ns"], dtype=float)
        + np.asarray(log["service_ns"], dtype=float)
    )
    t0 = check_real("start_ns", start_ns, 0.0)
    t1 = check_real("stop_ns", stop_ns, t0, lo_open=False)
    if t1 <= t0:
        raise ValueError(f"stop_ns must be greater than start_ns ({t0}), got {t1}")
    area = np.clip(np.minimum(d, t1) - np.maximum(a, t0), 0.0, None).sum()
    inside = (a >= t0) & (a < t1)
    if not inside.any():
        raise ValueError("no DRAM request arrived in the window")
    lam = inside.sum() / (t1 - t0)
    return float(area / (t1 - t0)), float(lam * (d - a)[inside].mean())


def window_ipc(warp, seq, issue, body: int, k1: int, k2: int) -> float:
    """Instructions per cycle issued between warp 0's ``k1``-th and ``k2``-th trips of a
    loop of ``body`` instructions (:func:`gpumodels.engines.sim.trip_starts`,
    :func:`gpumodels.engines.sim.rate_between`): whole periods of the leading warp. Used
    for both simulators in the cross-check (:func:`alpha_ipc`)."""

    k1 = check_int("k1", k1, 0)
    k2 = check_int("k2", k2, k1 + 1)
    starts = trip_starts(warp, seq, issue, body)
    if starts.size <= k2:
        raise ValueError(
            f"warp 0 made {starts.size} trips; k2 must be below that, got {k2}"
        )
    return rate_between(issue, starts[k1], starts[k2])


def alpha_ipc(
    n: int, alpha: int, params=None, window: tuple[int, int] = (10, 30)
) -> float:
    """IPC per SM of Volkov's α-workload (a load, then α dependent adds, looped) on this
    simulator with the memory system replaced by Volkov's fixed latency and caches off —
    the cross-check with :mod:`gpumodels.engines.sim`.

    ``params``: a :func:`gpumodels.facts.param_sets.params` record (default Kepler).
    Every warp runs ``window[1] + 10`` trips; the rate is :func:`window_ipc` over warp
    0's trips ``window``.
    """

    p = params or volkov_params("Kepler")
    n = check_int("n", n, 1, 64)
    alpha = check_int("alpha", alpha, 0)
    rm = machine().with_(
        sm_count=1,
        schedulers=int(p.schedulers),
        issue_per_scheduler=max(1, round(p.issue_thru / p.schedulers)),
        alu_lat=float(p.alu_lat),
        alu_thru=float(p.alu_thru),
        lsu_thru=float(p.mem_thru),
        fixed_mem_lat=float(p.mem_lat),
        launch_jitter=0,
    )
    k1, k2 = window
    trips = k2 + 10
    body = [(LDG, 1, True, 1.0, [])] + [(ALU, 1, True, 1.0, [])] * alpha
    st = streams_from_records([body * trips] * n, warps_per_block=n)
    res = run_streams(st, rm)
    per = trips * (alpha + 1)
    return window_ipc(
        np.repeat(np.arange(n), per),
        np.tile(np.arange(per), n),
        res.record_issue,
        alpha + 1,
        k1,
        k2,
    )


# ---------------------------------------------------------------------------------------------
# cached reference data (tools/simulate_huang_li.py writes it; tests re-simulate rows)

CACHE = "simulated/huang_li_reference.csv"
ALGORITHM1_CACHE = "simulated/huang_li_algorithm1.csv"
VOLKOV_CACHE = "simulated/huang_li_volkov_check.csv"
SOURCE = (
    "simulated reference: gpumodels.engines.refsim.simulator (book's own "
    "simulator, not measured), seed {seed}"
)
ALGORITHM1_BITS = range(3, 34)
"""The bits Algorithm 1 probes, from above the 3 byte bits up to the 12 GB of one K80
GPU (2^34 B)."""


def reference_row(test: Mapping[str, str], seed: int = 0) -> dict:
    """One row of ``CACHE``: a placement test of ``data/huang_li/placements.csv``
    simulated."""
    k = _resolve(test["kernel"])
    res = simulate(k.name, test["test"], seed=seed)
    row = {
        "set": test["set"],
        "benchmark": test["benchmark"],
        "kernel": k.name,
        "test": test["test"],
        "moves": test["moves"],
        "seed": seed,
        "n_warps": k.n_warps,
        "time_ns": repr(res.time_ns),
    }
    row.update(res.counters)
    log = res.dram_log
    if len(log):
        busy = log.groupby("bank")["service_ns"].sum()
        row["bank_busy_max"] = repr(float(busy.max() / res.time_ns))
        row["dram_wait_mean_ns"] = repr(float(log["wait_ns"].mean()))
    else:
        row["bank_busy_max"] = row["dram_wait_mean_ns"] = repr(0.0)
    row["source"] = SOURCE.format(seed=seed)
    return row


def algorithm1_rows() -> list[dict]:
    """Algorithm 1's per-bit second-access latencies measured on the simulator (rows of
    ``ALGORITHM1_CACHE``)."""
    base = 1 << 32
    out = []
    for x in ALGORITHM1_BITS:
        a0 = base & ~(1 << x)
        out.append(
            {
                "bit": x,
                "base": base,
                "addr0": a0,
                "addr1": a0 | (1 << x),
                "latency_ns": repr(second_access_latency(a0, a0 | (1 << x))),
                "source": SOURCE.format(seed=0)
                + "; second of two uncached loads on an idle GPU",
            }
        )
    return out


def parameters_table():
    """``data/huang_li/refsim_parameters.csv`` as a DataFrame (value, unit,
    printed/sourced/assumption, source)."""
    import pandas as pd

    return pd.DataFrame(read_rows("huang_li/refsim_parameters.csv"))


def volkov_check():
    """The cached cross-check with :mod:`gpumodels.engines.sim` (``VOLKOV_CACHE``) with
    the difference in %."""
    import pandas as pd

    df = pd.DataFrame(read_rows(VOLKOV_CACHE)).astype(
        {"n": int, "alpha": int, "ipc_refsim": float, "ipc_sim": float}
    )
    df["difference (%)"] = 100 * (df["ipc_refsim"] / df["ipc_sim"] - 1)
    return df
