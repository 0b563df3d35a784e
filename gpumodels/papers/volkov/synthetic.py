"""The synthetic α-workload of Volkov (2016) §4.1–4.7 and its refinement of §6.4–6.5.

Each warp runs an endless chain of back-to-back dependent instructions: one memory load
followed by α floating-point adds (α is the arithmetic intensity). The model of §4.1
bounds the memory-instruction throughput (IPC per SM) by latency and by three throughput
limits::

    Latency           = mem_lat + α·alu_lat                               (§4.1)
    memory throughput = min(n / Latency, mem_thru, alu_thru/α, issue_thru/(α+1))
    arithmetic        = 32·α·memory throughput      adds per cycle per SM (Table 4.2)

The same algebra covers the mixes of §4.7 (adds with SFU instructions or with
shared-memory loads): the "other" instruction takes the place of the memory load
(:func:`~gpumodels.facts.param_sets.mix_params`).

The refined model of §6.4–6.5 replaces the constant ``mem_lat`` with a latency that
grows with memory throughput x in GB/s, ``a + b·x/(c − x)`` (Table 6.5; a two-term form
for the G80), and solves the resulting fixed point for all points at once: in closed
form for one term (a quadratic), by a bracketed Newton iteration for two.

All functions broadcast numpy arrays over ``n`` (warps per SM) and ``alpha``; ``alpha``
may be ``0`` or ``numpy.inf`` (the limit cases of §4.2).
"""

from __future__ import annotations

import numpy as np

from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.facts.params import Params, check_params, loaded_latency
from gpumodels.ground.errors import OutsideDomainError
from gpumodels.ground.validate import (
    as_array,
    broadcast,
    check_fraction,
    out,
)

# --------------------------------------------------------------------------------------
# The basic model (§4.1–4.7)
# --------------------------------------------------------------------------------------


def _other_latency(p: Params, alpha: np.ndarray) -> np.ndarray:
    """Mean latency of the non-add instruction: followed by an add with probability
    min(α, 1)."""
    to_alu = p.mem_lat if p.mem_lat_to_alu is None else p.mem_lat_to_alu
    return p.mem_lat - np.minimum(alpha, 1.0) * (p.mem_lat - to_alu)


def latency(p: Params, alpha):
    """Warp latency per group of one memory instruction and α adds: ``mem_lat +
    α·alu_lat`` (§4.1). ``alpha`` must be finite: at ``alpha = inf`` (adds only) a group
    never ends and the latency is unbounded (``OutOfRangeError``)."""
    p = check_params(p)
    a = as_array("alpha", alpha)
    return out(_other_latency(p, a) + a * p.alu_lat)


