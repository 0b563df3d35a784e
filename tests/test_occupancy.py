"""Tests for gpumodels.facts.occupancy: NVIDIA's own calculator, the worked cases of Volkov 2016 §5.7,
hand-worked cases of the calculator rules for cc 1.x/2.x, input errors and invariants."""

import csv
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from gpumodels import occupancy as occ
from gpumodels.facts.occupancy import blocks_per_sm, limits, list_compute_capabilities, occupancy

FIXTURE = Path(__file__).parent / "fixtures" / "occupancy_cuda_occupancy_h.csv"


def _header_vectors():
    with open(FIXTURE, newline="") as fh:
        rows = [r for r in csv.reader(fh) if r and not r[0].startswith("#")]
    return rows[1:]


def test_matches_cuda_occupancy_h_for_every_cc_from_3_0():
    """17k launch configurations computed by cudaOccMaxActiveBlocksPerMultiprocessor (CUDA 13.0)."""
    rows = _header_vectors()
    assert len(rows) > 10000
    assert {r[0] for r in rows} == {cc for cc in list_compute_capabilities() if limits(cc).major >= 3}
    mismatches = [(cc, t, r, s, b, blocks_per_sm(cc, int(t), int(r), int(s)))
                  for cc, t, r, s, b in rows if blocks_per_sm(cc, int(t), int(r), int(s)) != int(b)]
    assert mismatches == []


# --- Volkov 2016, §5.7 -------------------------------------------------------------------------

def test_volkov_kepler_3072_bytes_gives_16_blocks():
    o = occupancy("3.0", 128, 16, 3072)
    assert (o.blocks_per_sm, o.allocated_shared_mem_per_block) == (16, 3072)


def test_volkov_kepler_3073_bytes_gives_14_not_15_blocks():
    o = occupancy("3.0", 128, 16, 3073)
    assert o.allocated_shared_mem_per_block == 3328      # rounded up to 256 B
    assert o.blocks_per_sm == 14 and o.limiter == "shared_memory"


@pytest.mark.parametrize("cc", ["1.0", "1.1", "1.2", "1.3"])
def test_volkov_g80_gt200_cannot_be_constrained_to_7_blocks(cc):
    reachable = {blocks_per_sm(cc, 32, 0, s) for s in range(0, 16385, 16)}
    assert 8 in reachable and 6 in reachable and 7 not in reachable


def test_volkov_maxwell_cannot_be_constrained_to_1_block_by_shared_memory():
    reachable = {blocks_per_sm("5.2", 32, 16, s) for s in range(0, 49153, 64)}
    assert min(reachable) == 2
    assert limits("5.2").shared_mem_per_sm == 98304 and limits("5.2").max_shared_mem_per_block == 49152


def test_cc1x_system_overhead_and_kernel_parameters_count():
    # 16 B per block: 2048 B of user data allocates 2560 B (512-byte units) -> 6 blocks, not 8
    assert occupancy("1.3", 64, 0, 2048).allocated_shared_mem_per_block == 2560
    assert blocks_per_sm("1.3", 64, 0, 2048) == 6
    # 4 kernel arguments of 4 B push 2032 B + 16 + 16 = 2064 B over a 512-B boundary
    assert occupancy("1.0", 64, 0, 2032).blocks_per_sm == 8
    assert occupancy("1.0", 64, 0, 2032, kernel_param_bytes=16).blocks_per_sm == 6
    # ...and only on cc 1.x
    assert occupancy("2.0", 64, 0, 2048, kernel_param_bytes=16).allocated_shared_mem_per_block == 2048


# --- calculator rules, cc 1.x (block granularity) and 2.x (warp granularity), worked by hand ---

