"""Volkov's throughput model and a roofline scored against public arithmetic-intensity
sweeps on modern GPUs (gpu-benches' ``gpu-roofline``, measured by its authors).

The data
--------
``data/silicon/gpu_roofline/sweeps.csv`` (see its README): gpu-benches' kernel
streams two float arrays from DRAM with coalesced 128-byte warp loads and, per pair of
elements, does one subtraction, ``its`` dependent FMAs and one add into a sum:
``2 + 2·its`` flop per 8 bytes, the printed ``flop_per_byte``. One wave of 256-thread
blocks at the kernel's maximal occupancy fills the GPU. Only GPUs with a Volkov
parameter set (:mod:`gpumodels.facts.modern`) are modelled: the A100 (40 GB) and the
L40 sweeps; the A40, H200 and MI300X sweeps stay in the table, unmodelled.

The mapping of a sweep point to the models' inputs
--------------------------------------------------
``alpha`` (Volkov 2016, §4.1: arithmetic instructions per memory instruction)
    Per pair of loads (one element of each array) the kernel issues ``its`` FFMA and
    two FADD warp instructions (``v = a − b``, and half of the two adds
    ``sum += v + v2`` per two pairs), so ``α = (its + 2) / 2``. With
    ``I = (2 + 2·its)/8`` flop/B this is :func:`alpha_of`: **α = 2·I + 1/2**. A memory
    instruction is one 32-thread 4-byte load, 128 B, as in the model. FADDs count as
    arithmetic instructions (they take the same FP32 pipeline and issue slots as FFMAs;
    counting FFMAs alone would give α = 2·I − 1/2). Integer and branch instructions of
    the loop are not counted. Compiled here (CUDA 13.0 ``ptxas`` for sm_80 and sm_89
    from compute_75 PTX, both versions of the source; the benchmark was built for sm_70
    and its PTX JIT-compiled by the driver, so the GPUs' code may differ), the loop has
    the FADD and FFMA counts above and 7 to 12 integer or branch instructions per 4
    loads up to ``its`` = 100, under 6 % of all instructions from ``its`` = 100 on.
``n`` (warps per SM)
    The printed grid divided by the record's SM count, times 256/32 warps per block:
    A100 864/108 × 8 = 64, L40 852/142 × 6 = 48 — every warp slot of the SM (one wave,
    all blocks resident, as the benchmark sizes its grid with the occupancy API).
``clock``
    ``clock="measured"`` (default): each point's printed median SM clock. The record's
    DRAM latency (ns) and bandwidth (GB/s) are taken as fixed in time, because DRAM does
    not run on the SM clock; in SM cycles they scale with the clock: ``mem_lat·f/f_rec``
    and ``mem_thru·f_rec/f`` (:func:`at_clock`). ALU latency and throughputs stay in
    cycles. ``clock="record"``: the record's clock at every point (the A100 record's
    1410 MHz is what every A100 point prints; the L40 record's 2.49 GHz is the clock of
    its datasheet's FP32 peak).

Neither model has a parameter fitted to these sweeps (:mod:`gpumodels.facts.modern`;
``Params.sources``): ``mem_thru`` is the read bandwidth of other benchmarks (the
median over sources of gpu-benches' gpu-stream best ``read``, and mt4g's for the
A100), ``mem_lat`` a pointer-chase plateau, ``alu_thru`` FP32 lanes/32 from the CUDA
Programming Guide and ``issue_thru`` four schedulers.

The models
-----------
``roofline``
    ``min(peak_flops, I × peak_bw)`` with ``peak_flops = alu_thru × 32 lanes × 2 flop ×
    SMs × clock`` and ``peak_bw = mem_thru_gbs`` of the same parameter set.
``volkov``
    The basic model, §4.1 (Table 4.2): memory instructions per cycle per SM
    ``min(n/(mem_lat + α·alu_lat), mem_thru, alu_thru/α, issue_thru/(α+1))``
    (:func:`gpumodels.papers.volkov.synthetic.memory_throughput`), times 128 B × SMs ×
    clock for GB/s; GFLOP/s is ``I`` × GB/s, the kernel's fixed ratio (the same as
    ``32·α·x`` adds of §4.1 at ``8I/(4I+1)`` flop per ALU instruction).
``refined`` (§6.4–6.5, loaded latency ``a + b·x/(c − x)``)
    Not applicable to any modern GPU: none has a Table 6.5 fit of latency against
    throughput (:func:`refined_status`). Asking for it raises the model's
    ``ValueError``.

Predicted GB/s and GFLOP/s have the same relative error: both are ``I`` times the other,
in the measurement as in the models.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from gpumodels.comparisons import _checks
from gpumodels.facts import modern
from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.facts.params import Params, check_params
from gpumodels.ground import plotting
from gpumodels.ground.data import read_frame
from gpumodels.ground.errors import InputTypeError, UnknownNameError
from gpumodels.ground.validate import (
    as_array,
    check_choice,
    check_flag,
    check_fraction,
    check_real,
    out,
)
from gpumodels.papers.volkov import synthetic as volkov

__all__ = [
    "CLOCKS",
    "FLOP_PER_FMA",
    "KNEE_DROP",
    "MODELS",
    "TABLE",
    "alpha_of",
    "at_clock",
    "flop_per_byte_of",
    "model_gbs",
    "model_knee",
    "peak_gbs",
    "peak_gflops",
    "plot",
    "points",
    "predict",
    "refined_status",
    "summary",
    "sweep_gpus",
    "warps_per_sm",
]

TABLE = "silicon/gpu_roofline/sweeps.csv"
"""The sweeps, relative to ``data/``."""

MODELS = ("roofline", "volkov")
"""The models :func:`predict` evaluates by default."""

_ALL_MODELS = (*MODELS, "refined")

CLOCKS = ("measured", "record")
"""The clock choices, each point's printed SM clock or the GPU record's."""

FLOP_PER_FMA = 2

KNEE_DROP = 0.9
"""The share of the sweep's largest GB/s below which the measured bend is placed (the
lowest intensity at which GB/s has fallen below it)."""

_MEASURED = ("gbs", "gflops")


# ------------------------------------------------------------------------------------
# the measured points


@cache
def _table() -> pd.DataFrame:
    df = read_frame(TABLE)
    df["book_gpu"] = df["book_gpu"].fillna("").astype(str)
    df["modelled"] = df["book_gpu"] != ""
    return df


def sweep_gpus(modelled: bool | None = None) -> dict[str, str]:
    """``{GPU as the sweeps name it: book record or ""}``; ``modelled=True`` keeps the
    GPUs with a record, ``False`` the others."""
    t = _table()[["gpu", "book_gpu"]].drop_duplicates()
    if modelled is not None:
        modelled = check_flag("modelled", modelled)
        t = t[(t["book_gpu"] != "") == modelled]
    return dict(zip(t["gpu"], t["book_gpu"]))


def _sweep_name(gpu, modelled_only: bool = False) -> str:
    """The sweeps' name of ``gpu``: a sweep name (any case) or, for a modelled GPU, its
    book record or an alias of it (``"A100 SXM4"``)."""
    names = sweep_gpus(True if modelled_only else None)
    if isinstance(gpu, str):
        for name, book in names.items():
            if gpu.lower() in (name.lower(), book.lower()):
                return name
        try:
            rec = modern.gpu_name(gpu)
        except UnknownNameError:
            rec = None
        for name, book in names.items():
            if rec is not None and book == rec:
                return name
    what = "modelled GPUs" if modelled_only else "GPUs"
    raise UnknownNameError(
        f"gpu must be one of the sweeps' {what} {tuple(names)} (or the book record "
        f"of a modelled one: {tuple(b for b in names.values() if b)}), got {gpu!r}"
    )


def points(gpu=None) -> pd.DataFrame:
    """The measured sweep points, one row per device and ``its``, as the CSV holds
    them (measured by the gpu-benches authors), with ``modelled`` (the GPU has a book
    record).

    ``gpu`` keeps one GPU (see :func:`sweep_gpus`); an unknown name raises
    ``UnknownNameError`` naming the known ones.
    """
    df = _table()
    if gpu is not None:
        df = df[df["gpu"] == _sweep_name(gpu)]
    return df.reset_index(drop=True).copy()


# ------------------------------------------------------------------------------------
# the mapping to the models' inputs


def alpha_of(flop_per_byte):
    """FP32 warp instructions per 128-B load of the kernel: ``α = 2·I + 1/2`` (module
    docstring; Volkov 2016 §4.1's α). ``I`` is at least 0.25 (``its = 0``).

    >>> alpha_of(6.25)       # its = 24: 24 FFMA + 2 FADD per 2 loads
    13.0
    """
    i = as_array("flop_per_byte", flop_per_byte, lo=0.25)
    return out(2.0 * i + 0.5)


def flop_per_byte_of(alpha):
    """The inverse of :func:`alpha_of`: ``I = (α − 1/2)/2``."""
    a = as_array("alpha", alpha, lo=1.0)
    return out((a - 0.5) / 2.0)


def warps_per_sm(blocks, sm_count, block_size=256):
    """Resident warps per SM of a one-wave grid: ``blocks/SMs × ⌈block_size/32⌉``
    (arrays broadcast); ``ValueError`` if ``blocks`` is not a multiple of ``sm_count``.
    """
    b, sms, bs = np.broadcast_arrays(
        as_array("blocks", blocks, lo=1.0),
        as_array("sm_count", sm_count, lo=1.0),
        as_array("block_size", block_size, lo=1.0),
    )
    per_sm = b / sms
    if np.any(sms > b):
        raise ValueError(
            "sm_count must be at most blocks (one full wave), got "
            f"{sms[sms > b].flat[0]:g} SMs for {b[sms > b].flat[0]:g} blocks"
        )
    if np.any(per_sm != np.round(per_sm)):
        bad = per_sm != np.round(per_sm)
        raise ValueError(
            "blocks must be a multiple of the SM count (one full wave), got "
            f"{b[bad].flat[0]:g} blocks on {sms[bad].flat[0]:g} SMs"
        )
    return out(per_sm * np.ceil(bs / WARP_SIZE))


def at_clock(p: Params, clock_ghz: float) -> Params:
    """``p`` at SM clock ``clock_ghz``: DRAM latency (ns) and bandwidth (GB/s) kept, so
    ``mem_lat``, ``a`` and the latency terms' ``b`` (cycles) scale by ``f/f_rec`` and
    ``mem_thru`` (IPC/SM) by ``f_rec/f``; ALU fields stay in cycles."""
    p = check_params(p)
    clock_ghz = check_real("clock_ghz", clock_ghz, 0.0, lo_open=True)
    s = clock_ghz / p.clock_ghz
    if not 1e-6 < s < 1e6:
        raise ValueError(
            f"clock_ghz must be within a factor 1e6 of the record's "
            f"{p.clock_ghz} GHz, got {clock_ghz!r}"
        )
    if s == 1.0:
        return p
    return p.replace(
        clock_ghz=float(clock_ghz),
        mem_lat=p.mem_lat * s,
        mem_thru=p.mem_thru / s,
        a=p.a * s,
        latency_terms=tuple((b * s, c) for b, c in p.latency_terms),
    )


def peak_gflops(p: Params) -> float:
    """``alu_thru × 32 lanes × 2 flop × SMs × clock`` (GFLOP/s)."""
    p = check_params(p)
    return p.alu_thru * WARP_SIZE * FLOP_PER_FMA * p.sm_count * p.clock_ghz


def peak_gbs(p: Params) -> float:
    """``mem_thru × 128 B × SMs × clock`` (GB/s), the record's ``mem_thru_gbs``."""
    return check_params(p).mem_thru_gbs


# ------------------------------------------------------------------------------------
# the models at one clock


def _volkov_limit(p: Params, alpha: np.ndarray, x: np.ndarray):
    """The binding limit of Volkov's models at memory throughput ``x``: ``"latency"``
    below the throughput bound, else the bound's binding term (§4.1)."""
    bound = np.asarray(volkov.throughput_bound(p, alpha), dtype=float)
    names = np.asarray(volkov.binding_limit(p, alpha), dtype=object)
    latency_bound = x < bound * (1.0 - 1e-12)
    return np.where(latency_bound, "latency", names).astype(object)


def model_gbs(p: Params, n, flop_per_byte, model: str = "volkov"):
    """Predicted GB/s and the binding limit of one model at ``p``'s clock, for arrays of
    warps per SM ``n`` and intensities ``flop_per_byte`` (broadcast).

    Limits: ``"memory"`` or ``"alu"`` for the roofline; ``"latency"``, ``"memory"``,
    ``"alu"`` or ``"issue"`` for Volkov's models (§4.1). ``"refined"`` raises the
    model's ``ValueError`` for a parameter set without a Table 6.5 latency fit.
    """
    p = check_params(p)
    check_choice("model", model, _ALL_MODELS)
    i = as_array("flop_per_byte", flop_per_byte, lo=0.25)
    n_ = as_array("n", n, lo=0.0, lo_open=True)
    n_, i = np.broadcast_arrays(n_, i)
    if model == "roofline":
        gflops = np.minimum(peak_gflops(p), i * peak_gbs(p))
        limit = np.where(i * peak_gbs(p) <= peak_gflops(p), "memory", "alu")
        return gflops / i, limit.astype(object)
    alpha = np.asarray(alpha_of(i), dtype=float)
    if model == "volkov":
        x = np.asarray(volkov.memory_throughput(p, n_, alpha), dtype=float)
    else:
        x = np.asarray(volkov.refined_memory_throughput(p, n_, alpha), dtype=float)
    return x * p.gbs_per_ipc, _volkov_limit(p, alpha, x)


def model_knee(p: Params, n: float, model: str = "volkov") -> float:
    """The intensity (flop/B) at which memory stops binding in a model at ``p``'s clock.

    Roofline: ``peak_flops / peak_bw``. Volkov's basic model: ``I`` of the smallest α
    at which a limit falls below ``mem_thru`` — ``alu_thru/mem_thru`` or
    ``issue_thru/mem_thru − 1`` (§4.5,
    :func:`~gpumodels.papers.volkov.synthetic.cusp_exact`) or, if latency binds first,
    ``(n/mem_thru − mem_lat)/alu_lat``; ``nan`` if memory never binds. Refined: the
    throughput-bound corner only (the latency side has no closed form).
    """
    p = check_params(p)
    check_choice("model", model, _ALL_MODELS)
    n = check_real("n", n, 0.0, lo_open=True)
    if model == "roofline":
        return peak_gflops(p) / peak_gbs(p)
    a_corner = volkov.cusp_exact(p)[0]
    a_lat = (n / p.mem_thru - p.mem_lat) / p.alu_lat if model == "volkov" else np.inf
    a = min(a_corner, a_lat)
    return float((a - 0.5) / 2.0) if a >= 1.0 else float("nan")


def refined_status() -> pd.DataFrame:
    """Whether the refined model (§6.4–6.5) applies to each modelled GPU, and why not:
    the message :func:`~gpumodels.papers.volkov.synthetic.refined_memory_throughput`
    raises."""
    rows = []
    for name, book in sweep_gpus(True).items():
        try:
            volkov.refined_memory_throughput(modern.params(book), 1.0, 1.0)
            ok, why = True, ""
        except ValueError as e:
            ok, why = False, str(e)
        rows.append({"gpu": name, "book_gpu": book, "applicable": ok, "reason": why})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------
# predictions and scores


def _check_points(df) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise InputTypeError(
            f"points_ must be a DataFrame from points(), got {type(df).__name__}"
        )
    need = {"gpu", "book_gpu", "blocks", "block_size", "flop_per_byte", "clock_mhz"}
    missing = need - set(df.columns)
    if missing:
        raise ValueError(f"points_ lacks the columns {sorted(missing)}")
    for g in df["gpu"].unique():
        _sweep_name(g, modelled_only=True)
    return df


def predict(points_=None, clock: str = "measured", models=MODELS) -> pd.DataFrame:
    """Every modelled sweep point with the models' inputs and predictions.

    ``points_``: a frame from :func:`points` with modelled GPUs only (default: all
    modelled points); an unmodelled GPU raises ``UnknownNameError``. The measured
    ``gbs`` and ``gflops`` columns are not read, except to compute the errors.

    Adds ``alpha``, ``warps_per_sm``, ``clock_ghz`` and, per model ``m``: ``gbs_m``,
    ``gflops_m``, ``limit_m`` (the binding limit), ``knee_m`` (:func:`model_knee` at
    the point's clock), ``err_gbs_m`` and ``err_gflops_m`` (relative:
    predicted/measured − 1; only where the measured columns are present).
    """
    check_choice("clock", clock, CLOCKS)
    if isinstance(models, str):
        models = (models,)
    models = _checks.names_of("models", models, _ALL_MODELS)
    if points_ is None:
        return _predict_all(clock, models).copy()
    return _predict(_check_points(points_).reset_index(drop=True).copy(), clock, models)


@cache
def _predict_all(clock: str, models: tuple[str, ...]) -> pd.DataFrame:
    df = _table()
    return _predict(df[df["modelled"]].reset_index(drop=True).copy(), clock, models)


def _predict(df: pd.DataFrame, clock: str, models: tuple[str, ...]) -> pd.DataFrame:
    base = {g: modern.params(g) for g in df["book_gpu"].unique()}
    sms = df["book_gpu"].map(lambda g: base[g].sm_count)
    rec = df["book_gpu"].map(lambda g: base[g].clock_ghz).to_numpy(float)
    df["alpha"] = alpha_of(df["flop_per_byte"].to_numpy(float))
    df["warps_per_sm"] = warps_per_sm(
        df["blocks"].to_numpy(float),
        sms.to_numpy(float),
        df["block_size"].to_numpy(float),
    )
    df["clock_ghz"] = (
        df["clock_mhz"].to_numpy(float) / 1000.0 if clock == "measured" else rec
    )
    for m in models:
        for col in ("gbs", "knee"):
            df[f"{col}_{m}"] = np.nan
        df[f"limit_{m}"] = ""
    for (g, f), idx in df.groupby(["book_gpu", "clock_ghz"]).groups.items():
        p = at_clock(base[g], f)
        rows = df.loc[idx]
        for m in models:
            gbs, limit = model_gbs(
                p, rows["warps_per_sm"].to_numpy(), rows["flop_per_byte"].to_numpy(), m
            )
            df.loc[idx, f"gbs_{m}"] = gbs
            df.loc[idx, f"limit_{m}"] = limit
            n = rows["warps_per_sm"]
            knees = {k: model_knee(p, k, m) for k in n.unique()}
            df.loc[idx, f"knee_{m}"] = n.map(knees).to_numpy()
    for m in models:
        df[f"gflops_{m}"] = df[f"gbs_{m}"] * df["flop_per_byte"]
        for q in _MEASURED:
            if q in df:
                df[f"err_{q}_{m}"] = df[f"{q}_{m}"] / df[q] - 1.0
    return df


def _median_sweep(pred: pd.DataFrame) -> pd.DataFrame:
    """One row per ``its``: the median over devices of every numeric column."""
    num = [c for c in pred.columns if pd.api.types.is_numeric_dtype(pred[c])]
    med = pred.groupby("its")[num].median(numeric_only=True)
    return med.sort_values("flop_per_byte").reset_index(drop=True)


def _knee_crossing(i: np.ndarray, knee: np.ndarray) -> float:
    """The first intensity along the sweep at which a memory-bound point
    (``I < knee(I)``) is followed by one that is not: the zero of ``I − knee(I)``,
    interpolated linearly between the two points; ``nan`` if there is no switch."""
    g = i - knee
    memory = g < 0  # False where the knee is nan: memory never binds there
    after = np.flatnonzero(~memory[1:] & memory[:-1])
    if after.size == 0:
        return float("nan")
    j = after[0] + 1
    if not np.isfinite(g[j]):
        return float((i[j - 1] + i[j]) / 2)
    return float(i[j - 1] + (i[j] - i[j - 1]) * (-g[j - 1]) / (g[j] - g[j - 1]))


def _measured_knees(med: pd.DataFrame) -> tuple[float, float]:
    ridge = med["gflops"].max() / med["gbs"].max()
    below = med["gbs"] < KNEE_DROP * med["gbs"].max()
    bend = med.loc[below, "flop_per_byte"].min() if below.any() else np.nan
    return float(ridge), float(bend)


def summary(
    clock: str = "measured", within: float = 0.25, by_device: bool = False
) -> pd.DataFrame:
    """Per modelled GPU (and device, with ``by_device``) and model: the errors of
    predicted GFLOP/s (the same as those of GB/s) and the knees.

    Columns: ``n_points``; ``median_err`` (signed), ``median_abs_err`` and
    ``p90_abs_err`` of the relative error; ``within`` — the share of points within
    ``within`` (default 25 %); ``knee_measured`` — the ridge of the measured ceilings,
    largest GFLOP/s ÷ largest GB/s; ``bend_measured`` — the lowest intensity at which
    GB/s falls below :data:`KNEE_DROP` of its largest; ``knee_predicted`` — where the
    model's binding limit leaves memory along the sweep: the first zero of
    ``I − knee(I)``, with :func:`model_knee` at each point's clock, interpolated
    between the two sweep points around it. Errors are over every point (all
    devices); without ``by_device`` the knees are taken on the median over devices at
    each ``its`` (for the L40, whose two boards ran at different clocks, that median
    is their mean).
    """
    w = check_fraction("within", within)
    pred = predict(clock=check_choice("clock", clock, CLOCKS))
    by_device = check_flag("by_device", by_device)
    keys = ["gpu", "device"] if by_device else ["gpu"]
    rows = []
    for key, sub in pred.groupby(keys, sort=False):
        med = _median_sweep(sub)
        ridge, bend = _measured_knees(med)
        head = dict(zip(keys, key if isinstance(key, tuple) else (key,)))
        for m in MODELS:
            err = sub[f"err_gflops_{m}"].to_numpy()
            rows.append(
                {
                    **head,
                    "book_gpu": sub["book_gpu"].iloc[0],
                    "model": m,
                    "clock": clock,
                    "n_points": len(sub),
                    "median_err": float(np.median(err)),
                    "median_abs_err": float(np.median(np.abs(err))),
                    "p90_abs_err": float(np.percentile(np.abs(err), 90)),
                    "within": float(np.mean(np.abs(err) <= w)),
                    "knee_measured": ridge,
                    "bend_measured": bend,
                    "knee_predicted": _knee_crossing(
                        med["flop_per_byte"].to_numpy(), med[f"knee_{m}"].to_numpy()
                    ),
                }
            )
    return pd.DataFrame(rows)


_LABELS = {
    "roofline": "roofline (model)",
    "volkov": "Volkov basic model",
    "refined": "Volkov refined model",
}


def plot(ax, gpu, clock: str = "measured"):
    """Measured GFLOP/s of every device of ``gpu`` (dots) and each model's prediction
    (lines; median over devices) against flop/byte, log–log. Returns ``ax``."""
    name = _sweep_name(gpu, modelled_only=True)
    pred = predict(points(name), clock=clock)
    first = pred["device"].min()
    for dev, sub in pred.groupby("device"):
        plotting.measured(
            ax,
            sub["flop_per_byte"],
            sub["gflops"],
            label="measured (gpu-benches authors)" if dev == first else None,
            color="0.35",
            markersize=3,
            alpha=0.6,
        )
    med = _median_sweep(pred)
    for m in MODELS:
        plotting.model(ax, med["flop_per_byte"], med[f"gflops_{m}"], label=_LABELS[m])
    ax.set_xscale("log")
    ax.set_yscale("log")
    plotting.label(
        ax,
        "arithmetic intensity",
        "flop/B",
        "FP32 throughput",
        "GFLOP/s",
        title=f"{name} ({sweep_gpus()[name]} record), {clock} clock",
    )
    ax.legend()
    return ax
