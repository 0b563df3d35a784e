"""The prior models and Volkov's on modern GPUs (V100 to GH200): throughput, needed
occupancy and the cusp of every model on the parameter sets of
:mod:`gpumodels.facts.modern`, each with its band over the sourced latencies and
bandwidths, and the figures of the modern-GPU chapter.
"""

from __future__ import annotations

import statistics
import warnings
from collections.abc import Mapping
from functools import cache

import numpy as np
import pandas as pd

from gpumodels.comparisons import _checks, prior

# The parameter sets of modern GPUs (facts), re-exported so that the chapter reads one
# module.
from gpumodels.facts.modern import (
    AMD,
    BANDWIDTHS,
    GIB,
    GPUS,
    METHODS,
    STAND_INS,
    WINDOW_MB,
    any_gpu,
    band,
    chase_plateau,
    gpu_name,
    latency_curves,
    measurements,
    mem_thru,
    params,
    spread,
    unique_variants,
    variants,
)
from gpumodels.facts.param_sets import GENERATIONS
from gpumodels.facts.param_sets import params as volkov_params
from gpumodels.facts.params import BYTES_PER_LOAD, Params, check_params
from gpumodels.ground import plotting
from gpumodels.ground.data import read_rows
from gpumodels.ground.diskcache import persistent
from gpumodels.ground.errors import UnknownNameError
from gpumodels.ground.validate import (
    as_array,
    check_choice,
    check_fraction,
    check_int,
    check_items,
    check_keys,
)
from gpumodels.papers.volkov import synthetic as volkov_model

__all__ = [
    "AMD",
    "BANDWIDTHS",
    "CUSP_ALPHAS",
    "CUSP_MARGIN",
    "EXCLUDED",
    "GIB",
    "GPUS",
    "MAX_DIGITS",
    "METHODS",
    "MODELS",
    "OTHER_LATENCIES",
    "POSITIVE_ALPHA_ONLY",
    "STAND_INS",
    "STEP",
    "WINDOW_MB",
    "band",
    "chase_plateau",
    "crosscheck",
    "cusp",
    "evaluate",
    "gpu_name",
    "label",
    "latency_curves",
    "littles_law",
    "measurements",
    "mem_thru",
    "model_band",
    "model_pivot",
    "model_table",
    "needed_band",
    "needed_occupancy",
    "needed_warps",
    "other_latencies",
    "params",
    "plot_models",
    "plot_needed",
    "plot_needed_warps",
    "spread",
    "variants",
]


