"""Tests for gpumodels.facts.hardware: lookups, the values the papers print, provenance, consistency."""

import dataclasses
import re

import pytest

from gpumodels.ground.errors import UnknownNameError

from gpumodels.facts.hardware import GPU, PARAMETERS, get_gpu, list_gpus, table
from gpumodels.facts.occupancy import limits

ISSUE_GPUS = ["8800GTX", "FX5600", "8800GT", "GTX280", "GTX480", "GTX680", "GTX980", "GTS250", "GTX260",
              "GTX470", "C2050", "C2075", "GTX690", "K40", "K80", "V100", "A100", "H100", "V100PCIe", "A100-80",
              "H100PCIe", "GH200", "L40",
              "K20", "Titan", "QuadroK5200", "GTX970", "TitanX", "P100"]


def test_every_gpu_named_in_the_seeds_and_three_modern_ones():
    assert list_gpus() == ISSUE_GPUS


@pytest.mark.parametrize("alias,name", [("G80", "8800GTX"), ("GT200", "GTX280"), ("Fermi", "GTX480"),
                                        ("Kepler", "GTX680"), ("Maxwell", "GTX980"), ("kepler", "GTX680"),
                                        ("GeForce GTX 280", "GTX280"), ("gtx-280", "GTX280"), ("Quadro FX5600", "FX5600"),
                                        ("Tesla K80", "K80"), ("tesla c2050", "C2050"), ("H100 SXM5", "H100"),
                                        ("NVIDIA GeForce 8800 GTX", "8800GTX")])
def test_names_and_aliases(alias, name):
    assert get_gpu(alias).name == name


@pytest.mark.parametrize("bad", ["GTX 1080", "", "Pascal"])
def test_unknown_gpu_raises_keyerror_listing_known(bad):
    with pytest.raises(UnknownNameError, match="GTX680") as e:
        get_gpu(bad)
    assert isinstance(e.value, KeyError) and isinstance(e.value, ValueError)


@pytest.mark.parametrize("bad", [None, 480])
def test_gpu_name_of_wrong_type_is_a_type_error(bad):
    with pytest.raises(TypeError, match="must be a string.*GTX680"):
        get_gpu(bad)


@pytest.mark.parametrize("name", ISSUE_GPUS)
def test_public_attributes(name):
    g = get_gpu(name)
    assert isinstance(g.sm_count, int) and g.sm_count > 0
    assert isinstance(g.clock_ghz, float) and 0.5 < g.clock_ghz < 2.5
    assert isinstance(g.max_warps_per_sm, int) and g.max_warps_per_sm in (24, 32, 48, 64)
    assert re.fullmatch(r"\d\.\d", g.compute_capability)
    assert g.pin_bandwidth_gbs is None or g.pin_bandwidth_gbs > 0
    assert g.cuda_cores == g.sm_count * g.cuda_cores_per_sm


def test_gpu_records_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        get_gpu("GTX680").sm_count = 9


@pytest.mark.parametrize("name,sms,sched,cores,sfu,clock,bw", [   # Volkov 2016, Tables 2.6 and 2.7
    ("8800GTX", 16, 1, 8, 2, 1.350, 86.4), ("GTX280", 30, 1, 8, 2, 1.296, 141.7),
    ("GTX480", 15, 2, 32, 4, 1.400, 177.4), ("GTX680", 8, 4, 192, 32, 1.124, 192.3),
    ("GTX980", 16, 4, 128, 32, 1.266, 224.0)])
def test_volkov_tables_2_6_and_2_7(name, sms, sched, cores, sfu, clock, bw):
    g = get_gpu(name)
    assert (g.sm_count, g.warp_schedulers_per_sm, g.cuda_cores_per_sm, g.sfu_per_sm) == (sms, sched, cores, sfu)
    assert (g.clock_ghz, g.pin_bandwidth_gbs) == (clock, bw)
    assert g.source("sm_count") == "Volkov 2016, Table 2.6"


