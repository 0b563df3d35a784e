"""Transit (Li et al., HPDC 2015):
a visual flow-balance model of multithreaded machines.

* :mod:`gpumodels.papers.transit.model` -- the model in its own units: supply ``f(k)``,
  demand ``g(x)``, the exact equilibrium, the four bounds and the optimisation
  directions.
* :mod:`gpumodels.papers.transit.machine` -- the machine points δ and π of §3 (Tesla
  C2075, GTX 690) and the book's reading of their units.
* :mod:`gpumodels.papers.transit.workloads` -- Rodinia workloads ``(n, Z)`` with their
  provenance.
* :mod:`gpumodels.papers.transit.figures` -- transit figures (matplotlib).
"""

PAPER = "Li et al. 2015"
"""The paper, as the ``paper`` column of ``data/published/`` names it."""
PART = 5
"""Its part of the book (the scoreboard's order)."""
CHAPTER = "transit_model"
"""The first chapter of its part."""


from gpumodels.papers.transit.machine import (
    PRECISIONS,
    WORD_BYTES,
    Machine,
    fp64_lanes,
    machine,
    machines,
)
from gpumodels.papers.transit.model import (
    BOUNDS,
    DIRECTIONS,
    RTOL,
    Equilibrium,
    demand,
    directions,
    equilibrium,
    latency,
    principles,
    raised,
    supply,
)

__all__ = [
    "BOUNDS",
    "DIRECTIONS",
    "PRECISIONS",
    "RTOL",
    "WORD_BYTES",
    "Equilibrium",
    "Machine",
    "demand",
    "directions",
    "equilibrium",
    "fp64_lanes",
    "latency",
    "machine",
    "machines",
    "principles",
    "raised",
    "supply",
]
