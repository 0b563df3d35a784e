"""Robustness of the engines (issue 38, round 2): strict compute-capability parsing,
documented size bounds of the refsim kernel builders, the simulators' launch sizes,
refsim's alpha_ipc and the RefMachine fields. Every hostile case raises the project's
error naming the parameter; every bound is the documented module constant."""

import math

import pytest

from gpumodels.engines import sim
from gpumodels.engines.refsim import kernels as K
from gpumodels.engines.refsim import placements
from gpumodels.engines.refsim import simulator as S
from gpumodels.facts.occupancy import (
    UnknownComputeCapabilityError,
    limits,
    normalize_cc,
)
from gpumodels.facts.param_sets import params
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import InputTypeError, UnknownNameError

# ---- 1. compute capability strings ----


@pytest.mark.parametrize(
    "given,want",
    [("7.5", "7.5"), ("75", "7.5"), (7.5, "7.5"), ("sm_75", "7.5"),
     ("compute_75", "7.5"), ((7, 5), "7.5"), (7, "7.0"), ("7", "7.0"),
     (" 8.6 ", "8.6"), ("100", "10.0")],
)
def test_cc_spellings_accepted(given, want):
    assert normalize_cc(given) == want


@pytest.mark.parametrize(
    "bad", ["7.05", "8.05", "7.50", "7.", ".5", "sm_7", "sm_7a", "7.5.0", "", "x",
            7.05, 8.96, -7.0, math.nan, True, (7, 10), (True, 0), (7, -1), None],
)
def test_cc_strict(bad):
    with pytest.raises(UnknownComputeCapabilityError, match=r"cc must be .*'sm_75'"):
        normalize_cc(bad)


def test_cc_callers():
    assert limits("75").cc == limits("sm_75").cc == limits(7.5).cc == "7.5"
    with pytest.raises(ValueError, match="cc must be"):
        limits("7.05")


# ---- 2. kernel builders: types, lower bounds, documented upper bounds ----

BUILDERS = {  # builder -> {argument: (lowest valid, bound constant)}
    K.vecadd: {"n": (32, "MAX_ELEMENTS"), "tpb": (1, "MAX_THREADS_PER_BLOCK")},
    K.bfs: {"n": (1, "MAX_ELEMENTS"), "degree": (1, "MAX_LOOP"),
            "chunk": (1, "MAX_LOOP")},
    K.fft: {"blocks": (1, "MAX_BLOCKS")},
    K.neuralnet: {"samples": (1, "MAX_BLOCKS"), "n_in": (1, "MAX_LOOP"),
                  "n_out": (1, "MAX_THREADS_PER_BLOCK")},
    K.reduction: {"n": (2 * 512 * 256, "MAX_ELEMENTS"), "blocks": (1, "MAX_BLOCKS"),
                  "tpb": (1, "MAX_THREADS_PER_BLOCK")},
    K.scan_reduce: {"n": (512 * 256, "MAX_ELEMENTS"), "blocks": (1, "MAX_BLOCKS"),
                    "tpb": (1, "MAX_THREADS_PER_BLOCK")},
    K.sort: {"n": (256, "MAX_ELEMENTS"), "tpb": (1, "MAX_THREADS_PER_BLOCK")},
    K.stencil2d: {"width": (3, "MAX_ELEMENTS"), "height": (3, "MAX_ELEMENTS")},
    K.md5hash: {"blocks": (1, "MAX_BLOCKS"), "tpb": (1, "MAX_THREADS_PER_BLOCK")},
    K.s3d: {"n": (128, "MAX_ELEMENTS"), "species": (1, "MAX_LOOP"),
            "reactions": (1, "MAX_LOOP")},
    K.convolution_rows: {"width": (128, "MAX_ELEMENTS"), "height": (4, "MAX_ELEMENTS")},
    K.convolution_columns: {"width": (16, "MAX_ELEMENTS"),
                            "height": (64, "MAX_ELEMENTS")},
    K.md: {"n": (128, "MAX_ELEMENTS"), "neighbors": (1, "MAX_LOOP")},
    K.matrixmul: {"ha": (16, "MAX_ELEMENTS"), "wa": (16, "MAX_ELEMENTS"),
                  "wb": (16, "MAX_ELEMENTS")},
    K.spmv: {"rows": (4, "MAX_ELEMENTS"), "cols": (1, "MAX_ELEMENTS"),
             "mean_nnz": (1, "MAX_LOOP")},
    K.transpose: {"width": (16, "MAX_ELEMENTS"), "height": (16, "MAX_ELEMENTS")},
    K.cfd: {"nelr": (128, "MAX_ELEMENTS")},
    K.triad: {"n": (128, "MAX_ELEMENTS"), "tpb": (1, "MAX_THREADS_PER_BLOCK")},
    K.qtc: {"points": (1024, "MAX_ELEMENTS"), "seeds": (1, "MAX_BLOCKS"),
            "tpb": (1, "MAX_THREADS_PER_BLOCK")},
}
ARGS = [(f, a, lo, c) for f, d in BUILDERS.items() for a, (lo, c) in d.items()]
IDS = [f"{f.__name__}-{a}" for f, a, _, _ in ARGS]


