"""Huang et al. (2014, GPUMech) as Volkov (2016) §7.5–7.8 reduces it for the α-workload.

Every instruction of the workload depends on the previous one, so each is an interval of
one instruction. With ``n`` warps per scheduler (Kepler, Maxwell: four per SM; one
elsewhere)::

    total_cycles = mem_lat + α·alu_lat
    p            = (1 + α) / (mem_lat + α·alu_lat)          (their Eq. 9)
    IPC_mt       = n·(1 + α) / (total_cycles + NO)          (their Eq. 7, typo fixed)

Round-robin policy (their Eq. 10–11): ``NO = 0``. Greedy-then-oldest (their Eq. 12–16,
with the max/min typos of Eq. 15–16 fixed as §7.6 says)::

    NO_i = max(0, min(p·stall_i, 1)·(n − 1) − stall_i),   stall_i = latency_i − 1
    NO   = NO_mem + α·NO_alu

Neither bounds throughput by the hardware: at α = 0 RR gives ``n/mem_lat`` at any n, and
at α = ∞ GTO tends to ``1/(1 − 1/alu_lat)`` instructions per cycle per scheduler, 20 %
above the issue rate on Maxwell. Such outputs are flagged
(:mod:`gpumodels.comparisons.prior.estimate`).

The bandwidth term (§7.7–7.8; their Eq. 17–23), meant for diverging accesses::

    CPI_final = CPI_mt + (MSHR_delay + Bandwidth_delay) / (1 + α)   (their Eq. 3, 17)
    λ         = k·n·#cores / mem_lat        (Eq. 23; requests per cycle,
                                             k transactions per access)
    s         = clock · 128 B / pin bandwidth       (cycles per transaction)
    ρ         = λ·s                                               (their Eq. 22)
    Bandwidth_delay = min(λ·s² / (2·(1 − ρ)), s·k·n·#cores / 2)  (their Eq. 21)

The extracted Eq. 21 is garbled (its first term reads ``s²/(2(1 − ρ))``). The reading
above — the M/D/1 mean wait ``ρ·s/(2(1 − ρ))`` — is the one that reproduces every
printed number: ρ ≈ 1.14 at n = 32 and ρ ≈ 1.03, Bandwidth_delay ≈ −11, CPI ≈ −0.7 at n
= 29 on the paper's synthetic GPU (with s = 2/3, printed "0.667"), a singularity at n ≈
28.1, −12 adds/cycle at n = 34 on Fermi with α = 32, and Bandwidth_delay ≈ −120, CPI ≈
−89 with stride-2 accesses. MSHR_delay is zero whenever ``k·n`` does not exceed the MSHR
count (their Eq. 20), which holds in every case of the dissertation; beyond it the book
returns NaN, flagged, because the rest of Eq. 20 is not printed in the seeds.
"""

from __future__ import annotations

import warnings

import numpy as np

from gpumodels.comparisons.prior.estimate import (
    Estimate,
    ModelValidityWarning,
    add_fraction,
    grid,
    load_fraction,
    make,
    pin_bandwidth,
)
from gpumodels.facts.params import BYTES_PER_LOAD, Params, check_params
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import UnknownNameError
from gpumodels.ground.validate import check_flag, check_int, check_real, finite_result

MODEL = "Huang et al. 2014"
POLICIES = ("rr", "gto")
_PARAMS = "volkov/chapter7_parameters.csv"


def parameters(context: str) -> dict[str, float]:
    """Chapter-7 inputs quoted by Volkov for ``context`` (``"synthetic"``: Huang et
    al.'s GPU; ``"Fermi"``)."""
    rows = {
        r["parameter"]: float(r["value"])
        for r in read_rows(_PARAMS)
        if r["context"] == context
    }
    if not rows:
        known = sorted({r["context"] for r in read_rows(_PARAMS)})
        raise UnknownNameError(f"context must be one of {known}, got {context!r}")
    return rows


def _policy(policy: str) -> str:
    if policy not in POLICIES:
        raise ValueError(
            "policy must be 'rr' (round-robin) or 'gto' (greedy-then-oldest), got "
            f"{policy!r}"
        )
    return policy


def _no(prob, stall, n):
    """Non-overlapped instructions of one interval of size one
    (GTO, their Eq. 12–16 fixed)."""
    return np.maximum(0.0, np.minimum(prob * stall, 1.0) * (n - 1.0) - stall)


