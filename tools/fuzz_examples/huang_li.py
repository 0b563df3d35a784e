"""Baselines for gpumodels.papers.huang_li (analysis, cache, evaluation, events, fig2,
model, queueing, book, verdicts) (see tools/fuzz_examples/__init__.py)."""

from __future__ import annotations

import dataclasses
from functools import cache


def _fields(obj, drop=()):
    """A dataclass record's fields by name (shallow: nested records stay records)."""
    return {
        f.name: getattr(obj, f.name)
        for f in dataclasses.fields(obj)
        if f.init and f.name not in drop
    }


@cache
def _combinations():
    """The first rows of the cached exhaustive search of the readings."""
    from gpumodels.papers.huang_li import evaluation

    return evaluation.combination_table().head(40)


# ---------------------------------------------------------------- analysis, model


@cache
def _k80():
    from gpumodels.papers.huang_li import analysis

    return analysis.k80()


@cache
def _kernel():
    """A small vecAdd (1024 elements, 8 blocks of 128 threads)."""
    from gpumodels.engines.refsim import kernels

    return kernels.vecadd(n=1024, tpb=128)


@cache
def _trace():
    return _kernel().trace()


@cache
def _traffic():
    from gpumodels.papers.huang_li import analysis

    return analysis.traffic(_trace(), _k80())


@cache
def _analysis():
    from gpumodels.papers.huang_li import analysis

    return analysis.analyze(_trace(), _k80())


@cache
def _profile():
    from gpumodels.papers.huang_li import model

    return model.profile(_kernel(), machine=_k80())


@cache
def _prediction():
    from gpumodels.papers.huang_li import model

    return model.predict(_profile(), {"a": "T"}, variant="sim2012")


@cache
def _overlap():
    """Eq. 11 fitted on the features of a few placements of the small vecAdd."""
    import numpy as np

    from gpumodels.papers.huang_li import analysis, model

    x = [
        model.overlap_features(analysis.analyze(_kernel().trace(m), _k80()))
        for m in ({}, {"a": "T"}, {"b": "T"}, {"a": "C"}, {"a": "T", "b": "T"})
    ]
    y = np.array([0.2, 0.3, 0.25, 0.4, 0.35])
    return model.OverlapModel.fit(np.array(x), y)


# ---------------------------------------------------------------- queueing


def _rng():
    import numpy as np

    return np.random.default_rng(7)


@cache
def _requests():
    """(bank, arrival, service) of 64 requests to 4 banks, deterministic."""
    import numpy as np

    rng = np.random.default_rng(3)
    bank = np.arange(64) % 4
    arrival = np.cumsum(rng.exponential(40.0, 64))
    service = np.where(np.arange(64) % 3 == 0, 20.0, 30.0)
    return bank, arrival, service


@cache
def _bank_stats():
    from gpumodels.papers.huang_li import queueing

    return queueing.bank_stats(*_requests())


@cache
def _dram_log():
    """A DRAM log (bank, arrival_ns, service_ns, wait_ns) of 4 FCFS bank queues."""
    import numpy as np
    import pandas as pd

    from gpumodels.engines.refsim.dram import lindley

    bank, arrival, service = _requests()
    wait = np.zeros(arrival.size)
    for b in range(4):
        sel = bank == b
        gaps = np.diff(arrival[sel], prepend=arrival[sel][0])
        wait[sel] = lindley(gaps, service[sel])
    return pd.DataFrame(
        {"bank": bank, "arrival_ns": arrival, "service_ns": service, "wait_ns": wait}
    )


# ---------------------------------------------------------------- evaluation


@cache
def _reading():
    from gpumodels.papers.huang_li import readings

    return readings.reading("amat_form")


@cache
def _ev():
    """The default evaluation (untimed: about 30 s the first time in a worker)."""
    from gpumodels.papers.huang_li import evaluation

    return evaluation.run()


def _eval_test():
    from gpumodels.engines.refsim.placements import tests

    return tests("eval")[0]


@cache
def _evaluation_table():
    import pandas as pd

    return pd.DataFrame(
        {
            "variant": ["full", "full", "sim2012", "sim2012"],
            "set": ["eval", "train", "eval", "train"],
            "test": ["bfs_1", "fft_1", "bfs_1", "fft_1"],
            "error": [0.1, 0.2, 0.3, 0.4],
        }
    )


