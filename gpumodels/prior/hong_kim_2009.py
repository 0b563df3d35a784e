"""Hong & Kim (2009) as Volkov (2016) §7.1 reduces it for the α-workload.

Per repeating group of one load and α adds, with ``issue`` the cycles a CUDA-core instruction
occupies the SM (4 on GT200) and ``n`` warps per SM::

    MWP_peak_bw = mem_lat · peak_GB/s / (clock_GHz · SMs · 128 B)      (HK Eq. 6–7)
    MWP         = min(n, MWP_peak_bw)
    CWP         = min(n, (mem_lat + issue·(α+1)) / (issue·(α+1)))     (HK Eq. 8–9)
    Time        = mem_lat + issue·(α+1)          if MWP = CWP = n     latency-bound (HK Eq. 22)
                = mem_lat · n / MWP              if CWP > MWP         memory-bound
                = issue · n · (α+1)              otherwise            compute-bound (HK Eq. 24)
    throughput  = n · (α+1) / Time   instructions per cycle per SM

The small terms ε₁, ε₂ of §7.1 vanish for long warps and are left out; so is the
departure-delay cap of MWP, which §7.4 notes is loose for coalesced accesses. Hong & Kim's
original also sends kernels with ``Comp_cycles > Mem_cycles`` to the memory-bound formula; the
dissertation's reduction, which this module follows, uses the compute-bound one there (it is
what gives the flat 4 CPI §7.1 describes at α = ∞).
"""

from __future__ import annotations

import numpy as np

from .._validate import check_real
from ..volkov.synthetic import BYTES_PER_LOAD, Params
from .estimate import Estimate, grid, load_fraction, make, pin_bandwidth

MODEL = "Hong & Kim 2009"


def mwp_peak_bw(peak_gbs, sm_count, clock_ghz, mem_lat, bytes_per_warp=BYTES_PER_LOAD) -> float:
    """Warps per SM that keep ``peak_gbs`` busy by Little's law (Hong & Kim Eq. 6–7; Volkov §7.1)::

        MWP_peak_bw = mem_lat · peak_gbs / (clock_ghz · sm_count · bytes_per_warp)

    The number of memory instructions in flight per SM at peak throughput; Hong & Kim read it
    as a number of warps (§3.3 explains why that is misleading). GTX280, pin bandwidth:

    >>> round(mwp_peak_bw(141.7, 30, 1.296, 434), 1)
    12.4
    """
    bw = check_real("peak_gbs", peak_gbs, 0.0, lo_open=True)
    sms = check_real("sm_count", sm_count, 0.0, lo_open=True)
    clk = check_real("clock_ghz", clock_ghz, 0.0, lo_open=True)
    lat = check_real("mem_lat", mem_lat, 0.0, lo_open=True)
    b = check_real("bytes_per_warp", bytes_per_warp, 0.0, lo_open=True)
    return lat * bw / (clk * sms * b)


def cwp_full(mem_lat, issue_cycles, alpha):
    """Hong & Kim's CWP before the cap at ``n`` (Eq. 8–9 as §7.1 reduces them)::

        CWP_full = (mem_lat + issue·(α+1)) / (issue·(α+1)) = 1 + mem_lat / (issue·(α+1))

    GTX280 at α = 32: ``1 + 434 / (4·33)`` = 4.29 ("4.3").
    """
    lat = check_real("mem_lat", mem_lat, 0.0, lo_open=True)
    iss = check_real("issue_cycles", issue_cycles, 0.0, lo_open=True)
    _, a = grid(1.0, alpha)
    res = 1.0 + lat * load_fraction(a) / iss
    return float(res) if np.ndim(res) == 0 else res


def hong_kim2009(p: Params, n, alpha, *, peak_gbs: float | None = None, issue_cycles: float | None = None) -> Estimate:
    """Hong & Kim (2009) throughput for the α-workload (Volkov 2016 §7.1; module docstring).

    ``peak_gbs`` defaults to the pin bandwidth (as Hong & Kim use it) and ``issue_cycles`` to
    ``1 / alu_thru`` (4 cycles on G80/GT200). Regimes: ``"latency"``, ``"memory"``, ``"compute"``.
    """
    n_, a_ = grid(n, alpha)
    pin = pin_bandwidth(p)
    bw = pin if peak_gbs is None else check_real("peak_gbs", peak_gbs, 0.0, lo_open=True)
    issue = 1.0 / p.alu_thru if issue_cycles is None else check_real("issue_cycles", issue_cycles, 0.0, lo_open=True)
    mwp_bw = mwp_peak_bw(bw, p.sm_count, p.clock_ghz, p.mem_lat)
    g = load_fraction(a_)
    cwp_f = np.asarray(cwp_full(p.mem_lat, issue, a_))
    mwp, cwp = np.minimum(n_, mwp_bw), np.minimum(n_, cwp_f)
    latency_bound = (mwp == n_) & (cwp == n_)
    memory_bound = ~latency_bound & (cwp > mwp)
    # time per instruction of the group: Time / (α + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(latency_bound, g * p.mem_lat + issue,
                     np.where(memory_bound, g * p.mem_lat * n_ / mwp, issue * n_))
    regime = np.where(latency_bound, "latency", np.where(memory_bound, "memory", "compute"))
    return make(MODEL, p, n_, a_, n_ / t, regime, pin_gbs=pin)
