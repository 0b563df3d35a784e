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
  (:data:`MAPPING`), channel and bank XOR-hashed with the row (:data:`ADDRESS_HASHES`),
  first-ready FCFS queues per bank with open rows (open-page, :data:`DRAM_POLICIES`),
  bank occupancy (GDDR5 timings) separate from pipeline latency, and a data bus per
  channel that no burst can exceed (so no run beats the pin bandwidth);
* **replays take issue slots** (:data:`REPLAY_ISSUE`) as well as load/store cycles;
* **barriers**: a ``bar.sync`` holds a warp until every unfinished warp of its block
  has reached it (the kernels place them where the CUDA sources call
  ``__syncthreads()``, and after a block's copy into shared memory);
* **2D textures in a block-linear layout** (tiles of 64 B × 8 rows); the model keeps the
  linear addresses, as the paper does;
* blocks go to SMs round-robin up to the occupancy limit, then to whichever SM frees a
  block slot first; each block starts 0–7 cycles late, drawn from ``seed``.

Each mechanism of issue 39 (hashing, FR-FCFS, replay slots, barriers) is a switch of
:class:`RefMachine` (:data:`SWITCHES`); switched off, they give the reference before it
but for one plain instruction per ``__syncthreads()`` and the larger kernel sizes.

Left out (and said in the book): instruction-cache and register-bank effects, DRAM
refresh and write-to-read turnarounds, L2 write-back (stores write through), the
texture filtering pipeline; and a store does not wait for the load whose value it
writes (only arithmetic and barriers wait for loads).

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
from collections import namedtuple
from collections.abc import Mapping, Sequence, Sized
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np
import pandas as pd

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
from gpumodels.engines.refsim.trace import (
    SPACES,
    distinct_lines_batch,
    lines_per_row,
    shared_conflict_replays_batch,
)
from gpumodels.engines.sim import MAX_ALPHA, rate_between, trip_starts
from gpumodels.facts import _fields
from gpumodels.facts.param_sets import params as volkov_params
from gpumodels.facts.params import check_params
from gpumodels.ground._jit import njit
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import InputTypeError, OutOfRangeError, UnknownNameError
from gpumodels.ground.schemas import REFSIM_COUNTERS
from gpumodels.ground.validate import (
    as_array,
    check_choice,
    check_int,
    check_keys,
    check_mapping,
    check_real,
    check_type,
)

MAPPING = "gddr5_6x16"
"""The simulated GPU's address map (``data/huang_li/address_maps.csv``), fixed before
any result."""

DRAM_POLICIES = ("fcfs", "frfcfs")
"""The ways a DRAM bank can pick its next request. ``"frfcfs"`` (the reference's
default) serves a request to the open row first, else the oldest (first-ready FCFS, as
GPU memory controllers schedule; no starvation cap); ``"fcfs"`` serves them in arrival
order (the book's reference before issue 39)."""

REPLAY_ISSUE = ("free", "slots")
"""Whether a memory instruction's replays take issue slots. ``"slots"`` (the
reference's default): each replay also takes an issue slot of the warp's scheduler, and
replays beyond the cycle's slots keep the scheduler from issuing for the whole cycles
they need; ``"free"``: they hold only the load/store unit (the book's reference before
issue 39)."""

ADDRESS_HASHES = ("none", "xor")
"""The ways a request's channel and bank can follow from its address. ``"xor"`` (the
reference's default) XORs each with the low bits of the row (permutation-based
interleaving, Zhang, Zhu and Zhang 2000), so that rows that share channel and bank
bits spread over the channels and banks; ``"none"`` takes the address map's channel
and bank bits as they are (the book's reference before issue 39)."""

BARRIERS = ("sync", "ignore")
"""What a kernel's ``__syncthreads()`` does. ``"sync"`` (the reference's default): a
warp reaches its ``bar.sync`` once its loads in flight have returned (the stores before
a barrier need their data) and waits there until every unfinished warp of its block
has reached it;
``"ignore"``: it issues as one ordinary instruction and waits for nobody (the book's
reference before issue 39, which had no barriers, plus that one instruction)."""

SWITCHES = {
    "dram_policy": "fcfs",
    "address_hash": "none",
    "replay_issue": "free",
    "barriers": "ignore",
}
"""Each mechanism issue 39 added to the reference, and the setting that switches it off
(:func:`switch_table`)."""

# instruction kinds of a stream record
ALU, LDG, STG, LDT, LDC, LDS, STS, LDU, BAR = 0, 1, 2, 3, 4, 5, 6, 7, 8
KIND_NAMES = (
    "alu",
    "ld.global",
    "st.global",
    "ld.texture",
    "ld.constant",
    "ld.shared",
    "st.shared",
    "ld.global.uncached",
    "bar.sync",
)

COUNTERS = REFSIM_COUNTERS
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


MAX_WARPS = 1 << 20
"""The most warps one run may hold (:class:`Streams`' ``blocks × warps_per_block``):
the compiled core keeps eleven arrays per warp; the book's kernels hold at most 8192
warps (transpose) and :func:`alpha_ipc` 64."""

MAX_MACHINE_CYCLES = 1e9
"""Upper bound of every latency, pipeline delay and DRAM time of a :class:`RefMachine`
in cycles (or ns for ``lat_ns`` and ``occupancy_ns``): the K80's are at most about
1000."""

MAX_MACHINE_COUNT = 1 << 10
"""Upper bound of a :class:`RefMachine`'s counts of units (``sm_count``,
``schedulers``, ``issue_per_scheduler``, cache ways) and of its per-cycle throughputs;
the K80 has 13 SMs and 24-way texture caches."""

MAX_CACHE_LINES = 1 << 20
"""Most lines one simulated cache may hold (``sets × assoc``, times ``sm_count`` for the
per-SM caches): three 8-byte words per line, 24 MB; the K80's L2 has 12288."""

MAX_ALPHA_RECORDS = 1 << 21
"""Most stream records one :func:`alpha_ipc` call may build, ``n × (alpha + 1) ×
(window[1] + 10)``: about 2 million, some seconds; the book's largest check (n = 64,
α = 64) builds 166400."""


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
    dram_policy: str = "frfcfs"
    address_hash: str = "xor"
    replay_issue: str = "slots"
    barriers: str = "sync"
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def __post_init__(self):
        """Check every numeric field: finite, in range, named in the error."""
        cyc, cnt = MAX_MACHINE_CYCLES, MAX_MACHINE_COUNT
        ctx = "RefMachine"
        _fields.mappings(self, ("sources",), str)
        for name in ("sm_count", "schedulers", "issue_per_scheduler"):
            check_int(name, getattr(self, name), 1, cnt, context=ctx)
        check_real("clock_ghz", self.clock_ghz, 0.0, 1000.0, ctx, lo_open=True)
        for name in ("alu_thru", "lsu_thru"):
            check_real(name, getattr(self, name), 0.0, cnt, ctx, lo_open=True)
        for name in (
            "alu_lat",
            "shmem_lat",
            "tex_hit_lat",
            "const_hit_lat",
            "l2_front",
            "l2_back",
            "l2_to_dram",
            "fixed_mem_lat",
        ):
            check_real(name, getattr(self, name), 0.0, cyc, ctx)
        for name in ("lat_ns", "occupancy_ns"):
            v = getattr(self, name)
            if not isinstance(v, (tuple, list)) or len(v) != 3:
                raise InputTypeError(
                    f"{name} must be three times in ns (row hit, miss, conflict) for "
                    f"{ctx}, got {v!r:.60}"
                )
            for i, x in enumerate(v):
                check_real(f"{name}[{i}]", x, 0.0, cyc, ctx)
        check_real(
            "pin_bandwidth_gbs", self.pin_bandwidth_gbs, 0.0, 1e6, ctx, lo_open=True
        )
        for cache_, per_sm in (("l2", 1), ("tex", self.sm_count), ("const", 0)):
            sets = check_int(
                f"{cache_}_sets",
                getattr(self, f"{cache_}_sets"),
                1,
                MAX_CACHE_LINES,
                context=ctx,
            )
            ways = check_int(
                f"{cache_}_assoc", getattr(self, f"{cache_}_assoc"), 1, cnt, context=ctx
            )
            lines = sets * ways * (per_sm or self.sm_count)
            if lines > MAX_CACHE_LINES:
                raise ValueError(
                    f"{cache_}_sets × {cache_}_assoc"
                    + (" × sm_count" if cache_ != "l2" else "")
                    + f" must be at most MAX_CACHE_LINES = {MAX_CACHE_LINES} for "
                    f"{ctx}, got {lines}"
                )
        check_int("const_line_bytes", self.const_line_bytes, 1, 1 << 20, context=ctx)
        check_int("tex_tile_bytes", self.tex_tile_bytes, 1, 1 << 20, context=ctx)
        check_int("tex_tile_rows", self.tex_tile_rows, 1, 1 << 20, context=ctx)
        check_int("launch_jitter", self.launch_jitter, 0, 1 << 20, context=ctx)
        check_choice("dram_policy", self.dram_policy, DRAM_POLICIES)
        check_choice("address_hash", self.address_hash, ADDRESS_HASHES)
        check_choice("replay_issue", self.replay_issue, REPLAY_ISSUE)
        check_choice("barriers", self.barriers, BARRIERS)
        try:
            address_map(self.mapping)
        except UnknownNameError as e:
            raise UnknownNameError(
                str(e).replace("preset", "mapping", 1) + f" for {ctx}"
            ) from None

    def with_(self, **changes) -> RefMachine:
        """A copy with some parameters changed (e.g. ``fixed_mem_lat=301`` or
        ``sm_count=1``); each is checked as at construction."""
        known = [f for f in self.__dataclass_fields__ if f != "sources"]
        for k in changes:
            if k not in known:
                raise UnknownNameError(
                    f"parameter must be one of {', '.join(known)}, got {k!r}"
                )
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


# --------------------------------------------------------------------------------------
# streams: what the core executes


@dataclass(frozen=True)
class Streams:
    """Per-warp instruction streams (CSR), the requests of each memory record, and the
    launch.

    A record is a run of ``count`` instructions of one ``kind`` (runs only for ALU;
    memory records have count 1); ``dep``: the run's first instruction waits for every
    result the warp has in flight; ``lsu``: cycles the record holds the load/store unit
    (1 + replays, so at least 1 for memory records); ``req0:req1`` its requests in
    ``req_addr`` (32-B sectors for global and texture records, lines for constant
    records). ``warp_rec`` holds each warp's first record (CSR with one more entry at
    the end); warps are numbered block by block. Construction refuses a kind outside
    ``KIND_NAMES``, a memory record with ``lsu < 1`` and a block whose warps reach
    different numbers of ``BAR`` records (they would wait for ever).
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

    def __post_init__(self):
        for name in ("kind", "count", "req0", "req1", "req_addr", "warp_rec"):
            _fields.array(self, name, lo=0, ndim=1, integer=True)
        _fields.array(self, "lsu", lo=0.0, ndim=1)
        if not isinstance(self.dep, np.ndarray) or self.dep.dtype != np.bool_:
            raise InputTypeError(
                f"Streams.dep must be a numpy array of booleans, got {self.dep!r:.60}"
            )
        n = len(self.kind)
        for name in ("count", "dep", "lsu", "req0", "req1"):
            if len(getattr(self, name)) != n:
                raise ValueError(
                    f"Streams.{name} must have one entry per record ({n}), got "
                    f"{len(getattr(self, name))}"
                )
        _fields.ints(self, ("blocks", "warps_per_block", "resident_blocks_per_sm"), 1)
        if n and self.kind.max() >= len(KIND_NAMES):
            i = int(np.argmax(self.kind >= len(KIND_NAMES)))
            raise OutOfRangeError(
                f"Streams.kind must hold kinds 0 to {len(KIND_NAMES) - 1} "
                f"({', '.join(KIND_NAMES)}), got {int(self.kind[i])} at record {i}"
            )
        # a memory record holds the load/store unit for 1 + replays cycles
        low = (self.kind != ALU) & (self.kind != BAR) & (self.lsu < 1.0)
        if low.any():
            i = int(np.argmax(low))
            raise OutOfRangeError(
                "Streams.lsu must be >= 1 for memory records (kinds other than alu "
                f"and bar.sync: 1 + replays), got {float(self.lsu[i])!r} at record {i} "
                f"({KIND_NAMES[int(self.kind[i])]})"
            )
        wr = self.warp_rec
        if wr.size < 2 or wr[0] != 0 or wr[-1] != n or np.any(np.diff(wr) < 0):
            raise ValueError(
                "Streams.warp_rec must be non-decreasing from 0 to the number of "
                f"records ({n}), with one entry per warp and one more, got {wr!r:.60}"
            )
        self._check_barriers()

    def _check_barriers(self) -> None:
        """Every warp of a block must reach the same number of barriers, or some would
        wait for ever (checked when ``warp_rec`` matches the launch; ``run_streams``
        refuses a mismatch)."""
        wpb = self.warps_per_block
        if self.warp_rec.size != self.blocks * wpb + 1:
            return
        bar = np.where(self.kind == BAR, self.count, 0)
        cum = np.concatenate([np.zeros(1, np.int64), np.cumsum(bar, dtype=np.int64)])
        per_warp = (cum[self.warp_rec[1:]] - cum[self.warp_rec[:-1]]).reshape(-1, wpb)
        uneven = np.any(per_warp != per_warp[:, :1], axis=1)
        if uneven.any():
            b = int(np.argmax(uneven))
            raise OutOfRangeError(
                f"Streams: the warps of block {b} reach different numbers of barriers "
                f"({per_warp[b].tolist()}, Streams.kind == BAR); each must reach the "
                "same, or some would wait for ever"
            )

    @property
    def n_warps(self) -> int:
        return self.blocks * self.warps_per_block


def streams_from_records(
    records_per_warp, warps_per_block: int = 1, resident_blocks_per_sm: int = 1
) -> Streams:
    """Build :class:`Streams` from Python lists: per warp, a list of ``(kind, count,
    dep, lsu, addresses)``.

    ``addresses`` are the record's request addresses (empty for ALU, shared and barrier
    records). A ``BAR`` record is a ``bar.sync`` per instruction: the warp waits until
    every unfinished warp of its block has reached it, so the warps of a block must
    reach the same number.
    Used by the tests and the Volkov cross-check; kernels go through
    :func:`kernel_streams`.
    """
    if not isinstance(records_per_warp, Sequence) or isinstance(
        records_per_warp, (str, bytes)
    ):
        raise InputTypeError(
            "records_per_warp must be a list with one list of records (kind, count, "
            "dep, lsu, addresses) per warp, got "
            f"{type(records_per_warp).__name__} {records_per_warp!r:.60}"
        )
    n_w = len(records_per_warp)
    if n_w > MAX_WARPS:
        raise ValueError(
            f"the number of warps must be at most MAX_WARPS = {MAX_WARPS}, got {n_w}"
        )
    kinds, counts, deps, lsus, r0, r1, addrs, wrec = [], [], [], [], [], [], [], [0]
    n_req = 0
    for w, recs in enumerate(records_per_warp):
        i = None
        try:
            if isinstance(recs, (str, bytes, Mapping)):
                raise TypeError(f"got {type(recs).__name__} {recs!r:.60}")
            if not isinstance(recs, Sized):  # an iterator of records, as before
                recs = list(recs)
            if len(recs) == 0:  # not `not recs`: a warp may be a numpy array
                raise OutOfRangeError(
                    f"records_per_warp[{w}] must be a non-empty list of records (every "
                    f"warp needs at least one record), got {recs!r:.60}"
                )
            for i, (kind, count, dep, lsu, ad) in enumerate(recs):
                check_int("kind", kind, 0, len(KIND_NAMES) - 1)
                check_int("count", count, 1)
                if kind not in (ALU, BAR):  # 1 + replays cycles on the load/store unit
                    check_real(
                        f"records_per_warp[{w}][{i}] lsu",
                        lsu,
                        1.0,
                        context=f"a {KIND_NAMES[kind]} record (1 + replays)",
                    )
                kinds.append(kind)
                counts.append(count)
                deps.append(bool(dep))
                lsus.append(float(lsu))
                r0.append(n_req)
                n_req += len(ad)
                r1.append(n_req)
                addrs.extend(int(a) for a in ad)
        except (InputTypeError, OutOfRangeError):
            raise
        except (TypeError, ValueError, OverflowError) as e:
            if i is None:  # the warp itself is not a list of records
                raise InputTypeError(
                    f"records_per_warp[{w}] must be a list of records (kind, count, "
                    f"dep, lsu, addresses); {e}"
                ) from None
            raise InputTypeError(
                f"records_per_warp[{w}][{i}] must be a record (kind, count, dep, lsu, "
                f"addresses) with a number lsu and integer addresses; {e}"
            ) from None
        wrec.append(len(kinds))
    wpb = check_int("warps_per_block", warps_per_block, 1)
    if n_w % wpb:
        raise ValueError(
            f"the number of warps ({n_w}) must be a multiple of warps_per_block ({wpb})"
        )
    # every warp of a block must reach the same number of barriers, or some would wait
    # for ever
    k, c = np.array(kinds, np.int64), np.array(counts, np.int64)
    bars = [
        int(c[wrec[w] : wrec[w + 1]][k[wrec[w] : wrec[w + 1]] == BAR].sum())
        for w in range(n_w)
    ]
    for b in range(0, n_w, wpb):
        if len(set(bars[b : b + wpb])) > 1:
            raise OutOfRangeError(
                f"records_per_warp: the warps of block {b // wpb} reach different "
                f"numbers of barriers ({bars[b : b + wpb]}); each must reach the same"
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
    _check_trace(tr)
    rm = _check_machine(rm)
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


def kernel_streams(tr: Trace, rm: RefMachine | None = None) -> Streams:
    """The :class:`Streams` of a placement's trace under the hardware rules (module
    docstring).

    Per memory row r of the trace: a run of the arithmetic before it (its first
    instruction waits for the warp's loads), a run of its addressing instructions (no
    wait), the memory record; then the warp's trailing arithmetic (waiting). Elements
    wider than 4 B are read as one access per lane (``word_bytes`` ≤ 16 never spans two
    32-B sectors in these kernels, which align every array).
    """
    _check_trace(tr)
    rm = machine() if rm is None else _check_machine(rm)
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
    wide = tr.word_bytes.astype(np.int64)  # a 16-B element may end in the next sector
    for mask in (is_g, is_t):
        if not mask.any():
            continue
        ri = np.nonzero(mask)[0]
        a, w = addr[mask], wide[mask]
        rows, sectors = distinct_lines_batch(a, 32, w)
        req_rows.append(ri[rows])
        req_addr.append(sectors)
        lsu[ri] = lines_per_row(a, 128, w)
    if is_c.any():
        ri = np.nonzero(is_c)[0]
        rows, lines = distinct_lines_batch(addr[is_c], rm.const_line_bytes, 1)
        req_rows.append(ri[rows])
        req_addr.append(lines)
        lsu[ri] = lines_per_row(addr[is_c], 4, 1)
    if is_s.any():
        lsu[is_s] = 1 + shared_conflict_replays_batch(addr[is_s])
    if req_rows:
        rr, ra = np.concatenate(req_rows), np.concatenate(req_addr)
        if len(req_rows) > 1:
            # each group is in (row, address) order already and a row is in one group
            # (one space): a stable sort by row alone orders them by (row, address)
            order = np.argsort(rr, kind="stable")
            rr, ra = rr[order], ra[order]
    else:
        rr, ra = np.zeros(0, np.int64), np.zeros(0, np.int64)
    q0 = np.searchsorted(rr, np.arange(n), "left")
    q1 = np.searchsorted(rr, np.arange(n), "right")

    # barriers are rows of their own (kind BAR, no addressing, no requests), in the
    # warp's order
    nb = tr.barriers.shape[0] if rm.barriers == "sync" else 0  # else plain ALU
    warp_, pos_, adr_ = tr.warp, tr.pos, tr.addressing
    if nb:
        z = np.zeros(nb, np.int64)
        merged = np.lexsort(
            (
                np.concatenate([pos_, tr.barriers[:, 1]]),
                np.concatenate([warp_, tr.barriers[:, 0]]),
            )
        )
        pick = lambda a, b: np.concatenate([a, b])[merged]
        warp_ = pick(warp_, tr.barriers[:, 0])
        pos_ = pick(pos_, tr.barriers[:, 1])
        adr_ = pick(adr_, z)
        kind = pick(kind, np.full(nb, BAR, np.int8))
        lsu = pick(lsu, np.ones(nb))
        q0, q1 = pick(q0, z), pick(q1, z)
        n += nb

    # interleave ALU runs: per row, arithmetic (waits) then addressing (no wait), then
    # the memory record (or barrier)
    W = tr.kernel.n_warps
    first_row = np.searchsorted(warp_, np.arange(W), "left")
    prev_end = np.zeros(n, np.int64)
    same = np.zeros(n, bool)
    same[1:] = warp_[1:] == warp_[:-1]
    prev_end[1:] = np.where(same[1:], pos_[:-1] + 1, 0)
    n_alu = pos_ - prev_end - adr_
    if np.any(n_alu < 0):
        raise ValueError("trace positions are inconsistent with its addressing counts")
    last_row = np.searchsorted(warp_, np.arange(W), "right") - 1
    has = last_row >= first_row
    tail = tr.executed - np.where(has, pos_[np.maximum(last_row, 0)] + 1, 0)
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
    r_kind[slot + 1] = np.where(adr_ > 0, ALU, -1)
    r_count[slot + 1] = adr_
    r_kind[slot + 2] = kind
    # a barrier waits for the warp's loads in flight: the stores before it write
    # their data (a store alone does not wait for it)
    r_dep[slot + 2] = kind == BAR
    r_count[slot + 2] = 1
    r_lsu[slot + 2] = lsu
    r_q0[slot + 2] = q0
    r_q1[slot + 2] = q1
    for j in range(3):
        r_warp[slot + j] = warp_
        r_ord[slot + j] = 3 * pos_ + j
    ts = 3 * n + np.arange(W)
    r_kind[ts] = np.where(tail > 0, ALU, -1)
    r_count[ts] = tail
    r_dep[ts] = True
    r_warp[ts] = np.arange(W)
    r_ord[ts] = np.iinfo(np.int64).max
    # copy-in of arrays moved into shared memory: each block loads its whole copy first
    # [A19]
    ck, cw, cord, cdep, clsu, cq0, cq1, ra = _copy_in(tr, addr, ra)
    if ck.size and rm.barriers == "sync":  # the block waits for its whole copy
        cat = np.concatenate
        ck = cat([ck, np.full(W, BAR, np.int16)])
        cw = cat([cw, np.arange(W)])
        cord = cat([cord, np.full(W, -(1 << 39), np.int64)])
        cdep = cat([cdep, np.ones(W, bool)])
        clsu = cat([clsu, np.ones(W)])
        cq0 = cat([cq0, np.zeros(W, np.int64)])
        cq1 = cat([cq1, np.zeros(W, np.int64)])
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
            rows, sectors = distinct_lines_batch(a, 32, 1)
            nlines = lines_per_row(a, 128, 1)
            w = np.nonzero(live)[0]
            q0 = n_req + np.searchsorted(rows, w, "left")
            q1 = n_req + np.searchsorted(rows, w, "right")
            extra.append(sectors)
            n_req += sectors.size
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


# --------------------------------------------------------------------------------------
# the compiled core
#
# ``_core`` allocates the simulator's state (numpy arrays, grouped in the named tuples
# below) and hands it to ``_event_loop``. Each step of the loop is a compiled function
# of its own that takes the groups it touches and returns the scalars it changes (heap
# size ``nh``, event sequence number ``seq``, free event items ``n_free``, the caches'
# LRU ``clock``, the DRAM log's length ``nlog``). The steps are inlined into
# ``_event_loop`` (``inline="always"``), which numba compiles without reference
# counting (``_nrt=False``; the loop allocates nothing), so the loop runs as fast as
# when it was one function.

_EPS = 1e-9

_Params = namedtuple(
    "_Params",
    "n_sm S P wpb res nslots blocks l2_sets l2_assoc tex_sets tex_assoc c_sets c_assoc "
    "c_line alu_lat alu_thru lsu_thru shmem_lat tex_hit const_hit l2_front l2_back "
    "l2_to_dram burst fixed n_channels frfcfs xor_hash replay_slots",
)
"""The core's scalar parameters (times in core cycles): SMs, schedulers per SM (``S``)
and issues per scheduler and cycle (``P``), warps per block (``wpb``), resident blocks
per SM (``res``), warp slots per SM, blocks; sets and ways of the L2, texture and
constant caches and the constant line's bytes; arithmetic latency and throughput,
load/store throughput, the hit latencies, the L2's pipeline (SM to L2, L2 back to the
SM, L2 to DRAM), a burst's time on its channel's bus, the fixed memory latency (0:
off), DRAM channels, whether the banks schedule first-ready FCFS, whether channel
and bank are XOR-hashed with the row, and whether replays take issue slots."""

_Stream = namedtuple("_Stream", "kind count dep lsu req0 req1 req_addr warp_rec")
"""The instruction streams (the arrays of :class:`Streams`)."""

_Warps = namedtuple(
    "_Warps",
    "cur left next_ok ready pending last_issue done_issue finished finish "
    "rec_issue rec_done at_bar",
)
"""Per warp: its current record, instructions left in it, the earliest next issue, the
time its results are ready, loads in flight, its last issue, done issuing, finished,
its finishing time; per record: issue and data-ready times; per warp again, whether
it waits at a barrier."""

_Sms = namedtuple(
    "_Sms",
    "slot_warp bs_block bs_left bs_free bs_end alu_free lsu_free sched_free bar_count",
)
"""Per SM: the warp in each warp slot; per block slot its block, warps left, the time
it can take a new block (when empty) and its last warp's finish; the times its
arithmetic and load/store units are free; per scheduler the time it may issue again
(replays that take issue slots); per block slot the warps waiting at its barrier."""

_Caches = namedtuple(
    "_Caches", "l2_tag l2_val l2_st tx_tag tx_val tx_st c_tag c_val c_st"
)
"""Tags, valid-sector bits and LRU stamps of the L2, the texture caches and the
constant caches (a block of sets per SM for the last two)."""

_Events = namedtuple(
    "_Events",
    "ht hs hi stage addr warp rec store bypass out bank row arr start q_next "
    "free_items",
)
"""Memory requests in flight (event items) and the heap of their next events: heap
time, sequence number (ties in the order scheduled) and item; per item its stage (0:
at the L2, 1: arriving at a DRAM bank, 2: bank data ready for the bus), address, warp,
record, store, L2 bypass, row-buffer outcome, bank, row, arrival and service start at
the bank, the next item in the bank's queue; the stack of free items."""

