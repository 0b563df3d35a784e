"""gpumodels: executable analytical GPU performance models.

The package behind the *gpumodels* research book. Each model lives in its own module and
takes a :class:`gpumodels.hardware.GPU` record (built from the sourced tables in ``data/``)
instead of typed-in hardware constants.

Modules
-------
hardware   GPU records and ``get_gpu`` / ``list_gpus`` (tables in ``data/hardware.csv``)
occupancy  GPU-free occupancy calculator for compute capability 1.0-9.0
published  values printed in the papers, for computed-vs-published tables
plotting   the book's figure style (model = lines, measurement = dots, simulation = open marks)
widgets    ipywidgets explorers (optional dependency)
hong_kim   Hong & Kim (2009): the MWP/CWP model, its worked example and benchmarks
volkov     Volkov (2016): latency hiding, bounds and the cusp
prior      earlier occupancy recipes that Volkov evaluates
sim        a cycle-level SM simulator (simulated data only)
memory_wall  the memory-wall dataset of Volkov §4.4, extended
perfparams Perez & Piccoli: the eight performance parameters and derived features
transit    Li et al. (2015): the Transit flow-balance model, machine points, Rodinia workloads
"""

__version__ = "0.1.0"

from . import hardware, occupancy, published  # noqa: F401  (matplotlib loads with the ground module plotting; ipywidgets only when an explorer is built)

__all__ = ["hardware", "occupancy", "published", "__version__"]
