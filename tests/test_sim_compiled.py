"""The compiled engine of the cycle simulator (engine="compiled") gives the Python
engine's trace exactly: every record, the occupancy, the cycles and the warps' start
and end, on the book's and the package's runs, on tools/bench_sim.py's cases and on
random machines."""

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels import sim, volkov
from gpumodels.engines import _sim_core

ROOT = Path(__file__).resolve().parent.parent
FIELDS = (
    "warp",
    "seq",
    "unit",
    "issue",
    "ready",
    "occupancy",
    "warp_start",
    "warp_end",
)


def _same(a, b):
    for f in FIELDS:
        x, y = getattr(a, f), getattr(b, f)
        assert x.dtype == y.dtype and x.shape == y.shape, f
        assert np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), f
    assert a.cycles == b.cycles


def _both(sm, programs, n, *args, **kw):
    """Run both engines; their traces must be identical. Returns the compiled one."""
    a = sim.simulate(sm, programs, n, *args, engine="python", **kw)
    b = sim.simulate(sm, programs, n, *args, engine="compiled", **kw)
    _same(a, b)
    return b


# ---- (a) the runs of the book and the package


def _toy(mem_lat=None):
    f = volkov.concurrency_example()
    lat = f["mem_lat"] if mem_lat is None else mem_lat
    toy = sim.SM(
        {"alu": sim.Unit(f["alu_lat"], f["alu_thru"]), "mem": sim.Unit(lat)},
        issue_per_scheduler=None,
    )
    return toy, f


def test_the_simulator_chapters_toy_machine():
    toy, f = _toy()
    tr = _both(toy, sim.alpha_program(int(f["alpha"])), int(f["n"]), cycles=240)
    assert len(tr.warp) > 100
    _both(toy, sim.alpha_program(4), 5, cycles=480)
    twice, _ = _toy(2 * f["mem_lat"])
    for n in (3, 6, 7, 12):
        _both(twice, sim.alpha_program(int(f["alpha"])), n, cycles=480)


@pytest.mark.parametrize("gen", volkov.GENERATIONS)
def test_volkov_machines_with_alpha_programs(gen):
    """Table 4.1's SMs (G80 and GT200 issue every other cycle: issue_cycles 2)."""
    p = volkov.params(gen)
    sm = sim.volkov_sm(p)
    adds = (sim.Op("alu", "r", ("r",)),)
    for n in (1, 8, min(24, p.max_warps_per_sm)):
        for prog in (adds, sim.alpha_program(0), sim.alpha_program(16)):
            _both(sm, prog, n, cycles=1500)


def test_volkov_machines_with_contention():
    for gen, fit in (("GT200", "table_6_5"), ("Kepler", "table_6_5"),
                     ("Maxwell", "table_6_5"), ("G80", "two_term")):  # fmt: skip
        sm = sim.volkov_sm(volkov.params(gen, latency_model=fit), contention=True)
        for n in (2, 24, 48):
            _both(sm, sim.alpha_program(0), n, cycles=3000)
        _both(sm, sim.alpha_program(64), 8, cycles=3000)


def test_the_finite_launch_of_the_simulator_chapter():
    short = tuple(sim.Op("alu", "r", ("r",)) for _ in range(20))
    progs = [short * 3 if i % 4 == 0 else short for i in range(8)]
    fin = _both(
        sim.SM({"alu": sim.Unit(6, 4.0)}, schedulers=4),
        progs,
        8,
        repeat=False,
        total_warps=64,
        warps_per_block=4,
        launch_latency=150,
    )
    assert np.isfinite(fin.warp_end).all()


def _captured(monkeypatch, module, name, run):
    """The arguments of every simulate call that ``run()`` makes through
    ``module.name``."""
    calls = []
    real = getattr(module, name)

    def spy(*args, **kw):
        calls.append((args, kw))
        return real(*args, **kw)

    monkeypatch.setattr(module, name, spy)
    run()
    monkeypatch.setattr(module, name, real)
    assert calls
    return calls


