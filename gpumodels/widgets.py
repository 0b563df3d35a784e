"""Interactive explorers for readers who run the notebooks (JupyterLab with ipywidgets).

Widgets need a live kernel: in the static HTML book they do not work, so every explorer sits
next to a static figure or table that tells the same story. The HTML each widget shows is
built by plain functions (``gpu_summary_html``, ``occupancy_summary_html``) that the tests call.
"""

from __future__ import annotations

import html
import math

from . import hardware, occupancy as occ
from .errors import UnknownNameError


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


def volkov_summary_html(gpu: str, alpha: float, n: float) -> str:
    """HTML summary of Volkov's §4.1 model at one point: throughputs, bounds, needed occupancy."""
    import numpy as np

    from . import volkov

    p = volkov.params(gpu)
    x = volkov.memory_throughput(p, n, alpha)
    xr = volkov.refined_memory_throughput(p, n, alpha)
    rows = [
        ("latency bound n / Latency", f"{n / volkov.latency(p, alpha):.4f}" if np.isfinite(alpha) else "0", "IPC/SM (loads)"),
        ("memory limit mem_thru", f"{p.mem_thru:.4f}", "IPC/SM (loads)"),
        ("add limit alu_thru / α", f"{p.alu_thru / alpha:.4f}" if alpha > 0 else "no limit", "IPC/SM (loads)"),
        ("issue limit issue_thru / (α+1)", f"{p.issue_thru / (alpha + 1):.4f}", "IPC/SM (loads)"),
        ("memory throughput (basic model)", f"{x:.4f}  = {x * p.gbs_per_ipc:.1f} GB/s", "IPC/SM"),
        ("memory throughput (refined, §6.5)", f"{xr:.4f}  = {xr * p.gbs_per_ipc:.1f} GB/s", "IPC/SM"),
        ("arithmetic throughput (basic)", f"{volkov.arithmetic_throughput(p, n, alpha):.2f}", "adds/cycle/SM"),
        ("binding throughput limit", volkov.binding_limit(p, alpha), ""),
        ("needed occupancy (basic, 100%)", f"{volkov.needed_occupancy(p, alpha):.1f}", "warps/SM"),
        ("needed occupancy (refined, 90%)", f"{volkov.refined_needed_occupancy(p, alpha, 0.9):.1f}", "warps/SM"),
    ]
    head = (f"<b>{html.escape(p.gpu)} ({html.escape(p.product)}), α = {alpha:g} adds per load, "
            f"n = {n:g} warps/SM (of {p.max_warps_per_sm})</b>")
    return head + _table_html(rows, ("quantity", "value", "unit"))


def volkov_explorer(gpu: str = "Maxwell"):
    """GPU, α and occupancy controls: the cusp plot with the chosen point, and the numbers behind it."""
    import ipywidgets as W
    import matplotlib.pyplot as plt
    import numpy as np

    from . import plotting, volkov

    pick = W.Dropdown(options=list(volkov.GENERATIONS), value=volkov.params(gpu).gpu, description="GPU")
    alpha = W.FloatLogSlider(value=16, base=10, min=-2, max=4, step=0.05, description="α (adds/load)")
    n = W.IntSlider(value=16, min=1, max=64, description="warps/SM")
    html_out, plot_out = W.HTML(), W.Output()
    grid = np.geomspace(0.01, 1e4, 400)

    def update(*_):
        p = volkov.params(pick.value)
        n.max = p.max_warps_per_sm
        html_out.value = volkov_summary_html(pick.value, alpha.value, n.value)
        with plot_out:
            plot_out.clear_output(wait=True)
            fig, ax = plotting.figure(width=6.0, height=3.4)
            plotting.model(ax, grid, volkov.needed_occupancy(p, grid), label="basic model, 100% of peak")
            plotting.model(ax, grid, volkov.refined_needed_occupancy(p, grid, 0.9), label="refined model, 90%",
                           linestyle="--")
            ax.axvline(alpha.value, color="0.5", linewidth=1)
            ax.axhline(n.value, color="0.5", linewidth=1, linestyle=":")
            ax.set_xscale("log")
            plotting.label(ax, "arithmetic intensity α", "adds per load", "needed occupancy", "warps/SM",
                           title=f"{p.gpu}: occupancy needed to hide latency (model)")
            ax.legend()
            plt.show()

    for w in (pick, alpha, n):
        w.observe(update, names="value")
    update()
    return W.VBox([pick, alpha, n, html_out, plot_out])


