"""Hostile input to gpumodels.facts and gpumodels.engines (issue 38, round 2): each
hardened function or record refuses it with the package's error, naming the argument
or the field."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

from gpumodels.engines import mwp_cwp, sim
from gpumodels.engines.refsim import dram, kernels, simulator
from gpumodels.facts import (
    hardware,
    modern,
    occupancy,
    param_sets,
    params,
    profile,
    published,
)
from gpumodels.ground.errors import InputTypeError


def _raises(exc, name, fn, *args, **kwargs):
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    assert name in str(info.value), str(info.value)


# ---- functions


@pytest.mark.parametrize("bad", [None, 3, ["a"], {}])
def test_published_lookups_refuse_a_key_that_is_not_a_string(bad):
    for fn in (
        published.value,
        published.record,
        published.tolerance,
        published.printed_half_unit,
    ):
        _raises(InputTypeError, "key", fn, bad)
    _raises(InputTypeError, "prefix", published.keys, bad)


def test_published_tables_refuse_wrong_types():
    key = published.keys()[0]
    _raises(InputTypeError, "computed", published.compare, [1, 2])
    _raises(ValueError, "computed", published.compare, {key: math.nan})
    _raises(InputTypeError, "table", published.check, "abc")
    _raises(InputTypeError, "board", published.compact, 8)
    _raises(ValueError, "board", published.compact, pd.DataFrame({"key": []}))
    _raises(InputTypeError, "note", published.compact, pd.DataFrame(), note="yes")
    _raises(InputTypeError, "board", published.notes_markdown, None)


def test_occupancy_tables_refuse_wrong_types():
    _raises(InputTypeError, "ccs", occupancy.limits_table, {})
    _raises(InputTypeError, "parameters", occupancy.limits_table, None, 3)
    _raises(ValueError, "parameters", occupancy.limits_table, None, [[1, 2]])
    _raises(InputTypeError, "parameters", occupancy.limits_sources, 0)
    _raises(ValueError, "parameters", occupancy.limits_sources, ["nope"])
    # valid input unchanged
    assert list(occupancy.limits_table(["7.5"], ["max_warps_per_sm"]).columns) == [
        "7.5"
    ]


def test_hardware_tables_refuse_wrong_types():
    _raises(InputTypeError, "gpus", hardware.table, 8)
    _raises(InputTypeError, "gpus", hardware.summary, 8.0)
    _raises(InputTypeError, "missing", hardware.summary, None, 2.0, 3)
    _raises(InputTypeError, "generation", hardware.generation_tables, ["Kepler"])
    _raises(ValueError, "attribute", hardware.get_gpu("GTX680").source, [1])


def test_params_and_modern_refuse_wrong_types():
    _raises(InputTypeError, "name", param_sets.params, {})
    _raises(InputTypeError, "latency_model", param_sets.params, "Kepler", [1])
    _raises(InputTypeError, "method", param_sets.params, "H100", method=[1])
    _raises(InputTypeError, "bandwidth", param_sets.params, "H100", bandwidth={})
    _raises(InputTypeError, "kind", param_sets.mix_params, "Kepler", [1])
    _raises(InputTypeError, "p", params.loaded_latency, None, 8.0)
    p = param_sets.params("Kepler")
    _raises(InputTypeError, "x_gbs", params.loaded_latency, p, "abc")
    _raises(ValueError, "x_gbs", params.loaded_latency, p, -1.0)
    _raises(ValueError, "x_gbs", params.loaded_latency, p, math.nan)
    _raises(InputTypeError, "window_mb", modern.chase_plateau, "H100", 8.0)
    _raises(InputTypeError, "window_mb", modern.chase_plateau, "H100", ("a", "b"))
    _raises(ValueError, "window_mb", modern.chase_plateau, "H100", (1.0, math.inf))
    _raises(InputTypeError, "bandwidth_gbs", modern.mem_thru, {}, "H100")
    _raises(ValueError, "bandwidth_gbs", modern.mem_thru, 10**400, "H100")
    _raises(ValueError, "bandwidth_gbs", modern.mem_thru, -1.0, "H100")


def test_kernel_profile_refuses_bad_metrics():
    for bad in (None, 3, "abc", [1, 2], {"x": 1}):
        _raises(
            InputTypeError,
            "metrics",
            profile.KernelProfile,
            kernel="k",
            source="f:1",
            metrics=bad,
        )


def test_sim_functions_refuse_hostile_input():
    kw = {"warp": [0, 0], "seq": [0, 1], "issue": [1.0, 2.0], "body": 1}
    for name, bad in (
        ("warp", "abc"),
        ("seq", [math.nan, 1.0]),
        ("issue", {}),
        ("w", -1),
        ("start", "x"),
        ("stop", math.nan),
    ):
        _raises(ValueError, name, sim.trip_starts, **{**kw, name: bad})
    _raises(ValueError, "seq", sim.trip_starts, [0, 0], [0.5, 1], [1.0, 2.0], 1)
    assert list(sim.trip_starts(**kw)) == [1.0, 2.0]
    p = param_sets.params("Kepler")
    _raises(ValueError, "mem_issue", sim.volkov_sm, p, mem_issue=0)
    _raises(InputTypeError, "other", sim.alpha_program, 2, other=None)
    _raises(InputTypeError, "units", sim.SM, units=8.0)
    unit = {"alu": sim.Unit(6, 2)}
    _raises(InputTypeError, "dependent_latency", sim.SM, unit, dependent_latency=3)


def test_mwp_cwp_functions_name_the_argument():
    _raises(InputTypeError, "mem_cycles", mwp_cwp.cycles_mwp_equals_n, [1, 2], 1, 1, 1)
    with pytest.raises(ValueError, match="uncoal_mem_insts"):
        mwp_cwp.Inputs(
            machine="GTX280",
            threads_per_block=256,
            blocks=48,
            comp_insts=10,
            uncoal_mem_insts=1e300,
        )


def test_refsim_functions_refuse_hostile_input():
    _raises(InputTypeError, "benchmark", kernels.kernel, ["vecAdd"])
    _raises(ValueError, "preset", dram.address_map, {})
    _raises(InputTypeError, "params", simulator.alpha_ipc, 2, 1, params="Kepler")
    _raises(InputTypeError, "rm", simulator.second_access_latency, 0, 64, rm=3)


# ---- records


def _replace(rec, **changes):
    return lambda: dataclasses.replace(rec, **changes)


def _kernel_objects():
    k = kernels.kernel("vecAdd")
    tr = k.trace()
    st = simulator.kernel_streams(tr)
    return k, tr, st, simulator.run_streams(st)


@pytest.mark.parametrize("bad", [-1, math.nan, math.inf, "abc", None])
def test_records_refuse_a_hostile_field(bad):
    k, tr, st, res = _kernel_objects()
    s = sim.SM(units={"mem": sim.Unit(40, 0.5), "alu": sim.Unit(6, 2)})
    d = dram.SimulatedDRAM(dram.address_map("k80_printed_col_low"), 1.0, 2.0, 3.0)
    pred = mwp_cwp.predict(
        mwp_cwp.Inputs(
            machine="FX5600",
            threads_per_block=256,
            blocks=48,
            comp_insts=500,
            coal_mem_insts=4,
        )
    )
    cases = [
        (hardware.get_gpu("GTX680"), "sm_count"),
        (hardware.get_gpu("GTX680"), "clock_ghz"),
        (hardware.get_gpu("GTX680"), "name"),
        (occupancy.limits("7.5"), "max_warps_per_sm"),
        (occupancy.limits("7.5"), "generation"),
        (occupancy.occupancy("7.5", 256), "occupancy"),
        (occupancy.occupancy("7.5", 256), "blocks_per_sm"),
        (pred, "exec_cycles_with_synch"),
        (pred, "comp_insts"),
        (pred, "n"),
        (sim.simulate(s, sim.alpha_program(1), 2, 50), "cycles"),
        (sim.simulate(s, sim.alpha_program(1), 2, 50), "issue"),
        (sim.alpha_program(1)[0], "unit"),
        (k, "blocks"),
        (k, "name"),
        (k.ops[0], "alu"),
        (next(iter(k.arrays.values())), "dims"),
        (tr, "addr"),
        (tr, "shared_bytes_per_block"),
        (st, "lsu"),
        (st, "blocks"),
        (res, "time_ns"),
        (res, "record_done"),
        (d, "lat_hit"),
        (d, "mapping"),
    ]
    for rec, name in cases:
        if bad is None and name in ("dims", "sm_count", "clock_ghz"):
            continue  # None: not given, allowed
        if isinstance(bad, str) and name in ("name", "generation", "unit"):
            continue  # any string is a name
        _raises(ValueError, name, _replace(rec, **{name: bad}))


def test_simulated_dram_seed_is_checked():
    d = dram.SimulatedDRAM(dram.address_map("k80_printed_col_low"), 1.0, 2.0, 3.0)
    _raises(ValueError, "seed", _replace(d, seed=-1))
    _raises(InputTypeError, "seed", _replace(d, seed="abc"))
    assert dataclasses.replace(d, seed=-0.0).second_access_latency(0, 64) >= 0


def test_detected_mapping_refuses_bad_fields():
    m = dram.DetectedMapping((1,), (2,), (3,), {"column": 1.0}, {1: 1.0})
    _raises(ValueError, "row_bits", _replace(m, row_bits=(-1,)))
    _raises(InputTypeError, "column_bits", _replace(m, column_bits=5))
    _raises(ValueError, "latencies", _replace(m, latencies={"row": -1.0}))
    _raises(ValueError, "per_bit", _replace(m, per_bit={1: math.inf}))
    # an empty group has no entry: NaN is refused
    _raises(ValueError, "latencies", _replace(m, latencies={"other": math.nan}))
    found = dram.detect_mapping(lambda a0, a1: 100.0 + (a1 >> 1 & 1), [1, 2])
    assert found.row_bits == () and "row" not in found.latencies


def test_prediction_allows_documented_infinite_limits():
    pred = mwp_cwp.predict(
        mwp_cwp.Inputs(
            machine="FX5600", threads_per_block=256, blocks=48, comp_insts=500
        )
    )
    assert pred.mwp_peak_bw == math.inf  # no memory instructions: no bandwidth limit
    _raises(ValueError, "mwp_peak_bw", _replace(pred, mwp_peak_bw=math.nan))
    _raises(ValueError, "equation", _replace(pred, equation=21))


def test_valid_records_are_unchanged():
    g = hardware.get_gpu("GTX680")
    assert dataclasses.replace(g) == g
    o = occupancy.occupancy("3.0", 128, 16, 3072)
    assert o.blocks_per_sm == 16
    assert isinstance(np.asarray(modern.mem_thru(1000.0, "H100")).item(), float)
