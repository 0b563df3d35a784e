"""Hostile input over the public API (issue 21), as a regression test.

Each entry of CALLS is a public call with valid arguments; hypothesis replaces one argument with a
hostile value (-0.0, NaN, ±inf, 1e±300, 10**400, booleans, numeric strings, None, an array) and
requires one of two outcomes:

- a clear error: a ``ValueError`` or ``TypeError`` (the package's own error types are both or
  one of them) whose message names the argument; never ZeroDivisionError, OverflowError,
  AttributeError, IndexError, a bare KeyError or a numpy message;
- a result whose numbers are finite and non-negative, or flagged: an Estimate's impossible
  points carry ``flags``, and a call listed with ``allow`` may return inf or NaN where its
  docstring says so (a latency at saturation, an occupancy never reached).
"""

import dataclasses
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpumodels import hardware, hong_kim, occupancy, perfparams, prior, sim, transit, volkov
from gpumodels.ground.errors import UnknownNameError
from gpumodels.comparisons.prior.estimate import Estimate, ModelValidityWarning
from gpumodels.comparisons import modern

P = volkov.params("Kepler")
H100 = volkov.params("H100")
SM = sim.SM(units={"mem": sim.Unit(40, 0.5, max_in_flight=4), "alu": sim.Unit(6, 2)}, schedulers=2)
HK_MACHINE = dict(mem_ld=420, departure_del_coal=4, freq_ghz=1.35, mem_bandwidth_gbs=86.4)
HK = dict(threads_per_block=128, blocks=80, active_blocks_per_sm=5, active_sms=16, comp_insts=100,
          coal_mem_insts=10, **HK_MACHINE)


def hong_kim_predict(**kw):
    """Hong & Kim's predict with every Machine and Inputs field as one keyword, so each can be made hostile."""
    machine = hong_kim.Machine(**{k: kw.pop(k) for k in HK_MACHINE})
    return hong_kim.predict(hong_kim.Inputs(machine=machine, **kw))