def model_band(model: str, name: str, n, alpha) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~gpumodels.facts.modern.band` of a model's instruction throughput,
    :func:`evaluate`'s ``ipc`` (validity warnings silenced: the band shows the spread,
    the flags stay on each model's own curve)."""
    return band(lambda p: _quiet_ipc(model, p, n, alpha), name)


#: The models of ``gpumodels.comparisons.prior.compare.MODELS`` that run on a modern
#: parameter set. Zhang & Owens take their two input curves from the basic model here
#: (no measured or simulated α = 0 and α = ∞ curves exist for these GPUs); Volkov's
#: refined model is left out (:data:`EXCLUDED`).
MODELS = (
    "hong_kim2009",
    "baghsorkhi2010",
    "zhang_owens2011",
    "zhang_owens2011_add",
    "sim2012",
    "huang2014_rr",
    "huang2014_gto",
    "cuda_guide",
    "volkov_basic",
    "transit2015",
)


#: Models of ``gpumodels.comparisons.prior.compare.MODELS`` not evaluated on modern
#: GPUs, with the reason.
EXCLUDED = {
    "volkov_refined": (
        "needs a Table 6.5 fit of latency under load, which no public source gives"
    )
}


#: α grid of :func:`needed_occupancy` and :func:`cusp`: 0, then 2^(k/4) from 1/4 to
#: 1024, then ∞. (51 values; the array's repr would only repeat this.)
#:
#: :meta hide-value:
CUSP_ALPHAS = np.concatenate(
    ([0.0], 2.0 ** np.arange(-2.0, 10.0 + 1e-9, 0.25), [np.inf])
)


#: Models that take only α > 0 (the CUDA guide's estimate divides by α).
POSITIVE_ALPHA_ONLY = frozenset({"cuda_guide"})


#: Occupancy step (warps per SM) of :func:`needed_occupancy`'s search.
STEP = 0.1


#: A model's needed occupancy has a cusp when its maximum over α lies inside the α grid
#: and exceeds both ends (α = 0 or the smallest α the model takes, and α = ∞) by more
#: than this fraction.
CUSP_MARGIN = 0.10


def label(model: str) -> str:
    """The display name of a :data:`MODELS` key (Zhang & Owens say where their input
    curves come from)."""

    _check_model(model)
    if model.startswith("zhang_owens2011"):
        return prior.LABELS[model].replace(
            "simulated input curves", "basic-model input curves"
        )
    return prior.LABELS[model]


def _check_model(model: str) -> None:
    if not isinstance(model, str):
        raise UnknownNameError(f"model must be one of {MODELS}, got {model!r:.40}")
    if model in EXCLUDED:
        raise ValueError(
            f"model {model!r} is not evaluated on modern GPUs: {EXCLUDED[model]}"
        )
    if model not in MODELS:
        raise UnknownNameError(f"model must be one of {MODELS}, got {model!r}")


def evaluate(model: str, p: Params, n, alpha):
    """``prior.evaluate(model, p, n, alpha)`` for a modern parameter set, except that
    Zhang & Owens get the basic model's α = 0 and α = ∞ curves as inputs
    (:data:`MODELS`)."""
    p = check_params(p)

    _check_model(model)
    if model.startswith("zhang_owens2011"):
        return prior.zhang_owens2011(
            p, n, alpha, merge="add" if model.endswith("_add") else "overlap"
        )
    return prior.evaluate(model, p, n, alpha)


def _takes(model: str, alpha) -> np.ndarray:
    """Which of ``alpha`` the model takes (all but α = 0 for
    :data:`POSITIVE_ALPHA_ONLY`)."""
    a = np.asarray(alpha, dtype=float)
    return a > 0 if model in POSITIVE_ALPHA_ONLY else np.ones(a.shape, dtype=bool)


def _quiet_ipc(model: str, p: Params, n, alpha) -> np.ndarray:
    """:func:`evaluate`'s IPC with the models' validity warnings silenced (flags are
    counted apart)."""

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", prior.ModelValidityWarning)
        return evaluate(model, p, n, alpha).ipc


def needed_occupancy(
    model: str, p: Params, alpha=CUSP_ALPHAS, fraction: float = 0.9
) -> np.ndarray:
    """Smallest occupancy (warps per SM, in steps of :data:`STEP`) at which ``model``
    reaches ``fraction`` of its **own** highest throughput at each ``alpha``, searched
    up to twice the SM's warp limit.

    On a modern GPU there is no reference to measure a peak against (Fig. 7.14 of Volkov
    uses the simulated one), so each model's peak is its own. ``nan`` where the model
    has no peak in that range: its throughput still grows by more than 1 % over the last
    tenth of it (a model that never saturates), or the model does not take that α (the
    CUDA guide at α = 0).
    """
    p = check_params(p)
    _check_model(model)

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
    """The cusp of one :func:`needed_occupancy` row over :data:`CUSP_ALPHAS`
    (see :func:`cusp`)."""
    take = _takes(model, CUSP_ALPHAS)
    need, alphas = need[take], CUSP_ALPHAS[take]
    if np.isnan(need).any():
        return {"alpha": float("nan"), "warps": float("nan"), "is_cusp": False}
    i = int(np.argmax(need))
    inside = 0 < i < need.size - 1 and need[i] > (1 + CUSP_MARGIN) * max(
        need[0], need[-1]
    )
    return {"alpha": float(alphas[i]), "warps": float(need[i]), "is_cusp": bool(inside)}


def cusp(model: str, p: Params, fraction: float = 0.9) -> dict:
    """The cusp of ``model``'s needed occupancy (§4.5, Fig. 7.14): ``alpha`` and
    ``warps`` at the maximum of :func:`needed_occupancy` over :data:`CUSP_ALPHAS`, and
    ``is_cusp`` — whether that maximum is a peak at intermediate α (inside the grid and
    above both ends by :data:`CUSP_MARGIN`). ``nan`` (and ``is_cusp`` False) when the
    model has no peak at some α it takes. The CUDA guide's grid starts at the smallest
    positive α."""
    p = check_params(p)
    return _cusp_of(needed_occupancy(model, p, CUSP_ALPHAS, fraction), model)


@cache
@persistent
def _needed_grid(model: str, g: str, fraction: float) -> tuple[np.ndarray, np.ndarray]:
    """Needed occupancy over :data:`CUSP_ALPHAS`:
    default parameters, and one row per variant (kept on disk too: the chapter's
    figure and the tests ask for the same grids)."""
    default = needed_occupancy(model, params(g), CUSP_ALPHAS, fraction)
    every = np.array(
        [needed_occupancy(model, p, CUSP_ALPHAS, fraction) for p in unique_variants(g)]
    )
    return default, every


def needed_band(model: str, name: str, fraction: float = 0.9) -> dict[str, np.ndarray]:
    """:func:`needed_occupancy` over :data:`CUSP_ALPHAS` (``alpha``) for the default
    parameters (``value``) and its smallest and largest over every sourced latency ×
    bandwidth pair (``lo``, ``hi``; ``nan`` where some variant has no peak)."""
    _check_model(model)
    fraction = check_fraction("fraction", fraction)
    default, every = _needed_grid(model, gpu_name(name), fraction)
    return {
        "alpha": CUSP_ALPHAS.copy(),
        "value": default.copy(),
        "lo": every.min(axis=0),
        "hi": every.max(axis=0),
    }


def model_table(names=GPUS, models=MODELS, fraction: float = 0.9) -> list[dict]:
    """One row per GPU and model: occupancy for ``fraction`` of the model's own peak at
    α = 0 (``alpha0``) and α = ∞ (``alpha_inf``), and the cusp (``cusp_alpha``,
    ``cusp_warps``, ``is_cusp``), each for the default parameters and as the range over
    every sourced latency × bandwidth pair (``*_lo``, ``*_hi``). A model that cannot run
    on a GPU (an input the data lack) gives a row whose ``note`` says why, without
    numbers."""
    names = _checks.names_of("names", names)
    models = _checks.names_of("models", models)
    for m in models:
        _check_model(m)
    fraction = check_fraction("fraction", fraction)
    names = tuple(gpu_name(name) for name in names)
    return [dict(r) for r in _model_table(names, tuple(models), float(fraction))]


@cache
@persistent
def _model_table(names: tuple, models: tuple, fraction: float) -> tuple[dict, ...]:
    rows = []
    for g in names:
        max_warps = params(g).max_warps_per_sm
        for m in models:
            row = {
                "gpu": g,
                "model": m,
                "label": label(m),
                "max_warps": max_warps,
                "note": "",
            }
            try:
                default, every = _needed_grid(m, g, float(fraction))
            except ValueError as e:
                rows.append(dict(row, note=str(e)))
                continue
            c = _cusp_of(default, m)
            cusp_warps = np.array([_cusp_of(v, m)["warps"] for v in every])
            row.update(
                alpha0=default[0],
                alpha0_lo=every[:, 0].min(),
                alpha0_hi=every[:, 0].max(),
                alpha_inf=default[-1],
                alpha_inf_lo=every[:, -1].min(),
                alpha_inf_hi=every[:, -1].max(),
                cusp_alpha=c["alpha"],
                cusp_warps=c["warps"],
                is_cusp=c["is_cusp"],
                cusp_lo=cusp_warps.min(),
                cusp_hi=cusp_warps.max(),
            )
            rows.append(row)
    return tuple(rows)


def _style(i: int) -> dict:
    return {
        "color": plotting.PALETTE[i % len(plotting.PALETTE)],
        "linestyle": ("-", "--", "-.", ":")[i // 4 % 4],
    }


def plot_models(
    axes, name: str, alphas=(0.0, 1.0, 4.0, 16.0, 64.0, np.inf), models=MODELS
) -> dict[str, str]:
    """Instruction throughput vs occupancy of ``name``, one axis of ``axes`` per α: each
    model as a line (default parameters) over a shaded band (every sourced latency ×
    bandwidth pair). Returns the models left out of the plot, with the reason (an input
    the data lack, or the CUDA guide at α = 0, which it does not take)."""
    p = params(name)
    n = np.arange(0.25, p.max_warps_per_sm + 0.125, 0.25)
    skipped: dict[str, str] = {}
    axes = np.ravel(axes)
    if len(axes) != len(alphas):
        raise ValueError(
            f"axes must have one axis per alpha ({len(alphas)}), got {len(axes)}"
        )
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
            ax.plot(
                n,
                _quiet_ipc(m, p, n, a),
                linewidth=1.1,
                label=f"{label(m)} (model)",
                **st,
            )
        ax.set_xlim(0, p.max_warps_per_sm)
        plotting.label(
            ax,
            "occupancy",
            "warps/SM",
            "instruction throughput",
            "IPC/SM",
            title=f"α = {'∞' if np.isinf(a) else f'{a:g}'}",
        )
    return skipped


def plot_needed(ax, name: str, models=MODELS, fraction: float = 0.9) -> None:
    """:func:`needed_band` of every model against α (finite α > 0, log axis): the line
    for the default parameters, the band over sources, and the warps the SM can hold
    (dotted)."""
    p = params(name)
    for i, m in enumerate(models):
        try:
            b = needed_band(m, name, fraction)
        except ValueError:
            continue
        inner = np.isfinite(b["alpha"]) & (b["alpha"] > 0)
        st = _style(i)
        ax.fill_between(
            b["alpha"][inner],
            b["lo"][inner],
            b["hi"][inner],
            color=st["color"],
            alpha=0.12,
            linewidth=0,
        )
        ax.plot(
            b["alpha"][inner],
            b["value"][inner],
            linewidth=1.1,
            label=f"{label(m)} (model)",
            **st,
        )
    ax.axhline(
        p.max_warps_per_sm,
        color="0.3",
        linestyle=":",
        linewidth=1,
        label="warps an SM can hold",
    )
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 2 * p.max_warps_per_sm)
    plotting.label(
        ax,
        "α",
        "adds/load",
        f"occupancy, {fraction:.0%} of peak",
        "warps/SM",
        title=p.gpu,
    )


MAX_DIGITS = 15
"""The most decimal places :func:`model_pivot` prints (a float holds about 15
significant digits; more would only print noise)."""


def model_pivot(rows: list[dict], quantity: str, digits: int = 0):
    """A :func:`model_table` quantity (``"alpha0"``, ``"alpha_inf"`` or
    ``"cusp_warps"``) as a models × GPUs table of strings ``"value (lo–hi)"``: ``–``
    where the model has no peak, ``n/a`` where it cannot run on that GPU; cusp cells add
    ``at α = …`` when the maximum is a cusp and say ``no cusp`` when it is not."""

    check_choice("quantity", quantity, ("alpha0", "alpha_inf", "cusp_warps"))
    digits = check_int("digits", digits, 0, MAX_DIGITS)
    lo_key, hi_key = (
        ("cusp_lo", "cusp_hi")
        if quantity == "cusp_warps"
        else (f"{quantity}_lo", f"{quantity}_hi")
    )
    keys = (quantity, lo_key, hi_key)
    if quantity == "cusp_warps":
        keys += ("is_cusp", "cusp_alpha")
    rows = _pivot_rows(rows, keys)
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
                text += (
                    f" at α = {r['cusp_alpha']:.0f}" if r["is_cusp"] else ", no cusp"
                )
        cells.setdefault(r["label"], {})[r["gpu"]] = text
    return pd.DataFrame(cells).T


def _pivot_rows(rows, keys) -> list:
    """``rows`` as a list of :func:`model_table` rows (mappings), each with ``note``,
    ``label`` and ``gpu``, and ``keys`` unless its note says why it has no numbers;
    ``InputTypeError`` naming ``rows`` (or ``rows[i]``) if it is no list of mappings,
    ``DataError`` naming ``rows[i]`` and the missing keys otherwise."""
    rows = check_items("rows", rows, Mapping, "model_table rows")
    for i, r in enumerate(rows):
        needed = ("note", "label", "gpu") + (() if r.get("note") else tuple(keys))
        check_keys(f"rows[{i}]", r, needed, "a model_table row")
    return rows


@cache
def _amd_facts(g: str) -> dict[str, float]:
    return {
        r["quantity"]: float(r["value"])
        for r in read_rows("modern/amd.csv")
        if r["gpu"] == g
    }


def littles_law(names=GPUS + AMD) -> list[dict]:
    """Little's law at α = 0 in bytes, comparable across vendors: the bytes one SM
    (NVIDIA) or CU (AMD) must keep in flight, ``mem_lat × BW / (units × clock)``, with
    the read and the triad bandwidth; the same in loads of one warp (32 × 4 B = 128 B)
    or one wavefront (64 × 4 B = 256 B); and the warps or waves the unit can hold. For
    the NVIDIA GPUs ``loads_read`` is
    :func:`gpumodels.papers.volkov.synthetic.needed_occupancy` at α = 0. The AMD latency
    is the random-chase plateau (:func:`~gpumodels.facts.modern.chase_plateau`, median
    over sources), the bandwidths the best gpu-benches stream rows (median over
    sources); the unit counts come from ``data/modern/amd.csv``."""
    names = _checks.names_of("names", names)
    rows = []
    for name in names:
        g = any_gpu(name)
        if g in AMD:
            f = _amd_facts(g)
            lat = statistics.median(r["value"] for r in chase_plateau(g))
            bw = {
                k: statistics.median(
                    r["value"] for r in measurements(g) if r["quantity"] == f"{k}_bw"
                )
                for k in ("read", "triad")
            }
            units, clock = int(f["compute_units"]), f["clock"] / 1000
            load, slots, unit, group = (
                4 * f["wavefront_size"],
                int(f["waves_per_simd"] * f["simds_per_cu"]),
                "CU",
                "wave",
            )
        else:
            p = params(g)
            lat, units, clock = p.mem_lat, p.sm_count, p.clock_ghz
            bw = {
                "read": p.mem_thru_gbs,
                "triad": params(g, bandwidth="triad").mem_thru_gbs,
            }
            load, slots, unit, group = (
                float(BYTES_PER_LOAD),
                p.max_warps_per_sm,
                "SM",
                "warp",
            )
        row = {
            "gpu": g,
            "unit": unit,
            "units": units,
            "clock_ghz": clock,
            "mem_lat": lat,
            "read_gbs": bw["read"],
            "triad_gbs": bw["triad"],
            "load_bytes": load,
            "group": group,
            "slots": slots,
            "slot_bytes": slots * load,
        }
        for k in ("read", "triad"):
            # GB/s / GHz = bytes per cycle
            row[f"bytes_{k}"] = lat * bw[k] / (units * clock)
            row[f"loads_{k}"] = row[f"bytes_{k}"] / load
        rows.append(row)
    return rows


#: The on-chip latencies :func:`other_latencies` tabulates (cycles).
OTHER_LATENCIES = ("alu_lat", "sfu_lat", "shared_lat", "l1_lat", "l2_lat")


def other_latencies(names=GPUS):
    """Sourced on-chip latencies (cycles) per GPU: FP32 add, SFU (fast square root),
    shared memory, L1 and L2 hits, one column each (:data:`OTHER_LATENCIES`; the methods
    and sources are in :func:`~gpumodels.facts.modern.measurements`). A GPU with several
    rows of one quantity gets their median; a quantity nobody measured on a GPU stays
    empty (``nan``), never filled in."""
    names = _checks.names_of("names", names)
    if not names:
        raise ValueError("names must name at least one GPU, got an empty list")

    table = {}
    for name in names:
        g = gpu_name(name)
        rows = measurements(g)
        table[g] = {
            q: statistics.median([r["value"] for r in rows if r["quantity"] == q])
            if any(r["quantity"] == q for r in rows)
            else float("nan")
            for q in OTHER_LATENCIES
        }
    return pd.DataFrame(table).T[list(OTHER_LATENCIES)]


def needed_warps():
    """Little's law at α = 0 and for adds on Volkov's five GPUs and the modern ones:
    warps per SM to saturate memory (read bandwidth; for modern GPUs also triad
    bandwidth and the band over every sourced latency × bandwidth pair) and the CUDA
    cores, and the warps an SM can hold."""

    rows = []
    for name in GENERATIONS + GPUS:
        p = volkov_params(name)
        row = {
            "GPU": name,
            "memory: warps (read BW)": volkov_model.needed_occupancy(p, 0.0),
            "arithmetic: warps": p.alu_lat * p.alu_thru,
            "max warps/SM": p.max_warps_per_sm,
        }
        if name in GPUS:
            row["memory: warps (triad BW)"] = volkov_model.needed_occupancy(
                volkov_params(name, bandwidth="triad"), 0.0
            )
            row["memory: band lo"], row["memory: band hi"] = band(
                volkov_model.needed_occupancy, name, 0.0
            )
        rows.append(row)
    return pd.DataFrame(rows).set_index("GPU")


def plot_needed_warps(ax, table) -> None:
    """Bars of :func:`needed_warps`: memory (read bandwidth, with the range over sources
    and the triad value) and arithmetic, with a dotted step at the warps an SM can hold.
    """
    x = np.arange(len(table))
    ax.bar(
        x - 0.2,
        table["memory: warps (read BW)"],
        0.4,
        color=plotting.PALETTE[0],
        label="memory, read BW (model)",
    )
    ax.bar(
        x + 0.2,
        table["arithmetic: warps"],
        0.4,
        color=plotting.PALETTE[1],
        label="arithmetic (model)",
    )
    lo, hi = table["memory: band lo"], table["memory: band hi"]
    ok = lo.notna().to_numpy()
    ax.vlines(
        x[ok] - 0.2,
        lo[ok],
        hi[ok],
        color="black",
        linewidth=2,
        label="memory, range over sources",
    )
    ax.scatter(
        x[ok] - 0.2,
        table["memory: warps (triad BW)"][ok],
        marker="^",
        color=plotting.PALETTE[3],
        zorder=3,
        label="memory, triad BW (model)",
    )
    limit = table["max warps/SM"].to_numpy()
    ax.step(
        np.append(x, x[-1] + 1) - 0.5,
        np.append(limit, limit[-1]),
        where="post",
        color="0.3",
        linestyle=":",
        label="warps an SM can hold",
    )
    ax.set_xticks(x, table.index, rotation=30)
    plotting.label(
        ax,
        "GPU",
        plotting.CATEGORICAL,
        "occupancy needed",
        "warps/SM",
        title="Little's law at α = 0 and for adds",
    )
    ax.legend(loc="upper left")


def crosscheck() -> list[dict]:
    """DRAM and FP32 add latencies (cycles) as Volkov, the public chase and two
    simulators' configuration files give them (``data/modern/simulator_configs.csv``);
    Accel-Sim's DRAM latency is the sum of its L1 latency and its two increments (L2 −
    L1, DRAM − L2); the Accel-Sim tuner's own measurement on an A100 80 GB PCIe stands
    beside it."""
    cfg = {
        (r["architecture"], r["quantity"]): float(r["value"])
        for r in read_rows("modern/simulator_configs.csv")
    }
    mx, v, a = volkov_params("Maxwell"), params("V100 PCIe"), params("A100 80GB")
    tuner = {
        r["quantity"]: r["value"]
        for r in measurements("A100-80")
        if r["method"].startswith(
            ("Accel-Sim tuner sequential", "Accel-Sim tuner dependent FP32")
        )
    }
    sim_dram = sum(
        cfg[("Ampere", q)]
        for q in ("gpgpu_l1_latency", "gpgpu_l2_rop_latency", "dram_latency")
    )
    return [
        {
            "architecture": "Maxwell",
            "source": "Volkov Table 4.1",
            "dram": mx.mem_lat,
            "fp32_add": mx.alu_lat,
        },
        {
            "architecture": "Maxwell",
            "source": "PPT-GPU configuration",
            "dram": cfg[("Maxwell", "dram_mem_access")],
            "fp32_add": cfg[("Maxwell", "fALU")],
        },
        {
            "architecture": "Volta",
            "source": "gpu-benches random chase (V100 PCIe)",
            "dram": v.mem_lat,
            "fp32_add": v.alu_lat,
        },
        {
            "architecture": "Volta",
            "source": "PPT-GPU configuration",
            "dram": cfg[("Volta", "dram_mem_access")],
            "fp32_add": cfg[("Volta", "fALU")],
        },
        {
            "architecture": "Ampere",
            "source": "gpu-benches random chase (A100 80 GB)",
            "dram": a.mem_lat,
            "fp32_add": None,
        },
        {
            "architecture": "Ampere",
            "source": "Accel-Sim tuner, sequential chase (A100 80 GB PCIe, AMALi)",
            "dram": tuner["mem_lat"],
            "fp32_add": tuner["alu_lat"],
        },
        {
            "architecture": "Ampere",
            "source": "Accel-Sim A100 configuration, L1 + L2 + DRAM increments",
            "dram": sim_dram,
            "fp32_add": cfg[("Ampere", "ptx_opcode_latency_fp")],
        },
    ]
