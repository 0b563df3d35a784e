"""Huang & Li (2017) on the scoreboard: what is taken in, what is derived, and how.

Measured and specified numbers (the K80 latencies, M, the address bits) are inputs and
no producer computes them; Algorithm 1 recovers a memory configured unlike the paper;
the addressing counts come from Fig. 2's SASS; the §V-B gains, Table IV's counts, the
exponential's c_a and the C2050's banks are derived from other printed or sourced
numbers.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpumodels import published, scoreboard
from gpumodels.engines.refsim import dram, placements
from gpumodels.facts import published as pub
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import DataError, UnknownNameError
from gpumodels.papers.huang_li import analysis, book, fig2, queueing

DATA = Path(__file__).resolve().parent.parent / "data"

LATENCY_KEYS = ("hl17.s3c2.lat_hit.K80", "hl17.s3c2.lat_miss.K80", "hl17.s3c2.lat_conflict.K80")
BIT_KEYS = ("first_low", "first_high", "second_low", "second_high")
INPUTS = (
    *LATENCY_KEYS,
    "hl17.s3c1.controllers.K80",
    "hl17.s3b.addr_insts.S",
    "hl17.s3b.nvprof_placements",
    "hl17.s3b.nvprof_defaults",
    *(f"hl17.s3c2.bits.{k}.K80" for k in BIT_KEYS),
    "hl17.s3c2.bits.byte.K80",
)


@pytest.fixture(scope="module")
def board():
    return scoreboard.table("hl17.").set_index("key")


@pytest.fixture(scope="module")
def produced():
    return book.fidelity()


# ---------------------------------------------------------------------------------------------
# inputs: taken in, never produced


def test_measured_and_specified_numbers_are_inputs_not_produced(board, produced):
    for key in INPUTS:
        assert board.loc[key, "status"] == "input", key
        assert key not in produced and key not in scoreboard.computed(), key
        assert board.loc[key, "note"].startswith(("measured", "specified", "read from")), key


def test_the_inputs_agree_with_the_tables_the_model_reads():
    m = analysis.k80()
    assert (m.lat_hit, m.lat_miss, m.lat_conflict) == tuple(pub.value(k) for k in LATENCY_KEYS)
    assert m.controllers == pub.value("hl17.s3c1.controllers.K80")
    lo1, hi1, lo2, hi2 = (int(pub.value(f"hl17.s3c2.bits.{k}.K80")) for k in BIT_KEYS)
    printed = set(range(lo1, hi1 + 1)) | set(range(lo2, hi2 + 1))
    for preset in ("k80_printed_row_low", "k80_printed_col_low"):
        amap = dram.address_map(preset)
        assert set(amap.row_bits) | set(amap.column_bits) == printed, preset
        assert amap.byte_bits == tuple(range(int(pub.value("hl17.s3c2.bits.byte.K80"))))


def test_latency_variation_is_arithmetic_on_the_two_latency_inputs(produced, monkeypatch):
    hit, miss = pub.value("hl17.s3c2.lat_hit.K80"), pub.value("hl17.s3c2.lat_miss.K80")
    assert produced["hl17.s3c.lat_var.K80"] == pytest.approx(100 * (miss - hit) / hit)
    real = pub.value
    monkeypatch.setattr(pub, "value", lambda k: 2 * real(k) if k == "hl17.s3c2.lat_miss.K80" else real(k))
    assert book.fidelity()["hl17.s3c.lat_var.K80"] == pytest.approx(100 * (2 * miss - hit) / hit)


def test_algorithm1_default_memory_is_the_k80_inputs():
    _, found, amap = book.algorithm1()
    assert found.latencies == dict(zip(("column", "other", "row"), (pub.value(k) for k in LATENCY_KEYS)))
    assert (found.row_bits, found.column_bits) == (amap.row_bits, amap.column_bits)


# ---------------------------------------------------------------------------------------------
# Algorithm 1 on memories unlike the paper's


def test_algorithm1_recovers_a_memory_configured_unlike_the_paper():
    check = book.algorithm1_check()
    assert check["recovered"].all(), check
    _, found, _ = book.algorithm1(mapping=book.OTHER_MEMORY, latencies=book.OTHER_LATENCIES, bits=range(3, 36))
    assert found.latencies == {"column": 111.0, "other": 222.0, "row": 333.0}
    assert found.column_bits == tuple(range(3, 10)) and found.row_bits == tuple(range(15, 27))
    k80 = dram.address_map("k80_printed_col_low")
    assert (found.row_bits, found.column_bits) != (k80.row_bits, k80.column_bits)
    assert set(found.latencies.values()).isdisjoint(pub.value(k) for k in LATENCY_KEYS)


def test_algorithm1_check_with_noise_recovers_groups_and_latencies():
    check = book.algorithm1_check(noise=4.0, seed=11)
    assert check["recovered"].all(), check
    assert check.loc["hit latency (ns)", "detected"] != "111.0"   # noise really moved it


def test_algorithm1_check_reports_a_failure_it_cannot_recover():
    # equal miss and conflict latencies: the row bits cannot be told from the bank bits
    check = book.algorithm1_check(latencies=(100.0, 300.0, 300.0))
    assert not check.loc["row bits", "recovered"]


@given(
    st.integers(0, 10_000),
    st.floats(10.0, 500.0),
    st.floats(1.3, 3.0),
    st.floats(1.3, 3.0),
)
@settings(max_examples=40, deadline=None)
def test_algorithm1_recovers_random_maps_and_random_latencies(seed, hit, r_miss, r_conflict):
    rng = np.random.default_rng(seed)
    bits = rng.permutation(np.arange(3, 34))
    nc, nr = int(rng.integers(1, 9)), int(rng.integers(1, 15))
    amap = dram.AddressMap(
        "random",
        column_bits=tuple(sorted(int(b) for b in bits[:nc])),
        row_bits=tuple(sorted(int(b) for b in bits[nc : nc + nr])),
        bank_bits=tuple(sorted(int(b) for b in bits[nc + nr :])),
    )
    lat = (hit, hit * r_miss, hit * r_miss * r_conflict)
    _, found, _ = book.algorithm1(mapping=amap, latencies=lat, bits=range(3, 34))
    assert (found.column_bits, found.row_bits, found.other_bits) == (amap.column_bits, amap.row_bits, amap.bank_bits)
    assert [found.latencies[k] for k in ("column", "other", "row")] == pytest.approx(lat)


def test_algorithm1_rejects_bad_latencies():
    with pytest.raises(ValueError, match="latencies must be"):
        book.algorithm1(latencies=(1.0, 2.0))
    with pytest.raises(ValueError, match=r"latencies\[2\] \(conflict\)"):
        book.algorithm1(latencies=(1.0, 2.0, -3.0))


# ---------------------------------------------------------------------------------------------
# Fig. 2: addressing counted from the SASS


def test_fig2_counts_global_and_constant_only(produced):
    assert fig2.addressing_counts() == {"G": 2, "T": 0, "C": 1}
    for space in "GC":
        assert produced[f"hl17.s3b.addr_insts.{space}"] == fig2.addressing_counts()[space]
    # no SASS survives of panels (b) and (d): the texture and shared counts are inputs
    for space in "TS":
        assert f"hl17.s3b.addr_insts.{space}" not in produced
        assert published.record(f"hl17.s3b.addr_insts.{space}")["status"] == "input"


def test_fig2_global_counts_the_two_imads_not_the_constant():
    c = fig2.addressing_count("a")
    assert c.index_register == "R3" and c.load_listed
    assert [i.split()[0] for i in c.instructions] == ["IMAD", "IMAD.HI.X"]
    assert not any(i.startswith("MOV32I") for i in c.instructions)   # "calculated with 2 instructions"


def test_fig2_losses_are_explicit():
    assert fig2.addressing_count("b").instructions == () and not fig2.addressing_count("b").load_listed
    assert not fig2.addressing_count("c").load_listed
    assert fig2.declared_space("d") == "C"
    with pytest.raises(DataError, match="captioned S"):
        fig2.addressing_count("d")
    with pytest.raises(UnknownNameError, match="panel must be one of a, b, c, d, got 'e'"):
        fig2.listing("e")
    t = fig2.table()
    assert t.loc["d", "addressing instructions"] == "listing lost" and np.isnan(t.loc["d", "count"])


def test_fig2_texture_panel_passes_the_index_itself():
    """The T count rests on the CUDA lines: tex1Dfetch gets the bare index."""
    fetches = [r["text"] for r in fig2.listing("b") if "tex1Dfetch(" in r["text"]]
    assert len(fetches) == 2 and all(t.split(",")[1].strip().startswith("id)") for t in fetches)
    assert not any(fig2.parse(r["text"]) for r in fig2.listing("b"))


def test_fig2_counts_agree_with_the_table_the_model_uses():
    rows = {(r["space"], r["dtype"]): int(r["instructions"]) for r in read_rows("huang_li/addressing.csv")}
    for space, n in fig2.addressing_counts().items():
        assert rows[(space, "float")] == n, space


def test_count_listing_follows_the_data_flow_to_the_load_address():
    # an intermediate register, a bounds check that reads the index but not the address
    lines = [
        "ISETP.GE.AND P0, PT, R1, c[0x0][0x28], PT;",
        "MOV32I R9, 0x10;",
        "IADD R4, R1, R9;",
        "SHL R5, R4, 0x2;",
        "LDS R2, [R5];",
        "IADD R7, R1, 0x1;",
    ]
    c = fig2.count_listing(lines, "R1")
    assert c.load_listed and c.instructions == ("IADD R4, R1, R9", "SHL R5, R4, 0x2")
    assert fig2.count_listing(lines[:4], "R1").count == 3          # no load: the forward slice
    assert fig2.count_listing(lines, "R8").count == 0              # a register that is not the index
    wide = ["IMAD R6.cc, R3, R5, c[0x0][0x20]", "IMAD.HI.X R7, R3, R5, c[0x0][0x24]", "LD R2, [R6];"]
    assert fig2.count_listing(wide, "R3").count == 1               # 32-bit address: R7 is not used
    assert fig2.count_listing([*wide[:2], "LD.E R2, [R6];"], "R3").count == 2
    with pytest.raises(ValueError, match="index_register must name a register"):
        fig2.count_listing(lines, "id")


def test_fig2_data_is_the_seed_text():
    rows = read_rows("huang_li/fig2_sass.csv")
    assert {r["source"] for r in rows} == {"Huang & Li 2017, Fig. 2 (as extracted in the seed text)"}
    assert Counter(r["panel"] for r in rows) == {"a": 9, "b": 7, "c": 9, "d": 8}
    assert [r["caption"] for r in rows if r["line"] == "1"] == ["G", "T", "C", "S"]


# ---------------------------------------------------------------------------------------------
# §V-B gains, §III-B placements, c_a


def test_gain_identities(produced, board):
    v = pub.value
    assert produced["hl17.s5b.both"] == pytest.approx(v("hl17.s5b.queue_even") + v("hl17.s5b.addr_map"))
    assert produced["hl17.s5b.others_on_queue"] == pytest.approx(v("hl17.s5b.both") - v("hl17.s5b.queue_alone"))
    assert produced["hl17.s5b.synergy"] == pytest.approx(8.3)
    row = board.loc["hl17.s5b.synergy"]
    assert row.bound == ">" and row.printed == 0 and row.status == "reproduced"
    for key in ("hl17.s5b.addr_map", "hl17.s5b.queue_even", "hl17.s5b.queue_alone"):
        assert key not in produced and board.loc[key, "status"] == "not derivable"
    assert "hl17.s5b.both" in board.loc["hl17.s5b.addr_map", "note"]


def test_gain_rows_follow_other_printed_gains_only(monkeypatch):
    real = pub.value
    monkeypatch.setattr(pub, "value", lambda k: real(k) + (1.0 if k == "hl17.s5b.addr_map" else 0.0))
    got = book.fidelity()
    assert got["hl17.s5b.both"] == pytest.approx(real("hl17.s5b.both") + 1.0)
    monkeypatch.setattr(pub, "value", lambda k: real(k) + (5.0 if k in ("hl17.s5b.both", "hl17.s5b.others_on_queue") else 0.0))
    got = book.fidelity()
    assert got["hl17.s5b.both"] == pytest.approx(39.1)                # not its own printed value
    assert got["hl17.s5b.others_on_queue"] == pytest.approx(39.1 + 5.0 - 13.8)


def test_nvprof_study_placements(produced):
    assert produced["hl17.s3b.nvprof_compared"] == pub.value("hl17.s3b.nvprof_placements") - pub.value("hl17.s3b.nvprof_defaults")


@given(st.floats(1e-6, 1e6))
@settings(max_examples=50, deadline=None)
def test_exponential_ca_is_one_at_every_rate(rate):
    assert queueing.exponential_cv(rate) == pytest.approx(1.0, abs=1e-12)


def test_moments_cv_matches_the_sample_based_ca():
    rng = np.random.default_rng(5)
    t = np.cumsum(rng.exponential(3.0, 400_000))
    st_ = queueing.bank_stats(np.zeros(t.size, dtype=int), t, np.ones(t.size))
    assert float(st_.c_a[0]) == pytest.approx(queueing.exponential_cv(1 / 3.0), abs=0.01)
    k = 4.0   # gamma with shape k: cv = 1/sqrt(k), E[T^2] = k (k + 1) for scale 1
    assert queueing.moments_cv(k, k * (k + 1)) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="second_moment must be at least"):
        queueing.moments_cv(2.0, 3.0)


def test_ca_exponential_row_is_exactly_one(board, produced):
    row = board.loc["hl17.s3c3.ca_exponential"]
    assert produced["hl17.s3c3.ca_exponential"] == 1.0 and row.status == "reproduced"


# ---------------------------------------------------------------------------------------------
# Table IV and the C2050


def _raw_listing_counts() -> dict[str, int]:
    with open(DATA / "huang_li" / "placements.csv", newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["set"] in ("train", "eval")]
    return dict(Counter(r["benchmark"] for r in rows))


def test_table_iv_counts_are_listings_plus_sample(produced, board):
    listed = book.table_iv_listed()
    assert listed == _raw_listing_counts()
    printed = {**placements.printed_counts("eval"), **placements.printed_counts("train")}
    assert set(listed) == set(printed) and len(listed) == 17
    for b, n in listed.items():
        key = book.TABLE_IV_KEY + b
        assert produced[key] == n and board.loc[key, "printed"] == printed[b]
    disagree = {b for b in listed if listed[b] != printed[b]}
    assert disagree == {"S3D", "spmv", "transpose"}
    assert all(listed[b] == printed[b] + 1 for b in disagree)
    for b in disagree:
        row = board.loc[book.TABLE_IV_KEY + b]
        assert row.status == "outside" and any(a in row.note for a in ("[A7]", "[A9]", "[A10]"))
    # the book's readings reconcile every count (they decide the 60 placements it runs)
    assert {**placements.counts("eval"), **placements.counts("train")} == printed


def test_c2050_banks_come_from_the_c2050_configuration(produced, board):
    r = {x["parameter"]: float(x["value"]) for x in read_rows("huang_li/gpgpusim_c2050.csv")}
    assert produced["hl17.s3c3.banks.C2050"] == r["n_mem"] * r["nbk"] == book.c2050_banks()
    assert all("TeslaC2050" in x["source"] for x in read_rows("huang_li/gpgpusim_c2050.csv"))
    assert "gpgpusim_c2050.csv" in board.loc["hl17.s3c3.banks.C2050", "note"]


# ---------------------------------------------------------------------------------------------
# the rows themselves


def test_huang_li_rows_statuses_and_reasons(board):
    assert (board.status == board.declared).all(), board[board.status != board.declared].index.tolist()
    nd = board[board.status == "not derivable"]
    assert nd.note.str.startswith("not derivable: ").all() and (nd.note.str.len() > 40).all()
    for key in ("hl17.s3c3.ca_sd.spmv", "hl17.s3c3.ca_sd.md", "hl17.s3c3.ca_sd.matrixMul",
                "hl17.s1.porple_spread_max", "hl17.s1.porple_spread_mean",
                "hl17.s3b.nvprof_large_var", "hl17.s3b.nvprof_large_share",
                "hl17.s3b.nvprof_small_var", "hl17.s3b.nvprof_small_threshold"):
        assert board.loc[key, "status"] == "not derivable", key
    assert scoreboard.producer_of("hl17.s3b.addr_insts.G").endswith("huang_li.printed.huang_li")
