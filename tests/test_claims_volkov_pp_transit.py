"""Printed claims of Volkov, Perez & Piccoli and Transit (Li et al. 2015) added from the
claims audit: worked numbers, the declared status of each row, and claims that flip
when their deciding quantity moves."""

import pytest

from gpumodels import published, scoreboard
from gpumodels.comparisons.prior import printed as prior_printed
from gpumodels.facts import published as published_facts
from gpumodels.papers.perez_piccoli import model as pp
from gpumodels.papers.perez_piccoli import printed as pp_printed
from gpumodels.papers.transit import printed as tr
from gpumodels.papers.volkov import parameters as p6
from gpumodels.papers.volkov import printed as v_printed

NAN = float("nan")


def status_of(key, computed):
    """The status the scoreboard gives ``key`` if its producer returns ``computed``."""
    row = published.record(key)
    tol = NAN if row["bound"] else published.tolerance(key)
    return scoreboard._status(row, computed, tol)


def declared(key):
    return published.record(key)["status"]


def check_all(values):
    for k, v in values.items():
        assert status_of(k, v) == declared(k), k


# ---- Transit §2.4 ---------------------------------------------------------------


def test_lever_captions_worked_numbers():
    eff = tr.lever_effects()
    # Fig. 11: thread bound, n 500 -> 1000 ends computation bound
    assert (eff["Fig. 11"]["bound_before"], eff["Fig. 11"]["bound_after"]) == (
        "thread",
        "computation",
    )
    assert eff["Fig. 13"]["ms"] == pytest.approx(1.0) and eff["Fig. 13"]["cs"] == 2.0
    assert eff["Fig. 14"]["ms"] == pytest.approx(1.4)
    assert eff["Fig. 15"]["cs"] == pytest.approx(1.5)
    # Fig. 16: CS stays at M, the height M/Z falls as 1/Z
    assert eff["Fig. 16"]["cs"] == pytest.approx(1.0)
    assert eff["Fig. 16"]["ms"] == pytest.approx(1 / 1.5)
    # a lever other than Z moves MS and CS by one ratio: one row scores both claims
    for fig in ("Fig. 11", "Fig. 14", "Fig. 15"):
        assert eff[fig]["ms"] == pytest.approx(eff[fig]["cs"])
    got = tr.lever_captions()
    assert len(got) == 9
    check_all(got)
    assert declared("li15.s2_4.fig16.ms_unchanged") == "outside"
    assert sum(declared(k) == "reproduced" for k in got) == 8


def test_lever_captions_flip():
    # a rise that were a drop, an unchanged height that moved by 1 %
    assert status_of("li15.s2_4.fig14.cs_rises", 0.99) == "outside"
    assert status_of("li15.s2_4.fig12.ms_drops", 1.01) == "outside"
    assert status_of("li15.s2_4.fig13.ms_unchanged", 1.01) == "outside"
    assert status_of("li15.s2_4.fig16.ms_unchanged", 1.0) == "reproduced"
    # the Fig. 16 lever of 1.5 in Z: a smaller lever still lowers the height
    case = next(c for c in tr.LEVER_CASES if c[0] == "Fig. 16")
    smaller = tuple(case[:5]) + (1.1,)
    assert tr.lever_effects((smaller,))["Fig. 16"]["ms"] == pytest.approx(1 / 1.1)


def test_advice_rows_are_the_stated_pairs():
    got = tr.advice()
    table = tr.principles()
    stated = table[table.paper_states == "stated"]
    assert len(stated) == 11 and len(got) == len(stated) - len(tr.RESTATED_ADVICE)
    check_all(got)
    for r in stated.itertuples():
        if (r.bound, r.direction) in tr.RESTATED_ADVICE:  # scored as the caption's row
            key = tr.RESTATED_ADVICE[(r.bound, r.direction)]
            assert key in tr.lever_captions() and "restates" in published.record(key)["note"]
            continue
        key = f"li15.s2_4.advice.{r.bound}.{r.direction}"
        row = published.record(key)
        assert (row["bound"] == ">") == (r.raises_cs_throughput == "yes"), key
    assert got["li15.s2_4.advice.thread.n"] == pytest.approx(1.0)
    assert got["li15.s2_4.advice.memory.R"] == pytest.approx(1.0)
    assert 0.5 < got["li15.s2_4.advice.thread.Z"] < 1.0  # L / (L + Z) share
    assert abs(tr.advice_gains()[("computation", "Z")]) < 1e-9


def test_advice_flips_when_the_state_leaves_its_bound(monkeypatch):
    # a memory-bound state read as if it were thread bound: raising n would help, so
    # "tuning n does not affect the height" would fail
    monkeypatch.setitem(tr.ADVICE_STATES, "memory", (200, 0.6))
    with pytest.raises(RuntimeError, match="thread-bound"):
        tr.advice_gains()
    gains = {}
    p = tr.advice_state("memory")
    base = tr.equilibrium(**p)
    new = tr.equilibrium(**tr.raised(**p, direction="n", factor=1.01))
    gains["n"] = (new.cs_throughput / base.cs_throughput - 1) / 0.01
    assert status_of("li15.s2_4.advice.memory.n", gains["n"]) == "outside"


# ---- Perez & Piccoli §4 -----------------------------------------------------------


def test_feature_trend_worked_numbers():
    assert pp_printed.by_generation() == ["GTS250", "GTX260", "GTX470"]
    got = pp_printed.feature_trend()
    check_all(got)
    assert got["pp.s4.p_increases"] == pytest.approx(503.849162 / 562.329588)
    f = {g: pp.measured(g).features() for g in pp.gpus()}
    assert got["pp.s4.n_ppipe_increases"] == pytest.approx(
        f["GTX260"].n_ppipe / f["GTS250"].n_ppipe
    )
    assert 0.999 < got["pp.s4.n_ppipe_increases"] < 1.0
    assert got["pp.s4.l_pipe_increases"] == pytest.approx(
        f["GTX260"].l_pipe / f["GTS250"].l_pipe
    )


