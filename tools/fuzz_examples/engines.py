"""Baselines for gpumodels.engines (sim, mwp_cwp, refsim.*) (see
tools/fuzz_examples/__init__.py)."""

from __future__ import annotations

import dataclasses
import importlib
from functools import cache


def _mod(name):
    """A module of gpumodels.engines, imported when a baseline is built."""
    return importlib.import_module(f"gpumodels.engines.{name}")


def _fields(obj, drop=()):
    """A dataclass record's fields by name (shallow: nested records stay records)."""
    return {
        f.name: getattr(obj, f.name)
        for f in dataclasses.fields(obj)
        if f.init and f.name not in drop
    }


# ---------------------------------------------------------------- sim


def _sm():
    from gpumodels.engines import sim

    return sim.SM(
        units={"mem": sim.Unit(40, 0.5, max_in_flight=4), "alu": sim.Unit(6, 2)},
        schedulers=2,
    )


@cache
def _sim_trace():
    from gpumodels.engines import sim

    return sim.simulate(_sm(), sim.alpha_program(2), 4, 200)


# ---------------------------------------------------------------- mwp_cwp


@cache
def _prediction():
    from gpumodels.engines import mwp_cwp

    return mwp_cwp.predict(
        mwp_cwp.Inputs(
            machine="FX5600",
            threads_per_block=256,
            blocks=48,
            comp_insts=500,
            coal_mem_insts=4,
        )
    )


def _predict_args():
    from gpumodels.engines import mwp_cwp

    return {
        "inputs": mwp_cwp.Inputs(
            machine="FX5600",
            threads_per_block=256,
            blocks=48,
            comp_insts=500,
            coal_mem_insts=4,
        )
    }


# ---------------------------------------------------------------- refsim


def _dram():
    from gpumodels.engines.refsim import dram

    return dram.SimulatedDRAM(
        dram.address_map("k80_printed_row_low"), 100.0, 250.0, 400.0
    )


@cache
def _kernel():
    from gpumodels.engines.refsim import kernels

    return kernels.vecadd(256, 64)


@cache
def _trace():
    return _kernel().trace()


@cache
def _trace_2t():
    from gpumodels.engines.refsim import kernels

    return kernels.matrixmul(32, 32, 32).trace({"A": "2T"})


@cache
def _machine():
    from gpumodels.engines.refsim import simulator

    return simulator.machine()


@cache
def _streams():
    from gpumodels.engines.refsim import simulator

    return simulator.kernel_streams(_trace(), _machine())


@cache
def _result():
    from gpumodels.engines.refsim import simulator

    return simulator.run_streams(_streams(), _machine())


def _records():
    from gpumodels.engines.refsim import simulator as s

    return [
        [(s.LDU, 1, False, 1.0, [0]), (s.ALU, 2, True, 1.0, [])],
        [(s.LDU, 1, False, 1.0, [4096]), (s.ALU, 2, True, 1.0, [])],
    ]


def _window():
    """warp, seq, issue of a small sim run (alpha program of 3 ops, 4 warps)."""
    t = _sim_trace()
    return {"warp": t.warp, "seq": t.seq, "issue": t.issue}


def _test_row():
    from gpumodels.engines.refsim import placements

    rows = placements.tests(None, counted_only=False)
    return next(r for r in rows if r["test"] == "vecAdd_T")


def _log_window():
    log = _result().dram_log
    return {
        "log": log,
        "start_ns": 0.0,
        "stop_ns": float(log["arrival_ns"].max()) + 1.0,
    }


