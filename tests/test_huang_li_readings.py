"""Huang & Li's unprinted readings: the registry, run() under any reading, the MWP-bytes
switch, and the cached sensitivity study against a recomputation."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from gpumodels.engines.refsim import placements
from gpumodels.facts import published as pub
from gpumodels.ground import schemas
from gpumodels.ground.errors import UnknownNameError
from gpumodels.papers.huang_li import (
    analysis,
    evaluation,
    model,
    queueing,
    readings,
    verdicts,
)


def test_registry_names_are_unique_and_options_distinct():
    names = [r.name for r in readings.READINGS]
    assert len(names) == len(set(names))
    for r in readings.READINGS:
        assert len(set(r.options)) == len(r.options) >= 2
        assert set(r.meaning) == set(r.options)
    labels = {x[0] for x in readings.NOT_SWITCHED}
    assert labels.isdisjoint({"A1", "A2", "A6", "A12", "A19"})
    assert {"A7–A10", "A13"} <= labels  # placement lists; A13's 0/1-based numbering
    a13 = next(x for x in readings.NOT_SWITCHED if x[0] == "A13")
    assert "count from 0 or 1" in a13[1]
    # the combinations cache has one column per reading, in the registry's order
    assert schemas._HUANG_LI_READINGS == tuple(r.name for r in readings.READINGS)


def test_registry_options_are_the_ones_the_code_takes():
    r = {x.name: set(x.options) for x in readings.READINGS}
    assert r["amat_form"] == set(model.AMAT_FORMS)
    assert r["mwp_bytes"] == set(model.MWP_BYTES)
    assert r["copy"] == set(model.COPY)
    assert r["queue_form"] <= set(queueing.QUEUE_FORMS)
    assert r["saturation"] == set(queueing.SATURATION)
    assert r["service"] == set(analysis.SERVICE)
    assert set(evaluation.ANALYSIS_READINGS) <= set(r)


def test_defaults_are_what_run_uses_by_default():
    d = readings.defaults()
    ev = evaluation.run()
    assert dict(ev.readings) == d
    assert evaluation.run(readings=d) is ev  # the same cached evaluation
    assert evaluation.run(readings={}) is ev
    # the defaults of the code's own keyword arguments agree with the registry
    assert d["amat_form"] == "printed" and d["mwp_bytes"] == "lookups"
    assert d["copy"] == "added" and d["clock"] == "boost"
    assert d["queue_form"] == "kingman" and d["saturation"] == "cap"
    assert d["service"] == "occupancy" and d["rule"] == "printed"
    assert d["mapping"] == "algorithm1"  # the sample profile's Algorithm 1 map
    s = evaluation.sample_profile("neuralnet")
    assert s.analysis.options["mapping"] == "algorithm1_on_refsim"
    assert s.machine.clock_ghz == analysis.k80().clock_ghz


def test_run_under_defaults_matches_the_cached_default_row():
    """run() with no readings reproduces the cache's default row and the summary's
    full-model error."""
    row = evaluation.sensitivity_table().set_index(["reading", "option"])
    base = row.loc[("default", "all defaults")]
    h = evaluation.headline(evaluation.run())
    assert h["mean_error_pct"] == pytest.approx(base["mean_error_pct"], rel=1e-12)
    assert h["tau_full"] == pytest.approx(base["tau_full"], abs=1e-12)
    s = evaluation.summary(evaluation.run()).set_index("variant")
    assert s.loc["full", "mean error (%)"] == pytest.approx(h["mean_error_pct"])


@pytest.mark.parametrize(
    "bad",
    [{"no_such_reading": "x"}, {"mwp_bytes": "everything"}, {"mapping": "gddr5_6x16"}],
)
def test_unknown_reading_or_option_is_refused(bad):
    with pytest.raises(UnknownNameError, match="must be one of"):
        evaluation.run(readings=bad)
    with pytest.raises(UnknownNameError):
        readings.resolve(bad)


def test_amat_form_argument_and_reading_must_agree():
    assert evaluation.run("weighted") is evaluation.run(readings={"amat_form": "weighted"})
    with pytest.raises(ValueError, match="must agree"):
        evaluation.run("weighted", readings={"amat_form": "printed"})
    # an explicit "printed" (the default option) is refused too, not silently overruled
    with pytest.raises(ValueError, match="must agree"):
        evaluation.run("printed", readings={"amat_form": "weighted"})
    with pytest.raises(ValueError, match="must agree"):
        evaluation.fit_overlap("full", "printed", readings={"amat_form": "weighted"})
    assert evaluation.run("printed") is evaluation.run()


def test_every_alternative_is_accepted_by_the_model_layer():
    for r in readings.READINGS:
        for opt in r.alternatives:
            assert readings.resolve({r.name: opt})[r.name] == opt
            assert readings.changed({r.name: opt}) == {r.name: opt}


def _nn(space: str):
    t = next(
        t for t in placements.tests()
        if t["benchmark"] == "neuralnet" and t["moves"].endswith(f"->{space}")
    )
    # the placement's traffic as the evaluation keeps it (computed here where it is not)
    moves = placements.parse_moves(t["moves"])
    return analysis.analyze(analysis.placement_traffic("neuralnet", moves)["printed"])


def test_mwp_bytes_switch_drops_texture_hits():
    an = _nn("T")
    m = analysis.k80()
    look, off = model.mwp_load_bytes(an, m, "lookups")
    l2, off2 = model.mwp_load_bytes(an, m, "l2")
    dram, _ = model.mwp_load_bytes(an, m, "dram")
    assert off == off2 > 0
    hits = (an.requests["T"] - an.misses["T"]) * m.tex.line_bytes + (
        an.requests["C"] - an.misses["C"]
    ) * m.const.line_bytes
    assert hits > 0  # the case has texture hits for the switch to drop
    assert look == an.offchip_bytes
    assert look - l2 == hits
    assert dram == an.dram_bytes <= l2
    kw = dict(variant="sim2012", inst_per_warp=an.executed_per_warp)
    p = {b: model.evaluate(an, mwp_bytes=b, **kw) for b in model.MWP_BYTES}
    assert p["lookups"].t == model.evaluate(an, **kw).t  # the default
    assert p["l2"].mwp >= p["lookups"].mwp  # fewer bytes: a looser bandwidth limit


def test_copy_switch_removes_only_the_copy():
    an = _nn("S")
    kw = dict(variant="sim2012", inst_per_warp=an.executed_per_warp)
    a, b = model.evaluate(an, **kw), model.evaluate(an, copy="omitted", **kw)
    assert a.copy_cycles > 0 and b.copy_cycles == 0
    assert a.t - b.t == pytest.approx(a.copy_cycles)


def _same(h: dict, row) -> None:
    for k, v in h.items():
        assert (math.isnan(v) and math.isnan(row[k])) or v == pytest.approx(
            row[k], rel=1e-9, abs=1e-12
        ), k


def test_sensitivity_cache_matches_a_recomputation():
    df = evaluation.sensitivity_table()
    assert set(df["reading"]) >= {"default", *(r.name for r in readings.READINGS)}
    n_alt = sum(len(r.alternatives) for r in readings.READINGS)
    assert (df["reading"] != "combined").sum() == 1 + n_alt
    # a model-level reading and an analysis reading (re-analyses every placement)
    for name, opt in (("mwp_bytes", "l2"), ("rule", "segments")):
        row = df[(df["reading"] == name) & (df["option"] == opt)].iloc[0]
        assert evaluation.parse_readings(row["readings"]) == {name: opt}
        _same(evaluation.headline(evaluation.run(readings={name: opt})), row)
    base = df[df["reading"] == "default"].iloc[0]
    d = row["mean_error_pct"] - base["mean_error_pct"]
    assert row["d_error_pp"] == pytest.approx(d)
    # the combined rows are the exhaustive search's picks
    comb = df[df["reading"] == "combined"].set_index("option")
    assert set(comb.index) == set(evaluation.CRITERIA)
    for c in evaluation.CRITERIA:
        picked = evaluation.parse_readings(comb.at[c, "readings"])
        assert picked == evaluation.favourable(c)


def test_combination_cache_is_exhaustive_and_matches_a_recomputation():
    df = evaluation.combination_table()
    names = [r.name for r in readings.READINGS]
    assert len(df) == math.prod(len(r.options) for r in readings.READINGS)
    assert not df.duplicated(subset=names).any()
    for r in readings.READINGS:
        assert set(df[r.name]) == set(r.options)
    # each skipped row has saturation=nan and a placement left unpredicted
    skipped = df[df["status"] == "skipped"]
    assert (skipped["saturation"] == "nan").all() and (skipped["unpredicted"] > 0).all()
    assert skipped["mean_error_pct"].isna().all()
    ev = df[df["status"] == "evaluated"]
    assert ev["mean_error_pct"].notna().all()
    # the defaults' row is the sensitivity study's default row
    d = readings.defaults()
    row = df[(df[names] == pd.Series(d)).all(axis=1)].iloc[0]
    assert row["readings"] == ""
    _same(evaluation.headline(evaluation.run()), row)
    # a combination of several readings, analysis readings among them, recomputed
    fav = evaluation.favourable("error")
    assert len(fav) >= 2 and set(fav) & set(evaluation.ANALYSIS_READINGS)
    full = readings.resolve(fav)
    row = df[(df[names] == pd.Series(full)).all(axis=1)].iloc[0]
    _same(evaluation.headline(evaluation.run(readings=fav)), row)
    # a skipped combination really leaves placements unpredicted: the count matches
    nan = {**d, "saturation": "nan"}
    row = df[(df[names] == pd.Series(nan)).all(axis=1)].iloc[0]
    assert row["status"] == "skipped"
    h = evaluation.headline(evaluation.run(readings=nan))
    assert h["unpredicted"] == row["unpredicted"] > 0


def _brute(df, criterion):
    ok = df[(df["status"] == "evaluated") & (df["unpredicted"] == 0)]
    err = (ok["mean_error_pct"] - pub.value("hl17.s5a.mean_error")).abs()
    tau = (ok["tau_full"] - evaluation.PAPER_TAU).abs().fillna(np.inf)
    keys = list(zip(err, tau)) if criterion == "error" else list(zip(tau, err))
    return ok.iloc[min(range(len(keys)), key=keys.__getitem__)]


def test_favourable_follows_its_definition():
    df = evaluation.combination_table()
    names = [r.name for r in readings.READINGS]
    for c in evaluation.CRITERIA:
        best = _brute(df, c)
        fav = evaluation.favourable(c, df)
        assert fav == readings.changed(dict(best[names]))
        top = evaluation.top_combinations(c, 5, df)
        assert len(top) == 5 and dict(top.iloc[0][names]) == dict(best[names])
        assert (top["unpredicted"] == 0).all()
    # "error": the chosen error is no farther from 9.9 % than any eligible row's
    paper = pub.value("hl17.s5a.mean_error")
    ok = df[(df["status"] == "evaluated") & (df["unpredicted"] == 0)]
    best = evaluation.top_combinations("error", 1, df).iloc[0]
    gap = (ok["mean_error_pct"] - paper).abs().min()
    assert abs(best["mean_error_pct"] - paper) <= gap
    # the rule can pick the defaults: a table where they are best returns {}
    t = df.copy()
    t.loc[t["readings"] == "", "mean_error_pct"] = paper
    assert evaluation.favourable("error", t) == {}
    # a table with no eligible row is refused
    t = df.copy()
    t["unpredicted"] = 1
    with pytest.raises(ValueError, match="every placement predicted"):
        evaluation.favourable("error", t)
    with pytest.raises(UnknownNameError):
        evaluation.favourable("closest")


def test_parse_readings_round_trip_and_refusals():
    assert evaluation.parse_readings("") == {}
    assert evaluation.parse_readings("mwp_bytes=l2; clock=base") == {
        "mwp_bytes": "l2",
        "clock": "base",
    }
    with pytest.raises(ValueError):
        evaluation.parse_readings("mwp_bytes")
    with pytest.raises(UnknownNameError):
        evaluation.parse_readings("mwp_bytes=all")


def test_readings_tables():
    t = readings.table()
    assert list(t["reading"]) == [r.name for r in readings.READINGS]
    assert isinstance(readings.not_switched_table(), pd.DataFrame)
    assert np.all(t["alternatives"].str.len() > 0)


def test_verdict_flips_cache_is_current():
    df = verdicts.flips_table()
    assert list(df.columns) == list(verdicts.FLIP_COLUMNS)  # as the schema has them
    n = verdicts.FLIPS_TOP
    assert len(df) == len(evaluation.CRITERIA) * n * len(verdicts.CLAIMS)
    assert set(df["verdict"]) <= set(verdicts.VERDICTS)
    assert df["source"].str.contains("simulated reference").all()
    for c in evaluation.CRITERIA:
        runs = df[df["criterion"] == c].drop_duplicates("rank")
        assert list(runs["rank"]) == list(range(1, n + 1))
        top = evaluation.top_combinations(c, n)["readings"]
        assert list(runs["readings"]) == list(top)
    # each criterion's pick recomputed gives the cached verdicts (the sensitivity
    # chapter evaluates both picks too, so a worker reads them from the disk cache)
    for c, rank in (("error", 1), ("tau", 1)):
        rows = df[(df["criterion"] == c) & (df["rank"] == rank)]
        ev = evaluation.run(readings=evaluation.parse_readings(rows["readings"].iloc[0]))
        again = verdicts.table(ev)
        assert list(again["key"]) == list(rows["key"])
        assert list(again["verdict"]) == list(rows["verdict"])