def arithmetic_limit(p: Params, a: np.ndarray) -> np.ndarray:
    """Throughput bound on adds in IPC/SM: ``min(α·mem_thru, alu_thru, issue_thru/(1 +
    mem_issue/α))`` (§4.1), for ``a``, α (a number or an array, ``inf`` allowed).
    ``-0.0`` is read as 0."""
    p = check_params(p)
    a = as_array("a", a, allow_inf=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.minimum(
            np.minimum(a * p.mem_thru, p.alu_thru),
            p.issue_thru / (1.0 + p.mem_issue / a),
        )


def _limits(p: Params, a: np.ndarray) -> np.ndarray:
    """The three limits on memory-instruction throughput (IPC/SM), stacked: memory,
    adds, issue (§4.1)."""
    with np.errstate(divide="ignore"):
        return np.stack(
            np.broadcast_arrays(
                np.full(a.shape, p.mem_thru),
                p.alu_thru / a,
                p.issue_thru / (a + p.mem_issue),
            )
        )


def throughput_bound(p: Params, alpha):
    """Memory-instruction throughput bound in IPC/SM: ``min(mem_thru, alu_thru/α,
    issue_thru/(α+1))`` (§4.1)."""
    p = check_params(p)
    return out(_limits(p, as_array("alpha", alpha, allow_inf=True)).min(axis=0))


def binding_limit(p: Params, alpha):
    """Which throughput limit binds at ``alpha``: ``"memory"``, ``"alu"`` or ``"issue"``
    (ties go left)."""
    p = check_params(p)
    lims = _limits(p, as_array("alpha", alpha, allow_inf=True))
    names = np.array(["memory" if p.kind == "memory" else p.kind, "alu", "issue"])
    res = names[np.argmin(lims, axis=0)]
    return str(res) if res.ndim == 0 else res


def memory_throughput(p: Params, n, alpha):
    """Memory instructions per cycle per SM with ``n`` warps per SM (§4.1, Table 4.2)::

        min(n / (mem_lat + α·alu_lat), mem_thru, alu_thru/α, issue_thru/(α+1))

    ``n`` and ``alpha`` broadcast; ``alpha = inf`` gives 0.
    """
    p = check_params(p)
    n_ = as_array("n", n)
    a = as_array("alpha", alpha, allow_inf=True)
    n_, a = broadcast(n=n_, alpha=a)
    lat = _other_latency(p, a) + a * p.alu_lat
    with np.errstate(divide="ignore", invalid="ignore"):
        res = np.minimum(n_ / lat, throughput_bound(p, a))
    return out(np.where(np.isinf(a), 0.0, res))


def arithmetic_throughput(p: Params, n, alpha):
    """Adds per cycle per SM (32 per add instruction): ``32·α·memory_throughput``
    (Table 4.2).

    Written as ``32·min(n/(mem_lat/α + alu_lat), α·mem_thru, alu_thru,
    issue_thru/(1+1/α))`` so that ``alpha = inf`` gives the all-add limit
    ``32·min(n/alu_lat, alu_thru, issue_thru)`` of §4.2 and ``alpha = 0`` gives 0.
    """
    p = check_params(p)
    n_ = as_array("n", n)
    a = as_array("alpha", alpha, allow_inf=True)
    n_, a = broadcast(n=n_, alpha=a)
    with np.errstate(divide="ignore", invalid="ignore"):
        lat_per_add = _other_latency(p, a) / a + p.alu_lat
        res = np.minimum(n_ / lat_per_add, arithmetic_limit(p, a))
    return out(WARP_SIZE * np.where(a == 0, 0.0, res))


def needed_occupancy(p: Params, alpha, fraction: float = 1.0):
    """Warps per SM needed to reach ``fraction`` of the throughput bound (§4.5)::

        n = fraction · Latency · min(mem_thru, alu_thru/α, issue_thru/(α+1))

    At α = 0 this is ``mem_lat·mem_thru`` and at α = ∞ ``alu_lat·min(alu_thru,
    issue_thru)`` (§4.2); the maximum, near α = alu_thru/mem_thru, is about their sum —
    the cusp.
    """
    p = check_params(p)
    f = check_fraction("fraction", fraction)
    a = as_array("alpha", alpha, allow_inf=True)
    return out(_occupancy_at(p, a, f, _other_latency(p, a)))


def cusp_closed_form(p: Params) -> tuple[float, float]:
    """§4.5's closed form of the cusp: ``(α, warps)`` with ``α = alu_thru / mem_thru``,
    where the memory and arithmetic throughput limits meet, and ``warps =
    mem_lat·mem_thru + alu_lat·alu_thru``, the sum of the occupancies needed at α = 0
    and α = ∞. The issue limit is left out, as in the text.

    >>> from gpumodels.facts.param_sets import params
    >>> # §4.5: "α ≈ 49", "approximately 54 warps"
    >>> a, w = cusp_closed_form(params("Maxwell"))
    >>> round(a, 1), round(w, 2)
    (49.1, 53.96)
    """
    p = check_params(p)
    return p.alu_thru / p.mem_thru, p.mem_lat * p.mem_thru + p.alu_lat * p.alu_thru


def cusp_exact(p: Params) -> tuple[float, float]:
    """The basic model's own cusp, issue limit included: ``(α, warps)`` at the maximum
    of :func:`needed_occupancy`. The maximum sits where the memory limit meets the lower
    of the arithmetic limits, ``min(alu_thru/α, issue_thru/(α+1))``; on Maxwell
    (issue_thru = alu_thru = 4) that is the issue limit, at ``α = issue_thru/mem_thru −
    1``.

    >>> from gpumodels.facts.param_sets import params
    >>> a, w = cusp_exact(params("Maxwell"))
    >>> round(a, 1), round(w, 1)
    (48.1, 53.5)
    """
    p = check_params(p)
    # the corner of min(mem_thru, alu_thru/α, issue_thru/(α+1)) where the memory branch
    # ends
    a_alu = p.alu_thru / p.mem_thru
    a_issue = p.issue_thru / p.mem_thru - 1.0
    a = min(a_alu, a_issue)
    return float(a), float(needed_occupancy(p, a))


def _occupancy_at(
    p: Params, a: np.ndarray, f: float, mem_latency: np.ndarray
) -> np.ndarray:
    """Little's law at ``f`` × the throughput bound:
    throughput × (mem latency + α·alu_lat).

    Written per load for α ≤ 1 and per add for α > 1, so both α = 0 and α = ∞ stay
    finite.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        mem_form = f * throughput_bound(p, a) * (mem_latency + a * p.alu_lat)
        arith_form = f * arithmetic_limit(p, a) * (mem_latency / a + p.alu_lat)
    return np.where(a <= 1.0, mem_form, arith_form)


def instruction_concurrency(p: Params, n, alpha):
    """Mean numbers of adds and of memory instructions in execution
    (§4.6, Little's law).

    Returns ``(alu, mem)``: ``alu_lat × add throughput`` and ``mem_lat × memory
    throughput`` (instructions per SM). Their sum never exceeds ``n`` since each warp
    has at most one instruction in execution; it equals ``n`` in the latency-bound mode.
    """
    p = check_params(p)
    a = as_array("alpha", alpha, allow_inf=True)
    mem = memory_throughput(p, n, a)
    alu = arithmetic_throughput(p, n, a) / WARP_SIZE
    return out(np.asarray(alu) * p.alu_lat), out(np.asarray(mem) * _other_latency(p, a))


# --------------------------------------------------------------------------------------
# The refined model (§6.4–6.5)
# --------------------------------------------------------------------------------------


def _require_memory(p: Params) -> None:
    if p.kind != "memory":
        raise ValueError(
            "the refined model applies to global-memory loads only (kind='memory'), "
            f"got kind={p.kind!r}"
        )
    if not p.latency_terms:
        raise ValueError(
            "the refined model needs a Table 6.5 fit of latency vs throughput, "
            f"and {p.gpu} has none "
            "(it needs latency measured under load, which no public source gives)"
        )


def refined_latency(p: Params, x, alpha):
    """Warp latency per group when memory throughput is ``x`` IPC/SM (§6.5)::

        a + Σ b·X/(c − X) + α·alu_lat,     X = x · 128 B · SMs · clock  (GB/s)

    ``x`` and ``alpha`` broadcast. ``alpha`` must be finite, as in :func:`latency`: at
    ``alpha = inf`` (adds only) a group never ends (``OutOfRangeError`` naming
    ``alpha``). ``x`` must be below ``c / gbs_per_ipc`` IPC/SM, ``c`` the smallest
    pole of Table 6.5's fit in GB/s: from there on the latency is unbounded
    (``OutsideDomainError`` naming ``x``, the bound and ``c``).
    """
    p = check_params(p)
    _require_memory(p)
    x_ = as_array("x", x)
    a = as_array("alpha", alpha)
    x_, a = broadcast(x=x_, alpha=a)
    c_min = min(c for _, c in p.latency_terms)
    with np.errstate(over="ignore"):  # x of 1e300 IPC/SM is simply beyond c
        x_gbs = x_ * p.gbs_per_ipc
    if np.any(x_gbs >= c_min):
        first = float(x_[x_gbs >= c_min].flat[0])
        raise OutsideDomainError(
            f"x must be below {c_min / p.gbs_per_ipc:.4g} IPC/SM for {p.gpu} (c = "
            f"{c_min:g} GB/s, where the latency of Table 6.5's fit becomes unbounded), "
            f"got {first:g}"
        )
    return out(loaded_latency(p, x_gbs) + a * p.alu_lat)


_NEWTON_MAX_STEPS = 100
"""Newton steps (bisection where a step leaves the bracket) after which a point of the
refined model that has not converged raises ``OutsideDomainError``; a one-term latency
fit needs none (closed form), two terms about four."""

_NEWTON_RTOL = 16 * np.finfo(float).eps
"""Convergence of the Newton iteration: the last step, or the bracket, is within this
fraction of x (the rounding noise of a step is a few eps·x)."""


def _terms_in_ipc(p: Params) -> tuple[tuple[float, float], ...]:
    """The ``(b, c)`` pairs of the Table 6.5 fit that add latency below its smallest
    pole (``b > 0``, finite ``c``), ``c`` in IPC/SM, smallest ``c`` first."""
    k = p.gbs_per_ipc
    live = sorted((c / k, b) for b, c in p.latency_terms if b > 0 and np.isfinite(c))
    return tuple((b, c) for c, b in live)


def _bound_side(p: Params, a: np.ndarray):
    """Per α: ``hi``, the throughput bound kept below the fit's pole; ``n_hi``, the
    occupancy at which the latency branch reaches ``hi`` (``hi·Latency(hi)``); ``lat0``,
    the latency at zero throughput, ``a + α·alu_lat`` (``inf`` α counted as 0).

    ``hi`` and ``n_hi`` are computed by the functions
    :func:`_refined_memory_throughput_reference` uses (:func:`throughput_bound`'s
    limits and ``loaded_latency``; its ``g(hi) <= 0`` is ``n >= n_hi``), so the points
    at the bound are the same ones and get the same value.
    """
    k = p.gbs_per_ipc
    c_min_gbs = min(c for _, c in p.latency_terms)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        hi = np.minimum(_limits(p, a).min(axis=0), c_min_gbs / k * (1 - 1e-12))
        lat = loaded_latency(p, hi * k, saturated="inf")
        alu = np.where(np.isfinite(a), a, 0.0) * p.alu_lat
        n_hi = hi * (lat + alu)
        lat0 = p.a + alu
    return hi, n_hi, lat0


def _one_term_root(n, lat0, b: float, c: float, out: np.ndarray) -> np.ndarray:
    """The root in ``[0, c)`` of ``x·(lat0 + b·x/(c − x)) = n``, written into ``out``.

    Times ``(c − x)`` the equation is the quadratic ``(b − lat0)·x² + (lat0·c + n)·x −
    n·c = 0``, whose discriminant is ``(lat0·c − n)² + 4·b·c·n``; its root in ``[0,
    c)`` is taken in the form ``2·n·c / (lat0·c + n + √discriminant)``, a sum of
    non-negative terms with no cancellation (the square root by ``hypot``, which does
    not overflow). Elementwise, ``n`` and ``lat0`` broadcast to ``out``.
    """
    lc = lat0 * c
    np.subtract(lc, n, out=out)
    np.hypot(out, 2.0 * np.sqrt((b * c) * n), out=out)
    out += lc
    out += n
    np.divide((2.0 * c) * n, out, out=out)
    return out


def _newton(n, lat0, terms, lo, up):
    """Solve ``g(x) = x·(lat0 + Σ b·x/(c − x)) − n = 0`` on the brackets ``[lo, up]``
    (flat arrays, ``g(lo) <= 0 <= g(up)``, ``up`` below the smallest ``c``).

    Newton's method from ``lo``: ``g`` is increasing and convex on ``[0, c)``, so after
    the first step the iterates stay right of the root and fall to it monotonically.
    The bracket is narrowed at every step by the sign of ``g``, and a step that leaves
    it is replaced by bisection. A point is done when its step is within
    ``_NEWTON_RTOL`` of x (after a bisection the step is half the bracket): its root is
    stored then, and it leaves the arrays once converged points are most of them (each
    point's iterates are its own, so when it leaves does not change its root). Returns
    the roots and the indices of the points not converged after ``_NEWTON_MAX_STEPS``
    steps (empty if none).
    """
    res = np.empty_like(lo)
    idx = np.arange(lo.size)
    x, lo, up = lo.copy(), lo.copy(), up.copy()  # narrowed in place below
    pending = np.ones(lo.size, dtype=bool)  # not yet converged (and not yet stored)
    (b1, c1), rest = terms[0], terms[1:]
    for _ in range(_NEWTON_MAX_STEPS):
        d = c1 - x
        s = b1 / d  # Σ b/(c − x): the latency the terms add, per unit of x
        ds = s * (c1 / d)  # Σ b·c/(c − x)²: the derivative of Σ b·x/(c − x)
        for b, c in rest:
            d = c - x
            t = b / d
            s += t
            ds += t * (c / d)
        lat = x * s
        lat += lat0
        g = x * lat
        g -= n
        right = g > 0
        np.copyto(up, x, where=right)
        np.copyto(lo, x, where=~right)
        ds *= x
        ds += lat  # g'(x) = Latency(x) + x·Σ b·c/(c − x)²
        xn = x - g / ds
        outside = ~((xn >= lo) & (xn <= up))  # NaN too
        if outside.any():
            xn[outside] = 0.5 * (lo[outside] + up[outside])
        # (the floor: adjacent subnormal roots differ by more than a relative step)
        done = np.abs(xn - x) <= np.maximum(_NEWTON_RTOL * xn, np.finfo(float).tiny)
        done &= pending  # each point is stored once, at its first converged step
        res[idx[done]] = xn[done]
        pending &= ~done
        left = np.count_nonzero(pending)
        if not left:
            return res, idx[:0]
        x = xn
        # the converged points keep iterating, unstored, until they are most of the
        # arrays: dropping them costs a copy of every array
        if left < pending.size // 2:
            x, n, lat0, lo, up, idx = (v[pending] for v in (x, n, lat0, lo, up, idx))
            pending = np.ones(left, dtype=bool)
    return res, idx[pending]


def refined_memory_throughput(p: Params, n, alpha):
    """Memory throughput (IPC/SM) of the refined model: the fixed point of (§6.5)::

        x = min(n / (a + Σ b·X/(c − X) + α·alu_lat),
                mem_thru, alu_thru/α, issue_thru/(α+1)),     X = x·gbs_per_ipc

    ``x·Latency(x)`` grows monotonically from 0 to ∞ on ``[0, c)``, so the
    latency-bound branch has one root, and the throughput bound ``hi`` binds exactly
    where ``n >= hi·Latency(hi)``: there the bound is returned (held just below the
    pole, at ``c·(1 − 1e-12)``, where the bound lies beyond ``c``). Elsewhere, for all
    points at once:

    - a one-term fit (Table 6.5): times ``(c − X)`` the equation is a quadratic, solved
      in closed form with no cancellation;
    - two or more terms (the G80's fit of §6.4): Newton's method, bracketed between the
      root with the smallest pole alone (above the root) and the same with the other
      terms frozen there (below it); about four steps, at most ``_NEWTON_MAX_STEPS``,
      and a point that has not converged raises ``OutsideDomainError`` rather than
      return a value.

    ``n = 0`` and ``alpha = inf`` give 0. The results are those of the bracketing root
    finder used before (``scipy``'s Chandrupatla, kept as
    ``_refined_memory_throughput_reference``) to about 1e-15 relative, and the same
    numbers at the bound and at 0; below about 1e-300 IPC/SM (α beyond about 1e300)
    that root finder's absolute tolerance gave 0 or the bound where the value is now
    resolved.

    >>> from gpumodels.facts.param_sets import params
    >>> # §6.5's Kepler equation at n = 16 warps, α = 0 (a quadratic by hand: 0.05053)
    >>> round(refined_memory_throughput(params("Kepler"), 16, 0), 5)
    0.05053
    """
    p = check_params(p)
    _require_memory(p)
    n_ = as_array("n", n)
    a = as_array("alpha", alpha, allow_inf=True)
    shape = broadcast(n=n_, alpha=a)[0].shape
    hi, n_hi, lat0 = _bound_side(p, a)
    terms = _terms_in_ipc(p)
    res = np.empty(shape)
    with np.errstate(all="ignore"):  # bound, zero and huge-α points are set below
        if terms:
            # the root with the smallest pole alone: the answer for one term, an upper
            # bound for more (the other terms only add latency)
            _one_term_root(n_, lat0, *terms[0], out=res)
        else:  # no contention term below the pole: the basic model with a = lat0
            np.divide(n_, lat0, out=res)
        np.minimum(res, hi, out=res)
        at_bound = n_ >= n_hi
        np.copyto(res, hi, where=at_bound)
        finite_a = np.isfinite(a)
        # α so large that lat0·c overflows (α·alu_lat near 1e308): x is below 1e-300
        # IPC/SM, where contention adds nothing; the latency branch scaled by α
        huge = finite_a & (a > 0) & ~np.isfinite(lat0 * (terms[0][1] if terms else 1.0))
        if np.any(huge):
            safe = np.where(huge, a, 1.0)
            scaled = np.minimum(n_ / safe / (p.alu_lat + p.a / safe), hi)
            np.copyto(res, scaled, where=huge & ~at_bound)
        if len(terms) > 1:
            todo = ~at_bound & (finite_a & ~huge) & (n_ > 0)
            if np.any(todo):
                _polish(p, n_, a, lat0, terms, res, todo)
        no_alpha, no_n = ~finite_a, n_ == 0
        if np.any(no_alpha) or np.any(no_n):
            res[np.broadcast_to(no_alpha | no_n, shape)] = 0.0
    if res.size and not (res.min() >= 0.0 and res.max() < np.inf):
        bad = ~((res >= 0) & np.isfinite(res))
        raise OutsideDomainError(
            f"the refined model of {p.gpu} has no finite fixed point at "
            f"n={float(np.broadcast_to(n_, shape)[bad].flat[0]):g}, "
            f"alpha={float(np.broadcast_to(a, shape)[bad].flat[0]):g}: the inputs are "
            "beyond the floating-point range of the model"
        )
    return out(res)


def _polish(p, n_, a, lat0, terms, res, todo) -> None:
    """Replace ``res`` at the ``todo`` points by the root of the full latency fit
    (two or more terms) by :func:`_newton`; ``OutsideDomainError`` naming the first
    point that did not converge."""
    shape = res.shape
    nt = np.broadcast_to(n_, shape)[todo]
    lt = np.broadcast_to(lat0, shape)[todo]
    up = res[todo]
    # the other terms frozen at ``up`` (where they are largest): a lower bound
    b1, c1 = terms[0]
    frozen = lt + sum(b * up / (c - up) for b, c in terms[1:])
    lo = np.minimum(_one_term_root(nt, frozen, b1, c1, out=np.empty_like(up)), up)
    x, failed = _newton(nt, lt, terms, lo, up)
    if failed.size:
        i = failed[0]
        at = float(np.broadcast_to(a, shape)[todo][i])
        raise OutsideDomainError(
            f"the refined model of {p.gpu} did not converge at n={nt[i]:g}, "
            f"alpha={at:g} in {_NEWTON_MAX_STEPS} Newton steps (bracket "
            f"[{lo[i]:.17g}, {up[i]:.17g}] IPC/SM)"
        )
    res[todo] = x


def _refined_memory_throughput_reference(p: Params, n, alpha):
    """The refined model by a bracketing root finder per point
    (``scipy.optimize.elementwise.find_root``, Chandrupatla's method): the
    implementation :func:`refined_memory_throughput` replaced (tools/bench_refined.py
    compares their speeds), kept as the reference its tests compare with
    (tests/test_refined_fast.py).
    """

    p = check_params(p)
    from scipy.optimize.elementwise import find_root

    _require_memory(p)
    n_ = as_array("n", n)
    a = as_array("alpha", alpha, allow_inf=True)
    n_, a = broadcast(n=n_, alpha=a)
    bound = np.asarray(throughput_bound(p, a), dtype=float)
    c_min = min(c for _, c in p.latency_terms) / p.gbs_per_ipc
    finite = np.isfinite(a) & (n_ > 0)
    alu = np.where(finite, a, 0.0) * p.alu_lat

    def g(x, n_, alu):
        return x * (loaded_latency(p, x * p.gbs_per_ipc, saturated="inf") + alu) - n_

    hi = np.minimum(bound, c_min * (1 - 1e-12))
    with np.errstate(invalid="ignore", under="ignore"):
        at_hi = g(hi, n_, alu)
    # throughput-bound points (hi == bound there)
    result = np.where(at_hi <= 0, hi, 0.0)
    todo = finite & (at_hi > 0)
    if np.any(todo):
        with np.errstate(under="ignore"):  # tiny throughputs at huge alpha: 0 is right
            res = find_root(
                g,
                (np.zeros(int(todo.sum())), hi[todo]),
                args=(n_[todo], alu[todo]),
                tolerances={"xatol": 1e-300, "xrtol": 4 * np.finfo(float).eps},
            )
        result[todo] = res.x
    result = np.where(finite, result, 0.0)
    return out(result)


def refined_arithmetic_throughput(p: Params, n, alpha):
    """Adds per cycle per SM of the refined model:
    ``32·α·refined_memory_throughput`` (§6.5).

    At ``alpha = inf`` memory latency plays no role and the basic all-add limit is
    returned.
    """
    p = check_params(p)
    a = as_array("alpha", alpha, allow_inf=True)
    x = np.asarray(refined_memory_throughput(p, n, a))
    basic_inf = np.asarray(arithmetic_throughput(p, n, np.inf))
    with np.errstate(invalid="ignore", under="ignore"):
        res = np.where(
            np.isinf(a), basic_inf, WARP_SIZE * np.where(np.isinf(a), 0.0, a) * x
        )
    return out(res)


def refined_needed_occupancy(p: Params, alpha, fraction: float = 0.9):
    """Warps per SM at which the refined model reaches
    ``fraction`` of the throughput bound.

    Closed form: at the target throughput x the latency is known, so ``n =
    x·Latency(x)``. Where the target lies at or beyond the latency model's singularity
    ``c`` (Fig. 4.6) no occupancy reaches it: ``OutsideDomainError`` naming the fraction
    and α.
    """
    p = check_params(p)
    _require_memory(p)
    f = check_fraction("fraction", fraction)
    a = as_array("alpha", alpha, allow_inf=True)
    # at the target throughput
    lat_mem = loaded_latency(
        p, f * np.asarray(throughput_bound(p, a)) * p.gbs_per_ipc, saturated="inf"
    )
    if np.any(np.isinf(lat_mem)):
        first = float(np.broadcast_to(a, lat_mem.shape)[np.isinf(lat_mem)].flat[0])
        raise OutsideDomainError(
            f"fraction={f:g} of the throughput bound is never reached by the refined "
            f"model of {p.gpu} at alpha={first:g}: the target throughput lies at or "
            "beyond the singularity c of the latency fit (Table 6.5)"
        )
    return out(_occupancy_at(p, a, f, lat_mem))
