"""Figures of the Volkov chapters that take more than a few lines to draw.

Each function draws on axes the caller made (``plotting.figure``), so a chapter keeps
one short call per figure and the HTML can collapse it. The numbers come from the model
functions of :mod:`gpumodels.papers.volkov` and the printed values of
:mod:`gpumodels.facts.published`; nothing here computes a result the chapters assert.
"""

from __future__ import annotations

import numpy as np

from gpumodels.facts import published
from gpumodels.facts.param_sets import mix_params
from gpumodels.facts.params import Params
from gpumodels.ground import plotting
from gpumodels.ground.errors import UnknownNameError
from gpumodels.papers.volkov.bounds import (
    fig_3_2_trace,
    littles_law,
    table_3_1,
    worked_example_inputs,
)
from gpumodels.papers.volkov.parameters import measured_occupancies
from gpumodels.papers.volkov.printed import ADD_IPC_KEYS
from gpumodels.papers.volkov.synthetic import needed_occupancy, refined_needed_occupancy


def littles_law_examples(a1, a2, cycles: int = 120) -> None:
    """§3.2's examples on the line ``throughput = concurrency / latency`` with Table
    3.1's arithmetic latency (``a1``) and Fig. 3.2 re-created on the simulator (``a2``):
    loads and adds in execution over ``cycles`` cycles."""
    e = worked_example_inputs()
    lat = table_3_1().set_index("instruction").loc["basic_arithmetic", "latency"]
    conc = np.linspace(0, 3.5, 50)
    plotting.model(
        a1,
        conc,
        littles_law(latency=lat, concurrency=np.maximum(conc, 1e-9)),
        label=f"model: n / {lat:g} cycles",
    )
    pts = [e[f"s3_2_in_execution_{t}"] for t in ADD_IPC_KEYS]
    printed = [published.value(k) for k in ADD_IPC_KEYS.values()]
    plotting.published(a1, pts, printed, label="printed in §3.2")
    a1.legend(loc="upper left")
    plotting.label(
        a1,
        "adds in execution",
        "instructions",
        "add throughput",
        "IPC",
        title="§3.2: throughput = concurrency / latency",
    )
    tr = fig_3_2_trace(cycles)
    t = np.arange(0, cycles)
    mem, alu = tr.concurrency("mem", t), tr.concurrency("alu", t)
    plotting.simulated(
        a2,
        t,
        mem,
        label="loads in execution (simulated)",
        drawstyle="steps-post",
        marker=None,
        linestyle="-",
        linewidth=0.8,
        alpha=0.5,
    )
    for conc_t, label, style in (
        (mem, "loads, mean so far", "-"),
        (alu, "adds, mean so far", "--"),
    ):
        plotting.simulated(
            a2,
            t[1:],
            np.cumsum(conc_t)[:-1] / t[1:],
            label=label,
            marker=None,
            linestyle=style,
        )
    a2.set_ylim(0, 4.5)  # the legend sits above the lines
    plotting.label(
        a2,
        "time",
        "cycles",
        "instructions in execution",
        "per SM",
        title="3 warps, load then add (simulated)",
    )
    a2.legend(loc="upper right")


def needed_occupancy_by_generation(ax, P: dict[str, Params]) -> None:
    """Fig. 4.2: the model's α = 0 and α = ∞ occupancies beside Volkov's measured ones
    (Tables 6.3 and 6.4, printed values, converted from warps per scheduler to warps per
    SM)."""
    meas = measured_occupancies().loc[list(P)]
    x = np.arange(len(P))
    for alpha, what, color in (
        (np.inf, "alu_lat × alu_thru", plotting.PALETTE[0]),
        (0.0, "mem_lat × mem_thru", plotting.PALETTE[3]),
    ):
        plotting.model(
            ax,
            x,
            [needed_occupancy(P[g], alpha) for g in P],
            label=f"model: {what}",
            color=color,
            marker="s",
        )
    for column, what, color in (
        ("add", "(Table 6.3): add peak", plotting.PALETTE[0]),
        ("stream", "(Table 6.3): 90% of memory peak", plotting.PALETTE[3]),
        ("at_95", "(Table 6.4): 95% of memory peak", plotting.PALETTE[1]),
    ):
        plotting.published(ax, x, meas[column], label=f"measured {what}", color=color)
    ax.set_xticks(x, [f"{g}\n{P[g].product}" for g in P])
    ax.set_ylim(0, 1.6 * ax.get_ylim()[1])  # room for the legend above the data
    ax.legend(loc="upper left", ncols=2)
    plotting.label(
        ax,
        "GPU",
        plotting.CATEGORICAL,
        "occupancy needed",
        "warps/SM",
        title="occupancy needed to hide arithmetic vs memory latency",
    )


