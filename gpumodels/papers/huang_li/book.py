"""Tables and figures of the Huang & Li chapter, built from the package (the notebook
only calls these)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from gpumodels.engines.refsim import dram, kernels, placements, trace
from gpumodels.facts import published as pub
from gpumodels.papers.huang_li import analysis, events, model, queueing

VECADD_PLACEMENTS = {
    "G": None,
    "T": {"a": "T", "b": "T"},
    "C": {"a": "C", "b": "C"},
    "S": {"a": "S", "b": "S"},
}
"""Fig. 2's four placements of vecAdd (v stays in global memory)."""


def vecadd_walkthrough(machine: analysis.Machine | None = None):
    """Every step of the model for Fig. 2's four vecAdd placements,
    one column per placement.

    The profile is vecAdd with a and b in global memory (the sample); each column is
    predicted from it. T_overlap is Sim et al.'s F_overlap here, because Eq. 11 is
    trained only in the next chapter (on the 38 training placements against the
    simulated reference).
    """

    m = machine or analysis.k80()
    k = kernels.kernel("vecAdd")
    prof = model.profile(k, machine=m)
    cols = {}
    for name, moves in VECADD_PLACEMENTS.items():
        p = model.predict(prof, moves, variant="sim2012")
        a = p.analysis
        st = a.bank_stats
        cols[f"a, b in {name}"] = {
            "addressing instructions per warp": a.addressing_per_warp,
            "executed instructions per warp": a.executed_per_warp,
            "replays per warp, causes (1)-(4)": a.replays_per_warp,
            "#inst per warp (issued, Eq. 3)": model.instructions_per_warp(prof, a),
            "memory instructions per warp": a.mem_insts_per_warp,
            "global sectors requested": a.requests["G"],
            "texture lines looked up / missed": f"{a.requests['T']} / {a.misses['T']}",
            "constant lines looked up / missed": f"{a.requests['C']} / {a.misses['C']}",
            "L2 accesses / misses": f"{a.l2_accesses} / {a.misses['L2']}",
            "DRAM requests": a.dram_requests,
            "row hit / miss / conflict": f"{a.row['hit']} / {a.row['miss']} / "
            f"{a.row['conflict']}",
            "banks receiving requests": int(st.bank.size),
            "largest bank utilisation ρ": float(st.rho.max()) if st.bank.size else 0.0,
            "DRAM_lat, Kingman per bank (cycles)": a.dram_lat["mapped"],
            "miss_ratio (Eq. 5)": a.miss_ratio,
            "shmem_ratio (Eq. 5)": a.shmem_ratio,
            "AMAT (cycles, Eq. 5)": p.amat,
            "MWP / CWP": f"{p.mwp:.1f} / {p.cwp:.1f}",
            "T_comp (cycles, Eq. 2)": p.t_comp,
            "T_mem (cycles, Eq. 4)": p.t_mem,
            "T_overlap (cycles, F_overlap)": p.t_overlap,
            "copy into shared memory (cycles)": p.copy_cycles,
            "T (µs)": p.t / (m.clock_ghz * 1e3),
        }
    return pd.DataFrame(cols)


def kingman_grid(
    c_as=(0.5, 1.0, 1.11, 1.72, 2.22),
    rhos=(0.3, 0.5, 0.7, 0.8, 0.9, 0.95),
    c_s: float = 0.45,
    n: int = 1_000_000,
    seed: int = 2017,
):
    """Simulated G/G/1 mean wait (Lindley) against Kingman (standard and printed) and
    M/M/1, per (c_a, ρ)."""

    rows = []
    for ca in c_as:
        for rho in rhos:
            sim = queueing.simulate_gg1(ca, c_s, rho, n=n, seed=seed)
            k = queueing.kingman(ca, c_s, rho, 1.0)
            pr = queueing.kingman_printed(ca, c_s, rho, 1.0 / rho)
            rows.append(
                {
                    "c_a": ca,
                    "rho": rho,
                    "simulated": sim,
                    "Kingman": k,
                    "Eq. 9 as printed": pr,
                    "M/M/1": queueing.mm1(rho, 1.0),
                    "Kingman error": k / sim - 1,
                    "printed error": pr / sim - 1,
                }
            )
    return pd.DataFrame(rows)


