"""Volkov (2016), chapters 2–7:
the function behind every printed value the book re-derives.

Each producer returns ``{published key: computed value}``; keys are those of
``data/published/published_values.csv``. Inputs come from ``data/`` through the
package's public functions; nothing here types a printed number.
"""

from __future__ import annotations

import numpy as np

from gpumodels.engines import sim
from gpumodels.facts import hardware, occupancy
from gpumodels.papers import volkov
from gpumodels.papers.volkov import experiment as ex
from gpumodels.papers.volkov import memory_wall as mw
from gpumodels.papers.volkov import parameters as p6

GPUS = {
    "G80": "8800GTX",
    "GT200": "GTX280",
    "Fermi": "GTX480",
    "Kepler": "GTX680",
    "Maxwell": "GTX980",
}


def _p(gen: str):
    return volkov.params(gen)


def chapter_2() -> dict[str, float]:
    """Tables 2.8 and 2.9:
    warps per scheduler and absolute occupancy from the GPU records."""
    out = {}
    for g in GPUS.values():
        gpu = hardware.get_gpu(g)
        out[f"v16.t2_8.warps_per_scheduler.{g}"] = gpu.warps_per_scheduler
        out |= {
            f"v16.t2_9.warps.{g}.{pct}%": gpu.max_warps_per_sm * pct / 100
            for pct in (100, 50, 25, 12.5)
        }
    return out


ADD_IPC_KEYS = {
    "a": "v16.s3_2.add_ipc.1",
    "b": "v16.s3_2.add_ipc.2",
    "c": "v16.s3_2.add_ipc.3",
    "d": "v16.s3_2.add_ipc.0_5",
}
"""The published key of each of §3.2's four add throughputs, by the example's tag in
``data/volkov/s3_examples.csv``."""


def littles_law_examples() -> dict[str, float]:
    """§3.1–3.3: Fig. 3.1's throughput and concurrency, §3.2's IPCs, §3.3's warps for 30
    loads in flight."""
    e = volkov.worked_example_inputs()
    t31 = volkov.table_3_1().set_index("instruction")
    lat, mem_needed = (
        t31.loc["basic_arithmetic", "latency"],
        t31.loc["memory_access", "needed_concurrency"],
    )
    thr = e["fig3_1_items"] / e["fig3_1_interval"]
    out = {
        "v16.s3_1.throughput.fig3_1": thr,
        "v16.s3_1.concurrency.fig3_1": volkov.littles_law(
            latency=e["fig3_1_mean_latency"], throughput=thr
        ),
    }
    for tag, key in ADD_IPC_KEYS.items():
        out[key] = volkov.littles_law(
            latency=lat, concurrency=e[f"s3_2_in_execution_{tag}"]
        )
    gpu = hardware.get_gpu("Maxwell")
    out["v16.s3_2.add_peak_ipc.GTX980"] = gpu.cuda_cores_per_sm / volkov.WARP_SIZE
    out["v16.s3_3.warps_with_ilp.GTX980"] = mem_needed / e["s3_3_ilp"]
    out["v16.s3_3.warps_with_mix.GTX980"] = mem_needed / e["fig3_2_share"]
    out |= fig_3_2_concurrency()
    return out


def fig_3_2_concurrency() -> dict[str, float]:
    """Fig. 3.2 simulated: 3 warps alternating an add and a load of equal latency, mean
    instructions in execution."""
    trace = volkov.fig_3_2_trace(400)
    steady = np.arange(100, 400)
    return {
        "v16.s3_3.alu_in_execution.fig3_2": float(
            trace.concurrency("alu", steady).mean()
        ),
        "v16.s3_3.mem_in_execution.fig3_2": float(
            trace.concurrency("mem", steady).mean()
        ),
    }


