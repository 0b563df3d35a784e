"""Volkov-style parameters for modern GPUs (V100 to GH200), from public measurements.

Volkov's Table 4.1 gives five GPUs up to Maxwell. For later GPUs the book assembles the same five
numbers from sourced public data in ``data/modern/``:

``mem_lat``
    DRAM load latency of one warp at low load, in cycles. It depends on how it is measured, so
    every value keeps its method (:data:`METHODS`):

    * ``"random chase"`` — gpu-benches (RRZE-HPC and te42kyfo), one thread chasing a random
      permutation of cache lines; the value is the median of the latencies at footprints from
      128 to 256 MB (:data:`WINDOW_MB`), the plateau past the largest L2 (96 MB on the L40) and
      before TLB misses set in. This is the closest to Volkov's own method (§6.1: pointer chase,
      one warp, unloaded memory). Where both repositories measured a GPU, both are rows and the
      parameter is their median.
    * ``"unlocked chase"`` — AI_kernels' chase (clocks not locked);
    * ``"mt4g"`` — mt4g's main-memory latency (mean of its samples);
    * ``"sequential chase"`` — the Accel-Sim tuner's ``mem_lat``: four threads chase consecutive
      words with ``ld.global.cv`` over twice the L2 size (A100 80 GB PCIe, from AMALi's raw
      tuner output). Consecutive addresses stay in open DRAM pages and TLB entries, so this reads
      lowest.

    When a GPU has no random-chase data (the H100 SXM) :func:`params` falls back to the next
    method in that order and says so in ``Params.sources``.
``mem_thru``
    Sustained bandwidth in the book's units, ``BW / (SMs × clock × 128 B)`` (§4.1, which gives
    Maxwell's 0.0814 from 211 GB/s): ``"read"`` (a read-only stream) or ``"triad"``/``"copy"``.
    gpu-benches' value is the best over its block sizes.
``alu_lat``, ``alu_thru``, ``issue_thru``
    From ``data/modern/alu.csv``: FP32 add latency (measured on Volta; assumed 4 cycles later,
    as the row says), FP32 lanes per SM / 32 (CUDA Programming Guide throughput table) and four
    schedulers issuing one instruction per cycle.

No GPU here has a Table 6.5 latency-vs-throughput fit, so :func:`params` returns a parameter set
without ``latency_terms``: the basic model and the prior models run on it, the refined model
raises a ``ValueError`` saying why.
"""

from __future__ import annotations

import statistics
from functools import lru_cache
from itertools import product

import numpy as np

from .. import hardware
from .._data import read_rows
from .synthetic import check_params, BYTES_PER_LOAD, Params
from .synthetic import params as volkov_params
from ..errors import UnknownNameError
from .. import plotting

GPUS = ("V100PCIe", "A100", "A100-80", "H100PCIe", "H100", "GH200", "L40")
"""The modern GPUs with a parameter set, by their records in ``data/gpus.csv``."""

STAND_INS = {"V100": "V100PCIe"}

#: AMD GPUs with public chase and stream data (gpu-benches): Little's law only (:func:`littles_law`),
#: no Volkov parameter set — a wavefront is 64 threads and the models here are written for warps.
AMD = ("MI210",)
"""Records without public measurements that a measured board of the same GPU stands in for:
``"V100"`` (the SXM2 record) gives the V100 PCIe's parameters — the same GV100 chip and HBM2; the
parameter set says ``gpu="V100PCIe"`` so that nobody mistakes it for an SXM2 measurement."""

METHODS = ("random chase", "unlocked chase", "mt4g", "sequential chase")
"""Latency methods, in the order :func:`params` falls back through them."""

BANDWIDTHS = ("read", "triad", "copy")
"""Bandwidth kinds that may set ``mem_thru``."""

WINDOW_MB = (128.0, 256.0)
"""Footprints (MB) over which the random-chase plateau is taken."""

GIB = 2 ** 30 / 1e9

_LAT = "modern/gpu_benches_latency.csv"
_STREAM = "modern/gpu_benches_stream.csv"
_MEAS = "modern/measurements.csv"
_ALU = "modern/alu.csv"
_CFG = "modern/simulator_configs.csv"
_AMD = "modern/amd.csv"
_METHOD_PREFIX = {"unlocked chase": "AI_kernels", "mt4g": "mt4g", "sequential chase": "Accel-Sim tuner sequential chase"}


