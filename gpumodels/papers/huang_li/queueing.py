"""Bank queues of Huang & Li (2017) §III-C3:
Kingman's G/G/1 approximation and its checks.

Each DRAM bank is a single server with its own queue (their Fig. 3). Per bank the model
needs the arrival rate λ = 1/τ_a, the coefficients of variation of the inter-arrival and
service times, c_a = σ_a/τ_a and c_s = σ_s/τ_s, and the utilisation ρ = τ_s/τ_a (Eq. 10;
Table III prints ρ = λ·τ_c, a typo for τ_s). The mean wait in the queue is Kingman's
approximation

    W_q ≈ ((c_a² + c_s²)/2) · (ρ/(1 − ρ)) · τ_s     (standard form, :func:`kingman`)

The extracted Eq. 9 reads ``((c_a + c_s)/2) · (ρ/(1 − ρ)) · τ_a``
(:func:`kingman_printed`): the squares are missing and τ_a stands where τ_s belongs.
Since ρ·τ_a = τ_s, the printed form is ``((c_a + c_s)/2) · τ_s/(1 − ρ)``, a wait of
about ``(c_a + c_s)/2 · τ_s`` at zero load, which no queue has [A2]. The book implements
both, shows both, and uses the standard form.

Closed forms for checking: M/M/1 (:func:`mm1`), M/D/1 (:func:`md1`) and
Pollaczek–Khinchine for M/G/1 (:func:`pollaczek_khinchine`), which Kingman's form equals
exactly at c_a = 1. The numpy Lindley recursion
(:func:`~gpumodels.engines.refsim.dram.lindley`, :func:`simulate_gg1`) is the
discrete-event reference.

At ρ ≥ 1 no steady state exists: the closed forms raise ``OutsideDomainError`` naming
ρ there (:func:`saturated` says where), never a NaN, negative or infinite wait;
:func:`bank_latency` returns each bank's saturation flag beside its latency.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from gpumodels.engines.refsim.dram import lindley
from gpumodels.ground.errors import OutsideDomainError
from gpumodels.ground.validate import (
    as_array,
    broadcast,
    check_choice,
    check_int,
    check_real,
    finite_result,
    out,
)
from gpumodels.papers.huang_li._checks import check_kind, check_seed

__all__ = [
    "BankStats",
    "bank_latency",
    "bank_stats",
    "dram_latency",
    "exponential_cv",
    "gamma_times",
    "kingman",
    "kingman_printed",
    "lindley",
    "md1",
    "mm1",
    "moments_cv",
    "pollaczek_khinchine",
    "saturated",
    "simulate_gg1",
    "two_moment_times",
]


def _rho(rho) -> np.ndarray:
    return as_array("rho", rho, 0.0)


def _stable(rho: np.ndarray, value: np.ndarray) -> np.ndarray:
    return np.where(rho < 1.0, value, np.nan)


def _ratio(rho: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(rho < 1.0, rho / np.where(rho < 1.0, 1.0 - rho, 1.0), np.nan)


def _steady(what: str, r: np.ndarray, rho) -> None:
    """``OutsideDomainError`` naming ρ where a queue has no steady state (ρ >= 1)."""
    if np.any(r >= 1.0):
        first = float(r[r >= 1.0].flat[0]) if r.ndim else float(r)
        raise OutsideDomainError(
            f"rho must be below 1 for {what} (at rho >= 1 the queue has no steady "
            f"state and grows without bound), got {first:g} in rho={rho!r:.40}"
        )


def _finite(what: str, r: np.ndarray, value: np.ndarray, **inputs) -> np.ndarray:
    """``value`` if every wait in it is finite; ``OutsideDomainError`` naming the
    inputs otherwise (a wait beyond the floating-point range, e.g. c_a = 1e300). The
    closed forms call it after :func:`_steady`, which has already refused ρ >= 1 with
    ``OutsideDomainError``, so no saturated (NaN) entry reaches it; the ``ρ < 1`` mask
    only keeps it from reading such an entry as an overflow."""
    bad = (r < 1.0) & ~np.isfinite(value)
    if np.any(bad):
        shown = ", ".join(f"{k}={v!r:.24}" for k, v in inputs.items())
        raise OutsideDomainError(
            f"{what} is not a finite number for {shown}: the inputs are beyond the "
            "floating-point range of the model"
        )
    return value


def saturated(rho):
    """True where a queue has no steady state (ρ ≥ 1): the closed forms refuse it."""
    r = _rho(rho)
    return bool(r >= 1.0) if r.ndim == 0 else r >= 1.0


def kingman(c_a, c_s, rho, tau_s):
    """Kingman's G/G/1 mean wait in queue, standard form (the book's reading of Eq. 9)::

        W_q = ((c_a² + c_s²) / 2) · (ρ / (1 − ρ)) · τ_s

    Broadcasts over its arguments; the result has τ_s's unit. ``rho >= 1`` raises
    ``OutsideDomainError`` (no steady state; see :func:`saturated`). Negative or
    non-finite inputs raise ``ValueError``.

    >>> kingman(1.0, 1.0, 0.5, 2.0)      # M/M/1: rho/(1-rho) * tau_s
    2.0
    >>> # md's c_a (Fig. 4), a row-miss service time
    >>> round(kingman(2.22, 0.45, 0.8, 742.0), 1)
    7614.3
    """
    ca = as_array("c_a", c_a, 0.0)
    cs = as_array("c_s", c_s, 0.0)
    r = _rho(rho)
    ts = as_array("tau_s", tau_s, 0.0)
    ca, cs, ts = broadcast(c_a=ca, c_s=cs, tau_s=ts)
    _steady("kingman", r, rho)
    w = _kingman(ca, cs, r, ts)
    return out(_finite("kingman", r, w, c_a=c_a, c_s=c_s, rho=rho, tau_s=tau_s))


def _kingman(ca, cs, r, ts) -> np.ndarray:
    """Kingman's standard form, NaN where ρ >= 1 (for :func:`bank_latency`)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return _stable(r, 0.5 * (ca**2 + cs**2) * _ratio(r) * ts)