_Dram = namedtuple(
    "_Dram",
    "occ post row_bits bank_bits ch_bits bank_free open_row bus_free q_head q_tail "
    "q_len",
)
"""The DRAM: per row-buffer outcome (hit, miss, conflict) a bank's occupancy and the
return delay after the burst; the address map's row, bank and channel bits; per bank
the time its last burst ends, its open row, its request queue (head, tail, length); per
channel the time its data bus is free (when its last burst ends)."""

_Log = namedtuple("_Log", "bank arr start serv out write warp")
"""The DRAM log, one row per request served (:attr:`Result.dram_log`)."""


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


@njit(cache=True, inline="always")
def _schedule(ev, nh, seq, t, item):  # pragma: no cover - compiled
    """Event item ``item``'s next event is at ``t``: onto the heap. Returns ``(nh,
    seq)``."""
    ht, hs, hi = ev.ht, ev.hs, ev.hi
    nh = _heap_push(ht, hs, hi, nh, t, seq, item)
    return nh, seq + 1


@njit(cache=True, inline="always")
def _send_to_l2(
    t_l2, a, w, r, store, bypass, ev, nh, seq, n_free
):  # pragma: no cover - compiled
    """A request for address ``a`` leaves the SM: a free event item, due at its L2
    slice at ``t_l2``. Returns ``(nh, seq, n_free)``."""
    j = ev.free_items[n_free - 1]
    n_free -= 1
    ev.stage[j] = 0
    ev.addr[j] = a
    ev.warp[j] = w
    ev.rec[j] = r
    ev.store[j] = store
    ev.bypass[j] = bypass
    nh, seq = _schedule(ev, nh, seq, t_l2, j)
    return nh, seq, n_free