def test_bound_constants():
    assert K.MAX_THREADS_PER_BLOCK == limits("3.7").max_threads_per_block == 1024
    assert (K.MAX_BLOCKS, K.MAX_ELEMENTS, K.MAX_LOOP) == (1 << 16, 1 << 30, 1 << 12)
    assert (K.MAX_MEMORY_OPS, K.MAX_TRACE_LANES) == (1 << 14, 1 << 24)
    for f, d in BUILDERS.items():
        for _lo, const in d.values():
            assert const in f.__doc__, (f.__name__, const)


@pytest.mark.parametrize("f,arg,lo,const", ARGS, ids=IDS)
def test_builder_hostile(f, arg, lo, const):
    for bad in (True, "8", None, 2.5):
        with pytest.raises(ValueError, match=rf"^{arg} must be an integer"):
            f(**{arg: bad})
    for bad in (lo - 1, 0, -1, 10**400, getattr(K, const) + 1):
        with pytest.raises(ValueError, match=rf"^{arg} must be an integer") as e:
            f(**{arg: bad})
        assert not isinstance(e.value, TypeError)


# smaller companions where the lowest value of one argument with the others at their
# (four-wave) defaults would exceed the trace budget
SMALL = {
    K.reduction: {"n": 1 << 14, "blocks": 8},
    K.scan_reduce: {"n": 1 << 14, "blocks": 8},
    K.sort: {"n": 1 << 12},
    K.qtc: {"points": 256, "seeds": 64},
}


@pytest.mark.parametrize("f,arg,lo,const", ARGS, ids=IDS)
def test_builder_lowest_valid(f, arg, lo, const):
    small = {k: v for k, v in SMALL.get(f, {}).items() if k != arg} if arg == "tpb" else {}
    k = f(**small, **{arg: lo})
    assert k.n_warps >= 1 and k.ops
    k.trace()


def test_bound_names_constant():
    with pytest.raises(ValueError, match=r"species .*4096\] \(upper bound MAX_LOOP"):
        K.s3d(species=K.MAX_LOOP + 1)
    with pytest.raises(ValueError, match=r"^n must .*MAX_ELEMENTS.*got 1000000"):
        K.reduction(n=10**400)


def test_budgets():
    # each argument within its bound, the product beyond MAX_TRACE_LANES
    with pytest.raises(ValueError, match=r"MAX_TRACE_LANES = 16777216: lower n or tpb"):
        K.vecadd(n=1 << 24)
    # a long loop for few warps: MAX_MEMORY_OPS
    with pytest.raises(ValueError, match=r"MAX_MEMORY_OPS = 16384: lower n"):
        K.reduction(n=1 << 26, blocks=1, tpb=32)
    with pytest.raises(ValueError, match="rows must be a multiple of 4"):
        K.spmv(rows=6)
    with pytest.raises(ValueError, match=r"^points .*\[65, .*at least tpb and seeds"):
        K.qtc(points=64, seeds=65)


def test_defaults_unchanged():
    sizes = {b: (K.kernel(b).n_warps, len(K.kernel(b).ops)) for b in K.GENERATORS}
    assert sizes["S3D"] == (4096, 32) and sizes["reduction"] == (4096, 42)
    assert all(w * o * 32 <= K.MAX_TRACE_LANES for w, o in sizes.values())


def test_default_sizes_fill_the_gpu_min_waves_times_with_two_stated_exceptions():
    table_iv = {t["benchmark"] for t in placements.tests(None) if t["set"] in ("eval", "train")}
    assert len(table_iv) == 17
    short = {b: round(K.waves(b), 2) for b in table_iv if K.waves(b) < K.MIN_WAVES}
    assert short == {"triad": 0.46, "matrixMul": 2.0}
    # triad: B (n floats) must fit 48 KB of shared memory; matrixMul: twice the grid
    # would exceed the trace budget
    assert K.kernel("triad").arrays["B"].bytes == K.SHARED_LIMIT_PER_BLOCK
    with pytest.raises(ValueError, match="MAX_TRACE_LANES"):
        K.matrixmul(ha=512, wa=128, wb=208)
    rows = read_rows("huang_li/refsim_parameters.csv")
    assert K.SM_COUNT == int(float(next(r["value"] for r in rows if r["parameter"] == "sm_count")))


