"""Prior GPU performance models as Volkov (2016) evaluates them on the α-workload.

Chapter 4 (``gpumodels.comparisons.prior.guide``): the CUDA guide's warp estimate and
merged add/load times. Chapter 7, one module per model, each reduced for the workload
exactly as the dissertation reduces it, with its parameters and its corrections of the
originals' typos:

* :func:`~gpumodels.comparisons.prior.hong_kim_2009.hong_kim2009` — MWP_peak_bw, CWP and
  the latency/memory/compute regimes (§7.1);
* :func:`~gpumodels.comparisons.prior.baghsorkhi_2010.baghsorkhi2010` — CYC_compute,
  Latency_BW, exposed latency, warp latency (§7.2);
* :func:`~gpumodels.comparisons.prior.zhang_owens_2011.zhang_owens2011` — the larger of
  arithmetic and memory times from input curves (§7.3);
* :func:`~gpumodels.comparisons.prior.sim_2012.sim2012` — CWP with arithmetic latency,
  MWP from sustained bandwidth, CWP − 1 (§7.4);
* :func:`~gpumodels.comparisons.prior.huang_2014.huang2014` — round-robin and
  greedy-then-oldest, with the bandwidth term (§7.5–7.8).

Each returns an :class:`~gpumodels.comparisons.prior.estimate.Estimate` whose ``flags``
name impossible outputs (negative, above a hardware bound, utilisation above 1); see
:mod:`gpumodels.comparisons.prior.estimate`.
:func:`~gpumodels.comparisons.prior.li_2015.transit2015` instantiates Transit (Li et al.
2015, :mod:`gpumodels.papers.transit`) on the same workload.
:mod:`gpumodels.comparisons.prior.compare` evaluates every model against the simulated
reference of :mod:`gpumodels.comparisons.prior.reference`.

>>> from gpumodels import volkov
>>> from gpumodels.comparisons.prior import sim2012_mwp_peak_bw
>>> round(sim2012_mwp_peak_bw(161, 15, 1.4, 513), 1)      # Table 7.1, Fermi
30.7
"""

from gpumodels.comparisons.prior import compare, reference
from gpumodels.comparisons.prior.baghsorkhi_2010 import (
    alpha0_ipc as baghsorkhi2010_alpha0_ipc,
)
from gpumodels.comparisons.prior.baghsorkhi_2010 import baghsorkhi2010
from gpumodels.comparisons.prior.compare import (
    LABELS,
    MODELS,
    WORST_CASES,
    cuda_guide,
    curves,
    cusp_occupancy,
    errors,
    evaluate,
    plot_error_band,
    plot_error_panels,
    plot_huang_bandwidth,
    plot_pair,
    plot_panel,
    summary,
    volkov_basic,
    volkov_refined,
    worst_cases,
)
from gpumodels.comparisons.prior.estimate import (
    Estimate,
    ModelValidityWarning,
    expected_invalid,
)
from gpumodels.comparisons.prior.guide import (
    arithmetic_time,
    better_estimate_warps,
    cuda_guide_refined_warps,
    cuda_guide_warps,
    memory_time,
    table_4_3,
    times_add_throughput,
    times_overlap_throughput,
)
from gpumodels.comparisons.prior.hong_kim_2009 import cwp_full as hong_kim2009_cwp_full
from gpumodels.comparisons.prior.hong_kim_2009 import hong_kim2009, mwp_peak_bw
from gpumodels.comparisons.prior.huang_2014 import cpi_final as huang2014_cpi_final
from gpumodels.comparisons.prior.huang_2014 import (
    cpi_multithreading as huang2014_cpi_multithreading,
)
from gpumodels.comparisons.prior.huang_2014 import huang2014, huang2014_bandwidth_delay
from gpumodels.comparisons.prior.huang_2014 import parameters as huang2014_parameters
from gpumodels.comparisons.prior.huang_2014 import (
    service_time as huang2014_service_time,
)
from gpumodels.comparisons.prior.huang_2014 import utilization as huang2014_utilization
from gpumodels.comparisons.prior.li_2015 import transit2015
from gpumodels.comparisons.prior.sim_2012 import (
    sim2012,
    sim2012_mwp_peak_bw,
    sustained_gbs,
)
from gpumodels.comparisons.prior.zhang_owens_2011 import (
    model_curves as zhang_owens2011_model_curves,
)
from gpumodels.comparisons.prior.zhang_owens_2011 import (
    simulated_curves as zhang_owens2011_simulated_curves,
)
from gpumodels.comparisons.prior.zhang_owens_2011 import zhang_owens2011

__all__ = [
    "LABELS",
    "MODELS",
    "WORST_CASES",
    "Estimate",
    "ModelValidityWarning",
    "arithmetic_time",
    "baghsorkhi2010",
    "baghsorkhi2010_alpha0_ipc",
    "better_estimate_warps",
    "compare",
    "cuda_guide",
    "cuda_guide_refined_warps",
    "cuda_guide_warps",
    "curves",
    "cusp_occupancy",
    "errors",
    "evaluate",
    "expected_invalid",
    "hong_kim2009",
    "hong_kim2009_cwp_full",
    "huang2014",
    "huang2014_bandwidth_delay",
    "huang2014_cpi_final",
    "huang2014_cpi_multithreading",
    "huang2014_parameters",
    "huang2014_service_time",
    "huang2014_utilization",
    "memory_time",
    "mwp_peak_bw",
    "plot_error_band",
    "plot_error_panels",
    "plot_huang_bandwidth",
    "plot_pair",
    "plot_panel",
    "reference",
    "sim2012",
    "sim2012_mwp_peak_bw",
    "summary",
    "sustained_gbs",
    "table_4_3",
    "times_add_throughput",
    "times_overlap_throughput",
    "transit2015",
    "volkov_basic",
    "volkov_refined",
    "worst_cases",
    "zhang_owens2011",
    "zhang_owens2011_model_curves",
    "zhang_owens2011_simulated_curves",
]
