"""Interactive explorers for readers who run the notebooks (JupyterLab with ipywidgets).

Widgets need a live kernel: in the static HTML book they do not work, so every explorer sits
next to a static figure or table that tells the same story. The HTML each widget shows is
built by plain functions (``gpu_summary_html``, ``occupancy_summary_html``) that the tests call.
"""

from __future__ import annotations

import html

from . import hardware, occupancy as occ


def _table_html(rows: list[tuple[str, str, str]], header: tuple[str, str, str]) -> str:
    head = "".join(f"<th style='text-align:left'>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td style='text-align:left'>{html.escape(str(c))}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def gpu_summary_html(name: str) -> str:
    """An HTML table of one GPU's attributes with units and sources."""
    g = hardware.get_gpu(name)
    t = hardware.table([g.name])
    rows = [(r.attribute, f"{r.value} {r.unit}".strip(), r.source) for r in t.itertuples()]
    return f"<b>{html.escape(g.full_name)}</b>" + _table_html(rows, ("attribute", "value", "source"))


def occupancy_summary_html(o: occ.Occupancy) -> str:
    """An HTML summary of an :class:`~gpumodels.occupancy.Occupancy` result."""
    lim = occ.limits(o.cc)
    rows = [(k.replace("_", " "), "no limit" if v is None else f"{v} blocks", "limiting" if k in o.limiters else "")
            for k, v in o.limits.items()]
    head = (f"<b>{o.blocks_per_sm} blocks/SM = {o.warps_per_sm} of {lim.max_warps_per_sm} warps/SM "
            f"({100 * o.occupancy:.1f}% occupancy)</b>; allocated per block: "
            f"{o.allocated_registers_per_block} registers, {o.allocated_shared_mem_per_block} B shared memory")
    return head + _table_html(rows, ("resource", "blocks it allows", ""))


def gpu_explorer():
    """Dropdown of all GPUs; shows the chosen GPU's attributes and their sources."""
    import ipywidgets as W

    pick = W.Dropdown(options=hardware.list_gpus(), value="GTX680", description="GPU")
    out = W.HTML(gpu_summary_html(pick.value))
    pick.observe(lambda change: setattr(out, "value", gpu_summary_html(change["new"])), names="value")
    return W.VBox([pick, out])


def occupancy_explorer(cc: str = "8.0"):
    """Sliders for block size, registers and shared memory; shows blocks, warps and the limiting resource."""
    import ipywidgets as W

    ccs = occ.list_compute_capabilities()
    cc_w = W.Dropdown(options=ccs, value=occ.normalize_cc(cc), description="cc")
    tpb = W.IntSlider(value=256, min=32, max=1024, step=32, description="threads/block")
    regs = W.IntSlider(value=32, min=0, max=255, description="registers/thread")
    smem = W.IntSlider(value=0, min=0, max=49152, step=128, description="shared B/block")
    out = W.HTML()

    def update(*_):
        lim = occ.limits(cc_w.value)
        tpb.max, regs.max, smem.max = lim.max_threads_per_block, lim.max_registers_per_thread, lim.max_shared_mem_per_block
        out.value = occupancy_summary_html(occ.occupancy(cc_w.value, tpb.value, regs.value, smem.value))

    for w in (cc_w, tpb, regs, smem):
        w.observe(update, names="value")
    update()
    return W.VBox([cc_w, tpb, regs, smem, out])