# ---- 2b. the simulators' launch sizes and alpha_ipc ----


def test_sim_total_warps():
    sm = sim.volkov_sm(params("Kepler"))
    prog = sim.alpha_program(0)
    assert sim.MAX_TOTAL_WARPS == 1 << 20
    assert "MAX_TOTAL_WARPS" in sim.simulate.__doc__
    for bad in (sim.MAX_TOTAL_WARPS + 1, 10**400, 3, True, 4.5):
        with pytest.raises(ValueError, match="total_warps"):
            sim.simulate(sm, prog, 4, repeat=False, total_warps=bad)
    tr = sim.simulate(sm, prog, 4, repeat=False, total_warps=8, warps_per_block=4)
    assert len(tr.warp_end) == 8


def test_refsim_warps():
    assert S.MAX_WARPS == 1 << 20
    st = S.streams_from_records([[(S.ALU, 1, False, 1.0, [])]] * 2)
    bad = S.Streams(**{**st.__dict__, "blocks": 3})
    with pytest.raises(ValueError, match="blocks × warps_per_block is 3"):
        S.run_streams(bad)
    with pytest.raises(ValueError, match="blocks × warps_per_block"):
        S.run_streams(S.Streams(**{**st.__dict__, "blocks": S.MAX_WARPS + 1}))


def test_alpha_ipc_bounds():
    assert S.MAX_ALPHA_RECORDS == 1 << 21
    assert "MAX_ALPHA_RECORDS" in S.alpha_ipc.__doc__
    for bad in (10**400, sim.MAX_ALPHA + 1, -1, True, 1.5):
        with pytest.raises(ValueError, match="alpha"):
            S.alpha_ipc(1, bad)
    # within MAX_ALPHA, beyond the record budget: 64 × 2001 × 40 > 2**21
    with pytest.raises(ValueError, match=r"MAX_ALPHA_RECORDS = 2097152: lower alpha"):
        S.alpha_ipc(64, 2000)
    with pytest.raises(ValueError, match=r"window\[1\]"):
        S.alpha_ipc(1, 0, window=(5, 10**9))
    with pytest.raises(ValueError, match="window"):
        S.alpha_ipc(1, 0, window=(5,))
    assert S.alpha_ipc(1, 0, window=(1, 3)) > 0


# ---- 3. RefMachine fields ----

BAD_FIELDS = [
    ("alu_lat", math.nan), ("alu_lat", math.inf), ("alu_lat", -1.0),
    ("lsu_thru", -1), ("lsu_thru", 0), ("alu_thru", math.nan),
    ("clock_ghz", 0), ("clock_ghz", True), ("sm_count", 0), ("sm_count", 2.5),
    ("schedulers", 10**400), ("issue_per_scheduler", 0), ("shmem_lat", "24"),
    ("tex_hit_lat", 1e300), ("const_hit_lat", math.nan), ("l2_front", -5),
    ("l2_back", math.inf), ("l2_to_dram", None), ("fixed_mem_lat", math.nan),
    ("lat_ns", (1.0, 2.0)), ("occupancy_ns", (1.0, math.nan, 2.0)),
    ("pin_bandwidth_gbs", 0.0), ("l2_sets", 0), ("l2_assoc", -1),
    ("tex_sets", 1 << 19), ("const_assoc", 1.5), ("const_line_bytes", 0),
    ("tex_tile_bytes", -64), ("tex_tile_rows", 0), ("launch_jitter", -1),
    ("mapping", "nope"),
]


@pytest.mark.parametrize("field,value", BAD_FIELDS, ids=[f for f, _ in BAD_FIELDS])
def test_refmachine_fields(field, value):
    with pytest.raises(ValueError, match=rf"^{field}"):
        S.machine().with_(**{field: value})


def test_refmachine_valid_and_unknown():
    m = S.machine()
    assert m.with_(sm_count=1, fixed_mem_lat=301.0).sm_count == 1
    with pytest.raises(UnknownNameError, match="parameter must be one of"):
        m.with_(alu_latency=9)
    with pytest.raises(ValueError, match="^alu_lat"):
        S.simulate("vecAdd", alu_lat=math.nan)
    assert isinstance(InputTypeError("x"), ValueError)


def test_waves_need_no_trace_and_agree_with_the_traced_occupancy():
    for b in ("fft", "reduction", "triad", "matrixMul"):
        k = K.kernel(b)
        traced = k.blocks / (K.SM_COUNT * k.trace().resident_blocks_per_sm())
        assert K.waves(b) == traced
