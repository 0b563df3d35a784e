"""Hong & Kim (2009): the producers of the printed values the book re-derives.

Each producer returns ``{published key: computed value}`` with the keys of
the tables of ``data/published/``; :mod:`gpumodels.scoreboard` collects
:data:`PRODUCERS`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from gpumodels.engines.mwp_cwp import cwp_eq9, mwp_eq5
from gpumodels.facts import hardware, published
from gpumodels.ground.data import read_rows
from gpumodels.papers import hong_kim as hk
from gpumodels.papers.hong_kim.benchmarks import (
    MERGE_THREADS,
    dependence_ratio,
    merge_mean_occupancy,
    merge_means,
    merge_sweep,
    table_5_occupancy,
)
from gpumodels.papers.hong_kim.model import issue_cycles, m_factor_from_throughput
from gpumodels.papers.hong_kim.timelines import CASES, period_counts, serial_share

HK_TABLE_3 = ("8800GTX", "FX5600", "8800GT", "GTX280")
"""The GPUs of Hong & Kim's Table 3."""


def hong_kim_table_3() -> dict[str, float]:
    """Table 3's peak GFLOP/s: cores × shader clock × flops per core per cycle.

    Flops per core per cycle from :func:`hk_flops_per_cycle`: 2 (a multiply-add) on
    G80-class GPUs, 3 (multiply-add plus a dual-issued multiply) on GT200.
    """
    return {
        f"hk09.t3.peak_gflops.{g}": hardware.get_gpu(g).peak_gflops(
            hk_flops_per_cycle(g)
        )
        for g in HK_TABLE_3
    }


def hk_flops_per_cycle(gpu: str) -> int:
    """Flops per core per cycle Hong & Kim's Table 3 counts: 3 on compute capability 1.3
    (GT200), else 2."""
    return 3 if hardware.get_gpu(gpu).compute_capability == "1.3" else 2


def hong_kim() -> dict[str, float]:
    """Table 2 (with the paper's rounding replayed), §3.4.1's #Rep, Table 5's
    intensities, §5.3's MWP terms."""
    rounded = hk.predict(hk.table_2_inputs(), decimals=hk.benchmarks.TABLE_2_DECIMALS)
    out = hk.table_2_rows(rounded)
    ex = {
        r["quantity"]: float(r["value"])
        for r in read_rows("hong_kim/worked_examples.csv")
    }
    out["hk09.s3_4_1.rep_example"] = hk.repetitions(
        ex["s3_4_1_blocks"], ex["s3_4_1_active_blocks"], ex["s3_4_1_sms"]
    )
    merge = hk.merge_benchmarks()
    for r in merge.itertuples():
        name = (
            r.benchmark.replace(" ", "")
            .replace(".", "")
            .replace("(", "_")
            .replace(")", "")
        )
        out[f"hk09.t5.intensity.{name}"] = float(r.comp_insts) / float(r.mem_insts)
    w = np.arange(1, 33)
    out |= {
        "hk09.s5_3.mwp_limit_coalesced.GTX280": hk.mwp_vs_warps(
            "GTX280", True, w
        ).mwp.max(),
        "hk09.s5_3.mwp_limit_uncoalesced.GTX280": hk.mwp_vs_warps(
            "GTX280", False, w
        ).mwp.max(),
    }
    opt, naive = hk.svm_sweep("optimized"), hk.svm_sweep("naive")
    out |= {
        "hk09.s5_3.mwp_peak_bw.FX5600": opt.mwp_peak_bw.iloc[-1],
        "hk09.s5_3.mwp_peak_bw_40.FX5600": opt.mwp_peak_bw.iloc[-1],
        "hk09.s5_3.mwp_without_bw.FX5600": naive.mwp_without_bw.max(),
    }
    return out


def _printed(key: str) -> float:
    """Another row's printed number (an ``input`` row of ``data/published/``)."""
    return published.value(f"hk09.{key}.generic")


