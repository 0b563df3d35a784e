"""Explorers of Volkov's model (live kernel only): the cusp on Volkov's GPUs and every
model on the modern ones."""

from __future__ import annotations

import html

import numpy as np

from gpumodels.ground import plotting, widgets
from gpumodels.papers import volkov


def summary_html(gpu: str, alpha: float, n: float) -> str:
    """HTML summary of Volkov's §4.1 model at one point:
    throughputs, bounds, needed occupancy."""

    p = volkov.params(gpu)
    x = volkov.memory_throughput(p, n, alpha)
    xr = volkov.refined_memory_throughput(p, n, alpha)
    rows = [
        (
            "latency bound n / Latency",
            f"{n / volkov.latency(p, alpha):.4f}" if np.isfinite(alpha) else "0",
            "IPC/SM (loads)",
        ),
        ("memory limit mem_thru", f"{p.mem_thru:.4f}", "IPC/SM (loads)"),
        (
            "add limit alu_thru / α",
            f"{p.alu_thru / alpha:.4f}" if alpha > 0 else "no limit",
            "IPC/SM (loads)",
        ),
        (
            "issue limit issue_thru / (α+1)",
            f"{p.issue_thru / (alpha + 1):.4f}",
            "IPC/SM (loads)",
        ),
        (
            "memory throughput (basic model)",
            f"{x:.4f}  = {x * p.gbs_per_ipc:.1f} GB/s",
            "IPC/SM",
        ),
        (
            "memory throughput (refined, §6.5)",
            f"{xr:.4f}  = {xr * p.gbs_per_ipc:.1f} GB/s",
            "IPC/SM",
        ),
        (
            "arithmetic throughput (basic)",
            f"{volkov.arithmetic_throughput(p, n, alpha):.2f}",
            "adds/cycle/SM",
        ),
        ("binding throughput limit", volkov.binding_limit(p, alpha), ""),
        (
            "needed occupancy (basic, 100%)",
            f"{volkov.needed_occupancy(p, alpha):.1f}",
            "warps/SM",
        ),
        (
            "needed occupancy (refined, 90%)",
            f"{volkov.refined_needed_occupancy(p, alpha, 0.9):.1f}",
            "warps/SM",
        ),
    ]
    head = (
        f"<b>{html.escape(p.gpu)} ({html.escape(p.product)}), "
        f"α = {alpha:g} adds per load, "
        f"n = {n:g} warps/SM (of {p.max_warps_per_sm})</b>"
    )
    return head + widgets.table_html(rows, ("quantity", "value", "unit"))


def explorer(gpu: str = "Maxwell"):
    """GPU, α and occupancy controls: the cusp plot with the chosen point, and the
    numbers behind it."""
    import ipywidgets as W

    pick = W.Dropdown(
        options=list(volkov.GENERATIONS),
        value=volkov.params(gpu).gpu,
        description="GPU",
    )
    alpha = W.FloatLogSlider(
        value=16, base=10, min=-2, max=4, step=0.05, description="α (adds/load)"
    )
    n = W.IntSlider(value=16, min=1, max=64, description="warps/SM")
    grid = np.geomspace(0.01, 1e4, 400)

    def summary():
        n.max = volkov.params(pick.value).max_warps_per_sm
        return summary_html(pick.value, alpha.value, n.value)

    def draw(ax):
        p = volkov.params(pick.value)
        plotting.model(
            ax,
            grid,
            volkov.needed_occupancy(p, grid),
            label="basic model, 100% of peak",
        )
        plotting.model(
            ax,
            grid,
            volkov.refined_needed_occupancy(p, grid, 0.9),
            label="refined model, 90%",
            linestyle="--",
        )
        ax.axvline(alpha.value, color="0.5", linewidth=1)
        ax.axhline(n.value, color="0.5", linewidth=1, linestyle=":")
        ax.set_xscale("log")
        plotting.label(
            ax,
            "arithmetic intensity α",
            "adds per load",
            "needed occupancy",
            "warps/SM",
            title=f"{p.gpu}: occupancy needed to hide latency (model)",
        )
        ax.legend()

    return widgets.figure_explorer([pick, alpha, n], summary, draw)
