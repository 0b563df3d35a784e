"""Hostile arguments to gpumodels.engines found by tools/fuzz_api.py once every callable
had a baseline (issue 38, round 3): each now raises the package's error naming the
argument, and valid calls give what they gave before."""

import dataclasses
import re

import numpy as np
import pandas as pd
import pytest

from gpumodels.engines import mwp_cwp, sim
from gpumodels.engines.refsim import dram, kernels, placements
from gpumodels.engines.refsim import simulator as S
from gpumodels.ground.errors import (
    DataError,
    InputTypeError,
    OutOfRangeError,
    UnknownNameError,
)


def _names(argument: str) -> re.Pattern:
    """``argument`` as a whole name: not part of a longer identifier ("tr" does not
    match "string" or "Trace")."""
    return re.compile(rf"(?<![A-Za-z0-9_]){re.escape(argument)}(?![A-Za-z0-9_])")


def _raises(error, argument, fn, /, *args, **kwargs):
    """``fn(*args, **kwargs)`` raises ``error`` whose message names ``argument``."""
    with pytest.raises(error) as info:
        fn(*args, **kwargs)
    assert _names(argument).search(str(info.value)), str(info.value)
    return info.value


def test_raises_matches_whole_names_only():
    assert _names("tr").search("tr must be a Trace")
    assert not _names("tr").search("a string or a Trace")
    assert not _names("row").search("rows and arrows")
    assert _names("records_per_warp[0]").search("records_per_warp[0][1] must be")
    assert not _names("records_per_warp[0]").search("records_per_warp[01]")


# ---------------------------------------------------------------- sim


def _sm():
    return sim.SM(
        units={"mem": sim.Unit(40, 0.5, max_in_flight=4), "alu": sim.Unit(6, 2)},
        schedulers=2,
    )


@pytest.mark.parametrize("bad", [None, 8, 1.5, True, [1, 2], "abc"])
def test_simulate_refuses_programs_that_are_not_sequences_of_programs(bad):
    _raises(InputTypeError, "programs", sim.simulate, _sm(), bad, 4, 200)


@pytest.mark.parametrize("bad", [None, "abc", -1, 0, float("nan"), 10**400])
def test_simulate_checks_max_cycles_even_when_cycles_is_given(bad):
    error = (InputTypeError, OutOfRangeError)
    _raises(error, "max_cycles", sim.simulate, _sm(), sim.alpha_program(2), 4, 200,
            max_cycles=bad)


def test_simulate_valid_run_unchanged_by_the_checks():
    a = sim.simulate(_sm(), sim.alpha_program(2), 4, 200)
    b = sim.simulate(_sm(), sim.alpha_program(2), 4, 200, max_cycles=10_000_000)
    assert np.array_equal(a.issue, b.issue) and a.cycles == b.cycles == 200


@pytest.mark.parametrize("bad", ["abc", {}, None, 10**400, [float("nan")]])
def test_rate_between_names_issue(bad):
    _raises((InputTypeError, OutOfRangeError), "issue", sim.rate_between, bad, 0, 10)


@pytest.mark.parametrize("which", ["t1", "t2"])
@pytest.mark.parametrize("bad", [None, "abc", [1, 2], {}, float("nan"), 10**400])
def test_rate_between_names_t1_and_t2(which, bad):
    args = {"issue": [0, 1, 2, 3], "t1": 0, "t2": 10, which: bad}
    _raises((InputTypeError, OutOfRangeError), which, sim.rate_between, **args)


def test_rate_between_valid_result_unchanged():
    assert sim.rate_between([0, 1, 2, 3, 10, 11, 12, 13, 20], 0, 20) == 8 / 20
    with pytest.raises(ValueError, match="t2 must be greater"):
        sim.rate_between([0, 1], 5, 5)


# ---------------------------------------------------------------- mwp_cwp


@pytest.mark.parametrize("bad", [0, 1.5, True, float("nan"), "8"])
def test_predict_refuses_decimals_that_are_not_a_mapping(bad):
    inputs = mwp_cwp.Inputs(
        machine="FX5600", threads_per_block=256, blocks=48, comp_insts=500,
        coal_mem_insts=4,
    )
    _raises(InputTypeError, "decimals", mwp_cwp.predict, inputs, decimals=bad)


# ---------------------------------------------------------------- refsim.dram


def _map_fields(**changes):
    base = dram.address_map("gddr5_6x16")
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    fields.update(changes)
    return fields


