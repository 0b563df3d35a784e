"""Hostile tool output for every parser of tool output (issue 38): each bad input raises the
package's DataError (a ValueError) naming the line and the field; real output still parses."""

import importlib.util
from pathlib import Path

import pytest

from gpumodels import bench
from gpumodels.ground.errors import DataError
from gpumodels.papers.perez_piccoli import model as pp

ROOT = Path(__file__).resolve().parents[1]

# ---- volkov_bench (gpumodels.comparisons.bench.parse_output / summarize) ----

VOLKOV = """# gpu=Test GPU
# cc=9.0
# sm_count=2
# clock_khz=1000000
# mem_clock_khz=2000000
# driver_api=13000
# runtime=12040
# arg.kind=chase
# arg.pattern=stream
# arg.alpha=0
# arg.ilp=1
# arg.threads=64
# arg.blocks=2
# arg.smem=0
# arg.iters=1
# registers=16
# static_smem=0
# blocks_per_sm_cuda=16
# repeats_per_warp=512
# spacing=4096
# elapsed_ms=0.0123
warp,sm,start,end
0,0,1000,2000
1,0,1000,2000
2,1,50,1050
3,1,50,1050
"""


def test_volkov_valid_output_parses_and_summarizes():
    meta, rows = bench.parse_output(VOLKOV)
    r = bench.summarize(meta, rows, date="2026-01-01")
    assert r["ilp"] == 1 and r["ipc_per_sm"] == pytest.approx(512 * 4 / (1000 * 2))
    # the program's default blocks=0 (100 x blocks_per_sm_cuda x sm_count) is accepted
    auto = VOLKOV.replace("arg.blocks=2", "arg.blocks=0").replace("blocks_per_sm_cuda=16", "blocks_per_sm_cuda=1")
    table = "".join(f"{w},{w % 2},10,20\n" for w in range(400))
    meta, rows = bench.parse_output(auto.split("warp,")[0] + "warp,sm,start,end\n" + table)
    assert len(rows["warp"]) == 400


def _v(old, new):
    assert old in VOLKOV
    return VOLKOV.replace(old, new)


VOLKOV_HOSTILE = [
    ("negative ilp", _v("arg.ilp=1", "arg.ilp=-1"), r"line 11: header arg\.ilp must be a positive integer"),
    ("ilp not compiled", _v("arg.ilp=1", "arg.ilp=3"), r"line 11: header arg\.ilp must be one of"),
    ("ilp with alpha>0", _v("arg.alpha=0", "arg.alpha=8"), r"arg\.ilp|repeats_per_warp"),
    ("alpha not compiled", _v("arg.alpha=0", "arg.alpha=3"), r"line 10: header arg\.alpha must be one of"),
    ("negative alpha", _v("arg.alpha=0", "arg.alpha=-8"), r"line 10: header arg\.alpha"),
    ("NaN clock", _v("clock_khz=1000000", "clock_khz=nan"), r"line 4: header clock_khz"),
    ("inf sm_count", _v("sm_count=2", "sm_count=inf"), r"line 3: header sm_count"),
    ("NaN elapsed", _v("elapsed_ms=0.0123", "elapsed_ms=nan"), r"line 21: header elapsed_ms"),
    ("float count", _v("repeats_per_warp=512", "repeats_per_warp=512.5"), r"line 19: header repeats_per_warp"),
    ("non-numeric count", _v("arg.threads=64", "arg.threads=sixty"), r"line 12: header arg\.threads"),
    ("underscore count", _v("sm_count=2", "sm_count=1_0"), r"line 3: header sm_count"),
    ("threads > 1024", _v("arg.threads=64", "arg.threads=2048"), r"line 12: header arg\.threads"),
    ("unknown kind", _v("arg.kind=chase", "arg.kind=fma"), r"line 8: header arg\.kind"),
    ("unknown pattern", _v("arg.pattern=stream", "arg.pattern=zigzag"), r"line 9: header arg\.pattern"),
    ("repeats inconsistent with iters", _v("arg.iters=1", "arg.iters=2"),
     r"line 19: header repeats_per_warp=512 is not arg\.iters x unroll = 1024"),
    ("unknown key", _v("# runtime=12040", "# runtime=12040\n# ipc=9"), r"line 8: unknown header 'ipc'"),
    ("unknown arg", _v("# arg.smem=0", "# arg.smem=0\n# arg.bogus=1"), r"line 15: unknown header 'arg\.bogus'"),
    ("duplicated key", _v("# arg.ilp=1", "# arg.ilp=1\n# arg.ilp=8"), r"line 12: header 'arg\.ilp' given twice"),
    ("empty gpu", _v("gpu=Test GPU", "gpu="), r"line 1: header 'gpu' is empty"),
    ("bad cc", _v("cc=9.0", "cc=nine"), r"line 2: header cc"),
    ("missing sm_count", _v("# sm_count=2\n", ""), r"sm_count"),
    ("negative start", _v("1,0,1000,2000", "1,0,-5,2000"), r"line 24: start must be an unsigned integer"),
    ("NaN in table", _v("1,0,1000,2000", "1,0,nan,2000"), r"line 24: start must be an unsigned integer"),
    ("extra field", _v("1,0,1000,2000", "1,0,1000,2000,7"), r"line 24: expected four integers"),
    ("truncated line", VOLKOV[:-6] + "\n", r"line 26: expected four integers"),
    ("cut mid-line", VOLKOV[:-1], r"middle of its last line"),
    ("duplicated warp", _v("3,1,50,1050", "1,1,50,1050"), r"line 26: warp 1 already recorded on line 24"),
    ("header after table", VOLKOV + "# gpu=again\n", r"line 27: header line .* after the warp table"),
    ("missing warp", _v("3,1,50,1050\n", ""), r"had 4 warps"),
    ("empty input", "", r"no warp records"),
]


