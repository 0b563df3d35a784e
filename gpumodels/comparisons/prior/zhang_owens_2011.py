"""Zhang & Owens (2011) as Volkov (2016) §7.3 reduces it for the α-workload.

The model is driven by throughput curves measured with microbenchmarks: ``alu(n)``, the
add throughput of all-add code at occupancy ``n``, and ``mem(n)``, the load throughput
of all-load code. Adds and loads are assumed to proceed in parallel, so per repeating
group of α adds and one load per warp::

    alu_time = α·n / alu(n),  mem_time = n / mem(n)   (instruction throughputs per SM)
    Time     = max(alu_time, mem_time)
    adds/cycle per SM = min(32·alu(n), 32·α·mem(n))

The dissertation also plots ``Time = alu_time + mem_time`` (the thin line of Fig. 7.5),
which is :func:`gpumodels.comparisons.prior.zhang_owens_2011.zhang_owens2011` with
``merge="add"``.

**What the book feeds in.** Volkov used measured curves (Fig. 7.4), which are not
tabulated. The book offers two substitutes and says which one a figure uses:
``model_curves`` (the α = ∞ and α = 0 limits of Volkov's basic model, which makes the
result the §4.11 "times overlap" estimate) and ``simulated_curves`` (the α = ∞ and α = 0
runs of the simulated reference of :mod:`gpumodels.comparisons.prior.reference`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gpumodels.comparisons.prior import reference
from gpumodels.comparisons.prior.estimate import (
    Estimate,
    add_fraction,
    grid,
    load_fraction,
    make,
)
from gpumodels.facts.params import Params, check_params
from gpumodels.ground.errors import InputTypeError
from gpumodels.ground.validate import check_text
from gpumodels.papers.volkov import synthetic as vk

MODEL = "Zhang & Owens 2011"
Curve = Callable[[np.ndarray], np.ndarray]


def model_curves(p: Params) -> tuple[Curve, Curve]:
    """``(alu, mem)`` from Volkov's basic model: instruction throughputs per SM at α = ∞
    and α = 0 (§4.2)."""
    p = check_params(p)

    def alu(n):
        return np.asarray(vk.arithmetic_throughput(p, n, np.inf)) / vk.WARP_SIZE

    def mem(n):
        return np.asarray(vk.memory_throughput(p, n, 0.0))

    return alu, mem


def simulated_curves(p: Params) -> tuple[Curve, Curve]:
    """``(alu, mem)`` from the cached simulated reference (α = ∞ and α = 0), at its
    occupancies only."""
    p = check_params(p)

    return reference.curve(p, np.inf), reference.curve(p, 0.0)


def zhang_owens2011(
    p: Params,
    n,
    alpha,
    *,
    curves: tuple[Curve, Curve] | None = None,
    merge: str = "overlap",
    inputs: str = "basic model",
) -> Estimate:
    """Zhang & Owens (2011) throughput for the α-workload
    (Volkov 2016 §7.3; module docstring).

    ``curves`` is an ``(alu, mem)`` pair of functions of ``n`` giving instruction
    throughputs per SM; the default is ``model_curves`` of ``p``. ``merge`` is
    ``"overlap"`` (``max`` of the two times, the model) or ``"add"`` (their sum).
    ``inputs`` names the curves in the model label. Regimes: ``"alu"`` or ``"memory"``
    (the longer time) with ``"overlap"``; ``"sum"`` with ``"add"``.
    """
    p = check_params(p)
    if merge not in ("overlap", "add"):
        raise ValueError(f"merge must be 'overlap' or 'add', got {merge!r}")
    inputs = check_text("inputs", inputs)
    n_, a_ = grid(n, alpha)
    if curves is not None and not (
        isinstance(curves, (tuple, list))
        and len(curves) == 2
        and all(callable(c) for c in curves)
    ):
        raise InputTypeError(
            "curves must be an (alu, mem) pair of functions of n, got "
            f"{curves!r:.60}"
        )
    alu, mem = model_curves(p) if curves is None else curves
    alu_ipc = np.broadcast_to(np.asarray(alu(n_), dtype=float), n_.shape)
    mem_ipc = np.broadcast_to(np.asarray(mem(n_), dtype=float), n_.shape)
    if np.any(~(alu_ipc > 0)) or np.any(~(mem_ipc > 0)):
        raise ValueError("curves must give positive, finite throughputs at every n")
    f, g = add_fraction(a_), load_fraction(a_)
    t_alu, t_mem = f / alu_ipc, g / mem_ipc
    if merge == "overlap":
        t = np.maximum(t_alu, t_mem)
        regime = np.where(t_alu >= t_mem, "alu", "memory")
    else:
        t, regime = t_alu + t_mem, "sum"
    label = (
        f"{MODEL} ({'times add' if merge == 'add' else 'times overlap'}; "
        f"{inputs} inputs)"
    )
    return make(label, p, n_, a_, 1.0 / t, regime)
