"""Chapter 4 of Volkov (2016):
the CUDA guide's warp estimate and merged add/load times (§4.8–4.12).

The chapter-7 models are in the sibling modules of :mod:`gpumodels.comparisons.prior`.

* :func:`cuda_guide_warps` — the CUDA C Programming Guide's estimate (§4.8): ``mem_lat /
  (instruction_time · α)``; :func:`cuda_guide_refined_warps` adds the stalled warp and
  the memory instruction itself.
* :func:`better_estimate_warps` — the same with arithmetic latency added (§4.8, §4.6):
  ``mem_lat · alu_thru / α + alu_lat · alu_thru``.
* :func:`arithmetic_time`, :func:`memory_time` — reciprocal throughputs of all-add and
  all-load code (§4.10–4.11); :func:`times_overlap_throughput` and
  :func:`times_add_throughput` merge them by ``max`` (§4.11) or by sum (§4.12).

Throughputs are in adds per cycle per SM (32 per add instruction), like
:func:`gpumodels.papers.volkov.synthetic.arithmetic_throughput`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.facts.param_sets import params
from gpumodels.facts.params import Params, check_params
from gpumodels.ground.data import read_rows
from gpumodels.ground.validate import as_array, broadcast, finite_result, out


def cuda_guide_warps(mem_lat, instruction_time, alpha):
    """Warps needed per the CUDA C Programming Guide, Ch. 5.2.3 (Volkov 2016, §4.8)::

        warps ≈ mem_lat / (instruction_time · α)

    ``mem_lat`` in cycles, ``instruction_time`` in cycles per instruction per SM,
    ``alpha`` arithmetic instructions per memory instruction. With the guide's 600
    cycles, 4 CPI and α = 30 this is 5 warps.

    >>> cuda_guide_warps(600, 4, 30)
    5.0
    """
    m = as_array("mem_lat", mem_lat)
    t = as_array("instruction_time", instruction_time, lo_open=True)
    a = as_array("alpha", alpha, lo_open=True, allow_inf=True)
    m, t, a = broadcast(mem_lat=m, instruction_time=t, alpha=a)
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        res = m / (t * a)
    return out(
        finite_result(
            "the guide's warps",
            res,
            mem_lat=mem_lat,
            instruction_time=instruction_time,
            alpha=alpha,
        )
    )


def cuda_guide_refined_warps(mem_lat, instruction_time, alpha):
    """The guide's estimate counting the stalled warp and
    the memory instruction (§4.8)::

        warps = mem_lat / (instruction_time · (α + 1)) + 1

    Arguments as in :func:`cuda_guide_warps`.
    """
    m = as_array("mem_lat", mem_lat)
    t = as_array("instruction_time", instruction_time, lo_open=True)
    a = as_array("alpha", alpha, allow_inf=True)
    m, t, a = broadcast(mem_lat=m, instruction_time=t, alpha=a)
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        res = m / (t * (a + 1)) + 1
    return out(
        finite_result(
            "the refined guide's warps",
            res,
            mem_lat=mem_lat,
            instruction_time=instruction_time,
            alpha=alpha,
        )
    )


def better_estimate_warps(p: Params, alpha):
    """Volkov's estimate with arithmetic latency (§4.6, §4.8)::

        warps = mem_lat · alu_thru / α + alu_lat · alu_thru

    (the number of memory plus the number of arithmetic instructions in execution when
    the add throughput is at its peak).
    """
    p = check_params(p)
    a = as_array("alpha", alpha, lo_open=True, allow_inf=True)
    return out(p.mem_lat * p.alu_thru / a + p.alu_lat * p.alu_thru)


def arithmetic_time(p: Params, n):
    """Cycles per add instruction per SM when only adds run: ``max(alu_lat / n, 1 /
    alu_thru)`` (§4.10)."""
    p = check_params(p)
    n_ = as_array("n", n, lo_open=True)
    return out(np.maximum(p.alu_lat / n_, 1.0 / p.alu_thru))


def memory_time(p: Params, n):
    """Cycles per memory instruction per SM when only loads run: ``max(mem_lat / n, 1 /
    mem_thru)`` (§4.11)."""
    p = check_params(p)
    n_ = as_array("n", n, lo_open=True)
    return out(np.maximum(p.mem_lat / n_, 1.0 / p.mem_thru))


def _merged_throughput(p: Params, n, alpha, merge):
    """``32·α / merge(α·arithmetic_time(n), memory_time(n))``, with the all-add limit at
    α = ∞."""
    a = as_array("alpha", alpha, allow_inf=True)
    at, mt = np.asarray(arithmetic_time(p, n)), np.asarray(memory_time(p, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        res = WARP_SIZE * a / merge(a * at, mt)
    return out(np.where(np.isinf(a), WARP_SIZE / at, res))


def times_overlap_throughput(p: Params, n, alpha):
    """Adds per cycle per SM if add and load times overlap (§4.11)::

        Time(n)    = max(α · arithmetic_time(n), memory_time(n))
        throughput = 32·α / Time(n)

    ``n`` and ``alpha`` broadcast; ``alpha = inf`` gives the all-add throughput.
    """
    p = check_params(p)
    return _merged_throughput(p, n, alpha, np.maximum)


def times_add_throughput(p: Params, n, alpha):
    """Adds per cycle per SM if add and load times add (§4.12)::

        Time(n)    = α · arithmetic_time(n) + memory_time(n)
        throughput = 32·α / Time(n)

    ``n`` and ``alpha`` broadcast; ``alpha = inf`` gives the all-add throughput.
    """
    p = check_params(p)
    return _merged_throughput(p, n, alpha, np.add)


def table_4_3():
    """Table 4.3 inputs (α and instruction time per GPU) with
    the guide's and the better estimate.

    Columns: ``gpu, alpha, mem_lat, instruction_time, guide_warps, better_warps,
    source``.
    """

    out_rows = []
    for r in read_rows("volkov/table_4_3.csv"):
        p = params(r["gpu"])
        a, t = float(r["alpha"]), float(r["instruction_time"])
        out_rows.append(
            {
                "gpu": p.gpu,
                "product": p.product,
                "alpha": a,
                "mem_lat": p.mem_lat,
                "instruction_time": t,
                "guide_warps": cuda_guide_warps(p.mem_lat, t, a),
                "better_warps": better_estimate_warps(p, a),
                "source": r["source"],
            }
        )
    return pd.DataFrame(out_rows)