def table_2_factors() -> dict[str, float]:
    """Table 2's launch and instruction rows, and Table 1's ``Issue_cycles``, by
    arithmetic on the numbers §3.5, §2.3 and Tables 1-2 print beside them.

    ``#Comp_insts`` = 9 computation instructions × 3 outer iterations (§3.5);
    ``#Uncoal_Mem_insts`` = 2 global loads (Figure 13 lines 4, 6) × 3; ``#Synch_insts``
    = 2 × 3; ``Load_bytes_per_warp`` = 4 B × 32 threads (Table 1, row 21);
    ``Issue_cycles`` = 32 threads / 8 functional units (§2.3); ``#Active_SMs`` = the
    SMs that receive a block, ``min(16 SMs, 80 blocks)``, as
    :func:`~gpumodels.engines.mwp_cwp.predict` derives it when it is not given.
    """
    iters = _printed("s3_5.outer_iterations")
    warp = _printed("t1.threads_per_warp")
    k = hk.table_2_inputs()
    launch = hk.predict(
        k.replace(
            machine=k.machine.replace(sm_count=int(_printed("s3_5.sms"))),
            active_sms=None,
            active_blocks_per_sm=int(_printed("s3_5.active_blocks_per_sm")),
        )
    )
    return {
        "hk09.t1.issue_cycles.generic": issue_cycles(
            warp, _printed("s2_3.functional_units_per_sm")
        ),
        "hk09.t2.active_sms.generic": float(launch.active_sms),
        "hk09.t2.comp_insts.generic": _printed("s3_5.comp_insts_per_iteration")
        * iters,
        "hk09.t2.uncoal_mem_insts.generic": _printed("s3_5.global_loads_per_iteration")
        * iters,
        "hk09.t2.synch_insts.generic": _printed("t2.synch_insts_per_iteration") * iters,
        "hk09.t2.load_bytes_per_warp.generic": _printed("t2.bytes_per_load") * warp,
    }


def section_3_2_cases() -> dict[str, float]:
    """§3.2's seven timelines (Figures 5-8): CWP by Eqs. (8)-(9), MWP by Eq. (5), the
    periods Eqs. (1) and (3) add up, and Eq. (4)'s total against the serialised sum.

    Warps, periods per warp, MWP and the ratio of a memory to a computation period are
    the printed ones (``input`` rows ``hk09.s3_2.case*``); each case's equation is
    the one §3.2 gives it (Eq. 1 for Cases 1-2, Eq. 3 for Cases 3-5,
    ``timelines.CASES``). Where the text gives no period length or count (Figure 7's
    periods per warp, Figures 7-8's lengths) the book's stand-in of
    :data:`~gpumodels.papers.hong_kim.timelines.CASES` is used; the notes of the rows
    say why the result does not depend on it, or that it does.
    """

    def case(k: int, what: str) -> float:
        return _printed(f"s3_2.case{k}_{what}")

    mwp_1 = case(1, "mwp")  # Case 2: "MWP and CWP are the same as Case 1"
    setups = {
        1: (case(1, "warps"), case(1, "periods"), mwp_1),
        2: (case(2, "warps"), case(2, "periods"), mwp_1),
        3: (case(3, "warps"), case(3, "periods"), 1.0),  # Eq. (3) has no MWP
        4: (case(4, "warps"), case(4, "periods"), 1.0),
        5: (case(5, "warps"), CASES[5].periods, 1.0),  # not printed: the stand-in
    }
    out = {}
    for k, (n, periods, mwp) in setups.items():
        comp, mem = period_counts(CASES[k].equation, n, periods, mwp)
        out[f"hk09.s3_2.case{k}_comp_periods.generic"] = comp
        out[f"hk09.s3_2.case{k}_mem_periods.generic"] = mem
    out["hk09.s3_2.case1_cwp.generic"] = cwp_eq9(
        case(1, "mem_to_comp"), 1.0, case(1, "warps")
    )
    c5 = CASES[5]  # Figure 7: computation longer than memory (stand-in lengths)
    out["hk09.s3_2.case5_cwp.generic"] = cwp_eq9(
        c5.mem_cycles, c5.comp_cycles, case(5, "warps")
    )
    c6, n6 = CASES[6], case(6, "warps")
    mwp_6 = mwp_eq5(math.inf, math.inf, n6)  # no limit but the one warp
    out["hk09.s3_2.case6_mwp.generic"] = mwp_6
    out["hk09.s3_2.case6_cwp.generic"] = cwp_eq9(c6.mem_cycles, c6.comp_cycles, n6)
    out["hk09.s3_2.case6_serial_share.generic"] = serial_share(
        n6, c6.periods, mwp_6, c6.comp_p, c6.mem_l
    )
    ratio_7, n7 = case(7, "mem_to_comp"), case(7, "warps")
    out["hk09.s3_2.case7_cwp.generic"] = cwp_eq9(ratio_7, 1.0, n7)
    # the largest share: one period per warp, computation at its bound Mem_p / 2
    out["hk09.s3_2.case7_serial_share.generic"] = serial_share(
        n7, 1, case(7, "mwp"), 1.0, ratio_7
    )
    return out


