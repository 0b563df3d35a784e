"""Hong & Kim (2009), Perez & Piccoli, Li et al. (2015) and Huang & Li (2017): the function behind
every printed value the book re-derives, plus the few hardware numbers the papers compute.

Each producer returns ``{published key: computed value}`` with the keys of
``data/published/published_values.csv``.
"""

from __future__ import annotations

import numpy as np

from .. import hardware, occupancy, perfparams, volkov
from .. import hong_kim as hk
from .._data import read_rows

HK_TABLE_3 = ("8800GTX", "FX5600", "8800GT", "GTX280")
"""The GPUs of Hong & Kim's Table 3."""


def hong_kim_table_3() -> dict[str, float]:
    """Table 3's peak GFLOP/s: cores × shader clock × flops per core per cycle.

    Flops per core per cycle from :func:`hk_flops_per_cycle`: 2 (a multiply-add) on G80-class GPUs,
    3 (multiply-add plus a dual-issued multiply) on GT200.
    """
    return {f"hk09.t3.peak_gflops.{g}": hardware.get_gpu(g).peak_gflops(hk_flops_per_cycle(g)) for g in HK_TABLE_3}


def hk_flops_per_cycle(gpu: str) -> int:
    """Flops per core per cycle Hong & Kim's Table 3 counts: 3 on compute capability 1.3 (GT200), else 2."""
    return 3 if hardware.get_gpu(gpu).compute_capability == "1.3" else 2


def hong_kim() -> dict[str, float]:
    """Table 2 (with the paper's rounding replayed), §3.4.1's #Rep, Table 5's intensities, §5.3's MWP terms."""
    rounded = hk.predict(**hk.table_2_inputs(), decimals=hk.benchmarks.TABLE_2_DECIMALS)
    out = hk.table_2_rows(rounded)
    ex = {r["quantity"]: float(r["value"]) for r in read_rows("hong_kim/worked_examples.csv")}
    out["hk09.s3_4_1.rep_example"] = hk.repetitions(ex["s3_4_1_blocks"], ex["s3_4_1_active_blocks"], ex["s3_4_1_sms"])
    merge = hk.merge_benchmarks()
    for r in merge.itertuples():
        name = r.benchmark.replace(" ", "").replace(".", "").replace("(", "_").replace(")", "")
        out[f"hk09.t5.intensity.{name}"] = float(r.comp_insts) / float(r.mem_insts)
    w = np.arange(1, 33)
    out |= {"hk09.s5_3.mwp_limit_coalesced.GTX280": hk.mwp_vs_warps("GTX280", True, w).mwp.max(),
            "hk09.s5_3.mwp_limit_uncoalesced.GTX280": hk.mwp_vs_warps("GTX280", False, w).mwp.max()}
    opt, naive = hk.svm_sweep("optimized"), hk.svm_sweep("naive")
    out |= {"hk09.s5_3.mwp_peak_bw.FX5600": opt.mwp_peak_bw.iloc[-1],
            "hk09.s5_3.mwp_peak_bw_40.FX5600": opt.mwp_peak_bw.iloc[-1],
            "hk09.s5_3.mwp_without_bw.FX5600": naive.mwp_without_bw.max()}
    return out


def perez_piccoli() -> dict[str, float]:
    """Tables 5 and 7 of Perez & Piccoli: every feature cell from the printed parameters."""
    return perfparams.printed_cells()


def transit_li2015() -> dict[str, float]:
    """Li et al. (2015) §1 and §3: the machine points' abscissae and the GK110's cores and threads."""
    c2075 = hardware.get_gpu("C2075")
    k40 = hardware.get_gpu("K40")
    return {"li15.s3.k_delta_sp.C2075": occupancy.limits(c2075.compute_capability).max_warps_per_sm * 32,
            "li15.s3.M_sp.C2075": c2075.cuda_cores_per_sm * volkov.params("Fermi").alu_lat,
            "li15.s3.cores_per_sm.C2075": c2075.cuda_cores_per_sm,
            "li15.s3.cores_per_sm.GTX690": hardware.get_gpu("GTX690").cuda_cores_per_sm,
            "li15.s1.cores.K40": k40.sm_count * k40.cuda_cores_per_sm,
            "li15.s1.threads.K40": k40.sm_count * occupancy.limits(k40.compute_capability).max_threads_per_sm}


def huang_li() -> dict[str, float]:
    """Huang & Li (2017): Algorithm 1's latencies on the simulated K80 DRAM, addressing counts, placement counts."""
    from ..huang_li import book

    return book.fidelity()


PRODUCERS = (hong_kim_table_3, hong_kim, perez_piccoli, transit_li2015, huang_li)
"""Every producer of this module, called by :func:`gpumodels.reproduce.computed`."""
