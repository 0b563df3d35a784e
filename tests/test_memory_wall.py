"""The extended Fig. 4.4 dataset and trend fit (Volkov 2016, §4.4)."""

import pytest

from gpumodels import memory_wall, published
from gpumodels.papers.volkov import explorer as volkov_explorer


def test_dataset_covers_the_span_and_is_consistent():
    df = memory_wall.table()
    gf = df[df.line == "GeForce"]
    assert gf.year.min() < 2007 and gf.year.max() > 2025
    assert set(gf.in_volkov) == {"yes", "no"} and (gf.in_volkov == "yes").sum() == 5
    assert (df.ratio > 0).all() and df["product"].is_unique
    assert {"GDDR5X", "GDDR6", "GDDR6X", "GDDR7"} <= set(gf.memory_type)
    assert {"HBM2", "HBM3"} <= set(df.memory_type)


def test_trend_reproduces_volkov_and_slows_after_2016():
    df = memory_wall.table()
    early = memory_wall.fit_trend(df, 2006, 2015)
    late = memory_wall.fit_trend(df, 2016, 2026)
    assert early["factor_per_year"] == pytest.approx(published.value("v16.s4_4.trend_per_year.generic"), abs=0.02)
    assert 1.0 < late["factor_per_year"] < early["factor_per_year"]
    with pytest.raises(ValueError, match="at least 3 GPUs"):
        memory_wall.fit_trend(df, 2006, 2006.1)
    with pytest.raises(ValueError, match="end must be"):
        memory_wall.fit_trend(df, 2010, 2005)


def test_volkov_summary_html():
    h = volkov_explorer.summary_html("Kepler", 8, 20)
    assert "GTX680" in h and "needed occupancy" in h and "GB/s" in h
    h0 = volkov_explorer.summary_html("Maxwell", 0.0, 4)
    assert "no limit" in h0
