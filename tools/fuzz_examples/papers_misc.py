"""Baselines for gpumodels.papers.hong_kim, .perez_piccoli, .transit and .volkov (see
tools/fuzz_examples/__init__.py)."""

from __future__ import annotations

from pathlib import Path

_HK = "gpumodels.papers.hong_kim"
_PP = "gpumodels.papers.perez_piccoli"
_TR = "gpumodels.papers.transit"
_VK = "gpumodels.papers.volkov"

# the made-up perfparams_bench output the parser tests use
_BENCH_OUTPUT = (
    Path(__file__).resolve().parents[2] / "tests/fixtures/perfparams_bench_h100.txt"
).read_text()


def _prediction():
    from gpumodels.engines.mwp_cwp import predict
    from gpumodels.papers.hong_kim.benchmarks import table_2_inputs

    return predict(table_2_inputs())


def _case():
    from gpumodels.papers.hong_kim.timelines import CASES

    return CASES[1]


def _case_run():
    from gpumodels.papers.hong_kim.timelines import run_case

    r = run_case(1)
    return {
        "case": r.case,
        "trace": r.trace,
        "total_cycles": r.total_cycles,
        "predicted": r.predicted,
    }


def _features():
    return {
        "p": 1000.0,
        "sm_count": 15.0,
        "n_ppipe": 32.0,
        "l_pipe": 18.0,
        "b": 150.0,
        "n_min_bl": 10.0,
        "w_memory_bus": 12.0,
        "t_thread_delay": 6.0,
    }


def _bench_rows():
    from gpumodels.papers.perez_piccoli.model import bench_rows

    return bench_rows(_BENCH_OUTPUT, driver="550.00", date="2026-11-22")


def _equilibrium():
    import dataclasses

    from gpumodels.papers.transit.model import equilibrium

    e = equilibrium(n=500.0, Z=1.0, R=10.0, k_delta=400.0, M=32.0)
    return {f.name: getattr(e, f.name) for f in dataclasses.fields(e)}


def _transit_rows():
    from gpumodels.papers.transit.machine import machine
    from gpumodels.papers.transit.workloads import predictions

    return predictions(machine("GTX690", "SP"), "GTX680")


def _gk104():
    from gpumodels.papers.transit.machine import machine

    return machine("GTX690", "SP")


def _nvprof_row():
    from gpumodels.papers.transit.workloads import nvprof_rows

    return nvprof_rows()[0]


def _listing_3_5():
    from gpumodels.papers.volkov.bounds import listing_3_5

    return listing_3_5()


def _vector_add_graph():
    from gpumodels.papers.volkov.bounds import vector_add_graph

    return vector_add_graph()


def _latency_bound():
    from gpumodels.papers.volkov.bounds import latency_bound

    b = latency_bound(_vector_add_graph())
    return {"length": b.length, "path": b.path, "issue": b.issue}


def _throughput_bound():
    from gpumodels.papers.volkov.bounds import vector_add_throughput_bound

    b = vector_add_throughput_bound()
    return {
        "rows": b.rows,
        "totals": b.totals,
        "tightest": b.tightest,
        "cycles_per_warp": b.cycles_per_warp,
    }


def _timing():
    import dataclasses

    import numpy as np

    from gpumodels.papers.volkov.experiment import timing

    t = timing(np.array([0.0, 1.0, 2.0]), np.array([10.0, 12.0, 9.0]), None, 5)
    return {f.name: getattr(t, f.name) for f in dataclasses.fields(t)}


def _memory_wall():
    from gpumodels.papers.volkov.memory_wall import table

    return table()


def _latency_points():
    import numpy as np

    x = np.array([10.0, 50.0, 100.0, 150.0, 180.0])
    return {"throughput": x, "latency": 300.0 + 40.0 * x / (200.0 - x)}


def _vector_add_dep():
    from gpumodels.papers.volkov.bounds import vector_add_parameters

    s = vector_add_parameters()
    alu = s["alu_latency"]
    return {"load": s["load_latency"], "alu": alu, "store": alu}


def _table_3_2():
    from gpumodels.papers.volkov.bounds import table_3_2_mix, table_3_3_limits

    return {"mix": table_3_2_mix(), "limits": table_3_3_limits()}


def _refined_latency():
    from gpumodels import volkov

    params = volkov.params

    return {"p": params("Kepler"), "x": 0.1, "alpha": 4.0}


