"""The CUDA microbenchmarks: compiled by nvcc (no GPU needed), array setup and driver tested on the CPU."""

from pathlib import Path
import shutil
import subprocess

import numpy as np
import pytest

from gpumodels import bench
from gpumodels.papers.volkov import experiment as ex

NVCC = bench.nvcc()


@pytest.mark.skipif(NVCC is None, reason="nvcc not found on PATH or in /usr/local/cuda/bin: CUDA sources not compiled")
@pytest.mark.parametrize("source", bench.SOURCES)
def test_cuda_sources_compile(source, tmp_path):
    cmd = bench.compile_command(source, "sm_90", tmp_path / "out.o", compile_only=True)
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-3000:]
    assert (tmp_path / "out.o").stat().st_size > 0


def test_every_cuda_source_is_listed():
    on_disk = sorted(p.name for p in bench.BENCH_DIR.glob("*.cu"))
    assert on_disk == sorted(bench.SOURCES)


@pytest.fixture(scope="module")
def setup_check(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("c++")
    if cxx is None:
        pytest.skip("no C++ compiler (g++/c++) to build bench/setup_check.cpp")
    exe = tmp_path_factory.mktemp("bench") / "setup_check"
    subprocess.run([cxx, "-O2", "-std=c++17", "-o", str(exe), str(bench.BENCH_DIR / "setup_check.cpp")], check=True)
    return exe


def _run(exe, *args):
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True).stdout.split("\n")


@pytest.mark.parametrize("n,threads,blocks,ilp", [(4096, 64, 4, 1), (8192, 32, 5, 2), (1000, 16, 3, 4)])
def test_cpp_streaming_setup_matches_python(setup_check, n, threads, blocks, ilp):
    out = _run(setup_check, "streaming", n, threads, blocks, ilp, 0, 0x40000000)   # no unsafe addresses here
    py = ex.streaming_chase(n, threads, blocks, ilp=ilp)
    assert out[0].split() == ["spacing", str(py.spacing), "iterations", str(py.iterations)]
    bases = [int(v) for v in out[1].split()[1:]]
    assert bases == list(py.starts[:, 0])
    assert np.array_equal(np.array(out[2].split()[1:], dtype=int), py.next)


def test_cpp_streaming_skips_float_unsafe_sections(setup_check):
    # entries are 8 B; below 0x00800000 the low word is a denormal float, so an array at 0x007F0000
    # must skip its first 64 KB (8192 entries, two sections of 4096)
    out = _run(setup_check, "streaming", 65536, 64, 4, 1, 4096, 0x007F0000)
    assert [int(v) for v in out[1].split()[1:]] == [8192, 12288, 16384, 20480]
    # just below the Inf/NaN exponent at 0x7F800000 only two sections are usable
    assert _run(setup_check, "streaming", 65536, 64, 3, 1, 4096, 0x7F7F0000)[0].startswith("error")


def test_cpp_random_loop_is_one_cycle(setup_check):
    out = _run(setup_check, "random", 5000, 64, 32, 7, 0x40000000)
    assert out[0].split() == ["used", "5000", "cycle", "5000"]
    assert [int(v) for v in out[1].split()[1:4]] == [0, 32, 64]


# one volkov_bench run as the program prints it (made up), shared with the fuzz baselines
CANNED = (Path(__file__).parent / "fixtures" / "volkov_bench_canned.txt").read_text()


def test_parse_and_summarize():
    meta, rows = bench.parse_output(CANNED)
    assert meta["gpu"] == "Test GPU" and rows["sm"] == [0, 0, 1, 1]
    r = bench.summarize(meta, rows, date="2026-01-01")
    assert r["cycles"] == 1000 and r["max_occupancy"] == 2 and r["blocks"] == 2
    assert r["ipc_per_sm"] == pytest.approx(100 * 4 / (1000 * 2))
    assert r["gbs"] == pytest.approx(0.2 * 32 * 8 * 2 * 1.0)          # IPC × 256 B × SMs × GHz
    assert r["latency_per_repeat"] == pytest.approx(10.0)
    assert r["source"].startswith("measured with bench/volkov_bench.cu on Test GPU")


@pytest.mark.parametrize("text,match", [
    ("# gpu=x\nwarp,sm,start,end\n0,0,1\n", "line 3"),
    ("# gpu=x\nwarp,sm,begin,end\n", "line 2"),
    ("#broken\n", "line 1"),
    ("# gpu=x\n", "no warp records"),
    ("warp,sm,start,end\n0,0,1,2\n", "gpu"),
])
def test_parse_errors_name_the_problem(text, match):
    with pytest.raises(ValueError, match=match):
        bench.parse_output(text)


@pytest.mark.parametrize("name,text,match", [
    ("sm_count -2", CANNED.replace("sm_count=2", "sm_count=-2"), "sm_count must be a positive integer"),
    ("sm_count 0", CANNED.replace("sm_count=2", "sm_count=0"), "sm_count must be a positive integer"),
    ("repeated header", CANNED.replace("# cc=9.0", "# cc=9.0\n# cc=8.0"), "given twice"),
    ("repeated warp", CANNED + "3,1,50,1050\n", "warp 3 already recorded"),
    ("no elapsed time", CANNED.replace("3,1,50,1050", "3,1,50,50"), "no elapsed time"),
    ("cut short", CANNED[:-3], "no elapsed time|middle of its last line"),
    ("no final newline", CANNED[:-1], "middle of its last line"),
    ("missing warps", CANNED.replace("# arg.smem=0", "# arg.smem=0\n# arg.blocks=3"), "had 6 warps"),
    ("sm beyond count", CANNED.replace("3,1,50", "3,5,50"), "beyond sm_count"),
])
def test_parser_refuses_damaged_runs(name, text, match):
    with pytest.raises(ValueError, match=match):
        bench.parse_output(text)


def test_parse_smi():
    d = bench.parse_smi("NVIDIA H100 80GB HBM3, 570.86.15, 1980 MHz, 1980 MHz, 2619 MHz\n")
    assert d["name"] == "NVIDIA H100 80GB HBM3" and d["clock_mem"] == "2619 MHz"
    with pytest.raises(ValueError, match="5 comma-separated"):
        bench.parse_smi("only, three, fields")


def test_plan_uses_the_occupancy_calculator():
    p = bench.plan("3.0", [64, 60, 56], 128, registers_per_thread=16)
    assert [r["smem"] is None for r in p] == [False, True, False]          # 15 blocks of 4 warps: unreachable
    assert p[0]["smem"] <= 3072 and p[2]["smem"] > 3072
    with pytest.raises(ValueError, match="multiple of the block size"):
        bench.plan("9.0", [6], 128)


def test_compile_command_checks_arguments():
    assert "-arch=sm_80" in bench.compile_command("volkov_bench.cu", "sm_80")
    with pytest.raises(ValueError, match="source"):
        bench.compile_command("nope.cu")
    with pytest.raises(ValueError, match="arch"):
        bench.compile_command("volkov_bench.cu", "90")
