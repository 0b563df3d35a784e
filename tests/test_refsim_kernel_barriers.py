"""The synthetic kernels' ``__syncthreads()`` (issue 39): where the CUDA sources call
it, the trace holds one ``bar.sync`` per warp, and the streams the simulator runs
hold it in the right place."""

import dataclasses

import numpy as np
import pytest

from gpumodels.engines.refsim import kernels as K
from gpumodels.engines.refsim import simulator as refsim

RM = refsim.machine()

# __syncthreads() per thread in the CUDA sources, at the book's default sizes:
# FFT512: two transposes, four syncs in the first and three in the second (mask 0xE:
# none after its last load); SHOC reduce and scan's reduce at 256 threads: after the
# store, then before the levels s = 128, 64 (s = 32 follows a sync too, the
# warp-synchronous tail has none); reorderData: one after the keys, values and offsets
# are loaded; the SDK convolution: one after the tile; matrixMul: two per tile.
SOURCE_SYNCS = {
    "fft": 7,
    "reduction": 3,
    "scan": 3,
    "sort": 1,
    "convolutionSeparable": 1,
    "convolutionColumns": 1,
    "matrixMul": 2 * (K.kernel("matrixMul").arrays["A"].dims[0] // 16),
}


@pytest.mark.parametrize("bench", list(K.GENERATORS))
def test_every_warp_reaches_each_barrier_of_its_kernel(bench):
    k = K.kernel(bench)
    assert k.syncs == SOURCE_SYNCS.get(bench, 0)
    tr = k.trace()
    bars = tr.barriers
    assert bars.shape == (k.syncs * k.n_warps, 2)
    per_warp = np.bincount(bars[:, 0], minlength=k.n_warps)
    assert (per_warp == k.syncs).all()


def _without_syncs(k):
    """The kernel with every ``sync`` flag cleared."""
    ops = tuple(K.Op(o.array, o.idx, o.store, o.alu, o.guarded) for o in k.ops)
    return K.Kernel(k.name, k.blocks, k.threads_per_block, k.arrays, ops, k.tail_alu)


def test_a_barrier_is_an_executed_instruction_before_the_ops_arithmetic():
    k = K.kernel("sort")
    tr = k.trace()
    unsynced = _without_syncs(k)
    plain = unsynced.trace()
    assert (tr.executed == plain.executed + 1).all()
    # warp 0: two keys and two values loads, the offsets load and its shared store
    # come first; the barrier follows them, before the scatter's arithmetic
    w0 = tr.pos[tr.warp == 0]
    assert tr.barriers[tr.barriers[:, 0] == 0, 1].tolist() == [w0[5] + 1]


def test_streams_hold_the_barrier_between_the_store_and_the_next_load():
    st = refsim.kernel_streams(K.kernel("sort").trace(), RM)
    kinds = st.kind[st.warp_rec[0] : st.warp_rec[1]].tolist()
    mem = [x for x in kinds if x != refsim.ALU]
    assert mem[:8] == [refsim.LDG] * 5 + [refsim.STS, refsim.BAR, refsim.LDS]
    # the barrier waits for the warp's loads (the store before it needs its data)
    assert st.dep[st.warp_rec[0] + kinds.index(refsim.BAR)]
    # every warp: one barrier
    bar = st.kind == refsim.BAR
    per_warp = np.add.reduceat(bar.astype(int), st.warp_rec[:-1])
    assert (per_warp == 1).all()


def test_a_copy_into_shared_memory_ends_at_a_barrier():
    k = K.kernel("triad")
    tr = k.trace({"B": "S"})
    st = refsim.kernel_streams(tr, RM)
    kinds = st.kind[st.warp_rec[0] : st.warp_rec[1]].tolist()
    first_bar = kinds.index(refsim.BAR)
    assert set(kinds[:first_bar]) == {refsim.LDG, refsim.STS}
    assert refsim.LDS in kinds[first_bar:]
    assert (st.kind == refsim.BAR).sum() == k.n_warps


def test_barriers_slow_a_block_down_not_up_and_change_no_count():
    k = K.kernel("reduction")
    unsynced = _without_syncs(k)
    rm = RM.with_(launch_jitter=0)
    a = refsim.run_streams(refsim.kernel_streams(k.trace(), rm), rm)
    b = refsim.run_streams(refsim.kernel_streams(unsynced.trace(), rm), rm)
    assert a.counters["inst_executed"] == b.counters["inst_executed"] + 3 * k.n_warps
    for c in ("dram_reads", "global_load_requests", "shared_replays"):
        assert a.counters[c] == b.counters[c]
    assert a.time_ns >= b.time_ns


def test_a_trace_refuses_barriers_without_two_columns():
    tr = K.kernel("sort").trace()
    with pytest.raises(ValueError, match="barriers"):
        type(tr)(**{**tr.__dict__, "barriers": np.zeros((3, 3), np.int64)})
    beyond = np.array([[tr.kernel.n_warps, 0]])
    with pytest.raises(ValueError, match="barriers warps must be in"):
        type(tr)(**{**tr.__dict__, "barriers": beyond})


# ---- the model's traffic, computed once for every DRAM reading (issue 39's study) ----

from gpumodels.papers.huang_li import analysis as A  # noqa: E402


def test_traffic_does_not_depend_on_the_clock_and_analyze_gives_the_same_from_it():
    tr = K.kernel("spmv").trace({"d_vec": "G"})
    boost, base = A.traffic(tr, A.k80("boost")), A.traffic(tr, A.k80("base"))
    assert np.array_equal(boost.dram_addr, base.dram_addr)
    assert np.array_equal(boost.dram_time, base.dram_time) and boost.cpi == base.cpi
    for kw in ({}, {"mapping": "k80_printed_row_low", "queue_form": "printed"}):
        direct, reused = A.analyze(tr, A.k80("base"), **kw), A.analyze(boost, A.k80("base"), **kw)
        for f in ("dram_lat", "row", "misses", "replays", "requests", "dram_requests", "saturated"):
            assert getattr(direct, f) == getattr(reused, f), f
    assert np.all(np.diff(boost.dram_time) >= 0)  # in time order


def test_traffic_refuses_another_rule_and_a_mismatched_length():
    t = A.traffic(K.kernel("triad").trace(), A.k80())
    with pytest.raises(ValueError, match="rule must be the Traffic's rule"):
        A.analyze(t, A.k80(), rule="segments")
    with pytest.raises(ValueError, match="dram_addr and Traffic.dram_time"):
        type(t)(**{**t.__dict__, "dram_time": t.dram_time[:-1]})
    with pytest.raises(ValueError, match="rule"):
        A.traffic(K.kernel("triad").trace(), A.k80(), rule="lines")


def test_traffic_by_rule_equals_one_call_per_rule():
    # global, texture and shared rows; the gathers make the two rules differ
    tr = K.kernel("spmv").trace()
    both = A.traffic_by_rule(tr, A.k80())
    assert tuple(both) == A.RULES
    for rule, t in both.items():
        alone = A.traffic(tr, A.k80(), rule=rule)
        for f in dataclasses.fields(t):
            x, y = getattr(t, f.name), getattr(alone, f.name)
            assert np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y, f.name
        assert not t.dram_addr.flags.writeable and not t.dram_time.flags.writeable
    p, s = both["printed"].replays, both["segments"].replays
    assert p["1_global"] != s["1_global"] and p is not s
    assert {k: v for k, v in p.items() if k != "1_global"} == {
        k: v for k, v in s.items() if k != "1_global"
    }
    assert A.traffic_by_rule(tr, rules=["segments"]).keys() == {"segments"}
    with pytest.raises(ValueError, match=r"rules\[1\] must be one of"):
        A.traffic_by_rule(tr, rules=("printed", "lines"))
    with pytest.raises(ValueError, match="rules must name at least one"):
        A.traffic_by_rule(tr, rules=())


def test_a_profile_refuses_the_traffic_of_another_placement():
    from gpumodels.papers.huang_li import model

    k = K.kernel("triad")
    other = A.traffic(k.trace({"B": "S"}), A.k80())
    with pytest.raises(ValueError, match="traffic must belong to triad"):
        model.profile(k, traffic=other)
    same = model.profile(k, traffic=A.traffic(k.trace(), A.k80()))
    assert same.analysis.dram_lat == model.profile(k).analysis.dram_lat


# ---- each mechanism is a switch; the cached switch study re-simulates ----


def test_ignored_barriers_issue_as_plain_instructions():
    tr = K.kernel("reduction").trace()
    on = refsim.kernel_streams(tr, RM)
    off = refsim.kernel_streams(tr, RM.with_(barriers="ignore"))
    assert (on.kind == refsim.BAR).sum() == 3 * K.kernel("reduction").n_warps
    assert (off.kind == refsim.BAR).sum() == 0
    executed = lambda st: int(st.count[st.kind != refsim.BAR].sum() + (st.kind == refsim.BAR).sum())
    assert executed(on) == executed(off)
    with pytest.raises(ValueError, match="barriers"):
        RM.with_(barriers="wait")


def test_the_switch_settings_name_every_mechanism_and_its_off_value():
    assert refsim.SWITCHES == {
        "dram_policy": "fcfs",
        "address_hash": "none",
        "replay_issue": "free",
        "barriers": "ignore",
    }
    for name, off in refsim.SWITCHES.items():
        assert getattr(RM, name) != off  # the reference has every mechanism on


def test_cached_switch_rows_resimulate_identically():
    from gpumodels.ground.data import read_rows

    cached = {(r["test"], r["setting"]): r for r in read_rows(refsim.SWITCH_CACHE)}
    jobs = refsim.switch_jobs()
    assert len(cached) == len(jobs) == 17 * len(refsim.SWITCH_SETTINGS)
    for test, setting in [(t, s) for t, s in jobs if t["test"] == "triad_1"][:6]:
        new = refsim.switch_row(test, setting)
        assert {k: str(v) for k, v in new.items()} == cached[(test["test"], setting)]
    table = refsim.switch_table()
    assert len(table) == 17 and (table.filter(like="time ratio") > 0).all().all()


# ---- a default kernel's traffic, kept once per checkout (model.profile and predict) ----


def test_placement_traffic_is_the_traffic_of_the_default_kernels_trace():
    k = K.kernel("spmv")
    assert K.default_benchmark(k) == "spmv"
    assert K.default_benchmark(K.spmv()) is None  # a fresh build is another kernel
    assert K.default_benchmark(dataclasses.replace(k, name="other")) is None
    moves = {"d_vec": "G"}
    kept = A.placement_traffic("spmv", moves)
    direct = A.traffic_by_rule(k.trace(moves), A.k80())
    assert A.placement_traffic("spmv", moves) is not kept  # fresh records each call
    for rule in A.RULES:
        for f in dataclasses.fields(direct[rule]):
            x, y = getattr(kept[rule], f.name), getattr(direct[rule], f.name)
            assert np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y, f.name
    # the clock changes nothing; another machine is computed, not looked up
    base = A.placement_traffic("spmv", moves, A.k80("base"))
    assert base["printed"].dram_addr is kept["printed"].dram_addr  # the kept arrays
    other = dataclasses.replace(A.k80(), sm_count=4)
    mine = A.placement_traffic("spmv", moves, other)
    assert mine["printed"].dram_addr is not kept["printed"].dram_addr
    assert mine["printed"].active_sms == 4
    # each call its own counts: a caller's edit never reaches the kept result
    kept["printed"].requests["G"] = -1
    assert A.placement_traffic("spmv", moves)["printed"].requests["G"] >= 0
    assert not kept["printed"].dram_addr.flags.writeable
    # a default kernel cannot be changed in place, and a replaced array entry
    # makes it another kernel
    with pytest.raises(ValueError, match="read-only"):
        k.ops[0].idx[0, 0] = 1
    changed = dict(k.arrays)
    try:
        k.arrays["d_vec"] = dataclasses.replace(k.arrays["d_vec"], n=1)
        assert K.default_benchmark(k) is None
    finally:
        k.arrays.clear()
        k.arrays.update(changed)
    assert K.default_benchmark(k) == "spmv"
    assert A.is_k80_traffic(A.k80("base")) and not A.is_k80_traffic(other)
    with pytest.raises(ValueError, match="benchmark must be one of"):
        A.placement_traffic("nope")
    with pytest.raises(ValueError, match="array must be one of"):
        A.placement_traffic("spmv", {"nope": "G"})


def test_profile_and_predict_use_the_kept_traffic_only_for_a_default_kernel():
    from gpumodels.papers.huang_li import model

    k = K.kernel("triad")
    fresh = K.triad()  # the same kernel, another object: nothing is looked up
    A.placement_traffic("triad")  # kept
    for rule in A.RULES:
        hits = A._placement_traffic.cache_info().hits
        a = model.profile(k, rule=rule)
        assert A._placement_traffic.cache_info().hits == hits + 1  # read, not computed
        b = model.profile(fresh, rule=rule)
        assert A._placement_traffic.cache_info().hits == hits + 1  # not looked up
        assert a.analysis.dram_lat == b.analysis.dram_lat and a.counters == b.counters
        pa = model.predict(a, {"B": "T"}, variant="sim2012")
        pb = model.predict(b, {"B": "T"}, variant="sim2012")
        assert pa.t == pb.t and pa.analysis.misses == pb.analysis.misses
