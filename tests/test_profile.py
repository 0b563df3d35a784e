"""The profile readers: nvprof (gpuperfpredict layout), Nsight Compute (raw and
details pages) and hand-written YAML/CSV; every error names file, line and metric."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels.facts import profile as P
from gpumodels.facts.profile import KernelProfile, ProfileError

# Two launches in the gpuperfpredict layout: the first two rows of
# datasets/calculate_temp-GTX-680.csv (marcosamaris/gpuperfpredict @ 35b81711), cut to
# the columns the reader uses.
NVPROF = """\
"","input.size.1","input.size.2","duration","grid.x","grid.y","block.x","block.y",\
"registers.per.thread","static.smem","name","inst_executed","gld_request",\
"gst_request","device_memory_read_transactions","l2_write_transactions",\
"achieved_occupancy","fp_instructions.single.","gpu_name"
"3",64,256,8.224e-06,6,6,16,16,36,3072,"calculate_temp",69900,504,192,0,898,\
0.504242,204176,"GTX-680"
"4",64,256,8.192e-06,6,6,16,16,36,3072,"calculate_temp",69900,504,192,11,712,\
0.541978,204176,"GTX-680"
"""

# The same first launch in Nsight Compute's raw page layout: metric names in the first
# row, units in the second, thousands separators (a format example built from the
# nvprof numbers above, not an Nsight Compute measurement).
NCU_RAW = """\
==PROF== Connected to process 4242
"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",\
"Block Size","Grid Size","Device","CC","gpu__time_duration.sum",\
"smsp__inst_executed.sum","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",\
"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum","dram__bytes_read.sum",\
"dram__bytes_write.sum","sm__warps_active.avg.pct_of_peak_sustained_active",\
"launch__registers_per_thread","launch__shared_mem_per_block_static",\
"sm__cycles_elapsed.avg.per_second","device__attribute_display_name"
"","","","","","","","","","","","usecond","inst","request","request","Kbyte",\
"byte","%","register/thread","Kbyte","cycle/nsecond",""
"0","4242","hotspot","host","calculate_temp","1","7","(16, 16, 1)","(6, 6, 1)","0",\
"3.0","8.224","69,900","504","192","0","28,736","50.4242","36","3.072","1.0",\
"GeForce GTX 680"
==PROF== Disconnected from process 4242
"""


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_nvprof_reader_reads_the_gpuperfpredict_layout(tmp_path):
    path = _write(tmp_path, "k-GTX-680.csv", NVPROF)
    assert P.detect(path) == "nvprof"
    a, b = P.read(path)
    assert (a.kernel, a.gpu, a.grid, a.block) == (
        "calculate_temp",
        "GTX-680",
        (6, 6, 1),
        (16, 16, 1),
    )
    assert a.duration_s == 8.224e-06 and a.inst_executed == 69900
    assert a.dram_read_bytes == 0 and b.dram_read_bytes == 11 * 32
    assert a.registers_per_thread == 36 and a.shared_mem_per_block == 3072
    assert a.thread_inst_fp32 == 204176 and a.achieved_occupancy == 0.504242
    assert a.source.endswith("k-GTX-680.csv:2") and b.source.endswith(":3")
    # nothing guessed: the file has no DRAM write count and no clock
    assert "dram_write_bytes" in a.missing and "sm_clock_hz" in a.missing
    assert a.metrics["dram_read_bytes"].startswith("device_memory_read_transactions")


def test_ncu_raw_reader_converts_units(tmp_path):
    path = _write(tmp_path, "report.csv", NCU_RAW)
    assert P.detect(path) == "ncu"
    (p,) = P.read(path)
    assert p.kernel == "calculate_temp" and p.gpu == "GeForce GTX 680"
    assert p.grid == (6, 6, 1) and p.block == (16, 16, 1)
    assert p.duration_s == pytest.approx(8.224e-6)
    assert p.inst_executed == 69900 and p.global_load_requests == 504
    assert p.dram_write_bytes == 28736 and p.dram_read_bytes == 0
    assert p.shared_mem_per_block == 3072
    assert p.achieved_occupancy == pytest.approx(0.504242)
    assert p.sm_clock_hz == pytest.approx(1e9)


def test_ncu_details_page_is_read_too(tmp_path):
    head = (
        '"ID","Process ID","Process Name","Host Name","Kernel Name","Context",'
        '"Stream","Block Size","Grid Size","Device","CC","Section Name",'
        '"Metric Name","Metric Unit","Metric Value"\n'
    )
    rows = [
        ("gpu__time_duration.sum", "msecond", "1.5"),
        ("smsp__inst_executed.sum", "inst", "1,000,000"),
        ("dram__bytes_read.sum", "Mbyte", "2.5"),
        ("device__attribute_display_name", "", "NVIDIA H100 80GB HBM3"),
        ("Rule message", "", "some advice"),
    ]
    body = "".join(
        f'"0","1","app","h","k(float*)","1","7","(256, 1, 1)","(80, 1, 1)","0",'
        f'"9.0","Sec","{m}","{u}","{v}"\n'
        for m, u, v in rows
    )
    (p,) = P.read(_write(tmp_path, "details.csv", head + body))
    assert p.duration_s == pytest.approx(1.5e-3) and p.inst_executed == 1e6
    assert p.dram_read_bytes == pytest.approx(2.5e6) and p.gpu.endswith("HBM3")
    assert p.grid == (80, 1, 1) and p.block == (256, 1, 1)


def test_manual_yaml_and_csv(tmp_path):
    y = _write(
        tmp_path,
        "k.yaml",
        "launches:\n"
        "  - kernel: saxpy\n    gpu: GTX980\n    grid: [65536, 1, 1]\n"
        "    block: [256]\n    inst_executed: 6.3e6\n    dram_read_bytes: 1.3e8\n",
    )
    (p,) = P.read(y)
    assert p.grid == (65536, 1, 1) and p.block == (256, 1, 1) and p.gpu == "GTX980"
    assert p.metrics["inst_executed"] == "given by hand"
    c = _write(tmp_path, "k.csv", "kernel,gpu,grid,block,inst_executed\nk,GTX980,"
               "64 2,128,1000\n")
    (q,) = P.read(c)
    assert q.grid == (64, 2, 1) and q.inst_executed == 1000


@pytest.mark.parametrize(
    "text, fragment",
    [
        (NVPROF.replace("69900,504,192,0", "69900,504,abc,0"), "'gst_request'"),
        (NVPROF.replace(",0.504242,", ",1.7,"), "achieved_occupancy"),
        (NVPROF.replace("8.224e-06", "-1"), "duration_s"),
    ],
)
def test_nvprof_errors_name_file_line_and_column(tmp_path, text, fragment):
    path = _write(tmp_path, "bad.csv", text)
    with pytest.raises(ProfileError) as e:
        P.read(path)
    msg = str(e.value)
    assert "bad.csv" in msg and fragment in msg
    assert ":2" in msg or "line 2" in msg


def test_ncu_unknown_unit_is_an_error(tmp_path):
    path = _write(tmp_path, "r.csv", NCU_RAW.replace('"Kbyte","byte"', '"furlong",'
                                                   '"byte"'))
    with pytest.raises(ProfileError, match="furlong.*dram__bytes_read|dram__bytes_read"
                       ".*furlong"):
        P.read(path)


def test_unknown_field_and_bad_files(tmp_path):
    with pytest.raises(ProfileError, match="unknown field.*colour"):
        P.read(_write(tmp_path, "k.yaml", "kernel: k\ncolour: red\n"))
    with pytest.raises(ProfileError, match="not a profile"):
        P.read(_write(tmp_path, "x.csv", "a,b\n1,2\n"))
    with pytest.raises(ProfileError, match="no such file"):
        P.read(tmp_path / "missing.csv")
    with pytest.raises(ProfileError, match="1024"):
        KernelProfile(kernel="k", source="s", block=(64, 32, 1))


def test_a_bom_does_not_hide_the_header(tmp_path):
    p = tmp_path / "bom.csv"
    p.write_bytes(NVPROF.encode("utf-8-sig"))
    assert len(P.read(p)) == 2


@settings(max_examples=60, deadline=None)
@given(
    inst=st.floats(0, 1e15, allow_nan=False),
    occ=st.floats(0, 1),
    grid=st.tuples(*[st.integers(1, 2**16)] * 3),
)
def test_valid_records_round_trip_and_invalid_values_are_refused(inst, occ, grid):
    p = KernelProfile(kernel="k", source="s", grid=grid, inst_executed=inst,
                      achieved_occupancy=occ)
    assert p.blocks == grid[0] * grid[1] * grid[2]
    assert p.replace(inst_executed=inst).inst_executed == inst
    for bad in (-1.0, math.nan, math.inf):
        with pytest.raises(ProfileError, match="inst_executed"):
            p.replace(inst_executed=bad)


def test_static_smem_in_kib_only_where_the_file_prints_kib(tmp_path):
    kib = NVPROF.replace("36,3072,", "36,3,")
    (p,) = P.read(_write(tmp_path, "kib.csv", kib))[:1]
    assert p.shared_mem_per_block == 3072 and "1024" in p.metrics["shared_mem_per_block"]
    (q,) = P.read(_write(tmp_path, "b.csv", NVPROF))[:1]
    assert q.shared_mem_per_block == 3072 and "1024" not in q.metrics[
        "shared_mem_per_block"]


def test_a_boolean_is_not_a_count():
    with pytest.raises(ProfileError, match="inst_executed"):
        KernelProfile(kernel="k", source="s", inst_executed=True)


def test_an_empty_grid_size_is_named(tmp_path):
    text = NVPROF.replace('"3",64,256,8.224e-06,6,6,', '"3",64,256,8.224e-06,,6,')
    with pytest.raises(ProfileError, match=r"line 2: the grid size is empty"):
        P.read(_write(tmp_path, "g.csv", text))