def pin_bandwidth_shares() -> dict[str, float]:
    """§3.2's "3 to 20 %" below pin bandwidth and §6.3's "80 to 97 %" of it (Table 6.4
    vs Table 2.7)."""
    t64 = p6.table("6.4")
    share = {
        g: t64.loc[g, "peak"] / hardware.get_gpu(prod).pin_bandwidth_gbs
        for g, prod in GPUS.items()
    }
    pct = 100 * np.array(list(share.values()))
    return {
        "v16.s3_2.pin_shortfall_min": float(100 - pct.max()),
        "v16.s3_2.pin_shortfall_max": float(100 - pct.min()),
        "v16.s6_3.pct_of_pin_min": float(pct.min()),
        "v16.s6_3.pct_of_pin_max": float(pct.max()),
    }


def table_3_1() -> dict[str, float]:
    """Table 3.1 and §3.2:
    needed concurrency (Little's law) and the pin-bandwidth variant."""
    t31 = volkov.table_3_1().set_index("instruction")
    g = hardware.get_gpu("Maxwell")
    # 128 B per coalesced load
    pin_ipc = g.pin_bandwidth_gbs / (g.clock_ghz * g.sm_count * 128)
    return {
        "v16.t3_1.needed_concurrency.alu.GTX980": t31.loc[
            "basic_arithmetic", "needed_concurrency"
        ],
        "v16.t3_1.needed_concurrency.mem.GTX980": t31.loc[
            "memory_access", "needed_concurrency"
        ],
        "v16.s3_2.peak_ipc_pin.GTX980": pin_ipc,
        "v16.s3_2.needed_concurrency_pin.GTX980": pin_ipc
        * t31.loc["memory_access", "latency"],
    }


T34_ROWS = (
    "cuda_core",
    "sfu",
    "smem",
    "smem_2way",
    "dram_coalesced",
    "dram_stride2",
    "single_issue",
    "dual_issue",
    "reissue",
)
"""Key suffixes of the nine rows of Table 3.4, in the worksheet's order."""


def table_3_4() -> dict[str, float]:
    """Table 3.4 row by row (CPI, cycles), the five totals, the issue events and §3.6's
    warp rate."""
    tb = volkov.throughput_bound(volkov.table_3_2_mix(), volkov.table_3_3_limits())
    out = {f"v16.t3_4.{r}.GTX980": c for r, c in tb.totals.items()}
    for name, row in zip(T34_ROWS, tb.rows):
        out[f"v16.t3_4.cpi.{name}"] = row["cpi"]
        out[f"v16.t3_4.cycles.{name}"] = row["cycles"]
    issue = [r for r in tb.rows if r["resource"] == "issue"]
    for name, row in zip(("single", "dual", "reissue"), issue):
        out[f"v16.t3_4.events.{name}"] = row["per_warp"]
    out["v16.s3_6.issue_events"] = sum(r["per_warp"] for r in issue)
    out["v16.s3_6.warps_per_cycle.GTX980"] = tb.warps_per_cycle
    return out


def listings() -> dict[str, float]:
    """§3.7: Listing 3.1's issue cycles, Listing 3.2's load gaps, Listing 3.3's
    post-barrier cycle."""
    issue = volkov.listing_3_1_issue_cycles()
    out = {f"v16.l3_1.issue.{k}": issue[k] for k in range(1, 5)}
    loads = volkov.listing_3_2_gaps()["load"]
    out |= {"v16.l3_2.load_gap_3_4": loads[2], "v16.l3_2.load_gap_5_6": loads[4]}
    warps = volkov.listing_3_3()
    lb = volkov.latency_bound(volkov.barrier_graph(warps, "BAR", warps[0][3][1]))
    out["v16.l3_3.after_barrier"] = lb.issue["w0.i4"]
    return out


