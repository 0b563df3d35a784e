"""Rodinia workloads ``(n, Z)`` for the transit figures,
each number with its provenance.

Li et al. (2015, §3) take a workload's two parameters from the profiler::

    n = achieved occupancy × max resident threads      (threads per SM)
    Z = instructions issued / (DRAM reads + DRAM writes)   (per 32-byte transaction)

and plot 16 Rodinia applications, but their ``(n, Z)`` and measured throughputs survive
only inside Figs. 18-19, which the text lost. The book rebuilds what public data allow:

* **Profiled Kepler kernels** (``data/transit/rodinia_kepler_nvprof.csv``, a copy of
  public nvprof measurements by Amarís et al. on a GTX 680 and a Tesla K20): ``n`` and
  ``Z`` follow the paper's formulas with two substitutions the data force, both stated
  per row — the data hold no ``inst_issued`` count, so ``Z`` is computed with three
  instruction counts (:data:`COUNTERS`), and the DRAM write transactions are ``write
  throughput × duration / 32 B`` (the data hold no write-transaction count). The median
  of the profiled launches is used.
* **Kernels known only from the Rodinia source** (``data/transit/rodinia_launch.csv``):
  block size and static shared memory give, through
  :func:`gpumodels.facts.occupancy.occupancy`, an *upper bound* on ``n`` (registers per
  thread are not in the source); ``Z`` is not available.

Measured throughputs are per *active* SM, ``min(SMs, blocks in the grid)``, so that a
one-block kernel is compared with one SM: DRAM GB/s (reads + writes) and G
thread-instructions/s (instructions × 32 / duration, with the same instruction count as
``Z``: the paper's CS throughput in the units of ``Z × T``; the paper's figure captions
call it GFLOPS, but a ``Z`` in instructions makes ``Z × T`` an instruction rate).
"""

from __future__ import annotations

import csv
import io
import statistics
from functools import cache

import numpy as np

from gpumodels.facts import hardware, occupancy
from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.ground.data import read_rows, read_text
from gpumodels.ground.errors import InputTypeError
from gpumodels.ground.validate import (
    as_array,
    check_choice,
    check_flag,
    check_keys,
    check_mapping,
    check_real,
    check_sequence,
    finite_result,
    out,
)
from gpumodels.papers.transit.machine import Machine, machines

TRANSACTION_BYTES = 32
"""Bytes per DRAM transaction (sector) as nvprof counts them on Fermi and Kepler."""

NVPROF_FILE = "transit/rodinia_kepler_nvprof.csv"
LAUNCH_FILE = "transit/rodinia_launch.csv"
PROFILED_GPUS_FILE = "transit/profiled_gpus.csv"
TABLE_FILE = "transit/workloads.csv"

NAMED_IN_PAPER = ("gaussian", "lavaMD", "particlefilter")
"""The Rodinia applications the text of §3 names (the outliers);
the other 13 are not named."""

COLUMNS = (
    "app",
    "kernel",
    "gpu",
    "named_in_paper",
    "launches",
    "n",
    "n_provenance",
    "Z",
    "Z_provenance",
    "ms_measured",
    "cs_measured",
    "measured_provenance",
    "Z_issued1",
    "cs_measured_issued1",
    "Z_ipc_ratio",
    "cs_measured_ipc_ratio",
    "source",
)
"""Columns of ``data/transit/workloads.csv``; ``n`` and ``Z`` in threads/SM and
instructions/byte, measured throughputs in GB/s and G thread-instructions/s per active
SM; empty = not available. ``Z``/``cs_measured`` count ``inst_executed``,
``Z_issued1``/``cs_measured_issued1`` nvprof's ``inst_issued1`` event and
``Z_ipc_ratio``/``cs_measured_ipc_ratio`` the issued count ``inst_executed ×
issued_ipc / executed_ipc`` (see :data:`COUNTERS`)."""