# step 1: memory events


@njit(cache=True, inline="always")
def _l2_access(
    tau, it, ev, caches, wa, counters, nh, seq, n_free, clock, pa
):  # pragma: no cover - compiled
    """Step 1a, a request at its L2 slice (sectored LRU, 128-B lines, 32-B sectors): a
    read hit returns to the warp after ``l2_back``; misses, stores (write-through) and
    uncached loads (no look-up) go on to DRAM. Returns ``(nh, seq, n_free, clock)``."""
    tag, valid, stamp = caches.l2_tag, caches.l2_val, caches.l2_st
    ready, rec_done, pending = wa.ready, wa.rec_done, wa.pending
    stage, free_items = ev.stage, ev.free_items
    a, store, w, rc = ev.addr[it], ev.store[it], ev.warp[it], ev.rec[it]
    clock += 1
    go_dram = True
    if not ev.bypass[it]:
        line = a >> 7
        sbit = 1 << ((a >> 5) & 3)
        row0 = line % pa.l2_sets
        hit = _lookup(tag, valid, stamp, row0, pa.l2_assoc, line, sbit, clock, True)
        if store:
            counters[C_L2_WRITES] += 1
        else:
            counters[C_L2_READS] += 1
            if hit:
                counters[C_L2_READ_HITS] += 1
                _deliver(tau + pa.l2_back, w, rc, ready, rec_done, pending)
                go_dram = False
    if go_dram:
        stage[it] = 1
        nh, seq = _schedule(ev, nh, seq, tau + pa.l2_to_dram, it)
    else:
        free_items[n_free] = it
        n_free += 1
    return nh, seq, n_free, clock


