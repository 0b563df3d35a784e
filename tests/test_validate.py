"""Shared input checks (issue 21): no silent conversions, no bare numpy or builtin errors."""

import numpy as np
import pytest

from gpumodels import prior, sim, transit, volkov
from gpumodels.ground.validate import as_array, check_flag, check_real
from gpumodels.papers.hong_kim import benchmarks

P = volkov.params("Kepler")


def test_negative_zero_is_zero():
    assert np.signbit(as_array("n", -0.0)) == np.False_
    assert not np.signbit(check_real("x", -0.0, 0.0))
    # once gave -inf and nan
    assert volkov.memory_throughput(P, 8, -0.0) == pytest.approx(volkov.memory_throughput(P, 8, 0.0))
    assert np.isfinite(volkov.memory_throughput(P, 8, -0.0))


@pytest.mark.parametrize("bad", ["8", b"8", ["1", "2"], True, np.array([True, False]), None, object()])
def test_arrays_refuse_strings_and_booleans(bad):
    with pytest.raises(ValueError, match="n must be a number or an array of numbers"):
        as_array("n", bad)


def test_too_large_integers_are_a_clear_error():
    with pytest.raises(ValueError, match="too large for a float"):
        as_array("n", 10 ** 400)
    with pytest.raises(ValueError, match="x must be a finite number"):
        check_real("x", 10 ** 400)
    with pytest.raises(ValueError, match="n must be"):
        volkov.memory_throughput(P, 10 ** 400, 0.0)


def test_mismatched_shapes_name_the_arguments():
    with pytest.raises(ValueError, match=r"shapes do not broadcast together: n \(3,\), alpha \(2,\)"):
        prior.evaluate("volkov_basic", P, np.arange(1.0, 4.0), np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="shapes do not broadcast"):
        transit.equilibrium(np.ones(3), np.ones(2), 1.0, 2.0, 3.0)


@pytest.mark.parametrize("call", [
    lambda: check_flag("flag", "False"),
    lambda: volkov.mix_params("Maxwell", "sfu", issue_costs="False"),
    lambda: sim.volkov_sm(P, contention="False"),
    lambda: prior.sim2012(P, 8.0, 4.0, cwp_minus_one=1),
    lambda: prior.huang2014(P, 8.0, 4.0, bandwidth="yes"),
    lambda: benchmarks.dependence_sweep([1, 2], independent="False"),
    lambda: benchmarks.sync_delta(128, all_sms="no"),
])
def test_flags_must_be_booleans(call):
    with pytest.raises(ValueError, match="must be True or False"):
        call()
    assert check_flag("flag", np.True_) is True