COUNTERS = ("inst_executed", "inst_issued1", "ipc_ratio")
"""The three warp-instruction counts the profiled data allow, for ``Z`` and the
measured CS throughput.

The paper's ``Z`` counts instructions *issued* (``instruction_issued``, Li et al. 2015,
§3), replays included. ``inst_executed`` is nvprof's event for instructions executed,
replays not included: it undercounts issue. ``inst_issued1`` is Kepler's event "number
of single instruction issued per cycle": issue slots that issued one instruction,
replays included, but a dual-issued pair is the separate event ``inst_issued2``, which
the data do not hold, so it undercounts wherever the scheduler dual-issues.
``ipc_ratio`` is ``inst_executed × issued_ipc / executed_ipc``: nvprof's two metrics
"instructions issued per cycle" and "instructions executed per cycle" share their
cycle count, so their ratio is issued / executed, and the product is nvprof's
``inst_issued`` (both dual-issue slots and the replays), the paper's count. It is the
default of :func:`predictions` (:data:`DEFAULT_COUNTER`)."""

DEFAULT_COUNTER = "ipc_ratio"
"""The counter :func:`predictions` uses unless told otherwise, the one that
reconstructs the paper's ``instruction_issued``."""

_COUNTER_COLUMNS = {
    "inst_executed": ("Z", "cs_measured"),
    "inst_issued1": ("Z_issued1", "cs_measured_issued1"),
    "ipc_ratio": ("Z_ipc_ratio", "cs_measured_ipc_ratio"),
}
_MEDIANS = tuple(c for pair in _COUNTER_COLUMNS.values() for c in pair)

_FLOAT = (
    "duration",
    "achieved_occupancy",
    "dram_read_throughput",
    "dram_write_throughput",
    "executed_ipc",
    "issued_ipc",
)
_INT = (
    "input_size",
    "grid_x",
    "grid_y",
    "block_x",
    "block_y",
    "registers_per_thread",
    "static_smem",
    "inst_executed",
    "inst_issued1",
    "dram_read_transactions",
    "flop_count_sp",
)


def _gpu_facts(gpu: str) -> tuple[str, int]:
    """(compute capability, SM count) of a profiled GPU: the hardware table, else
    profiled_gpus.csv."""
    rows = {
        r["parameter"]: r["value"]
        for r in read_rows(PROFILED_GPUS_FILE)
        if r["gpu"] == gpu
    }
    if rows:
        return rows["compute_capability"], int(rows["sm_count"])
    g = hardware.get_gpu(gpu)
    return g.compute_capability, g.sm_count


def nvprof_rows() -> list[dict]:
    """The profiled launches, with numeric columns converted (duration in s, throughputs
    in GB/s)."""
    out = []
    for row in read_rows(NVPROF_FILE):
        r = dict(row)
        for c in _FLOAT:
            r[c] = float(r[c])
        for c in _INT:
            r[c] = int(r[c])
        out.append(r)
    return out


_DERIVE_COLUMNS = (
    "gpu",
    *_FLOAT,
    *(c for c in _INT if c != "input_size"),
)


