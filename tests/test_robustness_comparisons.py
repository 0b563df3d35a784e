"""Hostile inputs to the comparison modules and the scoreboard (issue 38, round 2):
each refused with the package's own error naming the argument."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from gpumodels import scoreboard
from gpumodels.comparisons import modern, silicon, sweeps
from gpumodels.comparisons.prior import compare, estimate, reference
from gpumodels.comparisons.prior.huang_2014 import huang2014_bandwidth_delay
from gpumodels.comparisons.prior.zhang_owens_2011 import zhang_owens2011
from gpumodels.facts.param_sets import params
from gpumodels.ground.errors import (
    InputTypeError,
    OutOfRangeError,
    OutsideDomainError,
    UnknownNameError,
)

KEPLER = params("Kepler")


def _raises(kind, name, fn, *args, **kwargs):
    with pytest.raises(kind) as e:
        fn(*args, **kwargs)
    assert name in str(e.value), str(e.value)


@pytest.mark.parametrize("bad", [None, 3, 1.5, True])
def test_compare_lists_of_names(bad):
    if bad is not None:  # None: every model (the default)
        _raises(InputTypeError, "models", compare.summary, bad)
    _raises(InputTypeError, "gpus", compare.summary, ["sim2012"], bad)
    _raises(InputTypeError, "alphas", compare.summary, ["sim2012"], ["Kepler"], bad)
    _raises(InputTypeError, "alphas", compare.errors, "sim2012", KEPLER, bad)
    _raises(InputTypeError, "models", compare.curves, bad, KEPLER, 32)
    _raises(InputTypeError, "models", compare.plot_pair, bad, KEPLER, 32, "t")


def test_compare_unknown_and_bad_values():
    _raises(UnknownNameError, "model", compare.evaluate, ["x"], KEPLER, 8, 1)
    _raises(UnknownNameError, "model", compare.errors, {}, KEPLER)
    _raises(UnknownNameError, "models", compare.summary, ["nope"])
    _raises(ValueError, "alphas", compare.summary, ["sim2012"], ["Kepler"], [-1])
    _raises(ValueError, "models", compare.curves, [], KEPLER, 32)
    _raises(InputTypeError, "alpha", compare.curves, ["sim2012"], KEPLER, "abc")
    _raises(ValueError, "n", compare.curves, ["sim2012"], KEPLER, 32, n=[0.0])
    _raises(InputTypeError, "alpha", compare.plot_pair, ["sim2012"], KEPLER, None, "")
    _raises(ValueError, "step", compare.cusp_occupancy, "sim2012", KEPLER, 32,
            step=1e300)


def test_estimate_record_and_make():
    _raises(InputTypeError, "Estimate.model", estimate.Estimate, -1, "Kepler",
            np.ones(1), np.ones(1), np.ones(1), np.array(["r"]), np.array([""]))
    _raises(ValueError, "Estimate.ipc", estimate.Estimate, "m", "Kepler",
            np.ones(1), np.ones(1), np.array([np.nan]), np.array(["r"]),
            np.array([""]))
    _raises(ValueError, "Estimate.n", estimate.Estimate, "m", "Kepler",
            np.array([-1.0]), np.ones(1), np.ones(1), np.array(["r"]),
            np.array([""]))
    _raises(InputTypeError, "ipc", estimate.make, "m", KEPLER, 8.0, 1.0, "abc", "r")
    _raises(ValueError, "n", estimate.make, "m", KEPLER, np.nan, 1.0, 1.0, "r")
    _raises(InputTypeError, "extra", estimate.make, "m", KEPLER, 8.0, 1.0, 1.0,
            "r", extra=3)
    _raises(ValueError, "pin_gbs", estimate.make, "m", KEPLER, 8.0, 1.0, 1.0, "r",
            pin_gbs=-1)
    _raises(ValueError, "alpha", estimate.add_fraction, -1)
    _raises(InputTypeError, "alpha", estimate.load_fraction, None)
    _raises(ValueError, "n_lo", estimate.grid, 8.0, 1.0, n_lo=1e300)
    _raises(InputTypeError, "n_lo", estimate.grid, 8.0, 1.0, n_lo="abc")


def test_estimate_takes_max_extra_reasons_and_refuses_one_more():
    every = {f"reason {i}": np.array([i == estimate.MAX_EXTRA - 1])
             for i in range(estimate.MAX_EXTRA)}
    with estimate.expected_invalid():
        est = estimate.make("m", KEPLER, np.array([8.0]), 1.0, -1.0, "r", extra=every)
    # the last reason's bit is the int64 code's highest but the sign bit
    assert est.flags.item() == f"negative throughput; reason {estimate.MAX_EXTRA - 1}"
    _raises(OutOfRangeError, "extra", estimate.make, "m", KEPLER, 8.0, 1.0, 1.0, "r",
            extra={**every, "one more": np.array([False])})


def test_estimate_valid_flagged_output_still_returned():
    with estimate.expected_invalid():
        est = estimate.make("m", KEPLER, 8.0, 1.0, -1.0, "r")
    assert est.flags.item() == "negative throughput"


def test_reference_and_prior_models():
    _raises(InputTypeError, "alpha", reference.window, KEPLER, None)
    _raises(InputTypeError, "alpha", reference.measure, KEPLER, 4, "abc")
    _raises(InputTypeError, "alpha", reference.simulate, KEPLER, 4, [1, 2])
    _raises(InputTypeError, "alpha", reference.ipc, KEPLER, 4.0, [1, 2])
    _raises(ValueError, "alpha", reference.window, KEPLER, 10**400)
    _raises(InputTypeError, "curves", zhang_owens2011, KEPLER, 8.0, 1.0, curves=3)
    with pytest.raises(OutsideDomainError) as e:
        huang2014_bandwidth_delay(29, 16, 300, 1e300)
    assert "s=" in str(e.value)


def test_modern():
    _raises(UnknownNameError, "model", modern.label, [1, 2])
    _raises(UnknownNameError, "model", modern.cusp, {}, modern.params("H100"))
    _raises(InputTypeError, "fraction", modern.needed_band, "sim2012", "H100", None)
    _raises(InputTypeError, "names", modern.littles_law, 3)
    _raises(InputTypeError, "names", modern.other_latencies, None)
    _raises(InputTypeError, "names", modern.model_table, 1.5)
    _raises(InputTypeError, "models", modern.model_table, ("H100",), None)
    _raises(InputTypeError, "fraction", modern.model_table, ("H100",), ("sim2012",),
            "abc")


def test_silicon():
    _raises(InputTypeError, "Model.key", silicon.Model, -1, "l", "p", "r")
    _raises(InputTypeError, "kernels", silicon.measured_launches, 3)
    _raises(ValueError, "kernels", silicon.measured_launches, {})
    _raises(UnknownNameError, "gpus_", silicon.measured_launches, None, ["nope"])
    _raises(InputTypeError, "p", silicon.resolve_gpu, None)
    _raises(ValueError, "min_duration_s", silicon.implied_clocks, np.nan)
    _raises(ValueError, "min_duration_s", silicon.implied_clocks, 1e300)
    _raises(InputTypeError, "min_duration_s", silicon.implied_clocks, "abc")


def test_sweeps():
    _raises(ValueError, "clock_ghz", sweeps.at_clock, KEPLER, 0)
    _raises(InputTypeError, "clock_ghz", sweeps.at_clock, KEPLER, "abc")
    _raises(ValueError, "clock_ghz", sweeps.at_clock, KEPLER, 1e300)
    _raises(InputTypeError, "n", sweeps.model_knee, KEPLER, None)
    _raises(InputTypeError, "points_", sweeps.predict, 3)
    _raises(InputTypeError, "models", sweeps.predict, None, "measured", 3)
    _raises(ValueError, "sm_count", sweeps.warps_per_sm, 8, 1e300)


def test_scoreboard():
    _raises(InputTypeError, "board", scoreboard.counts, 3)
    _raises(InputTypeError, "board", scoreboard.front_page_markdown, "abc")
    _raises(ValueError, "board", scoreboard.counts, pd.DataFrame({"x": [1]}))
    board = pd.DataFrame({"paper": [], "status": []})
    _raises(ValueError, "board", scoreboard.front_page_markdown, board)
    _raises(InputTypeError, "chapters", scoreboard.front_page_markdown, None, 3)
    _raises(InputTypeError, "key", scoreboard.producer_of, [1, 2])
    _raises(UnknownNameError, "paper", scoreboard.section_label, {})
    _raises(InputTypeError, "inputs", scoreboard.table, inputs=None)
