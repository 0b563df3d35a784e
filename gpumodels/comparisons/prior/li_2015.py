"""Transit (Li et al. 2015) on Volkov's α-workload, for the side-by-side comparison.

The Transit model (:mod:`gpumodels.papers.transit`) is instantiated per SM with warps as
its threads, in the same reading the Transit chapter gives the paper's machine points:

* memory system: latency ``L = mem_lat`` and ceiling ``R = mem_thru`` (loads per cycle),
  so the transition point is ``k_delta = mem_lat · mem_thru`` warps;
* computation system: a warp "thinks" ``Z = α · alu_lat`` cycles between loads (α
  dependent adds), and ``M = alu_lat · alu_thru`` warps keep the CUDA cores busy
  (Little's law; on Fermi 18 × 1 warp = 576 threads, the paper's ``M(SP)`` for the
  C2075).

The equilibrium gives the load throughput ``T = min(n / (mem_lat + α·alu_lat), mem_thru,
alu_thru/α)``, Volkov's basic model (§4.1) without its issue limit and with one memory
latency for every instruction mix. Instruction throughput is ``(α + 1) · T``; where it
exceeds the issue rate the output is flagged, as every model's is. The limits ``α = 0``
(``Z → 0``: ``min(n/mem_lat, mem_thru)`` loads) and ``α = ∞`` (``Z → ∞``:
``min(n/alu_lat, alu_thru)`` adds) are taken explicitly, since the Transit solver
accepts only ``0 < Z < ∞``.
"""

from __future__ import annotations

import numpy as np

from gpumodels.comparisons.prior.estimate import Estimate, grid, make
from gpumodels.facts.params import Params, check_params
from gpumodels.papers import transit


def transit2015(p: Params, n, alpha) -> Estimate:
    """Transit's CS/MS flow balance (Li et al. 2015, Eq. 3 and §2.4) for ``n`` warps per
    SM at ``alpha``."""
    p = check_params(p)
    n_, a_ = grid(n, alpha)
    inner = np.isfinite(a_) & (a_ > 0) & (n_ > 0)
    e = transit.equilibrium(
        np.where(inner, n_, 1.0),
        np.where(inner, a_, 1.0) * p.alu_lat,
        p.mem_thru,
        p.mem_lat * p.mem_thru,
        p.alu_lat * p.alu_thru,
    )
    ipc = np.select(
        [n_ == 0, a_ == 0, np.isinf(a_)],
        [
            0.0,
            np.minimum(n_ / p.mem_lat, p.mem_thru),
            np.minimum(n_ / p.alu_lat, p.alu_thru),
        ],
        np.asarray(e.ms_throughput) * (a_ + 1),
    )
    regime = np.where(
        inner,
        np.char.add(np.asarray(e.bound, dtype=str), " bound"),
        np.where(
            a_ == 0,
            "Z → 0 limit (memory or thread)",
            "Z → ∞ limit (computation or thread)",
        ),
    )
    return make("Li et al. 2015 (Transit)", p, n_, a_, ipc, regime)
