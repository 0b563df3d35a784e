"""Transit figures: MS supply and MS demand on one axis, and their intersection (Li et
al. 2015, Fig. 6).

The horizontal axis counts the threads in the memory system, ``k``, from the left; the
threads in the computation system, ``x = n − k``, count from the right (a secondary axis
on top), so the demand curve ``g(x)`` is drawn reversed (Fig. 5-B). Everything drawn
here is model output.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from gpumodels.ground import plotting
from gpumodels.ground.validate import check_flag, check_int
from gpumodels.papers.transit.model import (
    Equilibrium,
    closed_network_supply,
    demand,
    equilibrium,
    raised,
    supply,
)


def curves(n, Z, R, k_delta, M, points: int = 401):
    """``(k, f(k), g(n − k))`` on a grid of ``k``
    in ``[0, n]`` that contains both kinks exactly (``points`` in [2, 10**6]; every
    input a single number)."""
    points = check_int("points", points, 2, 10**6)
    for name, v in (("n", n), ("Z", Z), ("R", R), ("k_delta", k_delta), ("M", M)):
        if np.ndim(v) != 0:
            raise ValueError(f"{name} must be a single number, got {v!r:.40}")
    return _curves(equilibrium(n, Z, R, k_delta, M), points)


def _curves(e: Equilibrium, points: int = 401):
    k = np.linspace(0.0, e.n, points)
    k = np.unique(
        np.concatenate([k, [x for x in (e.k_delta, e.n - e.M, e.k) if 0 <= x <= e.n]])
    )
    return k, supply(k, e.R, e.k_delta), demand(e.n - k, e.Z, e.M)


def draw(
    ax,
    n,
    Z,
    R,
    k_delta,
    M,
    *,
    color: str | None = None,
    style: str = "-",
    label: str | None = None,
    marks: bool = True,
    intersection: bool = True,
    alpha: float = 1.0,
    brief: bool = False,
) -> Equilibrium:
    """Draw one transit figure on ``ax`` and return its
    :class:`~gpumodels.papers.transit.model.Equilibrium`.

    ``f(k)`` is drawn in the first palette colour and ``g(n − k)`` in the second unless
    ``color`` is given (then both use it, ``f`` solid and ``g`` dashed). With ``marks``
    the transition points δ and π are marked (open squares), with ``intersection`` the
    equilibrium (a cross). ``label`` prefixes the legend entries; with ``brief`` only
    ``label`` itself goes into the legend (one entry per drawn state, for figures that
    compare states).
    """
    marks = check_flag("marks", marks)
    intersection = check_flag("intersection", intersection)
    brief = check_flag("brief", brief)
    e = equilibrium(n, Z, R, k_delta, M)
    k, f, g = _curves(e)
    cf = color or plotting.PALETTE[0]
    cg = color or plotting.PALETTE[1]
    pre = f"{label}: " if label else ""
    names = (
        (label, None, None)
        if brief
        else (
            f"{pre}MS supply f(k)",
            f"{pre}MS demand g(n − k)",
            f"{pre}equilibrium ({e.bound} bound)",
        )
    )
    plotting.model(ax, k, f, label=names[0], color=cf, linestyle=style, alpha=alpha)
    plotting.model(
        ax,
        k,
        g,
        label=names[1],
        color=cg,
        linestyle="--" if color else style,
        alpha=alpha,
    )
    if marks:
        if e.k_delta <= e.n:
            ax.plot([e.k_delta], [e.R], "s", mfc="white", mec=cf, ms=7, alpha=alpha)
            ax.annotate(
                "δ",
                (e.k_delta, e.R),
                textcoords="offset points",
                xytext=(4, 4),
                color=cf,
            )
        if e.M <= e.n:
            ax.plot(
                [e.n - e.M], [e.M / e.Z], "s", mfc="white", mec=cg, ms=7, alpha=alpha
            )
            ax.annotate(
                "π",
                (e.n - e.M, e.M / e.Z),
                textcoords="offset points",
                xytext=(-12, 4),
                color=cg,
            )
    if intersection:
        ax.plot(
            [e.k],
            [e.ms_throughput],
            "X",
            color="black",
            ms=9,
            alpha=alpha,
            label=names[2],
        )
    return e


def cs_axis(ax, n, label: str = "threads in CS, x = n − k"):
    """Add the top axis that counts the threads in the computation system,
    ``x = n − k``."""
    top = ax.secondary_xaxis("top", functions=(lambda k: n - k, lambda x: n - x))
    top.set_xlabel(label)
    return top


def label_axes(ax, title: str, n=None) -> None:
    """Label a transit figure's axes (threads in MS, GB/s per SM) and, given ``n``, add
    the CS axis on top."""
    plotting.label(
        ax,
        "threads in MS, k",
        "threads/SM",
        "MS throughput",
        "GB/s per SM",
        title=title,
    )
    if n is not None:
        cs_axis(ax, n, "threads in CS, x = n − k (threads/SM)")


def demand_and_supply(axes, machine, n_max: int = 2000) -> float:
    """Figs. 3–4: the CS demand ``min(x, M)`` (``axes[0]``), the MS demand ``g(x)`` for
    Z = 1 and 2 (``axes[1]``) and the MS supply (``axes[2]``): the roofline ``f(k)``
    beside the closed-network curve of queueing theory, with an inset near δ.
    ``machine`` is a :class:`~gpumodels.papers.transit.machine.Machine`. Returns how far
    the closed-network curve lies below the roofline corner at δ (a fraction of ``R``).
    """

    m = machine
    x = np.linspace(0, n_max / 2, 501)
    a, b, c = axes
    plotting.model(a, x, np.minimum(x, m.M), label="G(x) = min(x, M) (model)")
    a.axvline(m.M, color="0.5", linewidth=0.8, linestyle=":")
    plotting.label(
        a,
        "threads in CS, x",
        "threads/SM",
        "CS service demand",
        "busy lanes",
        title="CS demand",
    )
    for Z, col in ((1.0, plotting.PALETTE[1]), (2.0, plotting.PALETTE[2])):
        plotting.model(
            b,
            x,
            demand(x, m.model_Z(Z), m.M),
            color=col,
            label=f"g(x), Z = {Z:g} instr/B (model)",
        )
    plotting.label(
        b,
        "threads in CS, x",
        "threads/SM",
        "MS service demand",
        "GB/s per SM",
        title="MS demand",
    )
    k = np.arange(0, n_max + 1)
    plotting.model(c, k, supply(k, m.R, m.k_delta), label="roofline f(k) (model)")
    plotting.model(
        c,
        k,
        closed_network_supply(k, m.R, m.k_delta),
        linestyle="--",
        label="closed-network curve (queueing theory, model)",
    )
    c.plot([m.k_delta], [m.R], "s", mfc="white", mec="black", ms=7)
    c.annotate("δ", (m.k_delta, m.R), textcoords="offset points", xytext=(4, -14))
    plotting.label(
        c,
        "threads in MS, k",
        "threads/SM",
        "MS service supply",
        "GB/s per SM",
        title="MS supply",
    )
    zoom = c.inset_axes([0.45, 0.36, 0.5, 0.36])
    near = k[(k > m.k_delta - 150) & (k < m.k_delta + 150)]
    zoom.plot(near, supply(near, m.R, m.k_delta), color=plotting.PALETTE[0])
    zoom.plot(
        near,
        closed_network_supply(near, m.R, m.k_delta),
        "--",
        color=plotting.PALETTE[1],
    )
    zoom.set_title("near δ")
    zoom.locator_params(nbins=3)
    for ax in (a, b):
        ax.legend(loc="lower right")
    c.legend(loc="lower right")
    return float(1 - closed_network_supply(int(m.k_delta), m.R, m.k_delta) / m.R)


#: The cases of Figs. 11–16, each (figure, the bound and the paper's lever, n, Z, the
#: input raised, by how much).
LEVER_CASES = (
    ("Fig. 11", "thread → computation: raise n", 500, 2.0, "n", 2.0),
    ("Fig. 12", "thread: raise Z", 500, 1.0, "Z", 2.0),
    ("Fig. 13", "memory: raise Z", 1536, 0.6, "Z", 2.0),
    ("Fig. 14", "memory: raise R", 1536, 1.0, "R", 1.4),
    ("Fig. 15", "computation: raise M", 1536, 3.0, "M", 1.5),
    ("Fig. 16", "computation: raise Z (no gain)", 1536, 3.0, "Z", 1.5),
)


def levers(axes, machine, cases=LEVER_CASES):
    """Figs. 11–16: for each case, the transit figure before (grey) and after the lever
    (blue), one panel each, titled with the bound and the lever, and one legend for the
    figure below the panels; returns a table of the bounds and the MS and CS throughputs
    before and after (CS throughput = Z × MS throughput, with the raised Z after a Z
    lever)."""
    from matplotlib.lines import Line2D

    rows = []
    for ax, (name, story, n, Z, lever, f) in zip(np.ravel(axes), cases):
        p = machine.inputs(n, Z)
        b = draw(ax, **p, color="0.55", marks=False, brief=True)
        a = draw(
            ax,
            **raised(**p, direction=lever, factor=f),
            color=plotting.PALETTE[0],
            brief=True,
        )
        cs_b, cs_a = (
            Z * b.ms_throughput,
            Z * (f if lever == "Z" else 1) * a.ms_throughput,
        )
        label_axes(ax, story.replace(f"raise {lever}", f"raise {lever} × {f:g}"))
        ax.set_xlim(0, n * (f if lever == "n" else 1))
        rows.append(
            {
                "figure": name,
                "lever": f"{lever} × {f:g}",
                "bound before": b.bound,
                "bound after": a.bound,
                "MS before → after (GB/s per SM)": f"{b.ms_throughput:.2f} → "
                f"{a.ms_throughput:.2f}",
                "CS before → after (G instr/s per SM)": f"{cs_b:.2f} → {cs_a:.2f}",
            }
        )
    handles = [
        Line2D([], [], color="0.55", label="before the lever (f solid, g dashed)"),
        Line2D([], [], color=plotting.PALETTE[0], label="after the lever"),
        Line2D(
            [],
            [],
            color="black",
            marker="X",
            linestyle="none",
            markersize=8,
            label="equilibrium",
        ),
    ]
    np.ravel(axes)[0].figure.legend(
        handles=handles, loc="outside lower center", ncols=3
    )
    return pd.DataFrame(rows)
