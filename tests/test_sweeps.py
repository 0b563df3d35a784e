"""gpu-benches' gpu-roofline sweeps (measured by its authors) against a roofline and
Volkov's basic model: provenance, the mapping of a point to the models' inputs worked
by hand, bounds, independence from the measured values, the summary."""

import csv
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from gpumodels.comparisons import sweeps
from gpumodels.facts import hardware, modern
from gpumodels.facts.occupancy import occupancy
from gpumodels.facts.param_sets import params as volkov_params
from gpumodels.ground.errors import UnknownNameError
from gpumodels.papers.volkov import synthetic as volkov

CSV = Path(__file__).resolve().parent.parent / "data" / sweeps.TABLE
COMMIT = "1038c5d0d0f4"


@pytest.fixture(scope="module")
def pred():
    return sweeps.predict()


def _rows():
    with open(CSV, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_provenance_columns():
    rows = _rows()
    assert len(rows) == 1134
    for r in rows:
        assert r["source"] == f"RRZE-HPC/gpu-benches {r['file']} @ {COMMIT}", r
        assert r["measured_by"].startswith("gpu-benches authors"), r
        assert re.fullmatch(r"[0-9a-f]{12}", r["kernel_commit"]), r
        assert r["block_size"] == "256"
    books = {r["gpu"]: r["book_gpu"] for r in rows}
    assert books == {
        "A100 40GB": "A100", "A40": "", "L40": "L40", "H200": "", "MI300X": "",
    }
    assert {b for b in books.values() if b} <= set(modern.GPUS)
    text = (CSV.parent / "README.md").read_text(encoding="utf-8")
    assert "Measured by the gpu-benches authors" in text and "GPL" in text


def test_printed_numbers_are_consistent():
    df = sweeps.points()
    # Fl/B = (2 + 2·its) / 8 and GF/s = Fl/B × GB/s up to the printed rounding
    assert np.allclose(df["flop_per_byte"], (2 + 2 * df["its"]) / 8)
    assert np.allclose(df["gflops"], df["flop_per_byte"] * df["gbs"], rtol=4e-3, atol=1)
    assert set(df.loc[df["modelled"], "gpu"]) == {"A100 40GB", "L40"}


def test_launch_fills_every_warp_slot():
    # the printed grid is SMs × (blocks per SM) of 256 threads: the warp-slot limit
    for name, book in sweeps.sweep_gpus(modelled=True).items():
        rec = hardware.get_gpu(book)
        blocks = sweeps.points(name)["blocks"].unique()
        assert len(blocks) == 1
        n = sweeps.warps_per_sm(blocks[0], rec.sm_count, 256)
        assert n == occupancy(rec.compute_capability, 256).warps_per_sm
        assert n == rec.max_warps_per_sm


def test_worked_example_a100_memory_bound(pred):
    # A100, device 0, its = 24: by hand
    row = pred[(pred["gpu"] == "A100 40GB") & (pred["device"] == 0)]
    row = row[row["its"] == 24].iloc[0]
    p = modern.params("A100")
    i = (2 + 2 * 24) / 8                       # 6.25 flop/B, as printed
    alpha = (24 + 2) / 2                       # 24 FFMA + 2 FADD per 2 loads = 13
    assert row["flop_per_byte"] == i and alpha == 2 * i + 0.5 == row["alpha"]
    n = 864 / 108 * (256 / 32)                 # 64 warps/SM
    assert row["warps_per_sm"] == n and row["clock_mhz"] == 1410
    assert p.clock_ghz == 1.41                 # the printed clock is the record's
    x = min(
        n / (p.mem_lat + alpha * p.alu_lat),   # latency: 64 / (573.3 + 52)
        p.mem_thru,                            # 0.0764: binds
        p.alu_thru / alpha,
        p.issue_thru / (alpha + 1),
    )
    assert x == p.mem_thru
    gbs = x * 128 * 108 * 1.41                 # = mem_thru_gbs, 1490 GB/s
    assert row["gbs_volkov"] == pytest.approx(gbs) == pytest.approx(1490.0)
    assert row["gflops_volkov"] == pytest.approx(i * gbs)
    assert row["limit_volkov"] == "memory"
    peak = p.alu_thru * 32 * 2 * 108 * 1.41    # 19 491.84 GFLOP/s
    assert row["gflops_roofline"] == pytest.approx(min(peak, i * 1490.0))
    assert row["err_gbs_volkov"] == pytest.approx(gbs / 1322 - 1)


def test_worked_example_l40_at_its_measured_clock(pred):
    # L40, device 0, its = 512 at the printed 1740 MHz: issue-bound in Volkov's model
    row = pred[(pred["gpu"] == "L40") & (pred["device"] == 0) & (pred["its"] == 512)]
    row = row.iloc[0]
    p = modern.params("L40")
    f = 1.74
    assert row["clock_ghz"] == f and row["warps_per_sm"] == 852 / 142 * 8 == 48
    alpha = (512 + 2) / 2
    mem_thru = p.mem_thru_gbs / (128 * 142 * f)   # GB/s kept, cycles at 1.74 GHz
    x = min(mem_thru, p.alu_thru / alpha, p.issue_thru / (alpha + 1))
    assert x == p.issue_thru / (alpha + 1)
    assert row["gbs_volkov"] == pytest.approx(x * 128 * 142 * f)
    assert row["limit_volkov"] == "issue"
    assert row["gflops_roofline"] == pytest.approx(4 * 32 * 2 * 142 * f)
    assert row["limit_roofline"] == "alu"


def test_at_clock_keeps_dram_time_and_bandwidth():
    p = modern.params("L40")
    q = sweeps.at_clock(p, 1.32)
    assert q.mem_thru_gbs == pytest.approx(p.mem_thru_gbs)
    assert q.mem_lat / q.clock_ghz == pytest.approx(p.mem_lat / p.clock_ghz)  # ns
    for f in ("alu_lat", "alu_thru", "issue_thru"):
        assert getattr(q, f) == getattr(p, f)
    assert sweeps.at_clock(p, p.clock_ghz) is p


def test_volkov_gflops_equal_its_adds(pred):
    # I × GB/s is §4.1's 32·α·x ALU lane-ops at 8I/(4I+1) flop per ALU instruction
    for g, sub in pred.groupby("book_gpu"):
        for f, s in sub.groupby("clock_ghz"):
            p = sweeps.at_clock(modern.params(g), f)
            i = s["flop_per_byte"].to_numpy()
            lane_ops = volkov.arithmetic_throughput(p, s["warps_per_sm"], 2 * i + 0.5)
            gflops = lane_ops * 8 * i / (4 * i + 1) * p.sm_count * f
            assert np.allclose(gflops, s["gflops_volkov"], rtol=1e-12)


@pytest.mark.parametrize("clock", sweeps.CLOCKS)
def test_predictions_bounded(clock):
    df = sweeps.predict(clock=clock)
    for m in sweeps.MODELS:
        for q in ("gbs", "gflops"):
            v = df[f"{q}_{m}"].to_numpy()
            assert np.all(np.isfinite(v)) and np.all(v > 0), (m, q)
        for g, sub in df.groupby("book_gpu"):
            p = modern.params(g)
            peak_flops = p.alu_thru * 32 * 2 * p.sm_count * sub["clock_ghz"]
            assert np.all(sub[f"gflops_{m}"] <= peak_flops * (1 + 1e-12)), (m, g)
            assert np.all(sub[f"gbs_{m}"] <= p.mem_thru_gbs * (1 + 1e-12)), (m, g)
        assert set(df[f"limit_{m}"]) <= {"latency", "memory", "alu", "issue"}
        assert np.all(np.isfinite(df[f"err_gflops_{m}"]))


def test_predict_does_not_read_the_measured_values():
    pts = sweeps.points()
    pts = pts[pts["modelled"]].reset_index(drop=True)
    a = sweeps.predict(pts)
    bent = pts.copy()
    rng = np.random.default_rng(0)
    bent["gbs"] = bent["gbs"] * rng.uniform(0.1, 10, len(bent))
    bent["gflops"] = bent["gflops"] * rng.uniform(0.1, 10, len(bent))
    b = sweeps.predict(bent)
    kinds = ("gbs", "gflops", "limit", "knee")
    cols = [c for c in a.columns if "_" in c and c.split("_")[0] in kinds]
    assert len(cols) == 4 * len(sweeps.MODELS)
    pd.testing.assert_frame_equal(a[cols], b[cols])
    b2 = sweeps.predict(bent.drop(columns=["gbs", "gflops"]))
    pd.testing.assert_frame_equal(a[cols], b2[cols])
    assert not any(c.startswith("err_") for c in b2.columns)


def test_summary_shape_and_values():
    s = sweeps.summary()
    assert list(s[["gpu", "model"]].itertuples(index=False, name=None)) == [
        ("A100 40GB", "roofline"), ("A100 40GB", "volkov"),
        ("L40", "roofline"), ("L40", "volkov"),
    ]
    assert set(s["n_points"]) == {344, 136}
    for c in ("median_abs_err", "p90_abs_err", "knee_measured", "knee_predicted"):
        assert np.all(np.isfinite(s[c])) and np.all(s[c] > 0), c
    assert np.all((s["within"] >= 0) & (s["within"] <= 1))
    # the A100 roofline's knee is peak flops / peak bandwidth at the constant clock
    p = modern.params("A100")
    a100 = s[(s["gpu"] == "A100 40GB") & (s["model"] == "roofline")].iloc[0]
    assert a100["knee_predicted"] == pytest.approx(sweeps.peak_gflops(p) / 1490.0)
    d = sweeps.summary(by_device=True)
    assert len(d) == (8 + 2) * len(sweeps.MODELS)


def test_refined_model_is_not_applicable_and_says_why():
    st = sweeps.refined_status()
    assert not st["applicable"].any()
    assert st["reason"].str.contains("Table 6.5").all()
    with pytest.raises(ValueError, match="Table 6.5"):
        sweeps.predict(models=("refined",))
    # the code path itself, on a GPU that has a Table 6.5 fit (Kepler)
    kp = volkov_params("Kepler")
    basic, _ = sweeps.model_gbs(kp, 32, [0.25, 4.0, 64.0], "volkov")
    refined, limit = sweeps.model_gbs(kp, 32, [0.25, 4.0, 64.0], "refined")
    assert np.all(refined <= basic * (1 + 1e-12)) and limit[0] == "latency"


def test_unknown_gpu_names_the_allowed_ones():
    with pytest.raises(UnknownNameError, match="A100 40GB"):
        sweeps.points("Voodoo2")
    ax = Figure().subplots()
    with pytest.raises(UnknownNameError, match="modelled"):
        sweeps.plot(ax, "MI300X")
    with pytest.raises(UnknownNameError, match="L40"):
        sweeps.predict(sweeps.points("H200"))
    with pytest.raises(UnknownNameError, match="clock"):
        sweeps.predict(clock="boost")


def test_aliases_and_plot():
    assert len(sweeps.points("A100 SXM4")) == len(sweeps.points("a100 40gb")) == 344
    ax = Figure().subplots()
    sweeps.plot(ax, "L40")
    assert ax.get_xscale() == ax.get_yscale() == "log"
    assert "GFLOP/s" in ax.get_ylabel() and "flop/B" in ax.get_xlabel()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0].startswith("measured") and len(labels) == 1 + len(sweeps.MODELS)


def test_reduction_script_parses_result_lines_only():
    import importlib.util

    path = CSV.parents[3] / "tools" / "reduce_gpu_roofline.py"
    spec = importlib.util.spec_from_file_location("reduce_gpu_roofline", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    text = (
        "-- Finished Building --\n24\n"
        "0 864 blocks    24 its      6.250 Fl/B       1322 GB/s      8263 GF/s   "
        "1410 Mhz   262 W   50°C\n\n"
    )
    (row,) = mod.parse(text)
    assert (row["its"], row["fpb"], row["gbs"], row["mhz"]) == ("24", "6.250", "1322",
                                                                "1410")
    csv_rows = [r for r in _rows() if r["gpu"] == "A100 40GB" and r["its"] == "24"]
    assert csv_rows[0]["flop_per_byte"] == "6.250" and csv_rows[0]["gbs"] == "1322"
