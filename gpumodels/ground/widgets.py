"""Shared pieces of the interactive explorers (JupyterLab with ipywidgets).

Each explorer lives beside its model: ``hardware.explorer``, ``occupancy.explorer``,
the ``explorer`` modules of ``hong_kim``, ``volkov``, ``perez_piccoli``, ``prior``,
``transit`` and ``huang_li``. Widgets need a live kernel; in the static HTML
book they do not work, so every explorer is built by :func:`explorer_box`: displayed, it
offers a notebook both the live widget and a *static picture* of itself at the settings
it was shown with (its controls and their values, the HTML it shows and, for a plotting
explorer, its figure). JupyterLab shows the widget; the HTML book shows the picture,
with a note that the explorer is interactive in JupyterLab. The HTML each explorer shows
is built by a plain ``summary_html`` function that the tests call.
"""

from __future__ import annotations

import base64
import html
import io
from functools import cache

from gpumodels.ground import plotting


def table_html(rows: list[tuple[str, str, str]], header: tuple[str, str, str]) -> str:
    """An HTML table of ``rows`` under ``header`` (three columns),
    every cell escaped."""
    # headers are a word or two: kept whole when the book's stylesheet lets cells wrap
    # anywhere
    head = "".join(
        f"<th style='text-align:left; overflow-wrap:normal'>{html.escape(h)}</th>"
        for h in header
    )
    body = "".join(
        "<tr>"
        + "".join(f"<td style='text-align:left'>{html.escape(str(c))}</td>" for c in r)
        + "</tr>"
        for r in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


SOLUTION_HEADER = ("try", "change", "what you see")
"""The columns of a chapter's Try-it solutions (:func:`solutions`)."""


class Solutions:
    """A chapter's Try-it solutions:
    an HTML table in a notebook, aligned text elsewhere."""

    def __init__(self, rows: list[tuple[str, str, str]]):
        self.rows = [tuple(str(c) for c in r) for r in rows]

    def _repr_html_(self) -> str:
        return table_html(self.rows, SOLUTION_HEADER)

    def __repr__(self) -> str:
        return "\n".join(" | ".join(r) for r in [SOLUTION_HEADER, *self.rows])


def solutions(rows: list[tuple[str, str, str]]) -> Solutions:
    """A chapter's Try-it solutions as one displayable table: one row per (item number,
    change, what the reader sees) under :data:`SOLUTION_HEADER`."""
    return Solutions(rows)


STATIC_NOTE = (
    "Interactive explorer: a picture of it at its default settings. Run the chapter in "
    "JupyterLab (README: <code>make lab</code>) to move the controls."
)
"""The sentence above an explorer's static picture in the HTML book."""


def control_text(w) -> str:
    """A control's current setting as a reader reads it: the chosen label(s) of a
    selection, else the value."""
    label = getattr(w, "label", None)
    if isinstance(label, tuple):  # SelectMultiple: the chosen labels
        return ", ".join(map(str, label)) or "none"
    value = w.value if label is None else label
    return f"{value:g}" if isinstance(value, float) else str(value)


def static_html(controls, shown: str, png: bytes | None = None) -> str:
    """The static picture of an explorer: :data:`STATIC_NOTE`, a table of ``controls``
    and their settings, the explorer's own HTML ``shown`` and, if given, its figure as a
    PNG."""
    rows = [
        (w.description or type(w).__name__, control_text(w), type(w).__name__)
        for w in controls
    ]
    img = (
        ""
        if png is None
        else '<img alt="the figure of the explorer at these settings"'
        ' style="max-width:100%"'
        f' src="data:image/png;base64,{base64.b64encode(png).decode()}">'
    )
    return (
        "<div class='explorer-static'>"
        f"<p class='explorer-note'><em>{STATIC_NOTE}</em></p>"
        + table_html(rows, ("control", "setting", "kind"))
        + shown
        + img
        + "</div>"
    )


@cache
def _box_class():
    import ipywidgets as W

    class ExplorerBox(W.VBox):
        """A VBox that, displayed, also carries its static picture (``text/html``)."""

        def _repr_mimebundle_(self, **kwargs):
            data = super()._repr_mimebundle_(**kwargs) or {}
            data["text/html"] = self.picture()
            settings = "; ".join(
                f"{w.description} = {control_text(w)}" for w in self.controls
            )
            data["text/plain"] = (
                f"Interactive explorer ({settings}); it needs a live kernel."
            )
            return data

    return ExplorerBox


def explorer_box(
    controls,
    html_out,
    *,
    layout=None,
    plot_out=None,
    draw=None,
    width: float = 6.0,
    height: float = 3.4,
):
    """The widget an explorer returns: ``layout`` (default: ``controls``, one per line),
    the HTML widget ``html_out`` and, for a plotting explorer, the output ``plot_out``
    that ``draw(ax)`` fills. Displayed, it also offers its static picture
    (:func:`static_html`), drawn from the settings at that moment, which the HTML book
    shows in place of the live widget."""
    children = [*(layout or controls), html_out] + (
        [plot_out] if plot_out is not None else []
    )
    box = _box_class()(children)
    box.controls = tuple(controls)

    def picture() -> str:
        png = None
        if draw is not None:
            import matplotlib.pyplot as plt

            fig, ax = plotting.figure(width=width, height=height)
            draw(ax)
            buf = io.BytesIO()
            fig.savefig(
                buf,
                format="png",
                dpi=plt.rcParams["figure.dpi"],
                bbox_inches="tight",
                metadata={"Software": None},
            )
            plt.close(fig)
            png = buf.getvalue()
        return static_html(controls, html_out.value, png)

    box.picture = picture
    return box


def figure_explorer(
    controls, summary, draw, *, layout=None, width: float = 6.0, height: float = 3.4
):
    """Wire an explorer: whenever one of ``controls`` changes, ``summary()`` gives the
    HTML shown above the figure and ``draw(ax)`` draws a fresh figure below it.
    ``summary()`` may return None after adjusting a control itself; the update that
    change triggers then draws. ``layout`` (default: the controls, one per line) is what
    sits above the HTML."""
    import ipywidgets as W
    import matplotlib.pyplot as plt

    html_out, plot_out = W.HTML(), W.Output()

    def update(*_):
        text = summary()
        if text is None:
            return
        html_out.value = text
        with plot_out:
            plot_out.clear_output(wait=True)
            _fig, ax = plotting.figure(width=width, height=height)
            draw(ax)
            plt.show()

    for w in controls:
        w.observe(update, names="value")
    update()
    return explorer_box(
        controls,
        html_out,
        layout=layout,
        plot_out=plot_out,
        draw=draw,
        width=width,
        height=height,
    )


def models_explorer(models, pick, alpha, summary, draw):
    """Wire a models × GPU × α explorer: ``summary(chosen, gpu, alpha)`` gives the HTML
    above the figure, ``draw(ax, chosen, gpu, alpha)`` draws it (the chosen models,
    Volkov basic if none)."""
    import ipywidgets as W

    def chosen():
        return tuple(models.value) or ("volkov_basic",)

    def draw_all(ax):
        draw(ax, chosen(), pick.value, alpha.value)
        ax.legend()

    return figure_explorer(
        [models, pick, alpha],
        lambda: summary(chosen(), pick.value, alpha.value),
        draw_all,
        layout=[W.HBox([models, W.VBox([pick, alpha])])],
        width=6.4,
        height=3.8,
    )
