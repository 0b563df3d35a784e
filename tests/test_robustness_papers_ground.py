"""Issue 38, round 2: hostile input to the Volkov, Transit, Hong & Kim and Perez &
Piccoli modules and to gpumodels.ground is refused with the package's own errors, whose
message names the argument."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from gpumodels.facts.param_sets import params
from gpumodels.ground import plotting, schemas, tables, validate
from gpumodels.ground.errors import InputTypeError, OutsideDomainError
from gpumodels.papers.hong_kim import benchmarks as hkb
from gpumodels.papers.hong_kim import coalescing, timelines
from gpumodels.papers.hong_kim import model as hkm
from gpumodels.papers.perez_piccoli import model as pp
from gpumodels.papers.transit import figures as tf
from gpumodels.papers.transit import model as tmod
from gpumodels.papers.transit import printed as tp
from gpumodels.papers.transit import workloads as tw
from gpumodels.papers.transit.machine import Machine, machine
from gpumodels.papers.volkov import bounds, experiment, parameters, synthetic


def raises(exc, name, fn, *args, **kwargs):
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    assert name in str(info.value), str(info.value)


# ---- gpumodels.ground.validate additions


def test_check_type_names_argument_and_types():
    raises(InputTypeError, "gpu", validate.check_type, "gpu", 3, str)
    raises(InputTypeError, "int", validate.check_type, "n", True, int)
    assert validate.check_type("gpu", "x", str) == "x"


def test_check_numbers_and_mapping():
    raises(InputTypeError, "span", validate.check_numbers, "span", [1.0])
    raises(ValueError, "span", validate.check_numbers, "span", np.array([-1.0]))
    raises(ValueError, "span", validate.check_numbers, "span", np.array([np.nan]))
    a = np.array([1, 2])
    assert validate.check_numbers("span", a) is a
    raises(InputTypeError, "traces", validate.check_mapping, "traces", [1])
    raises(InputTypeError, "rows", validate.check_sequence, "rows", "abc")
    raises(InputTypeError, "title", validate.check_text, "title", 1)


# ---- gpumodels.ground.tables, schemas, plotting


@pytest.mark.parametrize("x", [None, {}, "abc", [1, 2]])
def test_tables_number_refuses_non_numbers(x):
    raises(InputTypeError, "x", tables.number, x, 2)
    raises(InputTypeError, "x", tables.significant_places, x, 2)


@pytest.mark.parametrize("places", [None, -1, 1.5, 1e300, "abc"])
def test_tables_places(places):
    raises(ValueError, "places", tables.number, 1.0, places)
    raises(ValueError, "places", tables.numbers, [1.0], places)


def test_tables_valid_unchanged():
    assert tables.number(1.25, 1) == "1.2"
    assert tables.number(float("nan"), 1) == "—"
    assert tables.numbers([1.0, -2.0], 1) == ["1.0", "−2.0"]
    assert tables.significant_places(0.0123, 2) == 3
    raises(ValueError, "digits", tables.significant_places, 1.0, float("inf"))
    raises(InputTypeError, "values", tables.numbers, 3.0, 1)


def test_schemas_refuse_bad_arguments():
    raises(InputTypeError, "key", schemas.long_table, 3)
    raises(InputTypeError, "after_unit", schemas.long_table, ["a"], after_unit=1)
    raises(InputTypeError, "checks", schemas.long_table, ["a"], checks=1.0)
    raises(InputTypeError, "isin", schemas.text, isin=3)
    raises(InputTypeError, "regex", schemas.text, regex={})
    raises(InputTypeError, "columns", schemas.Table, -1)
    raises(InputTypeError, "why_no_key", schemas.Table, {}, why_no_key=float("nan"))
    raises(InputTypeError, "relpath", schemas.cross_validate, {}, None, str)


def test_generation_color_unhashable():
    raises(ValueError, "generation", plotting.generation_color, {})


# ---- Volkov


def test_volkov_records_refuse_bad_fields():
    raises(ValueError, "index", bounds.Instruction, -1, "FADD")
    raises(InputTypeError, "opcode", bounds.Instruction, 0, float("nan"))
    raises(InputTypeError, "nodes", bounds.ProgramGraph, nodes=-1)
    raises(ValueError, "length", bounds.LatencyBound, -1, (), {})
    raises(
        ValueError,
        "cycles_per_warp",
        bounds.ThroughputBound,
        (),
        {"a": 1.0},
        "a",
        float("inf"),
    )
    raises(
        ValueError, "time", experiment.OccupancyTrace, np.array([np.nan]), np.array([1])
    )
    raises(
        ValueError, "spacing", experiment.Chase, np.array([1]), np.array([0]), -1, 1, 1
    )


def test_timing_record_and_function():
    t = experiment.timing([0, 0, 5], [10, 4, 12])
    fields = {f: getattr(t, f) for f in t.__dataclass_fields__}
    raises(
        ValueError,
        "mean_warp_latency",
        experiment.Timing,
        **{**fields, "mean_warp_latency": -1.0},
    )
    raises(ValueError, "sm", experiment.timing, [0, 1], [1, 2], sm=[np.nan, 0])
    raises(ValueError, "start", experiment.timing, [10**400], [1])
    raises(ValueError, "start", experiment.timing, [-1], [1])
    raises(ValueError, "instructions_per_warp", experiment.timing, [1], [1], None, 8)


def test_volkov_functions():
    p = params("Kepler")
    raises(ValueError, "a", synthetic.arithmetic_limit, p, -1)
    raises(ValueError, "p", synthetic.arithmetic_limit, None, 1.0)
    raises(ValueError, "x", parameters.round_half, "abc")
    raises(
        ValueError,
        "throughput_per_scheduler",
        experiment.imbalance_run,
        4,
        throughput_per_scheduler=0,
    )
    raises(InputTypeError, "gpu", experiment.phases_run, {})
    raises(ValueError, "table", bounds.measured_metrics, [1, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        synthetic.refined_memory_throughput(p, 10, 1e300)
        synthetic.refined_arithmetic_throughput(p, 10, 1e300)


# ---- Transit


def test_transit():
    e = tmod.equilibrium(32, 10, 2, 16, 8)
    fields = {f: getattr(e, f) for f in e.__dataclass_fields__}
    raises(ValueError, "Equilibrium.k", tmod.Equilibrium, **{**fields, "k": -1.0})
    raises(ValueError, "Equilibrium.bound", tmod.Equilibrium, **{**fields, "bound": 1})
    raises(ValueError, "n", tmod.raised, "abc", 1, 1, 1, 1, "n")
    raises(ValueError, "Z", tmod.raised, 1, 10**400, 1, 1, 1, "n")
    raises(OutsideDomainError, "raised", tmod.raised, 1e300, 1, 1, 1, 1, "n", 1e10)
    raises(ValueError, "k", tmod.closed_network_supply, 1e300, 1, 2)
    raises(ValueError, "R", tmod.closed_network_supply, 3, [1, 2], 2)
    raises(ValueError, "points", tf.curves, 32, 10, 2, 16, 8, points=None)
    raises(ValueError, "n", tf.curves, [1, 2], 10, 2, 16, 8)
    raises(InputTypeError, "cases", tp.lever_effects, 3)
    raises(InputTypeError, "machine", tw.predictions, None, "C2075")
    raises(InputTypeError, "rows", tw.render_table, "abc")
    m = machine("C2075")
    raises(InputTypeError, "gpu", Machine, -1, "SP", m.k_delta, m.R, m.M, m.pi_height)


# ---- Hong & Kim, Perez & Piccoli


def test_hong_kim():
    raises(InputTypeError, "warps", hkb.dependence_ratio, 3)
    raises(InputTypeError, "gpus", hkb.merge_means, 1.0)
    raises(ValueError, "gpus", hkb.merge_mean_occupancy, {})
    raises(ValueError, "n", timelines.Case, 1, "5a", "t", -1, 1, 100, 300, 2, 1)
    raises(ValueError, "comp_p", timelines.Case, 1, "5a", "t", 8, 1, np.nan, 300, 2, 1)
    raises(InputTypeError, "title", timelines.Case, 1, "5a", 1.0, 8, 1, 1, 3, 2, 1)
    r = timelines.run_case(1)
    raises(ValueError, "total_cycles", timelines.CaseRun, r.case, r.trace, -1, 1)
    raises(InputTypeError, "case", timelines.CaseRun, 1, r.trace, 1, 1)
    raises(ValueError, "count", coalescing.Transactions, -1, 128)
    raises(InputTypeError, "paths", hkm.Divergence, -1, (), {})


def test_perez_piccoli():
    raises(ValueError, "sm_count", pp.Features, 1, -1, 1, 1, 1, 1, 1, 1)
    raises(InputTypeError, "gpu", pp.Parameters, -1, *[1.0] * 8)


def test_checker_bounds_and_helpers():
    raises(InputTypeError, "lo", validate.check_int, "n", 3, None)
    raises(InputTypeError, "hi", validate.check_real, "x", 3.0, 0.0, "abc")
    raises(ValueError, "lo must be <= hi", validate.check_real, "x", 3.0, 5.0, 1.0)
    raises(InputTypeError, "lo", validate.as_array, "x", 1.0, None)
    raises(InputTypeError, "value", validate.to_float, None)
    raises(InputTypeError, "value", validate.out, "abc")
    raises(InputTypeError, "value", validate.finite_result, "t", {})
    assert validate.check_int("n", 3, 1, 4) == 3
    assert validate.to_float(10**400) == float("inf")
