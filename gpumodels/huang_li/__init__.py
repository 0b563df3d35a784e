"""Huang & Li (CLUSTER 2017): performance modelling for data placement on a GPU's memories.

T = T_comp + T_mem − T_overlap (their Eq. 1), predicted for a *target* placement of a kernel's
arrays among global (G), 1D/2D texture (T, 2T), constant (C) and shared (S) memory from the
profile of a *sample* placement. Modules:

queueing    Kingman's G/G/1 (standard and as printed), M/M/1, M/D/1, Pollaczek–Khinchine, Lindley, Eqs. 6–10
trace       addressing-mode counts and replay rules (1)–(4) of §III-B
cache       set-associative LRU caches (texture, constant, L2)
dram        address maps, row-buffer state, Algorithm 1 and a simulated K80 DRAM oracle
kernels     synthetic kernels of Table IV, Fig. 2 and Table I, traced under any legal placement
analysis    the K80 machine and the trace analysis (requests, caches, banks, queues)
model       Eqs. 1–5 and 11–19, Sim et al. 2012's general model, the variants and ``predict``
placements  Table IV's placement tests as data
events      §II-B's cosine-similarity event selection and Table I
book        the chapter's tables
evaluation  Figs. 5–9: the model end to end against the cached simulated reference (data only)
refsim      the simulated reference GPU (ground truth); imported on its own, never by the model

Not to be confused with :mod:`gpumodels.prior.huang_2014`, GPUMech by J.-C. Huang et al. (2014).
"""

from . import analysis, cache, dram, evaluation, events, kernels, model, placements, queueing, trace  # noqa: F401
from .analysis import Machine, analyze, k80
from .model import VARIANTS, OverlapModel, predict, profile

__all__ = ["analysis", "cache", "dram", "evaluation", "events", "kernels", "model", "placements", "queueing", "trace",
           "Machine", "analyze", "k80", "VARIANTS", "OverlapModel", "predict", "profile"]
