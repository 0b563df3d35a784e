"""Perez & Piccoli: the eight parameters, the derived features, Little's law and the CUDA driver."""

from pathlib import Path
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels import bench, perfparams as pp, published
from gpumodels.papers.perez_piccoli import explorer as ppx
from gpumodels.ground.data import read_rows


def test_derived_features_pinned():
    f = {g: pp.measured(g).features() for g in pp.gpus()}
    assert pp.gpus() == ["GTS250", "GTX260", "GTX470"]
    expect = {
        "GTS250": (15.9784, 32.0633, 5.00867, 5.48780, 21.0758, 114.615),
        "GTX260": (26.9286, 32.0412, 6.00419, 12.3069, 27.0370, 192.630),
        "GTX470": (13.9226, 71.6411, 8.03839, 3.69159, 11.2431, 98.3309),
    }
    for g, vals in expect.items():
        got = (f[g].sm_count, f[g].n_ppipe, f[g].l_pipe, f[g].n_min_bl, f[g].w_memory_bus, f[g].t_thread_delay)
        np.testing.assert_allclose(got, vals, rtol=2e-5)
        assert f[g].p == pp.measured(g).cp_aa and f[g].b == pp.measured(g).gmb_aa


def test_printed_cells_reproduce_except_two_explained():
    computed = pp.printed_cells()
    # the 18 ratio cells; the P and B identities and the §4 claims have their own producers
    others = ("pp.t5.p.", "pp.t7.b.", "pp.s4.")
    assert set(computed) == {k for k in published.keys("pp.") if not k.startswith(others)}
    assert computed["pp.t5.n_ppipe.GTX470"] == pytest.approx(71.64109, rel=1e-6)
    table = published.compare_printed(computed)
    assert len(table) == 18
    # "32×2.25" = 72 at the integer precision of the other N_PPipe cells reproduces (71.64);
    # 192.63 and 98.33 printed as 192.5 and 98.37 (see the chapter)
    published.check(table, expect_outside=("pp.t7.t_thread_delay.GTX260", "pp.t7.t_thread_delay.GTX470"))
    assert published.printed_half_unit("pp.t7.n_min_bl.GTX260") == pytest.approx(0.05)
    assert published.printed_half_unit("pp.t5.sm_count.GTS250") == 0.5


def test_theory_and_the_one_magnitude_remark():
    p = {g: pp.theoretical_p(g) for g in pp.gpus()}
    b = {g: pp.theoretical_b(g) for g in pp.gpus()}
    assert p == pytest.approx({"GTS250": 470.016, "GTX260": 604.8, "GTX470": 544.32})
    assert b == pytest.approx({"GTS250": 70.4, "GTX260": 128.8, "GTX470": 133.92})
    ratios = [pp.measured(g).gmb_aa / b[g] for g in pp.gpus()]
    assert all(0.80 < r < 0.82 for r in ratios)            # 81 %, not "one magnitude lower"
    assert all(0.92 < pp.measured(g).cp_aa / p[g] < 0.94 for g in pp.gpus())


def test_littles_law_explains_pipeline_depth_and_width():
    for g, l_pipe, n_ppipe in (("GTS250", 5, 32), ("GTX260", 6, 32), ("GTX470", 8, 72)):
        ll = pp.littles_law(g)
        f = pp.measured(g).features()
        assert ll["l_pipe"] == l_pipe and round(f.l_pipe) == l_pipe
        assert ll["n_ppipe"] == n_ppipe and abs(f.n_ppipe - n_ppipe) / n_ppipe < 0.01
        assert 0.92 < pp.measured(g).cp_oo / ll["cp_oo"] < 0.94      # the same 93 % as Cp_AA / P
        assert 0.85 < f.t_thread_delay / ll["t_thread_delay_max"] < 0.92
    assert pp.littles_law("GTX470")["warps_to_fill"] / 8 == 2.25       # the printed "32×2.25"


@pytest.mark.parametrize("i", range(8))
@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf"), "1", None])
def test_bad_parameters_raise(i, bad):
    args = [1.0] * 8
    args[i] = bad
    with pytest.raises(ValueError, match=rf"^{pp.PARAMETERS[i]} must be a finite number in \(0.0, inf\]"):
        pp.derive(*args)


def test_bad_gpu_and_records():
    with pytest.raises(ValueError, match="gpu must be one the paper measured"):
        pp.measured("GTX280")
    with pytest.raises(ValueError, match="gpu must be one the paper measured"):
        pp.measured("Voodoo2")
    with pytest.raises(ValueError, match="cp_oo must be a finite number"):
        pp.Parameters("X", 1, 1, 1, 0, 1, 1, 1, 1)
    with pytest.raises(ValueError, match="flops_per_op"):
        pp.littles_law("GTS250", flops_per_op=0)


pos = st.floats(1e-3, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=100, deadline=None)
@given(st.lists(pos, min_size=8, max_size=8))
def test_features_identities(v):
    f = pp.derive(*v)
    cp_aa, cp_oa, cp_ao, cp_oo = v[:4]
    assert all(math.isfinite(x) and x > 0 for x in (f.sm_count, f.n_ppipe, f.l_pipe, f.n_min_bl, f.w_memory_bus,
                                                    f.t_thread_delay))
    # L_Pipe is the per-SM All-One rate over One-One: (Cp_AO / ||SM||) / Cp_OO
    assert f.l_pipe == pytest.approx((cp_ao / f.sm_count) / cp_oo, rel=1e-12)
    assert f.n_ppipe * cp_ao == pytest.approx(cp_aa, rel=1e-12)