@njit(cache=True, inline="always")
def _row_outcome(open_row, row):  # pragma: no cover - compiled
    """Row-buffer outcome of an access to ``row`` in a bank with ``open_row`` open (-1:
    none): 0 hit, 1 miss (bank closed), 2 conflict (another row open)."""
    if open_row < 0:
        return 1
    if open_row == row:
        return 0
    return 2


@njit(cache=True, inline="always")
def _dram_arrival(tau, it, ev, dram, nh, seq, pa):  # pragma: no cover - compiled
    """Step 1b, a request arrives at its DRAM bank (open page, queued): channel, bank
    and row from the address map; the row-buffer outcome against the row its predecessor
    in the queue leaves open; it joins the bank's queue, and an idle bank starts it when
    its last burst has ended (data ready for the bus after the outcome's occupancy).
    Returns ``(nh, seq)``."""
    start, stage, q_next = ev.start, ev.stage, ev.q_next
    bank_free, open_row = dram.bank_free, dram.open_row
    q_head, q_tail, q_len = dram.q_head, dram.q_tail, dram.q_len
    row_bits, bank_bits, ch_bits = dram.row_bits, dram.bank_bits, dram.ch_bits
    a = ev.addr[it]
    row = _field(a, row_bits)
    ch = _field(a, ch_bits)
    bk = _field(a, bank_bits)
    if pa.xor_hash:  # the row's low bits permute channel and bank
        ch ^= row & ((1 << ch_bits.size) - 1)
        bk ^= (row >> ch_bits.size) & ((1 << bank_bits.size) - 1)
    ch = ch % pa.n_channels
    b = (ch << bank_bits.size) | bk
    ev.bank[it] = b
    ev.row[it] = row
    ev.arr[it] = tau
    if q_len[b] == 0 or not pa.frfcfs:
        # FCFS: the row this request finds is its predecessor's; FR-FCFS decides the
        # outcome of a queued request when the bank picks it (_dram_burst)
        ev.out[it] = _row_outcome(open_row[b], row)
        open_row[b] = row
    if q_len[b] == 0:  # idle bank: service starts when its last burst has ended
        s0 = max(tau, bank_free[b])
        start[it] = s0
        stage[it] = 2
        nh, seq = _schedule(ev, nh, seq, s0 + dram.occ[ev.out[it]] - pa.burst, it)
        q_head[b] = it
    else:
        q_next[q_tail[b]] = it
    q_next[it] = -1
    q_tail[b] = it
    q_len[b] += 1
    return nh, seq


@njit(cache=True, inline="always")
def _first_ready(b, ev, dram):  # pragma: no cover - compiled
    """FR-FCFS: the oldest queued request of bank ``b`` to its open row, else the
    oldest; it is moved to the head of the queue and its row-buffer outcome set (the
    bank's row becomes its row). Returns it."""
    q_next, open_row = ev.q_next, dram.open_row
    q_head, q_tail = dram.q_head, dram.q_tail
    prev, j = -1, q_head[b]
    while j >= 0 and ev.row[j] != open_row[b]:
        prev, j = j, q_next[j]
    if j < 0:  # no row hit waiting: the oldest
        prev, j = -1, q_head[b]
    if prev >= 0:  # unlink j and put it first
        q_next[prev] = q_next[j]
        if q_tail[b] == j:
            q_tail[b] = prev
        q_next[j] = q_head[b]
        q_head[b] = j
    ev.out[j] = _row_outcome(open_row[b], ev.row[j])
    open_row[b] = ev.row[j]
    return j


@njit(cache=True, inline="always")
def _dram_burst(
    tau, it, ev, dram, lg, wa, counters, nh, seq, n_free, nlog, pa
):  # pragma: no cover - compiled
    """Step 1c, a bank's data is ready for its channel's bus: the 32-B burst takes the
    bus when it is free, which ends the request's service (logged); a read's data
    returns to the warp after the outcome's return delay; the bank's next queued request
    starts. Returns ``(nh, seq, n_free, nlog)``."""
    ready, rec_done, pending = wa.ready, wa.rec_done, wa.pending
    out, start, stage = ev.out, ev.start, ev.stage
    occ, q_head, q_len = dram.occ, dram.q_head, dram.q_len
    o = out[it]
    b = ev.bank[it]
    store, w, rc = ev.store[it], ev.warp[it], ev.rec[it]
    ch = b >> dram.bank_bits.size
    bs = max(tau, dram.bus_free[ch])
    end = bs + pa.burst
    dram.bus_free[ch] = end
    dram.bank_free[b] = end
    counters[C_ROW + o] += 1
    s0 = start[it]
    lg.bank[nlog] = b
    lg.arr[nlog] = ev.arr[it]
    lg.start[nlog] = s0
    lg.serv[nlog] = end - s0
    lg.out[nlog] = o
    lg.write[nlog] = store
    lg.warp[nlog] = w
    nlog += 1
    if store:
        counters[C_DRAM_WRITES] += 1
    else:
        counters[C_DRAM_READS] += 1
        _deliver(end + dram.post[o], w, rc, ready, rec_done, pending)
    # the bank's queue: this request leaves, the next one starts when this burst ends
    q_head[b] = ev.q_next[it]
    q_len[b] -= 1
    ev.free_items[n_free] = it
    n_free += 1
    if q_len[b] > 0:
        j = q_head[b]
        if pa.frfcfs:
            j = _first_ready(b, ev, dram)
        start[j] = end
        stage[j] = 2
        nh, seq = _schedule(ev, nh, seq, end + occ[out[j]] - pa.burst, j)
    return nh, seq, n_free, nlog