def max_service_cv(lat=(352.0, 742.0, 1008.0), steps: int = 101) -> float:
    """The largest c_s any mix of the three row-buffer latencies can have
    (grid over the mixes)."""
    v = np.asarray(lat)
    best = 0.0
    for p0 in np.linspace(0, 1, steps):
        for p1 in np.linspace(0, 1 - p0, steps):
            p = np.array([p0, p1, 1 - p0 - p1])
            mean = p @ v
            best = max(best, float(np.sqrt(p @ (v - mean) ** 2) / mean))
    return best


def algorithm1(
    preset: str = "k80_printed_col_low",
    bits=range(3, 40),
    noise: float = 0.0,
    seed: int = 0,
):
    """Algorithm 1 on the simulated K80 DRAM:
    ``(per-bit table, DetectedMapping, true map)``."""

    amap = dram.address_map(preset)
    found = dram.detect_mapping(
        dram.SimulatedDRAM(amap, noise=noise, seed=seed).second_access_latency, bits
    )
    group = {
        **{b: "column" for b in found.column_bits},
        **{b: "row" for b in found.row_bits},
        **{b: "other (bank)" for b in found.other_bits},
    }
    table = pd.DataFrame(
        {
            "bit": list(found.per_bit),
            "second access (ns)": list(found.per_bit.values()),
            "group": [group[b] for b in found.per_bit],
        }
    )
    return table, found, amap


def fidelity() -> dict[str, float]:
    """The printed numbers the book re-derives, keyed as in
    ``data/published/published_values.csv``."""
    _, found, _ = algorithm1()
    m = analysis.k80()
    train = placements.counts("train")
    return {
        "hl17.s3c.lat_var.K80": 100
        * (found.latencies["other"] - found.latencies["column"])
        / found.latencies["column"],
        "hl17.s3c2.lat_hit.K80": found.latencies["column"],
        "hl17.s3c2.lat_miss.K80": found.latencies["other"],
        "hl17.s3c2.lat_conflict.K80": found.latencies["row"],
        "hl17.s3c1.controllers.K80": m.controllers,
        "hl17.s3c3.banks.C2050": m.controllers * m.banks_per_controller,
        **{
            f"hl17.s3b.addr_insts.{s}": trace.addressing_instructions(s) for s in "GTCS"
        },
        "hl17.s2b.placements": sum(
            train[b]
            for b in (
                "convolutionSeparable",
                "matrixMul",
                "md",
                "spmv",
                "transpose",
                "cfd",
            )
        ),
        "hl17.s5.train_placements": sum(train.values()),
        "hl17.s2b.min_events": min(events.table_1_selection().values()),
    }


def implied_errors():
    """Mean absolute error of each variant implied by the printed gains, read as
    percentage points [A16] (derived)."""

    v = pub.value
    full = v("hl17.s5a.mean_error")
    base = full + v("hl17.s5b.both")
    rows = [
        ("Our model (full)", full, "printed (§V-A)"),
        ("Sim et al. 2012", full + v("hl17.s5a.vs_sim2012"), "9.9 + 17.6"),
        ("Baseline", base, "9.9 + 39.1"),
        ("Baseline + instr.", base - v("hl17.s5b.instr"), "49.0 − 17"),
        (
            "Baseline + instr. + queuing (even)",
            base - v("hl17.s5b.queue_even"),
            "49.0 − 31",
        ),
        (
            "Baseline + queuing (mapping)",
            base - v("hl17.s5b.queue_alone"),
            "49.0 − 13.8",
        ),
    ]
    return pd.DataFrame(
        rows, columns=["variant", "implied mean |error| (%)", "derivation"]
    )