@pytest.mark.parametrize(
    "group", ["column_bits", "row_bits", "bank_bits", "channel_bits", "byte_bits"]
)
@pytest.mark.parametrize("bad", [None, 0, 1.5, float("inf"), "abc", [1, 2], True])
def test_address_map_bit_groups_must_be_tuples_of_bits(group, bad):
    _raises(InputTypeError, group, dram.AddressMap, **_map_fields(**{group: bad}))


@pytest.mark.parametrize("bad", [(-1,), (63,), (1.5,), ("a",), (None,)])
def test_address_map_bits_must_be_positions_in_0_62(bad):
    error = (InputTypeError, OutOfRangeError)
    _raises(error, "byte_bits", dram.AddressMap, **_map_fields(byte_bits=bad))


def test_address_map_overlap_names_both_fields():
    with pytest.raises(ValueError, match="a bit is in two fields") as info:
        dram.AddressMap("x", column_bits=(3, 4), row_bits=(4, 5), bank_bits=())
    assert "column_bits" in str(info.value) and "row_bits" in str(info.value)


def test_address_map_name_and_sources_checked():
    _raises(InputTypeError, "name", dram.AddressMap, **_map_fields(name=8))
    _raises(InputTypeError, "sources", dram.AddressMap, **_map_fields(sources=None))


@pytest.mark.parametrize("which", ["bank", "row"])
@pytest.mark.parametrize(
    "bad", [None, {}, "abc", float("nan"), float("inf"), 1e300, 10**400, [-1], [0.5]]
)
def test_row_buffer_outcomes_names_bad_ids(which, bad):
    args = {"bank": [0, 0, 1], "row": [5, 5, 5], which: bad}
    error = (InputTypeError, OutOfRangeError)
    _raises(error, which, dram.row_buffer_outcomes, **args)


def test_row_buffer_outcomes_valid_results_unchanged():
    got = dram.row_buffer_outcomes([0, 0, 1, 0, 0], [5, 5, 5, 7, 7]).tolist()
    assert got == [1, 0, 1, 2, 0]
    b = np.array([3, 3, 2, 3], dtype=np.int64)
    r = np.array([9, 9, 1, 8], dtype=np.int64)
    assert dram.row_buffer_outcomes(b, r).tolist() == [1, 0, 1, 2]
    assert dram.row_buffer_outcomes(b.astype(float), r.astype(float)).tolist() == [
        1, 0, 1, 2,
    ]


def test_row_buffer_outcomes_keeps_large_python_int_ids_exact():
    # two different rows above 2**53 (equal as float64): a miss, then a conflict
    got = dram.row_buffer_outcomes([0, 0], [2**53 + 1, 2**53])
    assert got.tolist() == [1, 2]
    assert dram.row_buffer_outcomes([0, 0], [2**53 + 1, 2**53 + 1]).tolist() == [1, 0]


def test_row_buffer_outcomes_takes_max_id():
    assert dram.MAX_ID == 2**63 - 1
    assert dram.row_buffer_outcomes([0], [2**63 - 1]).tolist() == [1]
    assert dram.row_buffer_outcomes([2**63 - 1, 2**63 - 1], [3, 4]).tolist() == [1, 2]
    big = np.array([2**63 - 1], dtype=np.uint64)
    assert dram.row_buffer_outcomes(np.array([0]), big).tolist() == [1]


@pytest.mark.parametrize("which", ["bank", "row"])
@pytest.mark.parametrize(
    "bad",
    [[2**63], [2**64], [-1, 2**63], [-1, 2**64], [0, 10**400],
     np.array([2**63], dtype=np.uint64)],
)
def test_row_buffer_outcomes_refuses_ids_beyond_max_id(which, bad):
    n = len(bad)
    args = {"bank": [0] * n, "row": [5] * n, which: bad}
    message = str(_raises(OutOfRangeError, which, dram.row_buffer_outcomes, **args))
    assert str(dram.MAX_ID) in message and "float" not in message


@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2], {}])
def test_detect_mapping_needs_a_latency_function(bad):
    _raises(InputTypeError, "second_access_latency", dram.detect_mapping, bad,
            range(3, 10))


@pytest.mark.parametrize("bad", [None, 8, 1.5, float("nan"), True])
def test_detect_mapping_needs_a_list_of_bits(bad):
    oracle = dram.SimulatedDRAM(dram.address_map("k80_printed_row_low"), 1.0, 2.0, 3.0)
    _raises(InputTypeError, "address_bits", dram.detect_mapping,
            oracle.second_access_latency, bad)


# ---------------------------------------------------------------- refsim.kernels


