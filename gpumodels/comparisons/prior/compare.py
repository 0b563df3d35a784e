"""Every model of the package on the same α-workload, and its error against the
simulated reference.

``MODELS`` maps a short key to a function ``(p, n, alpha) -> Estimate``. Besides the
five chapter-7 models (Zhang & Owens fed with the simulated reference's α = 0 and α = ∞
curves, also in the "times add" variant of §7.3) it holds the CUDA guide read as a
throughput model (:func:`gpumodels.comparisons.prior.compare.cuda_guide`) and Volkov's
own basic (§4.1) and refined (§6.5) models, and Transit (Li et al. 2015) instantiated on
the α-workload (:func:`gpumodels.comparisons.prior.li_2015.transit2015`).

:func:`gpumodels.comparisons.prior.compare.errors` follows §7.9: for each α the
quotients estimate / reference at every reference occupancy, summarised by their
smallest and largest value. :func:`gpumodels.comparisons.prior.compare.cusp_occupancy`
follows §7.10: the smallest occupancy at which a model reaches 90 % of the reference's
peak throughput.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from gpumodels.comparisons import _checks
from gpumodels.comparisons.prior import reference
from gpumodels.comparisons.prior.baghsorkhi_2010 import baghsorkhi2010
from gpumodels.comparisons.prior.estimate import (
    Estimate,
    add_fraction,
    expected_invalid,
    grid,
    make,
)
from gpumodels.comparisons.prior.guide import cuda_guide_warps
from gpumodels.comparisons.prior.hong_kim_2009 import hong_kim2009
from gpumodels.comparisons.prior.huang_2014 import cpi_final, huang2014, parameters
from gpumodels.comparisons.prior.li_2015 import transit2015
from gpumodels.comparisons.prior.sim_2012 import sim2012
from gpumodels.comparisons.prior.zhang_owens_2011 import (
    simulated_curves,
    zhang_owens2011,
)
from gpumodels.facts import published
from gpumodels.facts.param_sets import GENERATIONS, params
from gpumodels.facts.params import Params, check_params
from gpumodels.ground import plotting
from gpumodels.ground.errors import UnknownNameError
from gpumodels.ground.validate import (
    check_choice,
    check_flag,
    check_fraction,
    check_real,
)
from gpumodels.papers.volkov import synthetic as vk

MAX_GRID_POINTS = 100_000
"""The most occupancies :func:`cusp_occupancy` evaluates a model at
(``n_max / step``)."""


def _volkov(fn_adds, fn_mem, label):
    def model(p: Params, n, alpha) -> Estimate:
        n_, a_ = grid(n, alpha)
        with np.errstate(invalid="ignore", divide="ignore", under="ignore"):
            ipc = np.where(
                a_ == 0,
                fn_mem(p, n_, a_),
                fn_adds(p, n_, a_) / (vk.WARP_SIZE * add_fraction(a_)),
            )
        return make(label, p, n_, a_, ipc, "min of latency and throughput bounds")

    return model


volkov_basic = _volkov(
    vk.arithmetic_throughput, vk.memory_throughput, "Volkov 2016 basic model (§4.1)"
)
volkov_basic.__doc__ = (
    "Volkov's basic model (§4.1, "
    ":func:`gpumodels.papers.volkov.synthetic.arithmetic_throughput`) as an "
    ":class:`~gpumodels.comparisons.prior.estimate.Estimate`."
)
volkov_refined = _volkov(
    vk.refined_arithmetic_throughput,
    vk.refined_memory_throughput,
    "Volkov 2016 refined model (§6.5)",
)
volkov_refined.__doc__ = (
    "Volkov's refined model (§6.5, "
    ":func:`gpumodels.papers.volkov.synthetic.refined_arithmetic_throughput`) "
    "as an :class:`~gpumodels.comparisons.prior.estimate.Estimate`."
)


def cuda_guide(p: Params, n, alpha) -> Estimate:
    """The CUDA C Programming Guide's estimate (§4.8) read as a throughput model — the
    book's reading.

    The guide says how many warps hide the memory latency, ``mem_lat / (instruction_time
    · α)`` with ``instruction_time = 1/alu_thru``; read as a curve, throughput grows
    linearly with ``n`` and reaches the throughput bound of §4.1 at that many warps.
    Defined for α > 0.
    """
    p = check_params(p)
    n_, a_ = grid(n, alpha)
    if np.any(a_ == 0):
        raise ValueError(
            "alpha must be > 0 for the CUDA guide's estimate (it divides by α)"
        )
    warps = np.asarray(cuda_guide_warps(p.mem_lat, 1.0 / p.alu_thru, a_))
    with np.errstate(invalid="ignore", divide="ignore"):
        # add instructions per cycle per SM (§4.1)
        bound_adds = vk.arithmetic_limit(p, a_)
    bound = bound_adds / add_fraction(a_)
    # n/warps = inf: the share is 1
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        share = np.where(warps == 0, 1.0, np.minimum(1.0, n_ / warps))
    regime = np.where(
        share < 1, "below the guide's warp count", "at the throughput bound"
    )
    return make(
        "CUDA C Programming Guide (read as a throughput model)",
        p,
        n_,
        a_,
        bound * share,
        regime,
    )


def _zo(p, n, alpha, merge="overlap"):
    return zhang_owens2011(
        p,
        n,
        alpha,
        curves=simulated_curves(p),
        merge=merge,
        inputs="simulated reference",
    )


MODELS: dict[str, Callable[..., Estimate]] = {
    "hong_kim2009": hong_kim2009,
    "baghsorkhi2010": baghsorkhi2010,
    "zhang_owens2011": _zo,
    "zhang_owens2011_add": lambda p, n, a: _zo(p, n, a, merge="add"),
    "sim2012": sim2012,
    "huang2014_rr": lambda p, n, a: huang2014(p, n, a, policy="rr"),
    "huang2014_gto": lambda p, n, a: huang2014(p, n, a, policy="gto"),
    "cuda_guide": cuda_guide,
    "volkov_basic": volkov_basic,
    "volkov_refined": volkov_refined,
    "transit2015": transit2015,
}
SAMPLED = frozenset({"zhang_owens2011", "zhang_owens2011_add"})
LABELS = {
    "hong_kim2009": "Hong & Kim 2009",
    "baghsorkhi2010": "Baghsorkhi et al. 2010",
    "zhang_owens2011": "Zhang & Owens 2011 (simulated input curves)",
    "zhang_owens2011_add": "Zhang & Owens 2011, times add (simulated input curves)",
    "sim2012": "Sim et al. 2012",
    "huang2014_rr": "Huang et al. 2014, round-robin",
    "huang2014_gto": "Huang et al. 2014, greedy-then-oldest",
    "cuda_guide": "CUDA guide (as a throughput model)",
    "volkov_basic": "Volkov basic (§4.1)",
    "volkov_refined": "Volkov refined (§6.5)",
    "transit2015": "Li et al. 2015 (Transit)",
}


def evaluate(model: str, p: Params, n, alpha) -> Estimate:
    """``MODELS[model](p, n, alpha)``; an unknown key raises ``ValueError`` listing the
    known ones."""
    p = check_params(p)
    if not isinstance(model, str) or model not in MODELS:
        raise UnknownNameError(f"model must be one of {sorted(MODELS)}, got {model!r}")
    return MODELS[model](p, n, alpha)


def errors(model: str, p: Params, alphas=reference.ALPHAS):
    """Per α, the smallest and largest quotient estimate / simulated reference over the
    reference occupancies (§7.9; Figs. 7.11–7.13). Columns ``alpha, q_min, q_max,
    n_at_min, n_at_max, flagged`` (``flagged``: estimates at those points the model
    itself flags as impossible)."""
    p = check_params(p)
    if not isinstance(model, str) or model not in MODELS:
        raise UnknownNameError(f"model must be one of {sorted(MODELS)}, got {model!r}")
    alphas = _checks.numbers_list("alphas", alphas)

    ns = reference.occupancies(p)
    out = []
    for a in alphas:
        with expected_invalid():
            est = evaluate(model, p, ns, a)
        q = est.ipc / reference.ipc(p, ns, a)
        out.append(
            {
                "alpha": float(a),
                "q_min": float(q.min()),
                "q_max": float(q.max()),
                "n_at_min": float(ns[q.argmin()]),
                "n_at_max": float(ns[q.argmax()]),
                "flagged": int((~est.valid).sum()),
            }
        )
    return pd.DataFrame(out)


def summary(models=None, gpus=GENERATIONS, alphas=reference.ALPHAS):
    """One row per model and GPU: the quotient range over all α and occupancies, and the
    worst factor ``max(q_max, 1/q_min)`` — the book's side-by-side comparison."""

    models = (
        list(MODELS) if models is None else _checks.names_of("models", models, MODELS)
    )
    gpus = _checks.names_of("gpus", gpus, GENERATIONS)
    alphas = _checks.numbers_list("alphas", alphas)
    rows = []
    for m in models:
        for g in gpus:
            e = errors(m, params(g), alphas)
            i, j = e.q_min.idxmin(), e.q_max.idxmax()
            rows.append(
                {
                    "model": LABELS[m],
                    "key": m,
                    "gpu": g,
                    "q_min": e.q_min[i],
                    "alpha_at_min": e.alpha[i],
                    "n_at_min": e.n_at_min[i],
                    "q_max": e.q_max[j],
                    "alpha_at_max": e.alpha[j],
                    "n_at_max": e.n_at_max[j],
                    "worst": max(e.q_max[j], 1 / e.q_min[i]),
                    "flagged": int(e.flagged.sum()),
                }
            )
    return pd.DataFrame(rows)


