"""Fidelity rows of Perez & Piccoli and Volkov added after the audit of b8bdaad: worked
numbers, claims that flip when their deciding quantity moves, and producers that never
read their own row's printed value."""

import math

import pytest

from gpumodels import published, scoreboard
from gpumodels.comparisons.prior import printed as prior_printed
from gpumodels.facts import published as published_facts
from gpumodels.ground.data import read_rows
from gpumodels.papers.perez_piccoli import model as pp
from gpumodels.papers.perez_piccoli import printed as pp_printed
from gpumodels.papers.volkov import parameters as p6
from gpumodels.papers.volkov import printed as v_printed

NAN = float("nan")

PP_IDENTITIES = [f"pp.t5.p.{g}" for g in ("GTS250", "GTX260", "GTX470")] + [
    f"pp.t7.b.{g}" for g in ("GTS250", "GTX260", "GTX470")
]
PP_CLAIMS = ["pp.s4.cp_aa_near_p", "pp.s4.gmb_aa_order_below_b"]
VOLKOV_NEW = [
    "v16.s3_10.vabs_occupancy_factor",
    "v16.s6_2.occupancy_drop.GTX480",
    "v16.s6_2.occupancy_drop.GTX680",
]


def rec(key):
    """The data row of ``key`` (as ``gpumodels.facts.published`` serves it)."""
    r = published.record(key)
    return r | {"printed_value": float(r["value"])}


def status_of(key, computed):
    """The status the scoreboard would give ``key`` if its producer returned
    ``computed``."""
    row = published.record(key)
    tol = NAN if row["bound"] else published.tolerance(key)
    return scoreboard._status(row, computed, tol)


def perturbed(monkeypatch, keys, factor=1.37):
    """Make ``gpumodels.facts.published`` serve the rows of ``keys`` with their printed
    value multiplied by ``factor``."""
    rows = {k: dict(r) for k, r in published_facts.rows().items()}
    for k in keys:
        rows[k]["value"] = repr(float(rows[k]["value"]) * factor)
    monkeypatch.setattr(published_facts, "_rows", lambda: rows)


# ---- Perez & Piccoli --------------------------------------------------------------


def test_p_and_b_restate_the_measured_all_all_cells_and_are_inputs():
    """P := Cp_All-All and B := GMb_All-All: the features table prints the measured cell
    again, so the rows are inputs (shown, not counted) and nothing computes them."""
    measured = {
        (r["gpu"], r["parameter"]): float(r["value"])
        for r in read_rows("perez/parameters.csv")
    }
    for k in PP_IDENTITIES:
        g = k.rsplit(".", 1)[1]
        cell = "cp_aa" if ".p." in k else "gmb_aa"
        assert rec(k)["printed_value"] == measured[(g, cell)]
        assert rec(k)["status"] == "input" and rec(k)["note"].startswith("restates")
    board = scoreboard.table("pp.").set_index("key")
    assert (board.loc[PP_IDENTITIES, "producer"] == "").all()


def test_measured_over_theoretical_worked_numbers():
    r = pp_printed.measured_over_theory()
    # P = 2 × 1.836 GHz × 128 SPs = 470.016; 2 × 1.4 × 216 = 604.8;
    # 1 × 1.215 × 448 = 544.32
    assert r["GTS250"][0] == pytest.approx(436.344289 / 470.016)
    assert r["GTX260"][0] == pytest.approx(562.329588 / 604.8)
    assert r["GTX470"][0] == pytest.approx(503.849162 / 544.32)
    # B = 1100 MHz × 256 bit × 2 / 8 = 70.4; 1150 × 448 / 4 = 128.8;
    # 1674 × 320 / 4 = 133.92
    assert r["GTS250"][1] == pytest.approx(57.312697 / 70.4)
    assert r["GTX260"][1] == pytest.approx(104.866219 / 128.8)
    assert r["GTX470"][1] == pytest.approx(108.394003 / 133.92)
    claims = pp_printed.section_4_claims()
    assert claims["pp.s4.cp_aa_near_p"] == pytest.approx(0.925649, abs=1e-6)  # GTX470
    assert claims["pp.s4.gmb_aa_order_below_b"] == pytest.approx(0.814179, abs=1e-6)


