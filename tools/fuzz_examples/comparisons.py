"""Baselines for gpumodels.comparisons (bench, modern, prior, silicon) and
gpumodels.scoreboard (see tools/fuzz_examples/__init__.py)."""

from __future__ import annotations

import functools
from pathlib import Path

# one volkov_bench run as the program prints it (the tests' made-up canned output)
_CANNED = (
    Path(__file__).resolve().parents[2] / "tests/fixtures/volkov_bench_canned.txt"
).read_text()

_SMI = "NVIDIA H100 80GB HBM3, 570.86.15, 1980 MHz, 1980 MHz, 2619 MHz\n"

# a committed nvprof file of the gpuperfpredict data (20 launches)
_PROFILE_FILE = "silicon/gpuperfpredict/calculate_temp-GTX-680.csv"


def _parsed():
    from gpumodels.comparisons import bench

    return bench.parse_output(_CANNED)


def _summary():
    from gpumodels.comparisons import bench

    meta, rows = _parsed()
    return bench.summarize(meta, rows, date="2026-01-01")


@functools.cache
def _launches(gpu="GTX-680"):
    """Two launches of ``calculate_temp`` measured on ``gpu`` (read once)."""
    from gpumodels.comparisons import silicon

    return tuple(silicon.measured_launches(["calculate_temp"], [gpu])[:2])


@functools.cache
def _frame():
    """:func:`silicon.predict` on two launches (one model set, read-only use)."""
    from gpumodels.comparisons import silicon

    return silicon.predict(list(_launches()))


@functools.cache
def _peer_frame():
    """:func:`silicon.predict` on launches of two of the peers' GPUs."""
    from gpumodels.comparisons import silicon

    return silicon.predict(
        list(_launches("Tesla-K40")) + list(_launches("GTX-980")),
        models=("roofline", "volkov_basic"),
    )


def _params(gen="Kepler"):
    from gpumodels.facts.param_sets import params

    return params(gen)


@functools.cache
def _model_rows():
    from gpumodels.comparisons import modern

    return tuple(
        modern.model_table(names=("H100",), models=("volkov_basic", "sim2012"))
    )


def _estimate_fields():
    import numpy as np

    return {
        "model": "Sim et al. 2012",
        "gpu": "Kepler",
        "n": np.array([8.0, 16.0]),
        "alpha": np.array([1.0, 1.0]),
        "ipc": np.array([1.0, 2.0]),
        "regime": np.array(["latency", "throughput"]),
        "flags": np.array(["", ""]),
    }


def _make_args():
    import numpy as np

    return {
        "model": "Sim et al. 2012",
        "p": _params(),
        "n": np.array([8.0, 16.0]),
        "alpha": 1.0,
        "ipc": np.array([1.0, 2.0]),
        "regime": "latency",
    }


def _reference_params():
    """Kepler's parameter set with one occupancy (4 warps: one per scheduler), so that
    the reference sweep is one short simulation."""
    return _params().replace(max_warps_per_sm=4)


def _profile_path():
    from gpumodels.ground.data import data_dir

    return str(data_dir() / _PROFILE_FILE)


def _first_paper():
    from gpumodels import scoreboard

    return scoreboard.PAPERS[0]


_B = "gpumodels.comparisons.bench."
_S = "gpumodels.comparisons.silicon."
_P = "gpumodels.comparisons.prior."

BASELINES = {
    _B + "compile_command": lambda: {"source": "volkov_bench.cu", "arch": "sm_80"},
    _B + "parse_output": lambda: {"text": _CANNED},
    _B + "parse_smi": lambda: {"text": _SMI},
    _B + "plan": lambda: {
        "cc": "9.0",
        "warps_per_sm": [8, 16],
        "threads_per_block": 128,
    },
    _B + "summarize": lambda: dict(
        zip(("meta", "rows"), _parsed()), date="2026-01-01"
    ),
    _B + "write_rows": lambda: {"rows": [_summary()], "path": "rows.csv"},
    "gpumodels.comparisons.modern.model_table": lambda: {
        "names": ("H100",),
        "models": ("volkov_basic",),
    },
    "gpumodels.comparisons.modern.model_pivot": lambda: {
        "rows": list(_model_rows()),
        "quantity": "alpha0",
    },
    _P + "estimate.Estimate": _estimate_fields,
    _P + "estimate.make": _make_args,
    _P + "hong_kim_2009.case_rule_comparison": lambda: {
        "p": _params(),
        "n": [4.0, 8.0, 16.0],
        "alpha": 8.0,
    },
    _P + "huang_2014.parameters": lambda: {"context": "Fermi"},
    _P + "reference.rows": lambda: {"p": _reference_params(), "alphas": (8,)},
    _S + "fp64_per_clock": lambda: {"cc": "3.5"},
    _S + "hong_kim_issue_cycles": lambda: {"profiles": list(_launches())},
    _S + "inputs": lambda: {"p": _launches()[0]},
    _S + "mape_like_peers": lambda: {
        "frame": _peer_frame().copy(),
        "gpus_": ("Tesla-K40", "GTX-980"),
    },
    _S + "predict": lambda: {"profiles": list(_launches())},
    _S + "predict_files": lambda: {
        "paths": [_profile_path()],
        "models": ("roofline", "volkov_basic"),
    },
    _S + "ratio_by_duration": lambda: {"frame": _frame().copy()},
    _S + "ratios": lambda: {"frame": _frame().copy()},
    _S + "resolve_gpu": lambda: {"p": _launches()[0]},
    _S + "score": lambda: {"frame": _frame().copy()},
    _S + "utilisation": lambda: {"frame": _frame().copy()},
    _S + "what_if": lambda: {"p": _launches()[0]},
    "gpumodels.scoreboard.section_label": lambda: {"paper": _first_paper()},
}
