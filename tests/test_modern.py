"""Modern GPUs (issue 20): sourced Volkov-style parameters, their spread, and Little's law."""

import numpy as np
import pytest

from gpumodels import hardware, prior, volkov
from gpumodels._data import read_rows
from gpumodels.volkov import modern


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
    for f in ("gpu_benches_latency", "gpu_benches_stream", "measurements", "alu", "simulator_configs"):
        rows = read_rows(f"modern/{f}.csv")
        assert rows and all(r["source"].strip() for r in rows), f
    for r in read_rows("modern/alu.csv"):
        assert r["alu_lat_method"].split(":")[0] in ("measured", "assumed")
        assert int(r["fp32_lanes_per_sm"]) == hardware.get_gpu(r["gpu"]).cuda_cores_per_sm


def test_prior_models_run_on_modern_parameters():
    p = volkov.params("H100 PCIe")
    n = np.arange(1.0, 65.0)
    for m in prior.MODELS:
        if m in ("zhang_owens2011", "zhang_owens2011_add", "volkov_refined"):
            continue
        with np.errstate(all="ignore"), prior.expected_invalid():
            est = prior.evaluate(m, p, n, 4.0)
        ipc = np.asarray(est.ipc)
        assert np.all(np.isfinite(ipc) & (ipc >= 0) | np.isnan(ipc)), m


def test_model_band_contains_the_default_curve():
    n = np.arange(1.0, 65.0)
    for a in (0.0, 4.0, np.inf):
        lo, hi = modern.model_band("volkov_basic", "GH200", n, a)
        mid = np.asarray(prior.evaluate("volkov_basic", volkov.params("GH200"), n, a).ipc)
        assert np.all(lo <= mid + 1e-12) and np.all(mid <= hi + 1e-12) and np.all(lo >= 0)


def test_crosscheck_sums_accel_sim_increments():
    rows = {(r["architecture"], r["source"].split()[0]): r for r in modern.crosscheck()}
    assert rows[("Ampere", "Accel-Sim")]["dram"] == 37 + 224 + 198
    assert rows[("Maxwell", "Volkov")]["dram"] == volkov.params("Maxwell").mem_lat
    assert rows[("Maxwell", "PPT-GPU")]["dram"] == 379 and rows[("Volta", "PPT-GPU")]["dram"] == 302
