"""Transit (Li et al. 2015): the closed-form equilibrium, bounds, machine points and workloads."""

import csv
import statistics
import time

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gpumodels import occupancy, plotting, published, transit, volkov  # noqa: E402
from gpumodels.ground.data import data_dir, read_rows  # noqa: E402
from gpumodels.papers.transit import figures as tfig  # noqa: E402
from gpumodels.papers.transit import workloads  # noqa: E402
from gpumodels.papers.transit.model import closed_network_supply  # noqa: E402
from gpumodels.papers.transit import explorer as transit_explorer  # noqa: E402

# an illustrative machine in model units: L = 400, R = 1, M = 300
BASE = dict(R=1.0, k_delta=400.0, M=300.0)


def brute_force(n, Z, R, k_delta, M):
    """Throughput by bisection on k of f(k) - g(n - k) (independent of the closed form)."""
    lo, hi = 0.0, float(n)
    for _ in range(200):
        mid = (lo + hi) / 2
        if transit.supply(mid, R, k_delta) < transit.demand(n - mid, Z, M):
            lo = mid
        else:
            hi = mid
    return transit.supply(hi, R, k_delta)


# ---- the four bounds and the boundary cases the issue lists ----

def test_thread_bound_below_both_transition_points():
    e = transit.equilibrium(n=200, Z=100, **BASE)
    L = 400
    assert e.bound == "thread"
    assert e.ms_throughput == pytest.approx(200 / (L + 100))
    assert e.k == pytest.approx(200 * L / (L + 100)) and e.x == pytest.approx(200 * 100 / (L + 100))
    assert e.k < 400 and e.x < 300 and e.ms_on_slope and e.cs_on_slope
    assert e.cs_throughput == pytest.approx(100 * e.ms_throughput)
    assert transit.directions(200, 100, **BASE) == ("n", "Z")


def test_memory_bound():
    e = transit.equilibrium(n=1000, Z=100, **BASE)      # M/Z = 3 > R = 1, n > k_delta + R·Z = 500
    assert e.bound == "memory" and e.ms_throughput == 1.0
    assert e.x == pytest.approx(100) and e.k == pytest.approx(900) and e.k >= 400
    assert e.cs_throughput == pytest.approx(100)
    assert transit.directions(1000, 100, **BASE) == ("Z", "R")


def test_computation_bound():
    e = transit.equilibrium(n=2000, Z=600, **BASE)      # M/Z = 0.5 < R
    assert e.bound == "computation" and e.ms_throughput == pytest.approx(0.5)
    assert e.k == pytest.approx(0.5 * 400) and e.x == pytest.approx(1800)
    assert e.cs_throughput == pytest.approx(300)           # all M lanes busy
    assert transit.directions(2000, 600, **BASE) == ("M",)


def test_capacity_bound_exact_balance():
    e = transit.equilibrium(n=1000, Z=300, **BASE)      # M/Z = R exactly
    assert e.bound == "capacity" and e.ms_throughput == 1.0 and e.cs_throughput == 300
    assert e.idle == pytest.approx(1000 - 400 - 300)
    assert e.k >= 400 and e.x >= 300 and e.k + e.x == pytest.approx(1000)
    assert transit.directions(1000, 300, **BASE) == ()
    # balanced machine with too few threads for both ceilings: thread bound
    assert transit.equilibrium(n=600, Z=300, **BASE).bound == "thread"
    # exactly at k_delta + M: the boundary belongs to the saturated bound
    assert transit.equilibrium(n=700, Z=300, **BASE).bound == "capacity"