def _package_runs(monkeypatch):
    from gpumodels.comparisons.prior import reference
    from gpumodels.papers.hong_kim import timelines
    from gpumodels.papers.volkov import bounds, experiment, printed

    for n in (16, 17):  # printed.section_5_8 and the setup chapter
        yield from _captured(
            monkeypatch,
            sim,
            "simulate",
            lambda n=n: experiment.imbalance_run(n, instructions=100, blocks=3),
        )
    # the setup chapter runs 14 rounds; 3 keep the Python engine quick
    yield from _captured(
        monkeypatch,
        sim,
        "simulate",
        lambda: experiment.phases_run("Kepler", alpha=0, warps_per_block=4, rounds=3),
    )
    yield from _captured(
        monkeypatch,
        sim,
        "simulate",
        lambda: experiment.phases_run(
            alpha=2, policy="round_robin", rounds=2, iterations=3
        ),
    )
    yield from _captured(monkeypatch, sim, "simulate", bounds.fig_3_2_trace)
    yield from _captured(monkeypatch, sim, "simulate", printed.concurrency_example)
    yield from _captured(
        monkeypatch,
        sim,
        "simulate",
        lambda: reference.measure(volkov.params("GT200"), 8, 64),
    )
    yield from _captured(
        monkeypatch,
        timelines,
        "simulate",
        lambda: [timelines.run_case(c) for c in range(1, 8)],
    )


def test_the_packages_runs(monkeypatch):
    """Every call site of simulate in the package, with its own arguments."""
    runs = list(_package_runs(monkeypatch))
    assert len(runs) >= 12
    for args, kw in runs:
        kw = {k: v for k, v in kw.items() if k != "engine"}
        a = sim.simulate(*args, engine="python", **kw)
        b = sim.simulate(*args, engine="compiled", **kw)
        _same(a, b)


def test_the_quick_cases_of_bench_sim():
    sys.path.insert(0, str(ROOT / "tools"))
    import bench_sim

    quick = [c for c in bench_sim.specs() if not c.heavy]
    assert len(quick) == 3
    for c in quick:
        _both(c.sm, c.programs, c.n_warps, c.cycles)


# ---- (b) random machines, programs and launches

REGS = ("a", "b", "c", "d")


@st.composite
def machines(draw):
    names = ["u0", "u1", "u2"][: draw(st.integers(1, 3))]
    units = {}
    for name in names:
        if draw(st.integers(0, 4)) == 0:
            c = draw(st.sampled_from([40.0, 170.0, math.inf]))
            lat = sim.LoadedLatency(
                draw(st.sampled_from([0.0, 4.0, 30.0])),
                ((draw(st.sampled_from([0.0, 8.0, 32.0])), c),),
                draw(st.sampled_from([1.0, 60.0, 129.0])),
                draw(st.sampled_from([None, 0.9 * c if c < math.inf else 500.0])),
            )
        else:
            lat = draw(st.one_of(st.integers(0, 40), st.floats(0, 60, allow_nan=False)))
        units[name] = sim.Unit(
            lat,
            draw(st.sampled_from([None, 0.05, 1 / 3, 0.5, 1.0, 2, 4.0])),
            draw(st.integers(1, 3)),
            draw(st.sampled_from([None, 1, 2, 3, 8])),
        )
    pairs = st.tuples(st.sampled_from(names), st.sampled_from(names))
    dep = draw(st.dictionaries(pairs, st.sampled_from([0, 1, 3.5, 9, 20]), max_size=2))
    return sim.SM(
        units,
        schedulers=draw(st.integers(1, 4)),
        issue_per_scheduler=draw(st.sampled_from([None, 1, 2])),
        ilp_latency=draw(st.integers(1, 3)),
        dependent_latency=dep,
        window=draw(st.sampled_from([1, 8, 64, 512])),
    )


def _program(draw, names, regs):
    op = st.builds(
        sim.Op,
        st.sampled_from(names),
        st.sampled_from([*regs, None]),
        st.lists(st.sampled_from(regs), max_size=2).map(tuple),
    )
    return tuple(draw(st.lists(op, min_size=1, max_size=6)))


@st.composite
def runs(draw):
    sm = draw(machines())
    names = list(sm.units)
    regs = REGS[: draw(st.integers(1, 4))]
    n = draw(st.sampled_from([1, 2, 3, 4, 5, 8, 12, 16, 33]))
    if draw(st.booleans()):
        programs = _program(draw, names, regs)
    else:
        pool = [_program(draw, names, regs) for _ in range(draw(st.integers(1, 3)))]
        programs = [draw(st.sampled_from(pool)) for _ in range(n)]
    kw = {"policy": draw(st.sampled_from(["oldest", "round_robin"]))}
    if draw(st.booleans()):
        kw["cycles"] = draw(st.sampled_from([1, 60, 400]))
    else:
        wpb = draw(st.sampled_from([d for d in (1, 2, 3, 4) if n % d == 0]))
        kw |= {
            "repeat": False,
            "total_warps": n * draw(st.integers(1, 3)) + draw(st.integers(0, 3)),
            "warps_per_block": wpb,
            "launch_latency": draw(st.sampled_from([0, 1, 17])),
            "max_cycles": 100_000,
        }
        if draw(st.integers(0, 3)) == 0:
            kw["cycles"] = 300
    return sm, programs, n, kw