# (name, function, keyword arguments, vectorised arguments, allowed non-finite results)
CALLS = [
    ("volkov.latency", volkov.latency, dict(p=P, alpha=8), ("alpha",), ()),
    ("volkov.memory_throughput", volkov.memory_throughput, dict(p=P, n=8, alpha=8), ("n", "alpha"), ()),
    ("volkov.arithmetic_throughput", volkov.arithmetic_throughput, dict(p=P, n=8, alpha=8), ("n", "alpha"), ()),
    ("volkov.needed_occupancy", volkov.needed_occupancy, dict(p=P, alpha=8, fraction=1.0), ("alpha",), ()),
    ("volkov.instruction_concurrency", volkov.instruction_concurrency, dict(p=P, n=8, alpha=8), ("n", "alpha"), ()),
    ("volkov.refined_latency", volkov.refined_latency, dict(p=P, x=50, alpha=8), ("x", "alpha"), ()),
    ("volkov.refined_memory_throughput", volkov.refined_memory_throughput, dict(p=P, n=8, alpha=8), ("n", "alpha"), ()),
    ("volkov.refined_needed_occupancy", volkov.refined_needed_occupancy, dict(p=P, alpha=8, fraction=0.9), ("alpha",),
     ()),
    ("volkov.warp_throughput", volkov.warp_throughput, dict(n=8, latency_bound=100, cycles_per_warp=4), ("n",), ()),
    ("volkov.littles_law", volkov.littles_law, dict(latency=300, throughput=2), (), ()),
    *[(f"prior.{m}", prior.evaluate, dict(model=m, p=P, n=8, alpha=8), ("n", "alpha"), ())
      for m in ("hong_kim2009", "sim2012", "huang2014_rr", "baghsorkhi2010", "transit2015", "cuda_guide",
                "volkov_basic", "volkov_refined")],
    ("prior.mwp_peak_bw", prior.mwp_peak_bw,
     dict(peak_gbs=192.3, sm_count=8, clock_ghz=1.124, mem_lat=301, bytes_per_warp=128), (), ()),
    ("prior.hong_kim2009_cwp_full", prior.hong_kim2009_cwp_full, dict(mem_lat=301, issue_cycles=4, alpha=8),
     ("alpha",), ()),
    ("prior.cuda_guide_warps", prior.cuda_guide_warps, dict(mem_lat=301, instruction_time=4, alpha=8), ("alpha",), ()),
    ("prior.huang2014_utilization", prior.huang2014_utilization, dict(n=8, cores=192, mem_lat=301, s=4), ("n",), ()),
    ("prior.huang2014_service_time", prior.huang2014_service_time,
     dict(clock_ghz=1.0, peak_gbs=192, bytes_per_transaction=128), (), ()),
    ("prior.sim2012_mwp_peak_bw", prior.sim2012_mwp_peak_bw,
     dict(peak_gbs=192.3, sm_count=8, clock_ghz=1.124, mem_lat=301), (), ()),
    ("prior.cusp_occupancy", prior.cusp_occupancy,
     dict(model="volkov_basic", p=P, alpha=8, fraction=0.9, n_max=64, step=0.5), (), ("nan",)),
    ("modern.evaluate", modern.evaluate, dict(model="volkov_basic", p=H100, n=8, alpha=8), ("n", "alpha"), ()),
    ("transit.equilibrium", transit.equilibrium, dict(n=1000, Z=2, R=5, k_delta=400, M=300),
     ("n", "Z", "R", "k_delta", "M"), ()),
    ("transit.demand", transit.demand, dict(x=100, Z=2, M=300), ("x", "Z", "M"), ()),
    ("transit.supply", transit.supply, dict(k=100, R=5, k_delta=400), ("k", "R", "k_delta"), ()),
    ("transit.latency", transit.latency, dict(R=5, k_delta=400), ("R", "k_delta"), ()),
    ("transit.directions", transit.directions, dict(n=1000, Z=2, R=5, k_delta=400, M=300), (), ()),
    # inf in MWP fields means "no limit" (a kernel without memory instructions); times stay finite
    ("hong_kim.predict", hong_kim_predict, HK, (), ("inf",)),
    ("hong_kim.repetitions", hong_kim.repetitions, dict(blocks=80, active_blocks_per_sm=5, active_sms=16), (), ()),
    ("occupancy.occupancy", occupancy.occupancy,
     dict(cc="7.0", threads_per_block=256, registers_per_thread=32, shared_mem_per_block=0), (), ()),
    ("occupancy.limits", occupancy.limits, dict(cc="7.0"), (), ()),
    ("hardware.get_gpu", hardware.get_gpu, dict(name="H100"), (), ()),
    ("perfparams.derive", perfparams.derive,
     dict(cp_aa=1e5, cp_oa=30, cp_ao=500, cp_oo=0.004, gmb_aa=2000, gmb_oa=8, gmb_ao=4, gmb_oo=0.02), (), ()),
    # warp_end is NaN for a warp that did not finish (a looping run never does)
    ("sim.simulate", sim.simulate, dict(sm=SM, programs=sim.alpha_program(2), n_warps=4, cycles=200), (), ("nan",)),
]

HOSTILE = [-0.0, float("nan"), float("inf"), float("-inf"), 1e300, -1e300, 1e-300, -1.0, 0, 10**400,
           True, False, "8", None, np.array([8.0, 16.0])]

FORBIDDEN = (ZeroDivisionError, OverflowError, AttributeError, IndexError, FloatingPointError)