def cusp_every_gpu(
    axes, P: dict[str, Params], g80_two_term: Params, fraction: float = 0.9
) -> None:
    """Fig. 4.6: occupancy for ``fraction`` of the peak against α, basic and refined
    model, one panel per GPU (``axes`` has at least ``len(P)`` panels; a spare last
    panel holds the legend). On the G80 the refined model with the two-term latency fit
    is drawn too."""
    alpha = np.geomspace(1 / 8, 2048, 600)
    pct = f"{fraction:.0%}"
    for ax, (g, q) in zip(axes.flat, P.items()):
        plotting.model(
            ax,
            alpha,
            needed_occupancy(q, alpha, fraction),
            color="k",
            linestyle="--",
            linewidth=1,
            label=f"basic, {pct}",
        )
        plotting.model(
            ax,
            alpha,
            refined_needed_occupancy(q, alpha, fraction),
            color="0.55",
            linestyle="-",
            linewidth=3.5,
            label=f"refined, {pct}",
        )
        if g == "G80":
            plotting.model(
                ax,
                alpha,
                refined_needed_occupancy(g80_two_term, alpha, fraction),
                color=plotting.generation_color("G80"),
                linestyle="-.",
                linewidth=1.2,
                label="refined, two-term fit (G80)",
            )
        ax.axhline(
            q.max_warps_per_sm,
            color="0.6",
            linestyle=":",
            linewidth=1,
            label="warps an SM can hold",
        )
        ax.set_xscale("log")
        ax.set_ylim(0, 1.15 * q.max_warps_per_sm)
        plotting.label(
            ax,
            "α",
            "adds per load",
            "occupancy needed",
            "warps/SM",
            title=f"{g} ({q.product})",
        )
    if axes.size > len(P):  # the legend goes into the spare last panel
        axes.flat[-1].set_axis_off()
        axes.flat[-1].legend(*axes.flat[0].get_legend_handles_labels(), loc="center")
    else:
        axes.flat[0].legend()


def cusp_mixes(axes, P: dict[str, Params], kind: str, fraction: float = 0.9) -> None:
    """Fig. 4.8 (``kind="sfu"``, adds with SFU instructions) or Fig. 4.9
    (``kind="shared"``, adds with shared-memory loads): occupancy for ``fraction`` of
    the peak against α, one panel of ``axes`` per GPU of ``P`` on which §4.7 defines the
    mix (the shared-memory mix is not defined on G80 and GT200); on Maxwell also the
    variant with Volkov's extra issue cycles (§4.7). Spare panels are switched off."""
    alpha = np.geomspace(1 / 32, 1024, 500)
    if kind not in ("sfu", "shared"):
        raise UnknownNameError(
            f"kind must be one of 'sfu', 'shared' (Figs. 4.8, 4.9), got {kind!r}"
        )
    mixes = {}
    for g in P:
        try:
            mixes[g] = mix_params(g, kind)
        except UnknownNameError:  # a wrong name is the caller's error, not a gap
            raise
        except ValueError:  # the shared-memory mix is not a §4.7 mix on G80/GT200
            continue
    axes = np.ravel(axes)
    if len(axes) < len(mixes):
        raise ValueError(
            f"axes must have a panel per GPU with this mix ({len(mixes)}), got "
            f"{len(axes)}"
        )
    for ax, (g, q) in zip(axes, mixes.items()):
        ax.set_xscale("log")
        plotting.model(
            ax,
            alpha,
            needed_occupancy(q, alpha, fraction),
            color="0.45",
            linestyle="-",
            linewidth=2.5,
            label="1 issue cycle per op",
        )
        if g == "Maxwell":
            qi = mix_params(g, kind, issue_costs=True)
            plotting.model(
                ax,
                alpha,
                needed_occupancy(qi, alpha, fraction),
                color=plotting.generation_color(g),
                linestyle="--",
                linewidth=1.2,
                label=f"{qi.mem_issue:.0f} issue cycles per op",
            )
            ax.legend(loc="upper right")
        ax.set_ylim(0, 1.1 * P[g].max_warps_per_sm)
        plotting.label(
            ax,
            "α",
            "adds per op",
            "occupancy needed",
            "warps/SM",
            title=f"{g}: adds + {'SFU' if kind == 'sfu' else 'shared'}",
        )
    for ax in axes[len(mixes) :]:
        ax.set_axis_off()


def warp_lifetimes(
    fig, axes, trace, occ, windows: dict[str, tuple[float, float]]
) -> None:
    """Fig. 5.1's layout for a simulated run: warp lifetimes in each time window (top
    row of ``axes``) and the occupancy recovered from the timestamps across the whole
    run (the bottom row's axes are replaced by one wide panel)."""
    order = np.argsort(trace.warp_start, kind="stable")
    for ax, (name, (lo, hi)) in zip(axes[0], windows.items()):
        sel = [w for w in order if trace.warp_end[w] > lo and trace.warp_start[w] < hi]
        for row, w in enumerate(sel):
            ax.hlines(
                row,
                max(trace.warp_start[w], lo),
                min(trace.warp_end[w], hi),
                color=plotting.PALETTE[0],
                lw=0.8,
            )
        ax.set_xlim(lo, hi)
        ax.locator_params(axis="x", nbins=4)
        plotting.label(
            ax,
            "time",
            "cycles",
            "warp, in order of start",
            "warps",
            title=f"{name}: warp lifetimes (simulated)",
        )
    ax = plotting.merge_row(axes, 1)
    ax.step(occ.time, occ.warps, where="post", color=plotting.PALETTE[0], lw=0.8)
    for name, (lo, hi) in windows.items():
        ax.axvspan(lo, hi, color="0.85", zorder=0)
        ax.text((lo + hi) / 2, 4, name, ha="center")
    ax.set_ylim(0, 70)
    plotting.label(
        ax,
        "time",
        "cycles",
        "occupancy",
        "warps/SM",
        title="occupancy tracked from the timestamps (simulated)",
    )