def _outcome(sm, programs, n, kw, engine):
    try:
        return sim.simulate(sm, programs, n, engine=engine, **kw)
    except (ValueError, sim.SimulationLimitError) as e:  # the same error from both
        return (type(e), str(e))


@settings(max_examples=300, deadline=None)
@given(run=runs())
def test_random_runs_give_identical_traces(run):
    sm, programs, n, kw = run
    a = _outcome(sm, programs, n, kw, "python")
    b = _outcome(sm, programs, n, kw, "compiled")
    if isinstance(a, tuple) or isinstance(b, tuple):
        assert a == b
    else:
        _same(a, b)


@settings(max_examples=20, deadline=None)
@given(run=runs())
def test_compiled_stepping_matches_skipping(run):
    """skip_idle=False on the compiled engine: the same trace, every cycle visited."""
    sm, programs, n, kw = run
    kw = {**kw, "max_cycles": 3000} if "cycles" not in kw else kw
    a = _outcome(sm, programs, n, kw, "compiled")
    b = _outcome(sm, programs, n, {**kw, "skip_idle": False}, "compiled")
    if isinstance(a, tuple) or isinstance(b, tuple):
        assert a == b
    else:
        _same(a, b)


def test_errors_are_the_python_engines():
    sm = sim.SM(units={"mem": sim.Unit(1000)})
    prog = sim.alpha_program(1, alu="mem")
    for engine in ("python", "compiled"):
        with pytest.raises(sim.SimulationLimitError, match="0 of 8 warps finished"):
            sim.simulate(sm, prog, 8, repeat=False, max_cycles=500, engine=engine)
    steep = sim.SM(
        units={
            "mem": sim.Unit(sim.LoadedLatency(10.0, ((5.0, 1.0),))),
            "alu": sim.Unit(6),
        },
        window=4,
    )
    msg = []
    for engine in ("python", "compiled"):
        with pytest.raises(ValueError, match="latency function returned inf") as e:
            sim.simulate(steep, sim.alpha_program(2), 8, cycles=100, engine=engine)
        msg.append(str(e.value))
    assert msg[0] == msg[1]


def test_large_values_are_clamped_not_overflowed():
    """Latencies, delays and caps far beyond any run compare as they do in Python."""
    prog = sim.alpha_program(3)
    for units, kw in [
        ({"mem": sim.Unit(1e300), "alu": sim.Unit(6)}, {}),
        ({"mem": sim.Unit(10, 1e-300), "alu": sim.Unit(6)}, {}),
        ({"mem": sim.Unit(10, 0.5, 2**62), "alu": sim.Unit(6)}, {}),
        ({"mem": sim.Unit(10, 0.5, 1, 2**63 - 1), "alu": sim.Unit(6)}, {}),
        ({"mem": sim.Unit(10), "alu": sim.Unit(6)}, {"ilp_latency": 2**62}),
        (
            {"mem": sim.Unit(10), "alu": sim.Unit(6)},
            {"dependent_latency": {("mem", "alu"): 1e300}},
        ),
    ]:
        _both(sim.SM(units, **kw), prog, 4, cycles=1000)
    sm = sim.SM({"mem": sim.Unit(10), "alu": sim.Unit(6)})
    fin = {"repeat": False, "total_warps": 12, "warps_per_block": 2}
    _both(sm, prog, 4, 5000, launch_latency=2**62, **fin)


def test_many_warps_finite_launch_with_a_capped_unit():
    sm = sim.SM(
        units={"mem": sim.Unit(40, 0.5, max_in_flight=3), "alu": sim.Unit(6, 4)},
        schedulers=4,
    )
    _both(
        sm,
        sim.alpha_program(3),
        64,
        repeat=False,
        total_warps=2000,
        warps_per_block=1,
        policy="round_robin",
    )


# ---- (c) which engine runs, and its errors