def hong_kim_summary_html(gpu: str, warps: int, comp_insts: float, mem_insts: float, coalesced_share: float) -> str:
    """HTML summary of Hong & Kim's model at one point: MWP and its limits, CWP, the case and the time."""
    from . import hong_kim

    r = hong_kim.predict(**hong_kim.explorer_inputs(gpu, warps, comp_insts, mem_insts, coalesced_share))
    rows = [
        ("N (active warps per SM)", f"{r.n}", "warps"),
        ("MWP_without_BW (latency / departure delay)", f"{r.mwp_without_bw:.2f}", "warps"),
        ("MWP_peak_BW (bandwidth)", f"{r.mwp_peak_bw:.2f}", "warps"),
        ("MWP", f"{r.mwp:.2f}", "warps"),
        ("CWP", f"{r.cwp:.2f}", "warps"),
        ("case", f"Eq. ({r.equation}): {r.regime}", ""),
        ("Exec_cycles_app (per SM)", f"{r.exec_cycles_app:,.0f}", "cycles"),
        ("CPI (Eq. 25)", f"{r.cpi:.2f}", "cycles per warp instruction"),
        ("issue bound Comp_cycles x N", f"{r.issue_bound_cycles:,.0f}", "cycles"),
    ]
    head = (f"<b>{html.escape(gpu)}: {comp_insts:g} computation and {mem_insts:g} memory instructions per thread, "
            f"{100 * coalesced_share:.0f}% coalesced (model)</b>")
    return head + _table_html(rows, ("quantity", "value", "unit"))


def hong_kim_explorer(gpu: str = "FX5600"):
    """GPU, warps per SM, instruction mix and coalescing: MWP, CWP, the case of §3.4.2 and the time."""
    import ipywidgets as W
    import matplotlib.pyplot as plt

    from . import hong_kim, plotting

    pick = W.Dropdown(options=hong_kim.machines(), value=gpu, description="GPU")
    n = W.IntSlider(value=8, min=1, max=32, description="warps/SM")
    comp = W.IntSlider(value=40, min=0, max=400, description="comp insts")
    mem = W.IntSlider(value=4, min=0, max=40, description="mem insts")
    share = W.FloatSlider(value=1.0, min=0.0, max=1.0, step=0.05, description="coalesced")
    html_out, plot_out = W.HTML(), W.Output()

    def update(*_):
        if comp.value + mem.value == 0:
            comp.value = 1
            return
        html_out.value = hong_kim_summary_html(pick.value, n.value, comp.value, mem.value, share.value)
        warps = list(range(1, 33))
        preds = [hong_kim.predict(**hong_kim.explorer_inputs(pick.value, w, comp.value, mem.value, share.value))
                 for w in warps]
        with plot_out:
            plot_out.clear_output(wait=True)
            fig, ax = plotting.figure(width=6.0, height=3.2)
            plotting.model(ax, warps, [p.cpi for p in preds], label="CPI (model)")
            ax.axvline(n.value, color="0.5", linewidth=1)
            plotting.label(ax, "active warps per SM N", "warps", "CPI", "cycles per warp instruction",
                           title=f"{pick.value}: Hong & Kim model")
            ax.legend()
            plt.show()

    for w in (pick, n, comp, mem, share):
        w.observe(update, names="value")
    update()
    return W.VBox([pick, n, comp, mem, share, html_out, plot_out])


