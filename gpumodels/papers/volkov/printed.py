"""Volkov (2016), chapters 2–7:
the function behind every printed value the book re-derives.

Each producer returns ``{published key: computed value}``; keys are those of
the tables of ``data/published/``. Inputs come from ``data/`` through the
package's public functions; nothing here types a printed number.
"""

from __future__ import annotations

import itertools

import numpy as np

from gpumodels.engines import sim
from gpumodels.facts import hardware, occupancy, published
from gpumodels.ground.data import read_rows
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
    ≈1000 cycles, and the factor the vabs kernel is expected to save in occupancy."""
    cases = list(volkov.permutation_traffic().values())
    word = 4  # 4-byte words, one per thread
    per_tx = p6.latency_per_transaction()
    return {
        "v16.s3_10.vabs_occupancy_factor": vabs_occupancy_factor(),
        "v16.s3_10.traffic_32B": 32 / word,
        "v16.s3_10.traffic_128B": 128 / word,
        "v16.s3_10.traffic_ratio_32B": cases[1] / cases[0],
        "v16.s3_10.traffic_ratio_128B": cases[2] / cases[0],
        "v16.s3_10.added_latency.GTX680": volkov.WARP_SIZE * per_tx["Kepler"],
    }


def vabs_occupancy_factor() -> float:
    """§3.10, vabs: the needed occupancy with all data positive (read only) over that
    with all data negative (read and written back), by Little's law.

    Needed warps = warp latency × warp throughput, and a memory-bound warp throughput is
    the peak bytes per cycle over the bytes per warp; the text assumes the same warp
    latency and the same peak in both cases (Maxwell's ``mem_lat`` and ``mem_thru``
    here, which cancel), so the factor is the ratio of the bytes per thread it prints.
    """
    m = _p("Maxwell")
    v = published.value
    read, both = v("v16.s3_10.vabs_bytes.read"), v("v16.s3_10.vabs_bytes.read_write")
    peak_bytes = m.mem_thru * 128  # bytes per cycle per SM

    def warps(bytes_per_thread: float) -> float:
        thru = peak_bytes / (volkov.WARP_SIZE * bytes_per_thread)  # warps per cycle
        return float(volkov.littles_law(latency=m.mem_lat, throughput=thru))

    return warps(read) / warps(both)


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
        # "on the Fermi and the Kepler GPUs, the needed occupancy ... increases"
        "v16.s6_2.occupancy_drop.GTX480": bc.loc["Fermi", "occupancy_ratio"],
        "v16.s6_2.occupancy_drop.GTX680": bc.loc["Kepler", "occupancy_ratio"],
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


STRIDE_2 = 2
"""§4.3's stride-2 access pattern: each warp instruction spans twice the bytes of a
coalesced one (the stride of the pattern, in words)."""


def _successive(values: list[float]) -> list[float]:
    return [b / a for a, b in itertools.pairwise(values)]


def section_4_3_claims() -> dict[str, float]:
    """§4.3's printed claims about Maxwell's memory accesses and the memory-over-
    arithmetic occupancy ratio, each as the quantity that decides it.

    * "only about 80 % of peak memory throughput is typically attained at the
      occupancies suggested by the model": the median over the five GPUs of Table 6.4's
      measured throughput at the linear occupancy, in % of the peak (the text
      summarises its table; the refined model's values are compared in the chapter);
    * "these are 40 and 46 warps per SM": Table 6.4's Maxwell 90 % and 95 % occupancies
      (warps per scheduler) × the schedulers per SM;
    * the ratio of Table 6.3's stream and add occupancies "decreases with every GPU
      generation except the last": the largest ratio of successive ratios G80 → Kepler
      (below 1 when each step falls) and Maxwell's over Kepler's (above 1);
    * stride 2: "Peak throughput is 2x smaller – only 0.041 IPC/SM": the streaming peak
      (Table 6.4's GB/s in IPC/SM) over the stride, the same bytes per cycle carried by
      twice the bytes per instruction;
    * random accesses: "latency increases less than 2x" (Table 6.2 random / stream);
      "throughput drops by more than an order of magnitude" is decided by the same
      Table 6.1 ratio as §6.7's "28 to 33 times" and is scored there, once;
    * "in the case of unstructured accesses the same pattern also applies to other
      GPUs": the largest Table 6.3 random / stream occupancy over the GPUs before
      Maxwell that print a number (Fermi, Kepler; G80 and GT200 print "< 1", which the
      data does not hold).
    """
    m = _p("Maxwell")
    t64 = p6.table_6_4()
    t62, t63 = p6.table("6.2"), p6.table("6.3")
    gens = list(volkov.GENERATIONS)
    ratio = [t63.loc[g, "stream"] / t63.loc[g, "add"] for g in gens]
    earlier = [g for g in gens[:-1] if not np.isnan(t63.loc[g, "random"])]
    return {
        "v16.s4_3.pct_at_estimate": float(t64.pct_at_linear.median()),
        "v16.s4_3.warps_at90.GTX980": t64.loc["Maxwell", "at_90"] * m.schedulers,
        "v16.s4_3.warps_at95.GTX980": t64.loc["Maxwell", "at_95"] * m.schedulers,
        "v16.s4_3.ratio_falls": max(_successive(ratio[:-1])),
        "v16.s4_3.ratio_rises_last": ratio[-1] / ratio[-2],
        "v16.s4_3.stride2_ipc.GTX980": p6.mem_thru_from_gbs().loc[
            "Maxwell", "from_table_6_4"
        ]
        / STRIDE_2,
        "v16.s4_3.random_latency_ratio.GTX980": t62.loc["Maxwell", "random"]
        / t62.loc["Maxwell", "stream"],
        "v16.s4_3.random_fewer_warps": max(
            t63.loc[g, "random"] / t63.loc[g, "stream"] for g in earlier
        ),
    }


def coefficient_deviations() -> dict[str, list[float]]:
    """§6.4: Table 6.5's ``a`` over the unloaded latency (Table 6.2, stream) and ``c``
    over the peak throughput (Table 6.4), one ratio per GPU in generation order."""
    t62, t64 = p6.table("6.2"), p6.table("6.4")
    a, c = [], []
    for g in volkov.GENERATIONS:
        p = _p(g)
        a.append(p.a / t62.loc[g, "stream"])
        c.append(p.c / t64.loc[g, "peak"])
    return {"a": a, "c": c}


def chapter_6_claims() -> dict[str, float]:
    """Chapter 6's printed claims, each as the quantity that decides it.

    * §6.1, G80 shared memory, the one case below "over 99 % of the respective
      theoretical peaks": Table 6.1's 6 ops/cycle per scheduler × schedulers over the
      specified 16 banks / 2 cycles, in %;
    * §6.1, Mei and Chu's 28-cycle shared-memory latency "consistent with ours": the
      §4.7 latency when a CUDA-core instruction depends on the load (22 cycles) plus
      the add latency of the pointer arithmetic (Table 6.2, 6 cycles);
    * §6.3, "only 75 to 84 % of peak throughputs are attained at these occupancies":
      the smallest and largest of Table 6.4's measured throughputs at the linear
      occupancy, in % of the peak (the text summarises its table);
    * §6.4, "coefficients a and c are similar, respectively, to unloaded memory latency
      and peak memory throughput": the largest relative deviation of each over the
      five GPUs (:func:`coefficient_deviations`).
    """
    e = volkov.worked_example_inputs()
    g80 = _p("G80")
    smem_to_alu = float(
        next(
            r["value"]
            for r in read_rows("volkov/maxwell_s4_7.csv")
            if r["quantity"] == "smem_lat_to_alu"
        )
    )
    pct = p6.table_6_4().pct_at_linear
    dev = coefficient_deviations()
    return {
        "v16.s6_1.g80_smem_fraction": 100
        * p6.table("6.1").loc["G80", "smem"]
        * g80.schedulers
        / (e["s6_1_g80_smem_banks"] / e["s6_1_g80_smem_cycles"]),
        "v16.s6_1.mei_chu_smem_lat.GTX980": smem_to_alu
        + p6.table("6.2").loc["Maxwell", "add"],
        "v16.s6_3.pct_at_linear_min": float(pct.min()),
        "v16.s6_3.pct_at_linear_max": float(pct.max()),
        "v16.s6_4.a_vs_latency": max(abs(x - 1) for x in dev["a"]),
        "v16.s6_4.c_vs_peak": max(abs(x - 1) for x in dev["c"]),
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
    section_4_3_claims,
    chapter_6_claims,
)
"""Every producer of this module, collected by :mod:`gpumodels.scoreboard`. The printed
values that follow from the prior models (§4.8 and chapter 7) are produced in
:mod:`gpumodels.comparisons.prior.printed`."""
