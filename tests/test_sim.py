"""The cycle-level SM simulator: Fig. 4.7 exactly, the analytic model in its limit cases."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels import published, sim, volkov
FIG = volkov.concurrency_example()


def fig_4_7_trace(cycles=240):
    sm = sim.SM({"alu": sim.Unit(FIG["alu_lat"], FIG["alu_thru"]), "mem": sim.Unit(FIG["mem_lat"])},
                issue_per_scheduler=None)
    return sim.simulate(sm, sim.alpha_program(int(FIG["alpha"])), int(FIG["n"]), cycles=cycles)


def test_fig_4_7_steady_state_exactly():
    tr = fig_4_7_trace()
    t = np.arange(26, 240)                     # from the third load of the second round on
    # exactly 3 adds and 3 loads in execution at every cycle of the steady state
    assert set(tr.concurrency("alu", t)) == {published.value("v16.s4_6.alu_in_execution.generic")}
    assert set(tr.concurrency("mem", t)) == {published.value("v16.s4_6.mem_in_execution.generic")}
    # one add issued every cycle (alu_thru sustained) and a load every 4 cycles
    adds = np.sort(tr.issue[(tr.unit == "alu") & (tr.issue >= 24)])
    assert np.array_equal(adds, np.arange(24, 240))
    assert tr.throughput("mem", 24, 240) == published.value("v16.s4_6.mem_thru.generic")
    # every warp repeats with period mem_lat + alpha * alu_lat = 24 cycles
    for w in range(6):
        loads = tr.issue[(tr.warp == w) & (tr.unit == "mem")]
        assert set(np.diff(loads[1:])) == {24}


def test_fig_4_7_issue_schedule_is_stable():
    """The schedule itself (regression): warps 0-2 and 3-5 alternate between adds and loads."""
    tr = fig_4_7_trace(100)
    first = {w: list(tr.issue[tr.warp == w][:7].astype(int)) for w in range(6)}
    assert first[0] == [0, 12, 15, 18, 21, 24, 36]
    assert first[3] == [0, 24, 27, 30, 33, 36, 48]


def test_five_warps_fall_short():
    """Fewer than 6 warps cannot sustain 1 add per cycle (§4.6)."""
    sm = sim.SM({"alu": sim.Unit(3, 1.0), "mem": sim.Unit(12)}, issue_per_scheduler=None)
    tr = sim.simulate(sm, sim.alpha_program(4), 5, cycles=480)
    assert tr.throughput("alu", 240, 480) < 1.0


@pytest.mark.parametrize("gen", volkov.GENERATIONS)
def test_limit_cases_match_the_model(gen):
    p = volkov.params(gen)
    sm = sim.volkov_sm(p)
    for n in (1, 3, 8, 24):
        if n > p.max_warps_per_sm:
            continue
        # alpha = infinity: adds only
        tr = sim.simulate(sm, (sim.Op("alu", "r", ("r",)),), n, cycles=1200)
        assert tr.throughput("alu", 400, 1200) == pytest.approx(volkov.arithmetic_throughput(p, n, np.inf) / 32,
                                                                 rel=0.02)
        # alpha = 0: loads only; measure over whole periods of the slowest warp
        period = p.mem_lat
        tr = sim.simulate(sm, sim.alpha_program(0), n, cycles=int(period * 12))
        x = tr.throughput("mem", int(period * 2), int(period * 12))
        assert x == pytest.approx(volkov.memory_throughput(p, n, 0), rel=0.03)


@settings(max_examples=25, deadline=None)
@given(gen=st.sampled_from(volkov.GENERATIONS), n=st.integers(1, 32), alpha=st.integers(0, 40))
def test_simulation_never_beats_the_bounds(gen, n, alpha):
    p = volkov.params(gen)
    n = min(n, p.max_warps_per_sm)
    tr = sim.simulate(sim.volkov_sm(p), sim.alpha_program(alpha), n, cycles=3000)
    x = tr.throughput("mem", 1000, 3000)
    slack = 2 * n / 2000                          # at most one group per warp straddles the window
    assert x <= volkov.memory_throughput(p, n, alpha) + slack
    assert tr.throughput("alu", 1000, 3000) <= p.alu_thru + 1e-9


def test_dependent_latency_override():
    units = {"sfu": sim.Unit(13), "alu": sim.Unit(6)}
    sm = sim.SM(units, dependent_latency={("sfu", "alu"): 9}, issue_per_scheduler=None)
    prog = (sim.Op("sfu", "r", ("r",)), sim.Op("alu", "r", ("r",)), sim.Op("sfu", "r", ("r",)),
            sim.Op("sfu", "r", ("r",)))
    tr = sim.simulate(sm, prog, 1, repeat=False)
    assert list(tr.issue) == [0, 9, 15, 28]


def test_finite_launch_with_block_replacement():
    sm = sim.SM({"alu": sim.Unit(4)}, issue_per_scheduler=None)
    prog = tuple(sim.Op("alu", "r", ("r",)) for _ in range(5))      # 5 dependent ops: 17 cycles + 4
    tr = sim.simulate(sm, prog, 4, repeat=False, total_warps=12, warps_per_block=2, launch_latency=10)
    assert len(tr.warp_latency) == 12
    assert np.all(tr.warp_latency == 20)
    assert tr.occupancy.max() == 4
    starts = sorted(set(tr.warp_start))
    assert starts == [0, 30, 60]                  # 20 cycles of work + 10 cycles to replace the block


def test_contention_latency_grows_with_load():
    p = volkov.params("Kepler")
    sm = sim.volkov_sm(p, contention=True)
    lat = {}
    for n in (4, 48):
        tr = sim.simulate(sm, sim.alpha_program(0), n, cycles=4000)
        sel = (tr.unit == "mem") & (tr.issue > 2000)
        lat[n] = float(np.mean(tr.ready[sel] - tr.issue[sel]))
    assert lat[4] == pytest.approx(p.a, rel=0.05)
    assert lat[48] > lat[4] + 20


def test_errors():
    sm = sim.SM({"alu": sim.Unit(4)})
    with pytest.raises(ValueError, match="cycles must be given"):
        sim.simulate(sm, (sim.Op("alu"),), 2)
    with pytest.raises(ValueError, match="not one of the SM's units"):
        sim.simulate(sm, (sim.Op("mem"),), 2, cycles=10)
    with pytest.raises(ValueError, match="n_warps must be"):
        sim.simulate(sm, (sim.Op("alu"),), 0, cycles=10)
    with pytest.raises(ValueError, match="policy"):
        sim.simulate(sm, (sim.Op("alu"),), 1, cycles=10, policy="random")
    with pytest.raises(ValueError, match="throughput must be"):
        sim.Unit(4, 0)
    with pytest.raises(ValueError, match="multiple of warps_per_block"):
        sim.simulate(sm, (sim.Op("alu"),), 3, repeat=False, warps_per_block=2)
    tr = sim.simulate(sm, (sim.Op("alu"),), 1, cycles=10)
    with pytest.raises(ValueError, match="start < stop"):
        tr.throughput("alu", 5, 50)
    assert tr.table()["kind"].eq("simulated").all()


def test_max_in_flight_caps_concurrency_first_come_first_served():
    sm = sim.SM({"c": sim.Unit(10, 0.1), "m": sim.Unit(30, None, 1, 2)}, issue_per_scheduler=None)
    prog = [sim.Op("c", "x", ("y",)), sim.Op("m", "y", ("x",))] * 2
    tr = sim.simulate(sm, prog, 4, repeat=False)
    assert max(tr.concurrency("m", range(int(tr.warp_end.max())))) == 2
    # warp 4's first request (waiting since cycle 40) is served before warp 1's second (waiting since 50)
    t = tr.table()
    first_w4 = t[(t.warp == 3) & (t.unit == "m")].issue.min()
    second_w1 = t[(t.warp == 0) & (t.unit == "m")].issue.max()
    assert first_w4 < second_w1
    with pytest.raises(ValueError, match="max_in_flight"):
        sim.Unit(10, None, 1, 0)


def test_trip_starts_and_rate_between():
    # two warps, loop of 3 instructions; warp 0 begins trips at cycles 0, 10, 20
    warp = [0, 0, 0, 1, 0, 0, 0, 1, 0]
    seq = [0, 1, 2, 0, 3, 4, 5, 1, 6]
    issue = [0, 1, 2, 3, 10, 11, 12, 13, 20]
    assert sim.trip_starts(warp, seq, issue, 3).tolist() == [0.0, 10.0, 20.0]
    assert sim.trip_starts(warp, seq, issue, 3, start=5).tolist() == [10.0, 20.0]
    assert sim.rate_between(issue, 0, 20) == 8 / 20
    with pytest.raises(ValueError, match="t2 must be greater"):
        sim.rate_between(issue, 5, 5)


# ---- robustness (issue 21): limits, validation, idle skipping

def _same(a, b):
    for f in ("warp", "seq", "unit", "issue", "ready", "occupancy", "warp_start", "warp_end"):
        assert np.array_equal(getattr(a, f), getattr(b, f), equal_nan=getattr(a, f).dtype.kind == "f"), f
    assert a.cycles == b.cycles


@settings(max_examples=40, deadline=None)
@given(mem_lat=st.integers(1, 300), mem_thru=st.sampled_from([None, 0.05, 0.5, 1.0]),
       cap=st.sampled_from([None, 1, 3, 8]), alpha=st.integers(0, 6), n=st.integers(1, 24),
       schedulers=st.integers(1, 4), issue_cycles=st.integers(1, 3), policy=st.sampled_from(["oldest", "round_robin"]),
       dep=st.sampled_from([{}, {("mem", "alu"): 3.5}]), contention=st.booleans())
def test_skipping_idle_cycles_gives_the_same_trace(mem_lat, mem_thru, cap, alpha, n, schedulers, issue_cycles,
                                                   policy, dep, contention):
    lat = (lambda x: mem_lat * (1 + x)) if contention else mem_lat
    sm = sim.SM(units={"mem": sim.Unit(lat, mem_thru, issue_cycles=issue_cycles, max_in_flight=cap),
                       "alu": sim.Unit(6, 2)}, schedulers=schedulers, dependent_latency=dep, window=64)
    prog = sim.alpha_program(alpha)
    _same(sim.simulate(sm, prog, n, 700, policy=policy), sim.simulate(sm, prog, n, 700, policy=policy, skip_idle=False))
    wpb = 1 if n % 2 else 2
    fin = dict(repeat=False, total_warps=2 * n, warps_per_block=wpb, launch_latency=17, policy=policy)
    _same(sim.simulate(sm, prog, n, **fin), sim.simulate(sm, prog, n, **fin, skip_idle=False))


def test_prior_reference_rows_are_unchanged_by_idle_skipping():
    from gpumodels.comparisons.prior import reference
    p = volkov.params("GT200")
    sm = sim.volkov_sm(p, contention=True)
    a = sim.simulate(sm, sim.alpha_program(64), 8, 6000)
    b = sim.simulate(sm, sim.alpha_program(64), 8, 6000, skip_idle=False)
    _same(a, b)
    assert reference.ipc(p, 8.0, 64) > 0


def test_a_finite_run_that_hits_max_cycles_says_so():
    sm = sim.SM(units={"mem": sim.Unit(1000)})
    with pytest.raises(sim.SimulationLimitError, match="0 of 8 warps finished"):
        sim.simulate(sm, sim.alpha_program(1, alu="mem"), 8, repeat=False, max_cycles=500)
    tr = sim.simulate(sm, sim.alpha_program(1, alu="mem"), 8, 500, repeat=False)   # cycles: stop on purpose
    assert tr.cycles == 500 and np.isnan(tr.warp_end).all()


@pytest.mark.parametrize("lat", [float("nan"), -1.0, float("inf"), "3"])
def test_dependent_latency_must_be_a_finite_non_negative_number(lat):
    with pytest.raises(ValueError, match="dependent_latency"):
        sim.SM(units={"mem": sim.Unit(10), "alu": sim.Unit(6)}, dependent_latency={("mem", "alu"): lat})


def test_dependent_latency_keys_are_unit_pairs():
    with pytest.raises(ValueError, match="producer, consumer"):
        sim.SM(units={"mem": sim.Unit(10)}, dependent_latency={("mem", "sfu"): 3})


def test_huge_cycle_counts_and_alphas_are_refused_not_hung():
    sm = sim.SM(units={"mem": sim.Unit(10), "alu": sim.Unit(6)})
    with pytest.raises(ValueError, match="cycles must be an integer in"):
        sim.simulate(sm, sim.alpha_program(1), 1, 2**63)
    with pytest.raises(ValueError, match="alpha must be an integer in"):
        sim.alpha_program(2**63)
    with pytest.raises(TypeError, match="repeat must be True or False"):
        sim.simulate(sm, sim.alpha_program(1), 1, 10, repeat="False")


def test_a_long_idle_stall_is_skipped():
    sm = sim.SM(units={"mem": sim.Unit(1_000_000), "alu": sim.Unit(6)})
    tr = sim.simulate(sm, sim.alpha_program(1), 1, 5_000_001)
    assert tr.issue.tolist() == [0, 1_000_000, 1_000_006, 2_000_006, 2_000_012, 3_000_012, 3_000_018,
                                 4_000_018, 4_000_024, 5_000_024][: len(tr.issue)]
    assert len(tr.occupancy) == 5_000_001


def test_many_warps_with_a_capped_unit():
    sm = sim.SM(units={"mem": sim.Unit(400, 0.5, max_in_flight=32), "alu": sim.Unit(6, 4)}, schedulers=4)
    tr = sim.simulate(sm, sim.alpha_program(4), 4096, 1300)
    assert tr.concurrency("mem", np.arange(1300)).max() == 32
    first = tr.issue[(tr.unit == "mem")]
    assert (np.diff(first[:64]) >= 0).all()


def test_trip_throughput_spans_whole_trips_of_one_warp():
    p = volkov.params("Maxwell")
    tr = sim.simulate(sim.volkov_sm(p), sim.alpha_program(4), 8, cycles=6000)
    starts = sim.trip_starts(tr.warp, tr.seq, tr.issue, 5, 0, 1000, 6000)
    loads = tr.issue[tr.unit == "mem"]
    rate, trips = tr.trip_throughput(5, 1000, 6000, unit="mem")
    assert trips == starts.size - 1 >= 2
    assert rate == sim.rate_between(loads, starts[0], starts[-1])
    everything = tr.trip_throughput(5, 1000, 6000)[0]
    assert everything == pytest.approx(5 * rate, rel=0.05)  # one load in five issues
    with pytest.raises(ValueError, match="fewer than two loop trips"):
        tr.trip_throughput(5, 5990, 6000)