def cusp_occupancy(
    model: str | None,
    p: Params,
    alpha,
    fraction: float = 0.9,
    n_max: float = 256.0,
    step: float = 0.05,
) -> float:
    """Smallest occupancy at which ``model`` reaches ``fraction`` of the reference's
    peak IPC at ``alpha``.

    ``model=None`` gives the reference's own smallest occupancy (among its occupancies).
    For a model fed with the reference's curves (Zhang & Owens) the search runs over the
    same occupancies; for the others over ``step, 2·step, … n_max`` warps per SM (beyond
    the GPU's maximum, to show how far off a model is); ``nan`` if not reached (Fig.
    7.14; §4.5's cusp).
    """
    p = check_params(p)
    if model is not None:
        check_choice("model", model, sorted(MODELS))
    fraction = check_fraction("fraction", fraction)
    step = check_real("step", step, 0.0, lo_open=True)
    n_max = check_real("n_max", n_max, 0.0, lo_open=True)
    if n_max < step:
        raise ValueError(
            f"n_max must be at least step, got n_max={n_max!r}, step={step!r}"
        )
    if n_max / step > MAX_GRID_POINTS:
        raise ValueError(
            f"n_max / step must be at most {MAX_GRID_POINTS} grid points, got "
            f"n_max={n_max!r}, step={step!r} ({n_max / step:.3g} points)"
        )
    ns = reference.occupancies(p)
    ref = reference.ipc(p, ns, alpha)
    target = fraction * ref.max()
    if model is None:
        return float(ns[np.argmax(ref >= target * (1 - 1e-12))])
    # a model fed with reference curves exists only at the reference occupancies
    grid_n = ns if model in SAMPLED else np.arange(step, n_max + step / 2, step)
    with expected_invalid():
        est = evaluate(model, p, grid_n, alpha)
    hit = np.nonzero(est.ipc >= target)[0]
    return float(grid_n[hit[0]]) if hit.size else float("nan")


