"""Issue 38, round 3: hostile arguments to gpumodels.comparisons that tools/fuzz_api.py
reached once the callables had a baseline call; each is refused with the package's own
error, naming the argument."""

from __future__ import annotations

from pathlib import Path
import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from gpumodels.comparisons import bench, modern, silicon
from gpumodels.comparisons.prior import hong_kim_2009, reference
from gpumodels.facts.param_sets import params
from gpumodels.ground.errors import (
    DataError,
    InputTypeError,
    OutOfRangeError,
    UnknownNameError,
)

CANNED = (Path(__file__).parent / "fixtures" / "volkov_bench_canned.txt").read_text()


@pytest.fixture(scope="module")
def launches():
    return silicon.measured_launches(["calculate_temp"], ["GTX-680"])[:2]


@pytest.fixture(scope="module")
def frame(launches):
    return silicon.predict(launches, models=("roofline", "volkov_basic"))


# ---------------------------------------------------------------- bench


@pytest.mark.parametrize("output", [{}, 8, 1.5, [1, 2]])
def test_compile_command_refuses_an_output_that_is_no_path(output):
    with pytest.raises(InputTypeError, match="output"):
        bench.compile_command("volkov_bench.cu", output=output)


@pytest.mark.parametrize("warps", [None, 8, 1.5, "abc", {}])
def test_plan_refuses_warps_per_sm_that_is_no_list(warps):
    with pytest.raises(InputTypeError, match="warps_per_sm"):
        bench.plan("9.0", warps)


@pytest.mark.parametrize("rows", [None, {}, 8, "abc", [1, 2]])
def test_summarize_refuses_rows_that_are_no_warp_table(rows):
    meta, _ = bench.parse_output(CANNED)
    with pytest.raises((InputTypeError, DataError), match="rows"):
        bench.summarize(meta, rows)


@pytest.mark.parametrize("name", ["date", "driver", "measured_by"])
@pytest.mark.parametrize("value", [-1, math.nan, math.inf])
def test_summarize_refuses_labels_that_are_no_strings(name, value):
    meta, rows = bench.parse_output(CANNED)
    with pytest.raises(InputTypeError, match=name):
        bench.summarize(meta, rows, **{name: value})


@pytest.mark.parametrize("rows", [None, 8, "abc", {}, [1, 2]])
def test_write_rows_refuses_rows_that_are_no_list_of_dicts(rows, tmp_path):
    with pytest.raises(InputTypeError, match="rows"):
        bench.write_rows(rows, tmp_path / "x.csv")


@pytest.mark.parametrize("path", [None, {}, 0, 1, -1, True, 1.5])
def test_write_rows_refuses_a_path_that_is_no_path(path):
    # an integer would be taken by open() as a file descriptor (0: stdin, 1: stdout)
    meta, rows = bench.parse_output(CANNED)
    row = bench.summarize(meta, rows, date="2026-01-01")
    with pytest.raises(InputTypeError, match="path"):
        bench.write_rows([row], path)


def test_write_rows_still_writes(tmp_path):
    meta, rows = bench.parse_output(CANNED)
    row = bench.summarize(meta, rows, date="2026-01-01")
    bench.write_rows([row], tmp_path / "rows.csv")
    text = (tmp_path / "rows.csv").read_text()
    assert text.startswith(",".join(bench.FIELDS)) and "Test GPU" in text


# ---------------------------------------------------------------- modern


@pytest.fixture(scope="module")
def model_rows():
    return modern.model_table(names=("H100",), models=("volkov_basic",))


@pytest.mark.parametrize("rows", [None, 8, "abc", [1, 2], [{"gpu": "H100"}]])
def test_model_pivot_refuses_rows_that_are_no_model_table(rows):
    with pytest.raises((InputTypeError, DataError), match="rows"):
        modern.model_pivot(rows, "alpha0")


@pytest.mark.parametrize("digits", [None, -1, 1.5, True, "abc", 10**6])
def test_model_pivot_refuses_bad_digits(model_rows, digits):
    with pytest.raises(ValueError, match="digits"):
        modern.model_pivot(model_rows, "alpha0", digits=digits)


def test_model_pivot_digits_bound_is_documented(model_rows):
    t = modern.model_pivot(model_rows, "alpha0", digits=modern.MAX_DIGITS)
    assert t.shape == (1, 1)