def cpi_multithreading(n, alpha, *, mem_lat, alu_lat, policy: str = "rr"):
    """``CPI_mt = 1 / IPC_mt`` cycles per instruction per scheduler (their Eq. 7–16 as
    §7.5–7.6 reduce them).

    ``n`` warps per scheduler (> 0), ``alpha`` adds per load (may be ``inf``). Always
    positive.

    >>> cpi = cpi_multithreading(16, float("inf"), mem_lat=368, alu_lat=6, policy="gto")
    >>> round(1 / cpi, 3)
    1.185
    """
    n_, a_ = grid(n, alpha)
    lat_m = check_real("mem_lat", mem_lat, 0.0, lo_open=True)
    lat_a = check_real("alu_lat", alu_lat, 0.0, lo_open=True)
    f, g = add_fraction(a_), load_fraction(a_)
    per_inst = g * lat_m + f * lat_a  # total_cycles / (1 + α)
    if _policy(policy) == "gto":
        prob = 1.0 / per_inst  # their Eq. 9
        per_inst = (
            per_inst + g * _no(prob, lat_m - 1.0, n_) + f * _no(prob, lat_a - 1.0, n_)
        )
    res = per_inst / n_
    return float(res) if np.ndim(res) == 0 else res


def service_time(clock_ghz, peak_gbs, bytes_per_transaction=BYTES_PER_LOAD) -> float:
    """``s = clock · bytes / bandwidth``: cycles the memory system spends per
    transaction (§7.7).

    >>> round(service_time(1.4, 177.4), 4)       # GTX480, pin bandwidth
    1.0101
    """
    clk = check_real("clock_ghz", clock_ghz, 0.0, lo_open=True)
    bw = check_real("peak_gbs", peak_gbs, 0.0, lo_open=True)
    b = check_real("bytes_per_transaction", bytes_per_transaction, 0.0, lo_open=True)
    return finite_result(
        "s", clk * b / bw, clock_ghz=clk, peak_gbs=bw, bytes_per_transaction=b
    )


def utilization(n, cores, mem_lat, s, transactions_per_access=1):
    """``ρ = λ·s`` with ``λ = k·n·cores/mem_lat`` (their Eq. 22–23). It exceeds 1 freely
    — the model's flaw.

    >>> # Huang et al.'s synthetic GPU at full occupancy
    >>> round(utilization(32, 16, 300, 2 / 3), 2)
    1.14
    """
    res = _bandwidth_delay(
        *_queue_inputs(n, cores, mem_lat, s, transactions_per_access)
    )[1]
    return float(res) if np.ndim(res) == 0 else res


def _queue_inputs(n, cores, mem_lat, s, transactions_per_access):
    n_, _ = grid(n, 0.0)
    return (
        n_,
        check_int("cores", cores, 1),
        check_real("mem_lat", mem_lat, 0.0, lo_open=True),
        check_real("s", s, 0.0, lo_open=True),
        check_int("transactions_per_access", transactions_per_access, 1),
    )


def _bandwidth_delay(n, cores, mem_lat, s, k):
    with np.errstate(over="ignore"):
        lam = k * n * cores / mem_lat
        rho = lam * s
    finite_result(
        "the utilisation ρ = k·n·cores·s/mem_lat",
        rho,
        s=s,
        mem_lat=mem_lat,
        cores=cores,
    )
    # ±inf: the model's own singularity
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        queue = lam * s * s / (2.0 * (1.0 - rho))
    # the singularity: approached from above ρ = 1 it is −∞
    finite_result(
        "the queueing delay λ·s²/(2·(1 − ρ))",
        np.where(rho == 1.0, 0.0, queue),
        s=s,
        mem_lat=mem_lat,
        cores=cores,
    )
    queue = np.where(rho == 1.0, -np.inf, queue)
    with np.errstate(over="ignore"):  # a cap beyond the float range caps nothing
        cap = s * k * n * cores / 2.0
    return np.minimum(queue, cap), rho


def huang2014_bandwidth_delay(n, cores, mem_lat, s, transactions_per_access=1):
    """The §7.7 ``Bandwidth_delay`` term in cycles (their Eq. 21–23, read as in the
    module docstring)::

        min(λ·s² / (2·(1 − ρ)), s·k·n·cores / 2),   λ = k·n·cores / mem_lat,   ρ = λ·s

    ``n`` warps per SM (> 0, array allowed), ``cores`` the number of SMs, ``mem_lat``
    and ``s`` in cycles, ``transactions_per_access`` k (2 for §7.8's stride-2 loads).
    The value is negative when ρ > 1 and unbounded near ρ = 1; that is the point of
    §7.7, so it is returned, with a
    :class:`~gpumodels.comparisons.prior.estimate.ModelValidityWarning`.

    >>> from gpumodels.comparisons.prior import expected_invalid
    >>> with expected_invalid():
    ...     round(huang2014_bandwidth_delay(29, 16, 300, 2 / 3), 1)
    -11.0
    """
    delay, rho = _bandwidth_delay(
        *_queue_inputs(n, cores, mem_lat, s, transactions_per_access)
    )
    if np.any(rho >= 1.0):
        warnings.warn(
            f"utilisation ρ = λ·s reaches {np.max(rho):.3g} ≥ 1: Bandwidth_delay is "
            "negative or singular (Volkov 2016 §7.7)",
            ModelValidityWarning,
            stacklevel=2,
        )
    return float(delay) if np.ndim(delay) == 0 else delay