def test_check_placement_names_kernel_and_placement():
    k = kernels.vecadd(256, 64)
    for bad in (None, "abc", 8, {}):
        _raises(InputTypeError, "kernel", kernels.check_placement, bad,
                k.sample_placement())
    for bad in (None, "abc", 8, [1, 2]):
        _raises(InputTypeError, "placement", kernels.check_placement, k, bad)
    _raises(OutOfRangeError, "placement", kernels.check_placement, k, {})
    bad_space = {**k.sample_placement(), next(iter(k.arrays)): "X"}
    _raises(UnknownNameError, "placement", kernels.check_placement, k, bad_space)
    assert kernels.check_placement(k, k.sample_placement()) is None


# ---------------------------------------------------------------- refsim.placements


@pytest.mark.parametrize("bad", [None, 8, 1.5, [1, 2], {}])
def test_parse_moves_needs_text(bad):
    _raises(InputTypeError, "text", placements.parse_moves, bad)


def test_parse_moves_names_text_for_a_bad_move():
    _raises(OutOfRangeError, "text", placements.parse_moves, "abc")
    assert placements.parse_moves("A:G->T;B:G->2T") == {"A": "T", "B": "2T"}


# ---------------------------------------------------------------- refsim.simulator


@pytest.fixture(scope="module")
def result():
    return S.simulate("vecAdd", "vecAdd_T")


@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2], {}])
def test_block_linear_and_kernel_streams_name_tr_and_rm(bad):
    tr = kernels.vecadd(256, 64).trace()
    _raises(InputTypeError, "tr", S.block_linear, bad, S.machine())
    _raises(InputTypeError, "rm", S.block_linear, tr, bad)
    _raises(InputTypeError, "tr", S.kernel_streams, bad, S.machine())
    if bad is not None:  # None: the default machine
        _raises(InputTypeError, "rm", S.kernel_streams, tr, bad)


@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2], {}])
def test_dram_log_functions_need_a_dram_log(bad):
    _raises(InputTypeError, "log", S.lindley_waits, bad)
    _raises(InputTypeError, "log", S.littles_law, bad, 0.0, 100.0)


def test_dram_log_functions_name_missing_columns_and_bad_numbers(result):
    log = result.dram_log
    _raises(DataError, "log", S.lindley_waits, log.drop(columns="service_ns"))
    _raises(DataError, "log", S.littles_law, log.drop(columns="wait_ns"), 0.0, 10.0)
    nan = log.assign(arrival_ns=np.nan)
    _raises(OutOfRangeError, "log", S.lindley_waits, nan)
    _raises(OutOfRangeError, "log", S.littles_law, nan, 0.0, 10.0)
    text = log.assign(service_ns="x")
    _raises(InputTypeError, "log", S.lindley_waits, text)


def _small_log():
    """A hand-made FCFS dram_log: banks 0, 1 and 2, waits by the Lindley recursion."""
    return pd.DataFrame(
        {
            "bank": [0, 0, 0, 1, 1, 2],
            "arrival_ns": [0.0, 1.0, 4.0, 2.0, 2.5, 7.0],
            "service_ns": [3.0, 3.0, 1.0, 2.0, 2.0, 4.0],
            "wait_ns": [0.0, 2.0, 2.0, 0.0, 1.5, 0.0],
        }
    )


def test_dram_log_functions_valid_results_unchanged():
    # the values the code at HEAD (before the checks) gives for the same log
    log = _small_log()
    assert S.lindley_waits(log).tolist() == [0.0, 2.0, 2.0, 0.0, 1.5, 0.0]
    assert S.littles_law(log, 0.0, 10.0) == pytest.approx((1.95, 2.05), rel=1e-12)
    assert S.littles_law(log, 1.5, 6.0) == pytest.approx((3.0, 17 / 9), rel=1e-12)
    assert S.littles_law(log, 0, 11) == pytest.approx((41 / 22, 41 / 22), rel=1e-12)


def test_dram_log_functions_simulated_results_unchanged(result):
    log = result.dram_log
    assert len(log) == 1536
    assert np.allclose(S.lindley_waits(log), log["wait_ns"], atol=1e-9)
    assert float(S.lindley_waits(log).sum()) == pytest.approx(75957.48571428466)
    stop = float(log["arrival_ns"].max()) + 1.0
    assert S.littles_law(log, 0.0, stop) == pytest.approx(
        (90.34384935946791, 90.36271029479744), rel=1e-12
    )


