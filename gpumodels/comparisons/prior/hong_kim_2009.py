"""Hong & Kim (2009) as Volkov (2016) §7.1 reduces it for the α-workload.

Per repeating group of one load and α adds, with ``issue`` the cycles a CUDA-core
instruction occupies the SM (4 on GT200) and ``n`` warps per SM::

    MWP_peak_bw = mem_lat · peak_GB/s / (clock_GHz · SMs · 128 B)   (HK Eq. 6–7)
    MWP         = min(n, MWP_peak_bw)
    CWP         = min(n, (mem_lat + issue·(α+1)) / (issue·(α+1)))  (HK Eq. 8–9)
    Time        = mem_lat + issue·(α+1)   if MWP = CWP = n   latency-bound (HK Eq. 22)
                = mem_lat · n / MWP       if CWP > MWP       memory-bound  (HK Eq. 23)
                = issue · n · (α+1)       otherwise          compute-bound (HK Eq. 24)
    throughput  = n · (α+1) / Time   instructions per cycle per SM

Every line is the full model's own equation, computed by the engine's function of it
(:func:`~gpumodels.engines.mwp_cwp.mwp_peak_bw_from` for Eqs. 6–7,
:func:`~gpumodels.engines.mwp_cwp.cwp_full` for Eq. 8,
:func:`~gpumodels.engines.mwp_cwp.equation_case` and
:func:`~gpumodels.engines.mwp_cwp.cycles_eq22` to
:func:`~gpumodels.engines.mwp_cwp.cycles_eq24`; none is coded a second time here),
applied to one group, ``Mem_cycles = mem_lat`` and ``Comp_cycles = issue·(α+1)``, in the
long-warp limit: the small terms ε₁, ε₂ of §7.1 (``Comp_p × (MWP − 1)`` over many
groups, and ``Mem_L`` in Eq. 24) vanish and are left out; so is the
departure-delay cap of MWP, which §7.4 notes is loose for coalesced accesses. The one
real difference is the case selection. Hong & Kim's §3.4.2 also sends kernels with
``Comp_cycles > Mem_cycles`` to Eq. 23, the memory-bound formula; the dissertation's
reduction, the default here (``cases="volkov"``), uses the compute-bound one there (it
is what gives the flat 4 CPI §7.1 describes at α = ∞). ``cases="printed"`` applies Hong
& Kim's selection instead; the two part where computation dominates and CWP < N (on the
GTX280 at α = 256: by 4.7× at two warps up to 29× at 12).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from gpumodels.comparisons.prior.estimate import (
    Estimate,
    expected_invalid,
    grid,
    load_fraction,
    make,
    pin_bandwidth,
)
from gpumodels.engines import mwp_cwp as hk
from gpumodels.facts.params import BYTES_PER_LOAD, Params, check_params
from gpumodels.ground.errors import OutsideDomainError
from gpumodels.ground.validate import (
    as_array,
    check_choice,
    check_real,
    finite_result,
)

MODEL = "Hong & Kim 2009"


def mwp_peak_bw(
    peak_gbs, sm_count, clock_ghz, mem_lat, bytes_per_warp=BYTES_PER_LOAD
) -> float:
    """Warps per SM that keep ``peak_gbs`` busy by Little's law (Hong & Kim Eq. 6–7;
    Volkov §7.1)::

        MWP_peak_bw = mem_lat · peak_gbs / (clock_ghz · sm_count · bytes_per_warp)

    The number of memory instructions in flight per SM at peak throughput; Hong & Kim
    read it as a number of warps (§3.3 explains why that is misleading). The equations
    are the engine's, :func:`gpumodels.engines.mwp_cwp.mwp_peak_bw_from` (Eq. 6 of Eq.
    7, with ``Mem_L = mem_lat``); this function names Volkov's parameters and refuses a
    result outside the floating-point range. GTX280, pin bandwidth:

    >>> round(mwp_peak_bw(141.7, 30, 1.296, 434), 1)
    12.4
    """
    bw = check_real("peak_gbs", peak_gbs, 0.0, lo_open=True)
    sms = check_real("sm_count", sm_count, 0.0, lo_open=True)
    clk = check_real("clock_ghz", clock_ghz, 0.0, lo_open=True)
    lat = check_real("mem_lat", mem_lat, 0.0, lo_open=True)
    b = check_real("bytes_per_warp", bytes_per_warp, 0.0, lo_open=True)
    mwp = hk.mwp_peak_bw_from(bw, sms, clk, lat, b)
    if not np.isfinite(mwp) or mwp <= 0:
        raise OutsideDomainError(
            f"MWP_peak_bw = {mwp!r} is outside the floating-point range for "
            f"peak_gbs={bw!r}, sm_count={sms!r}, clock_ghz={clk!r}, mem_lat={lat!r}, "
            f"bytes_per_warp={b!r}"
        )
    return float(mwp)


def cwp_full(mem_lat, issue_cycles, alpha):
    """Hong & Kim's CWP before the cap at ``n`` (Eq. 8–9 as §7.1 reduces them)::

        CWP_full = (mem_lat + issue·(α+1)) / (issue·(α+1)) = 1 + mem_lat / (issue·(α+1))

    GTX280 at α = 32: ``1 + 434 / (4·33)`` = 4.29 ("4.3").
    """
    lat = check_real("mem_lat", mem_lat, 0.0, lo_open=True)
    iss = check_real("issue_cycles", issue_cycles, 0.0, lo_open=True)
    _, a = grid(1.0, alpha)
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        res = hk.cwp_full(
            lat * load_fraction(a), iss
        )  # Eq. 8 per instruction of the group
    return finite_result("CWP_full", res, mem_lat=lat, issue_cycles=iss, alpha=alpha)


def hong_kim2009(
    p: Params,
    n,
    alpha,
    *,
    peak_gbs: float | None = None,
    issue_cycles: float | None = None,
    cases: str = "volkov",
) -> Estimate:
    """Hong & Kim (2009) throughput for the α-workload (Volkov 2016 §7.1; module
    docstring).

    ``peak_gbs`` defaults to the pin bandwidth (as Hong & Kim use it) and
    ``issue_cycles`` to ``1 / alu_thru`` (4 cycles on G80/GT200). ``cases``:
    ``"volkov"`` (the dissertation's case selection, default) or ``"printed"`` (Hong &
    Kim's §3.4.2). Regimes: ``"latency"`` (Eq. 22), ``"memory"`` (Eq. 23), ``"compute"``
    (Eq. 24).
    """
    p = check_params(p)
    check_choice("cases", cases, ("volkov", "printed"))
    n_, a_ = grid(n, alpha)
    pin = pin_bandwidth(p)
    bw = (
        pin if peak_gbs is None else check_real("peak_gbs", peak_gbs, 0.0, lo_open=True)
    )
    issue = (
        1.0 / p.alu_thru
        if issue_cycles is None
        else check_real("issue_cycles", issue_cycles, 0.0, lo_open=True)
    )
    mwp_bw = mwp_peak_bw(bw, p.sm_count, p.clock_ghz, p.mem_lat)
    # one group per instruction: Mem_cycles and Comp_cycles of a group divided by its α
    # + 1 instructions
    mem_c = load_fraction(a_) * p.mem_lat
    comp_c = np.full(n_.shape, issue)
    mwp = np.minimum(n_, mwp_bw)  # Eq. 5 without the departure cap
    cwp = np.minimum(n_, np.asarray(hk.cwp_full(mem_c, comp_c)))  # Eqs. 8-9
    if cases == "printed":
        eq = np.asarray(hk.equation_case(mwp, cwp, n_, comp_c, mem_c))
    else:
        eq = np.where((mwp == n_) & (cwp == n_), 22, np.where(cwp > mwp, 23, 24))
    with np.errstate(
        divide="ignore", invalid="ignore"
    ):  # long warps: comp_p -> 0, Mem_L -> 0
        t = np.where(
            eq == 22,
            hk.cycles_eq22(mem_c, comp_c, 0.0, mwp),
            np.where(
                eq == 23,
                hk.cycles_eq23(mem_c, n_, mwp, 0.0),
                hk.cycles_eq24(0.0, comp_c, n_),
            ),
        )
    regime = np.where(eq == 22, "latency", np.where(eq == 23, "memory", "compute"))
    # a zero time (Eq. 23 at alpha = inf: no loads) gives an infinite throughput, which
    # make flags as "not finite" and warns about (ModelValidityWarning)
    with np.errstate(divide="ignore", invalid="ignore"):
        ipc = n_ / t
    return make(MODEL, p, n_, a_, ipc, regime, pin_gbs=pin)


def case_rule_comparison(p: Params, n, alpha):
    """The §7.1 reduction beside Hong & Kim's printed case rule (``cases="printed"``) at
    one α: IPC, the equation each picks, their ratio and the printed rule's flags (its
    impossible outputs are shown, not warned about). ``alpha`` must be finite: at
    α = ∞ the printed rule's IPC is n/0 (:func:`hong_kim2009` with
    ``cases="printed"`` flags it)."""
    p = check_params(p)
    as_array("alpha", alpha)

    red = hong_kim2009(p, n, alpha)
    with expected_invalid():
        printed = hong_kim2009(p, n, alpha, cases="printed")
    with np.errstate(divide="ignore", invalid="ignore"):  # flagged outputs
        ratio = printed.ipc / red.ipc
    columns = {
        "warps/SM": red.n,
        "§7.1 reduction (IPC)": red.ipc,
        "§7.1 case": red.regime,
        "Hong & Kim's rule (IPC)": printed.ipc,
        "Hong & Kim's case": printed.regime,
        "ratio": ratio,
        "flags": printed.flags,
    }
    # one row per grid point (a scalar n and alpha: one row)
    return pd.DataFrame({k: np.ravel(v) for k, v in columns.items()})
