"""Hostile inputs to the Huang & Li modules (issue 38, round 3: the callables the fuzz
harness had no baseline for): each is refused with the package's own error, whose
message names the argument."""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pandas as pd
import pytest

from gpumodels.ground.errors import (
    DataError,
    InputTypeError,
    OutOfRangeError,
    OutsideDomainError,
)
from gpumodels.papers.huang_li import cache, evaluation, events, fig2, model, queueing


def _log(n=64, banks=4):
    rng = np.random.default_rng(3)
    return pd.DataFrame(
        {
            "bank": np.arange(n) % banks,
            "arrival_ns": np.cumsum(rng.exponential(40.0, n)),
            "service_ns": np.full(n, 25.0),
            "wait_ns": rng.exponential(5.0, n),
        }
    )


# ---- events


@pytest.mark.parametrize("bad", ["abc", {}, 10**400, None, [True, False, True]])
@pytest.mark.parametrize("name", ["a", "b"])
def test_cosine_refuses_non_numbers(name, bad):
    args = {"a": [1.0, 2.0, 3.0], "b": [2.0, 4.0, 6.0], name: bad}
    with pytest.raises(InputTypeError, match=rf"\b{name} must"):
        events.cosine_similarity(**args)


def test_cosine_beyond_float_range():
    with pytest.raises(OutsideDomainError, match=r"\ba\b.*\bb\b"):
        events.cosine_similarity([1e200, 1e200], [1e200, 1.0])


@pytest.mark.parametrize("bad", [None, 8, 1e300, "abc", []])
def test_select_names_time_vector(bad):
    with pytest.raises(ValueError, match="time_vector"):
        events.select(bad, {"x": [1.0, 2.0]})


@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2]])
def test_select_names_event_vectors(bad):
    with pytest.raises(InputTypeError, match="event_vectors"):
        events.select([1.0, 2.0], bad)


def test_select_names_the_event():
    with pytest.raises(ValueError, match=r"event_vectors\['x'\]"):
        events.select([1.0, 2.0], {"x": [1.0, 2.0, 3.0]})
    with pytest.raises(OutOfRangeError, match=r"event_vectors\['y'\]"):
        events.select([1.0, 2.0], {"x": [1.0, 2.0], "y": [math.nan, 1.0]})


def test_events_valid_inputs_unchanged():
    assert events.cosine_similarity([1, 2, 3], [2, 4, 6]) == 1.0
    t = [1.0, 1.1, 1.2]
    sel = events.select(t, {"same": [2.0, 2.2, 2.4], "flat": [1.0, 1.0, 1.0]})
    assert sel == {"same": 1.0, "flat": pytest.approx(events.cosine_of_constant(t))}
    assert events.select(t, {"off": [1.0, 0.0, 0.0]}) == {}


# ---- evaluation


@pytest.mark.parametrize("bad", [{}, [1, 2], None, 8])
def test_reference_time_ns_names_test(bad):
    with pytest.raises(InputTypeError, match=r"\btest\b"):
        evaluation.reference_time_ns(bad)


def _names(name: str) -> str:
    return rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])"


@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2], pd.DataFrame({"x": [1]})])
def test_latency_only_score_names_test(bad):
    with pytest.raises(InputTypeError, match=_names("test")):
        evaluation.latency_only_score(bad)


@pytest.mark.parametrize(
    "bad, missing",
    [
        ({}, "benchmark, moves"),
        ({"benchmark": "bfs"}, "moves"),
        ({"moves": ""}, "benchmark"),
    ],
)
def test_latency_only_score_missing_keys_are_a_data_error(bad, missing):
    # review finding: a mapping lacking keys is DataError (validate.check_keys)
    with pytest.raises(DataError, match=_names("test")) as e:
        evaluation.latency_only_score(bad)
    assert f"key(s) {missing} " in str(e.value)


def test_latency_only_score_names_a_bad_entry():
    with pytest.raises(InputTypeError, match=r"test\['moves'\]"):
        evaluation.latency_only_score({"benchmark": "bfs", "moves": None})


@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2]])
def test_kingman_vs_log_refuses_a_non_table(bad):
    with pytest.raises(InputTypeError, match=_names("log")):
        evaluation.kingman_vs_log(bad)


def test_kingman_vs_log_refuses_a_bad_table():
    with pytest.raises(DataError, match=r"^log lacks the key\(s\) wait_ns\b"):
        evaluation.kingman_vs_log(_log().drop(columns="wait_ns"))
    with pytest.raises(DataError, match=r"^log lacks the key\(s\) bank, service_ns\b"):
        evaluation.kingman_vs_log(dict(_log().drop(columns=["bank", "service_ns"])))
    with pytest.raises(DataError, match=r"log\['bank'\]"):
        evaluation.kingman_vs_log(_log().assign(bank=-1))
    with pytest.raises(OutOfRangeError, match=r"log\['wait_ns'\]"):
        evaluation.kingman_vs_log(_log().assign(wait_ns=-1.0))
    with pytest.raises(InputTypeError, match=r"log\['arrival_ns'\]"):
        evaluation.kingman_vs_log(_log().assign(arrival_ns="abc"))


