"""Huang & Li (CLUSTER 2017): performance modelling for data placement on GPU memories.

T = T_comp + T_mem − T_overlap (their Eq. 1), predicted for a *target* placement of a
kernel's arrays among global (G), 1D/2D texture (T, 2T), constant (C) and shared (S)
memory from the profile of a *sample* placement. Modules:

queueing    Kingman's G/G/1 (both forms), M/M/1, M/D/1, Pollaczek–Khinchine, Eqs. 6–10
cache       set-associative LRU caches (texture, constant, L2)
analysis    the K80 machine and the trace analysis (requests, caches, banks, queues)
model       Eqs. 1–5 and 11–19, Sim et al. 2012's general model, variants, ``predict``
events      §II-B's cosine-similarity event selection and Table I
fig2        §III-B's addressing instructions counted from Fig. 2's SASS listings
book        the chapter's tables
evaluation  Figs. 5–9: the model end to end against the simulated reference (data only)
explorer    the chapter's explorer
printed     the producer of the printed values the book re-derives

The kernels, their address traces, the placements, the DRAM and the simulated reference
GPU are the engine :mod:`gpumodels.engines.refsim`, shared with nothing of the model;
this package re-exports ``kernels``, ``trace``, ``placements`` and ``dram`` for the
chapters.

Not to be confused with :mod:`gpumodels.comparisons.prior.huang_2014`, GPUMech by J.-C.
Huang et al. (2014).
"""

PAPER = "Huang & Li 2017"
"""The paper, as the ``paper`` column of ``data/published/`` names it."""
PART = 3
"""Its part of the book (the scoreboard's order)."""
CHAPTER = "huang_li_model"
"""The first chapter of its part."""


from gpumodels.engines.refsim import dram, kernels, placements, trace
from gpumodels.papers.huang_li import (
    analysis,
    cache,
    evaluation,
    events,
    fig2,
    model,
    queueing,
)
from gpumodels.papers.huang_li.analysis import Machine, analyze, k80
from gpumodels.papers.huang_li.model import VARIANTS, OverlapModel, predict, profile

__all__ = [
    "VARIANTS",
    "Machine",
    "OverlapModel",
    "analysis",
    "analyze",
    "cache",
    "dram",
    "evaluation",
    "events",
    "fig2",
    "k80",
    "kernels",
    "model",
    "placements",
    "predict",
    "profile",
    "queueing",
    "trace",
]