def cpi_final(
    n,
    alpha,
    *,
    mem_lat,
    alu_lat,
    policy: str = "rr",
    cores=None,
    s=None,
    transactions_per_access=1,
):
    """``CPI_final = CPI_mt + Bandwidth_delay / (1 + α)`` per SM with one scheduler
    (their Eq. 3, 17).

    Without ``cores`` and ``s`` it is ``CPI_mt`` (coalesced accesses: no contention
    term, their §IV.B). MSHR_delay is taken as zero. Can be negative (with a warning
    from the delay term).
    """
    transactions_per_access = check_int(
        "transactions_per_access", transactions_per_access, 1
    )
    mt = np.asarray(
        cpi_multithreading(n, alpha, mem_lat=mem_lat, alu_lat=alu_lat, policy=policy)
    )
    if (cores is None) != (s is None):
        raise ValueError(
            "cores and s must be given together (the bandwidth term needs both) "
            "or not at all"
        )
    if cores is None:
        return float(mt) if mt.ndim == 0 else mt
    n_, a_ = grid(n, alpha)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ModelValidityWarning)
        delay = np.asarray(
            huang2014_bandwidth_delay(n_, cores, mem_lat, s, transactions_per_access)
        )
    res = mt + load_fraction(a_) * delay
    if np.any(res < 0) or np.any(delay < 0):
        warnings.warn(
            "Bandwidth_delay is negative at some n: CPI_final is below CPI_mt, "
            f"negative where it reaches {np.min(res):.3g} (Volkov 2016 §7.7)",
            ModelValidityWarning,
            stacklevel=2,
        )
    return float(res) if np.ndim(res) == 0 else res


def issue_units(p: Params) -> int:
    """Schedulers the model is applied to separately: ``max(1, floor(issue_thru))`` — 4
    on Kepler and Maxwell (§7.5: n per scheduler), 1 on Fermi (1 issue per cycle per SM)
    and on G80/GT200."""
    p = check_params(p)
    return max(1, int(p.issue_thru))


def huang2014(
    p: Params,
    n,
    alpha,
    *,
    policy: str = "rr",
    bandwidth: bool = False,
    peak_gbs: float | None = None,
    transactions_per_access: int = 1,
    mshr: int | None = None,
) -> Estimate:
    """Huang et al. (2014) throughput for the α-workload
    (Volkov 2016 §7.5–7.8; module docstring).

    ``n`` warps per SM, split over
    :func:`gpumodels.comparisons.prior.huang_2014.issue_units` schedulers.
    ``bandwidth=True`` adds the §7.7 term with ``s`` from ``peak_gbs`` (default: pin
    bandwidth) and ``#cores`` = SMs; it is added to the SM's CPI, as on the
    one-scheduler Fermi of §7.7 (applying it to Kepler and Maxwell is the book's
    extension). ``mshr`` (MSHRs per SM; ``None``: enough for every request, the
    dissertation's assumption) bounds where MSHR_delay = 0; beyond it the estimate is
    NaN and flagged. Flags added here: ``"utilisation above 1"``, ``"negative
    Bandwidth_delay"``, ``"MSHR_delay not modelled"``. Regime: the policy, with
    ``"+bandwidth"`` when the term is on.
    """
    p = check_params(p)
    n_, a_ = grid(n, alpha)
    bandwidth = check_flag("bandwidth", bandwidth)
    # checked even when the bandwidth term is off, so a bad value never passes unseen
    k = check_int("transactions_per_access", transactions_per_access, 1)
    if peak_gbs is not None:
        check_real("peak_gbs", peak_gbs, 0.0, lo_open=True)
    if mshr is not None:
        mshr = check_int("mshr", mshr, 1)
    units = issue_units(p)
    ipc = units / np.asarray(
        cpi_multithreading(
            n_ / units, a_, mem_lat=p.mem_lat, alu_lat=p.alu_lat, policy=policy
        )
    )
    extra = {}
    if bandwidth:
        s = service_time(
            p.clock_ghz, pin_bandwidth(p) if peak_gbs is None else peak_gbs
        )
        delay, rho = _bandwidth_delay(n_, p.sm_count, p.mem_lat, s, k)
        with np.errstate(divide="ignore", invalid="ignore"):
            ipc = 1.0 / (1.0 / ipc + load_fraction(a_) * delay)
        extra = {
            "utilisation above 1": rho >= 1.0,
            "negative Bandwidth_delay": delay < 0,
        }
        if mshr is not None:
            over = k * n_ > mshr
            ipc = np.where(over, np.nan, ipc)
            extra["MSHR_delay not modelled"] = over
    regime = f"{_policy(policy).upper()}{' +bandwidth' if bandwidth else ''}"
    policy_name = "round-robin" if policy == "rr" else "greedy-then-oldest"
    label = f"{MODEL} ({policy_name}{', bandwidth term' if bandwidth else ''})"
    return make(label, p, n_, a_, ipc, regime, extra=extra, pin_gbs=pin_bandwidth(p))