def vector_add_parameters() -> dict[str, float]:
    """§3.8–3.9: the vector-add latency bound (Fig. 3.5), issue events, the bounds and
    Fig. 3.6's lines."""
    listing = volkov.listing_3_5()
    groups = volkov.dual_issue_groups(listing)
    alu = [sum(listing[i].unit == "alu" for i in grp) for grp in groups]
    lb = volkov.latency_bound(volkov.vector_add_graph())
    s38, k = volkov.vector_add_parameters(), hardware.get_gpu("Kepler")
    tb = volkov.vector_add_throughput_bound()
    mem_cpi = next(r["cpi"] for r in tb.rows if r["resource"] == "memory")
    rate = s38["bytes_per_warp"] * k.sm_count * k.clock_ghz  # GB/s per warp/cycle/SM
    return {
        "v16.s3_8.latency_bound.GTX680": lb.length,
        "v16.s3_8.issues_per_warp.GTX680": len(groups),
        "v16.s3_8.cuda_core_cycles.GTX680": sum(a > 0 for a in alu),
        "v16.s3_8.single_alu_events.GTX680": sum(a == 1 for a in alu),
        "v16.s3_8.dual_alu_events.GTX680": sum(a == 2 for a in alu),
        "v16.s3_8.memory_bytes_per_cycle.GTX680": 128 / mem_cpi,
        "v16.s3_8.memory_bound.GTX680": tb.warps_per_cycle,
        "v16.s3_8.issue_bound.GTX680": 1 / tb.totals["issue"],
        "v16.s3_8.slope.GTX680": rate / lb.length,
        "v16.s3_8.plateau.GTX680": rate * tb.warps_per_cycle,
        "v16.s3_9.ipc_plateau.GTX680": len(listing) * tb.warps_per_cycle,
        "v16.s3_9.add_peak_ipc.GTX680": k.cuda_cores_per_sm / volkov.WARP_SIZE,
    }


def permutation_traffic() -> dict[str, float]:
    """§3.10: traffic per diverging access, the permutation kernel's traffic ratios,
    ≈1000 cycles."""
    cases = list(volkov.permutation_traffic().values())
    word = 4  # 4-byte words, one per thread
    per_tx = p6.latency_per_transaction()
    return {
        "v16.s3_10.traffic_32B": 32 / word,
        "v16.s3_10.traffic_128B": 128 / word,
        "v16.s3_10.traffic_ratio_32B": cases[1] / cases[0],
        "v16.s3_10.traffic_ratio_128B": cases[2] / cases[0],
        "v16.s3_10.added_latency.GTX680": volkov.WARP_SIZE * per_tx["Kepler"],
    }


def chapter_4() -> dict[str, float]:
    """Tables 4.1–4.2 and §4.3–4.6: mem_thru from GB/s, closed-form coefficients, needed
    occupancy, the cusp."""
    P = {g: _p(g) for g in volkov.GENERATIONS}
    mt = p6.mem_thru_from_gbs()
    out = {}
    for g, p in P.items():
        # Table 4.2's third term: alu_thru/α where the CUDA cores bind before issue
        # (G80, GT200), else issue_thru/(α+1)
        out |= {
            f"v16.t4_1.mem_thru.{p.product}": mt.loc[g, "from_table_6_4"],
            f"v16.t4_2.third_term.{p.product}": min(p.issue_thru, p.alu_thru),
        }
    m = P["Maxwell"]
    t6 = volkov.measured_metrics()
    val = {(r.table, r.gpu, r.column): r.value for r in t6.itertuples()}
    out |= {
        "v16.s4_3.warps_alu.GTX980": volkov.needed_occupancy(m, np.inf),
        "v16.s4_3.warps_mem.GTX980": volkov.needed_occupancy(m, 0),
        "v16.s4_3.at95_over_estimate.GTX980": val[("6.4", "Maxwell", "at_95")]
        * m.schedulers
        / volkov.needed_occupancy(m, 0),
    }
    out |= {
        f"v16.s4_3.ratio.{P[g].product}": val[("6.3", g, "stream")]
        / val[("6.3", g, "add")]
        for g in P
    }
    out["v16.s4_3.random_ipc.GTX980"] = (
        val[("6.1", "Maxwell", "random")] * m.schedulers / volkov.WARP_SIZE
    )
    out["v16.s4_3.random_warps.GTX980"] = (
        val[("6.3", "Maxwell", "random")] * m.schedulers
    )
    a_cf, w_cf = volkov.cusp_closed_form(m)
    out |= {"v16.s4_5.cusp_alpha.GTX980": a_cf, "v16.s4_5.cusp_warps.GTX980": w_cf}
    return out


