"""Hong & Kim (2009): the producers of the printed values the book re-derives.

Each producer returns ``{published key: computed value}`` with the keys of
``data/published/published_values.csv``; :mod:`gpumodels.scoreboard` collects
:data:`PRODUCERS`.
"""

from __future__ import annotations

import numpy as np

from gpumodels.facts import hardware
from gpumodels.ground.data import read_rows
from gpumodels.papers import hong_kim as hk

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


PRODUCERS = (hong_kim_table_3, hong_kim)
"""Every producer of this module, called by :func:`gpumodels.scoreboard.computed`."""