def curves(models, p: Params, alpha, n=None):
    """Long table of each model's throughput vs occupancy at one ``alpha`` (``model, n,
    ipc, adds, flags``).

    ``n`` defaults to 0.25-warp steps up to the GPU's maximum; models fed with reference
    curves (Zhang & Owens) are evaluated at the reference occupancies only.
    """
    p = check_params(p)
    models = _checks.names_of("models", models, MODELS)
    if not models:
        raise ValueError("models must name at least one model, got an empty list")
    alpha = _checks.checked_alpha("alpha", alpha)

    fine = (
        np.arange(0.25, p.max_warps_per_sm + 0.125, 0.25)
        if n is None
        else np.atleast_1d(grid(n, 0.0)[0])
    )
    frames = []
    for m in models:
        ns = reference.occupancies(p) if (m in SAMPLED and n is None) else fine
        with expected_invalid():
            est = evaluate(m, p, ns, alpha)
        frames.append(
            pd.DataFrame(
                {
                    "model": LABELS[m],
                    "key": m,
                    "n": est.n,
                    "ipc": est.ipc,
                    "adds": est.adds,
                    "flags": est.flags,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def plot_panel(
    ax,
    models,
    p: Params,
    alpha,
    with_reference: bool = True,
    title: str | None = None,
    first_style: int = 0,
):
    """Throughput vs occupancy at one ``alpha``: models as lines, the simulated
    reference as open circles.

    Adds per cycle per SM for α > 0, GB/s of loads at α = 0. The ``i``-th model takes
    colour and line style ``first_style + i`` of the palette (so that two panels can
    keep their models apart). Returns the :func:`curves` table.
    """
    with_reference = check_flag("with_reference", with_reference)
    p = check_params(p)
    a = _checks.checked_alpha("alpha", alpha)
    table = curves(models, p, a)
    scale, unit, what = (
        (p.gbs_per_ipc, "GB/s", "memory throughput")
        if a == 0
        else (vk.WARP_SIZE, "adds/cycle/SM", "arithmetic throughput")
    )
    col = "ipc" if a == 0 else "adds"
    for i, (key, sub) in enumerate(table.groupby("key", sort=False), start=first_style):
        y = sub[col] * (scale if a == 0 else 1.0)
        marker = {"marker": ".", "markersize": 4} if key in SAMPLED else {}
        plotting.model(
            ax,
            sub.n,
            y,
            label=f"{LABELS[key]} (model)",
            color=plotting.PALETTE[i % 8],
            linestyle=plotting.LINESTYLES[i % 8],
            **marker,
        )
    if with_reference:
        ns = reference.occupancies(p)
        ref = reference.ipc(p, ns, a) * (
            scale if a == 0 else vk.WARP_SIZE * float(add_fraction(a))
        )
        plotting.simulated(
            ax, ns, ref, label="simulated reference", color="black", markersize=4
        )
    plotting.label(
        ax,
        "occupancy",
        "warps/SM",
        what,
        unit,
        title=title or f"{p.gpu} ({p.product}), α = {a:g}",
    )
    return table


def plot_error_band(ax, model: str, p: Params, color: str, label: str):
    """Shade the range of ``model``'s quotients estimate / simulated reference over α
    (§7.9) and return the :func:`errors` table: the shape of Figs. 7.11–7.13."""
    p = check_params(p)
    e = errors(model, p)
    ax.fill_between(e.alpha, e.q_min, e.q_max, color=color, alpha=0.35, label=label)
    ax.plot(e.alpha, e.q_max, color=color, linewidth=1)
    ax.plot(e.alpha, e.q_min, color=color, linewidth=1)
    return e


def plot_pair(models, p: Params, alpha, title: str):
    """The dissertation's two-panel layout: prior ``models`` (left) and Volkov's basic
    model (right) at one ``alpha``, both against the simulated reference
    (:func:`plot_panel`), with one legend below the panels. Returns the figure."""
    p = check_params(p)
    models = _checks.names_of("models", models, MODELS)
    alpha = _checks.checked_alpha("alpha", alpha)
    fig, axes = plotting.figure(1, 2, height=3.6, sharey=True)
    for ax, ms, side, first in zip(
        axes, (models, ["volkov_basic"]), ("prior", "Volkov"), (0, len(models))
    ):
        plot_panel(ax, ms, p, alpha, title=f"{title}: {side}", first_style=first)
    entries = {la: h for ax in axes for h, la in zip(*ax.get_legend_handles_labels())}
    fig.legend(entries.values(), entries.keys(), loc="outside lower center", ncols=2)
    return fig


#: Band colours (palette indices) of Volkov's models in the error figures; every prior
#: model gets the fourth colour.
ERROR_COLORS = {"volkov_basic": 0, "volkov_refined": 2}


def plot_error_panels(axes, panels, legend_loc: str = "outside lower center") -> None:
    """Figs. 7.11–7.13's layout: one panel per ``(title, [(model, gpu), …])`` of
    ``panels``, each model's band of quotients estimate / simulated reference over α
    (:func:`plot_error_band`), with the line of agreement at 1 and α on a base-2 log
    axis. Volkov's models keep their colours (``ERROR_COLORS``); every other model is
    drawn in the fourth colour and is the prior model the panel's title names. One
    legend for the figure, at ``legend_loc``."""
    axes = np.ravel(axes)
    for ax, (title, bands) in zip(axes, panels):
        for model, gpu in bands:
            color = plotting.PALETTE[ERROR_COLORS.get(model, 3)]
            name = (
                LABELS[model]
                if model in ERROR_COLORS
                else "the prior model named in the title"
            )
            plot_error_band(
                ax, model, params(gpu), color, f"{name} (model / simulated)"
            )
        ax.axhline(1, color="0.3", linewidth=0.8)
        ax.set_xscale("log", base=2)
        plotting.label(
            ax,
            "arithmetic intensity α",
            "adds/load",
            "estimate / reference",
            "ratio",
            title=title,
        )
    entries = {la: h for ax in axes for h, la in zip(*ax.get_legend_handles_labels())}
    axes[0].figure.legend(entries.values(), entries.keys(), loc=legend_loc)


#: Chapter 7's printed worst errors, each (model, GPU, α, over- or underestimate,
#: published key, what it would take to re-derive the printed number).
WORST_CASES = (
    (
        "hong_kim2009",
        "GT200",
        32,
        "over",
        "v16.s7_1.worst_overestimate.GTX280",
        "derivable: (434 + 24·32)/566",
    ),
    (
        "baghsorkhi2010",
        "G80",
        0,
        "under",
        "v16.s7_2.alpha0_underestimate.8800GTX",
        "lower bound derivable (above)",
    ),
    (
        "baghsorkhi2010",
        "G80",
        32,
        "over",
        "v16.s7_2.worst_overestimate_a32.8800GTX",
        "needs measurements",
    ),
    (
        "zhang_owens2011",
        "GT200",
        16,
        "over",
        "v16.s7_3.worst_overestimate_a16.GTX280",
        "needs measurements",
    ),
    (
        "zhang_owens2011",
        "Kepler",
        32,
        "over",
        "v16.s7_3.worst_overestimate_newer",
        "needs measurements",
    ),
    (
        "sim2012",
        "Fermi",
        32,
        "over",
        "v16.s7_4.worst_overestimate.GTX480",
        "needs measurements",
    ),
    (
        "sim2012",
        "Kepler",
        32,
        "over",
        "v16.s7_4.worst_overestimate.GTX680",
        "needs measurements",
    ),
    (
        "sim2012",
        "Maxwell",
        64,
        "over",
        "v16.s7_4.worst_overestimate.GTX980",
        "needs measurements",
    ),
    (
        "sim2012",
        "Fermi",
        1,
        "under",
        "v16.s7_4.n2_underestimate.GTX480",
        "derivable: n/(n − 1) at n = 2",
    ),
)


def worst_cases():
    """Each of ``WORST_CASES`` beside the same model's worst quotient against the
    simulated reference at that GPU and α (the largest estimate/reference for an
    overestimate, the largest reference/estimate for an underestimate) and the occupancy
    where it occurs."""

    rows = []
    for key, gpu, a, kind, pub_key, note in WORST_CASES:
        p = params(gpu)
        e = errors(key, p, alphas=(a,)).iloc[0]
        over = kind == "over"
        rows.append(
            {
                "model": LABELS[key],
                "GPU": p.gpu,
                "α": a,
                "kind": kind + "estimate",
                "printed (vs measurements)": published.value(pub_key),
                "vs simulated reference": round(e.q_max if over else 1 / e.q_min, 2),
                "at n": e.n_at_max if over else e.n_at_min,
                "status": note,
            }
        )
    return pd.DataFrame(rows)


def plot_huang_bandwidth(
    axes, alpha_synthetic: float = 16, alpha_fermi: float = 32
) -> None:
    """Fig. 7.10: Huang et al.'s model with the bandwidth term, both policies, on their
    synthetic GPU (``axes[0]``) and on Fermi beside the simulated reference
    (``axes[1]``), in adds per cycle per SM, clipped to ±60 where the estimate diverges
    past utilisation 1."""

    syn = parameters("synthetic")
    fermi = params("Fermi")
    n_syn = np.linspace(1, syn["max_warps_per_sm"], 1241)
    adds_syn = vk.WARP_SIZE * float(add_fraction(alpha_synthetic))
    with expected_invalid():
        for policy, style in (("rr", "-"), ("gto", "--")):
            label = f"Huang {policy.upper()} + bandwidth term (model)"
            cpi = cpi_final(
                n_syn,
                alpha_synthetic,
                mem_lat=syn["mem_lat"],
                alu_lat=syn["alu_lat"],
                policy=policy,
                cores=int(syn["cores"]),
                s=syn["s"],
            )
            plotting.model(axes[0], n_syn, adds_syn / cpi, label=label, linestyle=style)
            est = huang2014(
                fermi,
                np.linspace(1, fermi.max_warps_per_sm, 1881),
                alpha_fermi,
                policy=policy,
                bandwidth=True,
            )
            plotting.model(axes[1], est.n, est.adds, label=label, linestyle=style)
    ns = reference.occupancies(fermi)
    ref = (
        vk.WARP_SIZE
        * float(add_fraction(alpha_fermi))
        * reference.ipc(fermi, ns, alpha_fermi)
    )
    plotting.simulated(
        axes[1], ns, ref, label="simulated reference", color="black", markersize=4
    )
    titles = (
        f"Huang et al.'s synthetic GPU, α = {alpha_synthetic:g}",
        f"Fermi, α = {alpha_fermi:g}",
    )
    for ax, title in zip(axes, titles):
        ax.set_ylim(-60, 60)
        ax.axhline(0, color="0.5", linewidth=0.8)
        plotting.label(
            ax,
            "occupancy",
            "warps/SM",
            "arithmetic throughput",
            "adds/cycle/SM",
            title=title,
        )
    axes[1].figure.legend(
        *axes[1].get_legend_handles_labels(), loc="outside lower center", ncols=2
    )