def test_every_perez_row_is_sourced():
    for name in ("parameters", "theory"):
        rows = read_rows(f"perez/{name}.csv")
        assert rows and all(r["source"].startswith("Perez & Piccoli") for r in rows)
    assert len(read_rows("perez/parameters.csv")) == 24


# a made-up perfparams_bench output (an H100-like device), shared by the parser tests
BENCH_OUTPUT = (Path(__file__).parent / "fixtures" / "perfparams_bench_h100.txt").read_text()


def test_bench_output_parses_into_tidy_measured_rows():
    device, rows = pp.parse_bench(BENCH_OUTPUT)
    assert device == {"device": "NVIDIA H100 80GB HBM3", "cc": "9.0", "sms": "132"}
    assert [r["parameter"] for r in rows] == list(pp.PARAMETERS)
    tidy = pp.bench_rows(BENCH_OUTPUT, driver="550.00", date="2026-11-22")
    assert all(set(r) == set(pp.BENCH_FIELDS) for r in tidy) and all(r["source"] == "measured" for r in tidy)
    params = pp.bench_parameters(tidy)
    assert params.cp_aa == pytest.approx(226774.273229) and params.gmb_oo == pytest.approx(0.020972)
    assert params.features().sm_count == pytest.approx(226774.273229 / 26.843546)
    with pytest.raises(ValueError, match="missing gmb_oo"):
        pp.bench_parameters(tidy[:-1])


@pytest.mark.parametrize("text,match", [
    ("hello", "must start with its CSV header"),
    ("# device,X,cc,9.0,sms,1\nkind,shape,ms\ncompute,aa", "must start with its CSV header"),  # was: a short row
    ("# device,X,cc,9.0,sms,1\nkind,shape,blocks,threads,ms,work,value,unit\nflops,aa,1,1,1,1,1,x", "unknown kind"),
    ("kind,shape,blocks,threads,ms,work,value,unit\n", "'# device,' line"),
])
def test_bench_parse_errors(text, match):
    with pytest.raises(ValueError, match=match):
        pp.parse_bench(text)


def _lines():
    return BENCH_OUTPUT.splitlines(keepends=True)


@pytest.mark.parametrize("name,text,match", [
    ("duplicate row", "".join(_lines() + [_lines()[2]]), "appears twice"),
    ("cut short", BENCH_OUTPUT[:-8], "fields, expected|%.6f|middle of its last line"),
    ("cut in a number", BENCH_OUTPUT[:-12] + ",GB/s\n", "%.6f"),
    ("no final newline", BENCH_OUTPUT.rstrip("\n"), "middle of its last line"),
    ("sms 0", BENCH_OUTPUT.replace("sms,132", "sms,0"), "sms must be a positive integer"),
    ("sms -2", BENCH_OUTPUT.replace("sms,132", "sms,-2"), "sms must be a positive integer"),
    ("bad cc", BENCH_OUTPUT.replace("cc,9.0", "cc,nine"), "cc must look like"),
    ("zero time", BENCH_OUTPUT.replace(",2.000000,8192,", ",0.000000,8192,"), "must be positive"),
    ("wrong unit", BENCH_OUTPUT.replace("0.020972,GB/s", "0.020972,GFLOP/s"), "must be in GB/s"),
])
def test_bench_parser_is_strict(name, text, match):
    with pytest.raises(ValueError, match=match):
        pp.parse_bench(text)


@pytest.mark.parametrize("line", ['# device,"NVIDIA H100, 80GB",cc,9.0,sms,132',
                                  "# device,NVIDIA H100, 80GB,cc,9.0,sms,132"])
def test_device_name_with_a_comma(line):
    device, rows = pp.parse_bench(BENCH_OUTPUT.replace(_lines()[0].rstrip("\n"), line))
    assert device == {"device": "NVIDIA H100, 80GB", "cc": "9.0", "sms": "132"}
    tidy = pp.bench_rows(BENCH_OUTPUT.replace(_lines()[0].rstrip("\n"), line), driver="x", date="2026-11-24")
    assert tidy[0]["gpu"] == "NVIDIA H100, 80GB" and tidy[0]["sm_count"] == "132"


def test_bench_source_is_built_with_the_others():
    assert pp.BENCH_SOURCE in bench.SOURCES
    cmd = bench.compile_command(pp.BENCH_SOURCE, "sm_90", "out.o", compile_only=True)
    assert cmd[-1].endswith("bench/perfparams_bench.cu") and "-c" in cmd


def test_perfparams_widgets():
    h = ppx.summary_html("GTX470")
    assert "L_Pipe" in h and "(8)" in h and "544.3" in h and "133.9" in h
    pytest.importorskip("ipywidgets")
    box = ppx.explorer("GTS250")
    box.children[0].value = "GTX260"
    assert "GTX260" in box.children[1].value and "(6)" in box.children[1].value
