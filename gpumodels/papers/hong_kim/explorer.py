"""Explorer of Hong & Kim's model (live kernel only): MWP, CWP, the case and the time at
one point.

The HTML comes from :func:`summary_html`, which the tests call; the static chapter shows
the same numbers.
"""

from __future__ import annotations

import html

from gpumodels.ground import plotting, widgets
from gpumodels.papers import hong_kim


def summary_html(
    gpu: str, warps: int, comp_insts: float, mem_insts: float, coalesced_share: float
) -> str:
    """HTML summary of Hong & Kim's model at one point: MWP and its limits, CWP, the
    case and the time."""

    r = hong_kim.predict(
        hong_kim.explorer_inputs(gpu, warps, comp_insts, mem_insts, coalesced_share)
    )
    rows = [
        ("N (active warps per SM)", f"{r.n}", "warps"),
        (
            "MWP_without_BW (latency / departure delay)",
            f"{r.mwp_without_bw:.2f}",
            "warps",
        ),
        ("MWP_peak_BW (bandwidth)", f"{r.mwp_peak_bw:.2f}", "warps"),
        ("MWP", f"{r.mwp:.2f}", "warps"),
        ("CWP", f"{r.cwp:.2f}", "warps"),
        ("case", f"Eq. ({r.equation}): {r.regime}", ""),
        ("Exec_cycles_app (per SM)", f"{r.exec_cycles_app:,.0f}", "cycles"),
        ("CPI (Eq. 25)", f"{r.cpi:.2f}", "cycles per warp instruction"),
        ("issue bound Comp_cycles x N", f"{r.issue_bound_cycles:,.0f}", "cycles"),
    ]
    head = (
        f"<b>{html.escape(gpu)}: {comp_insts:g} computation and {mem_insts:g} memory "
        "instructions per thread, "
        f"{100 * coalesced_share:.0f}% coalesced (model)</b>"
    )
    return head + widgets.table_html(rows, ("quantity", "value", "unit"))


def explorer(gpu: str = "FX5600"):
    """GPU, warps per SM, instruction mix and coalescing: MWP, CWP, the case of §3.4.2
    and the time."""
    import ipywidgets as W

    pick = W.Dropdown(options=hong_kim.machines(), value=gpu, description="GPU")
    n = W.IntSlider(value=8, min=1, max=32, description="warps/SM")
    comp = W.IntSlider(value=40, min=0, max=400, description="comp insts")
    mem = W.IntSlider(value=4, min=0, max=40, description="mem insts")
    share = W.FloatSlider(
        value=1.0, min=0.0, max=1.0, step=0.05, description="coalesced"
    )

    def summary():
        if comp.value + mem.value == 0:
            comp.value = 1  # a kernel needs an instruction; this change redraws
            return None
        return summary_html(pick.value, n.value, comp.value, mem.value, share.value)

    def draw(ax):
        warps = list(range(1, 33))
        preds = [
            hong_kim.predict(
                hong_kim.explorer_inputs(
                    pick.value, w, comp.value, mem.value, share.value
                )
            )
            for w in warps
        ]
        plotting.model(ax, warps, [p.cpi for p in preds], label="CPI (model)")
        ax.axvline(n.value, color="0.5", linewidth=1)
        plotting.label(
            ax,
            "active warps per SM N",
            "warps",
            "CPI",
            "cycles per warp instruction",
            title=f"{pick.value}: Hong & Kim model",
        )
        ax.legend()

    return widgets.figure_explorer(
        [pick, n, comp, mem, share], summary, draw, height=3.2
    )
