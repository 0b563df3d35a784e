"""Baselines for gpumodels.facts and gpumodels.ground (see
tools/fuzz_examples/__init__.py)."""

from __future__ import annotations

import functools


def _root():
    import pathlib

    import gpumodels

    return pathlib.Path(gpumodels.__file__).resolve().parents[1]


def _nvprof_path():
    """A real nvprof CSV of the gpuperfpredict datasets (20 launches)."""
    return str(_root() / "data/silicon/gpuperfpredict/calculate_temp-GTX-680.csv")


@functools.cache
def _profiles():
    from gpumodels.facts import profile

    return tuple(profile.read(_nvprof_path())[:2])


def _written(name, text):
    """``text`` written to ``name`` in the working directory (the harness runs each
    worker in a temporary one); the relative path."""
    import pathlib

    p = pathlib.Path(name)
    p.write_text(text, encoding="utf-8")
    return str(p)


def _ncu_path():
    from gpumodels.facts import profile

    return _written("profile_ncu.csv", profile.to_ncu_csv(_profiles(), cc="3.0"))


def _yaml_path():
    from gpumodels.facts import profile

    return _written("profile.yaml", profile.to_yaml(_profiles()))


def _gpu_fields():
    import dataclasses

    from gpumodels.facts import hardware

    g = hardware.get_gpu("GTX680")
    return {f.name: getattr(g, f.name) for f in dataclasses.fields(g)}


def _occupancy_fields():
    import dataclasses

    from gpumodels.facts import occupancy

    o = occupancy.occupancy("8.0", 256, 32, 4096)
    return {f.name: getattr(o, f.name) for f in dataclasses.fields(o)}


def _params_fields():
    import dataclasses

    from gpumodels.facts import param_sets

    p = param_sets.params("Kepler")
    return {f.name: getattr(p, f.name) for f in dataclasses.fields(p)}


def _board():
    """A small scoreboard-shaped table (the columns of
    :func:`gpumodels.scoreboard.table`) of three printed values, computed = printed
    plus a little, built from ``data/published/`` without running the producers."""
    import pandas as pd

    from gpumodels.facts import published

    rows = []
    for i, key in enumerate(published.keys("v16.")[:3]):
        rec = published.record(key)
        printed = float(rec["value"])
        tol = published.tolerance(key)
        computed = printed + 0.25 * tol
        rows.append(
            {
                "key": key,
                "paper": rec["paper"],
                "source": rec["source"],
                "quantity": rec["quantity"],
                "context": rec["context"],
                "printed": printed,
                "printed_text": rec["value"],
                "unit": rec["unit"],
                "computed": computed,
                "difference": computed - printed,
                "tolerance": tol,
                "bound": "",
                "status": "reproduced",
                "declared": "reproduced",
                "note": "a note with *markup*" if i == 0 else "",
                "producer": "tools.fuzz_examples",
            }
        )
    return pd.DataFrame(rows)


def _computed():
    from gpumodels.facts import published

    return {k: published.value(k) for k in published.keys("v16.")[:3]}


def _frame():
    import pandas as pd

    return pd.DataFrame({"gpu": ["G80", "Kepler"], "mem_lat": [444.0, 301.0]})


def _band_fn(p, n_warps=8.0):
    """A small model of a parameter record: the warps that hide the memory latency
    (a float array)."""
    import numpy as np

    return np.asarray([n_warps, 2 * n_warps]) * p.mem_lat / (p.mem_lat + 1.0)