def kingman_printed(c_a, c_s, rho, tau_a):
    """Eq. 9 exactly as printed: ``((c_a + c_s)/2) · (ρ/(1 − ρ)) · τ_a``
    (no squares, τ_a).

    Kept to show why it cannot be right [A2]: with τ_a = τ_s/ρ it equals ``((c_a +
    c_s)/2) · τ_s/(1 − ρ)``, which tends to ``(c_a + c_s)/2 · τ_s`` — not 0 — as the
    load vanishes. ``rho >= 1`` raises ``OutsideDomainError``.

    >>> # tau_s = rho * tau_a = 2: twice M/M/1's 2.0
    >>> kingman_printed(1.0, 1.0, 0.5, 4.0)
    4.0
    """
    ca = as_array("c_a", c_a, 0.0)
    cs = as_array("c_s", c_s, 0.0)
    r = _rho(rho)
    ta = as_array("tau_a", tau_a, 0.0)
    ca, cs, ta = broadcast(c_a=ca, c_s=cs, tau_a=ta)
    _steady("kingman_printed", r, rho)
    w = _kingman_printed(ca, cs, r, ta)
    return out(
        _finite("kingman_printed", r, w, c_a=c_a, c_s=c_s, rho=rho, tau_a=tau_a)
    )


def _kingman_printed(ca, cs, r, ta) -> np.ndarray:
    """Eq. 9 as printed, NaN where ρ >= 1 (for :func:`bank_latency`)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return _stable(r, 0.5 * (ca + cs) * _ratio(r) * ta)


def mm1(rho, tau_s):
    """M/M/1 mean wait in queue ``ρ/(1 − ρ) · τ_s`` (``OutsideDomainError`` at
    ρ ≥ 1)."""
    r = _rho(rho)
    ts = as_array("tau_s", tau_s, 0.0)
    _steady("mm1", r, rho)
    with np.errstate(over="ignore", invalid="ignore"):
        w = _stable(r, _ratio(r) * ts)
    return out(_finite("mm1", r, w, rho=rho, tau_s=tau_s))


def md1(rho, tau_s):
    """M/D/1 mean wait in queue ``ρ/(2(1 − ρ)) · τ_s`` (``OutsideDomainError`` at
    ρ ≥ 1)."""
    r = _rho(rho)
    ts = as_array("tau_s", tau_s, 0.0)
    _steady("md1", r, rho)
    with np.errstate(over="ignore", invalid="ignore"):
        w = _stable(r, 0.5 * _ratio(r) * ts)
    return out(_finite("md1", r, w, rho=rho, tau_s=tau_s))


def pollaczek_khinchine(rho, tau_s, c_s):
    """M/G/1 mean wait (Pollaczek–Khinchine) ``ρ τ_s (1 + c_s²) / (2(1 − ρ))``
    (``OutsideDomainError`` at ρ ≥ 1).

    Kingman's standard form equals it exactly at c_a = 1 (Poisson arrivals).
    """
    r = _rho(rho)
    cs = as_array("c_s", c_s, 0.0)
    ts = as_array("tau_s", tau_s, 0.0)
    _steady("pollaczek_khinchine", r, rho)
    with np.errstate(over="ignore", invalid="ignore"):
        w = _stable(r, 0.5 * (1.0 + cs**2) * _ratio(r) * ts)
    return out(
        _finite("pollaczek_khinchine", r, w, rho=rho, tau_s=tau_s, c_s=c_s)
    )


def moments_cv(mean, second_moment) -> float:
    """Coefficient of variation σ/τ of a distribution from its first two raw moments
    ``E[T]`` and ``E[T²]`` (Eq. 10's ``c_a = σ_a/τ_a``, as ``BankStats.c_a``
    computes it from a sample).

    >>> moments_cv(2.0, 4.0)        # a constant time: no variation
    0.0
    """
    m1 = check_real("mean", mean, 0.0, lo_open=True)
    m2 = check_real("second_moment", second_moment, 0.0)
    if not math.isfinite(m1 * m1):
        raise OutsideDomainError(
            f"mean**2 is beyond the floating-point range for mean={mean!r:.24}: the "
            "variance E[T²] − E[T]² cannot be formed"
        )
    var = m2 - m1 * m1
    if var < -1e-12 * m1 * m1:
        raise ValueError(
            f"second_moment must be at least mean**2 = {m1 * m1!r} (a variance is "
            f"not negative), got {m2!r}"
        )
    with np.errstate(over="ignore"):
        cv = float(np.sqrt(max(var, 0.0)) / m1)
    return finite_result("moments_cv", cv, mean=mean, second_moment=second_moment)


def exponential_cv(rate: float = 1.0) -> float:
    """c_a of exponential inter-arrival times (Poisson arrivals, the CPU assumption of
    §III-C3), from the exponential distribution's raw moments ``E[T] = 1/λ`` and
    ``E[T²] = 2/λ²``: exactly 1 for every rate.

    >>> exponential_cv(), exponential_cv(4.0)
    (1.0, 1.0)
    """
    # bounded so that 1/λ and 2/λ² stay finite and non-zero
    lam = check_real("rate", rate, 1e-100, 1e100)
    return moments_cv(1.0 / lam, 2.0 / lam**2)


# --------------------------------------------------------------------------------------
# Discrete-event reference: the Lindley recursion


MAX_CV = 1000.0
"""The largest coefficient of variation the simulated times take (above it the
hyperexponential's branch probability rounds to 1 and its means overflow)."""

MAX_TIMES = 10_000_000
"""The most times :func:`gamma_times` and :func:`two_moment_times` draw in one call,
and the most customers :func:`simulate_gg1` simulates (a few arrays of 80 MB each at
this bound; the book simulates a million)."""


def gamma_times(
    mean: float, cv: float, size: int, rng: np.random.Generator
) -> np.ndarray:
    """``size`` gamma-distributed times with the given mean and coefficient of variation
    (cv 0: constant)."""
    mean = check_real("mean", mean, 0.0, lo_open=True)
    cv = check_real("cv", cv, 0.0, MAX_CV)
    size = check_int("size", size, 0, MAX_TIMES)
    check_kind("rng", rng, np.random.Generator, "a numpy.random.Generator")
    if cv == 0.0:
        return np.full(size, mean)
    shape = 1.0 / cv**2
    return rng.gamma(shape, mean / shape, size)


def two_moment_times(
    mean: float, cv: float, size: int, rng: np.random.Generator
) -> np.ndarray:
    """The standard two-moment fit: gamma for ``cv <= 1``, balanced-means
    hyperexponential (H2) above.

    H2 with balanced means mixes two exponentials with probabilities p and 1 − p and
    means ``mean/(2p)`` and ``mean/(2(1 − p))``, ``p = (1 + sqrt((cv² − 1)/(cv² +
    1)))/2``: the usual model of bursty arrivals (many short gaps, a few long ones).
    """
    mean = check_real("mean", mean, 0.0, lo_open=True)
    cv = check_real("cv", cv, 0.0, MAX_CV)
    size = check_int("size", size, 0, MAX_TIMES)
    check_kind("rng", rng, np.random.Generator, "a numpy.random.Generator")
    if cv <= 1.0:
        return gamma_times(mean, cv, size, rng)
    c2 = cv * cv
    p = 0.5 * (1.0 + np.sqrt((c2 - 1.0) / (c2 + 1.0)))
    first = rng.random(size) < p
    return np.where(
        first,
        rng.exponential(mean / (2 * p), size),
        rng.exponential(mean / (2 * (1 - p)), size),
    )


def simulate_gg1(
    c_a,
    c_s,
    rho,
    *,
    n: int = 1_000_000,
    tau_s: float = 1.0,
    seed: int = 0,
    warmup: float = 0.05,
) -> float:
    """Mean wait in queue of a simulated G/G/1 queue (Lindley recursion,
    :func:`~gpumodels.engines.refsim.dram.lindley`).

    Inter-arrival and service times follow :func:`two_moment_times` (gamma for a
    coefficient of variation up to 1, balanced hyperexponential above). ``n`` customers
    (the first ``warmup`` fraction discarded), deterministic for a ``seed``. The
    reference against which :func:`kingman` is checked (book chapter and tests).
    """
    ca = check_real("c_a", c_a, 0.0, MAX_CV)
    cs = check_real("c_s", c_s, 0.0, MAX_CV)
    r = check_real("rho", rho, 0.0, 1.0, lo_open=True)
    if r >= 1.0:
        raise ValueError(f"rho must be in (0, 1) for a steady state, got {r}")
    n = check_int("n", n, 100, MAX_TIMES)
    ts = check_real("tau_s", tau_s, 0.0, lo_open=True)
    w = check_real("warmup", warmup, 0.0, 0.5)
    rng = np.random.default_rng(check_seed("seed", seed))
    a = two_moment_times(ts / r, ca, n, rng)
    s = two_moment_times(ts, cs, n, rng)
    waits = lindley(a, s)
    return float(waits[int(w * n) :].mean())


# --------------------------------------------------------------------------------------
# Per-bank statistics and the DRAM latency of Eqs. 6-8


@dataclass(frozen=True)
class BankStats:
    """Per-bank arrival and service statistics
    (arrays indexed by bank, Table III's symbols).

    ``bank`` holds the bank ids that received at least two requests (a gap needs two);
    times are in the units of the inputs. ``n`` requests, ``tau_a``/``sigma_a``
    (inter-arrival mean and standard deviation), ``tau_s``/``sigma_s`` (service),
    ``c_a``, ``c_s``, ``lam`` = 1/τ_a and ``rho`` = τ_s/τ_a (Eq. 10). ``latency`` is the
    mean request latency per bank (Eq. 8) that Eq. 6 adds to the wait: τ_s unless the
    service times fed to the queue were bank occupancies.
    """

    bank: np.ndarray
    n: np.ndarray
    tau_a: np.ndarray
    sigma_a: np.ndarray
    tau_s: np.ndarray
    sigma_s: np.ndarray
    latency: np.ndarray

    def __post_init__(self):
        arrays = {}
        for k in ("bank", "n", "tau_a", "sigma_a", "tau_s", "sigma_s", "latency"):
            v = check_kind(
                f"BankStats.{k}", getattr(self, k), np.ndarray, "a 1-D numpy array"
            )
            kinds = "iu" if k in ("bank", "n") else "iuf"
            if v.ndim != 1 or (v.size and v.dtype.kind not in kinds):
                raise ValueError(
                    f"BankStats.{k} must be a 1-D "
                    f"{'integer' if k in ('bank', 'n') else 'float'} array, got "
                    f"shape {v.shape} dtype {v.dtype}"
                )
            bad = (v < (2 if k == "n" else 0)) | ~np.isfinite(v)
            if np.any(bad):
                raise ValueError(
                    f"BankStats.{k} must hold finite numbers >= "
                    f"{2 if k == 'n' else 0}, got {v[bad][0]!r}"
                )
            arrays[k] = v.shape
        if len(set(arrays.values())) > 1:
            raise ValueError(
                "BankStats arrays must have one length, got "
                + ", ".join(f"{k} {s}" for k, s in arrays.items())
            )

    @property
    def c_a(self) -> np.ndarray:
        return np.divide(
            self.sigma_a,
            self.tau_a,
            out=np.zeros_like(self.tau_a),
            where=self.tau_a > 0,
        )

    @property
    def c_s(self) -> np.ndarray:
        return np.divide(
            self.sigma_s,
            self.tau_s,
            out=np.zeros_like(self.tau_s),
            where=self.tau_s > 0,
        )

    @property
    def lam(self) -> np.ndarray:
        return np.divide(
            1.0, self.tau_a, out=np.full_like(self.tau_a, np.inf), where=self.tau_a > 0
        )

    @property
    def rho(self) -> np.ndarray:
        return np.divide(
            self.tau_s,
            self.tau_a,
            out=np.full_like(self.tau_a, np.inf),
            where=self.tau_a > 0,
        )


def _mean_sd(
    values: np.ndarray, group: np.ndarray, n_groups: int
) -> tuple[np.ndarray, np.ndarray]:
    n = np.maximum(np.bincount(group, minlength=n_groups), 1)
    mean = np.bincount(group, values, minlength=n_groups) / n
    second = np.bincount(group, values**2, minlength=n_groups) / n
    return mean, np.sqrt(np.maximum(second - mean**2, 0.0))


def bank_stats(bank, arrival, service, latency=None) -> BankStats:
    """Eq. 10's statistics per bank from a request list
    (bank id, arrival time, service time).

    Inter-arrival gaps are taken between consecutive requests *of the same bank*, in
    arrival order. Banks with a single request have no gap and are left out (they cannot
    queue). ``latency`` (one per request, default ``service``) gives each bank's Eq. 8
    mean latency. Vectorised with numpy.
    """
    b = np.asarray(bank)
    t = as_array("arrival", arrival, 0.0)
    s = as_array("service", service, 0.0)
    t, s = broadcast(arrival=t, service=s)
    lat = s if latency is None else as_array("latency", latency, 0.0)
    if not (
        b.ndim == t.ndim == s.ndim == lat.ndim == 1
        and b.shape == t.shape == s.shape == lat.shape
    ):
        raise ValueError(
            "bank, arrival, service and latency must be 1-D arrays of one length, "
            f"got {b.shape}, {t.shape}, {s.shape}, {lat.shape}"
        )
    if b.size and (not np.issubdtype(b.dtype, np.integer) or b.min() < 0):
        raise ValueError("bank must hold non-negative integer bank ids")
    order = np.lexsort((t, b))
    ids, group, counts = np.unique(b[order], return_inverse=True, return_counts=True)
    t, s, lat = t[order], s[order], lat[order]
    same = group[1:] == group[:-1]
    with np.errstate(over="ignore", invalid="ignore"):  # checked below
        tau_a, sigma_a = _mean_sd(np.diff(t)[same], group[1:][same], ids.size)
        tau_s, sigma_s = _mean_sd(s, group, ids.size)
        mean_lat, _ = _mean_sd(lat, group, ids.size)
    keep = counts >= 2
    lat_source = "service" if latency is None else "latency"
    stats = (
        ("tau_a", "the mean gap between arrivals", "arrival", tau_a),
        ("sigma_a", "the standard deviation of those gaps", "arrival", sigma_a),
        ("tau_s", "the mean service time", "service", tau_s),
        ("sigma_s", "the standard deviation of the service times", "service", sigma_s),
        ("latency", "the mean latency", lat_source, mean_lat),
    )
    for stat, meaning, source, v in stats:
        bad = keep & ~np.isfinite(v)
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            raise OutsideDomainError(
                f"{stat} ({meaning}, from {source}) of bank {int(ids[i])} is not "
                f"finite ({float(v[i])}): the times are beyond the floating-point "
                "range of the model"
            )
    return BankStats(
        bank=ids[keep],
        n=counts[keep],
        tau_a=tau_a[keep],
        sigma_a=sigma_a[keep],
        tau_s=tau_s[keep],
        sigma_s=sigma_s[keep],
        latency=mean_lat[keep],
    )


QUEUE_FORMS = ("kingman", "printed", "none")
SATURATION = ("nan", "cap")


def bank_latency(
    stats: BankStats, *, form: str = "kingman", saturation: str = "nan"
) -> tuple[np.ndarray, np.ndarray]:
    """Eq. 6 per bank: ``DRAM_lat_bank_i = ave_queuing_delay_i + ave_service_time_i``.

    ``form``: ``"kingman"`` (standard), ``"printed"`` (Eq. 9 as printed) or ``"none"``
    (no queue). The wait comes from the statistics' service times (τ_s, c_s); the second
    term is the bank's mean latency (``stats.latency``, Eq. 8). Returns ``(latency,
    saturated)`` arrays. At ρ ≥ 1 the faithful ``saturation="nan"`` gives NaN; the
    book's ``"cap"`` bounds every bank's wait by ``(n_i − 1)/2 · τ_s``, the mean FCFS
    wait if all of the bank's n_i requests arrived at once (no arrival order can make
    the mean wait longer).
    """
    check_kind("stats", stats, BankStats, "a huang_li.queueing.BankStats")
    check_choice("form", form, QUEUE_FORMS)
    check_choice("saturation", saturation, SATURATION)
    rho = stats.rho
    sat = rho >= 1.0
    if form == "none":
        return stats.latency.copy(), np.zeros_like(sat)
    if form == "kingman":
        w = _kingman(stats.c_a, stats.c_s, rho, stats.tau_s)
    else:
        w = _kingman_printed(stats.c_a, stats.c_s, rho, stats.tau_a)
    if saturation == "cap":
        cap = 0.5 * (stats.n - 1.0) * stats.tau_s
        w = np.where(sat | np.isnan(w), cap, np.minimum(w, cap))
    return w + stats.latency, sat


def dram_latency(stats: BankStats, **kw) -> tuple[float, bool]:
    """Eq. 7: the λ-weighted mean of the per-bank latencies of :func:`bank_latency`.

    ``Σ_i λ_i/Σ_j λ_j · DRAM_lat_bank_i`` over the banks with statistics. Returns
    ``(latency, any_saturated)``; the latency is NaN when a loaded bank is saturated
    under the faithful ``saturation="nan"``.
    """
    check_kind("stats", stats, BankStats, "a huang_li.queueing.BankStats")
    lat, sat = bank_latency(stats, **kw)
    if lat.size == 0:
        raise ValueError(
            "stats holds no bank with two or more requests: no queue to model"
        )
    lam = stats.lam
    if np.isinf(
        lam
    ).any():  # simultaneous arrivals only: weight by request count instead
        lam = stats.n.astype(float)
    return float(np.sum(lam * lat) / np.sum(lam)), bool(sat.any())
