"""Volkov-style parameters for modern GPUs (V100 to GH200), from public measurements.

Volkov's Table 4.1 gives five GPUs up to Maxwell. For later GPUs the book assembles the
same five numbers from sourced public data in ``data/modern/``:

``mem_lat``
    DRAM load latency of one warp at low load, in cycles. It depends on how it is
    measured, so every value keeps its method (:data:`METHODS`):

    * ``"random chase"`` — gpu-benches (RRZE-HPC and te42kyfo), one thread chasing a
      random permutation of cache lines; the value is the median of the latencies at
      footprints from 128 to 256 MB (:data:`WINDOW_MB`), the plateau past the largest L2
      (96 MB on the L40) and before TLB misses set in. This is the closest to Volkov's
      own method (§6.1: pointer chase, one warp, unloaded memory). Where both
      repositories measured a GPU, both are rows and the parameter is their median.
    * ``"unlocked chase"`` — AI_kernels' chase (clocks not locked);
    * ``"mt4g"`` — mt4g's main-memory latency (mean of its samples);
    * ``"sequential chase"`` — the Accel-Sim tuner's ``mem_lat``: four threads chase
      consecutive words with ``ld.global.cv`` over twice the L2 size (A100 80 GB PCIe,
      from AMALi's raw tuner output). Consecutive addresses stay in open DRAM pages and
      TLB entries, so this reads lowest.

    When a GPU has no random-chase data (the H100 SXM) :func:`params` falls back to the
    next method in that order and says so in ``Params.sources``.
``mem_thru``
    Sustained bandwidth in the book's units, ``BW / (SMs × clock × 128 B)`` (§4.1, which
    gives Maxwell's 0.0814 from 211 GB/s): ``"read"`` (a read-only stream) or
    ``"triad"``/``"copy"``. gpu-benches' value is the best over its block sizes.
``alu_lat``, ``alu_thru``, ``issue_thru``
    From ``data/modern/alu.csv``: FP32 add latency (measured on Volta; assumed 4 cycles
    later, as the row says), FP32 lanes per SM / 32 (CUDA Programming Guide throughput
    table) and four schedulers issuing one instruction per cycle.

No GPU here has a Table 6.5 latency-vs-throughput fit, so :func:`params` returns a
parameter set without ``latency_terms``: the basic model and the prior models run on it,
the refined model raises a ``ValueError`` saying why.
"""

from __future__ import annotations

import math
import statistics
from functools import cache
from itertools import product

import numpy as np

from gpumodels.facts import hardware
from gpumodels.facts._fields import is_real
from gpumodels.facts.params import BYTES_PER_LOAD, Params, without_latency_fit
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import InputTypeError, OutOfRangeError, UnknownNameError
from gpumodels.ground.validate import as_array, to_float

GPUS = ("V100PCIe", "A100", "A100-80", "H100PCIe", "H100", "GH200", "L40")
"""The modern GPUs with a parameter set, by their records in ``data/gpus.csv``."""

STAND_INS = {"V100": "V100PCIe"}

#: AMD GPUs with public chase and stream data (gpu-benches): Little's law only
#: (:func:`littles_law`), no Volkov parameter set — a wavefront is 64 threads and the
#: models here are written for warps.
AMD = ("MI210",)
"""Records without public measurements that a measured board of the same GPU stands in
for: ``"V100"`` (the SXM2 record) gives the V100 PCIe's parameters — the same GV100 chip
and HBM2; the parameter set says ``gpu="V100PCIe"`` so that nobody mistakes it for an
SXM2 measurement."""

METHODS = ("random chase", "unlocked chase", "mt4g", "sequential chase")
"""Latency methods, in the order :func:`params` falls back through them."""

BANDWIDTHS = ("read", "triad", "copy")
"""Bandwidth kinds that may set ``mem_thru``."""

WINDOW_MB = (128.0, 256.0)
"""Footprints (MB) over which the random-chase plateau is taken."""

GIB = 2**30 / 1e9

_LAT = "modern/gpu_benches_latency.csv"
_STREAM = "modern/gpu_benches_stream.csv"
_MEAS = "modern/measurements.csv"
_ALU = "modern/alu.csv"
_METHOD_PREFIX = {
    "unlocked chase": "AI_kernels",
    "mt4g": "mt4g",
    "sequential chase": "Accel-Sim tuner sequential chase",
}


def gpu_name(name: str) -> str:
    """The record name of a modern NVIDIA GPU (``"H100 PCIe"`` → ``"H100PCIe"``);
    ``UnknownNameError`` if it is not one (an AMD GPU included: it has no warp-based
    parameter set)."""
    if isinstance(name, str) and name.upper() in AMD:
        raise UnknownNameError(
            f"{name!r} is an AMD GPU: it has chase and stream data and Little's law "
            f"(modern.littles_law), but no Volkov parameter set; NVIDIA GPUs are {GPUS}"
        )
    try:
        g = hardware.get_gpu(name).name
    except KeyError:
        g = None
    g = STAND_INS.get(g, g)
    if g not in GPUS:
        raise UnknownNameError(
            f"name must be one of the modern GPUs {GPUS} (or an alias of one), got "
            f"{name!r}"
        )
    return g