def prior_summary_html(models, gpu: str, alpha: float) -> str:
    """HTML table: each chosen model's quotient range estimate / simulated reference at one α (§7.9)."""
    from . import prior, volkov

    p = volkov.params(gpu)
    rows = []
    for m in models:
        e = prior.errors(m, p, alphas=(alpha,)).iloc[0]
        rows.append((prior.LABELS[m], f"{e.q_min:.3f} … {e.q_max:.3f}",
                     f"{e.flagged} flagged" if e.flagged else ""))
    head = (f"<b>{html.escape(p.gpu)} ({html.escape(p.product)}), α = {alpha:g}: estimate / simulated reference "
            f"at {len(prior.reference.occupancies(p))} occupancies</b>")
    return head + _table_html(rows, ("model", "quotient range", "impossible outputs"))


def _models_explorer(models, pick, alpha, summary, draw):
    """Wire a models × GPU × α explorer: ``summary(chosen, gpu, alpha)`` gives the HTML above the
    figure, ``draw(ax, chosen, gpu, alpha)`` draws it (the chosen models, Volkov basic if none)."""
    import ipywidgets as W
    import matplotlib.pyplot as plt

    from . import plotting

    html_out, plot_out = W.HTML(), W.Output()

    def update(*_):
        chosen = tuple(models.value) or ("volkov_basic",)
        html_out.value = summary(chosen, pick.value, alpha.value)
        with plot_out:
            plot_out.clear_output(wait=True)
            fig, ax = plotting.figure(width=6.4, height=3.8)
            draw(ax, chosen, pick.value, alpha.value)
            ax.legend(fontsize=7)
            plt.show()

    for w in (models, pick, alpha):
        w.observe(update, names="value")
    update()
    return W.VBox([W.HBox([models, W.VBox([pick, alpha])]), html_out, plot_out])


def prior_explorer(gpu: str = "Fermi"):
    """Pick models, GPU and α: throughput vs occupancy of each model over the simulated reference."""
    import ipywidgets as W

    from . import prior, volkov

    models = W.SelectMultiple(options=[(prior.LABELS[k], k) for k in prior.MODELS],
                              value=("sim2012", "volkov_basic"), description="models", rows=9)
    pick = W.Dropdown(options=list(volkov.GENERATIONS), value=volkov.params(gpu).gpu, description="GPU")
    alpha = W.SelectionSlider(options=list(prior.reference.ALPHAS), value=32, description="α (adds/load)")
    return _models_explorer(models, pick, alpha, lambda c, g, a: prior_summary_html(list(c), g, a),
                            lambda ax, c, g, a: prior.compare.plot_panel(ax, list(c), volkov.params(g), a))


def modern_summary_html(gpu: str, models, fraction: float = 0.9) -> str:
    """HTML table: each chosen model's occupancy for ``fraction`` of its own peak at α = 0 and its
    cusp on a modern GPU, default parameters and range over sources (:func:`gpumodels.volkov.modern.model_table`)."""
    from .volkov import modern

    rows = []
    for r in modern.model_table((gpu,), tuple(models), fraction):
        if r["note"]:
            rows.append((r["label"], "not evaluated", r["note"]))
            continue
        need = "no peak" if math.isnan(r["alpha0"]) else f"{r['alpha0']:.1f} ({r['alpha0_lo']:.1f}–{r['alpha0_hi']:.1f})"
        cusp = ("no peak at some α" if math.isnan(r["cusp_warps"]) else
                f"{r['cusp_warps']:.1f} warps at α = {r['cusp_alpha']:.3g}" if r["is_cusp"] else
                f"no cusp (max {r['cusp_warps']:.1f} warps)")
        rows.append((r["label"], need, cusp))
    head = f"<b>{html.escape(modern.gpu_name(gpu))}: occupancy for {fraction:.0%} of each model's own peak (warps/SM)</b>"
    return head + _table_html(rows, ("model", "α = 0 (range over sources)", "cusp"))


