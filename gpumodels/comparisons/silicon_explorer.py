"""Explorer of one profiled launch through every model (live kernel only): the
predictions, the measured time, and what-ifs of clock, bandwidth and occupancy."""

from __future__ import annotations

import numpy as np

from gpumodels.comparisons import silicon
from gpumodels.facts.profile import KernelProfile
from gpumodels.ground import plotting, widgets
from gpumodels.ground.errors import InputTypeError


def summary_html(frame, p: KernelProfile) -> str:
    """HTML table of :func:`gpumodels.comparisons.silicon.what_if`'s rows: model,
    predicted time, ratio to the measured time, bound, or why there is none."""
    rows = []
    for r in frame.itertuples():
        if np.isnan(r.predicted_s):
            rows.append((silicon.MODELS[r.model].label, "no prediction", r.note))
            continue
        ratio = (
            f" ({r.predicted_s / r.measured_s:.2f} × measured)"
            if not np.isnan(r.measured_s)
            else ""
        )
        rows.append(
            (
                silicon.MODELS[r.model].label,
                f"{r.predicted_s * 1e6:#.4g} µs{ratio}",
                f"{r.bound} ({r.note})" if r.note else r.bound,
            )
        )
    measured = (
        f"measured {p.duration_s * 1e6:.4g} µs"
        if p.duration_s is not None
        else "no measured time"
    )
    head = f"<b>{p.kernel} on {frame['gpu'].iloc[0]} ({p.source}): {measured}</b>"
    return head + widgets.table_html(rows, ("model", "predicted", "bound or reason"))


def draw(ax, frame, p: KernelProfile) -> None:
    """Each model's predicted time as a dot (log scale), with the measured time as a
    vertical line."""
    labels = [silicon.MODELS[m].label for m in frame["model"]]
    t = frame["predicted_s"].to_numpy() * 1e6
    y = np.arange(len(labels))
    ax.plot(t, y, "o", color=plotting.PALETTE[0], label="predicted")
    for i, v in enumerate(t):
        if np.isnan(v):
            ax.text(
                0.01,
                i,
                "no prediction",
                va="center",
                transform=ax.get_yaxis_transform(),
            )
    if p.duration_s is not None:
        ax.axvline(p.duration_s * 1e6, color=plotting.PALETTE[3], label="measured")
        ax.legend(loc="lower right")
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("predicted time (µs)")


def explorer(profiles, gpu: str | None = None):
    """Pick a launch of ``profiles`` and move the GPU's SM clock, pin bandwidth and
    resident warps per SM: every model's prediction
    (:func:`gpumodels.comparisons.silicon.what_if`) updates."""
    import ipywidgets as W

    if isinstance(profiles, KernelProfile):
        profiles = [profiles]
    profiles = list(profiles)
    if not profiles or not all(isinstance(p, KernelProfile) for p in profiles):
        raise InputTypeError("profiles must be a non-empty list of KernelProfile")
    names = [
        f"{i}: {p.kernel} ({p.source.rsplit('/', 1)[-1]})"
        for i, p in enumerate(profiles)
    ]
    pick = W.Dropdown(
        options=list(zip(names, range(len(names)), strict=True)), description="launch"
    )
    clock = W.FloatSlider(description="clock (GHz)", min=0.3, max=3.0, step=0.01)
    bw = W.FloatLogSlider(
        description="bandwidth (GB/s)", base=10, min=1.5, max=3.7, step=0.01
    )
    warps = W.IntSlider(description="warps per SM", min=1, max=64)
    state = {"index": None}

    def reset(p):
        x = silicon.inputs(p, gpu)
        clock.value, bw.value, warps.value = (
            x["clock_ghz"],
            x["pin_bandwidth_gbs"],
            int(x["n"]),
        )

    def current():
        p = profiles[pick.value]
        if state["index"] != pick.value:
            state["index"] = pick.value
            reset(p)
        return p, silicon.what_if(
            p,
            gpu,
            clock_ghz=clock.value,
            bandwidth_gbs=bw.value,
            warps_per_sm=warps.value,
        )

    def summary():
        p, f = current()
        return summary_html(f, p)

    def draw_(ax):
        p, f = current()
        draw(ax, f, p)

    return widgets.figure_explorer(
        [pick, clock, bw, warps], summary, draw_, width=6.5, height=3.6
    )