# ---------------------------------------------------------------- prior


def test_case_rule_comparison_takes_a_scalar_n():
    t = hong_kim_2009.case_rule_comparison(params("Kepler"), 8, 8.0)
    assert len(t) == 1
    grid = hong_kim_2009.case_rule_comparison(params("Kepler"), [8.0], 8.0)
    pd.testing.assert_frame_equal(t, grid)


def test_case_rule_comparison_refuses_alpha_inf_and_lets_no_numpy_warning_escape():
    # at alpha = inf the printed rule's IPC is n/0: the comparison table refuses it
    msg = r"alpha must be in \[0.0, inf\), got inf"
    with pytest.raises(OutOfRangeError, match=msg):
        hong_kim_2009.case_rule_comparison(params("Kepler"), [4.0, 8.0], math.inf)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        t = hong_kim_2009.case_rule_comparison(params("Kepler"), [4.0, 64.0], 1e6)
    assert len(t) == 2 and t["ratio"].notna().all()


@pytest.mark.parametrize("alphas", [None, 8, math.nan, "abc", [-1], [10**400]])
def test_reference_rows_refuses_bad_alphas(alphas):
    p = params("Kepler").replace(max_warps_per_sm=4)
    with pytest.raises(ValueError, match="alphas"):
        reference.rows(p, alphas)


# ---------------------------------------------------------------- silicon


@pytest.mark.parametrize("cc", [{}, [1, 2], 3.5, None])
def test_fp64_per_clock_refuses_a_cc_that_is_no_string(cc):
    with pytest.raises(InputTypeError, match="cc"):
        silicon.fp64_per_clock(cc)


@pytest.mark.parametrize("models", [8, 1.5, True, {}, ()])
def test_predict_refuses_bad_models(launches, models):
    with pytest.raises(ValueError, match="models"):
        silicon.predict(launches, models=models)


def test_predict_files_refuses_no_paths():
    with pytest.raises(ValueError, match="paths"):
        silicon.predict_files([])


def test_what_if_names_p(launches):
    with pytest.raises(ValueError, match=r"\bp must"):
        silicon.what_if({})


@pytest.mark.parametrize(
    "fn",
    [
        silicon.ratios,
        silicon.utilisation,
        silicon.ratio_by_duration,
        silicon.score,
        silicon.mape_like_peers,
    ],
)
@pytest.mark.parametrize("bad", [None, {}, 8, "abc", [1, 2], pd.DataFrame({"x": [1]})])
def test_frame_functions_refuse_a_frame_that_is_no_prediction(fn, bad):
    with pytest.raises((InputTypeError, DataError), match="frame"):
        fn(bad)


@pytest.mark.parametrize("by", [None, 8, "abc", [1, 2], {}, ("nope",)])
def test_score_refuses_bad_by(frame, by):
    with pytest.raises(ValueError, match="by"):
        silicon.score(frame, by=by)


@pytest.mark.parametrize("gpus_", [None, 8, 1.5, "GTX-680"])
def test_mape_like_peers_refuses_bad_gpus(frame, gpus_):
    with pytest.raises(InputTypeError, match="gpus_"):
        silicon.mape_like_peers(frame, gpus_)


def test_mape_like_peers_refuses_an_unknown_gpu(frame):
    with pytest.raises(UnknownNameError):
        silicon.mape_like_peers(frame, ["no such GPU"])


@pytest.mark.parametrize("values", [None, 8, math.inf, "abc", {}])
def test_hong_kim_issue_cycles_refuses_bad_values(launches, values):
    with pytest.raises(ValueError, match="values"):
        silicon.hong_kim_issue_cycles(launches, values)


@pytest.mark.parametrize("bad", [{}, 8, "abc", [1, 2]])
def test_hong_kim_issue_cycles_refuses_a_bad_frame(launches, bad):
    with pytest.raises((InputTypeError, DataError), match="frame"):
        silicon.hong_kim_issue_cycles(launches, frame=bad)


def test_frame_functions_still_work(frame):
    assert silicon.score(frame)["launches"].sum() == len(frame)
    assert len(silicon.ratios(frame)) == len(frame)
    assert np.isfinite(silicon.utilisation(frame)["issue"]).all()


