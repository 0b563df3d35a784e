"""Explorer of every model on the modern GPUs (live kernel only):
pick a GPU, α and models."""

from __future__ import annotations

import html
import math

from gpumodels.comparisons import modern
from gpumodels.ground import widgets


def modern_summary_html(gpu: str, models, fraction: float = 0.9) -> str:
    """HTML table: each chosen model's occupancy for ``fraction`` of its own peak at α =
    0 and its cusp on a modern GPU, default parameters and range over sources
    (:func:`gpumodels.comparisons.modern.model_table`)."""

    rows = []
    for r in modern.model_table((gpu,), tuple(models), fraction):
        if r["note"]:
            rows.append((r["label"], "not evaluated", r["note"]))
            continue
        need = (
            "no peak"
            if math.isnan(r["alpha0"])
            else f"{r['alpha0']:.1f} ({r['alpha0_lo']:.1f}–{r['alpha0_hi']:.1f})"
        )
        cusp = (
            "no peak at some α"
            if math.isnan(r["cusp_warps"])
            else f"{r['cusp_warps']:.1f} warps at α = {r['cusp_alpha']:.3g}"
            if r["is_cusp"]
            else f"no cusp (max {r['cusp_warps']:.1f} warps)"
        )
        rows.append((r["label"], need, cusp))
    head = (
        f"<b>{html.escape(modern.gpu_name(gpu))}: occupancy for {fraction:.0%} of "
        "each model's own peak (warps/SM)</b>"
    )
    return head + widgets.table_html(
        rows, ("model", "α = 0 (range over sources)", "cusp")
    )


def modern_explorer(gpu: str = "H100 PCIe"):
    """Pick a modern GPU, α and models: throughput vs occupancy of each model with its
    band over the sourced latencies and bandwidths, and the needed occupancy and cusp of
    each."""
    import ipywidgets as W

    models = W.SelectMultiple(
        options=[(modern.label(k), k) for k in modern.MODELS],
        value=("sim2012", "volkov_basic", "transit2015"),
        description="models",
        rows=10,
    )
    pick = W.Dropdown(
        options=list(modern.GPUS), value=modern.gpu_name(gpu), description="GPU"
    )
    alpha = W.SelectionSlider(
        options=[0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, float("inf")],
        value=16.0,
        description="α (adds/load)",
    )
    return widgets.models_explorer(
        models,
        pick,
        alpha,
        lambda c, g, a: modern_summary_html(g, c),
        lambda ax, c, g, a: modern.plot_models([ax], g, (a,), c),
    )