def any_gpu(name: str) -> str:
    """:func:`gpu_name`, or the name of an :data:`AMD` GPU (for the functions that only
    read data)."""
    if isinstance(name, str) and name.upper() in AMD:
        return name.upper()
    return gpu_name(name)


@cache
def _curves() -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray, float]]:
    out: dict[tuple[str, str], list] = {}
    for r in read_rows(_LAT):
        out.setdefault((r["gpu"], r["source"]), []).append(
            (float(r["footprint_kb"]) / 1024, float(r["cycles"]), float(r["clock_mhz"]))
        )
    return {
        k: (np.array([x[0] for x in v]), np.array([x[1] for x in v]), v[-1][2])
        for k, v in out.items()
    }


def latency_curves(gpu: str) -> list[dict]:
    """gpu-benches' chase latency vs footprint: one dict per source with
    ``footprint_mb``, ``cycles``, ``clock_mhz``."""
    g = any_gpu(gpu)
    return [
        {"source": src, "footprint_mb": mb, "cycles": cyc, "clock_mhz": clk}
        for (name, src), (mb, cyc, clk) in _curves().items()
        if name == g
    ]


def chase_plateau(gpu: str, window_mb: tuple[float, float] = WINDOW_MB) -> list[dict]:
    """The random-chase plateau per gpu-benches source:
    median cycles over footprints in ``window_mb``."""
    g = any_gpu(gpu)
    if (
        not isinstance(window_mb, (tuple, list))
        or len(window_mb) != 2
        or not all(is_real(x) for x in window_mb)
    ):
        raise InputTypeError(
            f"window_mb must be a pair (lo, hi) of numbers in MB, got {window_mb!r:.60}"
        )
    lo, hi = (to_float(x) for x in window_mb)
    if not (0 < lo < hi < math.inf):
        raise ValueError(
            f"window_mb must be (lo, hi) with 0 < lo < hi in MB, got {window_mb!r}"
        )
    rows = []
    for c in latency_curves(g):
        sel = (c["footprint_mb"] >= lo) & (c["footprint_mb"] <= hi)
        if sel.any():
            rows.append(
                {
                    "gpu": g,
                    "quantity": "mem_lat",
                    "value": float(np.median(c["cycles"][sel])),
                    "unit": "cycles",
                    "method": "random chase",
                    "footprint": f"{lo:g}-{hi:g} MB ({int(sel.sum())} footprints)",
                    "clock_mhz": c["clock_mhz"],
                    "source": c["source"],
                }
            )
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
            rows.append(
                {
                    "gpu": g,
                    "quantity": f"{kind}_bw",
                    "value": float(best[kind]),
                    "unit": "GB/s",
                    "method": (
                        f"gpu-benches gpu-stream {kind}, best of {len(rs)} block sizes"
                    ),
                    "footprint": "device memory",
                    "clock_mhz": None,
                    "source": src,
                }
            )
    return rows


def measurements(gpu: str) -> list[dict]:
    """Every sourced latency and bandwidth row of ``gpu``: random-chase plateaus, stream
    peaks and ``data/modern/measurements.csv``; bandwidths converted to GB/s (a GiB is
    1.0737 GB)."""
    return [dict(r) for r in _measurements(any_gpu(gpu))]


@cache
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
        rows.append(
            {
                "gpu": g,
                "quantity": r["quantity"],
                "value": value,
                "unit": unit,
                "method": r["method"],
                "footprint": r["footprint"],
                "clock_mhz": float(r["clock_mhz"]) if r["clock_mhz"] else None,
                "source": r["source"],
            }
        )
    return tuple(rows)


def _latencies(g: str, method: str) -> list[dict]:
    rows = [r for r in _measurements(g) if r["quantity"] == "mem_lat"]
    if method == "random chase":
        return [r for r in rows if r["method"] == "random chase"]
    return [r for r in rows if r["method"].startswith(_METHOD_PREFIX[method])]


def _bandwidths(g: str, kind: str) -> list[dict]:
    return [r for r in _measurements(g) if r["quantity"] == f"{kind}_bw"]


def mem_thru(bandwidth_gbs, gpu: str):
    """``BW / (SMs × clock × 128 B)``: GB/s to loads per cycle per SM (IPC/SM), the
    book's conversion (§4.1)."""
    g = hardware.get_gpu(gpu)
    return as_array("bandwidth_gbs", bandwidth_gbs) / (
        g.sm_count * g.clock_ghz * BYTES_PER_LOAD
    )


@cache
def _alu() -> dict[str, dict]:
    return {r["gpu"]: r for r in read_rows(_ALU)}


