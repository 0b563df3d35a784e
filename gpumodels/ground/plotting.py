"""One look for every figure in the book.

The encoding is fixed so that a reader can tell at a glance what a mark is:

* **model** -- lines (:func:`model`): solid, or the next line style of the cycle when
  several models share an axis, so that they stay apart in greyscale;
* **measurement** -- filled dots (:func:`measured`), on real hardware, named in the
  caption;
* **simulation** -- open circles (:func:`simulated`), output of
  ``gpumodels.engines.sim`` or similar;
* **published** -- open diamonds (:func:`published`), numbers printed in a paper.

Every axis carries a unit: :func:`label` refuses an empty one (an axis of named
categories says so with :data:`CATEGORICAL`). Colours come from the Okabe-Ito palette
(readable with colour-vision deficiencies), each paired with its own line style;
:func:`generation_color` gives each GPU generation the same colour in every chapter.

**Size.** The book's content column shows a figure at most :data:`COLUMN_PX` pixels wide
(Chromium, 1280 × 900 window). Figures are drawn at :data:`DPI` dots per inch and at
most :data:`MAX_WIDTH` inches wide, so a figure is shown at no less than
:data:`MIN_SHOWN` of its natural size and its smallest text, :data:`MIN_FONT_PT` points,
is at least 8 screen pixels tall. :func:`figure` caps a wider request at
:data:`MAX_WIDTH` and refuses more than :data:`MAX_COLS` panels in a row.
"""

from __future__ import annotations

import re

import matplotlib as mpl
import numpy as np

from gpumodels.ground.errors import UnknownNameError
from gpumodels.ground.validate import check_int, check_real

PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#F0E442",
    "#000000",
)
"""Okabe-Ito colours
(blue, orange, green, vermillion, purple, sky blue, yellow, black)."""

LINESTYLES = (
    "-",
    "--",
    "-.",
    ":",
    (0, (6, 1.5)),
    (0, (3, 1, 1, 1, 1, 1)),
    (0, (1, 1)),
    (0, (8, 2, 1, 2)),
)
"""The line style paired with each colour of :data:`PALETTE` in the style cycle (solid,
dashed, dash-dot, dotted, then four denser patterns), so that lines differ in greyscale
too."""

GENERATIONS = (
    "G80",
    "GT200",
    "Fermi",
    "Kepler",
    "Maxwell",
    "Pascal",
    "Volta",
    "Turing",
    "Ampere",
    "Ada",
    "Hopper",
)

_GEN_COLORS = dict(
    zip(
        GENERATIONS,
        (
            "#000000",
            "#999999",
            "#E69F00",
            "#0072B2",
            "#009E73",
            "#56B4E9",
            "#D55E00",
            "#F0E442",
            "#CC79A7",
            "#882255",
            "#332288",
        ),
    )
)

DPI = 150
"""Dots per inch of every figure, inline (``figure.dpi``) and saved
(``savefig.dpi``)."""

MIN_FONT_PT = 8
"""The smallest font size, in points, of any text in a figure."""

COLUMN_PX = 672
"""Width in CSS pixels that the book's content column gives a figure (measured on a
chapter page of the built book in Chromium at 1280 × 900: ``article.bd-article`` is 752
px, 688 px inside its padding, and an output image is shown at most 672 px wide)."""

MIN_SHOWN = 0.6
"""The smallest fraction of its natural size at which the column may show a figure."""

MAX_WIDTH = 7.0
"""The widest figure in inches. At 150 dpi, 7.0 in is 1050 px natural, shown at 672/1050
= 64 % in the column (≥ :data:`MIN_SHOWN`), where 8-pt text is 8/72 × 672/7.0 ≈ 10.7 px
tall (≥ 8 px)."""

MAX_COLS = 3
"""The most panels in one row of a figure;
more panels go into further rows or figures."""

CATEGORICAL = "categorical"
"""Pass as a unit to :func:`label` for an axis of named categories (GPUs, models,
benchmarks): the axis is labelled with the quantity alone, since its tick labels name
the categories."""