@pytest.mark.parametrize("bad", [None, {}, "8", -1, math.nan, [1, 2], True])
def test_kingman_vs_log_names_min_requests(bad):
    with pytest.raises(ValueError, match="min_requests"):
        evaluation.kingman_vs_log(_log(), min_requests=bad)


def test_kingman_vs_log_valid_input():
    kv = evaluation.kingman_vs_log(_log(), min_requests=8)
    assert len(kv) == 4 and (kv["requests"] == 16).all()
    assert evaluation.kingman_vs_log(_log(), min_requests=0).equals(kv)


# ---- fig2


@pytest.mark.parametrize("bad", [None, 8, math.inf, True])
def test_count_listing_names_lines(bad):
    with pytest.raises(InputTypeError, match=r"\blines\b"):
        fig2.count_listing(bad, "R3")


def test_count_listing_names_the_line():
    with pytest.raises(InputTypeError, match=r"lines\[1\]"):
        fig2.count_listing(["MOV32I R5, 0x4;", 2], "R3")


# ---- model records


@pytest.mark.parametrize("field", ["r2", "lobo_error"])
def test_overlap_model_refuses_a_huge_int(field):
    m = model.OverlapModel(
        coef=np.zeros(len(model.FEATURES) + 1),
        r2=0.5,
        lobo_error=0.1,
        condition=10.0,
        rank=3,
        zero_columns=(),
        n=5,
    )
    with pytest.raises(OutOfRangeError, match=rf"OverlapModel\.{field}"):
        dataclasses.replace(m, **{field: 10**400})


# ---- queueing


def test_bank_stats_beyond_float_range():
    # review finding: the message names the first non-finite statistic, its bank and
    # the input it comes from, not reprs of the inputs cut at 24 characters
    bank = np.arange(8) % 2
    arrival = np.arange(8) * 10.0
    with pytest.raises(OutsideDomainError) as e:
        queueing.bank_stats(bank, arrival, 1e300)
    msg = str(e.value)
    assert msg.startswith("sigma_s (") and re.search(_names("service"), msg)
    assert "of bank 0 is not finite (nan)" in msg and "1.3" not in msg
    with pytest.raises(OutsideDomainError, match=r"^sigma_a \(.*\barrival\b.*bank 0"):
        queueing.bank_stats(bank, arrival * 1e300, 1.0)
    service = np.where(bank == 1, 1e300, 1.0)
    with pytest.raises(OutsideDomainError, match=r"^sigma_s \(.* of bank 1 is not"):
        queueing.bank_stats(bank, arrival, service)
    with pytest.raises(OutsideDomainError, match=r"^sigma_s \(.* of bank 7 is not"):
        queueing.bank_stats(bank + 6, arrival, service)


def test_finite_docstring_matches_the_closed_forms():
    # review finding: rho >= 1 is refused before _finite runs
    assert "documented" not in queueing._finite.__doc__
    assert "_steady" in queueing._finite.__doc__
    with pytest.raises(OutsideDomainError, match=_names("rho")):
        queueing.kingman(1.0, 1.0, 1.0, 2.0)


def test_moments_cv_beyond_float_range():
    with pytest.raises(OutsideDomainError, match=r"\bmean="):
        queueing.moments_cv(1e300, 5.0)
    with pytest.raises(OutsideDomainError, match=r"second_moment="):
        queueing.moments_cv(5e-324, 1e300)
    assert queueing.moments_cv(2.0, 4.0) == 0.0
    assert queueing.moments_cv(2.0, 5.0) == 0.5


def test_time_draws_are_bounded():
    rng = np.random.default_rng(0)
    for f in (queueing.gamma_times, queueing.two_moment_times):
        with pytest.raises(OutOfRangeError, match=r"\bsize\b.*10000000"):
            f(1.0, 0.5, queueing.MAX_TIMES + 1, rng)
    with pytest.raises(OutOfRangeError, match=r"\bn\b.*10000000"):
        queueing.simulate_gg1(1.0, 1.0, 0.5, n=queueing.MAX_TIMES + 1)


# ---- cache


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", math.inf, True, 10**400])
def test_lru_hits_names_n_caches(bad):
    with pytest.raises(ValueError, match="n_caches"):
        cache.lru_hits([0, 1, 0], 2, 2, cache_id=[0, 0, 0], n_caches=bad)


def test_lru_hits_bounds_the_cache_tables():
    with pytest.raises(OutOfRangeError, match="MAX_CACHE_LINES"):
        cache.lru_hits([0, 1], 1 << 24, 2)
    with pytest.raises(OutOfRangeError, match="MAX_CACHE_LINES"):
        cache.lru_hits([0, 1], 1 << 20, 4, cache_id=[0, 1], n_caches=8)


def test_lru_hits_names_lines_beside_cache_id():
    with pytest.raises(ValueError, match=r"cache_id.*\blines\b"):
        cache.lru_hits([1, 2], 2, 2, cache_id=[0, 1, 0])


def test_lru_hits_valid_inputs_unchanged():
    assert cache.lru_hits([0, 1, 0, 2, 1], n_sets=1, assoc=2).tolist() == [
        False,
        False,
        True,
        False,
        False,
    ]
    hits = cache.lru_hits([0, 0, 0, 0], 1, 1, cache_id=[0, 1, 0, 1], n_caches=2)
    assert hits.tolist() == [False, False, True, True]
