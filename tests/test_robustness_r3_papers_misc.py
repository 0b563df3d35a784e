"""Issue 38, round 3: hostile arguments to the Hong & Kim, Perez & Piccoli, Transit and
Volkov modules fail with the package's own errors, naming the argument."""

from __future__ import annotations

from pathlib import Path
import re

import numpy as np
import pytest

from gpumodels.ground.errors import (
    DataError,
    InputTypeError,
    OutOfRangeError,
    OutsideDomainError,
    UnknownNameError,
)
from gpumodels.papers.hong_kim import benchmarks as hkb
from gpumodels.papers.hong_kim import coalescing, model
from gpumodels.papers.perez_piccoli import model as pp
from gpumodels.papers.transit import printed as tp
from gpumodels.papers.transit import workloads
from gpumodels.papers.volkov import bounds, experiment, memory_wall, parameters

BENCH_OUTPUT = (Path(__file__).parent / "fixtures" / "perfparams_bench_h100.txt").read_text()


def raises(error, name, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` raises ``error`` with a message naming ``name``."""
    with pytest.raises(error) as info:
        fn(*args, **kwargs)
    assert re.search(
        rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", str(info.value)
    ), str(info.value)


# ---- Hong & Kim


@pytest.mark.parametrize("bad", [None, 8, -0.0, True, "abc"])
def test_hong_kim_sweeps_refuse_a_non_list(bad):
    raises(InputTypeError, "warps", hkb.dependence_sweep, bad, True)
    raises(InputTypeError, "warps", hkb.mwp_vs_warps, "GTX280", False, bad)
    raises(InputTypeError, "threads", hkb.svm_sweep, "naive", bad)
    if bad is not None:
        raises(InputTypeError, "threads", hkb.merge_sweep, "SVM", "GTX280", bad)


def test_hong_kim_sweeps_still_take_numpy_arrays_and_ranges():
    a = hkb.dependence_sweep(np.arange(1, 4), independent=True)
    b = hkb.dependence_sweep(range(1, 4), independent=True)
    assert a.equals(b) and len(a) == 3
    assert len(hkb.mwp_vs_warps("GTX280", False, np.arange(1, 5))) == 4


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), 1, "yes"])
def test_mwp_vs_warps_refuses_a_non_boolean_coalesced(bad):
    raises(InputTypeError, "coalesced", hkb.mwp_vs_warps, "GTX280", bad, [1, 8])


@pytest.mark.parametrize("bad", [{}, [1, 2]])
def test_hong_kim_benchmark_names_refuse_unhashable_values(bad):
    raises(UnknownNameError, "benchmark", hkb.merge_inputs, bad, 128, "FX5600")
    raises(UnknownNameError, "benchmark", hkb.merge_sweep, bad, "FX5600", [32])
    raises(UnknownNameError, "benchmark", hkb.table_5_occupancy, bad, "FX5600", 32)
    raises(UnknownNameError, "name", hkb.micro_inputs, bad, "GTX280", False)


@pytest.mark.parametrize("bad", [None, {}, 8, "abc", [1, 2]])
def test_table_2_rows_needs_a_prediction(bad):
    raises(InputTypeError, "prediction", hkb.table_2_rows, bad)


@pytest.mark.parametrize("bad", [None, 8, -0.0, True])
def test_guide_transactions_refuses_non_list_addresses(bad):
    raises(InputTypeError, "addresses", coalescing.guide_transactions, bad, 4, "1.3")


@pytest.mark.parametrize("bad", [None, {}, 8, "abc", [1, 2]])
def test_index_terms_needs_a_function(bad):
    raises(InputTypeError, "index", coalescing.index_terms, bad, 64)


@pytest.mark.parametrize("bad", [None, 8, -0.0, True, "abc", [1, 2]])
def test_divergent_counts_refuses_non_mapping_blocks(bad):
    raises(InputTypeError, "blocks", model.divergent_counts, bad, [("B1",)])


@pytest.mark.parametrize("bad", [8, float("nan"), True, "abc"])
def test_divergent_counts_refuses_bad_paths(bad):
    blocks = {"B1": {"comp_insts": 2}, "B2": {"comp_insts": 3}}
    raises(InputTypeError, "paths", model.divergent_counts, blocks, bad)
    raises(UnknownNameError, "paths", model.divergent_counts, blocks, [("B1", [1])])


@pytest.mark.parametrize("bad", [8, float("nan"), True, "abc", [1, 2]])
def test_m_factor_of_needs_a_mapping(bad):
    raises(InputTypeError, "counts", model.m_factor_of, bad)


# ---- Perez & Piccoli


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), None])
def test_bench_rows_needs_text_driver_and_date(bad):
    raises(InputTypeError, "driver", pp.bench_rows, BENCH_OUTPUT, driver=bad, date="x")
    raises(InputTypeError, "date", pp.bench_rows, BENCH_OUTPUT, driver="x", date=bad)


@pytest.mark.parametrize("bad", [None, 8, -0.0, True, "abc"])
def test_bench_parameters_needs_a_list_of_rows(bad):
    raises(InputTypeError, "rows", pp.bench_parameters, bad)


def test_bench_parameters_refuses_rows_that_are_not_bench_rows():
    raises(InputTypeError, "rows[0]", pp.bench_parameters, [1, 2])
    raises(DataError, "rows[0]", pp.bench_parameters, [{"parameter": "cp_aa"}])
    rows = pp.bench_rows(BENCH_OUTPUT, driver="550.00", date="2026-11-22")
    rows[0] = dict(rows[0], value="fast")
    raises(DataError, "rows[0]", pp.bench_parameters, rows)


# ---- Transit


@pytest.mark.parametrize("bad", [None, {}, 8, -1, float("nan"), True, "abc", [1, 2]])
def test_transit_printed_choices_are_checked(bad):
    raises(UnknownNameError, "bound", tp.advice_state, bad)
    raises(UnknownNameError, "direction", tp.caption_key, "Fig. 12", "ms", bad)
    raises(UnknownNameError, "system", tp.caption_key, "Fig. 12", bad, "up")
    if not isinstance(bad, str):
        raises(InputTypeError, "figure", tp.caption_key, bad, "ms", "up")


def test_transit_printed_keys_are_unchanged():
    assert tp.caption_key("Fig. 12", "ms", "down") == "li15.s2_4.fig12.ms_drops"


@pytest.mark.parametrize("bad", [None, 8, -0.0, True, "abc"])
def test_accuracy_needs_a_list_of_prediction_rows(bad):
    raises(InputTypeError, "rows", workloads.accuracy, bad)


def test_accuracy_checks_rows_and_min_threads():
    rows = [{"n": 100.0, "PCT": 1.2, "RCT": 1.0}]
    raises(InputTypeError, "rows[0]", workloads.accuracy, [1, 2])
    raises(DataError, "rows[0]", workloads.accuracy, [{"n": 1.0}])
    raises(
        OutOfRangeError, "rows[0]['RCT']", workloads.accuracy, [dict(rows[0], RCT=0)]
    )
    raises(ValueError, "rows", workloads.accuracy, [])
    for bad in (None, {}, "8", [1, 2], float("nan")):
        with pytest.raises((InputTypeError, OutOfRangeError), match="min_threads"):
            workloads.accuracy(rows, bad)
    assert workloads.accuracy(rows) == pytest.approx(0.8)


@pytest.mark.parametrize("bad", [None, 8, -0.0, True, "abc", [1, 2]])
def test_derive_needs_a_mapping(bad):
    raises(InputTypeError, "row", workloads.derive, bad)


def test_derive_names_missing_columns():
    row = dict(workloads.nvprof_rows()[0])
    del row["duration"]
    raises(DataError, "row", workloads.derive, row)
    raises(DataError, "row", workloads.derive, {})


# ---- Volkov: bounds


@pytest.mark.parametrize("bad", [None, {}, 8, -0.0, True, "abc", [1, 2]])
def test_volkov_bounds_check_their_record_arguments(bad):
    listing = bounds.listing_3_5()
    raises(InputTypeError, "first", bounds.default_can_pair, bad, listing[1])
    raises(InputTypeError, "second", bounds.default_can_pair, listing[0], bad)
    raises(InputTypeError, "graph", bounds.latency_bound, bad)
    raises(
        InputTypeError, "limits", bounds.throughput_bound, bounds.table_3_2_mix(), bad
    )
    if bad is not None:
        raises(InputTypeError, "can_pair", bounds.dual_issue_groups, listing, bad)
        raises(
            InputTypeError,
            "can_pair",
            bounds.program_graph,
            listing,
            {"alu": 1},
            8.0,
            can_pair=bad,
        )


@pytest.mark.parametrize("bad", [None, 8, -0.0, True, "abc", [1, 2]])
def test_volkov_bounds_check_their_lists(bad):
    raises(InputTypeError, "program", bounds.dual_issue_groups, bad)
    raises(InputTypeError, "program", bounds.program_graph, bad, {"alu": 1}, 8.0)
    raises(
        InputTypeError, "mix", bounds.throughput_bound, bad, bounds.table_3_3_limits()
    )
    raises(InputTypeError, "warps", bounds.barrier_graph, bad)


@pytest.mark.parametrize("bad", [None, 8, -0.0, True, [1, 2]])
def test_program_graph_needs_a_latency_mapping(bad):
    raises(
        InputTypeError,
        "dependency_latency",
        bounds.program_graph,
        bounds.listing_3_5(),
        bad,
        8.0,
    )


@pytest.mark.parametrize("bad", [None, {}, 8, -0.0, True, [1, 2]])
def test_barrier_graph_needs_a_barrier_text(bad):
    raises(InputTypeError, "barrier", bounds.barrier_graph, bounds.listing_3_3(), bad)


def test_valid_bounds_calls_are_unchanged():
    lb = bounds.latency_bound(bounds.vector_add_graph())
    assert lb.length == 544.0
    assert bounds.dual_issue_groups(bounds.listing_3_5())[0] == (0, 1)
    assert bounds.barrier_graph(bounds.listing_3_3()).nodes[0] == "join"


# ---- Volkov: experiment, memory wall, parameters


def test_chase_and_simulation_sizes_are_bounded():
    big = experiment.MAX_CHASE_ENTRIES + 1
    raises(OutOfRangeError, "n_entries", experiment.streaming_chase, big, 64, 4)
    raises(OutOfRangeError, "n_entries", experiment.random_chase, big, 64)
    raises(OutOfRangeError, "threads", experiment.random_chase, 3000, big)
    raises(
        OutOfRangeError,
        "instructions",
        experiment.imbalance_run,
        4,
        instructions=experiment.MAX_PROGRAM_OPS + 1,
    )
    raises(
        OutOfRangeError,
        "iterations",
        experiment.phases_run,
        "Kepler",
        iterations=experiment.MAX_PROGRAM_OPS + 1,
    )


@pytest.mark.parametrize("bad", [None, {}, 8, -0.0, True, "abc", [1, 2]])
def test_memory_wall_needs_its_table(bad):
    raises((InputTypeError, DataError), "df", memory_wall.fit_trend, bad, 2006, 2015)
    raises((InputTypeError, DataError), "df", memory_wall.fits, bad)


def test_memory_wall_checks_lines_and_spans():
    df = memory_wall.table()
    for bad in (None, {}, 8, "abc", [1, 2]):
        raises(InputTypeError, "lines", memory_wall.fit_trend, df, 2006, 2015, bad)
    for bad in (8, float("nan"), True, "abc", [1, 2]):
        raises(InputTypeError, "spans", memory_wall.fits, df, bad)
    raises(InputTypeError, "spans", memory_wall.fits, df, {"x": 2006})
    assert memory_wall.fits(df) == memory_wall.fits(df, memory_wall.SPANS)


def test_parameters_table_needs_a_name():
    raises(InputTypeError, "name", parameters.table, None)
    raises(UnknownNameError, "table", parameters.table, "abc")


def test_fit_latency_model_overflow_is_an_error_not_a_warning():
    x = np.array([10.0, 50.0, 100.0, 150.0, 180.0])
    y = 300.0 + 40.0 * x / (200.0 - x)
    with pytest.raises(OutsideDomainError, match="latency"):
        parameters.fit_latency_model(x, np.full(5, 1e300))
    a, b, c = parameters.fit_latency_model(x, y)
    assert (a, b, c) == pytest.approx((300.0, 40.0, 200.0), rel=1e-5)


@pytest.mark.parametrize("bad", [None, {}, -1, 0, float("nan"), "abc", [1, 2]])
def test_micro_inputs_refuses_a_non_boolean_coalesced(bad):
    raises(InputTypeError, "coalesced", hkb.micro_inputs, "Mb1", "GTX280", bad)


# ---- review follow-ups (issue 38, round 3)


@pytest.mark.parametrize("bad", [np.array(5), np.array(64.0), np.zeros((4, 4))])
def test_guide_transactions_refuses_arrays_that_are_not_one_dimensional(bad):
    raises(InputTypeError, "addresses", coalescing.guide_transactions, bad, 4, "1.3")


def test_guide_transactions_still_takes_a_one_dimensional_array():
    got = coalescing.guide_transactions(4 * np.arange(16), 4, "1.3")
    assert got == coalescing.guide_transactions([4 * k for k in range(16)], 4, "1.3")
    assert got == [(0, 64)]


def test_memory_wall_fits_refuses_an_empty_mapping_of_spans():
    df = memory_wall.table()
    raises(OutOfRangeError, "spans", memory_wall.fits, df, {})
    assert memory_wall.fits(df, None) == memory_wall.fits(df)
    assert list(memory_wall.fits(df)) == list(memory_wall.SPANS)
    one = {"2006–2014": (2006, 2015)}
    assert list(memory_wall.fits(df, one)) == ["2006–2014"]


def test_memory_wall_fit_trend_names_the_missing_columns():
    df = memory_wall.table().drop(columns=["ratio"])
    with pytest.raises(DataError, match=r"(?<![A-Za-z0-9_])ratio(?![A-Za-z0-9_])"):
        memory_wall.fit_trend(df, 2006, 2015)
    raises(DataError, "df", memory_wall.fit_trend, df, 2006, 2015)


@pytest.mark.parametrize("gpu", ["K40", "C2075", "GTX690", None])
def test_transit_predictions_lists_only_the_profiled_gpus(gpu):
    from gpumodels.papers import transit

    m = transit.machine("GTX690", "SP")
    with pytest.raises(UnknownNameError) as info:
        workloads.predictions(m, gpu)
    msg = str(info.value)
    assert re.search(r"(?<![A-Za-z0-9_])gpu(?![A-Za-z0-9_])", msg), msg
    assert "GTX680" in msg and "K20" in msg, msg
    assert "C2075" not in msg.split("got")[0], msg
    assert "GTX690" not in msg.split("got")[0], msg


def test_transit_accuracy_and_derive_name_the_missing_keys():
    with pytest.raises(DataError) as info:
        workloads.accuracy([{"n": 1.0, "PCT": 1.0}])
    assert re.search(r"rows\[0\].*RCT", str(info.value)), str(info.value)
    row = dict(workloads.nvprof_rows()[0])
    del row["inst_issued1"]
    with pytest.raises(DataError) as info:
        workloads.derive(row)
    msg = str(info.value)
    assert re.search(r"(?<![A-Za-z0-9_])row(?![A-Za-z0-9_]).*inst_issued1", msg), msg


def test_volkov_refined_latency_errors_match_latency():
    from gpumodels.papers import volkov

    p = volkov.params("Kepler")
    raises(OutOfRangeError, "alpha", volkov.latency, p, float("inf"))
    raises(OutOfRangeError, "alpha", volkov.refined_latency, p, 0.05, float("inf"))
    raises(OutOfRangeError, "x", volkov.refined_latency, p, float("inf"), 8)
    bound = min(c for _, c in p.latency_terms) / p.gbs_per_ipc
    for x in (bound, 2 * bound, np.array([0.01, bound]), 1e308):
        with pytest.raises(OutsideDomainError) as info:
            volkov.refined_latency(p, x, 8)
        msg = str(info.value)
        assert msg.startswith("x must be below"), msg
        assert "IPC/SM" in msg and "GB/s" in msg and "alpha" not in msg, msg
    assert volkov.refined_latency(p, 0.5 * bound, 8) > volkov.refined_latency(p, 0, 8)


def test_hong_kim_sweeps_take_the_same_lists():
    a = hkb.dependence_ratio(np.arange(1, 5))
    assert a.equals(hkb.dependence_ratio([1, 2, 3, 4]))
    assert a.equals(hkb.dependence_ratio(range(1, 5)))
    assert len(hkb.dependence_sweep([], independent=True)) == 0
    raises(OutOfRangeError, "warps", hkb.dependence_ratio, [])
    raises(OutOfRangeError, "warps", hkb.dependence_ratio, np.array([], dtype=int))
    raises(OutOfRangeError, "gpus", hkb.merge_means, [])
    raises(OutOfRangeError, "gpus", hkb.merge_mean_occupancy, ())
    for bad in (None, 8, "abc", {"a": 1}, np.ones((2, 2))):
        raises(InputTypeError, "warps", hkb.dependence_ratio, bad)
        raises(InputTypeError, "warps", hkb.dependence_sweep, bad, True)
        if bad is not None:  # None: the default, every GPU
            raises(InputTypeError, "gpus", hkb.merge_means, bad)


def test_bench_parameters_names_the_row_and_the_missing_key():
    with pytest.raises(DataError) as info:
        pp.bench_parameters([{"gpu": "x", "parameter": "cp_aa"}])
    assert re.search(r"rows\[0\].*value", str(info.value)), str(info.value)


def test_volkov_throughput_bound_checks_its_mix():
    limits = bounds.table_3_3_limits()
    raises(OutOfRangeError, "mix", bounds.throughput_bound, [], limits)
    mix = bounds.table_3_2_mix()
    raises(InputTypeError, "mix[1]", bounds.throughput_bound, [mix[0], 1], limits)
    expect = bounds.throughput_bound(list(mix), limits)
    assert bounds.throughput_bound(tuple(mix), limits) == expect
    assert bounds.throughput_bound(iter(mix), limits) == expect
