"""The "memory wall" of Volkov (2016) §4.4, Fig. 4.4: bandwidth per unit of arithmetic throughput.

``data/geforce_memory_wall.csv`` lists GeForce GPUs by release date with their pin bandwidth,
CUDA cores and (boost or shader) clock, every row sourced. :func:`table` adds the ratio that
Fig. 4.4 plots — pin bandwidth divided by CUDA cores × clock, in bytes per core per cycle —
and :func:`fit_trend` fits ``log(ratio) = k + s·year`` by least squares and reports
``exp(−s)``, the factor per year by which arithmetic outpaces bandwidth.
"""

from __future__ import annotations

import numpy as np

from ._validate import check_real

_FILE = "geforce_memory_wall.csv"


def table():
    """The dataset as a pandas DataFrame with ``year`` (fractional) and ``ratio`` (B per core-cycle)."""
    import pandas as pd

    from ._data import read_frame

    df = read_frame(_FILE)
    df["release_date"] = pd.to_datetime(df["release_date"], format="%Y-%m-%d")
    df["year"] = df["release_date"].dt.year + (df["release_date"].dt.day_of_year - 1) / 365.25
    df["core_ghz"] = df["cuda_cores"] * df["clock_mhz"] / 1000.0
    df["ratio"] = df["pin_bandwidth_gbs"] / df["core_ghz"]
    return df


def fit_trend(df, start: float, end: float, lines: tuple[str, ...] = ("GeForce",)) -> dict:
    """Least-squares fit of ``log(ratio)`` against ``year`` for releases in ``[start, end)``.

    Only rows whose ``line`` is in ``lines`` count (by default the GeForce products, as in
    Fig. 4.4; the TITAN and data-centre rows are shown for comparison only).

    Returns ``factor_per_year`` (``exp(−slope)``: > 1 means arithmetic outpaces bandwidth),
    ``slope``, ``intercept`` and the number of GPUs ``n``. Needs at least 3 GPUs.
    """
    start = check_real("start", start, 1990, 2100)
    end = check_real("end", end, start, 2100)
    sel = df[(df["year"] >= start) & (df["year"] < end) & df["line"].isin(lines)]
    if len(sel) < 3:
        raise ValueError(f"need at least 3 GPUs released in [{start}, {end}) to fit a trend, found {len(sel)}")
    slope, intercept = np.polyfit(sel["year"].to_numpy(), np.log(sel["ratio"].to_numpy()), 1)
    return dict(factor_per_year=float(np.exp(-slope)), slope=float(slope), intercept=float(intercept), n=len(sel))
