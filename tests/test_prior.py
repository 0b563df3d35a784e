"""Chapter 7 of Volkov (2016): the prior models, pinned to the numbers the chapter prints."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels import prior, published, volkov
from gpumodels.comparisons.prior.estimate import ModelValidityWarning, expected_invalid
from gpumodels.comparisons.prior import reference

pub = published.value
G80, GT200, FERMI, KEPLER, MAXWELL = (volkov.params(g) for g in volkov.GENERATIONS)
SYN = prior.huang2014_parameters("synthetic")


# ---- §7.1 Hong & Kim ----

def test_hong_kim_mwp_and_cwp_gt200():
    assert round(prior.mwp_peak_bw(141.7, 30, 1.296, 434), 1) == pub("v16.s7_1.mwp_peak_bw.GTX280")
    assert round(prior.hong_kim2009_cwp_full(434, 4, 32), 1) == pub("v16.s7_1.cwp.GTX280")


def test_hong_kim_regimes_and_times_gt200():
    n = np.arange(1, 33)
    est = prior.hong_kim2009(GT200, n, 32)
    lat = n <= 4.2878
    assert list(np.unique(est.regime[lat])) == ["latency"] and list(np.unique(est.regime[~lat])) == ["compute"]
    np.testing.assert_allclose(est.adds[lat], 32 * n[lat] * 32 / (434 + 4 * 33))       # Eq. 22 reduced
    np.testing.assert_allclose(est.adds[~lat], 32 * 32 / (4 * 33))                       # Eq. 24 reduced
    flat = prior.hong_kim2009(GT200, n, np.inf)
    np.testing.assert_allclose(flat.adds, 32 / pub("v16.s7_1.flat_cpi.GTX280"))          # 4 CPI at every n
    # α = 0: memory-bound above MWP_peak_bw, at the pin bandwidth exactly
    mem = prior.hong_kim2009(GT200, 32, 0)
    assert mem.regime == "memory" and mem.mem_ipc * GT200.gbs_per_ipc == pytest.approx(141.7)
    # the §7.1 correction: 24-cycle arithmetic latency lowers the latency-bound throughput by 2.1
    assert round((434 + 24 * 32) / (434 + 4 * 33), 1) == pub("v16.s7_1.alu_latency_factor.GTX280")


# ---- §7.2 Baghsorkhi et al. ----

def test_baghsorkhi_alpha0_formula():
    n = np.arange(1, 25)
    est = prior.baghsorkhi2010(G80, n, 0, mem_cpi=37)
    np.testing.assert_allclose(est.ipc, 1 / np.maximum(448 - 4 * n, 37))
    np.testing.assert_allclose(est.ipc, prior.baghsorkhi2010_alpha0_ipc(n, 444, 4, 37))
    n_peak = (448 - 37) / 4                        # 448 − 4n = 37
    assert n_peak > pub("v16.s7_2.alpha0_occupancy_for_peak.8800GTX")
    # at 24 warps: 352 cycles per load against the 37-cycle peak; ≥ 94 % of it attained → > 8×
    assert 0.94 * 352 / 37.3 > pub("v16.s7_2.alpha0_underestimate.8800GTX")


def test_baghsorkhi_warp_latency_matches_the_summary_form():
    n, a = np.arange(1, 25), 11
    x = a * np.maximum(4, 20 / n) + 4
    wl = np.maximum.reduce([np.full(n.shape, 37.0), x, 440 - (n - 2) * x])
    np.testing.assert_allclose(prior.baghsorkhi2010(G80, n, a, mem_cpi=37).adds, 32 * a / wl)
    # α = ∞: adds at the rate max(4, 20/n) — accurate where the dissertation says it is
    np.testing.assert_allclose(prior.baghsorkhi2010(G80, n, np.inf).adds, 32 / np.maximum(4, 20 / n))


# ---- §7.3 Zhang & Owens ----

def test_zhang_owens_is_min_of_the_curves():
    n = np.arange(1, 33)
    est = prior.zhang_owens2011(GT200, n, 16)
    alu = volkov.arithmetic_throughput(GT200, n, np.inf)
    mem = 32 * volkov.memory_throughput(GT200, n, 0)
    np.testing.assert_allclose(est.adds, np.minimum(alu, 16 * mem))
    # with the basic model's curves it is the §4.11 "times overlap" estimate; "add" is §4.12
    np.testing.assert_allclose(est.adds, prior.times_overlap_throughput(GT200, n, 16))
    np.testing.assert_allclose(prior.zhang_owens2011(GT200, n, 16, merge="add").adds,
                               prior.times_add_throughput(GT200, n, 16))
    with pytest.raises(ValueError, match="merge"):
        prior.zhang_owens2011(GT200, n, 16, merge="min")


# ---- §7.4 Sim et al. ----

@pytest.mark.parametrize("gpu,key", [(FERMI, "GTX480"), (KEPLER, "GTX680"), (MAXWELL, "GTX980")])
def test_table_7_1(gpu, key):
    mwp = prior.sim2012_mwp_peak_bw(prior.sustained_gbs(gpu), gpu.sm_count, gpu.clock_ghz, gpu.mem_lat)
    assert round(mwp, 1) == pub(f"v16.t7_1.mwp_peak_bw.{key}")
    assert gpu.alu_lat == pub(f"v16.t7_1.alu_lat.{key}") and gpu.mem_lat == pub(f"v16.t7_1.mem_lat.{key}")
    assert 1 / gpu.alu_thru == pub(f"v16.t7_1.alu_cpi.{key}")


def test_sim_formulas_fermi():
    n, a = np.arange(2, 49, 2.0), 32
    alu = np.maximum(18 / n, 1)
    cwp = np.minimum(n, 1 + 513 / ((a + 1) * alu))
    mwp = np.minimum(n, 30.7265625)
    t_comp = (a + 1) * n * alu
    t_mem = n * 513 / np.minimum(mwp, np.maximum(1, cwp - 1))
    t = np.where(cwp > mwp, np.maximum(t_comp, t_mem), np.maximum(t_comp, t_mem + t_comp / n))
    np.testing.assert_allclose(prior.sim2012(FERMI, n, a).adds, 32 * n * a / t)


def test_sim_cwp_minus_one_halves_throughput_at_two_warps():
    low = prior.sim2012(FERMI, [2, 4], 1)
    fixed = prior.sim2012(FERMI, [2, 4], 1, cwp_minus_one=False)
    ratio = fixed.ipc / low.ipc
    assert ratio[0] == pytest.approx(pub("v16.s7_4.n2_underestimate.GTX480"), rel=0.02)
    assert round(ratio[1], 1) == pub("v16.s7_4.n4_underestimate.GTX480")


def test_departure_delay_caps():
    assert round(22 * 14 * 0.335) == pub("v16.s7_4.c2050_cap_gbs")
    # MWP ≤ mem_lat/Δ with Δ = 32 cycles on the GTX480: 128 B × 1.4 GHz × 15 SMs / 32 cycles
    assert round(128 * 1.4 * 15 / pub("v16.s7_4.reissue_delta")) == pub("v16.s7_4.delta32_cap_gbs")


# ---- §7.5–7.6 Huang et al. ----

def test_huang_rr_exceeds_bounds_and_flags_it():
    with pytest.warns(ModelValidityWarning, match="pin bandwidth"):
        est = prior.huang2014(FERMI, 48, 0)
    assert est.mem_ipc == pytest.approx(48 / 513)
    assert round(float(est.mem_ipc) * FERMI.gbs_per_ipc) == pub("v16.s7_5.rr_alpha0_gbs.GTX480")
    assert est.flags == "above the pin bandwidth" and not est.valid
    with expected_invalid():
        adds = prior.huang2014(MAXWELL, 64, np.inf)
    assert round(float(adds.adds)) == pub("v16.s7_5.rr_alpha_inf_adds.GTX980")
    assert "above the CUDA-core peak" in str(adds.flags)


def test_huang_and_volkov_agree_below_the_bounds_on_kepler():
    h = prior.huang2014(KEPLER, 64, 32)
    assert h.valid and h.adds == pytest.approx(volkov.arithmetic_throughput(KEPLER, 64, 32))
    # the text prints 115; Table 4.1's parameters give 111.3 for both models (the chapter says so)
    assert h.adds == pytest.approx(pub("v16.s7_5.adds_alpha32.GTX680"), rel=0.035)


def test_huang_gto_alpha_inf_limit():
    for alu_lat, key in [(6, "v16.s7_6.gto_excess.GTX980"), (25, "v16.s7_6.gto_excess.synthetic")]:
        ipc = 1 / prior.huang2014_cpi_multithreading(1e7, np.inf, mem_lat=400, alu_lat=alu_lat, policy="gto")
        assert ipc == pytest.approx(1 / (1 - 1 / alu_lat), rel=1e-6)
        assert round(100 * (ipc - 1)) == pub(key)
    with expected_invalid():
        est = prior.huang2014(MAXWELL, 64 * 10 ** 6, np.inf, policy="gto")
    assert est.ipc / 4 == pytest.approx(1.2, rel=1e-5) and "above the issue rate" in str(est.flags)
    # closed forms of §7.6 at α = 0 and α = ∞
    n = np.arange(1, 65.0)
    for a, lat in [(0.0, 368.0), (np.inf, 6.0)]:
        cpi = prior.huang2014_cpi_multithreading(n, a, mem_lat=368, alu_lat=6, policy="gto")
        np.testing.assert_allclose(1 / cpi, n / np.maximum(lat, (n - 1) * (1 - 1 / lat) + 1))


def test_huang_rr_and_gto_equal_at_small_alpha_on_kepler():
    n = np.arange(4, 65, 4.0)
    np.testing.assert_allclose(prior.huang2014(KEPLER, n, 32, policy="gto").ipc, prior.huang2014(KEPLER, n, 32).ipc)


# ---- §7.7–7.8 the bandwidth term ----

def test_huang_bandwidth_term_synthetic_gpu():
    s, cores, lat = SYN["s"], int(SYN["cores"]), SYN["mem_lat"]
    assert round(prior.huang2014_utilization(32, cores, lat, s), 2) == pub("v16.s7_7.rho_n32.synthetic")
    assert round(prior.huang2014_utilization(29, cores, lat, s), 2) == pub("v16.s7_7.rho_n29.synthetic")
    with pytest.warns(ModelValidityWarning, match="ρ"):
        delay = prior.huang2014_bandwidth_delay(29, cores, lat, s)
    assert round(delay) == pub("v16.s7_7.bandwidth_delay_n29.synthetic")
    with pytest.warns(ModelValidityWarning):
        cpi = prior.huang2014_cpi_final(29, 0, mem_lat=lat, alu_lat=SYN["alu_lat"], cores=cores, s=s)
    assert round(cpi, 1) == pub("v16.s7_7.cpi_n29_alpha0.synthetic")
    assert round(lat / (cores * s), 1) == pub("v16.s7_7.singular_n.synthetic")
    with expected_invalid():              # below and above the singularity the sign flips
        below, above = prior.huang2014_cpi_final([28.0, 28.2], 16, mem_lat=lat, alu_lat=SYN["alu_lat"],
                                                 cores=cores, s=s)
    assert below > 0 > above


def test_huang_bandwidth_term_fermi():
    with expected_invalid():
        for policy in ("rr", "gto"):
            est = prior.huang2014(FERMI, 34, 32, policy=policy, bandwidth=True, mshr=64)
            assert round(float(est.adds)) == pub("v16.s7_7.adds_n34_alpha32.GTX480")
            assert {"negative throughput", "utilisation above 1", "negative Bandwidth_delay"} <= set(
                str(est.flags).split("; "))
        s = prior.huang2014_service_time(1.4, 177.4)
        delay = prior.huang2014_bandwidth_delay(17, 15, 513, s, transactions_per_access=2)
        cpi = prior.huang2014_cpi_final(17, 0, mem_lat=513, alu_lat=18, cores=15, s=s, transactions_per_access=2)
    assert delay == pytest.approx(pub("v16.s7_8.bandwidth_delay_stride2.GTX480"), abs=0.5)
    assert cpi == pytest.approx(pub("v16.s7_8.cpi_stride2.GTX480"), abs=0.5)


def test_huang_mshr_beyond_the_printed_cases_is_flagged_nan():
    with expected_invalid():
        est = prior.huang2014(FERMI, [16, 40], 0, bandwidth=True, transactions_per_access=2, mshr=64)
    assert np.isfinite(est.ipc[0]) and np.isnan(est.ipc[1]) and "MSHR_delay not modelled" in est.flags[1]


def test_bandwidth_delay_positive_below_saturation_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = prior.huang2014_bandwidth_delay(4, 16, 300, 2 / 3)
    lam = 4 * 16 / 300
    assert d == pytest.approx(lam * (2 / 3) ** 2 / (2 * (1 - lam * 2 / 3)))


# ---- input checks ----

@pytest.mark.parametrize("call,match", [
    (lambda: prior.hong_kim2009(GT200, 0, 32), "n must be in"),
    (lambda: prior.hong_kim2009(GT200, 4, -1), "alpha must be in"),
    (lambda: prior.baghsorkhi2010(G80, 4, 1, mem_cpi=0), "mem_cpi"),
    (lambda: prior.sim2012(FERMI, 4, 1, mwp_peak=-3), "mwp_peak"),
    (lambda: prior.sim2012(FERMI, 4, 1, cwp_minus_one="yes"), "cwp_minus_one"),
    (lambda: prior.huang2014(FERMI, 4, 1, policy="lrr"), "policy"),
    (lambda: prior.huang2014(FERMI, 4, 1, bandwidth=True, transactions_per_access=0), "transactions_per_access"),
    (lambda: prior.huang2014_bandwidth_delay(4, 0, 300, 0.5), "cores"),
    (lambda: prior.huang2014_bandwidth_delay(4, 16, 300, float("nan")), "s must be"),
    (lambda: prior.huang2014_cpi_final(4, 0, mem_lat=300, alu_lat=20, cores=16), "together"),
    (lambda: prior.sim2012_mwp_peak_bw(0, 15, 1.4, 513), "peak_gbs"),
    (lambda: prior.cuda_guide(FERMI, 4, 0), "alpha must be > 0"),
    (lambda: prior.evaluate("nope", FERMI, 4, 1), "model must be one of"),
    (lambda: prior.huang2014_parameters("Volta"), "context must be one of"),
    (lambda: reference.ipc(FERMI, 3, 32), "no point at n = 3"),
])
def test_bad_input_is_a_clear_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ---- properties ----

MODEL_KEYS = [m for m in prior.MODELS if m not in prior.compare.SAMPLED]


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from(MODEL_KEYS), gpu=st.sampled_from(volkov.GENERATIONS),
       n=st.floats(0.5, 64), alpha=st.one_of(st.floats(0.01, 4096), st.just(float("inf"))))
def test_no_unflagged_impossible_output(model, gpu, n, alpha):
    """Every output is either possible (finite, ≥ 0, within issue/core/pin bounds) or flagged."""
    p = volkov.params(gpu)
    with expected_invalid():
        est = prior.evaluate(model, p, n, alpha)
    ipc = float(est.ipc)
    possible = (np.isfinite(ipc) and ipc >= 0 and ipc <= p.issue_thru * (1 + 1e-9)
                and float(est.adds) <= 32 * p.alu_thru * (1 + 1e-9))
    if not possible:
        assert not est.valid
    if model in ("sim2012", "baghsorkhi2010", "volkov_basic", "volkov_refined", "cuda_guide"):
        assert est.valid            # these respect the hardware bounds by construction


@settings(max_examples=40, deadline=None)
@given(gpu=st.sampled_from(volkov.GENERATIONS), alpha=st.floats(0.5, 1024),
       n=st.floats(1, 63), dn=st.floats(0.01, 8))
def test_latency_aware_models_monotone_in_occupancy(gpu, alpha, n, dn):
    """Huang et al. (round-robin), Zhang & Owens (fed with monotone curves) and Sim et al. (both
    variants) never lose throughput as warps are added."""
    p = volkov.params(gpu)
    with expected_invalid():
        for est in (lambda m: prior.huang2014(p, m, alpha), lambda m: prior.zhang_owens2011(p, m, alpha),
                    lambda m: prior.sim2012(p, m, alpha), lambda m: prior.sim2012(p, m, alpha, cwp_minus_one=False)):
            assert est(n + dn).ipc >= est(n).ipc * (1 - 1e-12)


def test_warning_names_model_and_reasons():
    with pytest.warns(ModelValidityWarning, match=r"Huang et al\. 2014 \(round-robin\) on Maxwell: 1 of 1"):
        prior.huang2014(MAXWELL, 64, np.inf)


# ---- the simulated reference cache ----

def test_reference_cache_covers_the_sweep():
    t = reference.table()
    for g in volkov.GENERATIONS:
        p = volkov.params(g)
        sub = t[t.gpu == g]
        assert set(sub.alpha) == set(map(float, reference.ALPHAS)) | {0.0, np.inf}
        assert set(sub.n) == set(reference.occupancies(p))
        assert (sub.ipc > 0).all() and (sub.ipc <= p.issue_thru + 1e-9).all()


@pytest.mark.parametrize("gpu,n,alpha", [("G80", 7, 11), ("Fermi", 48, 1), ("Kepler", 16, 0.0),
                                         ("Maxwell", 8, float("inf")), ("GT200", 32, 91)])
def test_reference_cache_matches_a_fresh_simulation(gpu, n, alpha):
    p = volkov.params(gpu)
    assert reference.simulate(p, n, alpha) == float(reference.ipc(p, n, alpha))


@pytest.mark.parametrize("gpu", volkov.GENERATIONS)
def test_reference_is_little_at_one_warp_per_scheduler(gpu):
    # at the lowest occupancy every warp is latency-bound: the measured IPC must equal the rate Little's
    # law gives from the warps' own trip times within 0.5 % (a fixed window was off by -9 % to +6 %),
    # and stay below the bound with the unloaded memory latency
    p = volkov.params(gpu)
    n = int(reference.occupancies(p)[0])
    for a in (0, 1, 4, 16, 64, 512):
        ipc, little, trips = reference.measure(p, n, a)
        assert trips >= 20
        assert ipc == pytest.approx(little, rel=5e-3)
        assert ipc == float(reference.ipc(p, n, a))
        assert ipc <= n * (a + 1) / (min(p.memory_latency(0.0), p.mem_lat) + a * p.alu_lat) * (1 + 1e-9)


def test_reference_limits_agree_with_the_basic_model():
    # adds only: the simulator is exact where the model is (no memory, no contention); measured
    # over whole loop trips, no window quantisation is left
    for g in volkov.GENERATIONS:
        p = volkov.params(g)
        ns = reference.occupancies(p)
        np.testing.assert_allclose(reference.ipc(p, ns, np.inf) * 32, volkov.arithmetic_throughput(p, ns, np.inf),
                                   rtol=5e-3)


def test_errors_and_summary_shapes():
    e = prior.errors("volkov_basic", KEPLER, alphas=(1, 32))
    assert list(e.columns) == ["alpha", "q_min", "q_max", "n_at_min", "n_at_max", "flagged"]
    assert (e.q_max >= e.q_min).all()
    s = prior.summary(["sim2012"], gpus=["Fermi"], alphas=(32,))
    assert s.worst.iloc[0] == pytest.approx(max(s.q_max.iloc[0], 1 / s.q_min.iloc[0]))
    assert prior.cusp_occupancy(None, KEPLER, 32) in reference.occupancies(KEPLER)


# ---- the Hong & Kim reduction is the full model's equations ----

def _full_hong_kim_ipc(p, n, alpha, groups=10**6):
    """IPC per SM of the full Hong & Kim model for the α-workload: n one-warp blocks per SM, `groups` load+α-add
    groups per thread (long warps), the departure-delay cap removed, as Volkov's §7.1 reduction assumes."""
    from gpumodels.engines.mwp_cwp import Inputs, Machine, predict
    from gpumodels.comparisons.prior.estimate import pin_bandwidth

    machine = Machine(mem_ld=p.mem_lat, departure_del_coal=1e-9, freq_ghz=p.clock_ghz,
                      mem_bandwidth_gbs=pin_bandwidth(p), issue_cycles=1 / p.alu_thru, threads_per_warp=32)
    r = predict(Inputs(machine=machine, threads_per_block=32, blocks=n * p.sm_count, comp_insts=alpha * groups,
                       coal_mem_insts=groups, active_blocks_per_sm=n, active_sms=p.sm_count, load_bytes_per_warp=128))
    return n * groups * (alpha + 1) / r.exec_cycles_app, r.equation


