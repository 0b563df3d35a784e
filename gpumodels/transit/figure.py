"""Transit figures: MS supply and MS demand on one axis, and their intersection (Li et al. 2015, Fig. 6).

The horizontal axis counts the threads in the memory system, ``k``, from the left; the threads
in the computation system, ``x = n − k``, count from the right (a secondary axis on top), so the
demand curve ``g(x)`` is drawn reversed (Fig. 5-B). Everything drawn here is model output.
"""

from __future__ import annotations

import numpy as np

from .. import plotting
from .model import Equilibrium, demand, equilibrium, supply
from .._validate import check_flag


def curves(n, Z, R, k_delta, M, points: int = 401):
    """``(k, f(k), g(n − k))`` on a grid of ``k`` in ``[0, n]`` that contains both kinks exactly."""
    return _curves(equilibrium(n, Z, R, k_delta, M), points)


def _curves(e: Equilibrium, points: int = 401):
    k = np.linspace(0.0, e.n, points)
    k = np.unique(np.concatenate([k, [x for x in (e.k_delta, e.n - e.M, e.k) if 0 <= x <= e.n]]))
    return k, supply(k, e.R, e.k_delta), demand(e.n - k, e.Z, e.M)


def draw(ax, n, Z, R, k_delta, M, *, color: str | None = None, style: str = "-", label: str | None = None,
         marks: bool = True, intersection: bool = True, alpha: float = 1.0, brief: bool = False) -> Equilibrium:
    """Draw one transit figure on ``ax`` and return its :class:`~gpumodels.transit.model.Equilibrium`.

    ``f(k)`` is drawn in the first palette colour and ``g(n − k)`` in the second unless ``color``
    is given (then both use it, ``f`` solid and ``g`` dashed). With ``marks`` the transition
    points δ and π are marked (open squares), with ``intersection`` the equilibrium (a cross).
    ``label`` prefixes the legend entries; with ``brief`` only ``label`` itself goes into the
    legend (one entry per drawn state, for figures that compare states).
    """
    marks = check_flag("marks", marks)
    intersection = check_flag("intersection", intersection)
    brief = check_flag("brief", brief)
    e = equilibrium(n, Z, R, k_delta, M)
    k, f, g = _curves(e)
    cf = color or plotting.PALETTE[0]
    cg = color or plotting.PALETTE[1]
    pre = f"{label}: " if label else ""
    names = (label, None, None) if brief else (f"{pre}MS supply f(k)", f"{pre}MS demand g(n − k)",
                                               f"{pre}equilibrium ({e.bound} bound)")
    plotting.model(ax, k, f, label=names[0], color=cf, linestyle=style, alpha=alpha)
    plotting.model(ax, k, g, label=names[1], color=cg, linestyle="--" if color else style, alpha=alpha)
    if marks:
        if e.k_delta <= e.n:
            ax.plot([e.k_delta], [e.R], "s", mfc="white", mec=cf, ms=7, alpha=alpha)
            ax.annotate("δ", (e.k_delta, e.R), textcoords="offset points", xytext=(4, 4), color=cf)
        if e.M <= e.n:
            ax.plot([e.n - e.M], [e.M / e.Z], "s", mfc="white", mec=cg, ms=7, alpha=alpha)
            ax.annotate("π", (e.n - e.M, e.M / e.Z), textcoords="offset points", xytext=(-12, 4), color=cg)
    if intersection:
        ax.plot([e.k], [e.ms_throughput], "X", color="black", ms=9, alpha=alpha, label=names[2])
    return e


def cs_axis(ax, n, label: str = "threads in CS, x = n − k"):
    """Add the top axis that counts the threads in the computation system, ``x = n − k``."""
    top = ax.secondary_xaxis("top", functions=(lambda k: n - k, lambda x: n - x))
    top.set_xlabel(label)
    return top


def label_axes(ax, title: str, n=None) -> None:
    """Label a transit figure's axes (threads in MS, GB/s per SM) and, given ``n``, add the CS axis on top."""
    plotting.label(ax, "threads in MS, k", "threads/SM", "MS throughput", "GB/s per SM", title=title)
    if n is not None:
        cs_axis(ax, n, "threads in CS, x = n − k (threads/SM)")
