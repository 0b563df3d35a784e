"""Hong & Kim (ISCA 2009), the MWP/CWP model: equations 1–31, Tables 2–7 and the
appendix.

The public names live here; the implementation is split into
``gpumodels.engines.mwp_cwp`` (:func:`~gpumodels.engines.mwp_cwp.predict`, its
:class:`~gpumodels.engines.mwp_cwp.Inputs` and
:class:`~gpumodels.engines.mwp_cwp.Machine` records, and the §3.2 equations),
``gpumodels.papers.hong_kim.coalescing`` (Algorithms 1 and 2 and the CUDA guide's
rules), ``gpumodels.papers.hong_kim.timelines`` (Figures 5–8 on the simulator) and
``gpumodels.papers.hong_kim.benchmarks`` (the inputs of Tables 2, 4 and 5 and the figure
sweeps).

>>> from gpumodels import hong_kim
>>> r = hong_kim.predict(hong_kim.table_2_inputs())
>>> r.equation, round(r.mwp, 4), round(r.exec_cycles_app), round(r.synch_cost)
(23, 2.2812, 38428, 12300)
"""

PAPER = "Hong & Kim 2009"
"""The paper, as the ``paper`` column of ``data/published/`` names it."""
PART = 1
"""Its part of the book (the scoreboard's order)."""
CHAPTER = "hong_kim_model"
"""The first chapter of its part."""


from gpumodels.engines.mwp_cwp import (
    READINGS,
    Inputs,
    Machine,
    Prediction,
    comp_p,
    cycles_cwp_above_mwp,
    cycles_mwp_above_cwp,
    cycles_mwp_equals_n,
    machine,
    machine_table,
    machines,
    predict,
    repetitions,
)
from gpumodels.papers.hong_kim.benchmarks import (
    BENCHMARK_ASSUMPTIONS,
    DEPENDENCE_WARPS,
    dependence_ratio,
    dependence_sweep,
    divergence_example,
    explorer_inputs,
    mat_tiled_counts,
    merge_benchmarks,
    merge_inputs,
    merge_mean_occupancy,
    merge_means,
    merge_sweep,
    micro_benchmarks,
    micro_inputs,
    mwp_vs_warps,
    svm_sweep,
    sync_delta,
    sync_inputs,
    table_2_input_table,
    table_2_inputs,
    table_2_rows,
    table_5_occupancy,
)
from gpumodels.papers.hong_kim.coalescing import (
    Transactions,
    coalesced_cc1x,
    guide_transactions,
    index_terms,
    transactions_cc13,
)
from gpumodels.papers.hong_kim.model import (
    Divergence,
    divergent_counts,
    issue_cycles,
    m_factor_from_throughput,
    m_factor_of,
    table_7,
)
from gpumodels.papers.hong_kim.timelines import (
    CASES,
    Case,
    CaseRun,
    case_program,
    case_sm,
    period_counts,
    run_case,
    serial_share,
)

__all__ = [
    "BENCHMARK_ASSUMPTIONS",
    "CASES",
    "DEPENDENCE_WARPS",
    "READINGS",
    "Case",
    "CaseRun",
    "Divergence",
    "Inputs",
    "Machine",
    "Prediction",
    "Transactions",
    "case_program",
    "case_sm",
    "coalesced_cc1x",
    "comp_p",
    "cycles_cwp_above_mwp",
    "cycles_mwp_above_cwp",
    "cycles_mwp_equals_n",
    "dependence_ratio",
    "dependence_sweep",
    "divergence_example",
    "divergent_counts",
    "explorer_inputs",
    "guide_transactions",
    "index_terms",
    "issue_cycles",
    "m_factor_from_throughput",
    "m_factor_of",
    "machine",
    "machine_table",
    "machines",
    "mat_tiled_counts",
    "merge_benchmarks",
    "merge_inputs",
    "merge_mean_occupancy",
    "merge_means",
    "merge_sweep",
    "micro_benchmarks",
    "micro_inputs",
    "mwp_vs_warps",
    "period_counts",
    "predict",
    "repetitions",
    "run_case",
    "serial_share",
    "svm_sweep",
    "sync_delta",
    "sync_inputs",
    "table_2_input_table",
    "table_2_inputs",
    "table_2_rows",
    "table_5_occupancy",
    "table_7",
    "transactions_cc13",
]