@pytest.mark.parametrize("name,text,match", VOLKOV_HOSTILE, ids=[c[0] for c in VOLKOV_HOSTILE])
def test_volkov_hostile_output_is_refused(name, text, match):
    with pytest.raises(DataError, match=match):
        bench.parse_output(text)


def test_summarize_rechecks_a_hand_edited_header():
    meta, rows = bench.parse_output(VOLKOV)
    meta["arg.ilp"] = "-1"                          # was: a negative IPC
    with pytest.raises(DataError, match=r"arg\.ilp must be a positive integer"):
        bench.summarize(meta, rows)


SMI = "NVIDIA H100 80GB HBM3, 570.86.15, 1980 MHz, 1980 MHz, 2619 MHz\n"
SMI_HOSTILE = [
    ("empty input", "", r"line 1: expected 5 comma-separated"),
    ("truncated", SMI[:30], r"expected 5 comma-separated"),
    ("extra field", SMI.rstrip() + ", 7 W\n", r"expected 5 comma-separated"),
    ("NaN clock", SMI.replace("1980 MHz,", "nan MHz,", 1), r"field clock_sm"),
    ("negative clock", SMI.replace("2619 MHz", "-2619 MHz"), r"field clock_mem"),
    ("non-numeric driver", SMI.replace("570.86.15", "latest"), r"field driver"),
    ("clock above max", SMI.replace("1980 MHz,", "2980 MHz,", 1), r"clock_sm .* above clock_max_sm"),
    ("empty name", SMI.replace("NVIDIA H100 80GB HBM3", ""), r"field name is empty"),
]


def test_smi_valid():
    assert bench.parse_smi(SMI)["clock_mem"] == "2619 MHz"
    assert bench.parse_smi(SMI.replace("2619 MHz", "[N/A]"))["clock_mem"] == "[N/A]"


@pytest.mark.parametrize("name,text,match", SMI_HOSTILE, ids=[c[0] for c in SMI_HOSTILE])
def test_smi_hostile_output_is_refused(name, text, match):
    with pytest.raises(DataError, match=match):
        bench.parse_smi(text)


# ---- perfparams_bench (gpumodels.papers.perez_piccoli.model.parse_bench) ----

PP = (Path(__file__).parent / "fixtures" / "perfparams_bench_h100.txt").read_text()


def _p(old, new):
    assert old in PP
    return PP.replace(old, new)


def test_perfparams_valid_output_parses():
    device, rows = pp.parse_bench(PP)
    assert device["sms"] == "132" and [r["parameter"] for r in rows] == list(pp.PARAMETERS)
    # rounding of a tiny time: value within the printed rounding of work / ms / 1e6
    device, rows = pp.parse_bench(_p("2.000000,8192,0.004096", "0.000001,8192,8192.000000"))
    assert rows[3]["value"] == 8192.0