def concurrency_example() -> dict[str, float]:
    """§4.6 / Fig. 4.7 simulated on the toy machine, and the model's warps for peak with
    and without loads."""
    f = volkov.concurrency_example()
    toy = sim.SM(
        {"alu": sim.Unit(f["alu_lat"], f["alu_thru"]), "mem": sim.Unit(f["mem_lat"])},
        issue_per_scheduler=None,
    )
    trace = sim.simulate(
        toy, sim.alpha_program(int(f["alpha"])), int(f["n"]), cycles=240
    )
    steady = np.arange(26, 240)
    p = _p("Maxwell").replace(
        mem_lat=f["mem_lat"],
        alu_lat=f["alu_lat"],
        alu_thru=f["alu_thru"],
        mem_thru=np.inf,
        issue_thru=np.inf,
    )
    return {
        "v16.s4_6.alu_in_execution.generic": trace.concurrency("alu", steady).mean(),
        "v16.s4_6.mem_in_execution.generic": trace.concurrency("mem", steady).mean(),
        # 8 whole periods of 24 cycles
        "v16.s4_6.mem_thru.generic": trace.throughput("mem", 48, 240),
        "v16.s4_6.warps_needed.generic": volkov.needed_occupancy(p, f["alpha"]),
        "v16.s4_6.warps_no_memory.generic": volkov.needed_occupancy(p, np.inf),
    }


def chapter_5() -> dict[str, float]:
    """§5.7 (occupancy control by shared memory) and §5.8
    (the 17-warp jigsaw, simulated)."""
    out = {
        "v16.s5_7.blocks.kepler.3072B": occupancy.blocks_per_sm("3.0", 128, 16, 3072),
        "v16.s5_7.blocks.kepler.3073B": occupancy.blocks_per_sm("3.0", 128, 16, 3073),
        "v16.s5_7.alloc.kepler.3073B": occupancy.occupancy(
            "3.0", 128, 16, 3073
        ).allocated_shared_mem_per_block,
    }
    for gen, prod in (("G80", "8800GTX"), ("GT200", "GTX280"), ("Maxwell", "GTX980")):
        t = ex.occupancy_control(
            hardware.get_gpu(prod).compute_capability, 64, kernel_param_bytes=16
        )
        out[f"v16.s5_7.unreachable.{prod}"] = int(
            t.blocks_per_sm[t.shared_mem_request.isna()].min()
        )
    return out | section_5_8()


def section_5_8() -> dict[str, float]:
    """§5.8: throughput lost with 17 warps per block against 16, and the occupancy of
    the tail (simulated)."""
    thr = {}
    for n in (16, 17):
        tr = ex.imbalance_run(n, instructions=100, blocks=3)
        t = ex.timing(tr.warp_start, tr.warp_end, instructions_per_warp=100)
        thr[n] = (t.throughput, t.traces[0])
    occ = thr[17][1]
    held = {}
    for w, dt in zip(occ.warps[:-1], np.diff(occ.time)):
        held[int(w)] = held.get(int(w), 0) + dt
    held.pop(17, None)
    return {
        "v16.s5_8.loss_17_warps": 100 * (1 - thr[17][0] / thr[16][0]),
        "v16.s5_8.occupancy_tail_17_warps": max(held, key=held.get),
    }