@njit(cache=True, inline="always")
def _memory_events(
    t, ev, dram, lg, caches, wa, counters, nh, seq, n_free, clock, nlog, pa
):  # pragma: no cover - compiled
    """Step 1: the memory events up to ``t``, in time order (ties in the order they
    were scheduled). Returns ``(nh, seq, n_free, clock, nlog)``."""
    ht, hs, hi, stages = ev.ht, ev.hs, ev.hi, ev.stage
    while nh > 0 and ht[0] <= t:
        tau, it, nh = _heap_pop(ht, hs, hi, nh)
        stage = stages[it]
        if stage == 0:
            nh, seq, n_free, clock = _l2_access(
                tau, it, ev, caches, wa, counters, nh, seq, n_free, clock, pa
            )
        elif stage == 1:
            nh, seq = _dram_arrival(tau, it, ev, dram, nh, seq, pa)
        else:
            nh, seq, n_free, nlog = _dram_burst(
                tau, it, ev, dram, lg, wa, counters, nh, seq, n_free, nlog, pa
            )
    return nh, seq, n_free, clock, nlog


# step 2: warps and blocks


@njit(cache=True, inline="always")
def _retire_warps(sms, wa, pa):  # pragma: no cover - compiled
    """Step 2a: a warp that has issued its last instruction and has no load in flight
    finishes (at its last issue + 1 or its last result); a block slot whose warps have
    all finished is empty and takes a new block from the next whole cycle after its last
    warp's finish. Returns the number of warps finished."""
    slot_warp, bs_block, bs_left = sms.slot_warp, sms.bs_block, sms.bs_left
    bs_free, bs_end = sms.bs_free, sms.bs_end
    done_issue, finished, finish = wa.done_issue, wa.finished, wa.finish
    pending, last_issue, ready = wa.pending, wa.last_issue, wa.ready
    wpb = pa.wpb
    n_done = 0
    for sm in range(pa.n_sm):
        for bsl in range(pa.res):
            if bs_block[sm, bsl] < 0:
                continue
            for k in range(wpb):
                w = slot_warp[sm, bsl * wpb + k]
                if (
                    w >= 0
                    and done_issue[w]
                    and not finished[w]
                    and pending[w] == 0
                    and not wa.at_bar[w]
                ):
                    finished[w] = True
                    n_done += 1
                    finish[w] = max(last_issue[w] + 1.0, ready[w])
                    bs_end[sm, bsl] = max(bs_end[sm, bsl], finish[w])
                    bs_left[sm, bsl] -= 1
                    slot_warp[sm, bsl * wpb + k] = -1
            if bs_left[sm, bsl] == 0:
                bs_block[sm, bsl] = -1
                bs_free[sm, bsl] = math.ceil(bs_end[sm, bsl])
    return n_done


@njit(cache=True, inline="always")
def _launch_blocks(
    t, sms, wa, block_delay, next_block, pa
):  # pragma: no cover - compiled
    """Step 2b: empty block slots take the next blocks, slot-major so that the first
    wave goes round-robin over the SMs; a block's warps may issue after its launch
    delay. Returns the next block to launch."""
    slot_warp, bs_block, bs_left = sms.slot_warp, sms.bs_block, sms.bs_left
    bs_free, bs_end = sms.bs_free, sms.bs_end
    next_ok, ready = wa.next_ok, wa.ready
    wpb = pa.wpb
    for bsl in range(pa.res):
        for sm in range(pa.n_sm):
            if (
                bs_block[sm, bsl] < 0
                and next_block < pa.blocks
                and bs_free[sm, bsl] <= t
            ):
                blk = next_block
                next_block += 1
                bs_block[sm, bsl] = blk
                bs_left[sm, bsl] = wpb
                bs_end[sm, bsl] = 0.0
                sms.bar_count[sm, bsl] = 0
                for k in range(wpb):
                    w = blk * wpb + k
                    slot_warp[sm, bsl * wpb + k] = w
                    next_ok[w] = t + block_delay[blk]
                    ready[w] = t
    return next_block


# step 3: issue


@njit(cache=True, inline="always")
def _waits_for_loads(t, w, r, stm, wa):  # pragma: no cover - compiled
    """Step 3a: whether warp ``w`` cannot issue record ``r`` at ``t`` because the
    record's first instruction waits for every result the warp has in flight."""
    dep, count, left, pending, ready = stm.dep, stm.count, wa.left, wa.pending, wa.ready
    return dep[r] and left[w] == count[r] and (pending[w] > 0 or ready[w] > t)


@njit(cache=True, inline="always")
def _issue_alu(t, sm, w, r, wa, sms, counters, pa):  # pragma: no cover - compiled
    """Step 3b, an arithmetic instruction issues: it holds the SM's arithmetic units
    ``1 / alu_thru`` cycles, and its result is ready after ``alu_lat``."""
    sms.alu_free[sm] = max(sms.alu_free[sm], t) + 1.0 / pa.alu_thru
    wa.ready[w] = max(wa.ready[w], t + pa.alu_lat)
    counters[C_EXEC] += 1
    counters[C_ISSUED] += 1
    wa.rec_issue[r] = t


@njit(cache=True, inline="always")
def _texture_or_constant(
    t, sm, w, r, k, stm, wa, caches, ev, counters, nh, seq, n_free, clock, pa
):  # pragma: no cover - compiled
    """Step 3d, a texture or constant load: each request is looked up in the SM's
    texture cache (sectored 128-B lines) or constant cache (``c_line``-B lines) at its
    own LRU clock tick; a hit is ready after the cache's hit latency, a miss goes to the
    L2 (a constant line as ``c_line`` / 32 sector requests). Returns ``(nh, seq, n_free,
    clock)``."""
    tx_tag, tx_val, tx_st = caches.tx_tag, caches.tx_val, caches.tx_st
    c_tag, c_val, c_st = caches.c_tag, caches.c_val, caches.c_st
    req_addr, ready, rec_done, pending = stm.req_addr, wa.ready, wa.rec_done, wa.pending
    t_l2 = t + pa.l2_front
    for q in range(stm.req0[r], stm.req1[r]):
        a = req_addr[q]
        clock += 1
        if k == LDT:
            counters[C_TEX_REQ] += 1
            line = a >> 7
            sbit = 1 << ((a >> 5) & 3)
            row0 = sm * pa.tex_sets + line % pa.tex_sets
            hit = _lookup(
                tx_tag, tx_val, tx_st, row0, pa.tex_assoc, line, sbit, clock, True
            )
            lat = pa.tex_hit
            nsec = 1
        else:
            counters[C_CONST_REQ] += 1
            line = a // pa.c_line
            row0 = sm * pa.c_sets + line % pa.c_sets
            one = np.int64(1)  # one sector bit (a literal would compile _lookup twice)
            hit = _lookup(c_tag, c_val, c_st, row0, pa.c_assoc, line, one, clock, True)
            lat = pa.const_hit
            nsec = pa.c_line // 32
        if hit:
            if k == LDT:
                counters[C_TEX_HITS] += 1
            else:
                counters[C_CONST_HITS] += 1
            ready[w] = max(ready[w], t + lat)
            rec_done[r] = max(rec_done[r], t + lat)
        else:
            for s_ in range(nsec):
                nh, seq, n_free = _send_to_l2(
                    t_l2, a + 32 * s_, w, r, False, False, ev, nh, seq, n_free
                )
                pending[w] += 1
    return nh, seq, n_free, clock


@njit(cache=True, inline="always")
def _global_requests(
    t, w, r, k, stm, wa, ev, counters, nh, seq, n_free, pa
):  # pragma: no cover - compiled
    """Step 3e, a global load, store or uncached load: one request per 32-B sector to
    the L2 (a load's requests are in flight until they return; uncached loads bypass
    the L2). Returns ``(nh, seq, n_free)``."""
    req_addr, pending = stm.req_addr, wa.pending
    store = k == STG
    for q in range(stm.req0[r], stm.req1[r]):
        if store:
            counters[C_G_ST] += 1
        else:
            counters[C_G_LD] += 1
            pending[w] += 1
        nh, seq, n_free = _send_to_l2(
            t + pa.l2_front, req_addr[q], w, r, store, k == LDU, ev, nh, seq, n_free
        )
    return nh, seq, n_free


@njit(cache=True, inline="always")
def _issue_memory(
    t, sm, w, r, stm, wa, sms, caches, ev, counters, nh, seq, n_free, clock, pa
):  # pragma: no cover - compiled
    """Step 3c, a memory record issues: it holds the SM's load/store unit ``lsu``
    cycles (1 + replays); with a fixed memory latency every load takes it, else shared
    accesses take ``shmem_lat`` and texture, constant and global accesses go to the
    memory system. Returns ``(nh, seq, n_free, clock)``."""
    ready, rec_done, lsu_free = wa.ready, wa.rec_done, sms.lsu_free
    k = stm.kind[r]
    n_lsu = stm.lsu[r]
    lsu_free[sm] = max(lsu_free[sm], t) + n_lsu / pa.lsu_thru
    counters[C_EXEC] += 1
    nrep = int(n_lsu) - 1
    counters[C_ISSUED] += 1 + nrep
    wa.rec_issue[r] = t
    rec_done[r] = t
    if pa.fixed > 0:
        if k != STG and k != STS:
            ready[w] = max(ready[w], t + pa.fixed)
            rec_done[r] = t + pa.fixed
    elif k == LDS or k == STS:
        counters[C_SH_REPLAYS] += nrep
        counters[C_LDST_S] += 1
        if k == LDS:
            rec_done[r] = t + pa.shmem_lat
            ready[w] = max(ready[w], t + pa.shmem_lat)
    elif k == LDT or k == LDC:
        if k == LDT:
            counters[C_LDST_T] += 1
        else:
            counters[C_LDST_C] += 1
            counters[C_C_REPLAYS] += nrep
        nh, seq, n_free, clock = _texture_or_constant(
            t, sm, w, r, k, stm, wa, caches, ev, counters, nh, seq, n_free, clock, pa
        )
    else:
        counters[C_LDST_G] += 1
        counters[C_G_REPLAYS] += nrep
        nh, seq, n_free = _global_requests(
            t, w, r, k, stm, wa, ev, counters, nh, seq, n_free, pa
        )
    return nh, seq, n_free, clock


