"""Hostile arguments to gpumodels.facts and gpumodels.ground, round 3 of issue 38: each
raises the package's own error, naming the argument (the cases the fuzz harness,
``tools/fuzz_api.py``, found once every callable of these modules had a baseline)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import gpumodels
from gpumodels.facts import modern, occupancy, params, profile, published
from gpumodels.ground import data, schemas, tables, validate
from gpumodels.ground.errors import (
    InputTypeError,
    OutOfRangeError,
    UnknownNameError,
)

NVPROF = (
    Path(gpumodels.__file__).resolve().parents[1]
    / "data/silicon/gpuperfpredict/calculate_temp-GTX-680.csv"
)


def _names(message: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", message)


def _raises(error, arg, fn, *args, **kwargs):
    with pytest.raises(error) as e:
        fn(*args, **kwargs)
    assert _names(str(e.value), arg), str(e.value)


@pytest.fixture(scope="module")
def launches():
    return profile.read(NVPROF)[:2]


# ---------------------------------------------------------------- facts


@pytest.mark.parametrize("fn", [None, 8, "abc", [1, 2]])
def test_band_refuses_what_is_not_callable(fn):
    _raises(InputTypeError, "fn", modern.band, fn, "H100")


def test_band_refuses_results_of_different_shapes():
    sizes = iter(range(1, 100))
    _raises(OutOfRangeError, "fn", modern.band, lambda p: np.ones(next(sizes)), "H100")


@pytest.mark.parametrize("o", [None, {}, 8, "8.0"])
def test_occupancy_summary_html_refuses_what_is_not_a_result(o):
    _raises(InputTypeError, "o", occupancy.summary_html, o)


_FIT = dict(  # noqa: C408
    mem_lat=301.0,
    mem_thru=0.0752,
    alu_lat=9.0,
    alu_thru=6.0,
    issue_thru=4.0,
    sources={},
)


@pytest.mark.parametrize(
    "name", ["mem_lat", "mem_thru", "alu_lat", "alu_thru", "issue_thru"]
)
@pytest.mark.parametrize(
    "bad, error",
    [
        (None, InputTypeError),
        ("abc", InputTypeError),
        ("8", InputTypeError),
        ([1, 2], InputTypeError),
        ({}, InputTypeError),
        (10**400, OutOfRangeError),
        (-1, OutOfRangeError),
        (float("nan"), OutOfRangeError),
    ],
)
def test_without_latency_fit_refuses_bad_numbers(name, bad, error):
    _raises(
        error,
        name,
        params.without_latency_fit,
        "GTX680",
        **{**_FIT, name: bad},
    )


@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2]])
def test_without_latency_fit_refuses_sources_that_are_not_a_mapping(bad):
    _raises(
        InputTypeError,
        "sources",
        params.without_latency_fit,
        "GTX680",
        **{**_FIT, "sources": bad},
    )


def test_without_latency_fit_keeps_valid_results():
    p = params.without_latency_fit("GTX680", **_FIT)
    assert (p.mem_lat, p.mem_thru, p.a, p.c) == (301.0, 0.0752, 301.0, float("inf"))
    assert params.without_latency_fit("GTX680", **{**_FIT, "mem_thru": np.inf})


@pytest.mark.parametrize(
    "fn",
    [
        profile.detect,
        profile.read,
        profile.read_nvprof_csv,
        profile.read_ncu_csv,
        profile.read_manual,
    ],
)
@pytest.mark.parametrize("bad", [None, 8, 1.5, [1, 2], {}])
def test_profile_readers_refuse_what_is_not_a_path(fn, bad):
    _raises(InputTypeError, "path", fn, bad)


@pytest.mark.parametrize(
    "fn", [profile.read_nvprof_csv, profile.read_ncu_csv, profile.read_manual]
)
def test_profile_readers_name_a_missing_file(fn, tmp_path):
    with pytest.raises(profile.ProfileError, match="no such file"):
        fn(tmp_path / "absent.csv")


@pytest.mark.parametrize(
    "fn", [profile.read_nvprof_csv, profile.read_ncu_csv, profile.read_manual]
)
@pytest.mark.parametrize("bad", [8, {}, [1, 2]])
def test_profile_readers_refuse_a_gpu_that_is_not_text(fn, bad, tmp_path, launches):
    p = tmp_path / "k.csv"
    p.write_text(profile.to_ncu_csv(launches), encoding="utf-8")
    _raises(
        InputTypeError,
        "gpu",
        fn,
        NVPROF if fn is profile.read_nvprof_csv else p,
        gpu=bad,
    )


def test_profile_read_refuses_a_format_that_is_not_text():
    _raises(InputTypeError, "fmt", profile.read, NVPROF, fmt=[1, 2])


@pytest.mark.parametrize("bad", [None, 8, [1, 2], b"x"])
def test_from_text_refuses_text_and_name_that_are_not_strings(bad):
    _raises(InputTypeError, "text", profile.from_text, bad)
    _raises(InputTypeError, "name", profile.from_text, NVPROF.read_text(), name=bad)


@pytest.mark.parametrize("bad", ["", ".", ".."])
def test_from_text_refuses_a_name_that_is_no_file_name(bad):
    _raises(OutOfRangeError, "name", profile.from_text, NVPROF.read_text(), name=bad)


@pytest.mark.parametrize("fn", [profile.table, profile.to_ncu_csv, profile.to_yaml])
@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2], {"a": 1}])
def test_profile_writers_refuse_what_is_not_a_list_of_profiles(fn, bad):
    _raises(InputTypeError, "profiles", fn, bad)


@pytest.mark.parametrize("fn", [profile.table, profile.to_ncu_csv, profile.to_yaml])
def test_profile_writers_check_the_list_with_check_items(fn, launches):
    # review finding: _profile_list is validate.check_items, not an inline near-copy
    _raises(InputTypeError, "profiles", fn, launches[0])  # one record, not a list
    _raises(InputTypeError, "profiles[1]", fn, [launches[0], "abc"])
    _raises(InputTypeError, "profiles", fn, np.array([launches, launches]))  # 2-d


def test_profile_writers_keep_valid_results(launches):
    assert len(profile.table(iter(launches))) == 2
    assert profile.to_ncu_csv(tuple(launches)) == profile.to_ncu_csv(list(launches))
    _raises(InputTypeError, "cc", profile.to_ncu_csv, launches, cc=3.0)


@pytest.mark.parametrize("bad", [None, 8, "abc", [1, 2]])
def test_compare_printed_refuses_what_is_not_a_mapping(bad):
    _raises(InputTypeError, "computed", published.compare_printed, bad)


def test_compare_printed_of_nothing_is_an_empty_table():
    assert len(published.compare_printed({})) == 0


# ---------------------------------------------------------------- ground


@pytest.mark.parametrize("fn", [data.read_text, data.read_rows, data.read_frame])
@pytest.mark.parametrize("bad", [None, 8, 1.5, [1, 2], {}])
def test_data_readers_refuse_a_relpath_that_is_not_text(fn, bad):
    _raises(InputTypeError, "relpath", fn, bad)


def test_read_rows_keeps_its_cache():
    assert data.read_rows("gpus.csv") is data.read_rows("gpus.csv")
    assert data.read_rows.cache_info().hits >= 1
    data.read_rows.cache_clear()


@pytest.mark.parametrize("bad", [None, 8, [1, 2], {}])
def test_schemas_refuse_arguments_that_are_not_text(bad):
    _raises(InputTypeError, "relpath", schemas.schema_of, bad)
    _raises(InputTypeError, "relpath", schemas.validate, bad, "a,b\n")
    _raises(InputTypeError, "text_", schemas.validate, "gpus.csv", bad)


def test_long_table_checks_its_flags():
    _raises(InputTypeError, "quantity", schemas.long_table, ["gpu"], quantity=None)
    _raises(InputTypeError, "note", schemas.long_table, ["gpu"], note=1)
    _raises(InputTypeError, "text_values", schemas.long_table, ["gpu"], text_values=0)


_FRAME = pd.DataFrame({"gpu": ["G80", "Kepler"], "mem_lat": [444.0, 301.0]})


@pytest.mark.parametrize("bad", [8, 1.5, "mem_lat", {"mem_lat": 1}])
def test_formatted_refuses_columns_that_are_not_a_list(bad):
    _raises(InputTypeError, "columns", tables.formatted, _FRAME, "{:.1f}", bad)


@pytest.mark.parametrize("bad", [["nope"], [1, 2], [[1]]])
def test_formatted_refuses_unknown_columns(bad):
    _raises(UnknownNameError, "columns", tables.formatted, _FRAME, "{:.1f}", bad)


def test_formatted_names_fmt_that_does_not_fit():
    _raises(UnknownNameError, "fmt", tables.formatted, _FRAME, {}, ["mem_lat"])
    _raises(OutOfRangeError, "fmt", tables.formatted, _FRAME, "{:.1f}")
    _raises(
        InputTypeError, "na", tables.formatted, _FRAME, "{:.1f}", ["mem_lat"], na=None
    )
    shown = tables.formatted(_FRAME, "{:.1f}", ["mem_lat"]).frame
    assert list(shown["mem_lat"]) == ["444.0", "301.0"]


@pytest.mark.parametrize("bad", [None, 8, 1.5, "SP"])
def test_check_choice_refuses_allowed_that_is_not_a_collection(bad):
    _raises(InputTypeError, "allowed", validate.check_choice, "precision", "SP", bad)


@pytest.mark.parametrize(
    "bad, error",
    [
        ("abc", InputTypeError),
        ([1, 2], InputTypeError),
        ({}, InputTypeError),
        (10**400, OutOfRangeError),
    ],
)
def test_check_numbers_refuses_a_bad_lower_bound(bad, error):
    _raises(error, "lo", validate.check_numbers, "values", np.ones(3), lo=bad)