@pytest.mark.parametrize("gpu", ["G80", "GT200", "Fermi"])
def test_hong_kim_reduction_is_the_full_model_for_long_warps(gpu):
    p = volkov.params(gpu)
    for n in (1, 2, 5, 12, 24):
        for a in (0, 1, 8, 32, 256):
            full, eq = _full_hong_kim_ipc(p, n, a)
            with warnings.catch_warnings():                     # some printed-case outputs are impossible (flagged)
                warnings.simplefilter("ignore", ModelValidityWarning)
                red = prior.hong_kim2009(p, n, a, cases="printed")
            assert float(red.ipc) == pytest.approx(full, rel=1e-4)
            assert str(red.regime) == {22: "latency", 23: "memory", 24: "compute"}[eq]


def test_hong_kim_reduction_parts_from_the_printed_case_selection_where_computation_dominates():
    p = volkov.params("GT200")
    ns = np.arange(2, 33)
    with pytest.warns(ModelValidityWarning, match="31 of 31 estimates are impossible"):
        printed = prior.hong_kim2009(p, ns, 256, cases="printed")          # above the issue rate: flagged
    ratio = printed.ipc / prior.hong_kim2009(p, ns, 256).ipc
    assert ratio.min() == pytest.approx(2 * 4 * 257 / 434, rel=1e-9)         # n = 2: 4.7x
    assert ratio.max() == pytest.approx(4 * 257 * prior.hong_kim_2009.mwp_peak_bw(141.7, 30, 1.296, 434) / 434,
                                        rel=1e-2)                             # n >= MWP_peak_bw: 29x
    assert round(ratio.min(), 1) == 4.7 and round(ratio.max()) == 29
    agree = prior.hong_kim2009(p, ns, 1, cases="printed").ipc == prior.hong_kim2009(p, ns, 1).ipc
    assert agree.all()                                                        # memory dominant: the same
    with pytest.raises(ValueError, match="cases must be one of"):
        prior.hong_kim2009(p, 4, 1, cases="nope")
