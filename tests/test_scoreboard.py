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
    assert set(board.status) <= {*published.STATUSES, published.INPUT}
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
    derivable = board[~board.status.isin(["not derivable", "input"])]
    assert set(derivable.key) <= set(values)
    assert all(math.isfinite(v) for v in derivable.computed)
    nd = board[board.status.isin(["not derivable", "input"])]
    assert nd.computed.isna().all() and (nd.producer == "").all()


def test_reasons_are_kept_with_the_rows(board):
    outside = board[board.status == "outside"]
    assert outside.note.str.startswith("outside, explained: ").all(), list(outside.key)
    nd = board[board.status == "not derivable"]
    assert nd.note.str.startswith("not derivable: ").all(), list(nd.key)
    assert (nd.note.str.len() > 40).all()             # says which inputs are missing


def test_no_tolerance_wider_than_printed_precision_without_a_reason(board):
    for r in board[(board.bound == "") & (board.status != "input")].itertuples():
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
    assert row.bound == ">" and math.isnan(row.tolerance)


def test_a_claim_holds_on_its_printed_side_only():
    row = {"value": "10", "status": "reproduced", "bound": "<"}
    assert scoreboard._status(row, 8.5, float("nan")) == "reproduced"
    assert scoreboard._status(row, 10.0, float("nan")) == "outside"
    assert scoreboard._status(dict(row, bound=">"), 10.5, float("nan")) == "reproduced"
    assert scoreboard._status(dict(row, bound=">"), 10.0, float("nan")) == "outside"
    assert scoreboard._status(dict(row, bound=""), 10.4, 0.5) == "reproduced"
    assert scoreboard._status(dict(row, bound=""), 10.6, 0.5) == "outside"
    assert scoreboard._status(dict(row, bound=""), None, 0.5) == "not derivable"
    assert scoreboard._status(dict(row, status="input"), None, 0.5) == "input"


def test_targets_of_issue_19(board):
    volkov = board[(board.paper == "Volkov 2016") & ~board.key.str.startswith("v16.t2_")]      # chapters 3-7
    assert (volkov.status == "reproduced").sum() >= 185
    transit = board[board.paper == "Li et al. 2015"]
    assert len(transit) >= 10
    counts = scoreboard.counts(board)
    assert list(counts.index) == list(scoreboard.PAPERS)
    assert (counts.total == counts.reproduced + counts.outside + counts["not derivable"]).all()
    assert list(counts.columns) == list(scoreboard.COUNT_COLUMNS)


def test_front_page_table(board):
    lines = scoreboard.front_page_markdown(board).splitlines()
    rows = lines[2:-1]                       # header, alignment, one row per paper, total
    assert len(rows) == len(scoreboard.PAPERS)
    assert "| reproduced |" in lines[0] and "| outside (explained) |" in lines[0]
    assert "| inputs (not scored) |" in lines[0]
    assert all(r.count("|") == lines[0].count("|") for r in rows)
    for paper, row in zip(scoreboard.PAPERS, rows):
        assert f"<{scoreboard.section_label(paper)}>" in row and f"<{scoreboard.CHAPTERS[paper]}>" in row
    counts = scoreboard.counts(board)
    total = lines[-1]
    assert f"**{counts.total.sum()}**" in total and f"**{counts.input.sum()}**" in total


def test_producers_are_named_and_keys_produced_once():
    assert scoreboard.producer_of("v16.s3_6.issue_events").endswith("papers.volkov.printed.table_3_4")
    with pytest.raises(KeyError):
        scoreboard.producer_of("v16.no.such.key")


def test_scoreboard_prefix_and_unknown_prefix():
    part = scoreboard.table("v16.t3_4.")
    assert part.key.str.startswith("v16.t3_4.").all() and len(part) == 5 + 9 * 2 + 3
    assert len(scoreboard.table("v16.t4_2.", inputs=False)) < len(scoreboard.table("v16.t4_2."))
    with pytest.raises(KeyError, match="no published value"):
        scoreboard.table("no.such.")


def test_printed_inputs_are_readable_shown_but_not_counted(board):
    assert published.value("v16.s7_4.c2050_sms") == 14
    row = board.set_index("key").loc["v16.s7_4.c2050_sms"]
    assert row.status == "input" and math.isnan(row.computed)
    counts = scoreboard.counts(board)
    inputs = board[board.status == "input"]
    assert counts.input.sum() == len(inputs) and counts.total.sum() == len(board) - len(inputs)
    shown = published.compact(board[board.key == "v16.s7_4.c2050_sms"])
    assert shown.frame.loc["v16.s7_4.c2050_sms", "computed"] == "taken in"


def test_scoreboard_page_has_a_section_per_paper():
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "book" / "scoreboard.md").read_text()
    for paper in scoreboard.PAPERS:
        assert f"({scoreboard.section_label(paper)})=" in page
        assert f'by_paper["{paper}"]' in page
    with pytest.raises(KeyError, match="unknown paper"):
        scoreboard.section_label("Nobody 1999")
