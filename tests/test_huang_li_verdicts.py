"""The Huang & Li verdicts: the rule on made-up intervals, the claim table, the
training/test table and the Fig. 4 analogue (c_a per kernel from DRAM logs)."""

import math

import numpy as np
import pandas as pd
import pytest

from gpumodels.facts import published as pub
from gpumodels.ground.errors import InputTypeError, OutOfRangeError, UnknownNameError
from gpumodels.papers.huang_li import book, evaluation, verdicts

# ---------------------------------------------------------------- the rule


@pytest.mark.parametrize(
    ("low", "high", "rule", "value", "want"),
    [
        (5.0, 15.0, "level", 9.9, "confirmed"),
        (0.0, 19.8, "level", 9.9, "confirmed"),  # half-width = tolerance = 9.9
        (0.0, 19.9, "level", 9.9, "inconclusive"),
        (-1000.0, 1000.0, "level", 9.9, "inconclusive"),  # contains it, says nothing
        (40.0, 190.0, "level", 9.9, "contradicted"),
        (-5.0, 1.0, "level", 9.9, "contradicted"),
        (9.9, 9.9, "level", 9.9, "confirmed"),
        (1.5, 20.0, ">", 0.0, "confirmed"),
        (-300.0, -80.0, ">", 0.0, "contradicted"),
        (-18.0, 16.0, ">", 0.0, "inconclusive"),
        (-5.0, 0.0, ">", 0.0, "contradicted"),  # nothing above the bound
        (0.0, 5.0, ">", 0.0, "inconclusive"),  # the bound itself is not above it
        (0.5, 0.9, "<", 1.0, "confirmed"),
        (0.91, 1.0, "<", 1.0, "inconclusive"),
        (1.0, 1.0, "<", 1.0, "contradicted"),
    ],
)
def test_verdict_rule(low, high, rule, value, want):
    assert verdicts.verdict(low, high, rule, value) == want


@pytest.mark.parametrize(
    ("low", "high", "value", "tolerance", "want"),
    [
        (0.5, 1.0, 1.0, 0.5, "confirmed"),  # Fig. 6's τ claim
        (-1.0, 1.0, 1.0, 0.5, "inconclusive"),  # a 5-placement bootstrap's interval
        (-1.0, 1.0, 1.0, None, "confirmed"),  # default tolerance |value| = 1
        (-0.67, -0.33, 1.0, 0.5, "contradicted"),
        (9.0, 11.0, 10.0, 0.0, "inconclusive"),
    ],
)
def test_level_rule_needs_a_narrow_interval(low, high, value, tolerance, want):
    assert verdicts.verdict(low, high, "level", value, tolerance) == want


def test_verdict_refuses_bad_intervals_and_rules():
    with pytest.raises(OutOfRangeError, match="high must be at least low"):
        verdicts.verdict(2.0, 1.0, ">", 0.0)
    with pytest.raises(ValueError, match="low"):
        verdicts.verdict(math.nan, 1.0, ">", 0.0)
    with pytest.raises(ValueError, match="rule"):
        verdicts.verdict(0.0, 1.0, "same sign", 0.0)
    with pytest.raises(InputTypeError, match="value"):
        verdicts.verdict(0.0, 1.0, "level", "9.9")
    with pytest.raises(OutOfRangeError, match="tolerance"):
        verdicts.verdict(0.0, 1.0, "level", 0.5, -1.0)


# ---------------------------------------------------------------- the claim table


@pytest.fixture(scope="module")
def ev():
    return evaluation.run()


@pytest.fixture(scope="module")
def vt(ev):
    return verdicts.table(ev)


def test_table_has_one_row_per_claim_and_reads_the_printed_values(vt):
    assert len(vt) == len(verdicts.CLAIMS)
    assert vt["key"].is_unique
    for key in vt["key"]:
        if key.startswith("hl17.") and key not in (
            "hl17.s5b.synergy",
            "hl17.s5b.baseline_worse_than_sim",
        ):
            assert vt.set_index("key").loc[key, "paper"] == pub.value(key)
    syn = vt.set_index("key").loc["hl17.s5b.synergy", "paper"]
    want = pub.value("hl17.s5b.both") - pub.value("hl17.s5b.instr")
    assert syn == pytest.approx(want - pub.value("hl17.s5b.queue_alone"))


def test_every_verdict_follows_from_its_interval(vt):
    assert set(vt["verdict"]) <= set(verdicts.VERDICTS)
    for _, r in vt.iterrows():
        assert r["low"] <= r["high"]
        tol = None if math.isnan(r["tolerance"]) else r["tolerance"]
        got = verdicts.verdict(r["low"], r["high"], r["rule"], r["bound"], tol)
        assert got == r["verdict"]
        if r["rule"] == "level":
            assert r["bound"] == r["paper"]
        # the book's value lies inside its own interval (bootstrap or leave-one-out)
        assert r["low"] <= r["book (simulated reference)"] <= r["high"]