@pytest.mark.parametrize("cc,tpb,regs,smem,blocks,limiter", [
    # 8 warps x 32 x 10 regs = 2560 regs/block (unit 256) -> 8192 // 2560 = 3; warps 24 // 8 = 3
    ("1.0", 256, 10, 0, 3, "warps"),
    # 3 warps rounded to 4 -> 4 x 32 x 11 = 1408 -> 1536 (unit 256) -> 8192 // 1536 = 5
    ("1.1", 96, 11, 0, 5, "registers"),
    # 4 warps x 32 x 16 = 2048 (unit 512) -> 16384 // 2048 = 8; smem 2048 + 16 -> 2560 -> 6
    ("1.3", 128, 16, 2048, 6, "shared_memory"),
    # cc 1.2: 16 warps x 32 x 17 = 8704 -> 9216 (unit 512) -> 16384 // 9216 = 1
    ("1.2", 512, 17, 0, 1, "registers"),
    # NVIDIA calculator's example: 8 warps, 32 regs -> 1024 regs/warp -> 32 warps -> 4 blocks
    ("2.0", 256, 32, 4096, 4, "registers"),
    # 21 regs -> 672 -> 704 regs/warp (unit 64) -> 46 warps (even) -> 46 // 6 = 7 blocks
    ("2.1", 192, 21, 0, 7, "registers"),
    # 48 KB of shared memory: one block per SM on Fermi
    ("2.0", 64, 8, 49152, 1, "shared_memory"),
])
def test_calculator_rules_before_kepler(cc, tpb, regs, smem, blocks, limiter):
    o = occupancy(cc, tpb, regs, smem)
    assert (o.blocks_per_sm, o.limiter) == (blocks, limiter)


def test_block_that_cannot_fit_gives_zero_with_its_resource():
    o = occupancy("2.0", 1024, 63, 0)        # 1024 x 63 registers > 32768 per block
    assert o.blocks_per_sm == 0 and o.warps_per_sm == 0 and o.limiter == "registers"
    o = occupancy("1.0", 32, 0, 16384)       # 16 KB + 16 B system area > 16 KB
    assert o.blocks_per_sm == 0 and o.limiter == "shared_memory"


def test_reserved_shared_memory_from_cc_8_0():
    # 8192 B + 1 KB reserved = 9216 B -> 167936 // 9216 = 18 (20 without the reservation)
    o = occupancy("8.0", 32, 0, 8192)
    assert (o.allocated_shared_mem_per_block, o.blocks_per_sm) == (9216, 18)
    assert occupancy("9.0", 1024, 0, 232448).blocks_per_sm == 1  # the largest opt-in block


def test_hopper_full_occupancy_example():
    o = occupancy("9.0", 256, 32, 0)
    assert (o.blocks_per_sm, o.warps_per_sm, o.occupancy) == (8, 64, 1.0)


def test_shared_mem_per_sm_override():
    assert blocks_per_sm("3.0", 32, 0, 4096) == 12
    assert occupancy("3.0", 32, 0, 4096, shared_mem_per_sm=16384).blocks_per_sm == 4


def test_sweep_table():
    t = occ.sweep(["7.0", "8.0"], [128, 256], [32, 64], 0)
    assert len(t) == 8
    assert list(t.columns) == ["cc", "threads_per_block", "registers_per_thread", "shared_mem_per_block",
                               "blocks_per_sm", "warps_per_sm", "occupancy", "limiter"]
    assert t.loc[(t.cc == "8.0") & (t.threads_per_block == 256) & (t.registers_per_thread == 64), "warps_per_sm"].item() == 32


# --- compute capabilities ------------------------------------------------------------------------

def test_all_compute_capabilities_1_0_to_9_0():
    assert list_compute_capabilities() == ["1.0", "1.1", "1.2", "1.3", "2.0", "2.1", "3.0", "3.2", "3.5", "3.7",
                                           "5.0", "5.2", "5.3", "6.0", "6.1", "6.2", "7.0", "7.2", "7.5",
                                           "8.0", "8.6", "8.7", "8.9", "9.0"]


@pytest.mark.parametrize("given_cc", ["8.6", 8.6, "sm_86", (8, 6), " 8.6 "])
def test_cc_spellings(given_cc):
    assert limits(given_cc).cc == "8.6"


