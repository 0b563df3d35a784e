"""Sim et al. (2012) as Volkov (2016) §7.4 reduces it for the α-workload.

Hong & Kim's MWP/CWP with arithmetic latency. With ``alu = max(alu_lat/n, 1/alu_thru)``
cycles per add at occupancy ``n`` (their Eq. 2–6), per repeating group of one load and α
adds::

    T_comp = (α+1) · n · alu
    CWP    = min(n, 1 + mem_lat / ((α+1)·alu))          (their Eq. 4, 5, A.1–A.4)
    MWP    = min(n, MWP_peak_bw)                        (their Eq. A.5 without Δ)
    T_mem  = n · mem_lat / min(MWP, max(1, CWP − 1))    (their Eq. 11–15)
    T_exec = max(T_comp, T_mem)              if CWP > MWP   (their Eq. 1, 16, 17)
           = max(T_comp, T_mem + T_comp/n)   if CWP ≤ MWP
    throughput = n · (α+1) / T_exec   instructions per cycle per SM

CWP and ``MWP_peak_bw`` are Hong & Kim's Eqs. 8 and 6–7, computed by the engine's
functions (:func:`~gpumodels.engines.mwp_cwp.cwp_full` with ``Mem_cycles = mem_lat`` and
``Comp_cycles = (α+1)·alu``, and :func:`~gpumodels.engines.mwp_cwp.mwp_peak_bw_from`
through :func:`gpumodels.comparisons.prior.hong_kim_2009.mwp_peak_bw`), not coded a
second time here.

``MWP_peak_bw`` comes from the best *sustained* throughput of Table 6.4 (Table 7.1:
30.7, 40.3 and 29.9 warps on Fermi, Kepler, Maxwell), not from pin bandwidth, and the
departure-delay cap ``avg_DRAM_lat / Δ`` is dropped: §7.4 explains both choices.
``cwp_minus_one=False`` replaces ``CWP − 1`` by ``CWP``, the variant §7.4 mentions that
removes the factor-2 underestimate at two warps.
"""

from __future__ import annotations

import numpy as np

from gpumodels.comparisons.prior.estimate import Estimate, grid, load_fraction, make
from gpumodels.comparisons.prior.hong_kim_2009 import mwp_peak_bw
from gpumodels.engines import mwp_cwp as hk
from gpumodels.facts import modern
from gpumodels.facts.param_sets import chapter6_value
from gpumodels.facts.params import Params, check_params
from gpumodels.ground.errors import UnknownNameError
from gpumodels.ground.validate import check_flag, check_real

MODEL = "Sim et al. 2012"


def sim2012_mwp_peak_bw(peak_gbs, sm_count, clock_ghz, mem_lat) -> float:
    """``MWP_peak_bw`` in warps per SM (Sim et al. Eq. A.5 via Hong & Kim Eq. 6–7;
    Volkov Table 7.1)::

        mem_lat · peak_gbs / (clock_ghz · sm_count · 128 B)

    With Table 6.4's best sustained 161 GB/s on the GTX480 (15 SMs, 1.4 GHz, 513
    cycles):

    >>> round(sim2012_mwp_peak_bw(161, 15, 1.4, 513), 1)
    30.7
    """
    return mwp_peak_bw(peak_gbs, sm_count, clock_ghz, mem_lat)


def sustained_gbs(p: Params) -> float:
    """Table 6.4's best sustained streaming throughput of ``p``'s GPU in GB/s (Volkov
    2016)."""
    p = check_params(p)
    try:
        return chapter6_value(p.gpu, "6.4", "peak")
    except KeyError as e:
        if (
            p.gpu in modern.GPUS
        ):  # a modern GPU: its mem_thru is a sustained bandwidth already
            return p.mem_thru_gbs
        raise UnknownNameError(
            f"p must be one of Volkov's five GPUs or a modern GPU: {e}"
        ) from None


def sim2012(
    p: Params, n, alpha, *, mwp_peak: float | None = None, cwp_minus_one: bool = True
) -> Estimate:
    """Sim et al. (2012) throughput for the α-workload (Volkov 2016 §7.4; module
    docstring).

    ``mwp_peak`` (warps per SM) defaults to :func:`sim2012_mwp_peak_bw` of Table 6.4's
    sustained GB/s. Regimes: ``"CWP > MWP"`` or ``"CWP <= MWP"`` (which ``T_exec``
    formula applies).
    """
    p = check_params(p)
    n_, a_ = grid(n, alpha)
    cwp_minus_one = check_flag("cwp_minus_one", cwp_minus_one)
    mwp_bw = (
        sim2012_mwp_peak_bw(sustained_gbs(p), p.sm_count, p.clock_ghz, p.mem_lat)
        if mwp_peak is None
        else check_real("mwp_peak", mwp_peak, 0.0, lo_open=True)
    )
    g = load_fraction(a_)
    alu = np.maximum(p.alu_lat / n_, 1.0 / p.alu_thru)
    cwp = np.minimum(n_, hk.cwp_full(g * p.mem_lat, alu))  # HK Eqs. 8-9 per instruction
    mwp = np.minimum(n_, mwp_bw)
    eff = np.minimum(mwp, np.maximum(1.0, cwp - 1.0) if cwp_minus_one else cwp)
    # each time divided by (α + 1)
    t_comp = n_ * alu
    t_mem = g * n_ * p.mem_lat / eff
    above = cwp > mwp
    t_exec = np.where(
        above, np.maximum(t_comp, t_mem), np.maximum(t_comp, t_mem + t_comp / n_)
    )
    regime = np.where(above, "CWP > MWP", "CWP <= MWP")
    label = MODEL if cwp_minus_one else f"{MODEL} (CWP in place of CWP − 1)"
    return make(label, p, n_, a_, n_ / t_exec, regime)