RC = {
    "figure.figsize": (6.4, 4.0),
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "figure.titlesize": 10,
    "figure.labelsize": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": mpl.cycler(color=PALETTE) + mpl.cycler(linestyle=LINESTYLES),
    "legend.frameon": False,
    "legend.fontsize": 8,
    "legend.title_fontsize": 8,
    "lines.linewidth": 1.8,
    "svg.hashsalt": "gpumodels",  # deterministic SVG ids
}
"""The book's matplotlib settings (:func:`use_style`); no font in them is below
:data:`MIN_FONT_PT`."""


def use_style() -> None:
    """Apply the book's matplotlib settings (idempotent)."""
    mpl.rcParams.update(RC)


def figure(
    nrows: int = 1,
    ncols: int = 1,
    *,
    width: float | None = None,
    height: float | None = None,
    sharex: bool = False,
    sharey: bool = False,
    squeeze: bool = True,
):
    """A new figure in the book's style; returns ``(fig, axes)`` like ``plt.subplots``.

    ``ncols`` is at most :data:`MAX_COLS` (more raise ``ValueError``: use more rows, or
    several figures). ``width`` (inches) defaults to 6.4 for one column and to
    :data:`MAX_WIDTH` for several; a wider request is capped at :data:`MAX_WIDTH`, the
    widest figure the book's column shows legibly (the height is kept). ``height``
    defaults to 4.0 for one row and 2.6 per row for several.
    """
    import matplotlib.pyplot as plt

    nrows = check_int("nrows", nrows, 1, 12)
    ncols = check_int("ncols", ncols, 1, 12)
    if ncols > MAX_COLS:
        raise ValueError(
            f"ncols must be an integer in [1, {MAX_COLS}] (a row of more panels is "
            f"too small to read in the book's column: use more rows or several "
            f"figures), got {ncols}"
        )
    use_style()
    w = (
        check_real("width", width, 1.0, 30.0)
        if width is not None
        else MAX_WIDTH
        if ncols > 1
        else 6.4
    )
    h = (
        check_real("height", height, 1.0, 30.0)
        if height is not None
        else 2.6 * nrows
        if nrows > 1
        else 4.0
    )
    return plt.subplots(
        nrows,
        ncols,
        figsize=(min(w, MAX_WIDTH), h),
        sharex=sharex,
        sharey=sharey,
        squeeze=squeeze,
        constrained_layout=True,
    )


def merge_row(axes, row: int):
    """Replace the panels of row ``row`` of a :func:`figure` grid (``squeeze=False`` or
    a 2-D ``axes``) by one panel as wide as the figure, and return it: a wide panel
    under a row of small ones, without more than :data:`MAX_COLS` panels in any row."""

    axes = np.asarray(axes)
    if axes.ndim != 2:
        raise ValueError(
            f"axes must be a 2-D grid of panels, got {axes.ndim} dimension(s)"
        )
    if not 0 <= row < axes.shape[0]:
        raise ValueError(f"row must be in [0, {axes.shape[0] - 1}], got {row}")
    grid = axes[row, 0].get_subplotspec().get_gridspec()
    fig = axes[row, 0].figure
    for ax in axes[row]:
        ax.remove()
    return fig.add_subplot(grid[row, :])


def smallest_font(fig) -> float:
    """The smallest font size, in points, of the visible, non-empty text of ``fig``
    (titles, labels, tick labels, legends, annotations); ``inf`` for a figure without
    text."""
    from matplotlib.text import Text

    sizes = [
        t.get_fontsize()
        for t in fig.findobj(Text)
        if t.get_visible() and t.get_text().strip()
    ]
    return min(sizes, default=float("inf"))


def generation_color(generation: str) -> str:
    """The colour of a GPU generation (``"Kepler"`` -> blue);
    unknown names raise ``ValueError``."""
    if not isinstance(generation, str) or generation not in _GEN_COLORS:
        raise UnknownNameError(
            f"generation must be one of {', '.join(GENERATIONS)}, got {generation!r}"
        )
    return _GEN_COLORS[generation]