TABLE_7_CELLS = {
    "FPadd_FPmul_FPmad": ("fp_add", "fp_mul", "fp_mad"),
    "Intadd": ("int_add",),
    "FPdiv": ("fp_div",),
    "Intmul": ("int_mul",),
}
"""Table 7's rows with a manual M_Factor, and the instructions of
``data/hong_kim/table_7.csv`` each covers."""


def table_7_m_factors() -> dict[str, float]:
    """Table 7's manual M_Factors, 8 Ops/s per SM (one per functional unit, §2.3 and
    §6.2) over each instruction's printed Ops/s."""
    t7 = hk.table_7().set_index("instruction")
    full = _printed("s2_3.functional_units_per_sm")
    out = {}
    for cell, names in TABLE_7_CELLS.items():
        ops = {float(t7.loc[n, "ops_per_cycle_manual"]) for n in names}
        if len(ops) != 1:
            raise ValueError(
                f"Table 7 prints one Ops/s for {', '.join(names)}, but "
                f"data/hong_kim/table_7.csv gives {sorted(ops)}"
            )
        out[f"hk09.t7.m_factor_manual.{cell}"] = m_factor_from_throughput(
            ops.pop(), full
        )
    return out


FIG_20_EXCEPTIONS = ("Mat. (tiled)", "Linear")
"""The benchmarks §5.2 excepts from "higher occupancy than 70%"."""


def occupancy_claims() -> dict[str, float]:
    """§5.2's Figure 20 claim and §2.4's small-block occupancy of SVM.

    §5.2: the lowest mean occupancy (:func:`merge_mean_occupancy`) of the Merge
    benchmarks other than Mat. (tiled) and Linear, over the four GPUs. §2.4: below 64
    threads per block "all three cases show the same occupancy values", so the
    Constant variant's is that of Table 5's SVM kernel (Constant+Optimized) at the
    swept block sizes below 64, which must agree.
    """
    occ = merge_mean_occupancy().drop(index=list(FIG_20_EXCEPTIONS))
    below = _printed("s2_4.small_block_threads")
    small = {
        table_5_occupancy("SVM", "FX5600", t) for t in MERGE_THREADS if t < below
    }
    if len(small) != 1:
        raise ValueError(
            f"SVM's occupancy differs between block sizes below {below:g} threads "
            f"({sorted(small)}), so §2.4's single small-block value is not defined"
        )
    return {
        "hk09.s5_2.occupancy_above_70.generic": float(occ.min().min()),
        "hk09.s2_4.occupancy_small.SVM_constant": small.pop(),
    }


def synch_share() -> dict[str, float]:
    """§3.5: "the execution cost of synchronization instructions is a significant part
    of the total execution cost" of Table 2's example: ``Synch_cost`` (Eq. 26) over
    the final time ``Exec_cycles_with_synch`` (Eq. 28), exact arithmetic."""
    p = hk.predict(hk.table_2_inputs())
    return {"hk09.s3_5.synch_share.generic": p.synch_cost / p.exec_cycles_with_synch}


def _coalesced_merge() -> tuple[str, list[str]]:
    """Table 5's one fully coalesced Merge benchmark (SVM) and the uncoalesced rest."""
    t5 = hk.merge_benchmarks()
    coal = list(t5.benchmark[t5.access == "coal"])
    if coal != ["SVM"]:
        raise ValueError(
            f"§5.2 names SVM the only kernel with fully coalesced accesses, but "
            f"data/hong_kim/table_5.csv marks {coal}"
        )
    return coal[0], list(t5.benchmark[t5.access != "coal"])


