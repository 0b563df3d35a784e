"""Explorers of Huang & Li's model (live kernel only): every term of T for a placement,
and the evaluation."""

from __future__ import annotations

import html

from gpumodels.engines.refsim import kernels, placements
from gpumodels.ground import widgets
from gpumodels.ground.errors import UnknownNameError
from gpumodels.papers.huang_li import evaluation, model


def summary_html(benchmark: str, test: str, variant: str = "sim2012") -> str:
    """HTML of every term of Huang & Li's T for one Table IV placement, predicted from
    its benchmark's sample.

    ``variant`` is one of :data:`gpumodels.papers.huang_li.model.VARIANTS` that needs no
    trained overlap (``"sim2012"``); the Eq. 11 variants are trained in the second Huang
    & Li chapter.
    """

    rows = [
        r
        for r in placements.tests(None, counted_only=False)
        if r["benchmark"] == benchmark
    ]
    if not rows:
        raise UnknownNameError(
            f"benchmark must be one of Table IV's or vecAdd, got {benchmark!r}"
        )
    row = next((r for r in rows if r["test"] == test), None)
    if row is None:
        raise UnknownNameError(
            f"test must be one of {', '.join(r['test'] for r in rows)}, got {test!r}"
        )
    sample = next(r for r in rows if r["sample"] == "yes")
    prof = model.profile(
        kernels.kernel(benchmark), placements.parse_moves(sample["moves"])
    )
    p = model.predict(prof, placements.parse_moves(row["moves"]), variant=variant)
    a = p.analysis
    items = [
        (
            "placement",
            ", ".join(f"{k}: {v}" for k, v in a.placement.items()),
            "Table IV",
        ),
        (
            "#inst per warp",
            f"{p.inst_per_warp:.1f}",
            "Eq. 2 (" + model.VARIANTS[variant]["instructions"] + ")",
        ),
        ("replays per warp, causes (1)-(4)", f"{a.replays_per_warp:.2f}", "Eq. 3"),
        (
            "DRAM requests",
            f"{a.dram_requests}",
            "after texture, constant and L2 caches",
        ),
        (
            "row hit / miss / conflict",
            f"{a.row['hit']} / {a.row['miss']} / {a.row['conflict']}",
            "§III-C2",
        ),
        (
            "DRAM_lat",
            f"{p.dram_lat:.0f} cycles"
            + (" (saturated bank, capped)" if p.saturated else ""),
            "Eqs. 6-10 (" + model.VARIANTS[variant]["dram"] + ")",
        ),
        ("AMAT", f"{p.amat:.0f} cycles", "Eq. 5"),
        ("MWP / CWP", f"{p.mwp:.1f} / {p.cwp:.1f}", "Eqs. 18-19"),
        ("T_comp", f"{p.t_comp:.0f} cycles", "Eq. 2"),
        ("T_mem", f"{p.t_mem:.0f} cycles", "Eq. 4"),
        ("T_overlap", f"{p.t_overlap:.0f} cycles", "Sim et al. 2012 F_overlap"),
        ("copy into shared memory", f"{p.copy_cycles:.0f} cycles", "[A19]"),
        ("T", f"{p.t:.0f} cycles = {p.time_ms * 1e3:.2f} µs", "Eq. 1 (model)"),
    ]
    return f"<b>{html.escape(benchmark)}: {html.escape(test)}</b>" + widgets.table_html(
        items, ("term", "value", "from")
    )


def explorer(benchmark: str = "neuralnet"):
    """Pick a benchmark and one of its placements; shows every term of T (model, Sim et
    al. overlap)."""
    import ipywidgets as W

    benches = list(
        dict.fromkeys(
            r["benchmark"] for r in placements.tests(None, counted_only=False)
        )
    )
    bench = W.Dropdown(options=benches, value=benchmark, description="benchmark")
    test = W.Dropdown(description="placement")
    out = W.HTML()

    def tests_of(b):
        return [
            r["test"]
            for r in placements.tests(None, counted_only=False)
            if r["benchmark"] == b
        ]

    def update(*_):
        if test.value in tests_of(bench.value):
            out.value = summary_html(bench.value, test.value)

    def new_bench(*_):
        test.options = tests_of(bench.value)
        test.value = test.options[0]
        update()

    bench.observe(new_bench, names="value")
    test.observe(update, names="value")
    new_bench()
    return widgets.explorer_box([bench, test], out)


def evaluation_html(variant: str = "full", benchmark: str = "neuralnet") -> str:
    """HTML table: a benchmark's counted placements, simulated reference time and the
    variant's prediction."""

    ev = evaluation.run()
    t = ev.table
    if variant not in set(t["variant"]):
        raise UnknownNameError(
            f"variant must be one of {', '.join(dict.fromkeys(t['variant']))}, got "
            f"{variant!r}"
        )
    rows = t[(t["variant"] == variant) & (t["benchmark"] == benchmark)]
    if rows.empty:
        raise UnknownNameError(
            f"benchmark must be one of {', '.join(dict.fromkeys(t['benchmark']))}, got "
            f"{benchmark!r}"
        )
    cells = "".join(
        f"<tr><td>{r.test}</td><td>{r.set}</td>"
        f"<td>{r.reference_ns / 1e3:.2f}</td><td>{r.predicted_ns / 1e3:.2f}</td>"
        f"<td>{r.T_comp_ns / 1e3:.2f}</td><td>{r.T_mem_ns / 1e3:.2f}</td>"
        f"<td>{r.T_overlap_ns / 1e3:.2f}</td><td>{100 * r.error:.1f}</td></tr>"
        for r in rows.itertuples()
    )
    return (
        "<table><tr><th>placement</th><th>set</th>"
        "<th>simulated reference (µs)</th><th>predicted (µs)</th>"
        "<th>T_comp (µs)</th><th>T_mem (µs)</th><th>T_overlap (µs)</th>"
        "<th>|error| (%)</th></tr>"
        f"{cells}</table>"
    )


def evaluation_explorer(variant: str = "full", benchmark: str = "neuralnet"):
    """Pick an ablation variant and a benchmark; shows every placement's prediction
    beside the simulated reference."""
    import ipywidgets as W

    t = evaluation.run().table
    var = W.Dropdown(
        options=list(dict.fromkeys(t["variant"])), value=variant, description="variant"
    )
    bench = W.Dropdown(
        options=list(dict.fromkeys(t["benchmark"])),
        value=benchmark,
        description="benchmark",
    )
    out = W.HTML()

    def update(*_):
        out.value = evaluation_html(var.value, bench.value)

    var.observe(update, names="value")
    bench.observe(update, names="value")
    update()
    return widgets.explorer_box([var, bench], out)