BASELINES = {
    # sim
    "gpumodels.engines.sim.LoadedLatency": lambda: {
        "a": 300.0,
        "terms": ((32.0, 170.0),),
        "gbs_per_ipc": 129.0,
        "cap": 150.0,
    },
    "gpumodels.engines.sim.SM": lambda: {
        "units": dict(_sm().units),
        "schedulers": 2,
    },
    "gpumodels.engines.sim.Trace": lambda: _fields(_sim_trace()),
    "gpumodels.engines.sim.rate_between": lambda: {
        "issue": _sim_trace().issue,
        "t1": 10.0,
        "t2": 100.0,
    },
    "gpumodels.engines.sim.simulate": lambda: {
        "sm": _sm(),
        "programs": _mod("sim").alpha_program(2),
        "n_warps": 4,
        "cycles": 200,
    },
    # mwp_cwp
    "gpumodels.engines.mwp_cwp.Prediction": lambda: _fields(_prediction()),
    "gpumodels.engines.mwp_cwp.predict": _predict_args,
    # refsim.dram
    "gpumodels.engines.refsim.dram.AddressMap": lambda: _fields(
        _mod("refsim.dram").address_map("gddr5_6x16"),
        drop=("sources",),
    ),
    "gpumodels.engines.refsim.dram.DetectedMapping": lambda: _fields(
        _mod("refsim.dram").detect_mapping(_dram().second_access_latency, range(3, 40))
    ),
    "gpumodels.engines.refsim.dram.SimulatedDRAM": lambda: {
        "mapping": _dram().mapping,
        "lat_hit": 100.0,
        "lat_miss": 250.0,
        "lat_conflict": 400.0,
    },
    "gpumodels.engines.refsim.dram.detect_mapping": lambda: {
        "second_access_latency": _dram().second_access_latency,
        "address_bits": list(range(3, 40)),
    },
    "gpumodels.engines.refsim.dram.lindley": lambda: {
        "interarrival": [0.0, 1.0, 1.0, 5.0],
        "service": [2.0, 2.0, 2.0, 2.0],
    },
    "gpumodels.engines.refsim.dram.row_buffer_outcomes": lambda: {
        "bank": [0, 0, 1, 0, 0],
        "row": [5, 5, 5, 7, 7],
    },
    # refsim.kernels
    "gpumodels.engines.refsim.kernels.Kernel": lambda: _fields(_kernel()),
    "gpumodels.engines.refsim.kernels.Op": lambda: _fields(_kernel().ops[0]),
    "gpumodels.engines.refsim.kernels.Trace": lambda: _fields(_trace()),
    "gpumodels.engines.refsim.kernels.waves": lambda: {"benchmark": "triad"},
    "gpumodels.engines.refsim.kernels.default_benchmark": lambda: {
        "k": _mod("refsim.kernels").kernel("triad")
    },
    "gpumodels.engines.refsim.kernels.check_placement": lambda: {
        "kernel": _kernel(),
        "placement": _kernel().sample_placement(),
    },
    # refsim.placements
    "gpumodels.engines.refsim.placements.parse_moves": lambda: {
        "text": "rowDelimiters:G->S;d_vec:T->G",
    },
    # refsim.simulator
    "gpumodels.engines.refsim.simulator.RefMachine": lambda: _fields(
        _machine(), drop=("sources",)
    ),
    "gpumodels.engines.refsim.simulator.Result": lambda: _fields(_result()),
    "gpumodels.engines.refsim.simulator.Streams": lambda: _fields(_streams()),
    "gpumodels.engines.refsim.simulator.block_linear": lambda: {
        "tr": _trace_2t(),
        "rm": _machine(),
    },
    "gpumodels.engines.refsim.simulator.kernel_streams": lambda: {
        "tr": _trace(),
        "rm": _machine(),
    },
    "gpumodels.engines.refsim.simulator.lindley_waits": lambda: {
        "log": _result().dram_log,
    },
    "gpumodels.engines.refsim.simulator.littles_law": _log_window,
    "gpumodels.engines.refsim.simulator.switch_row": lambda: {
        "test": _test_row(),
        "setting": "barriers",
    },
    "gpumodels.engines.refsim.simulator.reference_row": lambda: {
        "test": _test_row(),
    },
    "gpumodels.engines.refsim.simulator.run_streams": lambda: {
        "st": _streams(),
        "rm": _machine(),
    },
    "gpumodels.engines.refsim.simulator.simulate": lambda: {
        "kernel": "vecAdd",
        "placement": "vecAdd_T",
    },
    "gpumodels.engines.refsim.simulator.streams_from_records": lambda: {
        "records_per_warp": _records(),
    },
    "gpumodels.engines.refsim.simulator.window_ipc": lambda: {
        **_window(),
        "body": 3,
        "k1": 1,
        "k2": 3,
    },
    # refsim.trace
    "gpumodels.engines.refsim.trace.addressing_instructions": lambda: {
        "space": "G",
        "dtype": "float",
    },
    "gpumodels.engines.refsim.trace.check_dtype": lambda: {"dtype": "float"},
    "gpumodels.engines.refsim.trace.check_space": lambda: {"space": "G"},
}


def _warm_refsim():
    from gpumodels.engines.refsim import simulator

    simulator.simulate("triad", "triad_2")  # the core, streams and shared conflicts


def _warm_sim():
    from gpumodels.engines import sim

    sim.simulate(_sm(), sim.alpha_program(2), 4, 200, engine="compiled")


WARM_UP = [_warm_refsim, _warm_sim]
