"""The synthetic α-workload of Volkov (2016) §4.1–4.7 and its refinement of §6.4–6.5.

Each warp runs an endless chain of back-to-back dependent instructions: one memory load
followed by α floating-point adds (α is the arithmetic intensity). The model of §4.1 bounds
the memory-instruction throughput (IPC per SM) by latency and by three throughput limits::

    Latency           = mem_lat + α·alu_lat                                   (§4.1)
    memory throughput = min(n / Latency, mem_thru, alu_thru/α, issue_thru/(α+1))
    arithmetic        = 32·α·memory throughput          adds per cycle per SM (Table 4.2)

The same algebra covers the mixes of §4.7 (adds with SFU instructions or with shared-memory
loads): the "other" instruction takes the place of the memory load (:func:`mix_params`).

The refined model of §6.4–6.5 replaces the constant ``mem_lat`` with a latency that grows with
memory throughput x in GB/s, ``a + b·x/(c − x)`` (Table 6.5; a two-term form for the G80), and
solves the resulting fixed point per point with a bracketing root finder.

All functions broadcast numpy arrays over ``n`` (warps per SM) and ``alpha``; ``alpha`` may be
``0`` or ``numpy.inf`` (the limit cases of §4.2).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Mapping

import numpy as np

from .. import hardware
from .._data import read_rows
from .._validate import as_array, broadcast, check_choice, check_flag, check_fraction, check_int, check_real, out
from ..errors import InputTypeError, UnknownNameError
from ..occupancy import WARP_SIZE

BYTES_PER_LOAD = 128          # a fully coalesced 32-bit load of one warp (§4.1, §6.5)

_T41 = "volkov/table_4_1.csv"
_T65 = "volkov/table_6_5.csv"
_CH6 = "volkov/chapter6_metrics.csv"
_S47 = "volkov/maxwell_s4_7.csv"

GENERATIONS = ("G80", "GT200", "Fermi", "Kepler", "Maxwell")
KINDS = ("memory", "sfu", "shared")


@dataclass(frozen=True)
class Params:
    """Model inputs for one GPU (Volkov 2016, Table 4.1 and Table 6.5).

    Latencies are in cycles, throughputs in instructions per cycle (IPC) per SM. For the
    mixes of §4.7 (``kind`` ``"sfu"`` or ``"shared"``) the ``mem_*`` fields describe the SFU or
    shared-memory instruction that takes the place of the global load.

    Attributes
    ----------
    gpu, product : str
        Generation name used in the dissertation ("Kepler") and the product (``"GTX680"``).
    mem_lat, mem_thru : float
        Latency (cycles) and peak throughput (IPC/SM) of the memory (or other) instruction.
    mem_lat_to_alu : float
        Its latency when the dependent instruction is a CUDA-core add (§4.7; Maxwell only differs).
    mem_issue : float
        Issue cycles per memory (or other) instruction; 1 in the model, larger in the §4.7/§4.12
        variants.
    alu_lat, alu_thru, issue_thru : float
        Add latency (cycles), add throughput and issue throughput (IPC/SM).
    a, b, c : float
        Table 6.5 coefficients of the latency model ``a + b·x/(c − x)`` (cycles, cycles, GB/s).
    latency_terms : tuple
        The ``(b, c)`` pairs the refined model uses: ``((b, c),)`` from Table 6.5, or the two G80 terms.
    sm_count, clock_ghz, schedulers, max_warps_per_sm
        From the GPU record (:mod:`gpumodels.hardware`).
    """

    gpu: str
    product: str
    kind: str
    mem_lat: float
    mem_thru: float
    alu_lat: float
    alu_thru: float
    issue_thru: float
    a: float
    b: float
    c: float
    latency_terms: tuple[tuple[float, float], ...]
    latency_model: str
    sm_count: int
    clock_ghz: float
    schedulers: int
    max_warps_per_sm: int
    mem_lat_to_alu: float | None = None
    mem_issue: float = 1.0
    sources: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def gbs_per_ipc(self) -> float:
        """Conversion factor from IPC/SM of coalesced loads to GB/s, i.e. 128 B × SMs × clock (§6.5)."""
        return BYTES_PER_LOAD * self.sm_count * self.clock_ghz

    @property
    def mem_thru_gbs(self) -> float:
        """Peak memory throughput in GB/s (Table 6.4's peak, up to Table 4.1's rounding)."""
        return self.mem_thru * self.gbs_per_ipc

    def memory_latency(self, x_gbs):
        """Mean memory latency in cycles at throughput ``x_gbs`` GB/s (§6.4, Table 6.5).

        ``inf`` at and beyond the smallest ``c`` of the latency terms.
        """
        x = as_array("x_gbs", x_gbs, allow_inf=True)
        return out(_latency(self, x))

    def replace(self, **changes) -> "Params":
        """A copy with some fields changed (e.g. ``p.replace(mem_issue=8)`` for §4.12's variant);
        the copy is validated like a new record."""
        return dataclasses.replace(self, **changes)

    def __post_init__(self) -> None:
        """Validate every field on construction (and so on :meth:`replace`)."""
        for name in ("gpu", "product", "latency_model"):
            if not isinstance(getattr(self, name), str):
                raise InputTypeError(f"Params.{name} must be a string, got {getattr(self, name)!r}")
        check_choice("Params.kind", self.kind, KINDS)
        for name in ("mem_lat", "alu_lat", "clock_ghz", "mem_issue"):
            check_real(f"Params.{name}", getattr(self, name), lo=0.0, lo_open=True, context=self.gpu)
        for name in ("mem_thru", "alu_thru", "issue_thru"):        # inf: the limit is switched off
            as_array(f"Params.{name} ({self.gpu})", getattr(self, name), lo=0.0, lo_open=True, allow_inf=True)
        for name in ("a", "b"):
            check_real(f"Params.{name}", getattr(self, name), lo=0.0, context=self.gpu)
        as_array(f"Params.c ({self.gpu})", self.c, lo=0.0, lo_open=True, allow_inf=True)  # inf: no contention
        if self.mem_lat_to_alu is not None:
            check_real("Params.mem_lat_to_alu", self.mem_lat_to_alu, lo=0.0, lo_open=True, context=self.gpu)
        for name in ("sm_count", "schedulers", "max_warps_per_sm"):
            check_int(f"Params.{name}", getattr(self, name), 1, context=self.gpu)
        terms = self.latency_terms
        if not isinstance(terms, tuple) or not all(isinstance(t, tuple) and len(t) == 2 for t in terms):
            raise InputTypeError(f"Params.latency_terms must be a tuple of (b, c) pairs (empty: no contention), "
                                 f"got {terms!r}")
        for b, c in terms:
            check_real("Params.latency_terms b", b, lo=0.0, context=self.gpu)
            as_array(f"Params.latency_terms c ({self.gpu})", c, lo=0.0, lo_open=True, allow_inf=True)


def check_params(p, name: str = "p") -> Params:
    """``p`` if it is a :class:`Params` record; ``InputTypeError`` saying how to get one otherwise."""
    if isinstance(p, Params):
        return p
    hint = "volkov.params('Kepler')"
    if isinstance(p, str):
        hint = f"volkov.params({p!r})"
    elif isinstance(p, hardware.GPU):
        hint = f"volkov.params({p.name!r}) for that GPU"
    raise InputTypeError(f"{name} must be a volkov Params record (e.g. {hint}), got {type(p).__name__} {p!r:.60}")


def _latency(p: Params, x_gbs: np.ndarray) -> np.ndarray:
    lat = np.full(np.shape(x_gbs), p.a, dtype=float)
    c_min = min(c for _, c in p.latency_terms)
    with np.errstate(divide="ignore", invalid="ignore"):
        for b, c in p.latency_terms:
            lat = lat + b * x_gbs / (c - x_gbs)
    return np.where(x_gbs >= c_min, np.inf, lat)


@lru_cache(maxsize=None)
def _table_4_1() -> dict[str, dict[str, str]]:
    return {r["gpu"]: r for r in read_rows(_T41)}


def _generation(name: str) -> str:
    if not isinstance(name, str):
        raise ValueError(f"name must be a GPU name such as 'Kepler' or 'GTX680', got {name!r}")
    for gen in GENERATIONS:
        if name.strip().lower() == gen.lower():
            return gen
    try:
        g = hardware.get_gpu(name)
    except KeyError:
        g = None
    if g is not None:
        for gen in GENERATIONS:
            if hardware.get_gpu(gen).name == g.name:
                return gen
    allowed = ", ".join(f"{gen} ({hardware.get_gpu(gen).name})" for gen in GENERATIONS)
    raise UnknownNameError(f"name must be one of the five GPUs of Volkov 2016: {allowed}; got {name!r}")


def chapter6_value(gen: str, table: str, column: str) -> float:
    """One printed value of Volkov's Tables 6.1–6.6 (``data/volkov/chapter6_metrics.csv``), e.g.
    ``chapter6_value("Kepler", "6.4", "peak")``; ``UnknownNameError`` if the table has no such cell."""
    for r in read_rows(_CH6):
        if r["gpu"] == gen and r["table"] == table and r["column"] == column:
            return float(r["value"])
    raise UnknownNameError(f"Table {table} has no {column!r} value for {gen}")


def _s47(quantity: str) -> float:
    return float(next(r["value"] for r in read_rows(_S47) if r["quantity"] == quantity))


@lru_cache(maxsize=None)
def params(name: str, latency_model: str = "table_6_5", *, method: str | None = None,
           bandwidth: str = "read") -> Params:
    """The Table 4.1 parameter set of one of Volkov's five GPUs, or of a modern GPU.

    Parameters
    ----------
    name : str
        ``"G80"``, ``"GT200"``, ``"Fermi"``, ``"Kepler"``, ``"Maxwell"`` or the same GPUs by
        product name (``"8800GTX"``, ``"GTX280"``, ``"GTX480"``, ``"GTX680"``, ``"GTX980"``); or a
        modern GPU of :data:`gpumodels.volkov.modern.GPUS` (``"V100 PCIe"``, ``"A100"``,
        ``"A100 80GB"``, ``"H100 PCIe"``, ``"H100"``, ``"GH200"``, ``"L40"``), whose parameters come
        from public measurements (:func:`gpumodels.volkov.modern.params`).
    latency_model : str
        ``"table_6_5"`` (one term, all GPUs) or ``"two_term"`` (the better G80 fit of §6.4);
        Volkov's GPUs only.
    method, bandwidth : str
        Modern GPUs only: the latency measurement and the bandwidth that sets ``mem_thru``.

    Examples
    --------
    >>> p = params("Maxwell")
    >>> p.mem_lat, p.mem_thru, p.alu_lat, p.alu_thru, p.issue_thru
    (368.0, 0.0814, 6.0, 4.0, 4.0)
    >>> round(p.mem_thru_gbs)
    211
    """
    from . import modern

    try:
        gen = _generation(name)
    except ValueError:
        try:
            modern.gpu_name(name)
        except ValueError as e:
            if isinstance(name, str) and name.upper() in modern.AMD:
                raise e from None                           # gpu_name's own message: known, but not warp-based
            allowed = ", ".join(GENERATIONS) + ", " + ", ".join(modern.GPUS)
            raise UnknownNameError(f"name must be one of Volkov's five GPUs or a modern GPU: {allowed}; "
                             f"got {name!r}") from None
        return modern.params(name, method=method, bandwidth=bandwidth)
    if method is not None or bandwidth != "read":
        raise ValueError(f"method and bandwidth apply to modern GPUs only; {gen} has Table 4.1's parameters")
    row = _table_4_1()[gen]
    rows65 = [r for r in read_rows(_T65) if r["gpu"] == gen]
    models = sorted({r["variant"] for r in rows65})
    if latency_model not in models:
        raise UnknownNameError(f"latency_model must be one of {models} for {gen}, got {latency_model!r}")
    base = next(r for r in rows65 if r["variant"] == "table_6_5")
    terms = [r for r in rows65 if r["variant"] == latency_model]
    g = hardware.get_gpu(gen)
    src41 = row["source"]
    return Params(
        gpu=gen, product=g.name, kind="memory",
        mem_lat=float(row["mem_lat"]), mem_thru=float(row["mem_thru"]),
        alu_lat=float(row["alu_lat"]), alu_thru=float(row["alu_thru"]), issue_thru=float(row["issue_thru"]),
        a=float(terms[0]["a"]),
        b=float(base["b"]), c=float(base["c"]),
        latency_terms=tuple((float(r["b"]), float(r["c"])) for r in terms),
        latency_model=latency_model,
        sm_count=g.sm_count, clock_ghz=g.clock_ghz, schedulers=g.warp_schedulers_per_sm,
        max_warps_per_sm=g.max_warps_per_sm,
        sources={"mem_lat": src41, "mem_thru": src41, "alu_lat": src41, "alu_thru": src41,
                 "issue_thru": src41, "a": terms[0]["source"], "b": base["source"], "c": base["source"],
                 "latency_terms": terms[0]["source"], "sm_count": g.source("sm_count"),
                 "clock_ghz": g.source("clock_ghz"), "schedulers": g.source("warp_schedulers_per_sm")},
    )


@lru_cache(maxsize=None)
def mix_params(name: str, kind: str, issue_costs: bool = False) -> Params:
    """Parameters of the §4.7 mixes: adds with SFU instructions or with shared-memory loads.

    The SFU or shared-memory instruction takes the place of the global load: its latency is
    Table 6.2's, its peak throughput Table 6.1's (ops/cycle/scheduler × schedulers / 32). On
    the Maxwell GPU the latency also depends on the dependent instruction (13/9 cycles for SFU,
    24/22 for shared memory; §4.7). With ``issue_costs=True`` an SFU instruction takes 2 and a
    shared-memory load 3 issue cycles — the assumption with which §4.7 matches the measured
    saturation on Maxwell (only Maxwell has this variant).

    ``kind="memory"`` returns :func:`params` (optionally with §4.12's 8 issue cycles per load on
    Maxwell).
    """
    issue_costs = check_flag("issue_costs", issue_costs)
    if kind not in KINDS:
        raise UnknownNameError(f"kind must be one of {KINDS}, got {kind!r}")
    base = params(name)
    gen = base.gpu
    if issue_costs and gen != "Maxwell":
        raise ValueError(f"issue_costs=True is defined only for Maxwell (§4.7, §4.12), got {gen}")
    if kind == "memory":
        return base.replace(mem_issue=_s47("mem_issue_cycles")) if issue_costs else base
    if kind == "shared" and gen in ("G80", "GT200"):
        raise ValueError(f"kind='shared' is not defined for {gen}: Volkov §4.7 does not consider this mix "
                         "on G80 and GT200 (shared memory is addressed through extra instructions)")
    col = "sfu" if kind == "sfu" else "smem"
    lat = chapter6_value(gen, "6.2", col)
    lat_to_alu = lat
    if gen == "Maxwell":
        lat = _s47(f"{col}_lat_same")
        lat_to_alu = _s47(f"{col}_lat_to_alu")
    thru = chapter6_value(gen, "6.1", col) * base.schedulers / WARP_SIZE
    issue = _s47(f"{col}_issue_cycles") if issue_costs else 1.0
    src = "Volkov 2016, Tables 6.1-6.2" + (" and §4.7" if gen == "Maxwell" else "")
    return base.replace(kind=kind, mem_lat=lat, mem_lat_to_alu=lat_to_alu, mem_thru=thru, mem_issue=issue,
                        sources={**base.sources, "mem_lat": src, "mem_thru": src})


# --------------------------------------------------------------------------------------------
# The basic model (§4.1–4.7)
# --------------------------------------------------------------------------------------------

def _other_latency(p: Params, alpha: np.ndarray) -> np.ndarray:
    """Mean latency of the non-add instruction: followed by an add with probability min(α, 1)."""
    to_alu = p.mem_lat if p.mem_lat_to_alu is None else p.mem_lat_to_alu
    return p.mem_lat - np.minimum(alpha, 1.0) * (p.mem_lat - to_alu)


def latency(p: Params, alpha):
    """Warp latency per group of one memory instruction and α adds: ``mem_lat + α·alu_lat`` (§4.1)."""
    p = check_params(p)
    a = as_array("alpha", alpha, allow_inf=True)
    return out(_other_latency(p, a) + a * p.alu_lat)


def arithmetic_limit(p: Params, a: np.ndarray) -> np.ndarray:
    """Throughput bound on adds in IPC/SM: ``min(α·mem_thru, alu_thru, issue_thru/(1 + mem_issue/α))``
    (§4.1), for an array ``a`` of α already checked by the caller."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.minimum(np.minimum(a * p.mem_thru, p.alu_thru), p.issue_thru / (1.0 + p.mem_issue / a))


def _limits(p: Params, a: np.ndarray) -> np.ndarray:
    """The three limits on memory-instruction throughput (IPC/SM), stacked: memory, adds, issue (§4.1)."""
    with np.errstate(divide="ignore"):
        return np.stack(np.broadcast_arrays(np.full(a.shape, p.mem_thru), p.alu_thru / a,
                                            p.issue_thru / (a + p.mem_issue)))


def throughput_bound(p: Params, alpha):
    """Memory-instruction throughput bound in IPC/SM: ``min(mem_thru, alu_thru/α, issue_thru/(α+1))`` (§4.1)."""
    p = check_params(p)
    return out(_limits(p, as_array("alpha", alpha, allow_inf=True)).min(axis=0))


def binding_limit(p: Params, alpha):
    """Which throughput limit binds at ``alpha``: ``"memory"``, ``"alu"`` or ``"issue"`` (ties go left)."""
    p = check_params(p)
    lims = _limits(p, as_array("alpha", alpha, allow_inf=True))
    names = np.array(["memory" if p.kind == "memory" else p.kind, "alu", "issue"])
    res = names[np.argmin(lims, axis=0)]
    return str(res) if res.ndim == 0 else res


def memory_throughput(p: Params, n, alpha):
    """Memory instructions per cycle per SM with ``n`` warps per SM (§4.1, Table 4.2)::

        min(n / (mem_lat + α·alu_lat), mem_thru, alu_thru/α, issue_thru/(α+1))

    ``n`` and ``alpha`` broadcast; ``alpha = inf`` gives 0.
    """
    p = check_params(p)
    n_ = as_array("n", n)
    a = as_array("alpha", alpha, allow_inf=True)
    n_, a = broadcast(n=n_, alpha=a)
    lat = _other_latency(p, a) + a * p.alu_lat
    with np.errstate(divide="ignore", invalid="ignore"):
        res = np.minimum(n_ / lat, throughput_bound(p, a))
    return out(np.where(np.isinf(a), 0.0, res))


def arithmetic_throughput(p: Params, n, alpha):
    """Adds per cycle per SM (32 per add instruction): ``32·α·memory_throughput`` (Table 4.2).

    Written as ``32·min(n/(mem_lat/α + alu_lat), α·mem_thru, alu_thru, issue_thru/(1+1/α))`` so
    that ``alpha = inf`` gives the all-add limit ``32·min(n/alu_lat, alu_thru, issue_thru)`` of
    §4.2 and ``alpha = 0`` gives 0.
    """
    p = check_params(p)
    n_ = as_array("n", n)
    a = as_array("alpha", alpha, allow_inf=True)
    n_, a = broadcast(n=n_, alpha=a)
    with np.errstate(divide="ignore", invalid="ignore"):
        lat_per_add = _other_latency(p, a) / a + p.alu_lat
        res = np.minimum(n_ / lat_per_add, arithmetic_limit(p, a))
    return out(WARP_SIZE * np.where(a == 0, 0.0, res))


def needed_occupancy(p: Params, alpha, fraction: float = 1.0):
    """Warps per SM needed to reach ``fraction`` of the throughput bound (§4.5)::

        n = fraction · Latency · min(mem_thru, alu_thru/α, issue_thru/(α+1))

    At α = 0 this is ``mem_lat·mem_thru`` and at α = ∞ ``alu_lat·min(alu_thru, issue_thru)``
    (§4.2); the maximum, near α = alu_thru/mem_thru, is about their sum — the cusp.
    """
    p = check_params(p)
    f = check_fraction("fraction", fraction)
    a = as_array("alpha", alpha, allow_inf=True)
    return out(_occupancy_at(p, a, f, _other_latency(p, a)))


def cusp_closed_form(p: Params) -> tuple[float, float]:
    """§4.5's closed form of the cusp: ``(α, warps)`` with ``α = alu_thru / mem_thru``, where the memory
    and arithmetic throughput limits meet, and ``warps = mem_lat·mem_thru + alu_lat·alu_thru``, the
    sum of the occupancies needed at α = 0 and α = ∞. The issue limit is left out, as in the text.

    >>> a, w = cusp_closed_form(params("Maxwell"))      # §4.5: "α ≈ 49", "approximately 54 warps"
    >>> round(a, 1), round(w, 2)
    (49.1, 53.96)
    """
    p = check_params(p)
    return p.alu_thru / p.mem_thru, p.mem_lat * p.mem_thru + p.alu_lat * p.alu_thru


def cusp_exact(p: Params) -> tuple[float, float]:
    """The basic model's own cusp, issue limit included: ``(α, warps)`` at the maximum of
    :func:`needed_occupancy`. The maximum sits where the memory limit meets the lower of the
    arithmetic limits, ``min(alu_thru/α, issue_thru/(α+1))``; on Maxwell (issue_thru = alu_thru = 4)
    that is the issue limit, at ``α = issue_thru/mem_thru − 1``.

    >>> a, w = cusp_exact(params("Maxwell"))
    >>> round(a, 1), round(w, 1)
    (48.1, 53.5)
    """
    p = check_params(p)
    # the corner of min(mem_thru, alu_thru/α, issue_thru/(α+1)) where the memory branch ends
    a_alu = p.alu_thru / p.mem_thru
    a_issue = p.issue_thru / p.mem_thru - 1.0
    a = min(a_alu, a_issue)
    return float(a), float(needed_occupancy(p, a))


def _occupancy_at(p: Params, a: np.ndarray, f: float, mem_latency: np.ndarray) -> np.ndarray:
    """Little's law at ``f`` × the throughput bound: throughput × (mem latency + α·alu_lat).

    Written per load for α ≤ 1 and per add for α > 1, so both α = 0 and α = ∞ stay finite.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        mem_form = f * throughput_bound(p, a) * (mem_latency + a * p.alu_lat)
        arith_form = f * arithmetic_limit(p, a) * (mem_latency / a + p.alu_lat)
    return np.where(a <= 1.0, mem_form, arith_form)


def instruction_concurrency(p: Params, n, alpha):
    """Mean numbers of adds and of memory instructions in execution (§4.6, Little's law).

    Returns ``(alu, mem)``: ``alu_lat × add throughput`` and ``mem_lat × memory throughput``
    (instructions per SM). Their sum never exceeds ``n`` since each warp has at most one
    instruction in execution; it equals ``n`` in the latency-bound mode.
    """
    p = check_params(p)
    a = as_array("alpha", alpha, allow_inf=True)
    mem = memory_throughput(p, n, a)
    alu = arithmetic_throughput(p, n, a) / WARP_SIZE
    return out(np.asarray(alu) * p.alu_lat), out(np.asarray(mem) * _other_latency(p, a))


# --------------------------------------------------------------------------------------------
# The refined model (§6.4–6.5)
# --------------------------------------------------------------------------------------------

def _require_memory(p: Params) -> None:
    if p.kind != "memory":
        raise ValueError(f"the refined model applies to global-memory loads only (kind='memory'), got kind={p.kind!r}")
    if not p.latency_terms:
        raise ValueError(f"the refined model needs a Table 6.5 fit of latency vs throughput, and {p.gpu} has none "
                         "(it needs latency measured under load, which no public source gives)")


def refined_latency(p: Params, x, alpha):
    """Warp latency per group when memory throughput is ``x`` IPC/SM (§6.5)::

        a + Σ b·X/(c − X) + α·alu_lat,     X = x · 128 B · SMs · clock  (GB/s)

    ``x`` and ``alpha`` broadcast.
    """
    p = check_params(p)
    _require_memory(p)
    x_ = as_array("x", x)
    a = as_array("alpha", alpha, allow_inf=True)
    x_, a = broadcast(x=x_, alpha=a)
    return out(_latency(p, x_ * p.gbs_per_ipc) + a * p.alu_lat)


def refined_memory_throughput(p: Params, n, alpha):
    """Memory throughput (IPC/SM) of the refined model: the fixed point of (§6.5)::

        x = min(n / (a + Σ b·X/(c − X) + α·alu_lat), mem_thru, alu_thru/α, issue_thru/(α+1))

    ``x·Latency(x)`` grows monotonically from 0 to ∞ on ``[0, c)``, so the latency-bound
    branch has one root; it is bracketed in ``(0, min(bound, c))`` and found for all points
    at once with ``scipy.optimize.elementwise.find_root`` (Chandrupatla's method). If the
    latency branch exceeds the throughput bound the bound is returned.
    """
    p = check_params(p)
    from scipy.optimize.elementwise import find_root

    _require_memory(p)
    n_ = as_array("n", n)
    a = as_array("alpha", alpha, allow_inf=True)
    n_, a = broadcast(n=n_, alpha=a)
    bound = np.asarray(throughput_bound(p, a), dtype=float)
    c_min = min(c for _, c in p.latency_terms) / p.gbs_per_ipc
    finite = np.isfinite(a) & (n_ > 0)
    alu = np.where(finite, a, 0.0) * p.alu_lat

    def g(x, n_, alu):
        return x * (_latency(p, x * p.gbs_per_ipc) + alu) - n_

    hi = np.minimum(bound, c_min * (1 - 1e-12))
    with np.errstate(invalid="ignore"):
        at_hi = g(hi, n_, alu)
    result = np.where(at_hi <= 0, hi, 0.0)          # throughput-bound points (hi == bound there)
    todo = finite & (at_hi > 0)
    if np.any(todo):
        res = find_root(g, (np.zeros(int(todo.sum())), hi[todo]), args=(n_[todo], alu[todo]),
                        tolerances=dict(xatol=1e-300, xrtol=4 * np.finfo(float).eps))
        result[todo] = res.x
    result = np.where(finite, result, 0.0)
    return out(result)


def refined_arithmetic_throughput(p: Params, n, alpha):
    """Adds per cycle per SM of the refined model: ``32·α·refined_memory_throughput`` (§6.5).

    At ``alpha = inf`` memory latency plays no role and the basic all-add limit is returned.
    """
    p = check_params(p)
    a = as_array("alpha", alpha, allow_inf=True)
    x = np.asarray(refined_memory_throughput(p, n, a))
    basic_inf = np.asarray(arithmetic_throughput(p, n, np.inf))
    with np.errstate(invalid="ignore"):
        res = np.where(np.isinf(a), basic_inf, WARP_SIZE * np.where(np.isinf(a), 0.0, a) * x)
    return out(res)


def refined_needed_occupancy(p: Params, alpha, fraction: float = 0.9):
    """Warps per SM at which the refined model reaches ``fraction`` of the throughput bound.

    Closed form: at the target throughput x the latency is known, so ``n = x·Latency(x)``;
    ``inf`` where the target lies beyond the latency model's singularity ``c`` (Fig. 4.6).
    """
    p = check_params(p)
    _require_memory(p)
    f = check_fraction("fraction", fraction)
    a = as_array("alpha", alpha, allow_inf=True)
    lat_mem = _latency(p, f * np.asarray(throughput_bound(p, a)) * p.gbs_per_ipc)   # at the target throughput
    return out(np.where(np.isinf(lat_mem), np.inf, _occupancy_at(p, a, f, lat_mem)))
