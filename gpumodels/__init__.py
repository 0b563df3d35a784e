"""gpumodels: executable analytical GPU performance models.

The package behind the *gpumodels* research book, in layers that import only downward
(``make test`` checks this with import-linter; see the book's appendix *Architecture*):

1. :mod:`gpumodels.ground` — errors, argument checks, data tables and schemas, plotting,
   widgets;
2. :mod:`gpumodels.facts` — hardware records, occupancy, the ``Params`` record and
   parameter sets, the printed values of the papers;
3. :mod:`gpumodels.engines` — the cycle simulator, the Huang & Li reference simulator
   and the MWP–CWP equations that several papers build on;
4. :mod:`gpumodels.papers` — one subpackage per paper, none importing another;
5. :mod:`gpumodels.comparisons` — models side by side: the prior models as Volkov
   evaluates them, every model on modern GPUs, the microbenchmark driver;
6. :mod:`gpumodels.scoreboard` — every printed value computed and compared.

Models take a :class:`gpumodels.facts.hardware.GPU` record (built from the sourced
tables in ``data/``) instead of typed-in hardware constants. For the chapters, the most
used modules are also reachable by a short name, loaded on first use: ``from gpumodels
import volkov, hardware``.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

SHORT_NAMES = {
    "errors": "gpumodels.ground.errors",
    "plotting": "gpumodels.ground.plotting",
    "tables": "gpumodels.ground.tables",
    "widgets": "gpumodels.ground.widgets",
    "hardware": "gpumodels.facts.hardware",
    "occupancy": "gpumodels.facts.occupancy",
    "published": "gpumodels.facts.published",
    "params": "gpumodels.facts.param_sets",
    "sim": "gpumodels.engines.sim",
    "refsim": "gpumodels.engines.refsim.simulator",
    "hong_kim": "gpumodels.papers.hong_kim",
    "volkov": "gpumodels.papers.volkov",
    "memory_wall": "gpumodels.papers.volkov.memory_wall",
    "huang_li": "gpumodels.papers.huang_li",
    "perfparams": "gpumodels.papers.perez_piccoli.model",
    "transit": "gpumodels.papers.transit",
    "prior": "gpumodels.comparisons.prior",
    "modern": "gpumodels.comparisons.modern",
    "bench": "gpumodels.comparisons.bench",
    "scoreboard": "gpumodels.scoreboard",
}
"""Short name -> the module it stands for (``gpumodels.volkov`` is
``gpumodels.papers.volkov``)."""


def __getattr__(name: str):
    """Load a module of :data:`SHORT_NAMES` on first use (PEP 562), so that ``import
    gpumodels`` stays light."""
    if name in SHORT_NAMES:
        module = importlib.import_module(SHORT_NAMES[name])  # short name, PEP 562
        globals()[name] = module
        return module
    raise AttributeError(
        f"module 'gpumodels' has no attribute {name!r}; short names: "
        f"{', '.join(SHORT_NAMES)}"
    )


def __dir__() -> list[str]:
    return sorted([*globals(), *SHORT_NAMES])


__all__ = ["SHORT_NAMES", "__version__"]
