"""Volkov (2016), chapter 6: the measured hardware parameters and every number derived
from them.

Tables 6.1–6.4 and 6.6 are measurements printed in the dissertation
(``data/volkov/chapter6_metrics.csv``, ``table_6_6.csv``); this module re-derives the
numbers the text computes from them. Units follow the chapter: throughputs in ops/cycle
*per scheduler* (32 ops = 1 instruction), concurrencies in warps per scheduler.

* Table 6.3 vs the "linear" estimate latency × throughput / 32 (§6.1, §6.3, Table 6.4);
* Table 4.1's ``mem_thru`` from Table 6.4's GB/s, and Table 6.1's ``stream`` column;
* the gradual-saturation factors (§6.3), the 2-way bank-conflict effects (§6.2);
* the streaming-to-unstructured ratios and Table 6.7's latency per extra transaction
  (§6.7);
* the Table 6.6 latency distributions next to Table 6.5's mean-latency model.

>>> from gpumodels.papers.volkov import parameters as p6
>>> round(float(p6.linear_concurrency(301, 1.07)), 2)  # Kepler: 301 cycles × 1.07 / 32
10.06
>>> round(p6.latency_per_transaction()["Fermi"], 1)    # (1571 − 513) / (32 − 1)
34.1
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.facts.param_sets import GENERATIONS, params
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import DataError, OutsideDomainError, UnknownNameError
from gpumodels.ground.validate import (
    as_array,
    broadcast,
    check_real,
    check_text,
    finite_result,
)
from gpumodels.papers.volkov.bounds import measured_metrics
from gpumodels.papers.volkov.synthetic import (
    refined_memory_throughput,
    refined_needed_occupancy,
)

COLUMNS = ("add", "sfu", "smem", "smem2", "stream", "random")
"""Instruction columns of Tables 6.1–6.3: CUDA-core add, SFU (rsqrt), shared-memory
load, the same with 2-way bank conflicts, streaming global load, unstructured (fully
diverging) global load."""


_EXPECTED = {
    "6.1": COLUMNS,
    "6.2": COLUMNS,
    "6.3": COLUMNS,
    "6.4": ("peak", "at_90", "at_95", "pct_at_linear"),
}
"""The cells each of Tables 6.1–6.4 has for every GPU of ``GENERATIONS``..."""

_NOT_PRINTED = {("6.3", "G80", "random"), ("6.3", "GT200", "random")}
"""... except these, where Table 6.3 prints "< 1" (no row in the data)."""


def table(name: str):
    """One of Tables 6.1–6.4 (``"6.1"`` …) as a wide DataFrame, one row per GPU
    (measured values); ``DataError`` naming the file and the cell if one of Tables
    6.1–6.4 lacks a row it prints."""
    df = measured_metrics(check_text("name", name))
    if df.empty:
        raise UnknownNameError(
            f"name must be one of '6.1', '6.2', '6.3', '6.4', '6.6', got {name!r}"
        )
    have = set(zip(df["gpu"], df["column"]))
    missing = [
        f"gpu={g!r}, table={name!r}, column={c!r}"
        for g in GENERATIONS
        for c in _EXPECTED.get(name, ())
        if (g, c) not in have and (name, g, c) not in _NOT_PRINTED
    ]
    if missing:
        raise DataError(
            "data/volkov/chapter6_metrics.csv: no row for "
            + "; ".join(missing[:5])
            + f" (required: Table {name} prints a value for every GPU)"
        )
    wide = df.pivot(index="gpu", columns="column", values="value")
    order = [c for c in COLUMNS if c in wide.columns] + [
        c for c in wide.columns if c not in COLUMNS
    ]
    return wide.reindex([g for g in GENERATIONS if g in wide.index])[order]


def linear_concurrency(latency, throughput):
    """Little's law in Volkov's per-scheduler units: latency (cycles) × throughput
    (ops/cycle) / 32.

    The "linear" estimate of Table 6.4 and of §6.1, in warps (instructions) per
    scheduler.
    """
    lat = as_array("latency", latency)
    thr = as_array("throughput", throughput)
    lat, thr = broadcast(latency=lat, throughput=thr)
    r = lat * thr / WARP_SIZE
    return float(r) if np.ndim(r) == 0 else r


def concurrency_estimates():
    """Table 6.3 (measured) against latency × throughput / 32 from Tables 6.2 and 6.1,
    every column.

    Long format: ``gpu, column, latency, throughput, linear, needed,
    needed_over_linear`` (warps per scheduler; ``needed`` is missing where Table 6.3
    prints "< 1").
    """

    lat, thr, need = table("6.2"), table("6.1"), table("6.3")
    rows = []
    for g in lat.index:
        for c in COLUMNS:
            lin = linear_concurrency(lat.loc[g, c], thr.loc[g, c])
            nd = need.loc[g, c] if c in need.columns else np.nan
            rows.append(
                {
                    "gpu": g,
                    "column": c,
                    "latency": lat.loc[g, c],
                    "throughput": thr.loc[g, c],
                    "linear": lin,
                    "needed": nd,
                    "needed_over_linear": nd / lin,
                }
            )
    return pd.DataFrame(rows)


def round_half(x):
    """Round to the nearest half
    (Table 6.4 prints the linear estimate as 12, 15.5, 7.5, …); ``x`` is a number
    or an array of numbers >= 0."""
    return np.floor(as_array("x", x) * 2 + 0.5) / 2


def table_6_4():
    """Table 6.4 re-derived,
    with the refined (Table 6.5) model's predictions beside the measurements.

    Columns: ``peak_gbs, latency, throughput, linear`` (latency × throughput / 32,
    unrounded), ``linear_printed_rounding`` (to the nearest half), ``at_90, at_95`` and
    ``pct_at_linear`` (measured, printed), ``ratio_90, ratio_95`` (measured occupancy
    over the unrounded linear estimate), and from
    :func:`gpumodels.papers.volkov.synthetic.refined_memory_throughput` at α = 0:
    ``model_pct_at_linear`` (percent of ``mem_thru``), ``model_at_90, model_at_95``
    (warps per scheduler). Note that Table 6.5 was fitted to the same experiments, so
    agreement here is consistency, not an independent prediction.
    """

    t61, t62, t64 = table("6.1"), table("6.2"), table("6.4")
    rows = []
    for g in t64.index:
        p = params(g)
        lin = linear_concurrency(t62.loc[g, "stream"], t61.loc[g, "stream"])
        n_lin = lin * p.schedulers
        x = refined_memory_throughput(p, n_lin, 0.0)
        rows.append(
            {
                "gpu": g,
                "peak_gbs": t64.loc[g, "peak"],
                "latency": t62.loc[g, "stream"],
                "throughput": t61.loc[g, "stream"],
                "linear": lin,
                "linear_printed_rounding": float(round_half(lin)),
                "at_90": t64.loc[g, "at_90"],
                "at_95": t64.loc[g, "at_95"],
                "pct_at_linear": t64.loc[g, "pct_at_linear"],
                "ratio_90": t64.loc[g, "at_90"] / lin,
                "ratio_95": t64.loc[g, "at_95"] / lin,
                "model_pct_at_linear": 100 * x / p.mem_thru,
                "model_at_90": refined_needed_occupancy(p, 0.0, 0.9) / p.schedulers,
                "model_at_95": refined_needed_occupancy(p, 0.0, 0.95) / p.schedulers,
            }
        )
    return pd.DataFrame(rows).set_index("gpu")


def saturation_factors() -> dict[str, float]:
    """§6.3's "about 1.3× and about 1.5×": the median, over the five GPUs, of the
    measured occupancy at 90% / 95% of peak divided by the linear estimate (also min and
    max)."""
    t = table_6_4()
    out = {}
    for f in ("90", "95"):
        r = t[f"ratio_{f}"]
        out.update(
            {
                f"median_{f}": float(r.median()),
                f"min_{f}": float(r.min()),
                f"max_{f}": float(r.max()),
            }
        )
    return out


def mem_thru_from_gbs():
    """Table 4.1's ``mem_thru`` (IPC/SM) from Table 6.4's GB/s:
    GB/s / (128 B × SMs × clock).

    Also Table 6.1's ``stream`` column converted the same way (ops/cycle/scheduler ×
    schedulers / 32). Columns ``peak_gbs, gbs_per_ipc, from_table_6_4, from_table_6_1,
    table_4_1``.
    """

    t61, t64 = table("6.1"), table("6.4")
    rows = []
    for g in t64.index:
        p = params(g)
        rows.append(
            {
                "gpu": g,
                "peak_gbs": t64.loc[g, "peak"],
                "gbs_per_ipc": p.gbs_per_ipc,
                "from_table_6_4": t64.loc[g, "peak"] / p.gbs_per_ipc,
                "from_table_6_1": t61.loc[g, "stream"] * p.schedulers / WARP_SIZE,
                "table_4_1": p.mem_thru,
            }
        )
    return pd.DataFrame(rows).set_index("gpu")


def bank_conflicts():
    """§6.2: 2-way bank conflicts (``smem2``)
    against conflict-free shared-memory loads (``smem``).

    Columns ``throughput_ratio`` (smem / smem2), ``latency_increase`` (cycles),
    ``latency_increase_pct`` and ``occupancy_ratio`` (Table 6.3: smem / smem2; > 1 means
    conflicts *reduce* the needed occupancy).
    """

    t61, t62, t63 = table("6.1"), table("6.2"), table("6.3")
    d = pd.DataFrame(index=t62.index)
    d["throughput_ratio"] = t61["smem"] / t61["smem2"]
    d["latency_increase"] = t62["smem2"] - t62["smem"]
    d["latency_increase_pct"] = 100 * d["latency_increase"] / t62["smem"]
    d["occupancy_ratio"] = t63["smem"] / t63["smem2"]
    return d


def _transactions() -> dict[str, tuple[int, int]]:
    return {
        r["gpu"]: (int(r["coalesced"]), int(r["diverging"]))
        for r in read_rows("volkov/transactions.csv")
    }


def latency_per_transaction() -> dict[str, float]:
    """Table 6.7: (random − stream latency) / (transactions diverging − coalesced),
    in cycles.

    Transactions per warp access as §6.7 assumes from the CUDA guide
    (``data/volkov/transactions.csv``): 32 when fully diverging; 2 (G80, GT200), 1
    (Fermi) or 4 (Kepler, Maxwell) when coalesced.
    """
    t62 = table("6.2")
    return {
        g: float((t62.loc[g, "random"] - t62.loc[g, "stream"]) / (div - coal))
        for g, (coal, div) in _transactions().items()
    }


def stream_over_random() -> dict[str, float]:
    """§6.7: peak streaming throughput over peak unstructured throughput (Table 6.1)."""
    t61 = table("6.1")
    return {g: float(t61.loc[g, "stream"] / t61.loc[g, "random"]) for g in t61.index}


def latency_percentiles():
    """Table 6.6 (measured on the Kepler GPU) with the quantities §6.6 quotes and the
    model mean.

    Adds ``pct_of_peak`` (throughput over Table 6.4's 154 GB/s), ``mid90`` (95th − 5th
    percentile), ``max_over_median`` and ``model_mean`` -- Table 6.5's fitted mean
    latency ``a + b·x/(c − x)`` at the row's throughput (a model value, to compare with
    the measured median).
    """

    df = pd.DataFrame(list(read_rows("volkov/table_6_6.csv")))
    num = ["throughput_gbs", "min", "p5", "p25", "p50", "p75", "p95", "max"]
    df[num] = df[num].astype(float)
    p = params("Kepler")
    peak = table("6.4").loc["Kepler", "peak"]
    df["pct_of_peak"] = 100 * df["throughput_gbs"] / peak
    df["mid90"] = df["p95"] - df["p5"]
    df["max_over_median"] = df["max"] / df["p50"]
    df["model_mean"] = p.memory_latency(df["throughput_gbs"].to_numpy())
    return df.drop(columns=["source", "note"])


def fit_latency_model(throughput, latency, *, c_max: float | None = None):
    """Least-squares fit of ``latency = a + b·x/(c − x)`` (§6.4) to measured points.

    ``throughput`` in GB/s, ``latency`` in cycles (at least three points). ``c`` is
    searched above the largest throughput (up to ``c_max``, default 4 × that); ``a`` and
    ``b`` are linear given ``c``. Returns ``(a, b, c)``. Volkov fits an outer envelope
    by a discrete search; this is an ordinary least-squares variant for tabulated
    points.
    """
    x = as_array("throughput", throughput)
    y = as_array("latency", latency)
    x, y = broadcast(throughput=x, latency=y)
    if x.shape != y.shape or x.ndim != 1 or x.size < 3:
        raise ValueError(
            "throughput and latency must be 1-d arrays of equal length >= 3, got "
            f"{x.shape}, {y.shape}"
        )
    xmax = float(x.max())
    if xmax <= 0:
        raise ValueError("throughput must contain a positive value")
    hi = 4 * xmax if c_max is None else check_real("c_max", c_max, xmax, lo_open=True)

    def solve(c):
        A = np.column_stack([np.ones_like(x), x / (c - x)])
        coef, *_ = np.linalg.lstsq(A, y, rcond=None)
        return float(np.sum((A @ coef - y) ** 2)), coef

    # an overflow inside the least squares (points near the floating-point limit)
    # becomes OutsideDomainError; an underflow only rounds a tiny term to 0
    try:
        with np.errstate(over="raise", divide="raise", invalid="raise", under="ignore"):
            grid = np.linspace(xmax * (1 + 1e-4), hi, 4000)
            errs = [solve(c)[0] for c in grid]
            k = int(np.argmin(errs))
            lo_c, hi_c = grid[max(k - 1, 0)], grid[min(k + 1, grid.size - 1)]
            fine = np.linspace(lo_c, hi_c, 2001)
            best = min(fine, key=lambda c: solve(c)[0])
            _, (a, b) = solve(best)
    except (FloatingPointError, np.linalg.LinAlgError) as e:
        raise OutsideDomainError(
            f"the least-squares fit leaves the floating-point range ({e}) for "
            f"throughput={throughput!r:.60}, latency={latency!r:.60}, c_max={c_max!r}"
        ) from None
    fit = (float(a), float(b), float(best))
    finite_result("the fit (a, b, c)", fit, throughput=x, latency=y, c_max=c_max)
    return fit


def measured_occupancies():
    """Volkov's measured occupancies in warps per SM, by GPU (rows in ``GENERATIONS``
    order): ``add`` — the smallest attaining the add peak and ``stream`` — 90% of the
    memory peak (Table 6.3), ``at_95`` — 95% of the memory peak (Table 6.4). The tables
    print warps per scheduler; this multiplies by each GPU's schedulers (Table 4.1)."""
    t6 = measured_metrics()
    meas = t6[
        ((t6.table == "6.3") & t6.column.isin(["add", "stream"]))
        | ((t6.table == "6.4") & (t6.column == "at_95"))
    ]
    meas = meas.pivot(index="gpu", columns="column", values="value").loc[
        list(GENERATIONS)
    ]
    sched = np.array([params(g).schedulers for g in GENERATIONS], dtype=float)
    return meas[["add", "stream", "at_95"]].mul(sched, axis=0)
