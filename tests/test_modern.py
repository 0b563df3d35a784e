"""Modern GPUs (issue 20): sourced Volkov-style parameters, their spread, and Little's law."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels import hardware, prior, volkov
from gpumodels.ground.data import read_rows
from gpumodels.comparisons import modern


def test_mem_thru_conversion_reproduces_table_4_1():
    # BW / (SMs x clock x 128 B) with Table 6.4's sustained GB/s gives Table 4.1's mem_thru
    peaks = {r["gpu"]: float(r["value"]) for r in read_rows("volkov/chapter6_metrics.csv")
             if r["table"] == "6.4" and r["column"] == "peak"}
    for gen in volkov.GENERATIONS:
        got = float(modern.mem_thru(peaks[gen], gen))
        assert got == pytest.approx(volkov.params(gen).mem_thru, abs=0.00005), gen


@pytest.mark.parametrize("name", ["V100", "A100", "H100", "H100 PCIe", "GH200", "V100 PCIe", "A100 80GB", "L40"])
def test_params_for_every_modern_gpu(name):
    p = volkov.params(name)
    if name == "V100":      # the SXM2 record has no public chase data; the measured PCIe board stands in
        assert p.gpu == "V100PCIe"
    for attr in ("mem_lat", "mem_thru", "alu_lat", "alu_thru", "issue_thru", "clock_ghz"):
        assert np.isfinite(getattr(p, attr)) and getattr(p, attr) > 0
    assert p.sm_count == hardware.get_gpu(p.gpu).sm_count
    assert p.alu_thru == hardware.get_gpu(p.gpu).cuda_cores_per_sm / 32
    assert p.sources["mem_lat"] and p.sources["mem_thru"]
    # needed occupancy at alpha = 0 is Little's law, mem_lat x mem_thru
    assert volkov.needed_occupancy(p, 0.0) == pytest.approx(p.mem_lat * p.mem_thru)


def test_params_methods_and_errors():
    assert volkov.params("H100").sources["mem_lat"].startswith("unlocked chase")   # no random chase for the SXM
    assert volkov.params("H100", method="mt4g").mem_lat == pytest.approx(834.476)
    assert volkov.params("H100 PCIe").mem_lat == pytest.approx(650.0)
    with pytest.raises(ValueError, match="has no 'mt4g' latency"):
        volkov.params("GH200", method="mt4g")
    with pytest.raises(ValueError, match="method must be one of"):
        volkov.params("GH200", method="guess")
    with pytest.raises(ValueError, match="bandwidth must be one of"):
        volkov.params("GH200", bandwidth="pin")
    with pytest.raises(ValueError, match="Maxwell.*GH200"):
        volkov.params("RTX 4090")
    with pytest.raises(ValueError, match="modern GPUs only"):
        volkov.params("Kepler", method="mt4g")
    with pytest.raises(ValueError, match="Table 6.5 fit"):
        volkov.refined_memory_throughput(volkov.params("A100"), 32, 0.0)
    with pytest.raises(ValueError, match="window_mb"):
        modern.chase_plateau("L40", window_mb=(256, 64))


def test_plateau_is_the_median_of_the_window():
    for c in modern.latency_curves("GH200"):
        sel = (c["footprint_mb"] >= 128) & (c["footprint_mb"] <= 256)
        row = next(r for r in modern.chase_plateau("GH200") if r["source"] == c["source"])
        assert row["value"] == pytest.approx(np.median(c["cycles"][sel]))
    # the L40's 96 MB L2 still answers at 64 MB: the Volkov-style 64 MB bound would mix L2 hits in
    assert min(r["value"] for r in modern.chase_plateau("L40", (64, 256))) < 610 < \
        min(r["value"] for r in modern.chase_plateau("L40"))


def test_the_band_encloses_every_sourced_value():
    for name in modern.GPUS:
        lo, hi = modern.spread(name)["mem_lat"]
        lats = [r["value"] for r in modern.measurements(name) if r["quantity"] == "mem_lat"]
        assert lo == min(lats) and hi == max(lats)
        tlo, thi = modern.spread(name)["mem_thru"]
        bws = [r["value"] for r in modern.measurements(name) if r["quantity"] in ("read_bw", "triad_bw", "copy_bw")]
        assert tlo == pytest.approx(float(modern.mem_thru(min(bws), name)))
        assert thi == pytest.approx(float(modern.mem_thru(max(bws), name)))
        blo, bhi = modern.band(volkov.needed_occupancy, name, 0.0)
        for p in [volkov.params(name)] + modern.variants(name):
            assert blo - 1e-9 <= volkov.needed_occupancy(p, 0.0) <= bhi + 1e-9


def test_gh200_triad_exceeds_the_warp_slots():
    p = volkov.params("GH200", bandwidth="triad")
    assert round(volkov.needed_occupancy(p, 0.0)) == 77 > p.max_warps_per_sm
    assert round(volkov.needed_occupancy(volkov.params("GH200"), 0.0)) == 56


def test_every_latency_has_a_source_and_a_method():
    for name in modern.GPUS:
        for r in modern.measurements(name):
            assert r["source"].strip() and r["method"].strip(), r
    for f in ("gpu_benches_latency", "gpu_benches_stream", "measurements", "alu", "simulator_configs", "amd"):
        rows = read_rows(f"modern/{f}.csv")
        assert rows and all(r["source"].strip() for r in rows), f
    for r in read_rows("modern/alu.csv"):
        assert r["alu_lat_method"].split(":")[0] in ("measured", "assumed")
        assert int(r["fp32_lanes_per_sm"]) == hardware.get_gpu(r["gpu"]).cuda_cores_per_sm


@pytest.mark.parametrize("name", modern.GPUS)
def test_every_model_runs_on_modern_parameters(name):
    p = volkov.params(name)
    n = np.arange(1.0, p.max_warps_per_sm + 1.0)
    for m in modern.MODELS:
        for a in (0.0, 4.0, np.inf):
            if m == "cuda_guide" and a == 0:
                continue
            try:
                with np.errstate(all="ignore"), prior.expected_invalid():
                    est = modern.evaluate(m, p, n, a)
            except ValueError as e:        # only the A100 80 GB lacks an input: its pin bandwidth
                assert p.gpu == "A100-80" and "pin bandwidth" in str(e) and m in (
                    "hong_kim2009", "huang2014_rr", "huang2014_gto"), (m, e)
                continue
            ipc = np.asarray(est.ipc)
            assert np.all(np.isfinite(ipc) & (ipc >= 0)), (m, a)
    with pytest.raises(ValueError, match="Table 6.5"):
        modern.evaluate("volkov_refined", p, n, 4.0)
    with pytest.raises(ValueError, match="model must be one of"):
        modern.evaluate("roofline", p, n, 4.0)


def test_zhang_owens_take_the_basic_models_curves():
    p = volkov.params("H100 PCIe")
    n = np.arange(1.0, 65.0)
    for a in (0.0, np.inf):     # at the two ends the input curves are the answer
        zo = modern.evaluate("zhang_owens2011", p, n, a).ipc
        assert np.allclose(zo, modern.evaluate("volkov_basic", p, n, a).ipc)
    assert "basic-model input curves" in modern.label("zhang_owens2011_add")


@pytest.mark.parametrize("name", modern.GPUS)
def test_needed_occupancy_of_the_basic_model_is_volkovs(name):
    # the grid search lands on the first grid point at or above the closed form, 0.9 x Little's law
    p = volkov.params(name)
    alphas = np.array([0.0, 0.5, 3.0, 20.0, 100.0, np.inf])
    exact = volkov.needed_occupancy(p, alphas, 0.9)
    got = modern.needed_occupancy("volkov_basic", p, alphas)
    assert np.all(got >= exact - 1e-9) and np.all(got < exact + modern.STEP + 1e-9)
    c = modern.cusp("volkov_basic", p)
    on_grid = volkov.needed_occupancy(p, modern.CUSP_ALPHAS, 0.9)
    assert c["is_cusp"] and c["warps"] == pytest.approx(on_grid.max(), abs=modern.STEP)
    a_exact, _ = volkov.cusp_exact(p)
    assert a_exact / 2 ** 0.25 <= c["alpha"] <= a_exact * 2 ** 0.25


def test_needed_occupancy_says_when_a_model_has_no_peak():
    p = volkov.params("GH200")
    assert np.isnan(modern.needed_occupancy("huang2014_rr", p, 0.0)[0])    # grows without bound
    assert np.isnan(modern.needed_occupancy("cuda_guide", p, 0.0)[0])      # alpha = 0 not taken
    assert modern.needed_occupancy("cuda_guide", p, np.inf)[0] == pytest.approx(modern.STEP)
    c = modern.cusp("huang2014_rr", p)
    assert np.isnan(c["warps"]) and not c["is_cusp"]
    with pytest.raises(ValueError, match="fraction"):
        modern.needed_occupancy("volkov_basic", p, 0.0, fraction=1.5)


def test_model_table_rows_and_bands():
    rows = modern.model_table()
    assert {(r["gpu"], r["model"]) for r in rows} == {(g, m) for g in modern.GPUS for m in modern.MODELS}
    for r in rows:
        if r["note"]:
            assert r["gpu"] == "A100-80" and "pin bandwidth" in r["note"]
            continue
        for q, lo, hi in (("alpha0", "alpha0_lo", "alpha0_hi"), ("alpha_inf", "alpha_inf_lo", "alpha_inf_hi"),
                          ("cusp_warps", "cusp_lo", "cusp_hi")):
            if not np.isnan(r[q]):
                assert 0 < r[q] <= 2 * r["max_warps"], (r["gpu"], r["model"], q)
            if not np.isnan(r[lo]) and r["model"] in ("volkov_basic", "transit2015", "sim2012", "zhang_owens2011"):
                assert r[lo] - 1e-9 <= r[q] <= r[hi] + 1e-9, (r["gpu"], r["model"], q)
    cusps = {(r["gpu"], r["model"]): r.get("is_cusp") for r in rows}
    # Volkov's basic model has a cusp on every modern GPU; Sim et al. and Hong & Kim have none (cf. §7.10)
    assert all(cusps[(g, "volkov_basic")] and not cusps[(g, "sim2012")] for g in modern.GPUS)
    assert not any(cusps[(g, "hong_kim2009")] for g in modern.GPUS if g != "A100-80")


def test_model_pivot_cells():
    rows = modern.model_table(("A100 80GB", "GH200"), ("hong_kim2009", "huang2014_rr", "volkov_basic"))
    t = modern.model_pivot(rows, "cusp_warps")
    assert t.loc["Hong & Kim 2009", "A100-80"] == "n/a"
    assert t.loc["Huang et al. 2014, round-robin", "GH200"] == "–"
    assert " at α = " in t.loc["Volkov basic (§4.1)", "GH200"]
    assert t.loc["Hong & Kim 2009", "GH200"].endswith("no cusp")
    with pytest.raises(ValueError, match="quantity must be"):
        modern.model_pivot(rows, "cusp")


def test_modern_summary_html_and_explorer():
    from gpumodels.comparisons import modern_explorer as volkov_explorer

    text = volkov_explorer.modern_summary_html("A100 80GB", ("hong_kim2009", "volkov_basic"))
    assert "not evaluated" in text and "warps at α" in text
    pytest.importorskip("ipywidgets")
    box = volkov_explorer.modern_explorer("L40")
    models, pick, alpha = box.children[0].children[0], *box.children[0].children[1].children
    pick.value = "GH200"
    alpha.value = 0.0
    models.value = ("cuda_guide", "sim2012")
    assert "GH200" in box.children[1].value and "Sim et al. 2012" in box.children[1].value


def test_sequential_chase_rows():
    p = volkov.params("A100 80GB", method="sequential chase")
    assert p.mem_lat == pytest.approx(460.76)
    assert modern.spread("A100 80GB")["mem_lat"][0] == pytest.approx(460.76)
    with pytest.raises(ValueError, match="has no 'sequential chase' latency"):
        volkov.params("GH200", method="sequential chase")
    alu = {r["gpu"]: r for r in read_rows("modern/alu.csv")}
    assert alu["A100-80"]["alu_lat_method"].startswith("measured")


def test_model_band_contains_the_default_curve():
    n = np.arange(1.0, 65.0)
    for a in (0.0, 4.0, np.inf):
        lo, hi = modern.model_band("volkov_basic", "GH200", n, a)
        mid = np.asarray(prior.evaluate("volkov_basic", volkov.params("GH200"), n, a).ipc)
        assert np.all(lo <= mid + 1e-12) and np.all(mid <= hi + 1e-12) and np.all(lo >= 0)


def test_crosscheck_sums_accel_sim_increments():
    rows = {(r["architecture"], r["source"]): r for r in modern.crosscheck()}
    config = rows[("Ampere", "Accel-Sim A100 configuration, L1 + L2 + DRAM increments")]
    assert config["dram"] == 37 + 224 + 198
    tuner = rows[("Ampere", "Accel-Sim tuner, sequential chase (A100 80 GB PCIe, AMALi)")]
    assert tuner["dram"] == pytest.approx(460.76) and abs(tuner["dram"] - config["dram"]) < 2
    assert rows[("Maxwell", "Volkov Table 4.1")]["dram"] == volkov.params("Maxwell").mem_lat
    assert rows[("Maxwell", "PPT-GPU configuration")]["dram"] == 379
    assert rows[("Volta", "PPT-GPU configuration")]["dram"] == 302


@settings(max_examples=25, deadline=None)
@given(lat=st.floats(150.0, 1200.0), thru=st.floats(0.005, 0.2), alpha=st.sampled_from([0.0, 0.5, 4.0, 40.0, np.inf]),
       model=st.sampled_from(modern.MODELS))
def test_needed_occupancy_is_bounded_or_nan(lat, thru, alpha, model):
    p = volkov.params("GH200").replace(mem_lat=lat, mem_thru=thru)
    need = modern.needed_occupancy(model, p, alpha)[0]
    assert np.isnan(need) or modern.STEP - 1e-9 <= need <= 2 * p.max_warps_per_sm + 1e-9
    if model == "volkov_basic":     # Little's law: more latency never needs fewer warps
        more = modern.needed_occupancy(model, p.replace(mem_lat=lat * 1.5), alpha)[0]
        assert np.isnan(more) or more >= need - 1e-9     # nan: beyond twice the SM's limit


def test_littles_law_in_bytes():
    rows = {r["gpu"]: r for r in modern.littles_law()}
    for g in modern.GPUS:      # in warp loads it is the needed occupancy at alpha = 0
        assert rows[g]["loads_read"] == pytest.approx(volkov.needed_occupancy(volkov.params(g), 0.0))
        assert rows[g]["load_bytes"] == 128 and rows[g]["slot_bytes"] == 128 * rows[g]["slots"]
    mi = rows["MI210"]
    assert (mi["units"], mi["load_bytes"], mi["slots"], mi["clock_ghz"]) == (104, 256, 32, 1.7)
    plateau = [r["value"] for r in modern.chase_plateau("MI210")]
    assert len(plateau) == 2 and min(plateau) <= mi["mem_lat"] <= max(plateau)
    assert mi["bytes_read"] == pytest.approx(mi["mem_lat"] * mi["read_gbs"] / (104 * 1.7))
    with pytest.raises(ValueError, match="AMD GPU"):
        volkov.params("MI210")


def test_other_latencies_are_sourced_or_empty():
    t = modern.other_latencies()
    assert list(t.columns) == list(modern.OTHER_LATENCIES) and list(t.index) == list(modern.GPUS)
    assert t.loc["V100PCIe", "alu_lat"] == pytest.approx(4.11969)
    assert t.loc["A100-80", "sfu_lat"] == pytest.approx(23.2004)
    assert t.loc["H100", "shared_lat"] == pytest.approx(29.8824)
    assert t.loc["GH200"].isna().all()          # nobody measured it: left empty, not filled