# ------------------------------------------- review findings: the shared checkers
# Lists go through validate.check_items (InputTypeError naming the argument or the
# bad item ``name[i]``); missing keys or columns through validate.check_keys
# (DataError naming the argument and the keys).


def _names(name: str) -> str:
    return rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])"


@pytest.mark.parametrize("warps", [b"ab", np.ones((2, 2), dtype=int), {8: 8}])
def test_plan_uses_check_items(warps):
    with pytest.raises(InputTypeError, match=_names("warps_per_sm")):
        bench.plan("9.0", warps)


def test_plan_names_the_bad_target():
    with pytest.raises(OutOfRangeError, match=_names("warps_per_sm[1]")):
        bench.plan("9.0", [8, 0])
    with pytest.raises(OutOfRangeError, match=r"warps_per_sm\[1\] \(6\) must be a mul"):
        bench.plan("9.0", [8, 6], 128)
    p = bench.plan("3.0", np.array([64, 56]), 128, registers_per_thread=16)
    assert p == bench.plan("3.0", (64, 56), 128, registers_per_thread=16)


def test_write_rows_names_the_bad_row(tmp_path):
    meta, rows = bench.parse_output(CANNED)
    row = bench.summarize(meta, rows, date="2026-01-01")
    with pytest.raises(InputTypeError, match=_names("rows[1]")):
        bench.write_rows([row, 8], tmp_path / "x.csv")
    bench.write_rows((r for r in [row]), tmp_path / "g.csv")
    assert (tmp_path / "g.csv").read_text().count("\n") == 2


def test_summarize_missing_keys_are_a_data_error():
    meta, rows = bench.parse_output(CANNED)
    short = {k: v for k, v in rows.items() if k != "start"}
    with pytest.raises(DataError, match=_names("rows")) as e:
        bench.summarize(meta, short)
    assert "key(s) start " in str(e.value)
    with pytest.raises(DataError, match=_names("meta")) as e:
        bench.summarize({k: v for k, v in meta.items() if k != "clock_khz"}, rows)
    assert "key(s) clock_khz " in str(e.value)


def test_model_pivot_missing_keys_are_a_data_error(model_rows):
    bad = [dict(model_rows[0]), {k: v for k, v in model_rows[0].items() if k != "gpu"}]
    with pytest.raises(DataError, match=_names("rows[1]")) as e:
        modern.model_pivot(bad, "alpha0")
    assert "key(s) gpu " in str(e.value)
    with pytest.raises(InputTypeError, match=_names("rows[0]")):
        modern.model_pivot([8], "alpha0")
    with pytest.raises(InputTypeError, match=_names("rows")):
        modern.model_pivot({"note": ""}, "alpha0")
    with pytest.raises(UnknownNameError, match=_names("quantity")):
        modern.model_pivot(model_rows, "nope")
    assert modern.model_pivot(iter(model_rows), "alpha0").equals(
        modern.model_pivot(model_rows, "alpha0")
    )


@pytest.mark.parametrize("models", [[8], ("roofline", None)])
def test_predict_models_items_must_be_keys(launches, models):
    with pytest.raises(InputTypeError, match=r"models\[\d\]"):
        silicon.predict(launches, models=models)


def test_predict_refuses_an_empty_models_list(launches):
    with pytest.raises(OutOfRangeError, match=_names("models")):
        silicon.predict(launches, models=[])


@pytest.mark.parametrize("values", [(), [1.0, -1.0], [None, True], np.ones((1, 2))])
def test_hong_kim_issue_cycles_checks_values_first(launches, values):
    with pytest.raises(ValueError, match=r"values(\[\d\])?") as e:
        silicon.hong_kim_issue_cycles(launches, values)
    assert re.search(_names("values"), str(e.value)) or "values[" in str(e.value)


def test_hong_kim_issue_cycles_names_the_bad_value(launches):
    with pytest.raises(OutOfRangeError, match=_names("values[1]")):
        silicon.hong_kim_issue_cycles(launches, [1.0, -1.0])


def test_frame_functions_missing_columns_are_a_data_error(frame):
    with pytest.raises(DataError, match=_names("frame")) as e:
        silicon.ratios(frame.drop(columns="measured_s"))
    assert "key(s) measured_s " in str(e.value)
    with pytest.raises(InputTypeError, match=_names("frame")):
        silicon.ratios(dict(frame))