def gpu_name(name: str) -> str:
    """The record name of a modern NVIDIA GPU (``"H100 PCIe"`` → ``"H100PCIe"``); ``UnknownNameError``
    if it is not one (an AMD GPU included: it has no warp-based parameter set)."""
    if isinstance(name, str) and name.upper() in AMD:
        raise UnknownNameError(f"{name!r} is an AMD GPU: it has chase and stream data and Little's law "
                         f"(modern.littles_law), but no Volkov parameter set; NVIDIA GPUs are {GPUS}")
    try:
        g = hardware.get_gpu(name).name
    except KeyError:
        g = None
    g = STAND_INS.get(g, g)
    if g not in GPUS:
        raise UnknownNameError(f"name must be one of the modern GPUs {GPUS} (or an alias of one), got {name!r}")
    return g


def _any_gpu(name: str) -> str:
    """:func:`gpu_name`, or the name of an :data:`AMD` GPU (for the functions that only read data)."""
    if isinstance(name, str) and name.upper() in AMD:
        return name.upper()
    return gpu_name(name)


@lru_cache(maxsize=None)
def _curves() -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray, float]]:
    out: dict[tuple[str, str], list] = {}
    for r in read_rows(_LAT):
        out.setdefault((r["gpu"], r["source"]), []).append((float(r["footprint_kb"]) / 1024,
                                                             float(r["cycles"]), float(r["clock_mhz"])))
    return {k: (np.array([x[0] for x in v]), np.array([x[1] for x in v]), v[-1][2]) for k, v in out.items()}


def latency_curves(gpu: str) -> list[dict]:
    """gpu-benches' chase latency vs footprint: one dict per source with ``footprint_mb``, ``cycles``, ``clock_mhz``."""
    g = _any_gpu(gpu)
    return [{"source": src, "footprint_mb": mb, "cycles": cyc, "clock_mhz": clk}
            for (name, src), (mb, cyc, clk) in _curves().items() if name == g]


def chase_plateau(gpu: str, window_mb: tuple[float, float] = WINDOW_MB) -> list[dict]:
    """The random-chase plateau per gpu-benches source: median cycles over footprints in ``window_mb``."""
    g = _any_gpu(gpu)
    lo, hi = (float(x) for x in window_mb)
    if not 0 < lo < hi:
        raise ValueError(f"window_mb must be (lo, hi) with 0 < lo < hi in MB, got {window_mb!r}")
    rows = []
    for c in latency_curves(g):
        sel = (c["footprint_mb"] >= lo) & (c["footprint_mb"] <= hi)
        if sel.any():
            rows.append({"gpu": g, "quantity": "mem_lat", "value": float(np.median(c["cycles"][sel])),
                         "unit": "cycles", "method": "random chase",
                         "footprint": f"{lo:g}-{hi:g} MB ({int(sel.sum())} footprints)",
                         "clock_mhz": c["clock_mhz"], "source": c["source"]})
    return rows


def _stream_peaks(g: str) -> list[dict]:
    groups: dict[str, list[dict]] = {}
    for r in read_rows(_STREAM):
        if r["gpu"] == g:
            groups.setdefault(r["source"], []).append(r)
    rows = []
    for src, rs in groups.items():
        for kind in ("read", "triad", "init"):
            best = max(rs, key=lambda r: float(r[kind]))
            rows.append({"gpu": g, "quantity": f"{kind}_bw", "value": float(best[kind]), "unit": "GB/s",
                         "method": f"gpu-benches gpu-stream {kind}, best of {len(rs)} block sizes",
                         "footprint": "device memory", "clock_mhz": None, "source": src})
    return rows


def measurements(gpu: str) -> list[dict]:
    """Every sourced latency and bandwidth row of ``gpu``: random-chase plateaus, stream peaks and
    ``data/modern/measurements.csv``; bandwidths converted to GB/s (a GiB is 1.0737 GB)."""
    return [dict(r) for r in _measurements(_any_gpu(gpu))]


@lru_cache(maxsize=None)
def _measurements(g: str) -> tuple[dict, ...]:
    rows = chase_plateau(g) + _stream_peaks(g)
    for r in read_rows(_MEAS):
        if r["gpu"] != g:
            continue
        value, unit = float(r["value"]), r["unit"]
        if unit == "GiB/s":
            value, unit = value * GIB, "GB/s"
        elif unit == "TB/s":
            value, unit = value * 1000, "GB/s"
        rows.append({"gpu": g, "quantity": r["quantity"], "value": value, "unit": unit, "method": r["method"],
                     "footprint": r["footprint"], "clock_mhz": float(r["clock_mhz"]) if r["clock_mhz"] else None,
                     "source": r["source"]})
    return tuple(rows)


def _latencies(g: str, method: str) -> list[dict]:
    rows = [r for r in _measurements(g) if r["quantity"] == "mem_lat"]
    if method == "random chase":
        return [r for r in rows if r["method"] == "random chase"]
    return [r for r in rows if r["method"].startswith(_METHOD_PREFIX[method])]