def _event_vectors():
    """Time vector and two counters of bfs's placements (simulated reference)."""
    from gpumodels.papers.huang_li import evaluation

    ref = evaluation.reference()
    g = ref[(ref["benchmark"] == "bfs") & ref["set"].isin(["train", "eval"])]
    return (
        g["time_ns"].to_numpy(),
        {
            "inst_issued": g["inst_issued"].to_numpy(dtype=float),
            "dram_reads": g["dram_reads"].to_numpy(dtype=float),
        },
    )


# ---------------------------------------------------------------- fig2


def _fig2_lines():
    from gpumodels.papers.huang_li import fig2

    return [r["text"] for r in fig2.listing("a")]


P = "gpumodels.papers.huang_li."

BASELINES = {
    # analysis
    P + "analysis.Analysis": lambda: _fields(_analysis()),
    P + "analysis.Traffic": lambda: _fields(_traffic()),
    P + "analysis.traffic": lambda: {"tr": _trace(), "machine": _k80()},
    P + "analysis.is_k80_traffic": lambda: {"machine": _k80()},
    P + "analysis.placement_traffic": lambda: {
        "benchmark": "vecAdd",
        "moves": {"a": "T"},
        "machine": _k80(),
    },
    P + "analysis.traffic_by_rule": lambda: {
        "tr": _trace(),
        "machine": _k80(),
        "rules": ("printed", "segments"),
    },
    P + "analysis.Machine": lambda: _fields(_k80()),
    P + "analysis.analyze": lambda: {"tr": _trace(), "machine": _k80()},
    # book: the chapter's grid (its signed errors include negatives), 2000 customers
    # per queue instead of a million (seconds)
    P + "book.kingman_grid": lambda: {"n": 2000},
    # cache
    P + "cache.lru_hits": lambda: {
        "lines": [0, 1, 0, 2, 1, 5, 3, 0],
        "n_sets": 2,
        "assoc": 2,
        "cache_id": [0, 1, 0, 1, 0, 1, 0, 1],
        "n_caches": 2,
    },
    # evaluation
    P + "evaluation.Evaluation": lambda: {
        "table": _evaluation_table(),
        "overlap": {"full": _overlap()},
    },
    P + "evaluation.kingman_vs_log": lambda: {"log": _dram_log(), "min_requests": 8},
    P + "evaluation.eval_errors": lambda: {"ev": _ev()},
    P + "evaluation.evaluation_or_default": lambda: {"ev": _ev()},
    P + "evaluation.summary": lambda: {"ev": _ev()},
    P + "evaluation.headline": lambda: {"ev": _ev()},
    P + "evaluation.ranking": lambda: {"ev": _ev()},
    P + "evaluation.gains": lambda: {"ev": _ev(), "n_boot": 200},
    P + "verdicts.table": lambda: {"ev": _ev(), "n_boot": 200},
    P + "verdicts.train_test": lambda: {"ev": _ev()},
    P + "evaluation.latency_only_score": lambda: {"test": _eval_test()},
    P + "evaluation.reference_time_ns": lambda: {"test": "bfs_1"},
    P + "evaluation.parse_readings": lambda: {"text": "mwp_bytes=l2; clock=base"},
    P + "evaluation.top_combinations": lambda: {
        "criterion": "tau",
        "n": 3,
        "table": _combinations(),
    },
    P + "evaluation.favourable": lambda: {
        "criterion": "error",
        "table": _combinations(),
    },
    # events
    P + "events.cosine_similarity": lambda: {
        "a": _event_vectors()[0],
        "b": _event_vectors()[1]["inst_issued"],
    },
    P + "events.select": lambda: {
        "time_vector": _event_vectors()[0],
        "event_vectors": _event_vectors()[1],
    },
    # fig2
    P + "fig2.AddressingCount": lambda: _fields(_addressing_count()),
    P + "fig2.Instruction": lambda: _fields(_instruction()),
    P + "fig2.addressing_count": lambda: {"panel": "a"},
    P + "fig2.count_listing": lambda: {
        "lines": _fig2_lines(),
        "index_register": "R3",
    },
    P + "fig2.declared_space": lambda: {"panel": "c"},
    P + "fig2.listing": lambda: {"panel": "a"},
    # model
    P + "model.OverlapModel": lambda: _fields(_overlap()),
    P + "model.Prediction": lambda: _fields(_prediction()),
    P + "model.Profile": lambda: _fields(_profile()),
    P + "model.amat": lambda: {
        "dram_lat": 600.0,
        "miss_ratio": 0.5,
        "hit_lat": 120.0,
        "shmem_lat": 24.0,
        "shmem_ratio": 0.25,
    },
    P + "model.evaluate": lambda: {
        "an": _analysis(),
        "variant": "sim2012",
        "inst_per_warp": 20.0,
        "machine": _k80(),
    },
    P + "model.instructions_per_warp": lambda: {
        "sample": _profile(),
        "target": _analysis(),
    },
    P + "model.instructions_from_counters": lambda: {
        "counters": {"inst_executed": 40.0, "inst_issued": 44.0},
        "sample": _analysis(),
        "target": _analysis(),
    },
    P + "model.overlap_features": lambda: {"an": _analysis()},
    P + "model.mwp_load_bytes": lambda: {
        "an": _analysis(),
        "machine": _k80(),
        "reading": "l2",
    },
    P + "model.predict": lambda: {
        "sample": _profile(),
        "moves": {"a": "T"},
        "variant": "sim2012",
    },
    # queueing
    P + "queueing.BankStats": lambda: _fields(_bank_stats()),
    # verdicts
    P + "verdicts.verdict": lambda: {
        "low": 1.0,
        "high": 2.0,
        "rule": ">",
        "value": 0.0,
        "tolerance": 0.5,
    },
    P + "evaluation.paired_bootstrap": lambda: {
        "values": [[1.0, 2.0], [3.0, 5.0], [4.0, 4.0], [6.0, 1.0]],
        "groups": ["a", "a", "b", "c"],
        "n_boot": 200,
        "seed": 1,
        "level": 0.9,
    },
    P + "verdicts.leave_one_out_tau": lambda: {
        "reference": [1.0, 2.0, 3.0, 4.0, 5.0],
        "scores": [2.0, 1.0, 3.0, 5.0, 4.0],
    },
    P + "verdicts.arrival_cv": lambda: {"logs": {"md": _dram_log()}, "min_requests": 8},
    # readings
    P + "readings.Reading": lambda: _fields(_reading()),
    P + "readings.reading": lambda: {"name": "mwp_bytes"},
    P + "queueing.bank_latency": lambda: {"stats": _bank_stats()},
    P + "queueing.bank_stats": lambda: dict(
        zip(("bank", "arrival", "service"), _requests())
    ),
    P + "queueing.dram_latency": lambda: {"stats": _bank_stats()},
    P + "queueing.gamma_times": lambda: {
        "mean": 10.0,
        "cv": 0.5,
        "size": 64,
        "rng": _rng(),
    },
    P + "queueing.moments_cv": lambda: {"mean": 2.0, "second_moment": 5.0},
    P + "queueing.two_moment_times": lambda: {
        "mean": 10.0,
        "cv": 1.5,
        "size": 64,
        "rng": _rng(),
    },
}


@cache
def _addressing_count():
    from gpumodels.papers.huang_li import fig2

    return fig2.addressing_count("a")


@cache
def _instruction():
    from gpumodels.papers.huang_li import fig2

    return fig2.parse("IMAD.HI.X R7, R3, R5, c[0x0][0x24]")


def _warm_analysis():
    from gpumodels.engines.refsim import kernels
    from gpumodels.papers.huang_li import analysis

    analysis.analyze(kernels.kernel("triad").trace({"B": "T"}))  # lines, caches


def _warm_evaluation():
    # compute (or load from the disk cache) the evaluation's fits and the ranking's
    # latency-only scores before any timed example asks for them
    from gpumodels.papers.huang_li import evaluation, model

    evaluation.headline()  # the neuralnet ranking's placements
    for v in model.VARIANTS:
        if model.VARIANTS[v]["overlap"] == "eq11":
            evaluation.fit_overlap(v)  # the 38 training placements


WARM_UP = [_warm_analysis, _warm_evaluation]