def test_p_trend_flips_with_the_gtx470_measurement(monkeypatch):
    real = pp.measured("GTX470")
    fake = pp.Parameters("GTX470", **{**real.values(), "cp_aa": 600.0})
    monkeypatch.setattr(pp, "measured", lambda g: fake if g == "GTX470" else _m(g))
    got = pp_printed.feature_trend()["pp.s4.p_increases"]
    assert status_of("pp.s4.p_increases", got) == "reproduced"


_REAL_MEASURED = pp.measured


def _m(g):
    return _REAL_MEASURED(g)


def test_gtx470_memory_worked_numbers_and_flip(monkeypatch):
    got = pp_printed.gtx470_memory()
    check_all(got)
    assert got["pp.s4.gtx470_best.b"] == pytest.approx(108.394003 / 104.866219)
    assert got["pp.s4.gtx470_best.w_memory_bus"] == pytest.approx(
        (108.394003 / 9.640949) / (57.312697 / 2.719361)
    )
    # a GTX 260 bandwidth above the GTX 470's flips the B row
    real = pp.measured("GTX260")
    fake = pp.Parameters("GTX260", **{**real.values(), "gmb_aa": 120.0})
    monkeypatch.setattr(pp, "measured", lambda g: fake if g == "GTX260" else _m(g))
    flipped = pp_printed.gtx470_memory()["pp.s4.gtx470_best.b"]
    assert status_of("pp.s4.gtx470_best.b", flipped) == "outside"


# ---- Volkov -----------------------------------------------------------------------


def test_section_4_3_claims_worked_numbers():
    got = v_printed.section_4_3_claims()
    check_all(got)
    assert got["v16.s4_3.warps_at90.GTX980"] == 40
    assert got["v16.s4_3.warps_at95.GTX980"] == 46
    assert got["v16.s4_3.stride2_ipc.GTX980"] == pytest.approx(211 / 2592.768 / 2)
    assert got["v16.s4_3.random_latency_ratio.GTX980"] == pytest.approx(534 / 368)
    assert got["v16.s4_3.ratio_falls"] == pytest.approx((21 / 9) / (16 / 6))
    assert got["v16.s4_3.ratio_rises_last"] == pytest.approx((10 / 6) / (14 / 9))
    assert got["v16.s4_3.random_fewer_warps"] == pytest.approx(1.75 / 14)
    t = p6.table_6_4()
    assert got["v16.s4_3.pct_at_estimate"] == t.pct_at_linear.median() == 80
    assert "v16.s4_3.random_thru_drop.GTX980" not in got  # scored once, as §6.7's ratio


def test_section_4_3_claims_flip():
    # Maxwell below Kepler would break "except the last"; a Kepler ratio above Fermi's
    # would break "decreases with every generation"
    assert status_of("v16.s4_3.ratio_rises_last", 0.95) == "outside"
    assert status_of("v16.s4_3.ratio_falls", 1.05) == "outside"
    assert status_of("v16.s6_7.ratio_min", 9.0) == "outside"
    assert status_of("v16.s4_3.random_latency_ratio.GTX980", 2.1) == "outside"
    assert status_of("v16.s4_3.pct_at_estimate", 81.3) == "outside"  # the model's median
    assert status_of("v16.s4_3.stride2_ipc.GTX980", 0.0814) == "outside"


def test_over_pin_follows_the_pin_input_not_its_own_row(monkeypatch):
    got = prior_printed.section_4_8()["v16.s4_13.over_pin"]
    assert got == pytest.approx(2048 / 192)
    rows = {k: dict(r) for k, r in published_facts.rows().items()}
    rows["v16.s4_13.over_pin"]["value"] = "99"
    rows["v16.s4_13.pin_gbs"]["value"] = "256"
    monkeypatch.setattr(published_facts, "_rows", lambda: rows)
    got = prior_printed.section_4_8()["v16.s4_13.over_pin"]
    assert got == pytest.approx(8.0)
    assert status_of("v16.s4_13.over_pin", got) == "outside"


def test_chapter_6_claims_worked_numbers():
    got = v_printed.chapter_6_claims()
    check_all(got)
    assert got["v16.s6_1.g80_smem_fraction"] == 75.0
    assert got["v16.s6_1.mei_chu_smem_lat.GTX980"] == 28.0
    assert (got["v16.s6_3.pct_at_linear_min"], got["v16.s6_3.pct_at_linear_max"]) == (75, 84)
    assert got["v16.s6_4.a_vs_latency"] == pytest.approx(1 - 501 / 513)
    assert got["v16.s6_4.c_vs_peak"] == pytest.approx(170 / 154 - 1)
    assert declared("v16.s6_4.c_vs_peak") == "outside"
    assert declared("v16.s6_3.pct_at_linear_min") == "reproduced"


def test_chapter_6_claims_flip():
    # Kepler's c at 165 GB/s would be within 10 % of its 154 GB/s peak
    dev = v_printed.coefficient_deviations()
    c = list(dev["c"])
    c[3] = 165 / 154
    assert status_of("v16.s6_4.c_vs_peak", max(abs(x - 1) for x in c)) == "reproduced"
    assert status_of("v16.s6_1.g80_smem_fraction", 99.5) == "outside"
    assert status_of("v16.s6_1.mei_chu_smem_lat.GTX980", 30.0) == "outside"
    assert status_of("v16.s6_3.pct_at_linear_min", 75.54) == "outside"  # the model's G80