def section_5_2_claims() -> dict[str, float]:
    """§5.2's claims about Figures 17-19, on the book's means over the swept block
    sizes (:func:`merge_means`), each as the quantity that decides it.

    Per GPU: SVM's CPI over the lowest of the other benchmarks ("SVM has the lowest
    CPI value"), SVM's MWP over the highest of the others ("SVM has the highest MWP"),
    and the smaller of SVM's MWP and CWP over Mat. (tiled)'s ("SVM has higher MWP and
    CWP than those of Mat.(tiled)"). Across GPUs: the GTX280's MWP over the highest
    of the other three GPUs, for the uncoalesced benchmarks (the smallest such ratio)
    and for SVM ("MWP in GTX280 is higher than the rest of GPUs"); the 8800GT's CPI,
    averaged over the six benchmarks, over the highest such average of the others
    ("8800GT ... resulting in the highest CPI"). Per configuration: the largest
    ``MWP_without_BW / MWP_peak_BW`` of every uncoalesced benchmark on every GPU and
    block size ("All other benchmarks are limited by departure_delay").
    """
    svm, uncoal = _coalesced_merge()
    tiled = "Mat. (tiled)"
    means = merge_means(HK_TABLE_3)
    cpi, cwp, mwp = (means[c].unstack("gpu") for c in ("cpi", "cwp", "mwp"))
    out = {}
    for g in HK_TABLE_3:
        out[f"hk09.s5_2.svm_lowest_cpi.{g}"] = (
            cpi.loc[svm, g] / cpi.loc[uncoal, g].min()
        )
        out[f"hk09.s5_2.svm_highest_mwp.{g}"] = (
            mwp.loc[svm, g] / mwp.loc[uncoal, g].max()
        )
        out[f"hk09.s5_2.svm_above_tiled.{g}"] = min(
            mwp.loc[svm, g] / mwp.loc[tiled, g], cwp.loc[svm, g] / cwp.loc[tiled, g]
        )
    rest = [g for g in HK_TABLE_3 if g != "GTX280"]
    over = mwp["GTX280"] / mwp[rest].max(axis=1)
    out["hk09.s5_2.gtx280_mwp_highest_uncoal.GTX280"] = float(over[uncoal].min())
    out["hk09.s5_2.gtx280_mwp_highest_svm.GTX280"] = float(over[svm])
    mean_cpi = cpi.mean()
    out["hk09.s5_2.highest_cpi.8800GT"] = float(
        mean_cpi["8800GT"] / mean_cpi.drop("8800GT").max()
    )
    sweep = pd.concat(
        [merge_sweep(b, g) for g in HK_TABLE_3 for b in uncoal], ignore_index=True
    )
    out["hk09.s5_2.uncoal_departure_limited.generic"] = float(
        (sweep.mwp_without_bw / sweep.mwp_peak_bw).max()
    )
    return {k: float(v) for k, v in out.items()}


def section_5_1_claims() -> dict[str, float]:
    """§5.1 (Figure 14): "For the coalesced load cases (Mb1_C - Mb7_C), the cost of load
    instructions is almost hidden because of high MWP". Per GPU, the largest CWP / MWP
    of the coalesced micro-benchmarks with loads (Mb2_C-Mb7_C; Mb1 has none): below 1,
    MWP exceeds CWP and §3.4.2 selects Eq. (24), under which every memory waiting
    period but the last warp's overlaps computation (§3.2.2, Case 3)."""
    micro = hk.micro_benchmarks()
    names = list(micro.benchmark[micro.mem_insts > 0])
    out = {}
    for g in HK_TABLE_3:
        preds = [hk.predict(hk.micro_inputs(b, g, True)) for b in names]
        out[f"hk09.s5_1.coalesced_hidden.{g}"] = max(p.cwp / p.mwp for p in preds)
    return out


def section_6_1_claims() -> dict[str, float]:
    """§6.1 (Figure 26) on the book's DEP/INDEP stand-in (:func:`dependence_ratio`):
    below the memory system's MWP limit "the execution time of INDEP is much shorter
    than that of DEP" (the largest INDEP/DEP time ratio over N < MWP); above it "both
    benchmarks take similar execution time" (the largest ``|INDEP/DEP - 1|`` over
    N > MWP)."""
    d = dependence_ratio()
    below, above = d[d.n < d.mwp_limit], d[d.n > d.mwp_limit]
    if below.empty or above.empty:
        raise ValueError("the §6.1 sweep must have warps on both sides of MWP")
    return {
        "hk09.s6_1.indep_faster_below_mwp.FX5600": float(below.ind_over_dep.max()),
        "hk09.s6_1.indep_similar_above_mwp.FX5600": float(
            (above.ind_over_dep - 1).abs().max()
        ),
    }


PRODUCERS = (
    hong_kim_table_3,
    hong_kim,
    table_2_factors,
    section_3_2_cases,
    table_7_m_factors,
    occupancy_claims,
    synch_share,
    section_5_1_claims,
    section_5_2_claims,
    section_6_1_claims,
)
"""Every producer of this module, called by :func:`gpumodels.scoreboard.computed`."""
