"""Hong & Kim (ISCA 2009), the MWP/CWP model: equations 1–31, Tables 2–7 and the appendix.

The public names live here; the implementation is split into ``gpumodels.engines.mwp_cwp``
(:func:`predict` and the §3.2 equations), ``gpumodels.papers.hong_kim.coalescing`` (Algorithms 1
and 2 and the CUDA guide's rules), ``gpumodels.papers.hong_kim.timelines`` (Figures 5–8 on the
simulator) and ``gpumodels.papers.hong_kim.benchmarks`` (the inputs of Tables 2, 4 and 5 and the
figure sweeps).

>>> from gpumodels import hong_kim
>>> r = hong_kim.predict(**hong_kim.table_2_inputs())
>>> r.equation, round(r.mwp, 4), round(r.exec_cycles_app), round(r.synch_cost)
(23, 2.2812, 38428, 12300)
"""

PAPER = "Hong & Kim 2009"
"""The paper, as the ``paper`` column of ``data/published/`` names it."""
PART = 1
"""Its part of the book (the scoreboard's order)."""
CHAPTER = "hong_kim_model"
"""The first chapter of its part."""


from gpumodels.papers.hong_kim.benchmarks import (BENCHMARK_ASSUMPTIONS,
                                                  divergence_example,
                                                  explorer_inputs,
                                                  mat_tiled_counts,
                                                  merge_benchmarks,
                                                  merge_inputs,
                                                  merge_sweep,
                                                  micro_benchmarks,
                                                  table_2_input_table,
                                                  micro_inputs,
                                                  mwp_vs_warps,
                                                  sync_delta,
                                                  sync_inputs,
                                                  table_2_inputs,
                                                  table_2_rows,
                                                  dependence_sweep,
                                                  svm_sweep)
from gpumodels.papers.hong_kim.coalescing import (Transactions,
                                                  coalesced_cc1x,
                                                  guide_transactions,
                                                  index_terms,
                                                  transactions_cc13)
from gpumodels.engines.mwp_cwp import (READINGS,
                                       Divergence,
                                       Machine,
                                       Prediction,
                                       comp_p,
                                       cycles_cwp_above_mwp,
                                       cycles_mwp_above_cwp,
                                       cycles_mwp_equals_n,
                                       divergent_counts,
                                       m_factor_of,
                                       machine,
                                       machine_table,
                                       machines,
                                       predict,
                                       repetitions,
                                       table_7)
from gpumodels.papers.hong_kim.timelines import (CASES,
                                                 Case,
                                                 CaseRun,
                                                 case_program,
                                                 case_sm,
                                                 run_case)

__all__ = [
    "READINGS", "Machine", "machine", "machines", "machine_table", "table_2_input_table", "Prediction", "predict",
    "repetitions", "comp_p", "cycles_cwp_above_mwp",
    "cycles_mwp_above_cwp", "cycles_mwp_equals_n", "m_factor_of", "table_7", "Divergence", "divergent_counts",
    "Transactions", "coalesced_cc1x", "transactions_cc13", "guide_transactions", "index_terms",
    "CASES", "Case", "CaseRun", "case_sm", "case_program", "run_case",
    "BENCHMARK_ASSUMPTIONS", "table_2_inputs", "table_2_rows", "micro_benchmarks", "micro_inputs",
    "merge_benchmarks", "merge_inputs", "mat_tiled_counts", "merge_sweep", "mwp_vs_warps", "svm_sweep",
    "dependence_sweep", "divergence_example", "sync_inputs", "sync_delta", "explorer_inputs",
]
