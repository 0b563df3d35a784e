"""Volkov chapters 5-6: occupancy tracking, occupancy control, pointer chasing, derived parameters."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels import published
from gpumodels.papers.volkov import experiment as ex
from gpumodels.papers.volkov import parameters as p6

PRODUCT = {"G80": "8800GTX", "GT200": "GTX280", "Fermi": "GTX480", "Kepler": "GTX680", "Maxwell": "GTX980"}


# ---- occupancy tracking (§5.6)

@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 30)), min_size=1, max_size=25))
def test_trace_counts_resident_warps(warps):
    start = np.array([s for s, _ in warps], dtype=float)
    end = start + np.array([d for _, d in warps], dtype=float)
    tr = ex.occupancy_trace(start, end)
    probe = np.arange(-1, 82) + 0.5
    brute = ((start[:, None] <= probe) & (end[:, None] > probe)).sum(axis=0)
    assert np.array_equal(tr.at(probe), brute)
    assert 0 <= tr.mean <= tr.max <= len(warps) and tr.warps[-1] == 0


def test_replacement_at_the_same_clock_does_not_double_count():
    tr = ex.occupancy_trace([0, 10], [10, 20])
    assert tr.max == 1 and tr.time.tolist() == [0, 10, 20]


def test_timing_per_sm_spans_and_throughput():
    # SM 0 clock starts near 1000, SM 1 near 50: spans 1000 and 900; the longest counts
    t = ex.timing([1000, 1000, 50, 60], [2000, 1500, 950, 900], sm=[0, 0, 1, 1], instructions_per_warp=10)
    assert t.time == 1000 and t.span.tolist() == [1000, 900]
    assert t.mean_warp_latency == pytest.approx((1000 + 500 + 900 + 840) / 4)
    assert t.throughput == pytest.approx(40 / (1000 * 2)) and t.max_occupancy == 2
    assert t.traces[0].fraction_below(2) == pytest.approx(0.5)


@pytest.mark.parametrize("kwargs,match", [
    (dict(start=[0, 1], end=[1]), "equal length"),
    (dict(start=[5], end=[4]), "end must be >= start"),
    (dict(start=[0, 0], end=[1, 1], sm=[0]), "one SM id per warp"),
    (dict(start=["a"], end=[1]), "arrays of numbers"),
])
def test_timing_rejects_bad_timestamps(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ex.timing(**kwargs)


def test_tracking_the_simulated_phases_reaches_full_occupancy():
    tr = ex.phases_run("Kepler", iterations=2, rounds=3)
    t = ex.timing(tr.warp_start, tr.warp_end)
    assert t.max_occupancy == 64 and t.warps == 64 * 3
    assert np.all(tr.warp_end > tr.warp_start)


# ---- load imbalance (§5.8, Fig. 5.2)

@pytest.mark.parametrize("n", [4, 5, 12, 16, 17, 21, 32])
def test_simulated_imbalance_matches_the_closed_form(n):
    tr = ex.imbalance_run(n, instructions=100, blocks=3)
    t = ex.timing(tr.warp_start, tr.warp_end, instructions_per_warp=100)
    assert t.throughput == pytest.approx(ex.imbalance_bound(n, 4, 9, 0.25), rel=0.02)


def test_seventeen_warps_lose_fifteen_percent():
    assert ex.imbalance_bound(17, 4, 9, 0.25) == pytest.approx(0.85)
    assert ex.imbalance_bound(12, 4, 9, 0.25) == ex.imbalance_bound(16, 4, 9, 0.25) == 1.0


# ---- occupancy control (§5.7)

def test_shared_memory_caps():
    assert ex.shared_memory_for_blocks("3.0", 128, 16) == 0
    req = ex.shared_memory_for_blocks("3.0", 128, 14)
    assert 3072 < req <= 3328
    assert ex.shared_memory_for_blocks("3.0", 128, 15) is None          # 3072 B gives 16, 3073 B gives 14
    assert ex.shared_memory_for_blocks("1.0", 32, 7) is None            # G80/GT200: no 7 blocks/SM
    assert ex.shared_memory_for_blocks("1.3", 32, 7) is None
    assert ex.shared_memory_for_blocks("5.2", 32, 1) is None            # Maxwell: no single block/SM
    assert ex.shared_memory_for_blocks("5.2", 32, 2) is not None
    with pytest.raises(ValueError, match="blocks"):
        ex.shared_memory_for_blocks("3.0", 128, 17)


def test_occupancy_control_table_marks_unreachable_caps():
    t = ex.occupancy_control("1.0", 64)
    assert list(t.blocks_per_sm) == list(range(1, 9))
    assert t.set_index("blocks_per_sm").shared_mem_request.isna().loc[7]
    assert (t.warps_per_sm == 2 * t.blocks_per_sm).all()


# ---- pointer chasing (§5.10, §6.3, §6.7)

@pytest.mark.parametrize("ilp", [1, 2, 4])
def test_streaming_chase_reads_each_entry_once_in_coalesced_steps(ilp):
    s = ex.streaming_chase(1 << 14, 64, 6, ilp=ilp)
    w = s.walk()
    flat = w.ravel()
    assert len(np.unique(flat)) == flat.size                          # no entry twice (no cache hits)
    assert s.spacing % 32 == 0 and s.iterations == s.spacing // (ilp * 64)
    per_block = w.reshape(6, -1)
    for j in range(6):                                                # block j sweeps [j·spacing, (j+1)·spacing)
        assert per_block[j].min() == j * s.spacing and per_block[j].max() < (j + 1) * s.spacing
    warp0 = w[0, :32 * ilp:ilp, 0]                                    # chain 0 of the first 32 threads
    assert np.array_equal(warp0, np.arange(32))


def test_streaming_chase_matches_volkovs_rule():
    s = ex.streaming_chase(4096, 128, 2)
    assert np.array_equal(s.next[:10], np.arange(10) + 128)           # entry i holds i + N
    assert s.starts[1, 5] == 5 + 1 * s.spacing                        # thread i of block j: i + j·spacing


@pytest.mark.parametrize("kwargs,match", [
    (dict(n_entries=4096, threads_per_block=64, blocks=2, spacing=100), "multiple of 32"),
    (dict(n_entries=4096, threads_per_block=64, blocks=100), "at least one step"),
    (dict(n_entries=4096, threads_per_block=64, blocks=4, spacing=2048), "exceeds n_entries"),
    (dict(n_entries=4096, threads_per_block=2048, blocks=1), "threads_per_block"),
])
def test_streaming_chase_rejects_bad_setups(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ex.streaming_chase(**kwargs)


def test_random_chase_is_one_loop_and_seeded():
    r = ex.random_chase(3000, 64, seed=3)
    cur, seen = 0, set()
    for _ in range(3000):
        seen.add(cur)
        cur = r.next[cur]
    assert cur == 0 and len(seen) == 3000
    assert np.array_equal(r.next, ex.random_chase(3000, 64, seed=3).next)
    assert not np.array_equal(r.next, ex.random_chase(3000, 64, seed=4).next)
    assert r.starts[0, :3].tolist() == [0, 32, 64]


# ---- chapter 6: derived numbers

def test_table_6_4_linear_column():
    t = p6.table_6_4()
    got = {f"v16.t6_4.linear.{PRODUCT[g]}": v for g, v in t.linear_printed_rounding.items()}
    published.check(published.compare(got))


def test_refined_model_matches_the_measured_saturation():
    t = p6.table_6_4()
    assert (abs(t.model_pct_at_linear - t.pct_at_linear) <= 2.5).all()
    assert (abs(t.model_at_95 - t.at_95) <= 2.2).all() and (t.model_at_90 <= t.at_90).all()


def test_table_6_7_and_ratios():
    got = {f"v16.t6_7.per_transaction.{PRODUCT[g]}": v for g, v in p6.latency_per_transaction().items()}
    published.check(published.compare(got, atol=0.6))
    r = p6.stream_over_random()
    others = [v for g, v in r.items() if g != "GT200"]
    assert 27.5 <= min(others) < 28.5 and 32.5 <= max(others) < 33.5 and round(r["GT200"]) == 56


def test_saturation_factors_are_about_1_3_and_1_5():
    f = p6.saturation_factors()
    assert abs(f["median_90"] - 1.3) <= 0.1 and abs(f["median_95"] - 1.5) <= 0.1
    assert f["max_90"] > 1.6                                           # the G80 is the outlier


def test_mem_thru_from_gbs_reproduces_table_4_1():
    t = p6.mem_thru_from_gbs()
    assert np.allclose(t.from_table_6_4, t.table_4_1, rtol=0.002)
    assert abs(t.loc["Fermi", "from_table_6_1"] / t.loc["Fermi", "table_4_1"] - 1) > 0.01   # stated in the book


def test_bank_conflicts():
    b = p6.bank_conflicts()
    assert (b.throughput_ratio == 2).all()
    assert b.latency_increase.tolist() == [16, 16, 32, 32, 2]
    assert round(b.latency_increase_pct.min()) == 8 and round(b.latency_increase_pct.max()) == 133
    assert (b.loc[["Fermi", "Kepler"], "occupancy_ratio"] < 1).all()


def test_table_6_6_derived_quantities():
    d = p6.latency_percentiles().set_index("throughput_gbs")
    assert d.loc[3.8, "mid90"] == 32 and round(d.loc[144, "pct_of_peak"]) == 94
    assert (np.diff(d.p50) > 0).all() and (d["min"] <= d.p5).all() and (d.p95 <= d["max"]).all()


def test_concurrency_estimates_need_at_least_the_linear_value():
    c = p6.concurrency_estimates().dropna()
    assert (c.needed_over_linear >= 0.99).all()
    kep = c.set_index(["gpu", "column"]).loc[("Kepler", "sfu")]
    assert kep.linear == 2.25 and kep.needed == 3


def test_fit_latency_model_recovers_known_coefficients():
    x = np.linspace(5, 150, 12)
    a, b, c = p6.fit_latency_model(x, 300 + 32 * x / (170 - x))
    assert a == pytest.approx(300, abs=0.5) and b == pytest.approx(32, rel=0.02) and c == pytest.approx(170, rel=0.005)
    with pytest.raises(ValueError, match="equal length"):
        p6.fit_latency_model([1, 2], [3, 4])


def test_table_rejects_unknown_names():
    with pytest.raises(ValueError, match="6.1"):
        p6.table("9.9")