@pytest.mark.parametrize("gen,name,warps,per_sched,cycles,width", [   # Volkov 2016, Table 2.8
    ("G80", "8800GTX", 24, 24, 2, 1), ("GT200", "GTX280", 32, 32, 2, 1), ("Fermi", "GTX480", 48, 24, 2, 1),
    ("Kepler", "GTX680", 64, 16, 1, 2), ("Maxwell", "GTX980", 64, 16, 1, 2)])
def test_volkov_table_2_8(gen, name, warps, per_sched, cycles, width):
    g = get_gpu(gen)
    assert g.name == name and g.generation == gen
    assert (g.max_warps_per_sm, g.warps_per_scheduler, g.issue_cycles, g.issue_width) == (warps, per_sched, cycles, width)


@pytest.mark.parametrize("name,sms,cores,clock,bw,cc", [   # Hong & Kim 2009, Table 3
    ("8800GTX", 16, 128, 1.35, 86.4, "1.0"), ("FX5600", 16, 128, 1.35, 76.8, "1.0"),
    ("8800GT", 14, 112, 1.5, 57.6, "1.1"), ("GTX280", 30, 240, 1.296, 141.7, "1.3")])
def test_hong_kim_table_3(name, sms, cores, clock, bw, cc):
    g = get_gpu(name)
    assert (g.sm_count, g.cuda_cores, g.clock_ghz, g.pin_bandwidth_gbs, g.compute_capability) == (sms, cores, clock, bw, cc)


def test_perez_piccoli_gpus_keep_empty_what_the_paper_does_not_give():
    g = get_gpu("GTX 470")
    assert (g.sm_count, g.cuda_cores, g.clock_ghz, g.memory_clock_mhz, g.memory_bus_width_bits) == (14, 448, 1.215, 1674, 320)
    assert g.pin_bandwidth_gbs is None     # no source prints it; never guessed


def test_peak_gflops():
    assert get_gpu("8800GTX").peak_gflops() == pytest.approx(345.6)
    assert get_gpu("GTX280").peak_gflops(3) == pytest.approx(933.12)
    assert get_gpu("H100").peak_gflops() == pytest.approx(66908.16)
    with pytest.raises(ValueError, match="flops_per_core_cycle"):
        get_gpu("H100").peak_gflops(0)


def test_every_value_has_a_source():
    for name in list_gpus():
        g = get_gpu(name)
        for f in dataclasses.fields(GPU):
            if f.name in ("name", "full_name", "aliases", "sources", "notes", "gpus_per_board"):
                continue
            if getattr(g, f.name) is not None:
                assert g.source(f.name), (name, f.name)
    with pytest.raises(ValueError, match="attribute"):
        get_gpu("V100").source("bogus")


def test_own_rows_agree_with_compute_capability_table_except_documented_cases():
    """Where a paper states a per-cc fact for its GPU, it must match the per-cc table -- or be explained."""
    field_to_cc = {"max_warps_per_sm": "max_warps_per_sm", "warp_schedulers_per_sm": "warp_schedulers_per_sm",
                   "sfu_per_sm": "sfu_per_sm", "cuda_cores_per_sm": "cuda_cores_per_sm", "issue_cycles": "issue_cycles",
                   "issue_width": "issue_width", "smem_banks": "smem_banks", "smem_bank_width_bits": "smem_bank_width"}
    disagreements = set()
    for name in list_gpus():
        g = get_gpu(name)
        lim = limits(g.compute_capability)
        for f, c in field_to_cc.items():
            if not g.source(f).startswith("compute capability") and getattr(g, f) != getattr(lim, c):
                disagreements.add((name, f))
    # Volkov Table 2.8 gives Maxwell dual issue; NVIDIA's guide says single issue (noted in both tables).
    assert disagreements == {("GTX980", "issue_width")}
    assert "inconsistent" in get_gpu("GTX980").notes["issue_width"]


def test_table_is_tidy_and_sourced():
    t = table()
    assert list(t.columns) == ["gpu", "generation", "attribute", "value", "unit", "source", "note"]
    assert (t["source"].str.len() > 0).all()
    assert set(t["gpu"]) == set(ISSUE_GPUS)
    units = {attr: unit for attr, unit, _ in PARAMETERS.values()}
    assert (t["unit"] == t["attribute"].map(units).fillna("")).all()
