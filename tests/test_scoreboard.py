"""The scoreboard: every scored printed value computed by the package and compared at its tolerance."""

import math

import pandas as pd
import pytest

from gpumodels import published, scoreboard


@pytest.fixture(scope="module")
def board():
    return scoreboard.table()


def test_columns_types_and_statuses(board):
    for col in ("key", "paper", "printed", "computed", "tolerance", "status"):
        assert col in board.columns
    assert pd.api.types.is_float_dtype(board.printed) and pd.api.types.is_float_dtype(board.computed)
    assert set(board.status) <= set(published.STATUSES)
    assert set(board.paper) == set(scoreboard.PAPERS)
    assert board.key.is_unique


def test_every_row_has_its_declared_status(board):
    published.check(board)                       # raises naming each row whose status changed
    bad = board[board.status != board.declared]
    assert bad.empty


def test_a_changed_status_is_caught(board):
    broken = board.copy()
    broken.loc[broken.index[0], "status"] = "outside"
    with pytest.raises(AssertionError, match=broken.key.iloc[0]):
        published.check(broken)


def test_every_computed_key_is_a_scored_row_and_every_derivable_row_is_computed(board):
    values = scoreboard.computed()
    assert set(values) <= set(board.key), sorted(set(values) - set(board.key))
    derivable = board[board.status != "not derivable"]
    assert set(derivable.key) <= set(values)
    assert all(math.isfinite(v) for v in derivable.computed)
    nd = board[board.status == "not derivable"]
    assert nd.computed.isna().all() and (nd.producer == "").all()


def test_reasons_are_kept_with_the_rows(board):
    outside = board[board.status == "outside"]
    assert outside.note.str.startswith("outside, explained: ").all(), list(outside.key)
    nd = board[board.status == "not derivable"]
    assert nd.note.str.startswith("not derivable: ").all(), list(nd.key)
    assert (nd.note.str.len() > 40).all()             # says which inputs are missing


def test_no_tolerance_wider_than_printed_precision_without_a_reason(board):
    for r in board.itertuples():
        half = published.printed_half_unit(r.key)
        if r.tolerance != half:  # looser, or tighter (a column printed in steps of 0.5)
            assert "tolerance:" in r.note, f"{r.key}: tolerance {r.tolerance} != printed precision {half}, no reason"
        assert r.tolerance > 0


def test_tolerance_is_half_a_unit_of_the_printed_digits():
    assert published.printed_half_unit("v16.t3_1.needed_concurrency.alu.GTX980") == 0.5
    assert published.printed_half_unit("v16.s3_8.memory_bound.GTX680") == pytest.approx(5e-5)
    assert published.tolerance("v16.s3_10.added_latency.GTX680") == 50


def test_lower_bounds_are_compared_as_bounds(board):
    b = board.set_index("key")
    row = b.loc["v16.s7_2.alpha0_underestimate.8800GTX"]
    assert row.printed_text.startswith(">") and row.computed > row.printed and row.status == "reproduced"


def test_targets_of_issue_19(board):
    volkov = board[(board.paper == "Volkov 2016") & ~board.key.str.startswith("v16.t2_")]      # chapters 3-7
    assert (volkov.status == "reproduced").sum() >= 185
    transit = board[board.paper == "Li et al. 2015"]
    assert len(transit) >= 10
    counts = scoreboard.counts(board)
    assert list(counts.index) == list(scoreboard.PAPERS)
    assert (counts.total == counts.reproduced + counts.outside + counts["not derivable"]).all()


def test_front_page_table(board):
    lines = scoreboard.front_page_markdown(board).splitlines()
    rows = lines[2:-1]                       # header, alignment, one row per paper, total
    assert len(rows) == len(scoreboard.PAPERS)
    assert "| reproduced |" in lines[0] and "| outside (explained) |" in lines[0]
    assert all(r.count("|") == lines[0].count("|") for r in rows)


def test_producers_are_named_and_keys_produced_once():
    assert scoreboard.producer_of("v16.s3_6.issue_events").endswith("papers.volkov.printed.table_3_4")
    with pytest.raises(KeyError):
        scoreboard.producer_of("v16.no.such.key")


def test_scoreboard_prefix_and_unknown_prefix():
    part = scoreboard.table("v16.t3_4.")
    assert part.key.str.startswith("v16.t3_4.").all() and len(part) == 5 + 9 * 2 + 3
    with pytest.raises(KeyError, match="no scored"):
        scoreboard.table("no.such.")


def test_printed_inputs_are_readable_but_not_scored(board):
    assert published.value("v16.s7_4.c2050_sms") == 14
    assert "v16.s7_4.c2050_sms" not in set(board.key)
