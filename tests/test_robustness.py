"""Each reproduction of issue 21 ("Robustness and packaging"), pinned: a clear error or a sound result."""

import math

import numpy as np
import pytest

from gpumodels import hardware, hong_kim, occupancy, perfparams, prior, transit, volkov
from gpumodels.ground.errors import InputTypeError, OutsideDomainError, UnknownNameError

P = volkov.params("Kepler")


def test_hong_kim_below_one_mwp_is_outside_the_model_not_a_negative_time():
    with pytest.raises(OutsideDomainError, match=r"MWP = 0\.328\d* < 1(.|\n)*mem_bandwidth_gbs"):
        machine = hong_kim.Machine(mem_ld=420, departure_del_coal=4, freq_ghz=1, mem_bandwidth_gbs=0.1)
        hong_kim.predict(hong_kim.Inputs(machine=machine, threads_per_block=32, blocks=1, active_blocks_per_sm=1,
                                         active_sms=1, comp_insts=1000, coal_mem_insts=1))


@pytest.mark.parametrize("seed", range(30))
def test_hong_kim_random_in_domain_draws_never_give_a_negative_time(seed):
    rng = np.random.default_rng(seed)
    kw = dict(threads_per_block=int(rng.choice([32, 64, 128, 256])), blocks=int(rng.integers(1, 200)),
              active_blocks_per_sm=int(rng.integers(1, 8)), active_sms=int(rng.integers(1, 30)),
              comp_insts=float(rng.uniform(1, 2000)), coal_mem_insts=float(rng.uniform(0, 50)),
              uncoal_mem_insts=float(rng.uniform(0, 20)), synch_insts=float(rng.uniform(0, 5)))
    machine = hong_kim.Machine(mem_ld=float(rng.uniform(100, 800)), departure_del_coal=float(rng.uniform(1, 10)),
                               departure_del_uncoal=float(rng.uniform(1, 60)), uncoal_per_mw=float(rng.uniform(1, 32)),
                               freq_ghz=float(rng.uniform(0.5, 2)), mem_bandwidth_gbs=float(rng.uniform(0.5, 300)))
    try:
        r = hong_kim.predict(hong_kim.Inputs(machine=machine, **kw))
    except OutsideDomainError as e:
        assert "MWP" in str(e)
        return
    assert r.mwp >= 1 and r.synch_cost >= 0 and r.exec_cycles_with_synch > 0 and r.cpi > 0


def test_negative_zero_is_zero():
    assert volkov.memory_throughput(P, 8, -0.0) == volkov.memory_throughput(P, 8, 0.0) > 0
    assert volkov.refined_needed_occupancy(P, -0.0) == volkov.refined_needed_occupancy(P, 0.0)
    assert not math.isnan(volkov.refined_needed_occupancy(P, -0.0))


@pytest.mark.parametrize("field,value", [("mem_lat", -5.0), ("mem_lat", float("nan")), ("alu_thru", 0.0),
                                         ("sm_count", 0), ("a", -1.0), ("mem_lat", "300")])
def test_records_validate_on_replace(field, value):
    with pytest.raises(ValueError, match=f"Params.{field}"):
        P.replace(**{field: value})


@pytest.mark.parametrize("bad", [None, "Kepler", hardware.get_gpu("H100")])
def test_wrong_record_for_p_is_a_type_error_saying_how_to_get_one(bad):
    with pytest.raises(TypeError, match=r"p must be a volkov Params record \(e\.g\. volkov\.params\("):
        volkov.latency(bad, 0)


def test_shared_validators():
    with pytest.raises(ValueError, match="too large for a float"):
        volkov.memory_throughput(P, 10**400, 1)
    with pytest.raises(InputTypeError, match="n must be a number"):
        volkov.memory_throughput(P, "8", 1)
    with pytest.raises(InputTypeError, match="n must be a number"):
        volkov.memory_throughput(P, np.array([True, False]), 1)
    with pytest.raises(ValueError, match=r"shapes do not broadcast together: n \(3,\), alpha \(2,\)"):
        volkov.memory_throughput(P, np.ones(3), np.ones(2))
    with pytest.raises(InputTypeError, match="issue_costs must be True or False"):
        volkov.mix_params("Maxwell", "sfu", issue_costs="False")


@pytest.mark.parametrize("kw,match", [(dict(step=0), "step"), (dict(fraction=-1), "fraction"),
                                      (dict(fraction=2.5), "fraction"), (dict(n_max=2e6), "grid points")])
def test_cusp_occupancy_arguments(kw, match):
    with pytest.raises(ValueError, match=match):
        prior.cusp_occupancy("hong_kim2009", P, 8, **kw)


def test_extreme_but_valid_inputs():
    e = transit.equilibrium(1000, 2, 5e-324, 400, 300)
    assert e.k == 1000 and e.x == 0 and e.ms_throughput == 0
    with pytest.raises(OutsideDomainError, match="MWP_peak_bw"):
        prior.mwp_peak_bw(1.0, 1e-200, 1e-200, 1.0, 1e-200)


def test_float_compute_capability_is_never_rounded():
    with pytest.raises(UnknownNameError, match="8.96"):
        occupancy.limits(8.96)
    assert occupancy.limits(9.0).cc == "9.0"


@pytest.mark.parametrize("call", [lambda: hardware.get_gpu("GTX 1080"), lambda: volkov.params("GTX 1080"),
                                  lambda: transit.machine("GTX 1080"), lambda: perfparams.measured("GTX 1080"),
                                  lambda: volkov.params("MI210"), lambda: prior.evaluate("nope", P, 8, 1)])
def test_one_error_type_for_unknown_names(call):
    with pytest.raises(UnknownNameError) as e:
        call()
    assert isinstance(e.value, KeyError) and isinstance(e.value, ValueError)
    assert str(e.value) == e.value.args[0]            # printed as the sentence, not KeyError's repr


def test_fp64_lanes_takes_what_machine_takes():
    assert transit.machine("c2075").gpu == "C2075"
    assert transit.fp64_lanes("c2075") == transit.fp64_lanes("C2075") > 0