def test_Z_to_zero_and_to_infinity():
    small = transit.equilibrium(n=200, Z=1e-12, **BASE)
    assert small.ms_throughput == pytest.approx(200 / 400) and small.x == pytest.approx(0, abs=1e-9)
    assert transit.equilibrium(n=1000, Z=1e-12, **BASE).ms_throughput == pytest.approx(1.0)
    big = transit.equilibrium(n=200, Z=1e12, **BASE)
    assert big.ms_throughput == pytest.approx(0, abs=1e-9) and big.k == pytest.approx(0, abs=1e-6)
    assert big.cs_throughput == pytest.approx(200)           # min(n, M) lanes
    assert transit.equilibrium(n=1000, Z=1e12, **BASE).cs_throughput == pytest.approx(300)
    assert transit.equilibrium(n=1000, Z=1e12, **BASE).bound == "computation"


@pytest.mark.parametrize("n,Z", [(50, 10), (200, 100), (1000, 100), (2000, 600), (1000, 300), (450, 299.9)])
def test_closed_form_matches_bisection(n, Z):
    assert transit.equilibrium(n, Z, **BASE).ms_throughput == pytest.approx(brute_force(n, Z, **BASE), rel=1e-9)


# ---- bad input ----

@pytest.mark.parametrize("kw,name", [
    (dict(n=0), "n"), (dict(n=-5), "n"), (dict(Z=0), "Z"), (dict(Z=-1), "Z"), (dict(R=0), "R"),
    (dict(k_delta=-1), "k_delta"), (dict(M=0), "M"), (dict(n=float("nan")), "n"), (dict(Z=float("inf")), "Z"),
    (dict(n="many"), "n"), (dict(M=True), "M"),
])
def test_bad_input_names_the_parameter(kw, name):
    args = dict(n=100, Z=10, **BASE) | kw
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        transit.equilibrium(**args)


@pytest.mark.parametrize("field,value", [("k_delta", 0), ("R", -8.93), ("M", 0.0), ("pi_height", -1),
                                         ("R", float("nan"))])
def test_machine_points_must_be_positive(field, value):
    good = dict(gpu="C2075", precision="SP", k_delta=1536, R=8.93, M=576, pi_height=24.8)
    with pytest.raises(ValueError, match=rf"^{field} must be a finite number in \(0.0, inf\] for a coordinate of"):
        transit.Machine(**(good | {field: value}))
    with pytest.raises(ValueError, match="precision must be one of"):
        transit.Machine(**(good | {"precision": "FP16"}))


def test_bad_machine_and_direction_input():
    with pytest.raises(ValueError, match="precision must be one of"):
        transit.machine("C2075", "HP")
    with pytest.raises(ValueError, match="gpu must be one with Transit machine points"):
        transit.machine("GTX280")
    with pytest.raises(ValueError, match="gpu must be one with Transit machine points"):
        transit.machine("NoSuchGPU")
    with pytest.raises(ValueError, match="direction must be one of"):
        transit.raised(1, 1, 1, 1, 1, "L")
    with pytest.raises(ValueError, match="factor must be"):
        transit.directions(100, 10, factor=1.0, **BASE)
    with pytest.raises(ValueError, match="n must be a single number"):
        transit.directions([1, 2], 10, **BASE)
    with pytest.raises(ValueError, match="k_delta must be >= 1"):
        closed_network_supply([1, 2], 1.0, 0.5)
    with pytest.raises(ValueError, match="whole numbers"):
        closed_network_supply([1.5], 1.0, 10)


# ---- vectorised sweeps ----

def test_vectorised_grid_is_fast_and_matches_scalars():
    n = np.linspace(1, 3000, 1000)[:, None]
    Z = np.geomspace(0.01, 1e4, 1000)[None, :]
    t0 = time.perf_counter()
    e = transit.equilibrium(n, Z, **BASE)
    assert time.perf_counter() - t0 < 2.0
    assert e.ms_throughput.shape == (1000, 1000) and e.bound.shape == (1000, 1000)
    for i, j in [(0, 0), (500, 400), (999, 999), (250, 700)]:
        s = transit.equilibrium(float(n[i, 0]), float(Z[0, j]), **BASE)
        assert e.ms_throughput[i, j] == pytest.approx(s.ms_throughput) and e.bound[i, j] == s.bound
    assert set(np.unique(e.bound)) == {"thread", "memory", "computation"}


