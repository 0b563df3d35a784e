"""One look for every figure in the book.

The encoding is fixed so that a reader can tell at a glance what a mark is:

* **model** -- solid lines (:func:`model`);
* **measurement** -- filled dots (:func:`measured`), on real hardware, named in the caption;
* **simulation** -- open circles (:func:`simulated`), output of ``gpumodels.sim`` or similar;
* **published** -- open diamonds (:func:`published`), numbers printed in a paper.

Every axis carries a unit: :func:`label` refuses an empty one. Colours come from the
Okabe-Ito palette (readable with colour-vision deficiencies); :func:`generation_color` gives
each GPU generation the same colour in every chapter.
"""

from __future__ import annotations

import matplotlib as mpl
from .errors import UnknownNameError

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
"""Okabe-Ito colours (blue, orange, green, vermillion, purple, sky blue, yellow, black)."""

GENERATIONS = ("G80", "GT200", "Fermi", "Kepler", "Maxwell", "Pascal", "Volta", "Turing", "Ampere", "Ada", "Hopper")

_GEN_COLORS = dict(zip(GENERATIONS, ("#000000", "#999999", "#E69F00", "#0072B2", "#009E73", "#56B4E9",
                                     "#D55E00", "#F0E442", "#CC79A7", "#882255", "#332288")))

RC = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 10,
    "axes.titlesize": 10,
    "axes.labelsize": 10,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
    "legend.frameon": False,
    "legend.fontsize": 9,
    "lines.linewidth": 1.8,
    "svg.hashsalt": "gpumodels",   # deterministic SVG ids
}


def use_style() -> None:
    """Apply the book's matplotlib settings (idempotent)."""
    mpl.rcParams.update(RC)


def figure(nrows: int = 1, ncols: int = 1, *, width: float | None = None, height: float | None = None,
           sharex: bool = False, sharey: bool = False, squeeze: bool = True):
    """A new figure in the book's style; returns ``(fig, axes)`` like ``plt.subplots``."""
    import matplotlib.pyplot as plt

    from ._validate import check_int, check_real

    nrows = check_int("nrows", nrows, 1, 12)
    ncols = check_int("ncols", ncols, 1, 12)
    use_style()
    w = check_real("width", width, 1.0, 30.0) if width is not None else 3.2 * ncols if ncols > 1 else 6.4
    h = check_real("height", height, 1.0, 30.0) if height is not None else 2.8 * nrows if nrows > 1 else 4.0
    return plt.subplots(nrows, ncols, figsize=(w, h), sharex=sharex, sharey=sharey, squeeze=squeeze,
                        constrained_layout=True)


def generation_color(generation: str) -> str:
    """The colour of a GPU generation (``"Kepler"`` -> blue); unknown names raise ``ValueError``."""
    if generation not in _GEN_COLORS:
        raise UnknownNameError(f"generation must be one of {', '.join(GENERATIONS)}, got {generation!r}")
    return _GEN_COLORS[generation]


def label(ax, xlabel: str, xunit: str, ylabel: str, yunit: str, title: str | None = None) -> None:
    """Label both axes as "quantity (unit)". Units are required; use e.g. "fraction" or "ratio" for pure numbers."""
    for name, text in (("xlabel", xlabel), ("xunit", xunit), ("ylabel", ylabel), ("yunit", yunit)):
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"{name} must be a non-empty string (every axis carries a unit), got {text!r}")
    ax.set_xlabel(f"{xlabel} ({xunit})")
    ax.set_ylabel(f"{ylabel} ({yunit})")
    if title:
        ax.set_title(title)


ENCODINGS = {
    "model": dict(linestyle="-"),
    "measured": dict(linestyle="none", marker="o", markersize=5),
    "simulated": dict(linestyle="none", marker="o", markersize=6, markerfacecolor="none"),
    "published": dict(linestyle="none", marker="D", markersize=6, markerfacecolor="none"),
}
"""Line and marker settings of each kind of data; keyword arguments of the plot functions override them."""


def _plot(kind: str, ax, x, y, label, kw):
    return ax.plot(x, y, label=label, **{**ENCODINGS[kind], **kw})


def model(ax, x, y, label: str | None = None, **kw):
    """Plot model output as a solid line."""
    return _plot("model", ax, x, y, label, kw)


def measured(ax, x, y, label: str | None = None, **kw):
    """Plot measurements as filled dots."""
    return _plot("measured", ax, x, y, label, kw)


def simulated(ax, x, y, label: str | None = None, **kw):
    """Plot simulator output as open circles."""
    return _plot("simulated", ax, x, y, label, kw)


def published(ax, x, y, label: str | None = None, **kw):
    """Plot numbers printed in a paper as open diamonds."""
    return _plot("published", ax, x, y, label, kw)


def timeline(ax, trace, units: dict[str, str] | None = None, height: float = 0.8, legend: str = "best") -> None:
    """Draw a simulated :class:`gpumodels.sim.Trace` as one row of bars per warp (open bars: simulated).

    Each issued op is a bar from its issue to its ready cycle, coloured by unit
    (``units`` maps unit names to colours; default: the palette in order of appearance).
    Warp 1 is the top row; ``legend`` is the legend's matplotlib location.
    """
    import numpy as np
    from matplotlib.patches import Patch

    names = list(dict.fromkeys(trace.unit.tolist()))
    colors = units or {u: PALETTE[i % len(PALETTE)] for i, u in enumerate(names)}
    missing = set(names) - set(colors)
    if missing:
        raise ValueError(f"units must give a colour for every unit in the trace, missing {sorted(missing)}")
    warps = np.unique(trace.warp)
    for u in names:
        sel = trace.unit == u
        for w in warps:
            bars = [(float(i), float(r - i)) for i, r in zip(trace.issue[sel & (trace.warp == w)],
                                                            trace.ready[sel & (trace.warp == w)])]
            ax.broken_barh(bars, (-w - height / 2, height), facecolors=colors[u], edgecolors="black",
                           linewidth=0.5, alpha=0.85)
    ax.set_yticks(-warps, [str(w + 1) for w in warps])
    ax.grid(False, axis="y")
    ax.legend(handles=[Patch(facecolor=colors[u], edgecolor="black", label=u) for u in names],
              loc=legend, fontsize=8)