def test_auto_runs_the_compiled_engine_where_it_can(monkeypatch):
    calls = []
    real = _sim_core.run
    monkeypatch.setattr(_sim_core, "run", lambda run: calls.append(1) or real(run))
    toy, _ = _toy()
    prog = sim.alpha_program(2)
    sim.simulate(toy, prog, 4, 100)
    sim.simulate(sim.volkov_sm(volkov.params("Kepler"), contention=True), prog, 4, 100)
    assert len(calls) == 2
    own = sim.SM({"mem": sim.Unit(lambda rate: 10 + rate), "alu": sim.Unit(6)})
    a = sim.simulate(own, prog, 4, 100)  # a latency function of one's own: Python
    b = sim.simulate(toy, prog, 4, 100, skip_idle=False)  # the stepping reference
    c = sim.simulate(toy, prog, 4, 100, engine="python")
    assert len(calls) == 2 and len(a.warp) and len(b.warp) and len(c.warp)
    sim.simulate(toy, prog, 4, 100, skip_idle=False, engine="compiled")
    assert len(calls) == 3


def test_the_compiled_engine_names_what_it_cannot_run():
    prog = sim.alpha_program(2)
    own = sim.SM({"mem": sim.Unit(lambda rate: 10 + rate), "alu": sim.Unit(6)})
    with pytest.raises(
        ValueError,
        match="engine='compiled' cannot run this SM: unit 'mem' has a latency function",
    ):
        sim.simulate(own, prog, 4, 100, engine="compiled")
    f32 = sim.SM({"mem": sim.Unit(10, np.float32(0.3)), "alu": sim.Unit(6)})
    with pytest.raises(ValueError, match="throughput of type float32"):
        sim.simulate(f32, prog, 4, 100, engine="compiled")
    wide = sim.SM(
        {"mem": sim.Unit(sim.LoadedLatency(10.0)), "alu": sim.Unit(6)}, window=2**60
    )
    with pytest.raises(ValueError, match="window .* is above 2\\*\\*53"):
        sim.simulate(wide, prog, 4, 100, engine="compiled")
    for sm in (own, f32, wide):  # auto runs them on the Python engine
        assert len(sim.simulate(sm, prog, 4, 100).warp)
    for bad in ("fast", None, 1):
        with pytest.raises(
            ValueError, match="engine must be one of auto, compiled, python"
        ):
            sim.simulate(
                sim.SM({"alu": sim.Unit(6)}), (sim.Op("alu"),), 1, 10, engine=bad
            )


# ---- (d) LoadedLatency: volkov_sm's contention latency, bit for bit


def _old_closure(p):
    """volkov_sm(contention=True)'s memory latency before LoadedLatency."""
    cap = 0.999 * min(c for _, c in p.latency_terms)

    def mem_latency(rate):
        return float(p.memory_latency(min(rate * p.gbs_per_ipc, cap)))

    return mem_latency


FITS = [(g, "table_6_5") for g in volkov.GENERATIONS] + [("G80", "two_term")]


@pytest.mark.parametrize(("gen", "fit"), FITS)
def test_loaded_latency_is_the_old_closure_bit_for_bit(gen, fit):
    p = volkov.params(gen, latency_model=fit)
    new = sim.volkov_sm(p, contention=True).units["mem"].latency
    assert type(new) is sim.LoadedLatency
    old = _old_closure(p)
    rng = np.random.default_rng(0)
    rates = [k / 512 for k in range(2048)] + list(rng.uniform(0, 2, 500)) + [10.0, 1e6]
    for r in rates:
        assert new(r).hex() == old(r).hex(), r


def test_loaded_latency_checks_its_fields():
    assert sim.LoadedLatency(5, ((2, 10),), 2.0, 4)(1.0) == 5 + 2 * 2.0 / (10 - 2.0)
    assert sim.LoadedLatency(5, ((2, 10),))(10.0) == math.inf
    with pytest.raises(ValueError, match="a must be"):
        sim.LoadedLatency(-1.0)
    with pytest.raises(TypeError, match="terms must be a tuple of"):
        sim.LoadedLatency(1.0, [(1.0, 2.0)])
    with pytest.raises(ValueError, match="terms c must be"):
        sim.LoadedLatency(1.0, ((1.0, 0.0),))
    with pytest.raises(ValueError, match="cap must be below the smallest c"):
        sim.LoadedLatency(1.0, ((1.0, 50.0),), 1.0, 50.0)
    with pytest.raises(ValueError, match="gbs_per_ipc must be"):
        sim.LoadedLatency(1.0, (), 0.0)
    with pytest.raises(
        ValueError, match="contention=True needs Table 6.5's latency terms"
    ):
        sim.volkov_sm(volkov.params("H100"), contention=True)