@pytest.mark.parametrize("bad", ["4.0", "9.1", "10.0", "x", 4, None, True, (9,)])
def test_unknown_cc_is_an_error_listing_the_known_ones(bad):
    with pytest.raises(ValueError, match=r"1\.0.*9\.0"):
        blocks_per_sm(bad, 128, 32, 0)


# --- input errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,param,rng", [
    (dict(threads_per_block=0), "threads_per_block", r"\[1, 1024\]"),
    (dict(threads_per_block=2048), "threads_per_block", r"\[1, 1024\]"),
    (dict(threads_per_block=128.5), "threads_per_block", r"\[1, 1024\]"),
    (dict(threads_per_block=True), "threads_per_block", r"\[1, 1024\]"),
    (dict(threads_per_block="128"), "threads_per_block", r"\[1, 1024\]"),
    (dict(registers_per_thread=-1), "registers_per_thread", r"\[0, 255\]"),
    (dict(registers_per_thread=256), "registers_per_thread", r"\[0, 255\]"),
    (dict(shared_mem_per_block=-4), "shared_mem_per_block", r"\[0, 98304\]"),
    (dict(shared_mem_per_block=98305), "shared_mem_per_block", r"\[0, 98304\]"),
    (dict(shared_mem_per_block=float("nan")), "shared_mem_per_block", r"\[0, 98304\]"),
])
def test_bad_input_names_parameter_and_range(kwargs, param, rng):
    args = dict(cc="7.0", threads_per_block=128, registers_per_thread=32, shared_mem_per_block=0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=rf"{param} must be an integer in {rng} for compute capability 7\.0"):
        occupancy(**args)


def test_cc_1x_limits_are_smaller():
    with pytest.raises(ValueError, match=r"threads_per_block must be an integer in \[1, 512\]"):
        blocks_per_sm("1.3", 1024, 0, 0)


def test_integral_floats_and_numpy_ints_are_accepted():
    import numpy as np
    assert blocks_per_sm("7.0", 256.0, np.int64(32), np.int32(0)) == 8


# --- invariants ------------------------------------------------------------------------------------

configs = st.sampled_from(list_compute_capabilities()).flatmap(lambda cc: st.tuples(
    st.just(cc),
    st.integers(1, limits(cc).max_threads_per_block),
    st.integers(0, limits(cc).max_registers_per_thread),
    st.integers(0, limits(cc).max_shared_mem_per_block)))


@settings(max_examples=400, deadline=None)
@given(configs)
def test_result_within_hardware_bounds(cfg):
    cc, t, r, s = cfg
    o = occupancy(cc, t, r, s)
    lim = limits(cc)
    assert 0 <= o.blocks_per_sm <= lim.max_blocks_per_sm
    assert 0 <= o.warps_per_sm <= lim.max_warps_per_sm
    assert 0.0 <= o.occupancy <= 1.0
    assert o.warps_per_sm == o.blocks_per_sm * o.warps_per_block
    assert o.blocks_per_sm * o.allocated_shared_mem_per_block <= lim.shared_mem_per_sm
    assert o.blocks_per_sm * o.allocated_registers_per_block <= lim.registers_per_sm
    assert o.limits[o.limiter] == o.blocks_per_sm
    assert all(v is None or v >= o.blocks_per_sm for v in o.limits.values())


@settings(max_examples=300, deadline=None)
@given(configs, st.integers(0, 64), st.integers(0, 8192))
def test_more_registers_or_shared_memory_never_raise_occupancy(cfg, dr, ds):
    cc, t, r, s = cfg
    lim = limits(cc)
    base = blocks_per_sm(cc, t, r, s)
    assert blocks_per_sm(cc, t, min(r + dr, lim.max_registers_per_thread), s) <= base
    assert blocks_per_sm(cc, t, r, min(s + ds, lim.max_shared_mem_per_block)) <= base