@njit(cache=True, inline="always")
def _advance_warp(t, w, stm, wa):  # pragma: no cover - compiled
    """Step 3f: warp ``w`` issued an instruction at ``t``: it may issue again next
    cycle, and moves to its next instruction (the next record after a record's last
    one; done issuing after its last record)."""
    cur, left, done_issue = wa.cur, wa.left, wa.done_issue
    count, warp_rec = stm.count, stm.warp_rec
    wa.next_ok[w] = t + 1
    wa.last_issue[w] = t
    left[w] -= 1
    if left[w] == 0:
        cur[w] += 1
        if cur[w] == warp_rec[w + 1]:
            done_issue[w] = True
        else:
            left[w] = count[cur[w]]


@njit(cache=True, inline="always")
def _arrive_at_barrier(t, sm, sl, w, wa, sms, counters, pa):  # pragma: no cover
    """Step 3e: warp ``w`` (in warp slot ``sl``) issues a ``bar.sync``: it waits until
    every unfinished warp of its block has issued one; the last to arrive releases them
    all for the next cycle."""
    counters[C_EXEC] += 1
    counters[C_ISSUED] += 1
    bsl = sl // pa.wpb
    wa.at_bar[w] = True
    sms.bar_count[sm, bsl] += 1
    if sms.bar_count[sm, bsl] < sms.bs_left[sm, bsl]:
        return
    sms.bar_count[sm, bsl] = 0
    for k in range(pa.wpb):
        v = sms.slot_warp[sm, bsl * pa.wpb + k]
        if v >= 0 and wa.at_bar[v]:
            wa.at_bar[v] = False
            wa.next_ok[v] = max(wa.next_ok[v], t + 1.0)
            wa.ready[v] = max(wa.ready[v], t + 1.0)  # a warp ends no sooner


