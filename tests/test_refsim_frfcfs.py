"""Switches that make the reference simulator's memory harder or more realistic (issue
39), all on in the book's reference (the defaults of ``refsim.machine()``): first-ready FCFS DRAM scheduling (a queued request to the open
row is served before older ones to other rows) and XOR address hashing of channel and
bank with the row."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels.engines.refsim import dram, simulator as refsim
from gpumodels.ground.errors import OutOfRangeError, UnknownNameError

RM = refsim.machine()
AMAP = dram.address_map(refsim.MAPPING)


def _addr(bank_field=0, row=0, column=0):
    def put(value, bits):
        return sum(((value >> i) & 1) << b for i, b in enumerate(bits))

    return put(column, AMAP.column_bits) | put(row, AMAP.row_bits) | put(
        bank_field, AMAP.bank_bits
    )


def _run(policy, rows, address_hash="none"):  # hashing off: rows stay in bank 0
    """One warp loads one sector per row of ``rows`` from bank 0, all in flight at once."""
    recs = [[(refsim.LDG, 1, False, 1.0, [_addr(row=r, column=i)]) for i, r in enumerate(rows)]]
    rm = RM.with_(sm_count=1, launch_jitter=0, dram_policy=policy, address_hash=address_hash)
    return refsim.run_streams(refsim.streams_from_records(recs), rm)


def test_frfcfs_is_the_reference_default():
    assert RM.dram_policy == "frfcfs"
    assert refsim.DRAM_POLICIES == ("fcfs", "frfcfs")


def test_a_later_request_to_the_open_row_goes_first():
    rows = [1, 2, 1]  # A opens row 1; B (row 2) waits; C (row 1) arrives behind B
    fcfs = _run("fcfs", rows).dram_log
    fr = _run("frfcfs", rows).dram_log
    assert fcfs["outcome"].tolist() == ["miss", "conflict", "conflict"]
    assert fr["outcome"].tolist() == ["miss", "hit", "conflict"]
    # the log is in service order: A, then C, then B, although B arrived before C
    a, c, b = fr["arrival_ns"]
    assert a < b < c
    assert _run("frfcfs", rows).time_ns < _run("fcfs", rows).time_ns


def test_without_a_row_hit_waiting_it_is_fcfs():
    rows = [1, 2, 3, 4]
    a, b = _run("fcfs", rows), _run("frfcfs", rows)
    assert a.dram_log.equals(b.dram_log) and a.time_ns == b.time_ns


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=24))
def test_frfcfs_serves_every_request_once_and_never_more_conflicts(rows):
    # all loads are queued while the first is served, so FR-FCFS visits each row once
    a, b = _run("fcfs", rows), _run("frfcfs", rows)
    assert len(b.dram_log) == len(rows) == len(a.dram_log)
    conflicts = [int((r.dram_log["outcome"] == "conflict").sum()) for r in (a, b)]
    assert conflicts[1] <= conflicts[0]
    assert np.all(b.dram_log["wait_ns"] >= 0)


def test_an_unknown_policy_is_refused():
    with pytest.raises(UnknownNameError, match="dram_policy"):
        RM.with_(dram_policy="fifo")


def test_xor_hashing_spreads_rows_of_one_bank_over_channels_and_banks():
    rows = list(range(16))  # sixteen rows of bank 0, channel 0
    plain, hashed = _run("fcfs", rows), _run("fcfs", rows, "xor")
    assert plain.dram_log["bank"].nunique() == 1
    assert hashed.dram_log["bank"].nunique() > 8
    assert (hashed.dram_log["outcome"] == "conflict").sum() < (
        plain.dram_log["outcome"] == "conflict"
    ).sum()
    assert hashed.time_ns < plain.time_ns
    assert hashed.dram_log["wait_ns"].sum() < plain.dram_log["wait_ns"].sum() / 10
    # row 0 keeps its channel and bank: hashing only permutes
    assert _run("fcfs", [0], "xor").dram_log["bank"].tolist() == [0]


def test_an_unknown_hash_is_refused():
    assert RM.address_hash == "xor" and refsim.ADDRESS_HASHES == ("none", "xor")
    with pytest.raises(UnknownNameError, match="address_hash"):
        RM.with_(address_hash="crc")


def _replays(replay_issue, lsu=32.0, alus=4000):
    """One warp: a load with ``lsu - 1`` replays, then arithmetic long enough to
    outlast the load."""
    recs = [[(refsim.LDG, 1, False, lsu, [_addr(row=1)]), (refsim.ALU, alus, False, 1.0, [])]]
    rm = RM.with_(
        sm_count=1, launch_jitter=0, replay_issue=replay_issue, address_hash="none"
    )
    return refsim.run_streams(refsim.streams_from_records(recs), rm)


def test_replays_that_take_issue_slots_delay_the_scheduler():
    free, slots = _replays("free"), _replays("slots")
    P = RM.issue_per_scheduler
    blocked = -(-(32 - P) // P)  # whole cycles the 31 replays need beyond the first
    assert slots.cycles - free.cycles == pytest.approx(blocked)
    assert slots.counters["inst_issued"] == free.counters["inst_issued"]
    # no replays: no difference
    assert _replays("slots", lsu=1.0).cycles == _replays("free", lsu=1.0).cycles
    assert RM.replay_issue == "slots" and refsim.REPLAY_ISSUE == ("free", "slots")
    with pytest.raises(UnknownNameError, match="replay_issue"):
        RM.with_(replay_issue="all")


def _block(first, second, warps_per_block=2):
    st_ = refsim.streams_from_records(
        [first, second], warps_per_block=warps_per_block, resident_blocks_per_sm=2
    )
    return refsim.run_streams(st_, RM.with_(sm_count=1, launch_jitter=0))


def test_a_barrier_holds_a_warp_until_its_block_arrives():
    long_, short = (refsim.ALU, 2000, False, 1.0, []), (refsim.ALU, 1, False, 1.0, [])
    bar = (refsim.BAR, 1, False, 1.0, [])
    free = _block([long_, short], [short, short])
    synced = _block([long_, bar, short], [short, bar, short])
    # without the barrier the short warp is done in a few cycles; with it, it waits
    # for the long one
    assert free.warp_finish[1] <= 20
    assert synced.warp_finish[1] >= 2000
    assert synced.counters["inst_executed"] == free.counters["inst_executed"] + 2
    # warps of different blocks do not wait for each other
    apart = _block([long_, bar, short], [short, bar, short], warps_per_block=1)
    assert apart.warp_finish[1] <= 20
    # a barrier as a warp's last record releases it too
    last = _block([long_, bar], [short, bar])
    assert last.warp_finish[1] >= 2000 and np.all(np.isfinite(last.warp_finish))


def test_warps_of_a_block_must_reach_the_same_number_of_barriers():
    bar, alu = (refsim.BAR, 1, False, 1.0, []), (refsim.ALU, 1, False, 1.0, [])
    with pytest.raises(ValueError, match="block 0 reach different numbers of barriers"):
        refsim.streams_from_records([[alu, bar], [alu]], warps_per_block=2)
    refsim.streams_from_records([[alu, bar], [alu]], warps_per_block=1)  # two blocks


def _fields_of(st_):
    return {k: getattr(st_, k) for k in st_.__dataclass_fields__}


def test_streams_built_directly_refuse_uneven_barriers_bad_kinds_and_low_lsu():
    # review finding 4: the checks live in Streams itself, not only in
    # streams_from_records, so a hand-built Streams cannot deadlock the simulator
    bar, alu = (refsim.BAR, 1, False, 1.0, []), (refsim.ALU, 1, False, 1.0, [])
    two_blocks = refsim.streams_from_records([[alu, bar], [alu]], warps_per_block=1)
    one_block = {**_fields_of(two_blocks), "blocks": 1, "warps_per_block": 2}
    with pytest.raises(OutOfRangeError, match=r"block 0 reach different.*\[1, 0\]"):
        refsim.Streams(**one_block)
    # a later block is named; even counts (two barriers each) pass
    w = [[alu, bar, bar], [bar, alu, bar], [alu, bar], [alu]]
    two = refsim.streams_from_records(w, warps_per_block=1)
    with pytest.raises(OutOfRangeError, match="block 1 reach"):
        refsim.Streams(**{**_fields_of(two), "blocks": 2, "warps_per_block": 2})
    ok = refsim.streams_from_records(w[:2], warps_per_block=2)
    assert refsim.Streams(**_fields_of(ok)).n_warps == 2
    # kinds past bar.sync
    kind = two_blocks.kind.copy()
    kind[0] = len(refsim.KIND_NAMES)
    with pytest.raises(OutOfRangeError, match=r"Streams.kind .* got 9 at record 0"):
        refsim.Streams(**{**_fields_of(two_blocks), "kind": kind})
    # a memory record holds the load/store unit at least one cycle; ALU and BAR may not
    ld = refsim.streams_from_records([[(refsim.LDG, 1, False, 1.0, [_addr(row=1)])]])
    for low in (0.0, 0.5):
        with pytest.raises(OutOfRangeError, match="Streams.lsu must be >= 1"):
            refsim.Streams(**{**_fields_of(ld), "lsu": np.array([low])})
        with pytest.raises(OutOfRangeError, match=r"records_per_warp\[0\]\[0\] lsu"):
            refsim.streams_from_records([[(refsim.LDS, 1, False, low, [])]])
    assert refsim.streams_from_records([[(refsim.ALU, 1, False, 0.0, [])]]).lsu[0] == 0
    # warp_rec must be a CSR over the records
    with pytest.raises(ValueError, match="warp_rec"):
        refsim.Streams(**{**_fields_of(ld), "warp_rec": np.array([0, 2])})


def test_kernel_streams_satisfy_the_streams_checks():
    # every memory record the kernels generate holds the load/store unit >= 1 cycle
    for name, make in refsim.GENERATORS.items():
        st_ = refsim.kernel_streams(make().trace())  # built through Streams's checks
        mem = (st_.kind != refsim.ALU) & (st_.kind != refsim.BAR)
        assert mem.any() and st_.lsu[mem].min() >= 1, name