PP_HOSTILE = [
    ("value inconsistent with work/time", _p("226774.273229", "226774.373229"),
     r"line 3: value 226774\.373229 is not work / ms / 1e6 = 226774\.273229"),
    ("value off by a factor", _p("0.020972,GB/s", "0.209720,GB/s"), r"line 10: value .* is not work / ms"),
    ("negative threads", _p("compute,oa,1,1024", "compute,oa,1,-1024"), r"line 4: threads must be printed as %d"),
    ("NaN value", _p("8.388608,GB/s", "nan,GB/s"), r"line 8: value must be printed as %\.6f"),
    ("inf work", _p("8388608,4.194304", "inf,4.194304"), r"line 9: work must be printed as %\.0f"),
    ("negative ms", _p("2.000000,8192", "-2.000000,8192"), r"line 6: ms must be printed as %\.6f"),
    ("non-numeric count", _p("compute,ao,16896", "compute,ao,many"), r"line 5: blocks must be printed as %d"),
    ("work not whole flops", _p("134217728,26.843546", "134217729,26.843546"), r"line 4: work 134217729 is not a whole"),
    ("shape mismatch", _p("compute,oa,1,1024", "compute,oa,2,1024"), r"line 4: shape oa launches one block"),
    ("threads over 1024", _p("memory,oa,1,1024", "memory,oa,1,2048"), r"line 8: threads must be at most 1024"),
    ("truncated line", _p(",0.020972,GB/s\n", ",0.02\n"), r"line 10: perfparams_bench line has 7 fields"),
    ("missing measurement", _p("memory,oo,1,1,400.000000,8388608,0.020972,GB/s\n", ""),
     r"ends after 7 of its 8 measurements \(missing gmb_oo\)"),
    ("extra field", _p("0.020972,GB/s", "0.020972,GB/s,1"), r"line 10: perfparams_bench line has 9 fields"),
    ("unknown kind", _p("memory,oo", "cache,oo"), r"line 10: unknown kind or shape"),
    ("unknown header key", _p("work,value,unit", "work,value,ipc"), r"line 2: .*must start with its CSV header"),
    ("duplicated key", _p("compute,oo", "compute,oa"), r"line 6: measurement compute,oa appears twice \(first on line 4\)"),
    ("second device line", "# device,X,cc,9.0,sms,1\n" + PP, r"line 2: a second '# device,' line"),
    ("device extra key", _p(",sms,132", ",sms,132,mhz,5"), r"line 1: device line must read"),
    ("NaN sms", _p("sms,132", "sms,nan"), r"line 1: device line: sms"),
    ("wrong unit", _p("4.194304,GB/s", "4.194304,GFLOP/s"), r"line 9: a memory row must be in GB/s"),
    ("empty input", "", r"'# device,' line and CSV header"),
]


@pytest.mark.parametrize("name,text,match", PP_HOSTILE, ids=[c[0] for c in PP_HOSTILE])
def test_perfparams_hostile_output_is_refused(name, text, match):
    with pytest.raises(DataError, match=match):
        pp.parse_bench(text)


# ---- tools/reduce_gpu_roofline.py ----