def test_table_matches_the_evaluation(ev, vt):
    v = vt.set_index("key")
    assert v.loc["hl17.s5a.mean_error", "book (simulated reference)"] == pytest.approx(
        100 * ev.mean_error("full")
    )
    both = 100 * (ev.mean_error("baseline") - ev.mean_error("full"))
    assert v.loc["hl17.s5b.both", "book (simulated reference)"] == pytest.approx(both)
    _, taus = evaluation.ranking("neuralnet", ev)
    assert v.loc["fig6.full", "book (simulated reference)"] == pytest.approx(
        taus["full_ns"]
    )
    assert v.loc["fig6.latency_only", "book (simulated reference)"] == pytest.approx(
        taus["latency_only"]
    )


def test_table_is_seeded_and_the_seed_matters(ev, vt):
    again = verdicts.table(ev)
    pd.testing.assert_frame_equal(vt, again)
    other = verdicts.table(ev, seed=1)
    boot = ~vt["key"].str.startswith("fig6")
    assert not np.allclose(vt.loc[boot, "low"], other.loc[boot, "low"])


def test_leave_one_out_tau():
    r = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert verdicts.leave_one_out_tau(r, r) == (1.0, 1.0, 1.0)
    tau, lo, hi = verdicts.leave_one_out_tau(r, [5.0, 4.0, 3.0, 2.0, 1.0])
    assert tau == lo == hi == -1.0
    tau, lo, hi = verdicts.leave_one_out_tau(r, [2.0, 1.0, 3.0, 4.0, 5.0])
    assert lo < tau < hi == 1.0  # leaving out either of the swapped pair fixes it
    with pytest.raises(ValueError, match="at least 3"):
        verdicts.leave_one_out_tau([1.0, 2.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="constant"):
        verdicts.leave_one_out_tau(r, [1.0] * 5)


# ---------------------------------------------------------------- training vs test


def test_train_test(ev):
    tt = verdicts.train_test(ev)
    assert list(tt["variant"]) == list(ev.overlap)
    assert (tt["training placements"] == 38).all()
    assert (tt["test placements"] == 22).all()
    for _, r in tt.iterrows():
        v = r["variant"]
        assert r["training error (%)"] == pytest.approx(100 * ev.mean_error(v, "train"))
        assert r["test error (%)"] == pytest.approx(100 * ev.mean_error(v, "eval"))
    full = tt.set_index("variant").loc["full"]
    t = ev.table
    sel = (t["variant"] == "full") & (t["set"] == "train")
    assert full["training clipped (%)"] == pytest.approx(
        100 * t.loc[sel, "clipped"].mean()
    )
    assert full["R²"] == ev.overlap["full"].r2
    assert tt["training clipped (%)"].between(0, 100).all()


# ---------------------------------------------------------------- Fig. 4 analogue


def _poisson_log(n_banks=4, n=4000, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for b in range(n_banks):
        a = np.cumsum(rng.exponential(10.0, n))
        rows.append(
            pd.DataFrame(
                {"bank": b, "arrival_ns": a, "service_ns": 1.0, "wait_ns": 0.0}
            )
        )
    return pd.concat(rows, ignore_index=True)


def test_arrival_cv_of_poisson_arrivals_is_one():
    ca = verdicts.arrival_cv({"poisson": _poisson_log()})
    r = ca.iloc[0]
    assert r["banks"] == 4
    assert r["c_a mean (simulated)"] == pytest.approx(1.0, abs=0.05)
    assert math.isnan(r["paper: c_a mean (printed)"])


def test_arrival_cv_of_evenly_spaced_arrivals_is_zero_and_reads_the_paper():
    log = pd.DataFrame(
        {
            "bank": np.repeat([0, 1], 50),
            "arrival_ns": np.tile(np.arange(50.0) * 3.0, 2),
            "service_ns": 1.0,
            "wait_ns": 0.0,
        }
    )
    r = verdicts.arrival_cv({"md": log}).iloc[0]
    assert r["c_a mean (simulated)"] == pytest.approx(0.0, abs=1e-12)
    assert r["paper: c_a mean (printed)"] == pub.value("hl17.s3c3.ca.md")
    assert r["paper: c_a sd (printed)"] == pub.value("hl17.s3c3.ca_sd.md")


def test_arrival_cv_on_the_simulator_small_case():
    from gpumodels.engines.refsim import simulator as refsim

    log = refsim.simulate("matrixMul").dram_log
    ca = verdicts.arrival_cv({"matrixMul": log})
    k = evaluation.kingman_vs_log(log, min_requests=20)
    r = ca.iloc[0]
    assert r["banks"] == len(k) > 0
    assert r["c_a mean (simulated)"] == pytest.approx(k["c_a"].mean())
    # bursty: well above the exponential's 1, as §III-C3 says of GPU arrivals
    assert r["c_a mean (simulated)"] > 1.0


def test_arrival_cv_refuses_empty_or_thin_logs():
    with pytest.raises(ValueError, match="at least one benchmark"):
        verdicts.arrival_cv({})
    with pytest.raises(ValueError, match="at least 20 requests"):
        verdicts.arrival_cv({"spmv": _poisson_log(n=5)})


# ---------------------------------------------------------------- vecAdd walkthrough


def test_walkthrough_says_which_variant_runs(ev):
    sim = book.vecadd_walkthrough()
    assert set(sim.loc["variant"]) == {"Sim et al. 2012"}
    assert "T_overlap (cycles, F_overlap)" in sim.index
    assert "DRAM_lat the variant uses (constant, cycles)" in sim.index
    full = book.vecadd_walkthrough(variant="full", overlap=ev.overlap["full"])
    assert set(full.loc["variant"]) == {"Our model (full)"}
    assert "T_overlap (cycles, Eq. 11)" in full.index
    used = full.loc["DRAM_lat the variant uses (mapped, cycles)"]
    assert (used == full.loc["DRAM_lat, Kingman per bank (cycles)"]).all()
    inst = full.loc["#inst per warp the variant uses (issued)"]
    assert (inst == full.loc["#inst per warp (issued, Eq. 3)"]).all()
    with pytest.raises(ValueError, match="overlap must be a fitted Eq. 11"):
        book.vecadd_walkthrough(variant="full")
    with pytest.raises(UnknownNameError):
        book.vecadd_walkthrough(variant="PORPLE")


def test_table_uses_the_cluster_bootstrap_and_shows_the_placement_one(ev, vt):
    err = evaluation.eval_errors(ev)
    v = vt.set_index("key")
    d = (err["baseline"] - err["queue_mapped"]).to_numpy()
    lo, hi = evaluation.paired_bootstrap(d, err["benchmark"])
    plo, phi = evaluation.paired_bootstrap(d)
    row = v.loc["hl17.s5b.queue_alone"]
    assert (row["low"], row["high"]) == pytest.approx((lo[0], hi[0]))
    assert (row["placement low"], row["placement high"]) == pytest.approx(
        (plo[0], phi[0])
    )
    assert row["interval"].startswith("cluster bootstrap 95 %, 9 benchmarks of 22")
    assert v.loc["fig6.full", "interval"].startswith("robustness range")
    assert v.loc["fig6.latency_only", "paper's value"] == "< 1"
    assert v.loc["fig6.full", "tolerance"] == 0.5
    assert v.loc["hl17.s5a.mean_error", "tolerance"] == v.loc[
        "hl17.s5a.mean_error", "paper"
    ]


def test_gains_and_verdicts_share_one_interval(ev, vt):
    g = evaluation.gains(ev).set_index("published key")
    v = vt.set_index("key")
    for key in ("hl17.s5a.vs_sim2012", "hl17.s5b.instr", "hl17.s5b.both"):
        assert g.loc[key, "95% CI low"] == pytest.approx(v.loc[key, "low"])
        assert g.loc[key, "95% CI high"] == pytest.approx(v.loc[key, "high"])
        assert g.loc[key, "placement CI low"] == pytest.approx(
            v.loc[key, "placement low"]
        )


def test_near_threshold_flag_can_fire(ev, vt, monkeypatch):
    assert set(vt["near the threshold"]) <= {"yes", "no"}
    monkeypatch.setattr(verdicts, "NEAR_MARGIN", 1e6)
    wide = verdicts.table(ev, n_boot=200)
    boot = ~wide["key"].str.startswith("fig6")
    assert (wide.loc[boot, "near the threshold"] == "yes").all()
    assert (wide.loc[~boot, "near the threshold"] == "no").all()


def test_paired_bootstrap():
    x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    lo, hi = evaluation.paired_bootstrap(x, n_boot=500)
    assert np.all(lo <= x.mean(axis=0)) and np.all(x.mean(axis=0) <= hi)
    # paired: column 2 is column 1 + 1 in every resample
    assert hi[1] - hi[0] == pytest.approx(1.0) and lo[1] - lo[0] == pytest.approx(1.0)
    # one cluster per pair of rows: resample means are those of whole clusters
    lo, hi = evaluation.paired_bootstrap(x[:, 0], ["a", "a", "b", "b"], n_boot=500)
    assert lo[0] == pytest.approx(2.0) and hi[0] == pytest.approx(6.0)
    with pytest.raises(ValueError, match="groups"):
        evaluation.paired_bootstrap(x, ["a"] * 4)
    with pytest.raises(ValueError, match="groups"):
        evaluation.paired_bootstrap(x, ["a", "b"])
    with pytest.raises(ValueError, match="finite"):
        evaluation.paired_bootstrap([[1.0], [math.nan]])
    with pytest.raises(ValueError, match="n_boot"):
        evaluation.paired_bootstrap(x, n_boot=1)


def test_the_baseline_worse_than_sim_claim_takes_the_printed_sign(ev, vt):
    # §V-B: the baseline's error exceeds Sim et al.'s by both − vs_sim2012 points
    row = vt.set_index("key").loc["hl17.s5b.baseline_worse_than_sim"]
    want = pub.value("hl17.s5b.both") - pub.value("hl17.s5a.vs_sim2012")
    assert row["paper"] == pytest.approx(want) and want > 0
    book = 100 * (ev.mean_error("baseline") - ev.mean_error("sim2012"))
    assert row["book (simulated reference)"] == pytest.approx(book)