def _numbers(result):
    """Every number in a result, paired with whether it is flagged as impossible."""
    if isinstance(result, Estimate):
        flags = np.broadcast_to(result.flags, np.shape(result.ipc))
        return [(v, f != "") for v, f in zip(np.ravel(result.ipc), np.ravel(flags))]
    if isinstance(result, (bool, str, type(None))):
        return []
    if isinstance(result, (int, float, np.number)):
        return [(float(result), False)]
    if isinstance(result, np.ndarray):
        return [(float(v), False) for v in result.ravel()] if result.dtype.kind in "iuf" else []
    if isinstance(result, dict):
        return [x for v in result.values() for x in _numbers(v)]
    if isinstance(result, (tuple, list)):
        return [x for v in result for x in _numbers(v)]
    if dataclasses.is_dataclass(result):
        return [x for f in dataclasses.fields(result) if f.name not in ("sources",)
                for x in _numbers(getattr(result, f.name))]
    return []


def _check(name, fn, kwargs, arg, allow):
    shown = f"{name}({arg}={kwargs[arg]!r:.40})"
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)          # numpy overflow / invalid: a bug
        warnings.simplefilter("ignore", ModelValidityWarning)   # a flag the result carries too
        try:
            result = fn(**kwargs)
        except FORBIDDEN as e:
            pytest.fail(f"{shown}: bare {type(e).__name__}: {e}")
        except KeyError as e:
            assert isinstance(e, UnknownNameError), f"{shown}: bare KeyError {e}"
            return
        except (ValueError, TypeError) as e:
            msg = str(e)
            assert "operands could not be broadcast" not in msg, f"{name}: numpy's message: {msg}"
            return
        except RuntimeWarning as e:
            pytest.fail(f"{shown}: numpy warning {e}")
    for v, flagged in _numbers(result):
        if flagged:
            continue
        if math.isnan(v):
            assert "nan" in allow, f"{shown} returned an unflagged NaN"
        elif math.isinf(v):
            assert "inf" in allow and v > 0, f"{shown} returned {v}"
        else:
            assert v >= 0, f"{shown} returned a negative {v}"


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_scalars_get_a_clear_error_or_a_sound_result(data):
    """Beyond the fixed grid below: one or two arguments at once, any float, any integer."""
    name, fn, base, _, allow = data.draw(st.sampled_from(CALLS), label="call")
    args = data.draw(st.lists(st.sampled_from(sorted(base)), min_size=1, max_size=2, unique=True), label="arguments")
    # any float from 1e-300 to 1e300 in size (the issue's range; two subnormal or near-overflow
    # arguments at once can still overflow inside numpy), any integer up to 2**70
    floats = st.floats(min_value=-1e300, max_value=1e300).filter(lambda x: x == 0 or abs(x) >= 1e-300)
    values = st.one_of(st.sampled_from(HOSTILE), floats, st.integers(-2**70, 2**70))
    kwargs = {**base, **{a: data.draw(values, label=a) for a in args}}
    _check(name, fn, kwargs, args[0], allow)


VECTOR_CALLS = [c for c in CALLS if len(c[3]) >= 2]


@pytest.mark.parametrize("name,fn,base,vec,allow", VECTOR_CALLS, ids=[c[0] for c in VECTOR_CALLS])
def test_mismatched_shapes_name_the_arguments(name, fn, base, vec, allow):
    a, b = vec[:2]
    kwargs = {**base, a: np.full(3, float(base[a])), b: np.full(2, float(base[b]))}
    with pytest.raises(ValueError) as e:
        fn(**kwargs)
    assert a in str(e.value) and b in str(e.value), str(e.value)


@pytest.mark.parametrize("name,fn,base,vec,allow", CALLS, ids=[c[0] for c in CALLS])
def test_every_call_in_the_table_works_as_given(name, fn, base, vec, allow):
    _check(name, fn, base, next(iter(base)), allow)


@pytest.mark.parametrize("name,fn,base,vec,allow", CALLS, ids=[c[0] for c in CALLS])
def test_every_hostile_value_in_every_argument(name, fn, base, vec, allow):
    """The whole grid, deterministic: every argument of every call, every hostile value."""
    for arg in sorted(base):
        for value in HOSTILE:
            _check(name, fn, {**base, arg: value}, arg, allow)
