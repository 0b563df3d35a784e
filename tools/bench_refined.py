"""Speed of Volkov's refined model (§6.4–6.5), points per second (a benchmark, not a
test).

    .venv/bin/python tools/bench_refined.py [repeats]

:func:`gpumodels.papers.volkov.synthetic.refined_memory_throughput` on a 1000 × 1000
grid of (n, alpha) — n from 0 to 64 warps per SM (Kepler's maximum; about 80 % of
the Kepler points and half the G80 points are latency-bound, the rest at the throughput
bound), alpha 0, 1e-3 … 1e6 and inf — for
Kepler (one Table 6.5 term: closed form) and for the G80's two-term fit of §6.4
(Newton's method), the grid passed as a column of n and a row of alpha (broadcast) and,
for Kepler, as two full 1000 × 1000 arrays; then the root-finder implementation it
replaced (``_refined_memory_throughput_reference``, scipy's ``find_root``) on a 300 ×
300 grid of the same range, for comparison; the basic model (§4.1) on the 1000 × 1000
grid comes first, for scale. The target (>= 1e7 points/s for the
one-term case on the 2-core machine) is reported, not asserted.

:func:`cases` gives ``(name, callable)`` pairs; each callable evaluates its grid once
and returns the number of points it evaluated (for a table of benchmarks).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from gpumodels.facts.param_sets import params
from gpumodels.papers.volkov import synthetic

TARGET = 1e7
"""Points per second asked of the one-term case."""


def grid(size: int, n_max: float = 64.0) -> tuple[np.ndarray, np.ndarray]:
    """A ``size × size`` grid as a column of n (0 … ``n_max`` warps per SM) and a row
    of alpha (0, a geometric range 1e-3 … 1e6, inf)."""
    n = np.linspace(0.0, n_max, size)[:, None]
    alpha = np.concatenate([[0.0], np.geomspace(1e-3, 1e6, size - 2), [np.inf]])
    return n, alpha[None, :]


def _case(fn, p, n, alpha):
    def run() -> int:
        return int(np.size(fn(p, n, alpha)))

    return run


def cases() -> list[tuple[str, object]]:
    """The benchmark cases: ``(name, callable returning the points evaluated)``."""
    kepler = params("Kepler")
    g80 = params("G80", "two_term")
    n, alpha = grid(1000)
    n_full, alpha_full = np.broadcast_arrays(n, alpha)
    n_small, alpha_small = grid(300)
    fast = synthetic.refined_memory_throughput
    ref = synthetic._refined_memory_throughput_reference
    return [
        (  # the basic model (§4.1), for scale
            "basic model, Kepler, 1000x1000 grid",
            _case(synthetic.memory_throughput, kepler, n, alpha),
        ),
        (
            "refined, Kepler (1 term), 1000x1000 grid",
            _case(fast, kepler, n, alpha),
        ),
        (
            "refined, Kepler (1 term), 1000x1000 full arrays",
            _case(fast, kepler, n_full.copy(), alpha_full.copy()),
        ),
        (
            "refined, G80 (2 terms), 1000x1000 grid",
            _case(fast, g80, n, alpha),
        ),
        (
            "reference find_root, Kepler (1 term), 300x300 grid",
            _case(ref, kepler, n_small, alpha_small),
        ),
        (
            "reference find_root, G80 (2 terms), 300x300 grid",
            _case(ref, g80, n_small, alpha_small),
        ),
    ]


def main(repeats: int = 3) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _timing import best_of

    rates = []
    print(f"{'case':52s} {'points':>9s} {'seconds':>9s} {'points/s':>14s}")
    for name, fn in cases():
        fn()  # warm-up: imports, caches
        seconds, points = best_of(repeats, fn)
        rates.append(points / seconds)
        print(f"{name:52s} {points:9,d} {seconds:9.4f} {points / seconds:14,.0f}")
    one, _, two, ref_one, ref_two = rates
    print(
        f"best of {repeats}; one-term target {TARGET:,.0f} points/s "
        f"{'met' if one >= TARGET else 'NOT met'} ({one / TARGET:.1f}x); over "
        f"find_root: {one / ref_one:,.0f}x (1 term), {two / ref_two:,.0f}x (2 terms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