def test_dram_log_missing_columns_are_named():
    log = _small_log()
    message = str(_raises(DataError, "log", S.lindley_waits, log.drop(columns="bank")))
    assert _names("bank").search(message)
    message = str(
        _raises(DataError, "log", S.littles_law, log.drop(columns="wait_ns"), 0, 10)
    )
    assert _names("wait_ns").search(message)


def test_reference_row_needs_a_placement_test_row():
    for bad in (None, 8, "abc", [1, 2]):
        _raises(InputTypeError, "test", S.reference_row, bad)
    message = str(_raises(DataError, "test", S.reference_row, {"set": "x"}))
    assert _names("kernel").search(message) and _names("moves").search(message)
    _raises(InputTypeError, "test", S.reference_row, pd.DataFrame())
    row = next(
        r for r in placements.tests(None, counted_only=False) if r["test"] == "vecAdd_T"
    )
    assert S.reference_row(row)["test"] == "vecAdd_T"


@pytest.mark.parametrize("bad", [None, 8, 1.5, float("nan"), True, "abc", {}])
def test_streams_from_records_needs_a_list_of_warps(bad):
    _raises(InputTypeError, "records_per_warp", S.streams_from_records, bad)


@pytest.mark.parametrize(
    "warp", [np.array([1, 2]), np.array([[1, 2], [3, 4]]), np.arange(5.0)]
)
def test_streams_from_records_names_a_numpy_warp_of_no_records(warp):
    # `not warp` on such an array raised numpy's bare "truth value ... is ambiguous"
    _raises(InputTypeError, "records_per_warp[0]", S.streams_from_records, [warp])
    other = [(S.ALU, 1, False, 1.0, [])]
    _raises(InputTypeError, "records_per_warp[1]", S.streams_from_records,
            [other, warp], warps_per_block=2)


@pytest.mark.parametrize("warp", [[], (), np.array([]), iter([])])
def test_streams_from_records_names_an_empty_warp(warp):
    _raises(OutOfRangeError, "records_per_warp[0]", S.streams_from_records, [warp])


@pytest.mark.parametrize("warp", [None, 8, 1.5, "abc", b"ab", {}, {"a": 1}])
def test_streams_from_records_names_a_warp_that_is_not_a_list(warp):
    _raises(InputTypeError, "records_per_warp[0]", S.streams_from_records, [warp])


def test_streams_from_records_takes_a_warp_in_a_numpy_array_or_an_iterator():
    recs = [(S.LDU, 1, False, 1.0, [0, 32]), (S.ALU, 2, True, 1.0, [])]
    warp = np.empty(len(recs), dtype=object)
    warp[:] = recs
    a = S.streams_from_records([recs])
    for b in (S.streams_from_records([warp]), S.streams_from_records([iter(recs)])):
        for f in dataclasses.fields(a):
            assert np.array_equal(getattr(a, f.name), getattr(b, f.name)), f.name
    assert a.n_warps == b.n_warps == 1 and b.req_addr.tolist() == [0, 32]


@pytest.mark.parametrize(
    "bad",
    [
        [1, 2],
        [[8]],
        [[(S.ALU, 1, False)]],
        [[(S.ALU, 1, False, "x", [])]],
        [[(S.LDU, 1, False, 1.0, ["x"])]],
        [[(S.LDU, 1, False, 1.0, 5)]],
    ],
)
def test_streams_from_records_names_the_bad_record(bad):
    _raises(InputTypeError, "records_per_warp[0]", S.streams_from_records, bad)


def test_streams_from_records_valid_result_unchanged():
    st = S.streams_from_records(
        [[(S.LDU, 1, False, 1.0, [0, 32]), (S.ALU, 2, True, 1.0, [])]] * 2,
        warps_per_block=2,
    )
    assert st.n_warps == 2 and st.req_addr.tolist() == [0, 32, 0, 32]
    assert st.lsu.tolist() == [1.0, 1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="kind"):
        S.streams_from_records([[(99, 1, False, 1.0, [])]])


def test_window_ipc_names_issue_when_trips_do_not_advance():
    t = sim.simulate(_sm(), sim.alpha_program(2), 4, 200)
    assert S.window_ipc(t.warp, t.seq, t.issue, 3, 1, 3) > 0
    for bad in (0, -0.0, 1e300):
        _raises(OutOfRangeError, "issue", S.window_ipc, t.warp, t.seq, bad, 3, 1, 3)


@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2], {"a": 1}])
def test_ref_machine_checks_sources(bad):
    m = S.machine()
    fields = {
        f.name: getattr(m, f.name) for f in dataclasses.fields(m) if f.name != "sources"
    }
    _raises(InputTypeError, "sources", S.RefMachine, **fields, sources=bad)
