"""The Transit flow-balance model in its own units (Li et al. 2015, §2.2-2.4).

A machine is a computation system (CS) with ``M`` execution lanes and a memory system
(MS); a workload is ``n`` threads of arithmetic intensity ``Z`` (a thread "thinks" in CS
for ``Z`` time units, then waits in MS). The two curves of the transit figure are

* MS supply ``f(k) = R · min(k / k_delta, 1)``: roofline-shaped, linear up to the MS
  transition point ``δ = (k_delta, R)`` and flat at ``R`` after it (§2.2, Fig. 4-B);
* MS demand ``g(x) = min(x, M) / Z``: the CS demand ``min(x, M)`` (Eq. 1) scaled by
  ``1/Z`` (Eq. 2), with the CS transition point ``π = (M, M/Z)``.

The machine state is the flow balance ``f(k) = g(x)`` (Eq. 3) with ``k + x = n``.
Because ``f`` rises and ``g(n − k)`` falls, the balance is unique in throughput and has
a closed form. On the sloping parts a thread spends ``L = k_delta/R`` in MS (Little's
law on the slope ``R/k_delta``) and ``Z`` in CS, so ``n`` threads drive ``n / (L + Z)``;
either system's ceiling caps that::

    T = min(n / (k_delta/R + Z),  R,  M/Z)    MS throughput
    Z · T                                     CS throughput (lanes busy, at most M)

The term that gives the minimum is the bound of §2.4: ``thread`` (both curves on their
slopes), ``memory`` (f flat, g sloping), ``computation`` (g flat, f sloping) or
``capacity`` (both flat: ``M/Z = R``, the ridge point of the roofline). In the saturated
cases the threads the busy system does not need queue in front of it, so ``x = R·Z`` and
``k = n − x`` (memory bound) or ``k = (M/Z)·k_delta/R`` and ``x = n − k`` (computation
bound). In the capacity bound any split with ``k ≥ k_delta`` and ``x ≥ M`` balances; the
book returns the middle one and reports the surplus threads as ``idle``.

Example
-------
>>> e = equilibrium(n=1000, Z=2.0, R=1.0, k_delta=400, M=300)
>>> e.bound, round(e.ms_throughput, 4), round(e.cs_throughput, 4)
('memory', 1.0, 2.0)
>>> e.k, e.x
(998.0, 2.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpumodels.ground.data import read_frame
from gpumodels.ground.errors import UnknownNameError
from gpumodels.ground.validate import (
    as_array,
    broadcast,
    check_choice,
    check_real,
    finite_result,
    out,
)

BOUNDS = ("thread", "memory", "computation", "capacity")
"""The four performance bounds of Li et al. 2015, §2.4."""

DIRECTIONS = ("n", "Z", "R", "M")
"""The four optimisation directions of §2.3 (Figs. 7-10),
raising ``n``, ``Z``, ``R`` or ``M``."""

RTOL = 1e-9
"""Relative tolerance for naming the bound. A ceiling within ``RTOL`` of the other
counts as equal (capacity bound), and a thread-limited throughput within ``RTOL`` of a
ceiling counts as reaching it (the boundary belongs to the saturated bound)."""


def supply(k, R, k_delta):
    """MS service supply ``f(k) = R · min(k/k_delta, 1)``
    (Li et al. 2015, §2.2, Fig. 4-B)."""
    k = as_array("k", k)
    R = as_array("R", R, lo_open=True)
    k_delta = as_array("k_delta", k_delta, lo_open=True)
    k, R, k_delta = broadcast(k=k, R=R, k_delta=k_delta)
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        res = R * np.minimum(k / k_delta, 1.0)
    return out(finite_result("f(k)", res, k=k, R=R, k_delta=k_delta))


def demand(x, Z, M):
    """MS service demand from CS, ``g(x) = min(x, M) / Z``
    (Li et al. 2015, Eqs. 1-2)."""
    x = as_array("x", x)
    Z = as_array("Z", Z, lo_open=True)
    M = as_array("M", M, lo_open=True)
    x, Z, M = broadcast(x=x, Z=Z, M=M)
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        res = np.minimum(x, M) / Z
    return out(finite_result("g(x)", res, x=x, Z=Z, M=M))


def latency(R, k_delta):
    """Memory latency implied by the MS transition point, ``L = k_delta / R``
    (Little's law).

    On the slope of ``f`` each of the ``k`` threads in MS leaves after ``L`` time units,
    so the outflow is ``k/L``; the slope ``R/k_delta`` is therefore ``1/L`` (§2.3 names
    ``L`` as an input but holds it constant when ``R`` changes).
    """
    R = as_array("R", R, lo_open=True)
    k_delta = as_array("k_delta", k_delta, lo_open=True)
    R, k_delta = broadcast(R=R, k_delta=k_delta)
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        res = k_delta / R
    return out(finite_result("L = k_delta / R", res, R=R, k_delta=k_delta))


def _inputs(n, Z, R, k_delta, M):
    n = as_array("n", n, lo_open=True)
    Z = as_array("Z", Z, lo_open=True)
    R = as_array("R", R, lo_open=True)
    k_delta = as_array("k_delta", k_delta, lo_open=True)
    M = as_array("M", M, lo_open=True)
    return broadcast(n=n, Z=Z, R=R, k_delta=k_delta, M=M)


MAX_MVA_THREADS = 10**7
"""The largest thread count :func:`closed_network_supply` takes
(its mean-value analysis takes one step per thread)."""


@dataclass(frozen=True)
class Equilibrium:
    """The machine state at the flow balance ``f(k) = g(x)``, ``k + x = n`` (Li et al.
    2015, Eq. 3).

    All fields broadcast to one shape; 0-d results are Python floats / strings.

    Attributes
    ----------
    n, Z, R, k_delta, M
        The inputs (threads, thinking time per memory request, MS ceiling, MS transition
        abscissa, CS lanes).
    k, x
        Threads in the memory system and in the computation system; ``k + x = n``.
    ms_throughput
        MS throughput ``T = f(k) = g(x)``, in the units of ``R``.
    cs_throughput
        CS throughput ``Z · T``; in the model's units, the number of busy lanes (at most
        ``M``).
    bound
        ``"thread"``, ``"memory"``, ``"computation"`` or ``"capacity"`` (§2.4).
    idle
        Threads beyond what both systems need (non-zero only in the capacity bound, Fig.
        17).
    """

    n: object
    Z: object
    R: object
    k_delta: object
    M: object
    k: object
    x: object
    ms_throughput: object
    cs_throughput: object
    bound: object
    idle: object

    def __post_init__(self):
        for name in ("n", "Z", "R", "k_delta", "M"):
            as_array(f"Equilibrium.{name}", getattr(self, name), lo_open=True)
        for name in ("k", "x", "ms_throughput", "cs_throughput", "idle"):
            as_array(f"Equilibrium.{name}", getattr(self, name))
        b = self.bound
        if isinstance(b, np.ndarray) and b.dtype.kind == "U":
            bad = [v for v in np.unique(b) if v not in BOUNDS]
            if bad:
                check_choice("Equilibrium.bound", str(bad[0]), BOUNDS)
        else:
            check_choice(
                "Equilibrium.bound", b if isinstance(b, str) else repr(b), BOUNDS
            )

    @property
    def latency(self):
        """The MS latency ``k_delta / R`` that the supply curve implies
        (Little's law)."""
        return latency(self.R, self.k_delta)

    @property
    def ms_on_slope(self):
        """True where ``k < k_delta``: the MS supply is still rising
        (the MS is not saturated)."""
        return np.less(self.k, self.k_delta * (1 - RTOL))

    @property
    def cs_on_slope(self):
        """True where ``x < M``: the intersection lies on the CS side of ``π`` where
        Principle 3 holds."""
        return np.less(self.x, self.M * (1 - RTOL))


def equilibrium(n, Z, R, k_delta, M) -> Equilibrium:
    """Solve the Transit flow balance exactly
    (closed form; Li et al. 2015, Eq. 3 and §2.4).

    ``f(k) = R·min(k/k_delta, 1)``, ``g(x) = min(x, M)/Z``, ``k + x = n``. Every input
    is a positive finite number or an array of them (broadcast together); a zero,
    negative, NaN or infinite value raises ``ValueError`` naming the parameter. Units
    are the model's own: ``n``, ``k_delta`` and ``M`` count threads, ``R`` is requests
    (or bytes) per time unit, and ``Z`` is the thinking time per request in the same
    time unit, so that ``M/Z`` is in ``R``'s units. See the module docstring for the
    solution and the bounds.
    """
    n, Z, R, k_delta, M = _inputs(n, Z, R, k_delta, M)
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        return _equilibrium(n, Z, R, k_delta, M)


def _equilibrium(n, Z, R, k_delta, M) -> Equilibrium:
    L = k_delta / R
    t_thread = n / (L + Z)
    cs_cap = M / Z
    cap = np.minimum(R, cs_cap)
    T = np.minimum(t_thread, cap)  # exact; the tolerance only names the bound
    balanced = np.abs(R - cs_cap) <= RTOL * np.maximum(R, cs_cap)
    saturated = t_thread >= cap * (1 - RTOL)
    bound = np.where(
        ~saturated,
        "thread",
        np.where(balanced, "capacity", np.where(R < cs_cap, "memory", "computation")),
    )
    # k and x from the term that is exactly the minimum, each side computed directly (n
    # minus a tiny number would lose its digits); in the capacity bound the surplus is
    # split evenly
    k_need = np.minimum(T * L, k_delta)
    x_need = np.minimum(T * Z, M)
    surplus = np.maximum(n - k_need - x_need, 0.0)
    mem = (t_thread > cap) & (R < cs_cap)
    comp = (t_thread > cap) & (cs_cap < R)
    even = bound == "capacity"
    # thread bound: k = n·L/(L + Z), written with the smaller of L/Z and Z/L so that an
    # extreme L (k_delta/R overflowing to inf, or underflowing to 0) gives the limit
    # instead of inf/inf
    r = np.where(L >= Z, Z / L, L / Z)  # in [0, 1]
    share_big, share_small = 1 / (1 + r), r / (1 + r)
    k_thread = n * np.where(L >= Z, share_big, share_small)
    x_thread = n * np.where(L >= Z, share_small, share_big)
    k = np.select(
        [even, mem, comp],
        [k_need + surplus / 2, n - R * Z, cs_cap * L],
        default=k_thread,
    )
    x = np.select(
        [even, mem, comp],
        [x_need + surplus / 2, R * Z, n - cs_cap * L],
        default=x_thread,
    )
    idle = np.where(even, surplus, 0.0)
    for name, v in (("k", k), ("x", x), ("throughput", T)):
        finite_result(name, v, n=n, Z=Z, R=R, k_delta=k_delta, M=M)
    return Equilibrium(
        n=out(n),
        Z=out(Z),
        R=out(R),
        k_delta=out(k_delta),
        M=out(M),
        k=out(k),
        x=out(x),
        ms_throughput=out(T),
        cs_throughput=out(Z * T),
        bound=bound.item() if bound.ndim == 0 else bound,
        idle=out(idle),
    )


def raised(n, Z, R, k_delta, M, direction: str, factor: float = 2.0) -> dict:
    """The inputs after raising one of ``n``, ``Z``, ``R``, ``M`` by ``factor``
    (Figs. 7-10).

    Raising ``R`` keeps the latency ``L = k_delta/R`` fixed, as §2.3 does ("L is viewed
    as constant"), so the transition point ``δ`` moves along the slope of ``f`` and
    ``k_delta`` grows with ``R``.
    """
    if direction not in DIRECTIONS:
        raise UnknownNameError(
            f"direction must be one of {DIRECTIONS}, got {direction!r}"
        )
    factor = check_real("factor", factor, 0.0, None, lo_open=True)
    p = {
        "n": as_array("n", n, lo_open=True),
        "Z": as_array("Z", Z, lo_open=True),
        "R": as_array("R", R, lo_open=True),
        "k_delta": as_array("k_delta", k_delta, lo_open=True),
        "M": as_array("M", M, lo_open=True),
    }
    with np.errstate(over="ignore"):
        p[direction] = p[direction] * factor
        if direction == "R":
            p["k_delta"] = p["k_delta"] * factor
    for key in (direction, "k_delta"):
        finite_result(f"the raised {key}", p[key], factor=factor)
    return {key: out(np.asarray(v, dtype=float)) for key, v in p.items()}


def directions(n, Z, R, k_delta, M, factor: float = 1.01) -> tuple[str, ...]:
    """Which single-parameter increases raise the CS throughput at one machine state.

    Each of ``n``, ``Z``, ``R`` (``L`` fixed) and ``M`` is raised by ``factor`` on its
    own and the model is solved again; a direction is listed when the CS throughput
    grows by more than a relative 1e-12 (rounding noise is about 1e-16; a real gain can
    be small, e.g. raising ``Z`` in the thread bound gains only ``(factor − 1)·L/(L +
    Z)``). The result is computed, not looked up, and it reproduces §2.4's advice:
    thread bound ``('n', 'Z')``, memory bound ``('Z', 'R')``, computation bound
    ``('M',)``, capacity bound ``()`` (several parameters must move together). Scalars
    only.
    """
    for name, v in (("n", n), ("Z", Z), ("R", R), ("k_delta", k_delta), ("M", M)):
        if np.ndim(v) != 0:
            raise ValueError(
                f"{name} must be a single number for directions(), got an array"
            )
    factor = check_real("factor", factor, 1.0, None, lo_open=True)
    base = equilibrium(n, Z, R, k_delta, M).cs_throughput
    gains = []
    for d in DIRECTIONS:
        new = equilibrium(**raised(n, Z, R, k_delta, M, d, factor)).cs_throughput
        if new > base * (1 + 1e-12):
            gains.append(d)
    return tuple(gains)


def closed_network_supply(k, R, k_delta):
    """A smooth MS supply curve for comparison with the roofline ``f(k)`` (Li et al.
    2015, Fig. 4-A).

    The paper draws the measured supply as a curve that bends into its ceiling and
    abstracts it as the roofline of Fig. 4-B. This function gives one such curve from
    queueing theory, not from measurement: exact mean-value analysis of a closed network
    of ``k`` threads that each spend ``L − 1/R`` in a pure delay and then ``1/R`` in one
    first-come-first-served server of rate ``R`` (``L = k_delta/R``). Its slope at ``k =
    0`` is ``1/L`` and its limit ``R``, like ``f``; it lies below ``f`` everywhere, most
    near ``δ``. ``k`` must be whole numbers ≥ 0 and ``k_delta`` at least 1.
    """
    k = as_array("k", k)
    if np.any(k != np.round(k)):
        raise ValueError(
            "k must be whole numbers of threads for the mean-value analysis"
        )
    if k.size and k.max() > MAX_MVA_THREADS:
        raise ValueError(
            f"k must be at most {MAX_MVA_THREADS} threads for the mean-value analysis "
            f"(it takes one step per thread), got {k.max()}"
        )
    for name, v in (("R", R), ("k_delta", k_delta)):
        if np.ndim(v) != 0:
            raise ValueError(f"{name} must be a single number, got {v!r:.40}")
    R = float(as_array("R", R, lo_open=True))
    k_delta = float(as_array("k_delta", k_delta, lo_open=True))
    if k_delta < 1:
        raise ValueError(
            "k_delta must be >= 1 for the closed-network curve (the delay L - 1/R >= "
            f"0), got {k_delta}"
        )
    S = 1.0 / R
    D = k_delta / R - S
    top = int(k.max()) if k.size else 0
    X = np.zeros(top + 1)
    q = 0.0
    for pop in range(1, top + 1):
        resp = S * (1.0 + q)
        X[pop] = pop / (D + resp)
        q = X[pop] * resp
    return out(X[k.astype(int)])


def principles():
    """§2.4's advice as a table (``data/transit/principles.csv``): for each bound and
    each input, whether the paper says raising it raises the CS throughput
    (``raises_cs_throughput``), whether the paper states it or the book reads it off the
    figures (``paper_states``), and the source."""

    return read_frame("transit/principles.csv")