def _build(g: str, lat: float, lat_src: str, bw: float, bw_src: str) -> Params:
    alu = _alu()[g]
    return without_latency_fit(
        g,
        mem_lat=lat,
        mem_thru=mem_thru(bw, g),
        alu_lat=float(alu["alu_lat"]),
        alu_thru=float(alu["fp32_lanes_per_sm"]) / 32,
        issue_thru=float(alu["issue_thru"]),
        sources={
            "mem_lat": lat_src,
            "mem_thru": bw_src,
            "alu_lat": f"{alu['alu_lat_method']}; {alu['source']}",
            "alu_thru": alu["source"],
            "issue_thru": alu["source"],
        },
    )


def params(name: str, method: str | None = None, bandwidth: str = "read"):
    """The Volkov parameter set of a modern GPU
    (see the module docstring for every field).

    ``method`` picks the latency measurement (:data:`METHODS`; ``None``: the first one
    the GPU has), ``bandwidth`` the stream that sets ``mem_thru`` (:data:`BANDWIDTHS`).
    Several sources of the chosen kind give their median. ``ValueError`` names what
    exists when the choice has no data.

    >>> p = params("H100 PCIe")
    >>> round(p.mem_lat), round(p.mem_thru, 4), p.alu_thru, p.max_warps_per_sm
    (650, 0.0758, 4.0, 64)
    """
    g = gpu_name(name)
    if method is not None and method not in METHODS:
        raise UnknownNameError(
            f"method must be one of {METHODS} or None, got {method!r}"
        )
    if bandwidth not in BANDWIDTHS:
        raise UnknownNameError(
            f"bandwidth must be one of {BANDWIDTHS}, got {bandwidth!r}"
        )
    have = [m for m in METHODS if _latencies(g, m)]
    if method is None:
        method = have[0]
    lats = _latencies(g, method)
    if not lats:
        raise ValueError(f"{g} has no {method!r} latency; it has {have}")
    bws = _bandwidths(g, bandwidth)
    if not bws:
        raise ValueError(
            f"{g} has no {bandwidth!r} bandwidth; it has "
            f"{[k for k in BANDWIDTHS if _bandwidths(g, k)]}"
        )
    lat = statistics.median(r["value"] for r in lats)
    bw = statistics.median(r["value"] for r in bws)
    lat_src = f"{method}, median of {len(lats)}: " + "; ".join(
        r["source"] for r in lats
    )
    bw_src = f"{bandwidth} bandwidth {bw:.0f} GB/s, median of {len(bws)}: " + "; ".join(
        r["source"] for r in bws
    )
    return _build(g, lat, lat_src, bw, bw_src)


def variants(name: str) -> list:
    """One parameter set per (latency row, bandwidth row) pair of every method and every
    read/triad/copy source: the spread that the book's uncertainty bands cover."""
    g = gpu_name(name)
    lats = [r for m in METHODS for r in _latencies(g, m)]
    bws = [r for k in BANDWIDTHS for r in _bandwidths(g, k)]
    return [
        _build(
            g,
            la["value"],
            f"{la['method']}: {la['source']}",
            bw["value"],
            f"{bw['quantity']}: {bw['source']}",
        )
        for la, bw in product(lats, bws)
    ]


def unique_variants(name: str) -> list:
    """:func:`variants` with one parameter set per distinct (``mem_lat``, ``mem_thru``)
    pair: two sources that give the same number make the same model curve."""
    seen, out = set(), []
    for p in variants(name):
        if (p.mem_lat, p.mem_thru) not in seen:
            seen.add((p.mem_lat, p.mem_thru))
            out.append(p)
    return out


def spread(name: str) -> dict[str, tuple[float, float]]:
    """Smallest and largest sourced ``mem_lat`` (cycles) and ``mem_thru`` (IPC/SM)
    of a GPU."""
    vs = variants(name)
    return {
        "mem_lat": (min(p.mem_lat for p in vs), max(p.mem_lat for p in vs)),
        "mem_thru": (min(p.mem_thru for p in vs), max(p.mem_thru for p in vs)),
    }


def band(fn, name: str, *args, **kwargs) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise minimum and maximum of ``fn(p, *args, **kwargs)`` over
    :func:`variants` of ``name`` (each distinct parameter pair once); ``fn`` must be
    a callable whose results have one shape for every variant."""
    if not callable(fn):
        raise InputTypeError(
            f"fn must be a callable taking a Params record, got {type(fn).__name__} "
            f"{fn!r:.60}"
        )
    results = [
        np.asarray(fn(p, *args, **kwargs), dtype=float) for p in unique_variants(name)
    ]
    shapes = {r.shape for r in results}
    if len(shapes) > 1:
        raise OutOfRangeError(
            f"fn must return results of one shape for every variant of {name!r}, got "
            f"shapes {sorted(shapes)}"
        )
    vals = np.array(results)
    return vals.min(axis=0), vals.max(axis=0)