def test_close_to_p_claim_holds_and_flips(monkeypatch):
    row = rec("pp.s4.cp_aa_near_p")
    assert row["bound"] == ">" and row["printed_value"] == 0.9
    got = pp_printed.section_4_claims()["pp.s4.cp_aa_near_p"]
    assert row["status"] == status_of("pp.s4.cp_aa_near_p", got) == "reproduced"
    # the claim at "within 5 %" would fail: the reading is stated in the note
    assert not got > 0.95 and "within 5 %" in row["note"]
    # counting the GTX 470's 24-bit MAD as two flops halves its ratio: the claim fails
    real = pp.flops_per_sp_cycle
    monkeypatch.setattr(
        pp, "flops_per_sp_cycle", lambda g: 2.0 if g == "GTX470" else real(g)
    )
    flipped = pp_printed.section_4_claims()["pp.s4.cp_aa_near_p"]
    assert flipped == pytest.approx(503.849162 / 1088.64)
    assert status_of("pp.s4.cp_aa_near_p", flipped) == "outside"


def test_one_magnitude_lower_claim_fails_and_would_hold_tenfold(monkeypatch):
    row = rec("pp.s4.gmb_aa_order_below_b")
    got = pp_printed.section_4_claims()["pp.s4.gmb_aa_order_below_b"]
    assert row["bound"] == "<" and row["printed_value"] == 0.1
    assert row["status"] == status_of("pp.s4.gmb_aa_order_below_b", got) == "outside"
    assert row["note"].startswith("outside, explained: ")
    assert 0.80 < got < 0.82  # 81 % of B, a factor of 1.23 below, not 10
    real = pp.theoretical_b
    monkeypatch.setattr(pp, "theoretical_b", lambda g: 10 * real(g))
    flipped = pp_printed.section_4_claims()["pp.s4.gmb_aa_order_below_b"]
    assert flipped == pytest.approx(0.0814179, abs=1e-6)
    assert status_of("pp.s4.gmb_aa_order_below_b", flipped) == "reproduced"


def test_pp_claims_do_not_follow_their_printed_rows(monkeypatch):
    before = pp_printed.section_4_claims()
    perturbed(monkeypatch, PP_CLAIMS)
    assert pp_printed.section_4_claims() == before


# ---- Volkov -------------------------------------------------------------------------


def test_table_3_1_memory_peak_restates_table_4_1():
    """Table 3.1's 0.081 is Table 4.1's 0.0814 printed to fewer digits: one computation,
    scored once (as Table 4.1's cell); the Table 3.1 cell is an input."""
    key = "v16.t3_1.peak_ipc.mem.GTX980"
    assert rec(key)["status"] == "input" and "v16.t4_1.mem_thru.GTX980" in rec(key)["note"]
    assert key not in v_printed.table_3_1()
    got = v_printed.chapter_4()["v16.t4_1.mem_thru.GTX980"]
    assert got == pytest.approx(211 / (1.266 * 16 * 128))  # 0.08138
    assert round(got, 3) == rec(key)["printed_value"]


def test_vabs_expected_factor_reads_the_printed_bytes(monkeypatch):
    assert v_printed.vabs_occupancy_factor() == pytest.approx(2.0)
    assert status_of("v16.s3_10.vabs_occupancy_factor", 2.0) == "reproduced"
    for k in ("v16.s3_10.vabs_bytes.read", "v16.s3_10.vabs_bytes.read_write"):
        assert rec(k)["status"] == "input"
        assert k not in v_printed.permutation_traffic()  # inputs are never computed
    # 4 and 12 bytes per thread: a factor of 3, outside the printed 2
    perturbed(monkeypatch, ["v16.s3_10.vabs_bytes.read_write"], factor=1.5)
    assert v_printed.vabs_occupancy_factor() == pytest.approx(3.0)
    assert status_of("v16.s3_10.vabs_occupancy_factor", 3.0) == "outside"


def test_vabs_factor_does_not_follow_its_printed_row(monkeypatch):
    perturbed(monkeypatch, ["v16.s3_10.vabs_occupancy_factor"])
    assert v_printed.vabs_occupancy_factor() == pytest.approx(2.0)