FIGURE_NUMBER = re.compile(r"\b(fig(ure)?s?)\b\.?\s*\d", re.IGNORECASE)
"""Matches a figure number in text, such as "Fig. 4.5", "Figs. 7-10" or "figure 3".
Titles carry none, since the book numbers its figures in the captions and a paper's
figure is named there."""


def label(
    ax, xlabel: str, xunit: str, ylabel: str, yunit: str, title: str | None = None
) -> None:
    """Label both axes as "quantity (unit)".

    Units are required; use e.g. "fraction" or "ratio" for pure numbers, and
    :data:`CATEGORICAL` for an axis of named categories (then the label is the quantity
    alone). A ``title`` may not carry a figure number (:data:`FIGURE_NUMBER`): the
    caption does.
    """
    for name, text in (
        ("xlabel", xlabel),
        ("xunit", xunit),
        ("ylabel", ylabel),
        ("yunit", yunit),
    ):
        if not isinstance(text, str) or not text.strip():
            raise ValueError(
                f"{name} must be a non-empty string (every axis carries a unit), got "
                f"{text!r}"
            )
    if title and FIGURE_NUMBER.search(title):
        raise ValueError(
            f"title must not carry a figure number (the caption numbers the figure), "
            f"got {title!r}"
        )
    ax.set_xlabel(xlabel if xunit == CATEGORICAL else f"{xlabel} ({xunit})")
    ax.set_ylabel(ylabel if yunit == CATEGORICAL else f"{ylabel} ({yunit})")
    if title:
        ax.set_title(title)


ENCODINGS = {
    "model": {},
    "measured": {"linestyle": "none", "marker": "o", "markersize": 5},
    "simulated": {
        "linestyle": "none",
        "marker": "o",
        "markersize": 6,
        "markerfacecolor": "none",
    },
    "published": {
        "linestyle": "none",
        "marker": "D",
        "markersize": 6,
        "markerfacecolor": "none",
    },
}
"""Line and marker settings of each kind of data; keyword arguments of the plot
functions override them."""


def _plot(kind: str, ax, x, y, label, kw):
    return ax.plot(x, y, label=label, **{**ENCODINGS[kind], **kw})


def model(ax, x, y, label: str | None = None, **kw):
    """Plot model output as a line (the style cycle's next line style unless
    ``linestyle`` is given)."""
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


def timeline(
    ax,
    trace,
    units: dict[str, str] | None = None,
    height: float = 0.8,
    legend: str | None = "best",
) -> None:
    """Draw a simulated :class:`gpumodels.engines.sim.Trace` as one row of bars per warp
    (open bars: simulated).

    Each issued op is a bar from its issue to its ready cycle, coloured by unit
    (``units`` maps unit names to colours; default: the palette in order of appearance).
    Warp 1 is the top row; ``legend`` is the legend's matplotlib location, or ``None``
    for no legend (the bars of each unit carry the unit's name as their label, so a
    figure-level legend can collect them).
    """

    names = list(dict.fromkeys(trace.unit.tolist()))
    colors = units or {u: PALETTE[i % len(PALETTE)] for i, u in enumerate(names)}
    missing = set(names) - set(colors)
    if missing:
        raise ValueError(
            "units must give a colour for every unit in the trace, missing "
            f"{sorted(missing)}"
        )
    warps = np.unique(trace.warp)
    for u in names:
        sel = trace.unit == u
        for k, w in enumerate(warps):
            bars = [
                (float(i), float(r - i))
                for i, r in zip(
                    trace.issue[sel & (trace.warp == w)],
                    trace.ready[sel & (trace.warp == w)],
                )
            ]
            ax.broken_barh(
                bars,
                (-w - height / 2, height),
                facecolors=colors[u],
                edgecolors="black",
                linewidth=0.5,
                alpha=0.85,
                label=u if k == 0 else None,
            )
    ax.set_yticks(-warps, [str(w + 1) for w in warps])
    ax.grid(False, axis="y")
    if legend is not None:
        ax.legend(loc=legend)