# ---- invariants ----

pos = st.floats(min_value=1e-3, max_value=1e5, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(n=pos, Z=pos, R=pos, k_delta=pos, M=pos)
def test_equilibrium_invariants(n, Z, R, k_delta, M):
    e = transit.equilibrium(n, Z, R, k_delta, M)
    T = e.ms_throughput
    assert np.isfinite(T) and T > 0 and e.k >= -1e-9 * n and e.x >= -1e-9 * n
    assert e.k + e.x == pytest.approx(n, rel=1e-12)
    assert T <= R * (1 + 1e-9) and T <= M / Z * (1 + 1e-9)          # below every ceiling
    assert e.cs_throughput <= M * (1 + 1e-9) and e.cs_throughput <= n * (1 + 1e-9)
    assert transit.supply(max(e.k, 0), R, k_delta) == pytest.approx(T, rel=1e-6)   # flow balance, Eq. 3
    assert transit.demand(max(e.x, 0), Z, M) == pytest.approx(T, rel=1e-6)
    assert e.bound in transit.BOUNDS
    assert T == pytest.approx(brute_force(n, Z, R, k_delta, M), rel=1e-6)


@settings(max_examples=200, deadline=None)
@given(Z=pos, R=pos, k_delta=pos, M=pos, eps=st.sampled_from([-1e-6, -1e-10, -1e-13, 0.0, 1e-13, 1e-10, 1e-6]))
def test_flow_balance_holds_at_the_bound_boundaries(Z, R, k_delta, M, eps):
    """At n where the thread-limited flow meets a ceiling (and just either side) f(k) = g(x) still holds."""
    n = min(R, M / Z) * (k_delta / R + Z) * (1 + eps)
    e = transit.equilibrium(n, Z, R, k_delta, M)
    assert transit.supply(max(e.k, 0), R, k_delta) == pytest.approx(e.ms_throughput, rel=1e-6)
    assert transit.demand(max(e.x, 0), Z, M) == pytest.approx(e.ms_throughput, rel=1e-6)
    assert e.k + e.x == pytest.approx(n, rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(n=pos, Z=pos, R=pos, k_delta=pos, M=pos, factor=st.floats(1.0, 10.0))
def test_throughput_monotone_in_n_R_and_M(n, Z, R, k_delta, M, factor):
    base = transit.equilibrium(n, Z, R, k_delta, M).cs_throughput
    for d in ("n", "R", "M"):
        up = transit.equilibrium(**transit.raised(n, Z, R, k_delta, M, d, factor)).cs_throughput
        assert up >= base * (1 - 2 * transit.RTOL)      # the boundary snap of RTOL may cost 1e-9


@settings(max_examples=200, deadline=None)
@given(n=pos, Z=pos, R=pos, M=pos, log_ratio=st.floats(-3, 3))
def test_directions_follow_the_papers_advice(n, Z, R, M, log_ratio):
    k_delta = 10.0 ** log_ratio * Z * R      # L/Z within 1e-3..1e3: gains of order L/(L+Z) stay far above rounding
    e = transit.equilibrium(n, Z, R, k_delta, M)
    helps = transit.directions(n, Z, R, k_delta, M)
    advice = {(r["bound"], r["direction"]): r["raises_cs_throughput"] == "yes"
              for r in read_rows("transit/principles.csv")}
    # near a boundary a 1 % step can cross into the next bound, so check the clear interiors
    clear = all(transit.equilibrium(**transit.raised(n, Z, R, k_delta, M, d, 1.01)).bound == e.bound
                for d in transit.DIRECTIONS)
    if clear and e.bound != "capacity":
        assert helps == tuple(d for d in transit.DIRECTIONS if advice[(e.bound, d)])


def test_principles_table_covers_every_bound_and_direction():
    rows = read_rows("transit/principles.csv")
    assert {(r["bound"], r["direction"]) for r in rows} == {(b, d) for b in transit.BOUNDS for d in transit.DIRECTIONS}
    assert all(r["source"].startswith("Li et al. 2015") for r in rows)


def test_raising_R_keeps_the_latency():
    p = transit.raised(100, 10, 2.0, 400, 300, "R", 1.5)
    assert p["R"] == 3.0 and p["k_delta"] == 600 and p["k_delta"] / p["R"] == 400 / 2.0


def test_closed_network_supply_below_roofline():
    k = np.arange(0, 2001)
    smooth = closed_network_supply(k, 1.0, 400)
    roof = transit.supply(k, 1.0, 400)
    assert np.all(smooth <= roof + 1e-12) and smooth[0] == 0
    assert smooth[1] == pytest.approx(1 / 400) and smooth[-1] == pytest.approx(1.0, rel=2e-3)
    assert np.argmax(roof - smooth) == 400


# ---- machine points (§3) and their units ----

def test_machine_points_and_units():
    m = transit.machine("C2075", "SP")
    assert (m.k_delta, m.R, m.M, m.pi_height) == (1536, 8.93, 576, 24.8)
    assert transit.machine("GTX690", "DP").pi_height == 8
    assert len(transit.machines()) == 4 and all(x.sources["R"].startswith("Li et al. 2015") for x in transit.machines())
    # per SM: k_delta(SP) is the SM's thread limit, R·SMs a plausible fraction of the pin bandwidth
    assert m.k_delta == occupancy.limits("2.0").max_warps_per_sm * 32
    assert transit.machine("GTX690").k_delta == occupancy.limits("3.0").max_warps_per_sm * 32
    assert m.R * m.sm_count / 144 == pytest.approx(0.868, abs=1e-3)
    assert transit.machine("GTX690").R * 8 / 192 == pytest.approx(0.677, abs=1e-3)
    # Little's law with one word per request: SP and DP latencies agree within 4 % (C2075) and 16 % (GTX 690)
    assert m.latency_ns == pytest.approx(688.0, abs=0.1)
    assert transit.machine("C2075", "DP").latency_ns == pytest.approx(661.4, abs=0.1)
    assert transit.machine("GTX690", "SP").latency_ns == pytest.approx(504.1, abs=0.1)
    assert transit.machine("GTX690", "DP").latency_ns == pytest.approx(434.4, abs=0.1)
    assert m.latency_cycles() == pytest.approx(791.2, abs=0.1)
    # M = lanes × add latency (Little's law); Volkov Table 6.2 gives 18 cycles on Fermi
    assert 32 * volkov.params("Fermi").alu_lat == m.M == published.value("li15.s3.M_sp.C2075")
    assert m.balance_Z == pytest.approx(24.8 / 8.93)
    assert transit.fp64_lanes("C2075") == 16 and transit.fp64_lanes("GTX690") == 8


def test_machine_solve_units():
    m = transit.machine("C2075", "DP")
    Z = m.balance_Z
    e = m.solve(2000, Z)
    assert e.bound == "capacity" and e.ms_throughput == pytest.approx(m.R) and e.cs_throughput == pytest.approx(m.M)
    assert m.cs_rate(2000, Z) == pytest.approx(m.pi_height)      # saturated CS rate, G instr/s per SM
    assert m.inputs(100, 0.5) == dict(n=100, Z=m.model_Z(0.5), R=m.R, k_delta=m.k_delta, M=m.M)
    lo = m.solve(100, 0.5)
    assert lo.bound == "thread" and m.cs_rate(100, 0.5) == pytest.approx(0.5 * lo.ms_throughput)


# ---- workloads ----

def test_workload_table_is_regenerated_exactly():
    committed = (data_dir() / workloads.TABLE_FILE).read_text(encoding="utf-8")
    assert workloads.render_table() == committed


def test_workload_arithmetic_first_launch():
    row = workloads.nvprof_rows()[0]
    assert (row["kernel"], row["gpu"]) == ("bpnn_adjust_weights_cuda", "GTX680")
    d = workloads.derive(row)
    assert d["n"] == pytest.approx(0.973754 * 2048)
    w = 25.937557e9 * 0.000348706 / 32
    assert d["write_transactions"] == pytest.approx(w)
    assert d["Z"] == pytest.approx(1703961 / (286640 + w))
    assert d["active_sms"] == 8 and d["ms_measured"] == pytest.approx((24.777928 + 25.937557) / 8)
    assert d["cs_measured"] == pytest.approx(1703961 * 32 / 0.000348706 / 1e9 / 8)
    assert d["n_occupancy"] == 2048 and d["occupancy_limiter"] == "warps"
    lud = next(r for r in workloads.nvprof_rows() if r["kernel"] == "lud_diagonal")
    assert workloads.derive(lud)["active_sms"] == 1 and workloads.derive(lud)["n_occupancy"] == 16


def test_workload_table_provenance():
    rows = workloads.table()
    with open(data_dir() / workloads.TABLE_FILE, newline="", encoding="utf-8") as fh:
        assert tuple(csv.DictReader(fh).fieldnames) == workloads.COLUMNS
    for r in rows:
        assert r["source"] and r["n_provenance"] and r["Z_provenance"]
        if r["n"] is None:
            assert r["n_provenance"].startswith("not available")
        if r["Z"] is None:
            assert r["Z_provenance"].startswith("not available")
    avail = workloads.table("GTX680", available=True)
    assert len(avail) == 6 and all(0 < r["n"] <= 2048 and r["Z"] > 0 for r in avail)
    named = {r["app"] for r in rows if r["named_in_paper"] == "yes"}
    assert named == set(workloads.NAMED_IN_PAPER)
    with pytest.raises(KeyError):
        workloads.derive(dict(workloads.nvprof_rows()[0], gpu="NoSuchGPU"))


def test_predictions_count_Z_and_the_measurement_with_one_counter():
    m = transit.machine("GTX690", "SP")
    launches = [r for r in workloads.nvprof_rows()
                if (r["kernel"], r["gpu"]) == ("bpnn_adjust_weights_cuda", "GTX680")]
    for counter, zkey, ckey in (("inst_executed", "Z", "cs_measured"),
                                ("inst_issued1", "Z_issued1", "cs_measured_issued1")):
        row = next(r for r in workloads.predictions(m, "GTX680", counter) if r["kernel"] == "bpnn_adjust_weights_cuda")
        d = [workloads.derive(r) for r in launches]
        Z = statistics.median(x[zkey] for x in d)
        assert row["Z"] == pytest.approx(Z, rel=1e-5)
        assert row["RCT"] == pytest.approx(statistics.median(x[ckey] for x in d), rel=1e-5)
        e = m.solve(row["n"], row["Z"])
        assert row["PCT"] == pytest.approx(row["Z"] * e.ms_throughput) and row["bound"] == e.bound
        assert row["ratio"] == pytest.approx(row["PCT"] / row["RCT"])
    # replays: inst_issued1 counts more than inst_executed for this kernel, so Z and RCT both rise
    first = launches[0]
    assert first["inst_issued1"] > first["inst_executed"]


def test_accuracy_is_one_minus_the_mean_relative_error():
    rows = [{"n": 100.0, "PCT": 1.2, "RCT": 1.0}, {"n": 10.0, "PCT": 0.5, "RCT": 1.0}]
    assert workloads.accuracy(rows) == pytest.approx(1 - (0.2 + 0.5) / 2)
    assert workloads.accuracy(rows, min_threads=50) == pytest.approx(0.8)
    m = transit.machine("GTX690", "SP")
    acc = {c: workloads.accuracy(workloads.predictions(m, "GTX680", c)) for c in workloads.COUNTERS}
    assert round(acc["inst_executed"], 3) == 0.681 and round(acc["inst_issued1"], 3) == 0.804
    with pytest.raises(ValueError, match="counter"):
        workloads.predictions(m, "GTX680", "inst_issued")
    with pytest.raises(ValueError, match="gpu"):
        workloads.predictions(m, "C2075")
    with pytest.raises(ValueError, match="min_threads"):
        workloads.accuracy(rows, min_threads=1e6)


def test_principles_say_where_the_paper_is_silent():
    rows = read_rows("transit/principles.csv")
    assert {r["paper_states"] for r in rows} == {"stated", "silent"}
    silent = {(r["bound"], r["direction"]) for r in rows if r["paper_states"] == "silent"}
    assert silent == {("thread", "R"), ("thread", "M"), ("memory", "M"), ("computation", "n"), ("computation", "R")}
    assert all(r["raises_cs_throughput"] == "no" and r["note"].startswith("Not listed") for r in rows
               if r["paper_states"] == "silent")


def test_every_transit_data_row_is_sourced():
    for name in ("machines", "reported_accuracy", "principles", "rodinia_launch", "rodinia_kepler_nvprof",
                 "profiled_gpus", "workloads"):
        rows = read_rows(f"transit/{name}.csv")
        assert rows and all(r["source"].strip() for r in rows), name


# ---- figures and widgets ----

def test_draw_returns_the_equilibrium_and_marks_the_kinks():
    fig, ax = plotting.figure()
    e = tfig.draw(ax, 1000, 100, **BASE)
    assert e.bound == "memory"
    k, f, g = tfig.curves(1000, 100, **BASE)
    assert 400 in k and 700 in k and f.max() == 1.0 and g[0] == pytest.approx(3.0)
    tfig.cs_axis(ax, 1000)
    labels = [t.get_text() for t in ax.texts]
    assert "δ" in labels and "π" in labels


def test_transit_summary_and_explorer():
    h = transit_explorer.summary_html(1000, 100, **BASE)
    assert "memory" in h and "Z, R" in h and "L = k_delta/R = 400" in h
    assert "none alone" in transit_explorer.summary_html(1000, 300, **BASE)
    pytest.importorskip("ipywidgets")
    box = transit_explorer.explorer("C2075", "DP")
    n, Z, R, M, out = box.children[:5]
    assert "capacity" in out.value or "thread" in out.value
    n.value = 1536
    Z.value = 0.3
    assert "memory" in out.value
    Z.value = 20
    assert "computation" in out.value


# ---- Transit on Volkov's α-workload (the side-by-side comparison) ----

def test_transit2015_is_the_basic_model_without_its_issue_limit():
    from gpumodels import prior

    for gpu in volkov.GENERATIONS:
        p = volkov.params(gpu)
        n = np.arange(1, p.max_warps_per_sm + 1, dtype=float)[None, :]
        a = np.array([0.0, 0.5, 1, 4, 16, 64, 512, np.inf])[:, None]
        with prior.expected_invalid():
            t = prior.transit2015(p, n, a)
        b = prior.volkov_basic(p, n, a)
        with np.errstate(divide="ignore", invalid="ignore"):      # the α = 0 and α = ∞ rows are replaced below
            loads = np.minimum(n / (p.mem_lat + a * p.alu_lat), np.minimum(p.mem_thru, p.alu_thru / a))
            expect = np.where(a == 0, np.minimum(n / p.mem_lat, p.mem_thru),
                              np.where(np.isinf(a), np.minimum(n / p.alu_lat, p.alu_thru), loads * (a + 1)))
        np.testing.assert_allclose(t.ipc, expect, rtol=1e-12)
        ok = t.flags == ""
        np.testing.assert_allclose(t.ipc[ok], b.ipc[ok], rtol=1e-12)        # equal wherever it is valid
        assert np.all((t.flags[~ok] == "above the issue rate"))
    assert "thread bound" in set(t.regime.ravel()) and "Z → 0 limit (memory or thread)" in set(t.regime.ravel())
    assert prior.LABELS["transit2015"] == "Li et al. 2015 (Transit)"