def modern_explorer(gpu: str = "H100 PCIe"):
    """Pick a modern GPU, α and models: throughput vs occupancy of each model with its band over the
    sourced latencies and bandwidths, and the needed occupancy and cusp of each."""
    import ipywidgets as W

    from .volkov import modern

    models = W.SelectMultiple(options=[(modern.label(k), k) for k in modern.MODELS],
                              value=("sim2012", "volkov_basic", "transit2015"), description="models", rows=10)
    pick = W.Dropdown(options=list(modern.GPUS), value=modern.gpu_name(gpu), description="GPU")
    alpha = W.SelectionSlider(options=[0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, float("inf")],
                              value=16.0, description="α (adds/load)")
    return _models_explorer(models, pick, alpha, lambda c, g, a: modern_summary_html(g, c),
                            lambda ax, c, g, a: modern.plot_models([ax], g, (a,), c))


def transit_summary_html(n: float, Z: float, R: float, k_delta: float, M: float, units: str = "GB/s per SM") -> str:
    """HTML summary of one Transit equilibrium: k, x, both throughputs, the bound and what helps."""
    from . import transit

    e = transit.equilibrium(n, Z, R, k_delta, M)
    helps = transit.directions(n, Z, R, k_delta, M)
    rows = [
        ("threads in MS, k", f"{e.k:.1f}", "threads"),
        ("threads in CS, x", f"{e.x:.1f}", "threads"),
        ("MS throughput f(k) = g(x)", f"{e.ms_throughput:.4g}", units),
        ("CS throughput Z·T (busy lanes)", f"{e.cs_throughput:.4g}", f"of M = {M:g} lanes"),
        ("bound (§2.4)", e.bound, ""),
        ("raising one of these raises CS throughput", ", ".join(helps) or "none alone", ""),
    ]
    head = (f"<b>Transit: n = {n:g}, Z = {Z:g}, δ = ({k_delta:g}, {R:g}), π = ({M:g}, {M / Z:.4g}); "
            f"L = k_delta/R = {k_delta / R:.4g}</b>")
    return head + _table_html(rows, ("quantity", "value", "unit"))


def transit_explorer(gpu: str = "C2075", precision: str = "DP"):
    """Sliders for n, Z, R and M on one machine of §3: the transit figure and its equilibrium.

    ``Z`` is in thread-instructions per DRAM byte and is converted to the model's units with the
    machine's ``π`` (:meth:`gpumodels.transit.machine.Machine.model_Z`); raising ``R`` keeps the latency
    ``L = k_delta/R`` fixed, as §2.3 does.
    """
    import ipywidgets as W
    import matplotlib.pyplot as plt

    from . import plotting, transit
    from .transit import figure as tfig

    m = transit.machine(gpu, precision)
    L = m.k_delta / m.R
    n = W.IntSlider(value=int(m.k_delta), min=32, max=4 * int(m.k_delta), step=32, description="n (threads)")
    Z = W.FloatLogSlider(value=m.balance_Z, base=10, min=-1.5, max=2, step=0.02, description="Z (instr/B)")
    R = W.FloatSlider(value=m.R, min=m.R / 4, max=4 * m.R, step=m.R / 40, description="R (GB/s)")
    M = W.IntSlider(value=int(m.M), min=32, max=4 * int(m.M), step=32, description="M (threads)")
    html_out, plot_out = W.HTML(), W.Output()

    def update(*_):
        # Z in model units stays Z / (π_y/M): the per-lane rate π_y/M is fixed as M moves
        args = dict(m.inputs(n.value, Z.value), R=R.value, k_delta=R.value * L, M=M.value)
        html_out.value = transit_summary_html(**args)
        with plot_out:
            plot_out.clear_output(wait=True)
            fig, ax = plotting.figure(width=6.0, height=3.6)
            tfig.draw(ax, **args)
            plotting.label(ax, "threads in MS, k", "threads/SM", "MS throughput", "GB/s per SM",
                           title=f"{m.gpu} {m.precision}: transit figure (model)")
            ax.legend(fontsize=7)
            plt.show()

    for w in (n, Z, R, M):
        w.observe(update, names="value")
    update()
    return W.VBox([n, Z, R, M, html_out, plot_out])


