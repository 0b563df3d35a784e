"""The "memory wall" of Volkov (2016) §4.4, Fig. 4.4:
bandwidth per unit of arithmetic throughput.

``data/geforce_memory_wall.csv`` lists GeForce GPUs by release date with their pin
bandwidth, CUDA cores and (boost or shader) clock, every row sourced. :func:`table` adds
the ratio that Fig. 4.4 plots — pin bandwidth divided by CUDA cores × clock, in bytes
per core per cycle — and :func:`fit_trend` fits ``log(ratio) = k + s·year`` by least
squares and reports ``exp(−s)``, the factor per year by which arithmetic outpaces
bandwidth.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from gpumodels.ground import plotting
from gpumodels.ground.data import read_frame
from gpumodels.ground.errors import InputTypeError, OutOfRangeError
from gpumodels.ground.validate import (
    check_items,
    check_keys,
    check_mapping,
    check_real,
    check_type,
)

_FILE = "geforce_memory_wall.csv"


def table():
    """The dataset as a pandas DataFrame with ``year`` (fractional) and ``ratio``
    (B per core-cycle)."""

    df = read_frame(_FILE)
    df["release_date"] = pd.to_datetime(df["release_date"], format="%Y-%m-%d")
    df["year"] = (
        df["release_date"].dt.year + (df["release_date"].dt.day_of_year - 1) / 365.25
    )
    df["core_ghz"] = df["cuda_cores"] * df["clock_mhz"] / 1000.0
    df["ratio"] = df["pin_bandwidth_gbs"] / df["core_ghz"]
    return df


def fit_trend(
    df, start: float, end: float, lines: tuple[str, ...] = ("GeForce",)
) -> dict:
    """Least-squares fit of ``log(ratio)`` against ``year`` for releases
    in ``[start, end)``.

    Only rows whose ``line`` is in ``lines`` count (by default the GeForce products, as
    in Fig. 4.4; the TITAN and data-centre rows are shown for comparison only).

    Returns ``factor_per_year`` (``exp(−slope)``: > 1 means arithmetic outpaces
    bandwidth), ``slope``, ``intercept``, the number of GPUs ``n`` and the span
    ``start``, ``end``. Needs at least 3 GPUs.
    """
    check_type("df", df, pd.DataFrame, "the table() of the memory wall")
    check_keys("df", df, ("year", "ratio", "line"), "the table() of the memory wall")
    lines = check_items("lines", lines, str, "the product lines to fit")
    start = check_real("start", start, 1990, 2100)
    end = check_real("end", end, start, 2100)
    sel = df[(df["year"] >= start) & (df["year"] < end) & df["line"].isin(lines)]
    if len(sel) < 3:
        raise ValueError(
            f"need at least 3 GPUs released in [{start}, {end}) to fit a trend, found "
            f"{len(sel)}"
        )
    slope, intercept = np.polyfit(
        sel["year"].to_numpy(), np.log(sel["ratio"].to_numpy()), 1
    )
    return {
        "factor_per_year": float(np.exp(-slope)),
        "slope": float(slope),
        "intercept": float(intercept),
        "n": len(sel),
        "start": start,
        "end": end,
    }


#: The spans the chapter fits, by label; Volkov's (2006–2014), the years since, and
#: both.
SPANS = {
    "2006–2014 (Volkov's span)": (2006, 2015),
    "2016–2025": (2016, 2026),
    "2006–2025": (2006, 2026),
}


def fits(df, spans: dict[str, tuple[float, float]] | None = None) -> dict[str, dict]:
    """:func:`fit_trend` over each span of ``spans`` (``None``, the default, for
    :data:`SPANS`), by label.

    ``spans`` maps labels to ``(start, end)`` pairs; ``InputTypeError`` naming it if it
    is not such a mapping, ``OutOfRangeError`` if it is empty (there would be nothing to
    fit).
    """
    spans = SPANS if spans is None else check_mapping("spans", spans)
    if not spans:
        raise OutOfRangeError(
            "spans must map at least one label to a (start, end) pair, got an empty "
            "mapping (pass None for the default spans, memory_wall.SPANS)"
        )
    for name, span in spans.items():
        if not (isinstance(span, (tuple, list)) and len(span) == 2):
            raise InputTypeError(
                f"spans must map labels to (start, end) pairs, got {name!r}: "
                f"{span!r:.40}"
            )
    return {name: fit_trend(df, lo, hi) for name, (lo, hi) in spans.items()}


#: The memory types of the GeForce rows in release order, for a stable colour per type.
MEMORY_TYPES = (
    "DDR2",
    "GDDR3",
    "GDDR5",
    "GDDR5X",
    "GDDR6",
    "GDDR6X",
    "GDDR7",
    "HBM2",
    "HBM3",
)


def plot_trend(ax, df, trend: dict[str, dict], drawn: int = 2) -> None:
    """Fig. 4.4, extended: the ratio of every GPU against its release date (GeForce by
    memory type; TITAN V and data-centre parts apart, not fitted) with the first
    ``drawn`` fitted trends of ``trend`` (from :func:`fits`) over their own spans; the
    legend goes below the axes."""

    colors = dict(zip(MEMORY_TYPES, plotting.PALETTE))
    gf = df[df.line == "GeForce"]
    for mem, d in gf.groupby("memory_type", sort=False):
        plotting.published(
            ax, d.release_date, d.ratio, label=f"GeForce, {mem}", color=colors[mem]
        )
    v = gf[gf.in_volkov == "yes"]
    ax.plot(
        v.release_date,
        v.ratio,
        "o",
        color="k",
        markersize=3,
        label="GPUs used by Volkov",
    )
    other = df[df.line != "GeForce"]
    plotting.published(
        ax,
        other.release_date,
        other.ratio,
        label="TITAN V / data-centre HBM (not fitted)",
        color="0.4",
        marker="^",
    )
    for (name, f), ls in zip(list(trend.items())[:drawn], ("-", "--", ":")):
        yrs = np.linspace(f["start"], f["end"] - 0.5, 50)
        dates = pd.to_datetime([f"{int(y)}-01-01" for y in yrs]) + pd.to_timedelta(
            (yrs % 1) * 365.25, unit="D"
        )
        plotting.model(
            ax,
            dates,
            np.exp(f["intercept"] + f["slope"] * yrs),
            color="0.3",
            linestyle=ls,
            label=f"fit {name}: ÷{f['factor_per_year']:.2f} per year",
        )
    ax.set_yscale("log")
    ax.figure.legend(
        *ax.get_legend_handles_labels(), loc="outside lower center", ncols=2
    )
    plotting.label(
        ax,
        "release date",
        "year",
        "pin bandwidth / (CUDA cores × clock)",
        "bytes per core-cycle",
        title="bandwidth per unit of arithmetic throughput, "
        f"{df.release_date.min().year}–{df.release_date.max().year}",
    )
