"""The simulated reference against which chapter 7's comparisons are made in this book.

Volkov compares each model with *measured* throughputs (the largest sample at each
occupancy with a whole number of warps per scheduler). Those measurements are shown only
as dots in figures that did not survive extraction, so the book measures every model
against a **simulated reference** instead: ``gpumodels.engines.sim.volkov_sm`` with
``contention=True`` — an SM with the Table 4.1 latencies and throughput limits, issue
limits per scheduler, contention for the adders, and a memory latency that grows with
memory throughput as Table 6.5's ``a + b·x/(c − x)``. It shows gradual saturation, as
hardware does, but it is a model too: it shares Volkov's assumptions, so Volkov's models
are *expected* to agree with it better than prior models do, and agreement with it is
not agreement with hardware. Every figure and table calls it "simulated reference".

The sweep — the five GPUs of the dissertation, ``ALPHAS`` (1 to 512 at about every power
of √2, §7.9) plus α = 0 and α = ∞, at every whole number of warps per scheduler — takes
minutes, so it is cached in ``data/simulated/prior_reference.csv``
(``tools/simulate_reference.py`` regenerates it; a test re-simulates sample rows and
requires identical numbers).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd

from gpumodels.comparisons import _checks
from gpumodels.comparisons.prior.estimate import add_fraction, load_fraction
from gpumodels.engines import sim
from gpumodels.facts.params import Params, check_params
from gpumodels.ground.data import read_rows
from gpumodels.ground.validate import as_array, check_int
from gpumodels.papers.volkov import synthetic as vk

ALPHAS = (1, 2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512)
LIMIT_ALPHAS = (0.0, np.inf)
CACHE = "simulated/prior_reference.csv"
SOURCE = (
    "simulated: gpumodels.engines.sim.volkov_sm(contention=True) with Volkov 2016 "
    "Table 4.1 and Table 6.5 parameters; tools/simulate_reference.py"
)


def occupancies(p: Params) -> np.ndarray:
    """Warps per SM with a whole number of warps per scheduler, up to the GPU's maximum
    (§7, §7.9)."""
    p = check_params(p)
    return np.arange(p.schedulers, p.max_warps_per_sm + 1, p.schedulers, dtype=float)


def window(p: Params, alpha: float, n: int | None = None) -> tuple[int, int]:
    """Cycles ``(start, stop)`` within which a run with ``n`` warps is measured
    (:func:`measure`).

    The run is measured after two unloaded round trips of a warp (``mem_lat +
    α·alu_lat``, at least 2000 cycles), for at least 4000 cycles and ``max(3, 120 ×
    schedulers / n)`` round trips: the fewer the warps, the more trips (120 at one warp
    per scheduler), so that the rate is steady to 0.3 % where a warp's latency is the
    whole story (tested against Little's law).
    """
    p = check_params(p)
    alpha = _checks.checked_alpha("alpha", alpha)
    trip = p.alu_lat if np.isinf(alpha) else p.mem_lat + alpha * p.alu_lat
    trips = 3.0 if n is None else max(3.0, 120.0 * p.schedulers / check_int("n", n, 1))
    start = int(max(2000, 2 * trip))
    return start, int(start + max(4000, trips * trip))


def _program(alpha: float):
    if np.isinf(alpha):
        return (sim.Op("alu", "r", ("r",)),)
    return sim.alpha_program(int(alpha))


def _body(alpha: float) -> int:
    return 1 if np.isinf(alpha) else int(alpha) + 1


def measure(p: Params, n: int, alpha: float) -> tuple[float, float, int]:
    """One deterministic run: ``(ipc, little, trips)``.

    ``ipc`` counts every instruction the SM issued between the first and the last cycle
    in :func:`window` at which warp 0 began a loop trip, over that span: whole trips of
    the leading warp, so that a window does not cut a round trip short (a fixed window
    was off by −9 % to +6 % at one warp per scheduler). ``little`` is the sum over warps
    of instructions per trip over each warp's own mean trip time in the window —
    Little's law, the rate the latencies allow — and ``trips`` the number of warp 0's
    whole trips measured.
    """
    p = check_params(p)
    n = check_int("n", n, 1, p.max_warps_per_sm, context=p.gpu)
    a = _checks.checked_alpha("alpha", alpha)
    if not (np.isinf(a) or (a >= 0 and a == int(a))):
        raise ValueError(
            f"alpha must be a whole number >= 0 or inf for the simulator, got {alpha!r}"
        )
    start, stop = window(p, a, n)
    trace = sim.simulate(sim.volkov_sm(p, contention=True), _program(a), n, cycles=stop)
    body = _body(a)
    try:
        ipc, trips = trace.trip_throughput(body, start, stop)  # over warp 0's trips
    except ValueError as e:
        raise ValueError(
            f"{e} on {p.gpu} (n = {n}, alpha = {alpha}); lengthen the window"
        ) from None
    starts = [
        sim.trip_starts(trace.warp, trace.seq, trace.issue, body, w, start, stop)
        for w in range(n)
    ]
    little = sum((s.size - 1) * body / (s[-1] - s[0]) for s in starts if s.size >= 2)
    return ipc, float(little), trips


def simulate(p: Params, n: int, alpha: float) -> float:
    """Simulated instructions per cycle per SM of the α-workload with ``n`` warps (one
    run, deterministic; measured over whole loop trips, :func:`measure`)."""
    p = check_params(p)
    return measure(p, n, alpha)[0]


def rows(p: Params, alphas=ALPHAS + LIMIT_ALPHAS) -> list[dict]:
    """Simulate the whole sweep for one GPU (minutes); rows as written to the cache."""
    p = check_params(p)
    alphas = _checks.numbers_list("alphas", alphas, allow_inf=True)
    out = []
    for a in alphas:
        for n in occupancies(p):
            start, stop = window(p, float(a), int(n))
            out.append(
                {
                    "gpu": p.gpu,
                    "n": int(n),
                    "alpha": float(a),
                    "ipc": measure(p, int(n), a)[0],
                    "start": start,
                    "stop": stop,
                    "source": SOURCE,
                }
            )
    return out


@cache
def _cache() -> dict[tuple[str, float, float], float]:
    return {
        (r["gpu"], float(r["n"]), float(r["alpha"])): float(r["ipc"])
        for r in read_rows(CACHE)
    }


def table():
    """The cached reference as a DataFrame:
    ``gpu, n, alpha, ipc, adds, mem_ipc`` (simulated)."""

    df = pd.DataFrame(
        [{"gpu": g, "n": n, "alpha": a, "ipc": v} for (g, n, a), v in _cache().items()]
    )
    return df.assign(
        adds=vk.WARP_SIZE * add_fraction(df.alpha) * df.ipc,
        mem_ipc=load_fraction(df.alpha) * df.ipc,
    )


def ipc(p: Params, n, alpha) -> np.ndarray:
    """Cached simulated IPC per SM at occupancies ``n`` (must be among
    :func:`occupancies`) and one ``alpha``."""
    p = check_params(p)
    alpha = _checks.checked_alpha("alpha", alpha)
    cache = _cache()
    n_arr = np.atleast_1d(as_array("n", n))
    missing = [x for x in n_arr.ravel() if (p.gpu, float(x), float(alpha)) not in cache]
    if missing:
        raise ValueError(
            f"the simulated reference has no point at n = {missing[0]:g}, "
            f"alpha = {alpha} on {p.gpu}; "
            f"n must be one of {occupancies(p).astype(int).tolist()} "
            f"and alpha one of {list(ALPHAS)}, 0 or inf"
        )
    res = np.array(
        [cache[(p.gpu, float(x), float(alpha))] for x in n_arr.ravel()]
    ).reshape(n_arr.shape)
    return res.reshape(np.shape(n))


def curve(p: Params, alpha: float):
    """A function of ``n`` giving the cached simulated IPC at one ``alpha`` (Zhang &
    Owens' input curves)."""
    p = check_params(p)
    alpha = _checks.checked_alpha("alpha", alpha)

    def f(n):
        return ipc(p, n, alpha)

    return f