def perfparams_summary_html(gpu: str) -> str:
    """HTML table of one GPU's eight Perez & Piccoli parameters, the derived features and Little's law."""
    from . import perfparams as pp

    m = pp.measured(gpu)
    f = m.features()
    ll = pp.littles_law(gpu)
    units = {"cp": "GFLOP/s", "gm": "GB/s"}
    rows = [(name, f"{value:.6g}", units[name[:2]]) for name, value in m.values().items()]
    rows += [("P (measured / theoretical)", f"{f.p:.1f} / {pp.theoretical_p(gpu):.1f}", "GFLOP/s"),
             ("B (measured / theoretical)", f"{f.b:.1f} / {pp.theoretical_b(gpu):.1f}", "GB/s"),
             ("||SM||", f"{f.sm_count:.2f}", "SMs"),
             ("N_PPipe (Little's law)", f"{f.n_ppipe:.2f} ({ll['n_ppipe']:g})", "ratio"),
             ("L_Pipe (Little's law)", f"{f.l_pipe:.2f} ({ll['l_pipe']:g})", "warps"),
             ("N_MIN_Bl", f"{f.n_min_bl:.2f}", "blocks"),
             ("W_Memory_Bus", f"{f.w_memory_bus:.2f}", "ratio"),
             ("T_Thread_Delay (at most SMs × blocks/SM)", f"{f.t_thread_delay:.1f} ({ll['t_thread_delay_max']:g})",
              "ratio")]
    return f"<b>{html.escape(gpu)}: Perez & Piccoli parameters (measured by the paper's authors)</b>" + _table_html(
        rows, ("quantity", "value", "unit"))


def perfparams_explorer(gpu: str = "GTX470"):
    """Pick one of the paper's GPUs: its eight parameters, derived features and Little's-law values."""
    import ipywidgets as W

    from . import perfparams as pp

    pick = W.Dropdown(options=pp.gpus(), value=pp.measured(gpu).gpu, description="GPU")
    out = W.HTML()

    def update(*_):
        out.value = perfparams_summary_html(pick.value)

    pick.observe(update, names="value")
    update()
    return W.VBox([pick, out])


def huang_li_summary_html(benchmark: str, test: str, variant: str = "sim2012") -> str:
    """HTML of every term of Huang & Li's T for one Table IV placement, predicted from its benchmark's sample.

    ``variant`` is one of :data:`gpumodels.huang_li.model.VARIANTS` that needs no trained overlap
    (``"sim2012"``); the Eq. 11 variants are trained in the second Huang & Li chapter.
    """
    from .huang_li import kernels, model, placements

    rows = [r for r in placements.tests(None, counted_only=False) if r["benchmark"] == benchmark]
    if not rows:
        raise UnknownNameError(f"benchmark must be one of Table IV's or vecAdd, got {benchmark!r}")
    row = next((r for r in rows if r["test"] == test), None)
    if row is None:
        raise UnknownNameError(f"test must be one of {', '.join(r['test'] for r in rows)}, got {test!r}")
    sample = next(r for r in rows if r["sample"] == "yes")
    prof = model.profile(kernels.kernel(benchmark), placements.parse_moves(sample["moves"]))
    p = model.predict(prof, placements.parse_moves(row["moves"]), variant=variant)
    a = p.analysis
    items = [("placement", ", ".join(f"{k}: {v}" for k, v in a.placement.items()), "Table IV"),
             ("#inst per warp", f"{p.inst_per_warp:.1f}", "Eq. 2 (" + model.VARIANTS[variant]["instructions"] + ")"),
             ("replays per warp, causes (1)-(4)", f"{a.replays_per_warp:.2f}", "Eq. 3"),
             ("DRAM requests", f"{a.dram_requests}", "after texture, constant and L2 caches"),
             ("row hit / miss / conflict", f"{a.row['hit']} / {a.row['miss']} / {a.row['conflict']}", "§III-C2"),
             ("DRAM_lat", f"{p.dram_lat:.0f} cycles" + (" (saturated bank, capped)" if p.saturated else ""),
              "Eqs. 6-10 (" + model.VARIANTS[variant]["dram"] + ")"),
             ("AMAT", f"{p.amat:.0f} cycles", "Eq. 5"), ("MWP / CWP", f"{p.mwp:.1f} / {p.cwp:.1f}", "Eqs. 18-19"),
             ("T_comp", f"{p.t_comp:.0f} cycles", "Eq. 2"), ("T_mem", f"{p.t_mem:.0f} cycles", "Eq. 4"),
             ("T_overlap", f"{p.t_overlap:.0f} cycles", "Sim et al. 2012 F_overlap"),
             ("copy into shared memory", f"{p.copy_cycles:.0f} cycles", "[A19]"),
             ("T", f"{p.t:.0f} cycles = {p.time_ms * 1e3:.2f} µs", "Eq. 1 (model)")]
    return f"<b>{html.escape(benchmark)}: {html.escape(test)}</b>" + _table_html(items, ("term", "value", "from"))


