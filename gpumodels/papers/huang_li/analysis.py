"""Trace analysis of Huang & Li (2017) §III and §IV: from a placement's trace to the
model's counts.

:func:`analyze` takes a :class:`~gpumodels.engines.refsim.kernels.Trace` and the machine
(:class:`Machine`, the K80 by default) and returns an :class:`Analysis` with every count
the model uses — executed and issued instructions, replays by cause (1)–(4), requests
per memory, texture/constant/L2 hits and misses, DRAM requests with their banks and
row-buffer outcomes, per-bank queue statistics and the DRAM latency of Eqs. 6–10 in each
variant.

Readings the book chose (each also stated where it is used):

* **Issue order** [A3]: warps resident on an SM advance together; blocks go to SMs
  round-robin and run in waves of the occupancy limit. An instruction's *position* on
  its SM is its index in that interleaved stream, and its arrival time is ``position ×
  avg_inst_lat / ITILP`` cycles (Eq. 13's cycles per warp instruction): the paper
  measures τ_a in instructions and gives no rate, so the book uses the model's own issue
  rate.
* **Requests**: a global access sends one request per distinct 32-B sector to the L2
  (Kepler does not cache global loads in L1); a texture or constant access looks up each
  distinct line in its per-SM cache, and a miss fetches the whole line from the L2 in
  32-B sectors; shared memory never leaves the SM. Stores allocate in the L2 and a store
  miss counts as one DRAM request (its eventual write-back).
* **Row buffers**: open-page, per bank, in arrival order
  (:func:`~gpumodels.engines.refsim.dram.row_buffer_outcomes`).
* **Even distribution** [A18]: the "queuing model (even mem requests)" variant deals
  requests round-robin to ``controllers × banks`` banks and, knowing no mapping, serves
  every request with the row-miss latency.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np
import pandas as pd

from gpumodels.engines.refsim.dram import (
    CONFLICT,
    HIT,
    MISS,
    AddressMap,
    address_map,
    row_buffer_outcomes,
)
from gpumodels.engines.refsim.kernels import Trace, kernel
from gpumodels.engines.refsim.trace import (
    SPACES,
    constant_divergence_replays_batch,
    distinct_lines_batch,
    global_replays_batch,
    shared_conflict_replays_batch,
)
from gpumodels.facts import _fields
from gpumodels.facts.hardware import get_gpu
from gpumodels.facts.param_sets import params as volkov_params
from gpumodels.ground.data import read_rows
from gpumodels.ground.diskcache import persistent
from gpumodels.ground.errors import OutOfRangeError
from gpumodels.ground.validate import check_choice, check_int, check_real
from gpumodels.papers.huang_li import queueing
from gpumodels.papers.huang_li._checks import (
    check_kind,
    check_map,
    check_real_or_nan,
    check_str,
)
from gpumodels.papers.huang_li.cache import Cache


@cache
def _k80_rows() -> dict[str, dict[str, str]]:
    return {r["parameter"]: r for r in read_rows("huang_li/k80_parameters.csv")}


@dataclass(frozen=True)
class Machine:
    """The machine the Huang & Li model runs on (defaults: one GPU of a Tesla K80).

    Latencies ``lat_*`` in ns (Algorithm 1's output on the K80: 352/742/1008);
    ``hit_lat`` and ``shmem_lat`` in cycles; cache geometries per SM (texture, constant)
    and for the whole GPU (L2). ``sources`` says where every value came from
    (``data/huang_li/k80_parameters.csv``, ``data/hardware.csv``, Volkov's Table 4.1 for
    ``avg_inst_lat``).
    """

    name: str
    sm_count: int
    clock_ghz: float
    bandwidth_gbs: float
    cores_per_sm: int
    max_warps_per_sm: int
    avg_inst_lat: float
    lat_hit: float
    lat_miss: float
    lat_conflict: float
    controllers: int
    banks_per_controller: int
    hit_lat: float
    shmem_lat: float
    tex: Cache
    const: Cache
    l2: Cache
    request_bytes: int
    transaction_bytes: int
    occupancy_hit: float
    occupancy_miss: float
    occupancy_conflict: float
    departure_del_coal: float
    departure_del_uncoal: float
    ilp: float
    mlp: float
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def __post_init__(self):
        f = lambda k: f"Machine.{k}"
        check_str(f("name"), self.name)
        for k in (
            "sm_count",
            "cores_per_sm",
            "max_warps_per_sm",
            "controllers",
            "banks_per_controller",
            "request_bytes",
            "transaction_bytes",
        ):
            check_int(f(k), getattr(self, k), 1, 1 << 20)
        for k in (
            "clock_ghz",
            "bandwidth_gbs",
            "avg_inst_lat",
            "lat_hit",
            "lat_miss",
            "lat_conflict",
            "ilp",
            "mlp",
        ):
            check_real(f(k), getattr(self, k), 0.0, lo_open=True)
        for k in (
            "hit_lat",
            "shmem_lat",
            "occupancy_hit",
            "occupancy_miss",
            "occupancy_conflict",
            "departure_del_coal",
            "departure_del_uncoal",
        ):
            check_real(f(k), getattr(self, k), 0.0)
        for k in ("tex", "const", "l2"):
            check_kind(f(k), getattr(self, k), Cache, "a huang_li.cache.Cache")
        check_map(f("sources"), self.sources, "str")

    @property
    def physical_banks(self) -> int:
        return self.controllers * self.banks_per_controller


def _check_machine(machine, name: str = "machine", none: bool = False):
    """``machine`` if it is a :class:`Machine` (or None where ``none``)."""
    if none and machine is None:
        return machine
    return check_kind(name, machine, Machine, "a huang_li.analysis.Machine")


def k80(clock: str = "boost") -> Machine:
    """The K80 machine; ``clock`` ``"boost"`` (875 MHz, default) or ``"base"``
    (562 MHz) [A12]."""
    check_choice("clock", clock, ("boost", "base"))
    r = _k80_rows()
    v = lambda k: float(r[k]["value"])
    g = get_gpu("K80")
    vk = volkov_params("Kepler")
    l2_sets = int(v("l2_bytes") // (v("l2_line_bytes") * v("l2_assoc")))
    src = {k: f"{row['source']} [{row['status']}]" for k, row in r.items()}
    src.update(
        sm_count=g.source("sm_count") or "data/hardware.csv",
        clock_ghz=g.source("clock_ghz" if clock == "boost" else "base_clock_ghz"),
        bandwidth_gbs=g.source("pin_bandwidth_gbs"),
        avg_inst_lat="Volkov 2016, Table 4.1 (Kepler alu_lat)",
    )
    return Machine(
        name="K80",
        sm_count=g.sm_count,
        clock_ghz=g.clock_ghz if clock == "boost" else g.base_clock_ghz,
        bandwidth_gbs=g.pin_bandwidth_gbs,
        cores_per_sm=g.cuda_cores_per_sm,
        max_warps_per_sm=g.max_warps_per_sm,
        avg_inst_lat=vk.alu_lat,
        lat_hit=v("lat_row_hit"),
        lat_miss=v("lat_row_miss"),
        lat_conflict=v("lat_row_conflict"),
        controllers=int(v("memory_controllers")),
        banks_per_controller=int(v("banks_per_controller")),
        hit_lat=v("hit_lat"),
        shmem_lat=v("shmem_lat"),
        tex=Cache(
            "texture",
            int(v("tex_sets")),
            int(v("tex_line_bytes")),
            int(v("tex_assoc")),
            r["tex_sets"]["source"],
        ),
        const=Cache(
            "constant",
            int(v("const_sets")),
            int(v("const_line_bytes")),
            int(v("const_assoc")),
            r["const_sets"]["source"],
        ),
        l2=Cache(
            "L2",
            l2_sets,
            int(v("l2_line_bytes")),
            int(v("l2_assoc")),
            r["l2_assoc"]["source"],
        ),
        request_bytes=int(v("dram_request_bytes")),
        transaction_bytes=int(v("transaction_bytes")),
        occupancy_hit=v("occupancy_hit"),
        occupancy_miss=v("occupancy_miss"),
        occupancy_conflict=v("occupancy_conflict"),
        departure_del_coal=v("departure_del_coal"),
        departure_del_uncoal=v("departure_del_uncoal"),
        ilp=v("ilp"),
        mlp=v("mlp"),
        sources=src,
    )


def parameters_table():
    """``data/huang_li/k80_parameters.csv`` as a DataFrame (value, unit,
    printed/sourced/assumption, source)."""

    return pd.DataFrame(read_rows("huang_li/k80_parameters.csv"))


def itilp(machine: Machine, n_warps: float) -> float:
    """Eqs. 14–15: ``ITILP = min(ILP × N, ITILP_max)``, ``ITILP_max = avg_inst_lat /
    (warp_size / SIMD_width)``.

    SIMD_width is the SM's lane count (192 on Kepler), so ITILP_max = 9 × 6 = 54 on the
    K80.
    """
    _check_machine(machine)
    n = check_real("n_warps", n_warps, 0.0, lo_open=True)
    itilp_max = machine.avg_inst_lat / (32.0 / machine.cores_per_sm)
    return min(machine.ilp * n, itilp_max)


def cycles_per_instruction(machine: Machine, n_warps: float) -> float:
    """Eq. 13: ``Effective_instruction_throughput = avg_inst_lat / ITILP`` cycles per
    warp instruction per SM (the garbled "vortex" of the extracted text is ITILP, as in
    Sim et al. 2012)."""
    _check_machine(machine)
    return machine.avg_inst_lat / itilp(machine, n_warps)


def _check_counts(rec, name: str, zero_ok: tuple[str, ...]) -> None:
    """The checks :class:`Traffic` and :class:`Analysis` share: text, placement, the
    positive launch counts, the counts in ``zero_ok`` (at least 0), per-warp
    instruction counts, CPI and the count mappings."""
    f = lambda k: f"{name}.{k}"
    check_str(f("kernel"), rec.kernel)
    check_map(f("placement"), rec.placement, "str")
    for k in (
        "n_warps",
        "active_sms",
        "warps_per_sm",
        "resident_blocks_per_sm",
        "threads_per_block",
        "blocks",
    ):
        check_int(f(k), getattr(rec, k), 1)
    for k in zero_ok:
        check_int(f(k), getattr(rec, k), 0)
    for k in ("executed_per_warp", "addressing_per_warp"):
        check_real(f(k), getattr(rec, k), 0.0)
    check_real(f("cpi"), rec.cpi, 0.0, lo_open=True)
    check_map(f("replays"), rec.replays, "real")
    for k in ("mem_insts", "requests", "misses"):
        check_map(f(k), getattr(rec, k), "int")


@dataclass(frozen=True)
class Analysis:
    """Every count of one placement the model uses (see :func:`analyze`). Counts are
    totals over the grid unless named ``*_per_warp``; times are in core cycles."""

    kernel: str
    placement: Mapping[str, str]
    n_warps: int
    active_sms: int
    warps_per_sm: int
    resident_blocks_per_sm: int
    executed_per_warp: float
    addressing_per_warp: float
    # cause -> total replays ("1_global", "2_const_miss", "3_const_div", "4_bank")
    replays: Mapping[str, float]
    mem_insts: Mapping[str, int]  # space -> warp-level memory instructions
    requests: Mapping[str, int]  # G sectors, texture and constant line lookups
    # texture, constant (lines); L2 and G_L2 (global sectors) misses
    misses: Mapping[str, int]
    l2_accesses: int
    dram_requests: int
    offchip_bytes: int  # bytes asked of off-chip memory (sectors and lines looked up)
    dram_bytes: int
    row: Mapping[str, int]  # hit / miss / conflict counts
    bank_stats: queueing.BankStats
    dram_lat: Mapping[str, float]  # "constant", "even", "mapped" -> latency (cycles)
    saturated: Mapping[str, bool]
    cpi: float
    copy_bytes: int
    threads_per_block: int
    blocks: int
    # the readings chosen (rule, mapping, ...)
    options: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        f = lambda k: f"Analysis.{k}"
        zero_ok = ("l2_accesses", "dram_requests", "offchip_bytes", "dram_bytes")
        _check_counts(self, "Analysis", (*zero_ok, "copy_bytes"))
        check_map(f("row"), self.row, "int")
        check_kind(
            f("bank_stats"),
            self.bank_stats,
            queueing.BankStats,
            "a huang_li.queueing.BankStats",
        )
        check_map(f("saturated"), self.saturated, "flag")
        check_map(f("dram_lat"), self.dram_lat)
        for k, v in self.dram_lat.items():
            # NaN only for a saturated queue under saturation="nan" (flagged)
            check_real_or_nan(
                f"{f('dram_lat')}[{k!r}]", v, 0.0, bool(self.saturated.get(k, False))
            )
        check_map(f("options"), self.options)

    @property
    def replays_per_warp(self) -> float:
        return sum(self.replays.values()) / self.n_warps

    @property
    def issued_per_warp(self) -> float:
        return self.executed_per_warp + self.replays_per_warp

    @property
    def mem_insts_per_warp(self) -> float:
        return sum(self.mem_insts.values()) / self.n_warps

    @property
    def shmem_ratio(self) -> float:
        tot = sum(self.mem_insts.values())
        return self.mem_insts.get("S", 0) / tot if tot else 0.0

    @property
    def offchip_requests(self) -> int:
        return int(sum(self.requests.values()))

    @property
    def miss_ratio(self) -> float:
        """Eq. 5's miss ratio, the share of the bytes requested from off-chip memory
        (global sectors, texture and constant lines looked up) that DRAM had to supply
        (the book's reading; a texture or constant hit never reaches the L2)."""
        return (
            min(1.0, self.dram_bytes / self.offchip_bytes)
            if self.offchip_bytes
            else 0.0
        )


def _order_keys(tr: Trace, machine: Machine):
    k = tr.kernel
    wpb = k.warps_per_block
    res = tr.resident_blocks_per_sm()
    sms = min(machine.sm_count, k.blocks)
    blk = tr.block[tr.warp]
    sm = blk % sms
    slot = blk // sms
    wave = slot // res
    rank = (slot % res) * wpb + tr.warp % wpb
    nres = res * wpb
    span = int(tr.executed.max()) + 1
    position = wave * (span * nres) + tr.pos * nres + rank
    return sm, position, sms, res, min(nres, -(-k.n_warps // sms))


SERVICE = ("occupancy", "latency")
DEFAULT_MAPPING = "k80_printed_col_low"


RULES = ("printed", "segments")
"""The readings of replay rule (1) that :func:`traffic` takes, as printed or one replay
per extra 128-B segment."""


@dataclass(frozen=True)
class Traffic:
    """What one placement's trace asks of the memory system under the model's rules
    (:func:`traffic`): the part of :func:`analyze` that no DRAM reading changes, so a
    study of those readings computes it once. Counts are totals over the grid unless
    named ``*_per_warp``; ``dram_time`` (core cycles) is each DRAM request's place in
    the model's time line, ``dram_addr`` its byte address, in time order."""

    kernel: str
    placement: Mapping[str, str]
    rule: str
    n_warps: int
    active_sms: int
    warps_per_sm: int
    resident_blocks_per_sm: int
    executed_per_warp: float
    addressing_per_warp: float
    replays: Mapping[str, float]
    mem_insts: Mapping[str, int]
    requests: Mapping[str, int]
    misses: Mapping[str, int]
    l2_accesses: int
    dram_addr: np.ndarray
    dram_time: np.ndarray
    cpi: float
    copy_bytes: int
    threads_per_block: int
    blocks: int

    def __post_init__(self):
        _check_counts(self, "Traffic", ("l2_accesses", "copy_bytes"))
        check_choice("Traffic.rule", self.rule, RULES)
        _fields.array(self, "dram_addr", lo=0, ndim=1, integer=True)
        _fields.array(self, "dram_time", lo=0.0, ndim=1)
        if self.dram_addr.shape != self.dram_time.shape:
            raise OutOfRangeError(
                "Traffic.dram_addr and Traffic.dram_time must have one entry per DRAM "
                f"request each, got {self.dram_addr.size} and {self.dram_time.size}"
            )


def traffic(
    tr: Trace, machine: Machine | None = None, *, rule: str = "printed"
) -> Traffic:
    """Replays, per-SM texture and constant caches, the L2 and the DRAM requests of one
    placement's trace (the first half of :func:`analyze`; ``rule`` as there). The
    result does not depend on the machine's clock; its request arrays are read-only."""
    check_choice("rule", rule, RULES)
    check_kind("tr", tr, Trace, "a refsim.kernels.Trace")
    m = k80() if _check_machine(machine, none=True) is None else machine
    return _traffic_by_rule(tr, m, (rule,))[rule]


def traffic_by_rule(
    tr: Trace, machine: Machine | None = None, *, rules=RULES
) -> dict[str, Traffic]:
    """:func:`traffic` under each replay rule of ``rules`` (a sequence drawn from
    :data:`RULES`, all of them by default), keyed by rule. Only the global replays
    depend on the rule: the caches, the L2 and the DRAM requests are computed once and
    shared by the results."""
    check_kind("rules", rules, (tuple, list), "a tuple or list of rules")
    if not rules:
        raise OutOfRangeError(f"rules must name at least one of {RULES}, got {rules!r}")
    for i, r in enumerate(rules):
        check_choice(f"rules[{i}]", r, RULES)
    check_kind("tr", tr, Trace, "a refsim.kernels.Trace")
    m = k80() if _check_machine(machine, none=True) is None else machine
    return _traffic_by_rule(tr, m, rules)


def _traffic_by_rule(tr: Trace, m: Machine, rules) -> dict[str, Traffic]:
    """:func:`traffic_by_rule`'s work, its arguments already checked."""
    sm, position, sms, res, wps = _order_keys(tr, m)
    cpi = cycles_per_instruction(m, wps)
    time = position * cpi
    sp = tr.space
    codes = {s: i for i, s in enumerate(SPACES)}
    g = sp == codes["G"]
    c = sp == codes["C"]
    s = sp == codes["S"]
    # 1D and 2D texture: linear addresses, as the paper
    tx = np.isin(sp, [codes["T"], codes["2T"]])

    # the global rows (every row, in most placements: then no copy of the addresses)
    g_addr, g_bytes = (
        (tr.addr, tr.word_bytes) if g.all() else (tr.addr[g], tr.word_bytes[g])
    )
    global_by_rule = {
        r: float(global_replays_batch(g_addr, g_bytes, m.transaction_bytes, r).sum())
        for r in dict.fromkeys(rules)
    }
    replays = {
        "1_global": 0.0,
        "2_const_miss": 0.0,
        "3_const_div": float(constant_divergence_replays_batch(tr.addr[c]).sum())
        if c.any()
        else 0.0,
        "4_bank": float(shared_conflict_replays_batch(tr.addr[s]).sum())
        if s.any()
        else 0.0,
    }
    mem_insts = {name: int((sp == codes[name]).sum()) for name in SPACES}

    # L2 accesses: global sectors, and the sectors of texture and constant lines that
    # miss their per-SM cache
    rows, lines = distinct_lines_batch(g_addr, m.request_bytes, g_bytes)
    gi = np.nonzero(g)[0][rows]
    l2_addr, l2_time, l2_global = [lines], [time[gi]], [np.ones(lines.size, bool)]
    requests, misses = {"G": int(lines.size), "T": 0, "C": 0}, {"T": 0, "C": 0}
    for name, mask, sm_cache in (("T", tx, m.tex), ("C", c, m.const)):
        if not mask.any():
            continue
        rows, lines = distinct_lines_batch(
            tr.addr[mask], sm_cache.line_bytes, tr.word_bytes[mask]
        )
        ri = np.nonzero(mask)[0][rows]
        order = np.argsort(time[ri], kind="stable")
        ri, lines = ri[order], lines[order]
        hits = sm_cache.hits(lines, cache_id=sm[ri], n_caches=sms)
        requests[name], misses[name] = int(lines.size), int((~hits).sum())
        per = sm_cache.line_bytes // m.request_bytes
        sect = (
            lines[~hits][:, None] + m.request_bytes * np.arange(per)[None, :]
        ).ravel()
        l2_addr.append(sect)
        l2_time.append(np.repeat(time[ri][~hits], per))
        l2_global.append(np.zeros(sect.size, bool))
    replays["2_const_miss"] = float(misses["C"])
    la, lt, lg = (
        np.concatenate(l2_addr),
        np.concatenate(l2_time),
        np.concatenate(l2_global),
    )
    order = np.argsort(lt, kind="stable")
    la, lt, lg = la[order], lt[order], lg[order]
    l2miss = ~m.l2.hits(la)
    misses["L2"], misses["G_L2"] = int(l2miss.sum()), int((l2miss & lg).sum())
    shared = {
        "kernel": tr.kernel.name,
        "placement": dict(tr.placement),
        "n_warps": tr.kernel.n_warps,
        "active_sms": sms,
        "warps_per_sm": wps,
        "resident_blocks_per_sm": res,
        "executed_per_warp": float(tr.executed.mean()),
        "addressing_per_warp": float(tr.addressing.sum() / tr.kernel.n_warps),
        "mem_insts": mem_insts,
        "requests": requests,
        "misses": misses,
        "l2_accesses": int(la.size),
        "dram_addr": la[l2miss].astype(np.int64),
        "dram_time": lt[l2miss].astype(np.float64),
        "cpi": cpi,
        "copy_bytes": tr.copy_bytes,
        "threads_per_block": tr.kernel.threads_per_block,
        "blocks": tr.kernel.blocks,
    }
    # each result its own counts; the results share the request arrays, read-only
    for a in (shared["dram_addr"], shared["dram_time"]):
        a.setflags(write=False)
    return {
        r: Traffic(
            rule=r,
            replays={**replays, "1_global": n},
            **{k: dict(v) if isinstance(v, dict) else v for k, v in shared.items()},
        )
        for r, n in global_by_rule.items()
    }


def placement_traffic(
    benchmark: str,
    moves: Mapping[str, str] | None = None,
    machine: Machine | None = None,
) -> dict[str, Traffic]:
    """:func:`traffic_by_rule` of the default-size kernel of ``benchmark``
    (:func:`~gpumodels.engines.refsim.kernels.kernel`) under its sample placement with
    ``moves`` (array → space) applied: the traffic under every rule, keyed by rule.

    On the K80 (``machine`` ``None``, or a machine that differs from :func:`k80` at
    most in its clock, which the traffic does not depend on) the result is kept in
    memory and in the disk cache (:mod:`gpumodels.ground.diskcache`): the processes of
    a checkout compute each placement once.
    :func:`~gpumodels.papers.huang_li.model.profile` and
    :func:`~gpumodels.papers.huang_li.model.predict` read it for the traces they build
    of such kernels. Each call returns its own records (their counts are fresh dicts;
    the request arrays are shared and read-only)."""
    k = kernel(benchmark)
    if moves is not None:
        check_map("moves", moves, "str")
    placement = tuple(sorted(k.placement(moves).items()))
    if machine is not None and not is_k80_traffic(machine):
        return traffic_by_rule(k.trace(dict(placement)), machine)
    return {
        r: replace(
            t,
            placement=dict(t.placement),
            replays=dict(t.replays),
            mem_insts=dict(t.mem_insts),
            requests=dict(t.requests),
            misses=dict(t.misses),
        )
        for r, t in _placement_traffic(benchmark, placement).items()
    }


def is_k80_traffic(machine: Machine) -> bool:
    """Whether ``machine`` gives the K80's traffic: every field equal to :func:`k80`'s
    but the clock, which the traffic does not depend on."""
    m, ref = _check_machine(machine), k80()
    return replace(m, clock_ghz=ref.clock_ghz) == ref


@cache
@persistent
def _placement_traffic(
    benchmark: str, placement: tuple[tuple[str, str], ...]
) -> dict[str, Traffic]:
    return traffic_by_rule(kernel(benchmark).trace(dict(placement)), k80())


def forget_placement_traffic() -> None:
    """Free the traffic :func:`placement_traffic` keeps in this process's memory (the
    disk cache keeps it)."""
    _placement_traffic.cache_clear()


def analyze(
    tr: Trace | Traffic,
    machine: Machine | None = None,
    *,
    rule: str = "printed",
    mapping: AddressMap | str = DEFAULT_MAPPING,
    queue_form: str = "kingman",
    saturation: str = "cap",
    service: str = "occupancy",
) -> Analysis:
    """Count everything the model needs for one placement's trace (module docstring for
    the readings).

    ``tr`` is the placement's trace, or its :class:`Traffic` already computed
    (:func:`traffic`, whose ``rule`` must then equal ``rule``, built for this machine;
    only the clock may differ, since the traffic does not depend on it): the DRAM
    readings can be varied without redoing the caches. ``rule`` picks replay rule (1)
    (``"printed"`` or ``"segments"``). ``mapping`` is the address map the model
    believes: by default the paper's K80 bits with 8–21 as the
    column and 30–32 as the row [A13] (read the other way round, every streaming access
    would be a row conflict in one of 8 banks); pass ``DetectedMapping.as_map()`` to use
    what Algorithm 1 found. ``service`` is what a bank queue serves: ``"occupancy"``
    (the book's reading: bank busy times from GDDR5 timings feed Kingman, Eq. 8's
    latencies are added after) or ``"latency"`` (the printed end-to-end latencies as
    service times, the literal reading, which saturates every loaded bank [A3]).
    ``queue_form`` and ``saturation`` go to
    :func:`gpumodels.papers.huang_li.queueing.bank_latency` (``"cap"``: the book's bound
    at ρ ≥ 1; ``"nan"``: the faithful flagged NaN).
    """
    check_choice("service", service, SERVICE)
    check_choice("rule", rule, RULES)
    check_choice("queue_form", queue_form, queueing.QUEUE_FORMS)
    check_choice("saturation", saturation, queueing.SATURATION)
    check_kind("tr", tr, (Trace, Traffic), "a refsim.kernels.Trace or a Traffic")
    m = k80() if _check_machine(machine, none=True) is None else machine
    check_kind(
        "mapping", mapping, (AddressMap, str), "a preset name or a dram.AddressMap"
    )
    amap = address_map(mapping) if isinstance(mapping, str) else mapping
    if isinstance(tr, Traffic):
        if tr.rule != rule:
            raise ValueError(
                f"rule must be the Traffic's rule ({tr.rule!r}) when tr is a Traffic, "
                f"got {rule!r}"
            )
        t = tr
    else:
        t = _traffic_by_rule(tr, m, (rule,))[rule]
    da, dt = t.dram_addr, t.dram_time

    # DRAM: banks and rows by the believed mapping, row-buffer outcomes, per-bank queues
    bank, row, _ = amap.decode(da)
    out = row_buffer_outcomes(bank, row)
    row_counts = {
        "hit": int((out == HIT).sum()),
        "miss": int((out == MISS).sum()),
        "conflict": int((out == CONFLICT).sum()),
    }
    lat = np.array([m.lat_hit, m.lat_miss, m.lat_conflict]) * m.clock_ghz
    busy = (
        np.array([m.occupancy_hit, m.occupancy_miss, m.occupancy_conflict])
        * m.clock_ghz
        if service == "occupancy"
        else lat
    )
    stats = queueing.bank_stats(bank, dt, busy[out], lat[out])
    even = queueing.bank_stats(
        np.arange(da.size) % m.physical_banks,
        dt,
        np.full(da.size, busy[MISS]),
        np.full(da.size, lat[MISS]),
    )
    dram_lat, saturated = {"constant": float(lat[MISS])}, {"constant": False}
    for key, st in (("mapped", stats), ("even", even)):
        if st.bank.size:
            dram_lat[key], saturated[key] = queueing.dram_latency(
                st, form=queue_form, saturation=saturation
            )
        else:  # fewer than two DRAM requests per bank: no queue
            dram_lat[key], saturated[key] = (
                (float(lat[out].mean()) if out.size else float(lat[MISS])),
                False,
            )
    requests = t.requests
    return Analysis(
        kernel=t.kernel,
        placement=dict(t.placement),
        n_warps=t.n_warps,
        active_sms=t.active_sms,
        warps_per_sm=t.warps_per_sm,
        resident_blocks_per_sm=t.resident_blocks_per_sm,
        executed_per_warp=t.executed_per_warp,
        addressing_per_warp=t.addressing_per_warp,
        replays=dict(t.replays),
        mem_insts=dict(t.mem_insts),
        requests=dict(requests),
        misses=dict(t.misses),
        l2_accesses=t.l2_accesses,
        dram_requests=int(da.size),
        offchip_bytes=requests["G"] * m.request_bytes
        + requests["T"] * m.tex.line_bytes
        + requests["C"] * m.const.line_bytes,
        dram_bytes=int(da.size) * m.request_bytes,
        row=row_counts,
        bank_stats=stats,
        dram_lat=dram_lat,
        saturated=saturated,
        cpi=t.cpi,
        copy_bytes=t.copy_bytes,
        threads_per_block=t.threads_per_block,
        blocks=t.blocks,
        options={
            "rule": rule,
            "mapping": amap.name,
            "queue_form": queue_form,
            "saturation": saturation,
            "service": service,
        },
    )