@njit(cache=True, inline="always")
def _issue_cycle(
    t, stm, wa, sms, caches, ev, counters, nh, seq, n_free, clock, pa
):  # pragma: no cover - compiled
    """Step 3: per SM and scheduler (warp slot i on scheduler i mod ``S``), up to ``P``
    issues, warp slots in order, one per warp; a warp issues unless it is done, has
    issued this cycle, waits for its loads (:func:`_waits_for_loads`) or finds its unit
    (arithmetic or load/store) busy. Returns ``(any_issue, nh, seq, n_free, clock)``."""
    slot_warp, alu_free, lsu_free = sms.slot_warp, sms.alu_free, sms.lsu_free
    done_issue, next_ok, cur, kind = wa.done_issue, wa.next_ok, wa.cur, stm.kind
    any_issue = False
    for sm in range(pa.n_sm):
        for sch in range(pa.S):
            issued = 0
            if pa.replay_slots and sms.sched_free[sm, sch] > t + _EPS:
                continue  # still issuing the replays of an earlier cycle
            for sl in range(sch, pa.nslots, pa.S):
                if issued >= pa.P:
                    break
                w = slot_warp[sm, sl]
                if w < 0 or done_issue[w] or next_ok[w] > t or wa.at_bar[w]:
                    continue
                r = cur[w]
                if _waits_for_loads(t, w, r, stm, wa):
                    continue
                if kind[r] == BAR:
                    _arrive_at_barrier(t, sm, sl, w, wa, sms, counters, pa)
                elif kind[r] == ALU:
                    if alu_free[sm] >= t + 1 - _EPS:
                        continue
                    _issue_alu(t, sm, w, r, wa, sms, counters, pa)
                else:
                    if lsu_free[sm] >= t + 1 - _EPS:
                        continue
                    nh, seq, n_free, clock = _issue_memory(
                        t,
                        sm,
                        w,
                        r,
                        stm,
                        wa,
                        sms,
                        caches,
                        ev,
                        counters,
                        nh,
                        seq,
                        n_free,
                        clock,
                        pa,
                    )
                    if pa.replay_slots:  # each replay takes an issue slot too
                        issued += int(stm.lsu[r]) - 1
                        if issued + 1 > pa.P:
                            over = issued + 1 - pa.P
                            sms.sched_free[sm, sch] = t + 1 + -(-over // pa.P)
                _advance_warp(t, w, stm, wa)
                issued += 1
                any_issue = True
    return any_issue, nh, seq, n_free, clock


# step 4: the next time anything can happen


@njit(cache=True, inline="always")
def _warp_next_time(t, w, stm, wa):  # pragma: no cover - compiled
    """Step 4a: the earliest time after ``t`` warp ``w`` can do something: finish (next
    cycle, once its loads are back), or issue (its earliest issue, and its results when
    its next instruction waits for them); inf while it waits for loads in flight."""
    dep, count, pending, ready = stm.dep, stm.count, wa.pending, wa.ready
    if wa.at_bar[w]:  # released by the last warp of its block to arrive
        return np.inf
    if wa.done_issue[w]:
        if pending[w] == 0:
            return t + 1.0
        return np.inf
    c = wa.next_ok[w]
    r = wa.cur[w]
    if dep[r] and wa.left[w] == count[r]:
        if pending[w] > 0:
            return np.inf
        c = max(c, ready[w])
    if c <= t:
        c = t + 1.0
    return c


@njit(cache=True, inline="always")
def _next_time(t, ev, nh, stm, wa, sms, next_block, pa):  # pragma: no cover - compiled
    """Step 4 (no issue this cycle): the earliest of the next memory event, each warp's
    next time (:func:`_warp_next_time`) and, while blocks wait, an empty block slot's
    free time; inf when nothing can happen."""
    slot_warp, bs_block, bs_free = sms.slot_warp, sms.bs_block, sms.bs_free
    nxt = np.inf
    if nh > 0:
        nxt = ev.ht[0]
    for sm in range(pa.n_sm):
        for sl in range(pa.nslots):
            w = slot_warp[sm, sl]
            if w >= 0:
                nxt = min(nxt, _warp_next_time(t, w, stm, wa))
        for bsl in range(pa.res):
            if bs_block[sm, bsl] < 0 and next_block < pa.blocks:
                nxt = min(nxt, max(bs_free[sm, bsl], t + 1.0))
    return nxt


@njit(cache=True, _nrt=False)
def _event_loop(
    stm, wa, sms, caches, ev, dram, lg, counters, block_delay, pa
):  # pragma: no cover - compiled; tested via run_streams
    """The event loop of :func:`_core` (its steps are listed there) on the state that
    ``_core`` allocated; returns the DRAM log's length.

    Compiled without numba's reference counting (``_nrt=False``, an underscore option
    that numba uses itself for code that allocates nothing, e.g. in
    ``numba/cpython/unicode.py``): counting the references to the arrays handed to each
    inlined step made the simulation 3 to 8 times slower."""
    W = pa.blocks * pa.wpb
    nh = np.int64(0)  # events on the heap (int64, not a literal: compiled once)
    seq = np.int64(0)  # events scheduled so far (ties on the heap in this order)
    n_free = ev.free_items.size  # free event items
    clock = 0  # the caches' LRU clock: one tick per look-up
    nlog = 0  # DRAM requests served (rows of the DRAM log)
    next_block = 0
    t = 0.0
    n_done_warps = 0
    while True:
        nh, seq, n_free, clock, nlog = _memory_events(
            t, ev, dram, lg, caches, wa, counters, nh, seq, n_free, clock, nlog, pa
        )
        n_done_warps += _retire_warps(sms, wa, pa)
        next_block = _launch_blocks(t, sms, wa, block_delay, next_block, pa)
        any_issue, nh, seq, n_free, clock = _issue_cycle(
            t, stm, wa, sms, caches, ev, counters, nh, seq, n_free, clock, pa
        )
        if n_done_warps == W and nh == 0:
            break
        if any_issue:
            t += 1.0
            continue
        nxt = _next_time(t, ev, nh, stm, wa, sms, next_block, pa)
        if nxt == np.inf:
            raise RuntimeError(
                "refsim: no event and no runnable warp before every warp finished"
            )
        t = max(t + 1.0, math.ceil(nxt))
    return nlog


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
    # Allocates the state, then the event loop (_event_loop) makes one pass per cycle t
    # at which anything can change:
    #   1. the memory events up to t, in time order (_memory_events): a request at its
    #      L2 slice (_l2_access), arriving at its DRAM bank (_dram_arrival), a bank's
    #      burst on its channel's bus (_dram_burst);
    #   2. retire finished warps and empty their block slots (_retire_warps), then
    #      launch blocks into empty block slots (_launch_blocks);
    #   3. issue (_issue_cycle): per SM and scheduler, the warps in slot order that do
    #      not wait for their loads (_waits_for_loads) issue an arithmetic instruction
    #      (_issue_alu) or a memory record (_issue_memory: shared accesses, texture or
    #      constant look-ups (_texture_or_constant), global requests
    #      (_global_requests)), then move on (_advance_warp);
    #   4. if nothing issued, jump to the next time anything can happen (_next_time,
    #      _warp_next_time).
    # Parameters, in the order run_streams packs them (ip: integers, fp: floats, times
    # in cycles).
    n_sm = ip[0]
    nslots = res * wpb
    pa = _Params(
        n_sm,
        ip[1],  # S
        ip[2],  # P
        wpb,
        res,
        nslots,
        blocks,
        ip[3],  # l2_sets
        ip[4],  # l2_assoc
        ip[5],  # tex_sets
        ip[6],  # tex_assoc
        ip[7],  # c_sets
        ip[8],  # c_assoc
        ip[9],  # c_line
        fp[0],  # alu_lat
        fp[1],  # alu_thru
        fp[2],  # lsu_thru
        fp[3],  # shmem_lat
        fp[4],  # tex_hit
        fp[5],  # const_hit
        fp[6],  # l2_front
        fp[7],  # l2_back
        fp[8],  # l2_to_dram
        fp[9],  # burst
        fp[10],  # fixed
        n_channels,
        ip[10] == 1,  # frfcfs
        ip[11] == 1,  # xor_hash
        ip[12] == 1,  # replay_slots
    )
    W = blocks * wpb
    n_banks = n_channels << bank_bits.size
    counters = np.zeros(N_COUNTERS, np.int64)
    stm = _Stream(kind, count, dep, lsu, req0, req1, req_addr, warp_rec)
    n_rec = kind.size
    wa = _Warps(
        np.zeros(W, np.int64),  # cur
        np.zeros(W, np.int64),  # left
        np.zeros(W),  # next_ok
        np.zeros(W),  # ready
        np.zeros(W, np.int64),  # pending
        np.zeros(W),  # last_issue
        np.zeros(W, np.bool_),  # done_issue
        np.zeros(W, np.bool_),  # finished
        np.zeros(W),  # finish
        np.full(n_rec, -1.0),  # rec_issue
        np.full(n_rec, -1.0),  # rec_done
        np.zeros(W, np.bool_),  # at_bar
    )
    cur, left = wa.cur, wa.left
    for w in range(W):
        cur[w] = warp_rec[w]
        left[w] = count[cur[w]]
    sms = _Sms(
        np.full((n_sm, nslots), -1, np.int64),  # slot_warp
        np.full((n_sm, res), -1, np.int64),  # bs_block
        np.zeros((n_sm, res), np.int64),  # bs_left
        np.full((n_sm, res), 0.0),  # bs_free
        np.zeros((n_sm, res)),  # bs_end
        np.zeros(n_sm),  # alu_free
        np.zeros(n_sm),  # lsu_free
        np.zeros((n_sm, ip[1])),  # sched_free
        np.zeros((n_sm, res), np.int64),  # bar_count
    )
    l2_shape = (pa.l2_sets, pa.l2_assoc)
    tx_shape = (n_sm * pa.tex_sets, pa.tex_assoc)
    c_shape = (n_sm * pa.c_sets, pa.c_assoc)
    caches = _Caches(
        np.full(l2_shape, -1, np.int64),  # l2_tag
        np.zeros(l2_shape, np.int64),  # l2_val
        np.zeros(l2_shape, np.int64),  # l2_st
        np.full(tx_shape, -1, np.int64),  # tx_tag
        np.zeros(tx_shape, np.int64),  # tx_val
        np.zeros(tx_shape, np.int64),  # tx_st
        np.full(c_shape, -1, np.int64),  # c_tag
        np.zeros(c_shape, np.int64),  # c_val
        np.zeros(c_shape, np.int64),  # c_st
    )
    dram = _Dram(
        fp[11:14],  # occ
        fp[14:17],  # post
        row_bits,
        bank_bits,
        ch_bits,
        np.zeros(n_banks),  # bank_free
        np.full(n_banks, -1, np.int64),  # open_row
        np.zeros(n_channels),  # bus_free
        np.full(n_banks, -1, np.int64),  # q_head
        np.full(n_banks, -1, np.int64),  # q_tail
        np.zeros(n_banks, np.int64),  # q_len
    )
    cap = 4 * req_addr.size + 16
    ev = _Events(
        np.zeros(cap),  # ht
        np.zeros(cap, np.int64),  # hs
        np.zeros(cap, np.int64),  # hi
        np.zeros(cap, np.int8),  # stage
        np.zeros(cap, np.int64),  # addr
        np.zeros(cap, np.int64),  # warp
        np.zeros(cap, np.int64),  # rec
        np.zeros(cap, np.bool_),  # store
        np.zeros(cap, np.bool_),  # bypass
        np.zeros(cap, np.int64),  # out
        np.zeros(cap, np.int64),  # bank
        np.zeros(cap, np.int64),  # row
        np.zeros(cap),  # arr
        np.zeros(cap),  # start
        np.full(cap, -1, np.int64),  # q_next
        np.arange(cap - 1, -1, -1).astype(np.int64),  # free_items
    )
    logcap = 2 * req_addr.size + 16
    lg = _Log(
        np.zeros(logcap, np.int64),  # bank
        np.zeros(logcap),  # arr
        np.zeros(logcap),  # start
        np.zeros(logcap),  # serv
        np.zeros(logcap, np.int8),  # out
        np.zeros(logcap, np.bool_),  # write
        np.zeros(logcap, np.int64),  # warp
    )
    nlog = _event_loop(stm, wa, sms, caches, ev, dram, lg, counters, block_delay, pa)
    # the end: the last warp's finish or the last burst's end (when its channel's bus
    # became free)
    end = 0.0
    finish = wa.finish
    for w in range(W):
        end = max(end, finish[w])
    bus_free = dram.bus_free
    for ch in range(n_channels):
        end = max(end, bus_free[ch])
    counters[C_CYCLES] = math.ceil(end)
    return (
        end,
        counters,
        lg.bank[:nlog],
        lg.arr[:nlog],
        lg.start[:nlog],
        lg.serv[:nlog],
        lg.out[:nlog],
        lg.write[:nlog],
        lg.warp[:nlog],
        wa.rec_issue,
        wa.rec_done,
        finish,
    )


# --------------------------------------------------------------------------------------
# Python entry points


@dataclass(frozen=True)
class Result:
    """One simulated run (the **simulated reference**; nothing here is measured).

    ``time_ns``: kernel time from the first issue to the last warp's last result or the
    last DRAM write, in ns at the simulated clock; ``cycles`` the same in core cycles.
    ``counters``: :data:`COUNTERS` → totals over the grid. ``dram_log``: one row per
    DRAM request in the order the banks served it (per bank that is arrival order under
    ``dram_policy="fcfs"``, row hits first under the default ``"frfcfs"``)
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

    def __post_init__(self):
        _fields.reals(self, ("time_ns", "cycles"))
        _fields.mappings(self, ("counters", "placement"))
        for k, v in self.counters.items():
            check_real(f"Result.counters[{k!r}]", v, 0.0)
        for name in ("record_issue", "record_done"):  # -1: an arithmetic run
            _fields.array(self, name, lo=-1, ndim=1)
        _fields.array(self, "warp_finish", lo=0, ndim=1)
        _fields.texts(self, ("kernel",))
        _fields.ints(self, ("seed",))
        _fields.of_type(self, "dram_log", pd.DataFrame, "a pandas DataFrame")

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

    rm = machine() if rm is None else _check_machine(rm)
    seed = check_int("seed", seed, 0)
    if not isinstance(st, Streams):
        raise InputTypeError(f"st must be a Streams record, got {st!r:.60}")
    n_warps = check_int("blocks × warps_per_block", st.n_warps, 1, MAX_WARPS)
    if st.warp_rec.size != n_warps + 1:
        raise ValueError(
            f"st holds {st.warp_rec.size - 1} warps' records but blocks × "
            f"warps_per_block is {n_warps}"
        )
    check_int("resident_blocks_per_sm", st.resident_blocks_per_sm, 1, MAX_WARPS)
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
            DRAM_POLICIES.index(rm.dram_policy),
            ADDRESS_HASHES.index(rm.address_hash),
            REPLAY_ISSUE.index(rm.replay_issue),
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
        # InputTypeError: a TypeError and, as for every bad placement, a ValueError
        raise InputTypeError(
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


def _check_machine(rm, name: str = "rm") -> RefMachine:
    """``rm`` if it is a :class:`RefMachine`; ``InputTypeError`` naming ``name``
    otherwise."""
    if not isinstance(rm, RefMachine):
        raise InputTypeError(
            f"{name} must be a RefMachine (e.g. refsim.simulator.machine()), got "
            f"{type(rm).__name__} {rm!r:.40}"
        )
    return rm


def _check_trace(tr, name: str = "tr") -> Trace:
    """``tr`` if it is a kernel :class:`~gpumodels.engines.refsim.kernels.Trace`;
    ``InputTypeError`` naming ``name`` otherwise."""
    ctx = "a kernel's accesses, e.g. kernels.vecadd().trace()"
    return check_type(name, tr, Trace, ctx)


def _log_columns(log, columns: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The named columns of a ``dram_log`` (a DataFrame, :attr:`Result.dram_log`) as
    float arrays of numbers >= 0; ``InputTypeError`` for anything but a DataFrame,
    ``DataError`` for a missing column, ``OutOfRangeError`` for a bad number, each
    naming ``log``."""
    ctx = "a dram_log (Result.dram_log)"
    check_keys("log", check_type("log", log, pd.DataFrame, ctx), columns, ctx)
    return {c: as_array(f"log[{c!r}]", log[c].to_numpy()) for c in columns}


def second_access_latency(
    addr0: int, addr1: int, rm: RefMachine | None = None
) -> float:
    """Latency (ns) of an uncached load of ``addr1`` issued right after one of ``addr0``
    has returned, on an idle simulated GPU: the oracle Algorithm 1
    (:func:`gpumodels.engines.refsim.dram.detect_mapping`) runs against."""
    a0 = check_int("addr0", addr0, 0)
    a1 = check_int("addr1", addr1, 0)
    rm = machine() if rm is None else _check_machine(rm)
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
    cols = _log_columns(log, ("bank", "arrival_ns", "service_ns"))
    bank = np.asarray(log["bank"])
    a, s = cols["arrival_ns"], cols["service_ns"]
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
    cols = _log_columns(log, ("arrival_ns", "wait_ns", "service_ns"))
    a = cols["arrival_ns"]
    d = a + cols["wait_ns"] + cols["service_ns"]
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
    if not starts[k2] > starts[k1]:
        raise OutOfRangeError(
            f"issue must give warp 0's trips increasing start cycles, got trip {k1} "
            f"and trip {k2} both starting at cycle {starts[k1]}"
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
    0's trips ``window``. ``n`` is in [1, 64], ``alpha`` in [0,
    :data:`gpumodels.engines.sim.MAX_ALPHA`], and the run at most
    :data:`MAX_ALPHA_RECORDS` records (``n × (alpha + 1) × (window[1] + 10)``), so
    that no call runs for minutes.
    """

    p = volkov_params("Kepler") if params is None else check_params(params, "params")
    n = check_int("n", n, 1, 64)
    alpha = check_int("alpha", alpha, 0, MAX_ALPHA)
    if not isinstance(window, tuple) or len(window) != 2:
        raise InputTypeError(f"window must be a pair (k1, k2), got {window!r:.60}")
    k1 = check_int("window[0]", window[0], 0)
    k2 = check_int("window[1]", window[1], k1 + 1, MAX_ALPHA_RECORDS)
    records = n * (alpha + 1) * (k2 + 10)
    if records > MAX_ALPHA_RECORDS:
        raise ValueError(
            f"alpha_ipc with n={n}, alpha={alpha}, window={window} would build "
            f"n × (alpha + 1) × (window[1] + 10) = {records} stream records; at most "
            f"MAX_ALPHA_RECORDS = {MAX_ALPHA_RECORDS}: lower alpha, n or window[1]"
        )
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


# --------------------------------------------------------------------------------------
# cached reference data (tools/simulate_huang_li.py writes it; tests re-simulate rows)

CACHE = "simulated/huang_li_reference.csv"
ALGORITHM1_CACHE = "simulated/huang_li_algorithm1.csv"
VOLKOV_CACHE = "simulated/huang_li_volkov_check.csv"
SWITCH_CACHE = "simulated/huang_li_switches.csv"
SOURCE = (
    "simulated reference: gpumodels.engines.refsim.simulator (book's own "
    "simulator, not measured), seed {seed}"
)
ALGORITHM1_BITS = range(3, 34)
"""The bits Algorithm 1 probes, from above the 3 byte bits up to the 12 GB of one K80
GPU (2^34 B)."""


_TEST_COLUMNS = ("set", "benchmark", "kernel", "test", "moves")


def reference_row(test: Mapping[str, str], seed: int = 0) -> dict:
    """One row of ``CACHE``: a placement test of ``data/huang_li/placements.csv``
    simulated."""
    ctx = "reference_row (a row of data/huang_li/placements.csv, placements.tests())"
    check_keys("test", check_mapping("test", test, ctx), _TEST_COLUMNS, ctx)
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


SWITCH_SETTINGS = ("reference", *SWITCHES, "all off")
"""The settings :func:`switch_row` simulates (:func:`switch_jobs`): the reference,
each mechanism of :data:`SWITCHES` off alone, and all of them off."""


def switch_row(test: Mapping[str, str], setting: str, seed: int = 0) -> dict:
    """One row of ``SWITCH_CACHE``: a placement test simulated with ``setting`` (one of
    :data:`SWITCH_SETTINGS`): time, issued instructions, the busiest bank's busy
    fraction and the mean DRAM wait."""
    ctx = "switch_row (a row of data/huang_li/placements.csv, placements.tests())"
    check_keys("test", check_mapping("test", test, ctx), _TEST_COLUMNS, ctx)
    check_choice("setting", setting, SWITCH_SETTINGS)
    k = _resolve(test["kernel"])
    if setting == "reference":
        changes = {}
    elif setting == "all off":
        changes = dict(SWITCHES)
    else:
        changes = {setting: SWITCHES[setting]}
    res = simulate(k.name, test["test"], seed=seed, **changes)
    log = res.dram_log
    busy = (
        log.groupby("bank")["service_ns"].sum().max() / res.time_ns if len(log) else 0
    )
    return {
        "benchmark": test["benchmark"],
        "test": test["test"],
        "setting": setting,
        "changes": ";".join(f"{k_}={v}" for k_, v in changes.items()),
        "time_ns": repr(res.time_ns),
        "inst_issued": res.counters["inst_issued"],
        "bank_busy_max": repr(float(busy)),
        "dram_wait_mean_ns": repr(float(log["wait_ns"].mean()) if len(log) else 0.0),
        "source": SOURCE.format(seed=seed),
    }


def switch_jobs() -> list[tuple[dict, str]]:
    """The (test, setting) pairs of ``SWITCH_CACHE``: every Table IV benchmark's sample
    placement (evaluation and training sets) under every setting of
    :data:`SWITCH_SETTINGS`."""
    samples = [
        t
        for t in _placement_tests(None)
        if t["set"] in ("eval", "train") and t["moves"] == ""
    ]
    return [(t, s) for t in samples for s in SWITCH_SETTINGS]


_SWITCH_LABELS = {
    "dram_policy": "FCFS",
    "address_hash": "no hash",
    "replay_issue": "free replays",
    "barriers": "no barriers",
}


def switch_table() -> pd.DataFrame:
    """The cached switch study (``tools/simulate_huang_li.py`` writes it): per Table IV
    benchmark's sample placement, the reference time and, for each setting, its time
    over the reference's (columns ``time ratio: FCFS``, ``no hash``, ``free replays``,
    ``no barriers`` and ``all off``; below 1: the mechanism slows the kernel), with the
    busiest bank's busy fraction in the reference and with all switches off."""
    rows = read_rows(SWITCH_CACHE)
    df = pd.DataFrame(rows)
    for c in ("time_ns", "bank_busy_max", "dram_wait_mean_ns"):
        df[c] = df[c].astype(float)
    t = df.pivot(index="benchmark", columns="setting", values="time_ns")
    busy = df.pivot(index="benchmark", columns="setting", values="bank_busy_max")
    order = list(dict.fromkeys(df["benchmark"]))
    out = pd.DataFrame(index=pd.Index(order, name="benchmark"))
    out["reference time (µs)"] = t.loc[order, "reference"] / 1e3
    for s_ in SWITCH_SETTINGS[1:]:
        label = _SWITCH_LABELS.get(s_, s_)
        out[f"time ratio: {label}"] = t.loc[order, s_] / t.loc[order, "reference"]
    out["busiest bank busy, reference"] = busy.loc[order, "reference"]
    out["busiest bank busy, all off"] = busy.loc[order, "all off"]
    return out


def parameters_table():
    """``data/huang_li/refsim_parameters.csv`` as a DataFrame (value, unit,
    printed/sourced/assumption, source)."""

    return pd.DataFrame(read_rows("huang_li/refsim_parameters.csv"))


def volkov_check():
    """The cached cross-check with :mod:`gpumodels.engines.sim` (``VOLKOV_CACHE``) with
    the difference in %."""

    df = pd.DataFrame(read_rows(VOLKOV_CACHE)).astype(
        {"n": int, "alpha": int, "ipc_refsim": float, "ipc_sim": float}
    )
    df["difference (%)"] = 100 * (df["ipc_refsim"] / df["ipc_sim"] - 1)
    return df
