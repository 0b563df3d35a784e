"""Shared pieces of the interactive explorers (JupyterLab with ipywidgets).

Each explorer lives beside its model: ``hardware.explorer``, ``occupancy.explorer``,
``perfparams.explorer`` and the ``explorer`` modules of ``hong_kim``, ``volkov``, ``prior``,
``transit`` and ``huang_li``. Widgets need a live kernel; in the static HTML book they do not
work, so every explorer sits next to a static figure or table that tells the same story. The
HTML each explorer shows is built by a plain ``summary_html`` function that the tests call.
"""

from __future__ import annotations

import html


def table_html(rows: list[tuple[str, str, str]], header: tuple[str, str, str]) -> str:
    """An HTML table of ``rows`` under ``header`` (three columns), every cell escaped."""
    head = "".join(f"<th style='text-align:left'>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td style='text-align:left'>{html.escape(str(c))}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def figure_explorer(controls, summary, draw, *, layout=None, width: float = 6.0, height: float = 3.4):
    """Wire an explorer: whenever one of ``controls`` changes, ``summary()`` gives the HTML shown
    above the figure and ``draw(ax)`` draws a fresh figure below it. ``summary()`` may return
    None after adjusting a control itself; the update that change triggers then draws.
    ``layout`` (default: the controls, one per line) is what sits above the HTML."""
    import ipywidgets as W
    import matplotlib.pyplot as plt

    from . import plotting

    html_out, plot_out = W.HTML(), W.Output()

    def update(*_):
        text = summary()
        if text is None:
            return
        html_out.value = text
        with plot_out:
            plot_out.clear_output(wait=True)
            fig, ax = plotting.figure(width=width, height=height)
            draw(ax)
            plt.show()

    for w in controls:
        w.observe(update, names="value")
    update()
    return W.VBox([*(layout or controls), html_out, plot_out])


def models_explorer(models, pick, alpha, summary, draw):
    """Wire a models × GPU × α explorer: ``summary(chosen, gpu, alpha)`` gives the HTML above the
    figure, ``draw(ax, chosen, gpu, alpha)`` draws it (the chosen models, Volkov basic if none)."""
    import ipywidgets as W

    def chosen():
        return tuple(models.value) or ("volkov_basic",)

    def draw_all(ax):
        draw(ax, chosen(), pick.value, alpha.value)
        ax.legend(fontsize=7)

    return figure_explorer([models, pick, alpha], lambda: summary(chosen(), pick.value, alpha.value), draw_all,
                           layout=[W.HBox([models, W.VBox([pick, alpha])])], width=6.4, height=3.8)