def derive(row: dict) -> dict:
    """``n``, ``Z`` and the measured per-SM throughputs of one profiled launch,
    with the steps.

    Returns the intermediate quantities too (``max_threads``, ``write_transactions``,
    ``transactions``, ``active_sms``, ``n_occupancy`` from the occupancy calculator,
    ``inst_issued`` = ``inst_executed × issued_ipc / executed_ipc``) so that a chapter
    can show the arithmetic. It refuses ``executed_ipc ≤ 0`` and ``issued_ipc <
    executed_ipc``: the issued count includes every replay and both metrics share one
    cycle count, so issued ≥ executed > 0. ``Z``, ``Z_issued1`` and ``Z_ipc_ratio``
    (and the matching ``cs_measured*``) count the three instruction counts of
    :data:`COUNTERS`;
    ``gflops_sp_measured`` is ``flop_count_sp / duration`` per active SM in GFLOP/s, a
    different quantity from the CS throughput in instructions (the paper's figure
    captions call PCT and RCT "GFLOPS").
    """
    check_mapping("row", row, "a profiled launch of nvprof_rows()")
    check_keys("row", row, _DERIVE_COLUMNS, "a profiled launch of nvprof_rows()")
    executed = check_real("row['executed_ipc']", row["executed_ipc"], 0.0, lo_open=True)
    # issued counts every replay, over executed_ipc's cycles: issued >= executed
    check_real(
        "row['issued_ipc']",
        row["issued_ipc"],
        executed,
        context="a launch (issued counts replays: >= row['executed_ipc'])",
    )
    cc, sms = _gpu_facts(row["gpu"])
    lim = occupancy.limits(cc)
    max_threads = lim.max_warps_per_sm * WARP_SIZE
    write_tx = row["dram_write_throughput"] * 1e9 * row["duration"] / TRANSACTION_BYTES
    transactions = row["dram_read_transactions"] + write_tx
    threads = row["block_x"] * row["block_y"]
    blocks = row["grid_x"] * row["grid_y"]
    active = min(sms, blocks)
    occ = occupancy.occupancy(
        cc, threads, row["registers_per_thread"], row["static_smem"]
    )
    resident_blocks = min(occ.blocks_per_sm, -(-blocks // sms))
    issued = row["inst_executed"] * row["issued_ipc"] / row["executed_ipc"]
    return {
        "max_threads": max_threads,
        "n": row["achieved_occupancy"] * max_threads,
        "write_transactions": write_tx,
        "transactions": transactions,
        "Z": row["inst_executed"] / transactions,
        "Z_issued1": row["inst_issued1"] / transactions,
        "inst_issued": issued,
        "Z_ipc_ratio": issued / transactions,
        "active_sms": active,
        "n_occupancy": resident_blocks * threads,
        "occupancy_limiter": occ.limiter,
        "ms_measured": (row["dram_read_throughput"] + row["dram_write_throughput"])
        / active,
        "cs_measured": row["inst_executed"]
        * WARP_SIZE
        / row["duration"]
        / 1e9
        / active,
        "cs_measured_issued1": row["inst_issued1"]
        * WARP_SIZE
        / row["duration"]
        / 1e9
        / active,
        "cs_measured_ipc_ratio": issued * WARP_SIZE / row["duration"] / 1e9 / active,
        "gflops_sp_measured": row["flop_count_sp"] / row["duration"] / 1e9 / active,
    }


def _g(x: float) -> str:
    return f"{x:.6g}"


def _profiled_rows() -> list[dict]:
    groups: dict[tuple[str, str, str], list[dict]] = {}
    for r in nvprof_rows():
        groups.setdefault((r["app"], r["kernel"], r["gpu"]), []).append(r)
    rows = []
    for (app, kernel, gpu), launches in groups.items():
        d = [derive(r) for r in launches]
        med = {
            key: statistics.median(x[key] for x in d)
            for key in ("n", "ms_measured", *_MEDIANS)
        }
        rows.append(
            {
                "app": app,
                "kernel": kernel,
                "gpu": gpu,
                "named_in_paper": "yes" if app in NAMED_IN_PAPER else "no",
                "launches": str(len(launches)),
                "n": _g(med["n"]),
                "n_provenance": (
                    f"achieved_occupancy x {d[0]['max_threads']} max resident "
                    "threads/SM (nvprof; the paper's formula), median of the launches"
                ),
                "Z": _g(med["Z"]),
                "Z_provenance": (
                    "count / (DRAM read transactions + write throughput x "
                    "duration / 32 B) (nvprof), median of the launches; count = "
                    "Z: inst_executed (lower bound of the paper's inst_issued-based "
                    "Z); Z_issued1: inst_issued1 (misses dual issue); Z_ipc_ratio: "
                    "inst_executed x issued_ipc / executed_ipc (nvprof's inst_issued, "
                    "the paper's count; the default)"
                ),
                "ms_measured": _g(med["ms_measured"]),
                "cs_measured": _g(med["cs_measured"]),
                "measured_provenance": (
                    "nvprof, per active SM "
                    f"(min({_gpu_facts(gpu)[1]} SMs, grid blocks)), median of the "
                    "launches: ms_measured = DRAM read + write GB/s; cs_measured* = "
                    "count x 32 / duration, the count of the matching Z column "
                    "(cs_measured: inst_executed; cs_measured_issued1: inst_issued1; "
                    "cs_measured_ipc_ratio: inst_executed x issued_ipc / executed_ipc)"
                ),
                "Z_issued1": _g(med["Z_issued1"]),
                "cs_measured_issued1": _g(med["cs_measured_issued1"]),
                "Z_ipc_ratio": _g(med["Z_ipc_ratio"]),
                "cs_measured_ipc_ratio": _g(med["cs_measured_ipc_ratio"]),
                "source": launches[0]["source"],
            }
        )
    return rows


def _source_rows() -> list[dict]:
    rows = []
    for r in read_rows(LAUNCH_FILE):
        # the GPUs with Transit machine points
        for gpu in dict.fromkeys(m.gpu for m in machines()):
            cc = hardware.get_gpu(gpu).compute_capability
            occ = occupancy.occupancy(
                cc, int(r["threads_per_block"]), 0, int(r["static_smem"])
            )
            rows.append(
                {
                    "app": r["app"],
                    "kernel": r["kernel"],
                    "gpu": gpu,
                    "named_in_paper": "yes" if r["app"] in NAMED_IN_PAPER else "no",
                    "launches": "",
                    "n": "",
                    "n_provenance": (
                        "not available: registers per thread are not in the source; "
                        "block size and shared memory alone allow at most "
                        f"{occ.threads_per_sm} threads/SM "
                        f"(occupancy calculator, cc {cc}, limited by {occ.limiter})"
                    ),
                    "Z": "",
                    "Z_provenance": "not available: needs profiler counters",
                    "ms_measured": "",
                    "cs_measured": "",
                    "measured_provenance": "not available",
                    "Z_issued1": "",
                    "cs_measured_issued1": "",
                    "Z_ipc_ratio": "",
                    "cs_measured_ipc_ratio": "",
                    "source": r["source"],
                }
            )
    return rows


def build_table() -> list[dict]:
    """The rows of ``data/transit/workloads.csv``,
    rebuilt from the tables they derive from."""
    return _profiled_rows() + _source_rows()


def render_table(rows: list[dict] | None = None) -> str:
    """``build_table()`` as CSV text (what ``tools/transit_workloads.py`` writes)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    if rows is not None and (
        not isinstance(rows, (list, tuple))
        or not all(isinstance(r, dict) for r in rows)
    ):
        raise InputTypeError(
            f"rows must be a list of dicts with keys {COLUMNS}, got {rows!r:.60}"
        )
    try:
        w.writerows(build_table() if rows is None else rows)
    except ValueError as err:  # a key that is not a column
        raise ValueError(f"rows must have only the keys {COLUMNS}: {err}") from None
    return buf.getvalue()


def committed_table() -> str:
    """The text of ``data/transit/workloads.csv`` as committed, to compare with
    :func:`render_table`."""

    return read_text(TABLE_FILE)


@cache
def _table() -> tuple[dict, ...]:
    rows = []
    for r in read_rows(TABLE_FILE):
        r = dict(r)
        for c in ("n", "ms_measured", *_MEDIANS):
            r[c] = float(r[c]) if r[c] else None
        rows.append(r)
    return tuple(rows)


def table(gpu: str | None = None, available: bool = False) -> list[dict]:
    """Rows of ``data/transit/workloads.csv`` (``None`` = not available), optionally for
    one GPU and only those with both ``n`` and ``Z``."""
    available = check_flag("available", available)
    if gpu is not None:
        check_choice("gpu", gpu, sorted({r["gpu"] for r in _table()}))
    rows = [dict(r) for r in _table() if gpu is None or r["gpu"] == gpu]
    if available:
        rows = [r for r in rows if r["n"] is not None and r["Z"] is not None]
    return rows


def reported_accuracy() -> list[dict]:
    """The accuracies Li et al. report per GPU (``data/transit/reported_accuracy.csv``),
    one dict per row."""
    return [dict(r) for r in read_rows("transit/reported_accuracy.csv")]


def _check_machine(machine) -> None:
    """Refuse anything but a transit :class:`Machine` (one check for every function
    that takes one)."""
    if not isinstance(machine, Machine):
        raise InputTypeError(
            "machine must be a gpumodels.papers.transit.machine.Machine, got "
            f"{type(machine).__name__} {machine!r:.40}"
        )


def saturation_threads(machine, Z):
    """Threads per SM at which the thread bound ends on ``machine`` for ``Z``
    thread-instructions per byte: ``min(R, π_y/Z) · (k_delta/R + Z·M/π_y)``.

    Below it the throughput is ``n / (L + Z_model)`` (Li et al. 2015, §2.4.1, both
    curves on their slopes); at it one of the ceilings ``R`` or ``π_y/Z`` is reached. It
    is at least ``min(k_delta, M)`` for every ``Z`` (``k_delta`` as ``Z → 0``, ``M`` as
    ``Z → ∞``), so on a machine whose ``k_delta`` and ``M`` both reach the SM's thread
    limit no workload leaves the thread bound.
    """
    _check_machine(machine)
    Z = as_array("Z", Z, lo_open=True)
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        cap = np.minimum(machine.R, machine.pi_height / Z)
        res = cap * (machine.k_delta / machine.R + np.asarray(machine.model_Z(Z)))
    return out(finite_result("the saturation thread count", res, Z=Z))


def predictions(machine, gpu: str, counter: str = DEFAULT_COUNTER) -> list[dict]:
    """The model against the profiled kernels of ``gpu`` on the transit ``machine``, one
    dict per kernel.

    ``Z`` and the measured CS throughput (RCT) are both counted with ``counter`` (one of
    :data:`COUNTERS`, default :data:`DEFAULT_COUNTER`); the prediction is the
    equilibrium of ``machine`` at the kernel's ``n`` and ``Z``: its MS throughput and
    PCT = ``Z × T`` (G thread-instructions/s per SM, Li et al. 2015, §2.2). Keys: ``app,
    kernel, n, Z, bound, k, ms_predicted, ms_measured, PCT, RCT, ratio`` (PCT / RCT) and
    ``n_saturation`` (:func:`saturation_threads` at the kernel's ``Z``).
    """
    check_choice("counter", counter, COUNTERS)
    _check_machine(machine)
    zcol, ccol = _COUNTER_COLUMNS[counter]
    # the GPUs with profiled kernels (n and Z), checked before table() so that the
    # message lists only the GPUs this function accepts
    profiled = dict.fromkeys(sorted({r["gpu"] for r in table(available=True)}))
    check_choice("gpu", gpu, profiled)
    rows = table(gpu, available=True)
    out_rows = []
    for r in rows:
        e = machine.solve(r["n"], r[zcol])
        pct = r[zcol] * e.ms_throughput
        out_rows.append(
            {
                "app": r["app"],
                "kernel": r["kernel"],
                "n": r["n"],
                "Z": r[zcol],
                "bound": e.bound,
                "k": e.k,
                "ms_predicted": e.ms_throughput,
                "ms_measured": r["ms_measured"],
                "PCT": pct,
                "RCT": r[ccol],
                "ratio": pct / r[ccol],
                "n_saturation": saturation_threads(machine, r[zcol]),
            }
        )
    return out_rows


def accuracy(rows: list[dict], min_threads: float = 0.0) -> float:
    """``1 − mean |PCT − RCT| / RCT`` over the rows of :func:`predictions`
    with ``n ≥ min_threads``.

    The paper reports an accuracy without defining it (§3); this is the book's reading
    of it.
    """
    check_sequence("rows", rows)
    min_threads = check_real("min_threads", min_threads)
    for i, r in enumerate(rows):
        check_mapping(f"rows[{i}]", r, "a row of predictions()")
        check_keys(f"rows[{i}]", r, ("n", "PCT", "RCT"), "a row of predictions()")
        check_real(f"rows[{i}]['n']", r["n"], 0.0)
        check_real(f"rows[{i}]['PCT']", r["PCT"], 0.0)
        check_real(f"rows[{i}]['RCT']", r["RCT"], 0.0, lo_open=True)
    if not rows:
        raise ValueError("rows must hold at least one row of predictions(), got []")
    kept = [r for r in rows if r["n"] >= min_threads]
    if not kept:
        raise ValueError(
            "min_threads leaves no rows: "
            f"the largest n is {max(r['n'] for r in rows):g}, "
            f"got min_threads={min_threads!r}"
        )
    return 1.0 - statistics.fmean(abs(r["PCT"] - r["RCT"]) / r["RCT"] for r in kept)
