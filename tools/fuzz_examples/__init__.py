"""Example arguments for :mod:`tools.fuzz_api`: one valid call per public callable
that the harness's registry of values by parameter name cannot build.

Each group module holds ``BASELINES``, a dict from a callable's dotted name to a
function returning its keyword arguments (every parameter without a default, and any
other the call needs); the harness then replaces one argument at a time by each
hostile value. A callable not listed here is called with values by parameter name.

``NO_BASELINE`` names the callables that get no valid call, with the reason;
``tests/test_fuzz_api.py`` requires the harness's list of callables without a baseline
to be exactly these.
"""

from __future__ import annotations

import importlib

GROUPS = ("comparisons", "engines", "facts_ground", "papers_misc", "huang_li")

BASELINES = {}
NO_BASELINE: dict[str, str] = {}
WARM_UP: list = []
"""Calls each worker makes before fuzzing, untimed: they compile the numba functions
(a fresh clone has no compiled cache), which no timed call could interrupt."""
for _group in GROUPS:
    try:
        _module = importlib.import_module(f"fuzz_examples.{_group}")
    except ModuleNotFoundError as _e:
        if _e.name != f"fuzz_examples.{_group}":
            raise
        continue
    BASELINES.update(_module.BASELINES)
    NO_BASELINE.update(getattr(_module, "NO_BASELINE", {}))
    WARM_UP.extend(getattr(_module, "WARM_UP", []))
