"""Transit (Li et al., HPDC 2015): a visual flow-balance model of multithreaded machines.

* :mod:`gpumodels.transit.model` -- the model in its own units: supply ``f(k)``, demand
  ``g(x)``, the exact equilibrium, the four bounds and the optimisation directions.
* :mod:`gpumodels.transit.machine` -- the machine points δ and π of §3 (Tesla C2075,
  GTX 690) and the book's reading of their units.
* :mod:`gpumodels.transit.workloads` -- Rodinia workloads ``(n, Z)`` with their provenance.
* :mod:`gpumodels.transit.figure` -- transit figures (matplotlib).
"""

from .machine import PRECISIONS, WORD_BYTES, Machine, fp64_lanes, machine, machines
from .model import (BOUNDS, DIRECTIONS, RTOL, Equilibrium, demand, directions, equilibrium, latency, principles,
                    raised, supply)

__all__ = ["BOUNDS", "DIRECTIONS", "PRECISIONS", "RTOL", "WORD_BYTES", "Equilibrium", "Machine", "demand",
           "directions", "equilibrium", "fp64_lanes", "latency", "machine", "machines", "principles", "raised", "supply"]