def _tool(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ROOF = ("-- Finished Building --\n24\n"
        "0 864 blocks    24 its      6.250 Fl/B       1322 GB/s      8263 GF/s   1410 Mhz   262 W   50°C\n\n")


def test_roofline_valid_output_parses():
    (row,) = _tool("reduce_gpu_roofline").parse(ROOF)
    assert row["gflops"] == "8263"


ROOF_HOSTILE = [
    ("GF/s inconsistent with Fl/B x GB/s", ROOF.replace("8263 GF/s", "9263 GF/s"), r"x, line 3: gflops 9263 GF/s is not"),
    ("NaN", ROOF.replace("1322 GB/s", "nan GB/s"), r"x, line 3: not a gpu-roofline result line"),
    ("inf", ROOF.replace("8263 GF/s", "inf GF/s"), r"x, line 3: not a gpu-roofline result line"),
    ("negative", ROOF.replace("24 its", "-24 its"), r"x, line 3: not a gpu-roofline result line"),
    ("truncated line", ROOF[:60] + "\n", r"x, line 3: not a gpu-roofline result line"),
    ("unknown field", ROOF.replace("262 W", "262 W 3 V"), r"x, line 3: not a gpu-roofline result line"),
    ("duplicated field", ROOF.replace("1410 Mhz", "1410 Mhz 1410 Mhz"), r"x, line 3: not a gpu-roofline"),
    ("non-numeric count", ROOF.replace("864 blocks", "many blocks"), r"x, line 3: not a gpu-roofline result line"),
    ("empty input", "", r"x: no result line"),
]


@pytest.mark.parametrize("name,text,match", ROOF_HOSTILE, ids=[c[0] for c in ROOF_HOSTILE])
def test_roofline_hostile_output_is_refused(name, text, match):
    with pytest.raises(DataError, match=match):
        _tool("reduce_gpu_roofline").parse(text, "x")


# ---- tools/modern_gpu_benches.py (gpu-benches' latency and stream files) ----

LAT = ("clock: 1380 1380\n"
       "  1000000  1380        2     20.2    27.9 27.9 27.9 27.9\n"
       "  2000000  1700      2.9    151.5   128.8 129.0 125.0 137.1\n\n")
LAT_TE = "  1000000  1380        1     21.7    29.9\n"
STREAM = ("block smBlocks   threads    occ%   |                init       read       scale\n"
          "  16      1280       1    0.8%     |  GB/s:          39         19         34\n"
          "  32      2560       1    1.6%     |  GB/s:          78         36         67\n")
STREAM_TE = ("blockSize   threads       %occ  |                init       read\n"
             "       32        2560      3 %  |  GB/s:         153         72\n")


def test_gpu_benches_valid_files_parse():
    tool = _tool("modern_gpu_benches")
    assert [r["cycles"] for r in tool.parse_latency(LAT, "x")] == ["27.9", "128.8"]
    assert tool.parse_latency(LAT_TE, "x")[0]["cycles"] == "29.9"
    rows = tool.parse_stream(STREAM, "x")
    assert [(r["block_size"], r["threads"], r["occupancy_pct"], r["read"]) for r in rows] == [
        ("16", "1280", "0.8", "19"), ("32", "2560", "1.6", "36")]
    assert rows[0]["triad"] == ""  # a kernel the file does not have stays empty
    (te,) = tool.parse_stream(STREAM_TE, "x")
    assert (te["threads"], te["occupancy_pct"], te["init"]) == ("2560", "3", "153")


GB_HOSTILE = [
    ("latency", "short line", LAT.replace("    27.9 27.9 27.9 27.9\n", "\n", 1), r"x line 2: expected 5 or 8 numbers"),
    ("latency", "mean inconsistent with the time", LAT.replace("27.9 27.9", "37.9 27.9", 1),
     r"x line 2: mean 37.9 cycles, but"),
    ("latency", "percentiles out of order", LAT.replace("125.0 137.1", "135.0 127.1"), r"x line 3: percentiles"),
    ("latency", "negative", LAT.replace("20.2", "-20.2"), r"x line 2: a negative"),
    ("latency", "text", LAT.replace("20.2", "abc"), r"x line 2: a value is not a number"),
    ("latency", "zero iterations", LAT.replace("1000000", "0"), r"x line 2: iters must be"),
    ("stream", "a value missing", STREAM.replace("19         34\n", "19\n", 1), r"x line 2: expected 3 GB/s values"),
    ("stream", "a line before the header", STREAM.split("\n", 1)[1], r"x line 1: not a header"),
    ("stream", "unknown kernel", STREAM.replace("scale\n", "copy\n"), r"x line 1: unknown kernels \['copy'\]"),
    ("stream", "unknown header", STREAM.replace("smBlocks", "sm"), r"x line 1: unknown header"),
    ("stream", "threads not a multiple of the block", STREAM.replace("2560", "2561"), r"x line 3: threads 2561"),
    ("stream", "SM count changes", STREAM.replace("2560", "5120"), r"x line 3: threads 5120 imply 160 SMs"),
    ("stream", "occupancy over 100", STREAM.replace("0.8%", "180%"), r"x line 2: threads 1280 must"),
    ("stream", "negative GB/s", STREAM.replace("78 ", "-78 "), r"x line 3: a negative"),
    ("stream", "garbage line", STREAM + "Configure 4 instead of 8\n", r"x line 4: not a header"),
]


@pytest.mark.parametrize("kind,name,text,match", GB_HOSTILE, ids=[c[1] for c in GB_HOSTILE])
def test_gpu_benches_hostile_files_are_refused(kind, name, text, match):
    tool = _tool("modern_gpu_benches")
    parse = tool.parse_latency if kind == "latency" else tool.parse_stream
    with pytest.raises(tool.ParseError, match=match):
        parse(text, "x")