def huang_li_explorer(benchmark: str = "neuralnet"):
    """Pick a benchmark and one of its placements; shows every term of T (model, Sim et al. overlap)."""
    import ipywidgets as W

    from .huang_li import placements

    benches = list(dict.fromkeys(r["benchmark"] for r in placements.tests(None, counted_only=False)))
    bench = W.Dropdown(options=benches, value=benchmark, description="benchmark")
    test = W.Dropdown(description="placement")
    out = W.HTML()

    def tests_of(b):
        return [r["test"] for r in placements.tests(None, counted_only=False) if r["benchmark"] == b]

    def update(*_):
        if test.value in tests_of(bench.value):
            out.value = huang_li_summary_html(bench.value, test.value)

    def new_bench(*_):
        test.options = tests_of(bench.value)
        test.value = test.options[0]
        update()

    bench.observe(new_bench, names="value")
    test.observe(update, names="value")
    new_bench()
    return W.VBox([bench, test, out])


def huang_li_evaluation_html(variant: str = "full", benchmark: str = "neuralnet") -> str:
    """HTML table: a benchmark's counted placements, simulated reference time and the variant's prediction."""
    from .huang_li import evaluation

    ev = evaluation.run()
    t = ev.table
    if variant not in set(t["variant"]):
        raise UnknownNameError(f"variant must be one of {', '.join(dict.fromkeys(t['variant']))}, got {variant!r}")
    rows = t[(t["variant"] == variant) & (t["benchmark"] == benchmark)]
    if rows.empty:
        raise UnknownNameError(f"benchmark must be one of {', '.join(dict.fromkeys(t['benchmark']))}, got {benchmark!r}")
    cells = "".join(
        f"<tr><td>{r.test}</td><td>{r.set}</td><td>{r.reference_ns / 1e3:.2f}</td><td>{r.predicted_ns / 1e3:.2f}</td>"
        f"<td>{r.T_comp_ns / 1e3:.2f}</td><td>{r.T_mem_ns / 1e3:.2f}</td><td>{r.T_overlap_ns / 1e3:.2f}</td>"
        f"<td>{100 * r.error:.1f}</td></tr>" for r in rows.itertuples())
    return ("<table><tr><th>placement</th><th>set</th><th>simulated reference (µs)</th><th>predicted (µs)</th>"
            "<th>T_comp (µs)</th><th>T_mem (µs)</th><th>T_overlap (µs)</th><th>|error| (%)</th></tr>"
            f"{cells}</table>")


def huang_li_evaluation_explorer(variant: str = "full", benchmark: str = "neuralnet"):
    """Pick an ablation variant and a benchmark; shows every placement's prediction beside the simulated reference."""
    import ipywidgets as W

    from .huang_li import evaluation

    t = evaluation.run().table
    var = W.Dropdown(options=list(dict.fromkeys(t["variant"])), value=variant, description="variant")
    bench = W.Dropdown(options=list(dict.fromkeys(t["benchmark"])), value=benchmark, description="benchmark")
    out = W.HTML()

    def update(*_):
        out.value = huang_li_evaluation_html(var.value, bench.value)

    var.observe(update, names="value")
    bench.observe(update, names="value")
    update()
    return W.VBox([var, bench, out])
