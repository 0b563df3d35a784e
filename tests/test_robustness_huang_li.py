"""Hostile inputs to the Huang & Li modules (issue 38, round 2): each is refused with
the package's own error, whose message names the argument or field."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from gpumodels.engines.refsim import dram
from gpumodels.ground.errors import DataError, InputTypeError, OutsideDomainError
from gpumodels.papers.huang_li import (
    analysis,
    book,
    cache,
    evaluation,
    fig2,
    model,
    queueing,
)


@pytest.fixture(scope="module")
def k80():
    return analysis.k80()


@pytest.fixture(scope="module")
def sample(k80):
    from gpumodels.engines.refsim import kernels

    return model.profile(kernels.kernel("vecAdd"), machine=k80)


@pytest.fixture(scope="module")
def prediction(sample):
    return model.predict(sample, {"a": "T", "b": "T"}, variant="sim2012")


# ---- records: every numeric field checked, the field named


@pytest.mark.parametrize(
    "field, value",
    [
        ("clock_ghz", -1.0),
        ("clock_ghz", math.nan),
        ("lat_miss", math.inf),
        ("sm_count", 0),
        ("controllers", 2.5),
        ("hit_lat", -1),
        ("mlp", 0.0),
        ("name", None),
        ("tex", "texture"),
        ("sources", -1),
    ],
)
def test_machine_fields(k80, field, value):
    with pytest.raises(ValueError, match=rf"Machine\.{field}"):
        dataclasses.replace(k80, **{field: value})


@pytest.mark.parametrize(
    "field, value",
    [
        ("n_warps", 0),
        ("cpi", math.nan),
        ("dram_requests", -1),
        ("executed_per_warp", math.inf),
        ("replays", {"1_global": -1.0}),
        ("dram_lat", {"mapped": math.nan}),
        ("bank_stats", None),
        ("kernel", 3),
    ],
)
def test_analysis_fields(sample, field, value):
    with pytest.raises(ValueError, match=rf"Analysis\.{field}"):
        dataclasses.replace(sample.analysis, **{field: value})


def test_analysis_dram_lat_nan_only_when_saturated(sample):
    an = dataclasses.replace(
        sample.analysis,
        dram_lat={**sample.analysis.dram_lat, "mapped": math.nan},
        saturated={**sample.analysis.saturated, "mapped": True},
    )
    assert math.isnan(an.dram_lat["mapped"])


@pytest.mark.parametrize(
    "field, value",
    [
        ("t", -1.0),
        ("t_mem", math.nan),
        ("amat", math.inf),
        ("miss_ratio", 1.5),
        ("clock_ghz", 0.0),
        ("variant", "nope"),
        ("saturated", "no"),
        ("analysis", None),
    ],
)
def test_prediction_fields(prediction, field, value):
    with pytest.raises(ValueError, match=rf"Prediction\.{field}"):
        dataclasses.replace(prediction, **{field: value})


def test_prediction_nan_only_when_saturated(prediction):
    p = dataclasses.replace(prediction, t=math.nan, saturated=True)
    assert math.isnan(p.t)


@pytest.mark.parametrize(
    "field, value",
    [("counters", {"w_serial": -1.0}), ("kernel", None), ("machine", 1), ("source", 2)],
)
def test_profile_fields(sample, field, value):
    with pytest.raises(ValueError, match=rf"Profile\.{field}"):
        dataclasses.replace(sample, **{field: value})


def test_overlap_model_fields():
    good = {
        "coef": np.zeros(len(model.FEATURES) + 1),
        "r2": 0.5,
        "lobo_error": 0.1,
        "condition": 10.0,
        "rank": 12,
        "zero_columns": (),
        "n": 40,
    }
    model.OverlapModel(**good)
    model.OverlapModel(**{**good, "condition": math.inf})  # singular: documented
    for field, value in [
        ("coef", np.full(len(model.FEATURES) + 1, np.nan)),
        ("coef", -1),
        ("r2", -1.0),
        ("lobo_error", -1.0),
        ("condition", math.nan),
        ("rank", -1),
        ("zero_columns", ("nope",)),
        ("n", 1),
    ]:
        with pytest.raises(ValueError, match=rf"OverlapModel\.{field}"):
            model.OverlapModel(**{**good, field: value})


def test_overlap_fit_and_ratio_refuse_text():
    with pytest.raises(InputTypeError, match="x must"):
        model.OverlapModel.fit("abc", [1.0])
    fit = model.OverlapModel(
        np.zeros(len(model.FEATURES) + 1), 0.5, 0.1, 10.0, 12, (), 40
    )
    with pytest.raises(InputTypeError, match="features"):
        fit.ratio("abc")


def test_bank_stats_fields():
    st = queueing.bank_stats([0, 0, 1, 1], [0.0, 2.0, 0.0, 3.0], [1.0, 1.0, 1.0, 1.0])
    for field, value in [
        ("tau_a", np.array([-1.0, 1.0])),
        ("n", np.array([1, 2])),
        ("sigma_s", np.array([np.nan, 0.0])),
        ("latency", -1),
        ("bank", np.array([0.5, 1.0])),
    ]:
        with pytest.raises(ValueError, match=rf"BankStats\.{field}"):
            dataclasses.replace(st, **{field: value})
    with pytest.raises(InputTypeError, match="stats"):
        queueing.dram_latency(None)


def test_cache_fig2_evaluation_records():
    with pytest.raises(InputTypeError, match=r"Cache\.name"):
        cache.Cache(None, 4, 128, 4)
    with pytest.raises(InputTypeError, match=r"Instruction\.dest"):
        fig2.Instruction("MOV R1, R2", "MOV", -1, frozenset(), frozenset())
    with pytest.raises(ValueError, match=r"AddressingCount\.count"):
        fig2.AddressingCount("a", "G", "R3", -1, (), False)
    with pytest.raises(InputTypeError, match=r"Evaluation\.table"):
        evaluation.Evaluation(table=-1)
    with pytest.raises(InputTypeError, match=r"Evaluation\.overlap"):
        evaluation.Evaluation(
            table=__import__("pandas").DataFrame(columns=["variant", "set", "error"]),
            overlap=-1,
        )


# ---- functions: arguments checked at the boundary


def test_analysis_functions(k80):
    with pytest.raises(InputTypeError, match="machine"):
        analysis.itilp(None, 8)
    with pytest.raises(InputTypeError, match="machine"):
        analysis.cycles_per_instruction("K80", 8)
    with pytest.raises(InputTypeError, match="tr"):
        analysis.analyze(None, k80)


def test_model_functions(sample, k80):
    from gpumodels.engines.refsim import kernels

    k = kernels.kernel("vecAdd")
    with pytest.raises(InputTypeError, match="kernel"):
        model.profile("vecAdd")
    with pytest.raises(InputTypeError, match="machine"):
        model.profile(k, machine="K80")
    with pytest.raises(InputTypeError, match="moves"):
        model.profile(k, moves="abc")
    with pytest.raises(InputTypeError, match="counters"):
        model.profile(k, counters="abc")
    with pytest.raises(ValueError, match="amat_value"):
        model.t_mem(1.0, -1)
    with pytest.raises(ValueError, match="t_overlap_value"):
        model.t_total(1.0, 1.0, math.nan)
    with pytest.raises(ValueError, match="itmlp_value"):
        model.effective_requests(1.0, 1, 1, 0)
    with pytest.raises(InputTypeError, match="sample"):
        model.predict(None)
    with pytest.raises(InputTypeError, match="an"):
        model.evaluate(None, inst_per_warp=1.0)
    with pytest.raises(InputTypeError, match="target"):
        model.instructions_per_warp(sample, None)
    # the same count from the profile's parts (evaluation's path, without the trace)
    target = analysis.analyze(k.trace({"b": "T"}), k80)
    for kind in ("issued", "executed"):
        assert model.instructions_from_counters(
            sample.counters, sample.analysis, target, kind
        ) == model.instructions_per_warp(sample, target, kind)
    with pytest.raises(DataError, match="inst_issued"):
        model.instructions_from_counters({"inst_executed": 1.0}, target, target)
    with pytest.raises(ValueError, match=r"counters\['inst_issued'\]"):
        model.instructions_from_counters(
            {"inst_executed": 1.0, "inst_issued": -1.0}, target, target
        )
    with pytest.raises(InputTypeError, match="sample"):
        model.instructions_from_counters(sample.counters, sample, target)


def test_queueing_functions():
    for f, kw in [
        (queueing.kingman, {"c_a": 1e300, "c_s": 1.0, "rho": 0.5, "tau_s": 1.0}),
        (queueing.pollaczek_khinchine, {"rho": 0.5, "tau_s": 1.0, "c_s": 1e300}),
        (queueing.mm1, {"rho": 0.999999, "tau_s": 1e308}),
    ]:
        with pytest.raises(OutsideDomainError, match="not a finite number"):
            f(**kw)
    with pytest.raises(OutsideDomainError, match="rho must be below 1"):
        queueing.kingman(1.0, 1.0, 1.5, 1.0)  # no steady state
    with pytest.raises(ValueError, match="rate"):
        queueing.exponential_cv(1e300)
    with pytest.raises(ValueError, match="seed"):
        queueing.simulate_gg1(1.0, 1.0, 0.5, n=1000, seed=-1)
    with pytest.raises(ValueError, match="c_a"):
        queueing.simulate_gg1(1e300, 1.0, 0.5, n=1000)


def test_book_functions():
    with pytest.raises(InputTypeError, match="machine"):
        book.vecadd_walkthrough("K80")
    with pytest.raises(InputTypeError, match="c_as"):
        book.kingman_grid(c_as=None)
    with pytest.raises(ValueError, match=r"rhos\[1\]"):
        book.kingman_grid(rhos=[0.5, 1.0], n=100)
    with pytest.raises(ValueError, match="c_s"):
        book.kingman_grid(c_s=1e300, n=100)
    with pytest.raises(ValueError, match="seed"):
        book.kingman_grid(seed=None, n=100)
    with pytest.raises(ValueError, match="lat"):
        book.max_service_cv("wrong kind")
    with pytest.raises(ValueError, match="lat"):
        book.max_service_cv([1.0, 2.0])
    with pytest.raises(ValueError, match="steps"):
        book.max_service_cv(steps=-1)
    for f in (book.algorithm1, book.algorithm1_check):
        with pytest.raises(InputTypeError, match="bits"):
            f(bits=None)
        with pytest.raises(ValueError, match="bits"):
            f(bits=[])
        with pytest.raises(ValueError, match="noise"):
            f(noise=-1)
        with pytest.raises(ValueError, match="seed"):
            f(seed=-1)
        with pytest.raises(InputTypeError, match="latencies"):
            f(latencies=None) if f is book.algorithm1_check else f(latencies=3)
        with pytest.raises(InputTypeError, match="mapping"):
            f(mapping="k80")
    with pytest.raises(InputTypeError, match="preset"):
        book.algorithm1(preset=None)


def test_evaluation_functions():
    with pytest.raises(InputTypeError, match="values"):
        evaluation.bootstrap_ci("abc")
    with pytest.raises(ValueError, match="level"):
        evaluation.bootstrap_ci([1.0, 2.0], level=math.nan)
    with pytest.raises(ValueError, match="seed"):
        evaluation.bootstrap_ci([1.0, 2.0], seed=-1)
    with pytest.raises(InputTypeError, match="ev"):
        evaluation.gains(ev="x")
    with pytest.raises(ValueError, match="n_boot"):
        evaluation.gains(n_boot=-1)
    with pytest.raises(InputTypeError, match="ev"):
        evaluation.summary(ev=1)
    with pytest.raises(ValueError, match="set_"):
        evaluation.summary(set_=None)
    with pytest.raises(InputTypeError, match="ev"):
        evaluation.ranking(ev=1)
    with pytest.raises(ValueError, match="min_placements"):
        evaluation.event_selection(min_placements="3")
    with pytest.raises(ValueError, match="threshold"):
        evaluation.event_selection(threshold="0.9")
    with pytest.raises(ValueError, match="amat_form"):
        evaluation.run(amat_form=[1, 2])
    with pytest.raises(InputTypeError, match="benchmark"):
        evaluation.sample_profile([1])


def test_fig2_functions():
    with pytest.raises(InputTypeError, match="text"):
        fig2.parse(None)
    with pytest.raises(InputTypeError, match="index_register"):
        fig2.count_listing([], None)


def test_valid_inputs_unchanged():
    assert book.max_service_cv() == 0.5506431109478956
    assert queueing.exponential_cv(4.0) == 1.0
    amap = dram.address_map("k80_printed_col_low")
    assert isinstance(book.algorithm1(mapping=amap)[1], dram.DetectedMapping)