def _bandwidths(g: str, kind: str) -> list[dict]:
    return [r for r in _measurements(g) if r["quantity"] == f"{kind}_bw"]


def mem_thru(bandwidth_gbs, gpu: str):
    """``BW / (SMs × clock × 128 B)``: GB/s to loads per cycle per SM (IPC/SM), the book's conversion (§4.1)."""
    g = hardware.get_gpu(gpu)
    return np.asarray(bandwidth_gbs, dtype=float) / (g.sm_count * g.clock_ghz * BYTES_PER_LOAD)


@lru_cache(maxsize=None)
def _alu() -> dict[str, dict]:
    return {r["gpu"]: r for r in read_rows(_ALU)}


def _build(g: str, lat: float, lat_src: str, bw: float, bw_src: str) -> Params:
    rec = hardware.get_gpu(g)
    alu = _alu()[g]
    return Params(
        gpu=g, product=rec.name, kind="memory",
        mem_lat=float(lat), mem_thru=float(mem_thru(bw, g)),
        alu_lat=float(alu["alu_lat"]), alu_thru=float(alu["fp32_lanes_per_sm"]) / 32, issue_thru=float(alu["issue_thru"]),
        a=float(lat), b=0.0, c=float("inf"), latency_terms=(), latency_model="none",
        sm_count=rec.sm_count, clock_ghz=rec.clock_ghz, schedulers=rec.warp_schedulers_per_sm,
        max_warps_per_sm=rec.max_warps_per_sm,
        sources={"mem_lat": lat_src, "mem_thru": bw_src, "alu_lat": f"{alu['alu_lat_method']}; {alu['source']}",
                 "alu_thru": alu["source"], "issue_thru": alu["source"], "sm_count": rec.source("sm_count"),
                 "clock_ghz": rec.source("clock_ghz"), "schedulers": rec.source("warp_schedulers_per_sm")},
    )


def params(name: str, method: str | None = None, bandwidth: str = "read"):
    """The Volkov parameter set of a modern GPU (see the module docstring for every field).

    ``method`` picks the latency measurement (:data:`METHODS`; ``None``: the first one the GPU
    has), ``bandwidth`` the stream that sets ``mem_thru`` (:data:`BANDWIDTHS`). Several sources of
    the chosen kind give their median. ``ValueError`` names what exists when the choice has no data.

    >>> p = params("H100 PCIe")
    >>> round(p.mem_lat), round(p.mem_thru, 4), p.alu_thru, p.max_warps_per_sm
    (650, 0.0758, 4.0, 64)
    """
    g = gpu_name(name)
    if method is not None and method not in METHODS:
        raise UnknownNameError(f"method must be one of {METHODS} or None, got {method!r}")
    if bandwidth not in BANDWIDTHS:
        raise UnknownNameError(f"bandwidth must be one of {BANDWIDTHS}, got {bandwidth!r}")
    have = [m for m in METHODS if _latencies(g, m)]
    if method is None:
        method = have[0]
    lats = _latencies(g, method)
    if not lats:
        raise ValueError(f"{g} has no {method!r} latency; it has {have}")
    bws = _bandwidths(g, bandwidth)
    if not bws:
        raise ValueError(f"{g} has no {bandwidth!r} bandwidth; it has "
                         f"{[k for k in BANDWIDTHS if _bandwidths(g, k)]}")
    lat = statistics.median(r["value"] for r in lats)
    bw = statistics.median(r["value"] for r in bws)
    lat_src = f"{method}, median of {len(lats)}: " + "; ".join(r["source"] for r in lats)
    bw_src = f"{bandwidth} bandwidth {bw:.0f} GB/s, median of {len(bws)}: " + "; ".join(r["source"] for r in bws)
    return _build(g, lat, lat_src, bw, bw_src)


def variants(name: str) -> list:
    """One parameter set per (latency row, bandwidth row) pair of every method and every
    read/triad/copy source: the spread that the book's uncertainty bands cover."""
    g = gpu_name(name)
    lats = [r for m in METHODS for r in _latencies(g, m)]
    bws = [r for k in BANDWIDTHS for r in _bandwidths(g, k)]
    return [_build(g, la["value"], f"{la['method']}: {la['source']}", bw["value"], f"{bw['quantity']}: {bw['source']}")
            for la, bw in product(lats, bws)]


def _unique_variants(name: str) -> list:
    """:func:`variants` with one parameter set per distinct (``mem_lat``, ``mem_thru``) pair: two
    sources that give the same number make the same model curve."""
    seen, out = set(), []
    for p in variants(name):
        if (p.mem_lat, p.mem_thru) not in seen:
            seen.add((p.mem_lat, p.mem_thru))
            out.append(p)
    return out


