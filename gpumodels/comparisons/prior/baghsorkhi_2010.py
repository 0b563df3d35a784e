"""Baghsorkhi et al. (2010) as Volkov (2016) §7.2 reduces it for the α-workload.

The work-flow graph of the workload is a chain M → C → M → C …; per repeating group of
one load (node M) and α adds (node C), with ``issue`` the generic issue latency (4
cycles on G80), ``mem_cpi`` the load's reciprocal peak throughput per SM (37 cycles on
G80, Table 6.1) and ``n`` warps per SM::

    alu               = max(issue_alu, alu_lat / n)  "latency" of one add (their Eq. 3)
    CYC_compute/NUM_mem = x = α·alu + issue
    Latency_BW        = issue + max(0, mem_cpi − α·alu − issue)          (their Eq. 4)
    NBC_avg           ≈ x                                                (their Eq. 5)
    Latency_exposed   = mem_lat − (n − 1)·NBC_avg                        (their Eq. 6)
    Warp latency      = α·alu + max(Latency_BW, Latency_exposed)
                      = max(mem_cpi, x, mem_lat − issue − (n − 2)·x)
    throughput        = (α + 1) / Warp latency   instructions per cycle per SM

(the total time is the sum of the warp latencies of the ``n`` warps). At α = 0 this is
``1 / max(mem_lat + issue − issue·n, mem_cpi)`` — ``1/max(448 − 4n, 37)`` on G80.
"""

from __future__ import annotations

import numpy as np

from gpumodels.comparisons.prior.estimate import (
    Estimate,
    add_fraction,
    grid,
    load_fraction,
    make,
)
from gpumodels.facts.params import Params, check_params
from gpumodels.ground.validate import check_real

MODEL = "Baghsorkhi et al. 2010"


def baghsorkhi2010(
    p: Params,
    n,
    alpha,
    *,
    issue_cycles: float | None = None,
    alu_cpi: float | None = None,
    mem_cpi: float | None = None,
) -> Estimate:
    """Baghsorkhi et al. (2010) throughput for the α-workload
    (Volkov 2016 §7.2; module docstring).

    Defaults: ``issue_cycles`` (the generic issue latency on the M arcs) and ``alu_cpi``
    (an add's reciprocal peak throughput) both ``1 / alu_thru``, ``mem_cpi = 1 /
    mem_thru`` (the best sustained throughput; the text rounds it to 37 on G80). Regimes
    name the term of the warp latency that wins: ``"bandwidth"`` (``mem_cpi``),
    ``"compute"`` (``x``) or ``"exposed latency"``.
    """
    p = check_params(p)
    n_, a_ = grid(n, alpha)
    issue = (
        1.0 / p.alu_thru
        if issue_cycles is None
        else check_real("issue_cycles", issue_cycles, 0.0, lo_open=True)
    )
    alu_c = (
        1.0 / p.alu_thru
        if alu_cpi is None
        else check_real("alu_cpi", alu_cpi, 0.0, lo_open=True)
    )
    mem_c = (
        1.0 / p.mem_thru
        if mem_cpi is None
        else check_real("mem_cpi", mem_cpi, 0.0, lo_open=True)
    )
    f, g = add_fraction(a_), load_fraction(a_)
    alu = np.maximum(alu_c, p.alu_lat / n_)
    # every term divided by (α + 1): x_i = x/(α+1), etc.
    x = f * alu + g * issue
    terms = np.stack(
        np.broadcast_arrays(g * mem_c, x, g * (p.mem_lat - issue) - (n_ - 2.0) * x)
    )
    wl = terms.max(axis=0)
    regime = np.array(["bandwidth", "compute", "exposed latency"])[terms.argmax(axis=0)]
    return make(MODEL, p, n_, a_, 1.0 / wl, regime)


def alpha0_ipc(n, mem_lat, issue_cycles, mem_cpi):
    """The α = 0 closed form of §7.2: ``1 / max(mem_lat + issue − issue·n, mem_cpi)``
    loads per cycle per SM.

    >>> round(1 / alpha0_ipc(24, 444, 4, 37))        # G80 at 24 warps: 448 − 96
    352
    """
    n_, _ = grid(n, 0.0)
    lat = check_real("mem_lat", mem_lat, 0.0, lo_open=True)
    iss = check_real("issue_cycles", issue_cycles, 0.0, lo_open=True)
    mc = check_real("mem_cpi", mem_cpi, 0.0, lo_open=True)
    res = 1.0 / np.maximum(lat + iss - iss * n_, mc)
    return float(res) if np.ndim(res) == 0 else res