BASELINES = {
    # ---- gpumodels.facts
    "gpumodels.facts.hardware.GPU": _gpu_fields,
    "gpumodels.facts.modern.band": lambda: {"fn": _band_fn, "name": "H100"},
    "gpumodels.facts.occupancy.Occupancy": _occupancy_fields,
    "gpumodels.facts.occupancy.summary_html": lambda: {
        "o": __import__("gpumodels.facts.occupancy", fromlist=["x"]).occupancy(
            "8.0", 256, 32, 4096
        )
    },
    "gpumodels.facts.param_sets.chapter6_value": lambda: {
        "gen": "Kepler",
        "table": "6.4",
        "column": "peak",
    },
    "gpumodels.facts.param_sets.mix_params": lambda: {"name": "Maxwell", "kind": "sfu"},
    "gpumodels.facts.params.Params": _params_fields,
    "gpumodels.facts.params.without_latency_fit": lambda: {
        "gpu": "GTX680",
        "mem_lat": 301.0,
        "mem_thru": 0.0752,
        "alu_lat": 9.0,
        "alu_thru": 6.0,
        "issue_thru": 4.0,
        "sources": {"mem_lat": "Volkov 2016, Table 4.1"},
    },
    "gpumodels.facts.profile.detect": lambda: {"path": _nvprof_path()},
    "gpumodels.facts.profile.from_text": lambda: {
        "text": __import__("pathlib").Path(_nvprof_path()).read_text(),
        "name": "calculate_temp-GTX-680.csv",
    },
    "gpumodels.facts.profile.read": lambda: {"path": _nvprof_path()},
    "gpumodels.facts.profile.read_manual": lambda: {"path": _yaml_path()},
    "gpumodels.facts.profile.read_ncu_csv": lambda: {"path": _ncu_path()},
    "gpumodels.facts.profile.read_nvprof_csv": lambda: {"path": _nvprof_path()},
    "gpumodels.facts.profile.table": lambda: {"profiles": list(_profiles())},
    "gpumodels.facts.profile.to_ncu_csv": lambda: {
        "profiles": list(_profiles()),
        "cc": "3.0",
    },
    "gpumodels.facts.profile.to_yaml": lambda: {"profiles": list(_profiles())},
    "gpumodels.facts.published.check": lambda: {
        "table": __import__("gpumodels.facts.published", fromlist=["x"]).compare(
            _computed()
        )
    },
    "gpumodels.facts.published.compact": lambda: {"board": _board()},
    "gpumodels.facts.published.compare": lambda: {"computed": _computed()},
    "gpumodels.facts.published.compare_printed": lambda: {"computed": _computed()},
    "gpumodels.facts.published.notes_markdown": lambda: {"board": _board()},
    # ---- gpumodels.ground
    "gpumodels.ground.data.read_frame": lambda: {"relpath": "gpus.csv"},
    "gpumodels.ground.diskcache.persistent": lambda: {"fn": abs},
    "gpumodels.ground.data.read_rows": lambda: {"relpath": "gpus.csv"},
    "gpumodels.ground.data.read_text": lambda: {"relpath": "gpus.csv"},
    "gpumodels.ground.schemas.Table": lambda: {
        "columns": {
            "gpu": __import__("gpumodels.ground.schemas").ground.schemas.text()
        },
        "unique": ["gpu"],
    },
    "gpumodels.ground.schemas.long_table": lambda: {"key": ["gpu", "parameter"]},
    "gpumodels.ground.schemas.schema_of": lambda: {"relpath": "gpus.csv"},
    "gpumodels.ground.schemas.validate": lambda: {
        "relpath": "gpus.csv",
        "text_": __import__("gpumodels.ground.data").ground.data.read_text("gpus.csv"),
    },
    "gpumodels.ground.tables.Table": lambda: {"frame": _frame()},
    "gpumodels.ground.tables.formatted": lambda: {
        "frame": _frame(),
        "fmt": "{:.1f}",
        "columns": ["mem_lat"],
    },
    "gpumodels.ground.validate.check_choice": lambda: {
        "name": "precision",
        "value": "SP",
        "allowed": ("SP", "DP"),
    },
    "gpumodels.ground.validate.check_keys": lambda: {
        "name": "log",
        "value": {"bank": 0, "wait_ns": 1.0},
        "keys": ("bank", "wait_ns"),
    },
    "gpumodels.ground.validate.check_items": lambda: {
        "name": "warps",
        "value": [1, 2, 4],
        "types": int,
    },
    "gpumodels.ground.validate.check_flag": lambda: {"name": "inputs", "value": True},
    "gpumodels.ground.validate.check_fraction": lambda: {
        "name": "fraction",
        "value": 0.9,
    },
    "gpumodels.ground.validate.check_mapping": lambda: {
        "name": "computed",
        "value": {"a": 1.0},
    },
    "gpumodels.ground.validate.check_numbers": lambda: {
        "name": "values",
        "value": __import__("numpy").array([1.0, 2.0, 4.0]),
    },
    "gpumodels.ground.validate.check_sequence": lambda: {
        "name": "models",
        "value": ["volkov_basic"],
    },
    "gpumodels.ground.validate.check_text": lambda: {"name": "gpu", "value": "H100"},
    "gpumodels.ground.validate.check_type": lambda: {
        "name": "gpu",
        "value": "H100",
        "types": str,
    },
}