def test_needed_occupancy_increases_on_fermi_and_kepler(monkeypatch):
    got = v_printed.chapter_6()
    assert got["v16.s6_2.occupancy_drop.GTX480"] == pytest.approx(6.5 / 7.5)
    assert got["v16.s6_2.occupancy_drop.GTX680"] == pytest.approx(6 / 7)
    for k in ("v16.s6_2.occupancy_drop.GTX480", "v16.s6_2.occupancy_drop.GTX680"):
        assert rec(k)["bound"] == "<" and rec(k)["printed_value"] == 1
        assert rec(k)["status"] == status_of(k, got[k]) == "reproduced"
    # had conflicts lowered Fermi's needed occupancy (smem2 = 6 < 6.5): the claim fails
    real = p6.table

    def table(name):
        t = real(name).copy()
        if name == "6.3":
            t.loc["Fermi", "smem2"] = 6.0
        return t

    monkeypatch.setattr(p6, "table", table)
    flipped = v_printed.chapter_6()["v16.s6_2.occupancy_drop.GTX480"]
    assert flipped == pytest.approx(6.5 / 6)
    assert status_of("v16.s6_2.occupancy_drop.GTX480", flipped) == "outside"


def test_volkov_rows_do_not_follow_their_printed_values(monkeypatch):
    before = {
        **v_printed.table_3_1(),
        **v_printed.permutation_traffic(),
        **v_printed.chapter_6(),
    }
    perturbed(monkeypatch, [*VOLKOV_NEW, "v16.s6_3.mei_chu_gap_pct"])
    after = {
        **v_printed.table_3_1(),
        **v_printed.permutation_traffic(),
        **v_printed.chapter_6(),
    }
    for k in [*VOLKOV_NEW, "v16.s6_3.mei_chu_gap_pct"]:
        assert after[k] == before[k], k


def test_worst_overestimate_is_not_scored_twice():
    row = rec("v16.s7_1.worst_overestimate.GTX280")
    assert row["status"] == "not derivable"
    assert row["note"].startswith("not derivable: ")
    assert "not tabulated" in row["note"] and "alu_latency_factor" in row["note"]
    got = prior_printed.chapter_7()
    assert "v16.s7_1.worst_overestimate.GTX280" not in got
    # the model-to-model factor: (434 + 24 × 32) / (434 + 4 × 33) = 1202 / 566
    assert got["v16.s7_1.alu_latency_factor.GTX280"] == pytest.approx(1202 / 566)
    s71 = {k: v for k, v in got.items() if k.startswith("v16.s7_1.")}
    assert len(set(s71.values())) == len(s71)  # no two §7.1 rows share one number


def test_mei_chu_within_about_10_pct_is_an_upper_bound():
    key = "v16.s6_3.mei_chu_gap_pct"
    row, got = rec(key), v_printed.chapter_6()[key]
    assert row["bound"] == "<" and row["printed_value"] == 10
    assert row["status"] == status_of(key, got) == "reproduced"
    # 156 GB/s × 3.5/3.0 = 182 GB/s, 8.5 % below the 199 GB/s copy throughput
    assert got == pytest.approx(100 * (1 - 156 * 3.5 / 3.0 / 199))
    assert got == pytest.approx(8.54, abs=0.01)
    # against the 211 GB/s read peak the gap is 13.7 %: the claim would fail
    vs_read = 100 * (1 - 156 * 3.5 / 3.0 / 211)
    assert vs_read == pytest.approx(13.74, abs=0.01) and "13.7 %" in row["note"]
    assert status_of("v16.s6_3.mei_chu_gap_pct", vs_read) == "outside"


def test_new_rows_are_produced_once_on_the_scoreboard():
    board = scoreboard.table("pp.", "v16.").set_index("key")  # runs every producer
    for k in [*PP_CLAIMS, *VOLKOV_NEW, "v16.s6_3.mei_chu_gap_pct"]:
        assert scoreboard.producer_of(k)
        assert board.loc[k, "status"] == board.loc[k, "declared"], k
    assert board.loc["v16.s7_1.worst_overestimate.GTX280", "producer"] == ""
    assert math.isnan(board.loc["v16.s3_10.vabs_bytes.read", "computed"])