BASELINES = {
    # the defaults simulate a full SM 14 times over (about 2 s): one round of two
    # iterations keeps the baseline and every hostile call well within the time limit
    "gpumodels.papers.volkov.experiment.phases_run": lambda: {
        "rounds": 1,
        "iterations": 2,
    },
    # ---- Hong & Kim
    f"{_HK}.benchmarks.dependence_sweep": lambda: {
        "warps": [1, 4],
        "independent": True,
    },
    f"{_HK}.benchmarks.merge_inputs": lambda: {
        "benchmark": "Sepia",
        "threads_per_block": 128,
        "gpu": "GTX280",
        "uncoal_per_mw": 4.0,
    },
    f"{_HK}.benchmarks.merge_sweep": lambda: {
        "benchmark": "Sepia",
        "gpu": "GTX280",
        "threads": [32, 128],
        "uncoal_per_mw": 4.0,
    },
    f"{_HK}.benchmarks.micro_inputs": lambda: {
        "name": "Mb1",
        "gpu": "GTX280",
        "coalesced": False,
        "uncoal_per_mw": 4.0,
    },
    f"{_HK}.benchmarks.mwp_vs_warps": lambda: {
        "gpu": "GTX280",
        "coalesced": False,
        "warps": [1, 8, 16],
    },
    f"{_HK}.benchmarks.svm_sweep": lambda: {"variant": "naive", "threads": [32, 256]},
    f"{_HK}.benchmarks.table_2_rows": lambda: {"prediction": _prediction()},
    f"{_HK}.benchmarks.table_5_occupancy": lambda: {
        "benchmark": "SVM",
        "gpu": "FX5600",
        "threads_per_block": 32,
    },
    f"{_HK}.coalescing.guide_transactions": lambda: {
        "addresses": [4 + 4 * k for k in range(16)],
        "element_size": 4,
        "cc": "1.3",
    },
    f"{_HK}.coalescing.index_terms": lambda: {
        "index": lambda tx: 7 + 2 * tx,
        "threads": 64,
    },
    f"{_HK}.model.Divergence": lambda: {
        "paths": (("B1", "B2"), ("B1", "B3")),
        "path_counts": ({"comp_insts": 5.0}, {"comp_insts": 7.0}),
        "all_paths": {"comp_insts": 10.0},
    },
    f"{_HK}.model.divergent_counts": lambda: {
        "blocks": {
            "B1": {"comp_insts": 2, "coal_mem_insts": 1},
            "B2": {"comp_insts": 3},
            "B3": {"comp_insts": 5},
        },
        "paths": [("B1", "B2"), ("B1", "B3")],
    },
    f"{_HK}.model.m_factor_of": lambda: {"counts": {"fp_mad": 3, "fp_div": 1}},
    f"{_HK}.timelines.Case": lambda: {
        "number": 2,
        "figure": "5b",
        "title": "CWP > MWP, 4 warps",
        "n": 4,
        "periods": 2,
        "comp_p": 100.0,
        "mem_l": 300.0,
        "mwp": 2,
        "equation": 1,
    },
    f"{_HK}.timelines.CaseRun": _case_run,
    f"{_HK}.timelines.period_counts": lambda: {
        "equation": 1,
        "n": 8.0,
        "periods": 1.0,
        "mwp": 2.0,
    },
    f"{_HK}.timelines.run_case": lambda: {"case": 2},
    # ---- Perez & Piccoli
    f"{_PP}.model.Features": _features,
    f"{_PP}.model.bench_parameters": lambda: {"rows": _bench_rows()},
    f"{_PP}.model.bench_rows": lambda: {
        "text": _BENCH_OUTPUT,
        "driver": "550.00",
        "date": "2026-11-22",
    },
    f"{_PP}.model.parse_bench": lambda: {"text": _BENCH_OUTPUT},
    # ---- Transit
    f"{_TR}.model.Equilibrium": _equilibrium,
    f"{_TR}.printed.advice_state": lambda: {"bound": "memory"},
    f"{_TR}.printed.caption_key": lambda: {
        "figure": "Fig. 12",
        "system": "ms",
        "direction": "down",
    },
    f"{_TR}.workloads.accuracy": lambda: {"rows": _transit_rows()},
    f"{_TR}.workloads.derive": lambda: {"row": _nvprof_row()},
    f"{_TR}.workloads.saturation_threads": lambda: {"machine": _gk104(), "Z": 3.0},
    # ---- Volkov
    f"{_VK}.bounds.InstructionClass": lambda: {
        "name": "loads",
        "count": 3.0,
        "resource": "memory",
        "bytes": 128.0,
        "dual_issued": 1.0,
    },
    f"{_VK}.bounds.LatencyBound": _latency_bound,
    f"{_VK}.bounds.ThroughputBound": _throughput_bound,
    f"{_VK}.bounds.barrier_graph": lambda: {
        "warps": [
            [("@P0 BRA label", 28.0), ("BAR.SYNC", 34.0), ("FADD R1", None)],
            [("LD R1, [R1]", 512.0), ("BAR.SYNC", 34.0), ("FADD R1", None)],
        ],
        "barrier_latency": 20.0,
    },
    f"{_VK}.bounds.default_can_pair": lambda: {
        "first": _listing_3_5()[0],
        "second": _listing_3_5()[1],
    },
    f"{_VK}.bounds.dual_issue_groups": lambda: {"program": _listing_3_5()},
    f"{_VK}.bounds.latency_bound": lambda: {"graph": _vector_add_graph()},
    f"{_VK}.bounds.littles_law": lambda: {"latency": 6.0, "concurrency": 1.0},
    f"{_VK}.bounds.program_graph": lambda: {
        "program": _listing_3_5(),
        "dependency_latency": _vector_add_dep(),
        "ilp_latency": 8.0,
        "termination_latency": 200.0,
    },
    f"{_VK}.bounds.throughput_bound": _table_3_2,
    f"{_VK}.experiment.Timing": _timing,
    f"{_VK}.experiment.streaming_chase": lambda: {
        "n_entries": 4096,
        "threads_per_block": 64,
        "blocks": 4,
        "ilp": 2,
    },
    f"{_VK}.memory_wall.fit_trend": lambda: {
        "df": _memory_wall(),
        "start": 2006.0,
        "end": 2015.0,
    },
    f"{_VK}.memory_wall.fits": lambda: {"df": _memory_wall()},
    f"{_VK}.parameters.fit_latency_model": _latency_points,
    f"{_VK}.parameters.table": lambda: {"name": "6.1"},
    f"{_VK}.synthetic.refined_latency": _refined_latency,
}