def spread(name: str) -> dict[str, tuple[float, float]]:
    """Smallest and largest sourced ``mem_lat`` (cycles) and ``mem_thru`` (IPC/SM) of a GPU."""
    vs = variants(name)
    return {"mem_lat": (min(p.mem_lat for p in vs), max(p.mem_lat for p in vs)),
            "mem_thru": (min(p.mem_thru for p in vs), max(p.mem_thru for p in vs))}


def band(fn, name: str, *args, **kwargs) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise minimum and maximum of ``fn(p, *args, **kwargs)`` over :func:`variants` of ``name``
    (each distinct parameter pair once)."""
    vals = np.array([np.asarray(fn(p, *args, **kwargs), dtype=float) for p in _unique_variants(name)])
    return vals.min(axis=0), vals.max(axis=0)


def model_band(model: str, name: str, n, alpha) -> tuple[np.ndarray, np.ndarray]:
    """:func:`band` of a model's instruction throughput, :func:`evaluate`'s ``ipc`` (validity
    warnings silenced: the band shows the spread, the flags stay on each model's own curve)."""
    return band(lambda p: _quiet_ipc(model, p, n, alpha), name)


def crosscheck() -> list[dict]:
    """DRAM and FP32 add latencies (cycles) as Volkov, the public chase and two simulators'
    configuration files give them (``data/modern/simulator_configs.csv``); Accel-Sim's DRAM
    latency is the sum of its L1 latency and its two increments (L2 − L1, DRAM − L2); the
    Accel-Sim tuner's own measurement on an A100 80 GB PCIe stands beside it."""
    cfg = {(r["architecture"], r["quantity"]): float(r["value"]) for r in read_rows(_CFG)}
    mx, v, a = volkov_params("Maxwell"), params("V100 PCIe"), params("A100 80GB")
    tuner = {r["quantity"]: r["value"] for r in _measurements("A100-80")
             if r["method"].startswith(("Accel-Sim tuner sequential", "Accel-Sim tuner dependent FP32"))}
    sim_dram = sum(cfg[("Ampere", q)] for q in ("gpgpu_l1_latency", "gpgpu_l2_rop_latency", "dram_latency"))
    return [
        {"architecture": "Maxwell", "source": "Volkov Table 4.1", "dram": mx.mem_lat, "fp32_add": mx.alu_lat},
        {"architecture": "Maxwell", "source": "PPT-GPU configuration", "dram": cfg[("Maxwell", "dram_mem_access")],
         "fp32_add": cfg[("Maxwell", "fALU")]},
        {"architecture": "Volta", "source": "gpu-benches random chase (V100 PCIe)", "dram": v.mem_lat,
         "fp32_add": v.alu_lat},
        {"architecture": "Volta", "source": "PPT-GPU configuration", "dram": cfg[("Volta", "dram_mem_access")],
         "fp32_add": cfg[("Volta", "fALU")]},
        {"architecture": "Ampere", "source": "gpu-benches random chase (A100 80 GB)", "dram": a.mem_lat,
         "fp32_add": None},
        {"architecture": "Ampere", "source": "Accel-Sim tuner, sequential chase (A100 80 GB PCIe, AMALi)",
         "dram": tuner["mem_lat"], "fp32_add": tuner["alu_lat"]},
        {"architecture": "Ampere", "source": "Accel-Sim A100 configuration, L1 + L2 + DRAM increments",
         "dram": sim_dram, "fp32_add": cfg[("Ampere", "ptx_opcode_latency_fp")]},
    ]


# --- every prior model on the modern GPUs -------------------------------------------------------

#: The models of ``gpumodels.prior.MODELS`` that run on a modern parameter set. Zhang & Owens
#: take their two input curves from the basic model here (no measured or simulated α = 0 and α = ∞
#: curves exist for these GPUs); Volkov's refined model is left out (:data:`EXCLUDED`).
MODELS = ("hong_kim2009", "baghsorkhi2010", "zhang_owens2011", "zhang_owens2011_add", "sim2012", "huang2014_rr",
          "huang2014_gto", "cuda_guide", "volkov_basic", "transit2015")

#: Models of ``gpumodels.prior.MODELS`` not evaluated on modern GPUs, with the reason.
EXCLUDED = {"volkov_refined": "needs a Table 6.5 fit of latency under load, which no public source gives"}

#: α grid of :func:`needed_occupancy` and :func:`cusp`: 0, then 2^(k/4) from 1/4 to 1024, then ∞.
#: (51 values; the array's repr would only repeat this.)
#:
#: :meta hide-value:
CUSP_ALPHAS = np.concatenate(([0.0], 2.0 ** np.arange(-2.0, 10.0 + 1e-9, 0.25), [np.inf]))

#: Models that take only α > 0 (the CUDA guide's estimate divides by α).
POSITIVE_ALPHA_ONLY = frozenset({"cuda_guide"})

#: Occupancy step (warps per SM) of :func:`needed_occupancy`'s search.
STEP = 0.1

#: A model's needed occupancy has a cusp when its maximum over α lies inside the α grid and exceeds
#: both ends (α = 0 or the smallest α the model takes, and α = ∞) by more than this fraction.
CUSP_MARGIN = 0.10


def label(model: str) -> str:
    """The display name of a :data:`MODELS` key (Zhang & Owens say where their input curves come from)."""
    from .. import prior

    _check_model(model)
    if model.startswith("zhang_owens2011"):
        return prior.LABELS[model].replace("simulated input curves", "basic-model input curves")
    return prior.LABELS[model]


def _check_model(model: str) -> None:
    if model in EXCLUDED:
        raise ValueError(f"model {model!r} is not evaluated on modern GPUs: {EXCLUDED[model]}")
    if model not in MODELS:
        raise UnknownNameError(f"model must be one of {MODELS}, got {model!r}")


def evaluate(model: str, p: Params, n, alpha):
    """``prior.evaluate(model, p, n, alpha)`` for a modern parameter set, except that Zhang & Owens
    get the basic model's α = 0 and α = ∞ curves as inputs (:data:`MODELS`)."""
    p = check_params(p)
    from .. import prior

    _check_model(model)
    if model.startswith("zhang_owens2011"):
        return prior.zhang_owens2011(p, n, alpha, merge="add" if model.endswith("_add") else "overlap")
    return prior.evaluate(model, p, n, alpha)


def _takes(model: str, alpha) -> np.ndarray:
    """Which of ``alpha`` the model takes (all but α = 0 for :data:`POSITIVE_ALPHA_ONLY`)."""
    a = np.asarray(alpha, dtype=float)
    return a > 0 if model in POSITIVE_ALPHA_ONLY else np.ones(a.shape, dtype=bool)


def _quiet_ipc(model: str, p: Params, n, alpha) -> np.ndarray:
    """:func:`evaluate`'s IPC with the models' validity warnings silenced (flags are counted apart)."""
    import warnings

    from .. import prior

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", prior.ModelValidityWarning)
        return evaluate(model, p, n, alpha).ipc


def needed_occupancy(model: str, p: Params, alpha=CUSP_ALPHAS, fraction: float = 0.9) -> np.ndarray:
    """Smallest occupancy (warps per SM, in steps of :data:`STEP`) at which ``model`` reaches
    ``fraction`` of its **own** highest throughput at each ``alpha``, searched up to twice the SM's
    warp limit.

    On a modern GPU there is no reference to measure a peak against (Fig. 7.14 of Volkov uses the
    simulated one), so each model's peak is its own. ``nan`` where the model has no peak in that
    range: its throughput still grows by more than 1 % over the last tenth of it (a model that
    never saturates), or the model does not take that α (the CUDA guide at α = 0).
    """
    p = check_params(p)
    from .._validate import as_array, check_fraction

    f = check_fraction("fraction", fraction)
    a = np.atleast_1d(as_array("alpha", alpha, allow_inf=True)).ravel()
    n = np.arange(STEP, 2 * p.max_warps_per_sm + STEP / 2, STEP)
    ok = _takes(model, a)
    out = np.full(a.shape, np.nan)
    if ok.any():
        ipc = _quiet_ipc(model, p, n[:, None], a[ok][None, :])
        peak = ipc.max(axis=0)
        tail = ipc[int(0.9 * (n.size - 1))]
        hit = np.argmax(ipc >= f * peak * (1 - 1e-12), axis=0)
        out[ok] = np.where(ipc[-1] > 1.01 * tail, np.nan, n[hit])
    return out


def _cusp_of(need: np.ndarray, model: str) -> dict:
    """The cusp of one :func:`needed_occupancy` row over :data:`CUSP_ALPHAS` (see :func:`cusp`)."""
    take = _takes(model, CUSP_ALPHAS)
    need, alphas = need[take], CUSP_ALPHAS[take]
    if np.isnan(need).any():
        return {"alpha": float("nan"), "warps": float("nan"), "is_cusp": False}
    i = int(np.argmax(need))
    inside = 0 < i < need.size - 1 and need[i] > (1 + CUSP_MARGIN) * max(need[0], need[-1])
    return {"alpha": float(alphas[i]), "warps": float(need[i]), "is_cusp": bool(inside)}


def cusp(model: str, p: Params, fraction: float = 0.9) -> dict:
    """The cusp of ``model``'s needed occupancy (§4.5, Fig. 7.14): ``alpha`` and ``warps`` at the
    maximum of :func:`needed_occupancy` over :data:`CUSP_ALPHAS`, and ``is_cusp`` — whether that
    maximum is a peak at intermediate α (inside the grid and above both ends by
    :data:`CUSP_MARGIN`). ``nan`` (and ``is_cusp`` False) when the model has no peak at some α it
    takes. The CUDA guide's grid starts at the smallest positive α."""
    p = check_params(p)
    return _cusp_of(needed_occupancy(model, p, CUSP_ALPHAS, fraction), model)


@lru_cache(maxsize=None)
def _needed_grid(model: str, g: str, fraction: float) -> tuple[np.ndarray, np.ndarray]:
    """Needed occupancy over :data:`CUSP_ALPHAS`: default parameters, and one row per variant."""
    default = needed_occupancy(model, params(g), CUSP_ALPHAS, fraction)
    every = np.array([needed_occupancy(model, p, CUSP_ALPHAS, fraction) for p in _unique_variants(g)])
    return default, every


def needed_band(model: str, name: str, fraction: float = 0.9) -> dict[str, np.ndarray]:
    """:func:`needed_occupancy` over :data:`CUSP_ALPHAS` (``alpha``) for the default parameters
    (``value``) and its smallest and largest over every sourced latency × bandwidth pair (``lo``,
    ``hi``; ``nan`` where some variant has no peak)."""
    default, every = _needed_grid(model, gpu_name(name), float(fraction))
    return {"alpha": CUSP_ALPHAS.copy(), "value": default.copy(), "lo": every.min(axis=0), "hi": every.max(axis=0)}


def model_table(names=GPUS, models=MODELS, fraction: float = 0.9) -> list[dict]:
    """One row per GPU and model: occupancy for ``fraction`` of the model's own peak at α = 0
    (``alpha0``) and α = ∞ (``alpha_inf``), and the cusp (``cusp_alpha``, ``cusp_warps``,
    ``is_cusp``), each for the default parameters and as the range over every sourced latency ×
    bandwidth pair (``*_lo``, ``*_hi``). A model that cannot run on a GPU (an input the data lack)
    gives a row whose ``note`` says why, without numbers."""
    rows = []
    for name in names:
        g = gpu_name(name)
        max_warps = params(g).max_warps_per_sm
        for m in models:
            row = {"gpu": g, "model": m, "label": label(m), "max_warps": max_warps, "note": ""}
            try:
                default, every = _needed_grid(m, g, float(fraction))
            except ValueError as e:
                rows.append(dict(row, note=str(e)))
                continue
            c = _cusp_of(default, m)
            cusp_warps = np.array([_cusp_of(v, m)["warps"] for v in every])
            row.update(alpha0=default[0], alpha0_lo=every[:, 0].min(), alpha0_hi=every[:, 0].max(),
                       alpha_inf=default[-1], alpha_inf_lo=every[:, -1].min(), alpha_inf_hi=every[:, -1].max(),
                       cusp_alpha=c["alpha"], cusp_warps=c["warps"], is_cusp=c["is_cusp"],
                       cusp_lo=cusp_warps.min(), cusp_hi=cusp_warps.max())
            rows.append(row)
    return rows


def _style(i: int) -> dict:
    return {"color": plotting.PALETTE[i % len(plotting.PALETTE)], "linestyle": ("-", "--", "-.", ":")[i // 4 % 4]}


def plot_models(axes, name: str, alphas=(0.0, 1.0, 4.0, 16.0, 64.0, np.inf), models=MODELS) -> dict[str, str]:
    """Instruction throughput vs occupancy of ``name``, one axis of ``axes`` per α: each model as a
    line (default parameters) over a shaded band (every sourced latency × bandwidth pair). Returns
    the models left out of the plot, with the reason (an input the data lack, or the CUDA guide at
    α = 0, which it does not take)."""
    p = params(name)
    n = np.arange(0.25, p.max_warps_per_sm + 0.125, 0.25)
    skipped: dict[str, str] = {}
    axes = np.ravel(axes)
    if len(axes) != len(alphas):
        raise ValueError(f"axes must have one axis per alpha ({len(alphas)}), got {len(axes)}")
    for ax, a in zip(axes, alphas):
        for i, m in enumerate(models):
            if not _takes(m, a):
                skipped[m] = "takes only α > 0 (not drawn at α = 0)"
                continue
            try:
                lo, hi = model_band(m, name, n, a)
            except ValueError as e:
                skipped[m] = str(e)
                continue
            st = _style(i)
            ax.fill_between(n, lo, hi, color=st["color"], alpha=0.18, linewidth=0)
            ax.plot(n, _quiet_ipc(m, p, n, a), linewidth=1.1, label=f"{label(m)} (model)", **st)
        ax.set_xlim(0, p.max_warps_per_sm)
        plotting.label(ax, "occupancy", "warps/SM", "instruction throughput", "IPC/SM",
                       title=f"α = {'∞' if np.isinf(a) else f'{a:g}'}")
    return skipped


def plot_needed(ax, name: str, models=MODELS, fraction: float = 0.9) -> None:
    """:func:`needed_band` of every model against α (finite α > 0, log axis): the line for the
    default parameters, the band over sources, and the warps the SM can hold (dotted)."""
    p = params(name)
    for i, m in enumerate(models):
        try:
            b = needed_band(m, name, fraction)
        except ValueError:
            continue
        inner = np.isfinite(b["alpha"]) & (b["alpha"] > 0)
        st = _style(i)
        ax.fill_between(b["alpha"][inner], b["lo"][inner], b["hi"][inner], color=st["color"], alpha=0.12, linewidth=0)
        ax.plot(b["alpha"][inner], b["value"][inner], linewidth=1.1, label=f"{label(m)} (model)", **st)
    ax.axhline(p.max_warps_per_sm, color="0.3", linestyle=":", linewidth=1, label="warps an SM can hold")
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 2 * p.max_warps_per_sm)
    plotting.label(ax, "α", "adds/load", f"occupancy, {fraction:.0%} of peak", "warps/SM", title=p.gpu)


def model_pivot(rows: list[dict], quantity: str, digits: int = 0):
    """A :func:`model_table` quantity (``"alpha0"``, ``"alpha_inf"`` or ``"cusp_warps"``) as a
    models × GPUs table of strings ``"value (lo–hi)"``: ``–`` where the model has no peak, ``n/a``
    where it cannot run on that GPU; cusp cells add ``at α = …`` when the maximum is a cusp and
    say ``no cusp`` when it is not."""
    import pandas as pd

    if quantity not in ("alpha0", "alpha_inf", "cusp_warps"):
        raise ValueError(f"quantity must be 'alpha0', 'alpha_inf' or 'cusp_warps', got {quantity!r}")
    lo_key, hi_key = (("cusp_lo", "cusp_hi") if quantity == "cusp_warps" else (f"{quantity}_lo", f"{quantity}_hi"))
    cells = {}
    for r in rows:
        if r["note"]:
            text = "n/a"
        elif np.isnan(r[quantity]):
            text = "–"
        else:
            v, lo, hi = (round(float(r[k]), digits) for k in (quantity, lo_key, hi_key))
            fmt = f"{{:.{digits}f}}"
            text = fmt.format(v)
            if np.isnan(lo) or np.isnan(hi):
                text += " (some sources: –)"
            elif lo != hi:
                text += f" ({fmt.format(lo)}–{fmt.format(hi)})"
            if quantity == "cusp_warps":
                text += f" at α = {r['cusp_alpha']:.0f}" if r["is_cusp"] else ", no cusp"
        cells.setdefault(r["label"], {})[r["gpu"]] = text
    return pd.DataFrame(cells).T


# --- Little's law in bytes, NVIDIA and AMD --------------------------------------------------------

@lru_cache(maxsize=None)
def _amd_facts(g: str) -> dict[str, float]:
    return {r["quantity"]: float(r["value"]) for r in read_rows(_AMD) if r["gpu"] == g}


def littles_law(names=GPUS + AMD) -> list[dict]:
    """Little's law at α = 0 in bytes, comparable across vendors: the bytes one SM (NVIDIA) or CU
    (AMD) must keep in flight, ``mem_lat × BW / (units × clock)``, with the read and the triad
    bandwidth; the same in loads of one warp (32 × 4 B = 128 B) or one wavefront (64 × 4 B =
    256 B); and the warps or waves the unit can hold. For the NVIDIA GPUs ``loads_read`` is
    :func:`gpumodels.volkov.needed_occupancy` at α = 0. The AMD latency is the random-chase
    plateau (:func:`chase_plateau`, median over sources), the bandwidths the best gpu-benches
    stream rows (median over sources); the unit counts come from ``data/modern/amd.csv``."""
    rows = []
    for name in names:
        g = _any_gpu(name)
        if g in AMD:
            f = _amd_facts(g)
            lat = statistics.median(r["value"] for r in chase_plateau(g))
            bw = {k: statistics.median(r["value"] for r in _measurements(g) if r["quantity"] == f"{k}_bw")
                  for k in ("read", "triad")}
            units, clock = int(f["compute_units"]), f["clock"] / 1000
            load, slots, unit, group = 4 * f["wavefront_size"], int(f["waves_per_simd"] * f["simds_per_cu"]), "CU", "wave"
        else:
            p = params(g)
            lat, units, clock = p.mem_lat, p.sm_count, p.clock_ghz
            bw = {"read": p.mem_thru_gbs, "triad": params(g, bandwidth="triad").mem_thru_gbs}
            load, slots, unit, group = float(BYTES_PER_LOAD), p.max_warps_per_sm, "SM", "warp"
        row = {"gpu": g, "unit": unit, "units": units, "clock_ghz": clock, "mem_lat": lat,
               "read_gbs": bw["read"], "triad_gbs": bw["triad"], "load_bytes": load, "group": group, "slots": slots,
               "slot_bytes": slots * load}
        for k in ("read", "triad"):
            row[f"bytes_{k}"] = lat * bw[k] / (units * clock)     # GB/s / GHz = bytes per cycle
            row[f"loads_{k}"] = row[f"bytes_{k}"] / load
        rows.append(row)
    return rows


#: The on-chip latencies :func:`other_latencies` tabulates (cycles).
OTHER_LATENCIES = ("alu_lat", "sfu_lat", "shared_lat", "l1_lat", "l2_lat")


def other_latencies(names=GPUS):
    """Sourced on-chip latencies (cycles) per GPU: FP32 add, SFU (fast square root), shared memory,
    L1 and L2 hits, one column each (:data:`OTHER_LATENCIES`; the methods and sources are in
    :func:`measurements`). A GPU with several rows of one quantity gets their median; a quantity
    nobody measured on a GPU stays empty (``nan``), never filled in."""
    import pandas as pd

    table = {}
    for name in names:
        g = gpu_name(name)
        rows = _measurements(g)
        table[g] = {q: statistics.median([r["value"] for r in rows if r["quantity"] == q])
                    if any(r["quantity"] == q for r in rows) else float("nan") for q in OTHER_LATENCIES}
    return pd.DataFrame(table).T[list(OTHER_LATENCIES)]


def needed_warps():
    """Little's law at α = 0 and for adds on Volkov's five GPUs and the modern ones: warps per SM
    to saturate memory (read bandwidth; for modern GPUs also triad bandwidth and the band over
    every sourced latency × bandwidth pair) and the CUDA cores, and the warps an SM can hold."""
    import pandas as pd

    from .synthetic import GENERATIONS, needed_occupancy

    rows = []
    for name in GENERATIONS + GPUS:
        p = volkov_params(name)
        row = {"GPU": name, "memory: warps (read BW)": needed_occupancy(p, 0.0),
               "arithmetic: warps": p.alu_lat * p.alu_thru, "max warps/SM": p.max_warps_per_sm}
        if name in GPUS:
            row["memory: warps (triad BW)"] = needed_occupancy(volkov_params(name, bandwidth="triad"), 0.0)
            row["memory: band lo"], row["memory: band hi"] = band(needed_occupancy, name, 0.0)
        rows.append(row)
    return pd.DataFrame(rows).set_index("GPU")


def plot_needed_warps(ax, table) -> None:
    """Bars of :func:`needed_warps`: memory (read bandwidth, with the range over sources and the
    triad value) and arithmetic, with a dotted step at the warps an SM can hold."""
    x = np.arange(len(table))
    ax.bar(x - 0.2, table["memory: warps (read BW)"], 0.4, color=plotting.PALETTE[0],
           label="memory, read BW (model)")
    ax.bar(x + 0.2, table["arithmetic: warps"], 0.4, color=plotting.PALETTE[1],
           label="arithmetic (model)")
    lo, hi = table["memory: band lo"], table["memory: band hi"]
    ok = lo.notna().to_numpy()
    ax.vlines(x[ok] - 0.2, lo[ok], hi[ok], color="black", linewidth=2,
              label="memory, range over sources")
    ax.scatter(x[ok] - 0.2, table["memory: warps (triad BW)"][ok], marker="^",
               color=plotting.PALETTE[3], zorder=3, label="memory, triad BW (model)")
    limit = table["max warps/SM"].to_numpy()
    ax.step(np.append(x, x[-1] + 1) - 0.5, np.append(limit, limit[-1]), where="post", color="0.3",
            linestyle=":", label="warps an SM can hold")
    ax.set_xticks(x, table.index, rotation=30)
    plotting.label(ax, "GPU", plotting.CATEGORICAL, "occupancy needed", "warps/SM",
                   title="Little's law at α = 0 and for adds")
    ax.legend(loc="upper left")
