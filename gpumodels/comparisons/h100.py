"""Volkov's α-workload on an H100: the basic model, a simulated H100-sized SM and the
book's own measurements.

* **model**: :func:`gpumodels.papers.volkov.synthetic.memory_throughput` with the H100's
  public parameters (:func:`gpumodels.facts.modern.params`), the memory limit restated
  for the chase's loads (:func:`chase_params`).
* **simulated**: :func:`gpumodels.engines.sim.simulate` on ``sim.volkov_sm`` of the same
  parameters, at every whole number of warps per SM (:func:`sweep`).
* **measured**: ``data/measured/volkov_h100.csv``, ``bench/volkov_bench.cu`` run on an
  H100 SXM lent to the project (:func:`chase`); each point is drawn at the occupancy the
  warps' timestamps show, not at the planned cap.

The chase loads 8-byte pointers (``bench.BYTES_PER_THREAD_ACCESS``): one warp load moves
256 bytes, where Volkov's IPC ↔ GB/s conversion (``Params.gbs_per_ipc``) counts 128. So
the memory limit in loads per cycle per SM is half the ``mem_thru`` of the parameter
set, while the latency side (warps over latency) is the same; throughputs here are in
**loads per cycle per SM** of the chase.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from gpumodels.comparisons.bench import BYTES_PER_THREAD_ACCESS
from gpumodels.engines import sim
from gpumodels.facts.modern import params as modern_params
from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.facts.params import BYTES_PER_LOAD, Params, check_params
from gpumodels.ground.data import read_frame
from gpumodels.ground.validate import check_int, check_items, to_float
from gpumodels.papers.volkov import synthetic as volkov_model

MEASURED = "measured/volkov_h100.csv"
"""The measured table (one row per launch; see ``data/measured/README.md``)."""

PERIODS = (2, 12)
"""A simulated run is measured between these multiples of a warp's unloaded round trip
(``mem_lat + α·alu_lat``), over whole trips of warp 0."""


def chase_params(p: Params | None = None) -> Params:
    """``p`` (default: the H100's public parameters) with ``mem_thru`` restated for
    loads of ``32 × BYTES_PER_THREAD_ACCESS`` bytes: ``mem_thru × 128 / 256``.

    Only the instruction rates are meant to be read from it: its ``gbs_per_ipc`` (and
    so ``mem_thru_gbs``) still counts 128 bytes per load, half the chase's bytes."""
    p = modern_params("H100") if p is None else check_params(p)
    scale = BYTES_PER_LOAD / (WARP_SIZE * BYTES_PER_THREAD_ACCESS)
    sources = dict(p.sources)
    sources["mem_thru"] = (
        f"{p.sources.get('mem_thru', 'the parameter set')}; restated for "
        f"{WARP_SIZE * BYTES_PER_THREAD_ACCESS}-byte warp loads"
    )
    return replace(p, mem_thru=p.mem_thru * scale, sources=sources)


def chase(alphas=None) -> pd.DataFrame:
    """The measured streaming chase (one load in flight per warp, ILP 1): one row per
    launch with ``alpha``, ``target`` (planned warps/SM), ``occupancy`` (mean attained
    warps/SM), ``loads_per_cycle`` (per SM), ``gbs`` and ``latency`` (cycles per loop
    trip of a warp). ``alphas``: keep only these α (default: all)."""
    d = read_frame(MEASURED)
    d = d[(d["kind"] == "chase") & (d["pattern"] == "stream")]
    d = d[pd.to_numeric(d["ilp"]) == 1]
    out = pd.DataFrame(
        {
            "alpha": pd.to_numeric(d["alpha"]).astype(float),
            "target": pd.to_numeric(d["target_warps_per_sm"]).astype(int),
            "occupancy": pd.to_numeric(d["mean_occupancy"]),
            "loads_per_cycle": pd.to_numeric(d["ipc_per_sm"]),
            "gbs": pd.to_numeric(d["gbs"]),
            "latency": pd.to_numeric(d["latency_per_repeat"]),
        }
    )
    if alphas is not None:
        keep = [
            to_float(a) for a in check_items("alphas", alphas, allow_empty=False)
        ]
        out = out[out["alpha"].isin(keep)]
    return out.sort_values(["alpha", "target"]).reset_index(drop=True)


def simulate(p: Params, n: int, alpha: int) -> float:
    """Simulated loads per cycle per SM of the α-workload with ``n`` warps on
    ``sim.volkov_sm(p)`` (deterministic; measured over whole trips of warp 0 between
    :data:`PERIODS` round trips)."""
    p = check_params(p)
    n = check_int("n", n, 1, p.max_warps_per_sm, context=p.gpu)
    alpha = check_int("alpha", alpha, 0, sim.MAX_ALPHA)
    trip = p.mem_lat + alpha * p.alu_lat
    start, stop = (int(k * trip) for k in PERIODS)
    tr = sim.simulate(sim.volkov_sm(p), sim.alpha_program(alpha), n, cycles=stop)
    return tr.trip_throughput(alpha + 1, start, stop, unit="mem")[0]


def sweep(alphas=(0, 16, 128), p: Params | None = None) -> pd.DataFrame:
    """The simulated SM and the basic model at every whole number of warps per SM
    (1 to the GPU's maximum) for each α: columns ``alpha``, ``n``, ``simulated`` and
    ``model`` (loads per cycle per SM; ``p`` default :func:`chase_params`)."""
    p = chase_params() if p is None else check_params(p)
    rows = []
    ns = np.arange(1, p.max_warps_per_sm + 1)
    for a in check_items("alphas", alphas, allow_empty=False):
        a = check_int("alpha", a, 0, sim.MAX_ALPHA)
        model = np.asarray(volkov_model.memory_throughput(p, ns, float(a)))
        for n, m in zip(ns, model):
            rows.append(
                {
                    "alpha": float(a),
                    "n": int(n),
                    "simulated": simulate(p, int(n), a),
                    "model": float(m),
                }
            )
    return pd.DataFrame(rows)


def parameters(p: Params | None = None) -> pd.DataFrame:
    """The H100's public parameters beside what the book measured: DRAM latency (chase
    at the lowest occupancy, α = 0), FP32 add latency (the dependent-add chain at 4
    warps/SM) and read bandwidth (the α = 0 chase at 64 warps/SM, and the best ILP
    chase). Columns ``quantity``, ``unit``, ``public``, ``measured``, ``ratio``."""
    p = modern_params("H100") if p is None else check_params(p)
    d = read_frame(MEASURED)
    num = {c: pd.to_numeric(d[c], errors="coerce") for c in d.columns}
    chase_ = (d["kind"] == "chase") & (d["pattern"] == "stream")
    a0 = chase_ & (num["alpha"] == 0)
    low = a0 & (num["ilp"] == 1)
    target = num["target_warps_per_sm"]
    lat = float(num["latency_per_repeat"][target[low].idxmin()])
    add = (d["kind"] == "add") & (num["ilp"] == 1)
    add_lat = float(num["latency_per_repeat"][target[add].idxmin()])
    top = float(num["gbs"][target[low].idxmax()])
    best = float(num["gbs"][a0].max())
    rows = [
        ("DRAM latency, α = 0 chase at 4 warps/SM", "cycles", p.mem_lat, lat),
        ("FP32 add latency, dependent chain", "cycles", p.alu_lat, add_lat),
        ("read bandwidth, α = 0 chase at 64 warps/SM", "GB/s", p.mem_thru_gbs, top),
        ("read bandwidth, best chase (ILP up to 8)", "GB/s", p.mem_thru_gbs, best),
    ]
    out = pd.DataFrame(rows, columns=["quantity", "unit", "public", "measured"])
    out["ratio"] = out["measured"] / out["public"]
    return out
