"""Explorer of Perez & Piccoli's performance parameters (live kernel only): pick a GPU
and see its eight parameters, the derived features and the Little's-law reading of them.
"""

from __future__ import annotations

import html

from gpumodels.ground import widgets
from gpumodels.papers.perez_piccoli.model import (
    gpus,
    littles_law,
    measured,
    theoretical_b,
    theoretical_p,
)


def summary_html(gpu: str) -> str:
    """HTML table of one GPU's eight Perez & Piccoli parameters, the derived features
    and Little's law."""
    m = measured(gpu)
    f = m.features()
    ll = littles_law(gpu)
    units = {"cp": "GFLOP/s", "gm": "GB/s"}
    rows = [
        (name, f"{value:.6g}", units[name[:2]]) for name, value in m.values().items()
    ]
    rows += [
        (
            "P (measured / theoretical)",
            f"{f.p:.1f} / {theoretical_p(gpu):.1f}",
            "GFLOP/s",
        ),
        ("B (measured / theoretical)", f"{f.b:.1f} / {theoretical_b(gpu):.1f}", "GB/s"),
        ("||SM||", f"{f.sm_count:.2f}", "SMs"),
        ("N_PPipe (Little's law)", f"{f.n_ppipe:.2f} ({ll['n_ppipe']:g})", "ratio"),
        ("L_Pipe (Little's law)", f"{f.l_pipe:.2f} ({ll['l_pipe']:g})", "warps"),
        ("N_MIN_Bl", f"{f.n_min_bl:.2f}", "blocks"),
        ("W_Memory_Bus", f"{f.w_memory_bus:.2f}", "ratio"),
        (
            "T_Thread_Delay (at most SMs × blocks/SM)",
            f"{f.t_thread_delay:.1f} ({ll['t_thread_delay_max']:g})",
            "ratio",
        ),
    ]
    return (
        f"<b>{html.escape(gpu)}: Perez & Piccoli parameters (measured by the paper's "
        "authors)</b>" + widgets.table_html(rows, ("quantity", "value", "unit"))
    )


def explorer(gpu: str = "GTX470"):
    """Pick one of the paper's GPUs: its eight parameters, derived features and
    Little's-law values."""
    import ipywidgets as W

    pick = W.Dropdown(options=gpus(), value=measured(gpu).gpu, description="GPU")
    out = W.HTML()

    def update(*_):
        out.value = summary_html(pick.value)

    pick.observe(update, names="value")
    update()
    return widgets.explorer_box([pick], out)
