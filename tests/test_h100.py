"""The H100 comparison (gpumodels.comparisons.h100): the chase's parameters, the
measured rows read back consistently, the simulated sweep under the model, and clear
errors for bad input."""

import numpy as np
import pytest

from gpumodels.comparisons import h100
from gpumodels.comparisons.bench import BYTES_PER_THREAD_ACCESS
from gpumodels.facts.modern import params
from gpumodels.ground.errors import InputTypeError, OutOfRangeError


def test_chase_params_restate_only_the_memory_limit():
    p, q = params("H100"), h100.chase_params()
    assert q.mem_thru == pytest.approx(p.mem_thru * 128 / (32 * BYTES_PER_THREAD_ACCESS))
    assert (q.mem_lat, q.alu_lat, q.alu_thru, q.issue_thru) == (
        p.mem_lat, p.alu_lat, p.alu_thru, p.issue_thru)
    assert "restated" in q.sources["mem_thru"]


def test_measured_chase_rows_are_consistent():
    d = h100.chase()
    assert len(d) == 77 and set(d.target) == {4, 8, 16, 24, 32, 48, 64}
    assert (d.occupancy <= d.target + 1e-9).all() and (d.occupancy > 0).all()
    p = params("H100")
    # GB/s is the loads' rate times 256 bytes at the SM clock
    gbs = d.loads_per_cycle * 32 * BYTES_PER_THREAD_ACCESS * p.sm_count * p.clock_ghz
    assert np.allclose(gbs, d.gbs, rtol=1e-3)
    assert set(h100.chase([0, 16]).alpha) == {0.0, 16.0}


def test_simulated_sweep_stays_under_the_model_and_meets_it_at_alpha_0():
    s = h100.sweep((0,))
    assert list(s.n) == list(range(1, 65))
    r = s.simulated / s.model
    assert r.max() <= 1.0005 and r.min() >= 0.999


def test_the_sweep_runs_the_compiled_engine_with_the_python_traces():
    from gpumodels.engines import sim

    p = h100.chase_params()
    a, b = (sim.simulate(sim.volkov_sm(p), sim.alpha_program(16), 8, cycles=3000,
                         engine=e) for e in ("compiled", "python"))
    assert np.array_equal(a.issue, b.issue) and np.array_equal(a.ready, b.ready)


def test_parameters_table():
    t = h100.parameters().set_index("quantity")
    assert list(t.unit) == ["cycles", "cycles", "GB/s", "GB/s"]
    assert (t.ratio > 0.9).all() and (t.ratio < 1.2).all()


@pytest.mark.parametrize(
    "n, alpha, error", [(0, 0, OutOfRangeError), (65, 0, OutOfRangeError),
                        (4, -1, OutOfRangeError), (4, 1.5, InputTypeError)])
def test_bad_runs_are_refused_naming_the_argument(n, alpha, error):
    with pytest.raises((error, ValueError), match="n|alpha"):
        h100.simulate(h100.chase_params(), n, alpha)


def test_bad_alphas_are_refused():
    with pytest.raises(InputTypeError, match="alphas"):
        h100.sweep("0")
    with pytest.raises(OutOfRangeError, match="alphas"):
        h100.chase([])
