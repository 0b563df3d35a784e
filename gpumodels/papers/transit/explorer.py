"""Explorer of the Transit model (live kernel only): the transit figure and its
equilibrium as n, Z, R and M move."""

from __future__ import annotations

from gpumodels.ground import plotting, widgets
from gpumodels.papers import transit
from gpumodels.papers.transit import figures as tfig


def summary_html(
    n: float, Z: float, R: float, k_delta: float, M: float, units: str = "GB/s per SM"
) -> str:
    """HTML summary of one Transit equilibrium: k, x, both throughputs, the bound and
    what helps."""

    e = transit.equilibrium(n, Z, R, k_delta, M)
    helps = transit.directions(n, Z, R, k_delta, M)
    rows = [
        ("threads in MS, k", f"{e.k:.1f}", "threads"),
        ("threads in CS, x", f"{e.x:.1f}", "threads"),
        ("MS throughput f(k) = g(x)", f"{e.ms_throughput:.4g}", units),
        (
            "CS throughput Z·T (busy lanes)",
            f"{e.cs_throughput:.4g}",
            f"of M = {M:g} lanes",
        ),
        ("bound (§2.4)", e.bound, ""),
        (
            "raising one of these raises CS throughput",
            ", ".join(helps) or "none alone",
            "",
        ),
    ]
    head = (
        f"<b>Transit: n = {n:g}, Z = {Z:g}, δ = ({k_delta:g}, {R:g}), "
        f"π = ({M:g}, {M / Z:.4g}); L = k_delta/R = {k_delta / R:.4g}</b>"
    )
    return head + widgets.table_html(rows, ("quantity", "value", "unit"))


def explorer(gpu: str = "C2075", precision: str = "DP"):
    """Sliders for n, Z, R and M on one machine of §3:
    the transit figure and its equilibrium.

    ``Z`` is in thread-instructions per DRAM byte and is converted to the model's units
    with the machine's ``π`` (:meth:`gpumodels.papers.transit.machine.Machine.model_Z`);
    raising ``R`` keeps the latency ``L = k_delta/R`` fixed, as §2.3 does.
    """
    import ipywidgets as W

    m = transit.machine(gpu, precision)
    L = m.k_delta / m.R
    n = W.IntSlider(
        value=int(m.k_delta),
        min=32,
        max=4 * int(m.k_delta),
        step=32,
        description="n (threads)",
    )
    Z = W.FloatLogSlider(
        value=m.balance_Z,
        base=10,
        min=-1.5,
        max=2,
        step=0.02,
        description="Z (instr/B)",
    )
    R = W.FloatSlider(
        value=m.R, min=m.R / 4, max=4 * m.R, step=m.R / 40, description="R (GB/s)"
    )
    M = W.IntSlider(
        value=int(m.M), min=32, max=4 * int(m.M), step=32, description="M (threads)"
    )

    def args():
        # Z in model units stays Z / (π_y/M): the per-lane rate π_y/M is fixed as M
        # moves
        return dict(
            m.inputs(n.value, Z.value), R=R.value, k_delta=R.value * L, M=M.value
        )

    def draw(ax):
        tfig.draw(ax, **args())
        plotting.label(
            ax,
            "threads in MS, k",
            "threads/SM",
            "MS throughput",
            "GB/s per SM",
            title=f"{m.gpu} {m.precision}: transit figure (model)",
        )
        ax.legend()

    return widgets.figure_explorer(
        [n, Z, R, M], lambda: summary_html(**args()), draw, height=3.6
    )
