"""Explorer of the prior models of Volkov's chapter 7 (live kernel only) against the
simulated reference."""

from __future__ import annotations

import html

from gpumodels.comparisons import prior
from gpumodels.ground import widgets
from gpumodels.papers import volkov


def summary_html(models, gpu: str, alpha: float) -> str:
    """HTML table: each chosen model's quotient range estimate / simulated reference at
    one α (§7.9)."""

    p = volkov.params(gpu)
    rows = []
    for m in models:
        e = prior.errors(m, p, alphas=(alpha,)).iloc[0]
        rows.append(
            (
                prior.LABELS[m],
                f"{e.q_min:.3f} … {e.q_max:.3f}",
                f"{e.flagged} flagged" if e.flagged else "",
            )
        )
    head = (
        f"<b>{html.escape(p.gpu)} ({html.escape(p.product)}), α = {alpha:g}: "
        "estimate / simulated reference "
        f"at {len(prior.reference.occupancies(p))} occupancies</b>"
    )
    return head + widgets.table_html(
        rows, ("model", "quotient range", "impossible outputs")
    )


def explorer(gpu: str = "Fermi"):
    """Pick models, GPU and α:
    throughput vs occupancy of each model over the simulated reference."""
    import ipywidgets as W

    models = W.SelectMultiple(
        options=[(prior.LABELS[k], k) for k in prior.MODELS],
        value=("sim2012", "volkov_basic"),
        description="models",
        rows=9,
    )
    pick = W.Dropdown(
        options=list(volkov.GENERATIONS),
        value=volkov.params(gpu).gpu,
        description="GPU",
    )
    alpha = W.SelectionSlider(
        options=list(prior.reference.ALPHAS), value=32, description="α (adds/load)"
    )
    return widgets.models_explorer(
        models,
        pick,
        alpha,
        lambda c, g, a: summary_html(list(c), g, a),
        lambda ax, c, g, a: prior.compare.plot_panel(ax, list(c), volkov.params(g), a),
    )