def chapter_6() -> dict[str, float]:
    """Chapter 6: every number the text derives from Tables 6.1–6.7."""
    P = {g: _p(g) for g in volkov.GENERATIONS}
    mt = p6.mem_thru_from_gbs()
    e = volkov.worked_example_inputs()
    est = p6.concurrency_estimates().set_index(["gpu", "column"])
    out = {
        f"v16.t6_1.stream.{P[g].product}": mt.loc[g, "from_table_6_4"]
        * volkov.WARP_SIZE
        / P[g].schedulers
        for g in P
    }
    out |= {
        "v16.s6_1.g80_smem_ops": e["s6_1_g80_smem_banks"] / e["s6_1_g80_smem_cycles"],
        "v16.s6_1.sfu_concurrency.GTX680": est.loc[("Kepler", "sfu"), "linear"],
        "v16.s6_1.sfu_concurrency_sm.GTX680": est.loc[("Kepler", "sfu"), "linear"]
        * P["Kepler"].schedulers,
        "v16.s6_1.smem_expected.GTX980": est.loc[("Maxwell", "smem"), "linear"]
        * P["Maxwell"].schedulers,
    }
    bc = p6.bank_conflicts()
    out |= {
        f"v16.s6_2.latency_increase.{P[g].product}": v
        for g, v in bc.latency_increase.items()
    }
    out |= {
        "v16.s6_2.throughput_drop": float(bc.throughput_ratio.min()),
        "v16.s6_2.increase_pct_min": bc.latency_increase_pct.min(),
        "v16.s6_2.increase_pct_max": bc.latency_increase_pct.max(),
        "v16.s6_2.occupancy_drop.GTX980": bc.loc["Maxwell", "occupancy_ratio"],
        "v16.s6_2.occupancy_drop.8800GTX": bc.loc["G80", "occupancy_ratio"],
        "v16.s6_2.occupancy_drop.GTX280": bc.loc["GT200", "occupancy_ratio"],
    }
    t64 = p6.table_6_4()
    # compared unrounded; the rows' tolerance column holds the printed half-warp step
    out |= {f"v16.t6_4.linear.{P[g].product}": v for g, v in t64.linear.items()}
    sat = p6.saturation_factors()
    out |= {
        "v16.s6_3.saturation_90": sat["median_90"],
        "v16.s6_3.saturation_95": sat["median_95"],
        "v16.s6_3.mei_chu_scaled_gbs": e["s6_3_mei_chu_gbs"] * e["s6_3_clock_ratio"],
        "v16.s6_3.mei_chu_gap_pct": 100
        * (1 - e["s6_3_mei_chu_gbs"] * e["s6_3_clock_ratio"] / e["s6_3_copy_gbs"]),
        "v16.t6_4.fermi_footnote_warps": e["t6_4_fermi_ilp2_warps"]
        * e["t6_4_fermi_ilp"],
    }
    out |= pin_bandwidth_shares()
    kep = P["Kepler"]
    out |= {
        "v16.s6_5.c_ipc.GTX680": kep.c / kep.gbs_per_ipc,
        "v16.s6_5.mem_thru_ipc.GTX680": mt.loc["Kepler", "from_table_6_4"],
    }
    lp = p6.latency_percentiles().set_index("throughput_gbs")
    means = volkov.measured_metrics("6.6").set_index("column").value
    out |= {
        "v16.s6_6.pct_peak.144": lp.loc[144, "pct_of_peak"],
        "v16.s6_6.pct_peak.107": lp.loc[107, "pct_of_peak"],
        "v16.s6_6.pct_peak.3_8": lp.loc[3.8, "pct_of_peak"],
        "v16.s6_6.mid90_width.3_8": lp.loc[3.8, "mid90"],
        "v16.s6_6.max_over_mean.3_8": lp.loc[3.8, "max"] / means["mean_at_3.8"],
    }
    ratio = p6.stream_over_random()
    others = [v for g, v in ratio.items() if g != "GT200"]
    out |= {
        f"v16.t6_7.per_transaction.{P[g].product}": v
        for g, v in p6.latency_per_transaction().items()
    }
    out |= {
        "v16.s6_7.ratio_min": min(others),
        "v16.s6_7.ratio_max": max(others),
        "v16.s6_7.ratio.GTX280": ratio["GT200"],
        "v16.s6_7.expected_ratio": 32 / 4,
    }
    return out


def memory_wall() -> dict[str, float]:
    """§4.4 / Fig. 4.4: the memory-wall trend over Volkov's span,
    refitted from sourced specifications."""

    return {
        "v16.s4_4.trend_per_year.generic": mw.fit_trend(mw.table(), 2006, 2015)[
            "factor_per_year"
        ]
    }


PRODUCERS = (
    chapter_2,
    littles_law_examples,
    table_3_1,
    table_3_4,
    listings,
    vector_add_parameters,
    permutation_traffic,
    chapter_4,
    concurrency_example,
    memory_wall,
    chapter_5,
    chapter_6,
)
"""Every producer of this module, collected by :mod:`gpumodels.scoreboard`. The printed
values that follow from the prior models (§4.8 and chapter 7) are produced in
:mod:`gpumodels.comparisons.prior.printed`."""
