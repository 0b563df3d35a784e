"""Real kernels through every model: a profile and a GPU in, each model's time out.

A :class:`~gpumodels.facts.profile.KernelProfile` says what one launch did (launch
configuration, instructions, memory traffic); a GPU record and a parameter set say what
the hardware can do. :func:`inputs` turns the two into the quantities the models share,
and :func:`predict` runs every model of ``MODELS`` on them. The measured duration
is never read by :func:`inputs` or by a model: it is only what the predictions are
scored against (:func:`score`).

The mapping, and where each input comes from
--------------------------------------------

*Measured* (from the profile): blocks, threads per block, registers per thread, shared
memory per block, warp instructions executed ``I``, global load and store warp
instructions ``R``, bytes read from DRAM, flops. *Hardware tables* (``data/``): SM
count, clock, pin bandwidth, CUDA cores, compute capability (and through it the
occupancy limits). *Parameter sets*: Volkov's Table 4.1 for the GTX 680 and GTX 980
(with his Table 6.5 latency fits), and ``data/silicon/model_inputs.csv`` for the other
GPUs, whose latencies are **assumptions** carried over from a GPU of the same generation
(the file says which, per row). *Assumptions* made here, the same for every model:

1. **A memory instruction of the models is 128 B of DRAM traffic.** Volkov's models (and
   the chapter-7 readings of the prior models) describe a kernel of coalesced 128-B
   loads (32 threads × 4 B) and arithmetic instructions; a real kernel's DRAM traffic
   is counted in those units, ``m = DRAM bytes / 128``, and every warp instruction
   that is not a global load or store is an arithmetic one, ``a = I − R``; ``α = a /
   m``. Loads and stores that hit in a cache are thereby dropped from both counts.
   Hong & Kim's model keeps them: its ``#Mem_insts`` is ``R`` per thread.
2. **DRAM writes.** Where the profile has no DRAM write count (nvprof's gpuperfpredict
   data do not), every L2 write sector is taken to reach DRAM (32 B each); where it has
   neither, the global store sectors. The ``assumptions`` column says so per launch.
3. **Warps per SM.** ``n`` = resident blocks per SM (the occupancy calculator, at most
   ``⌈blocks / SMs⌉``) × warps per block; SMs in use = ``min(SMs, blocks)``. The
   achieved occupancy the profiler measured is not used (it depends on the run).
4. **Clock.** The hardware table's processor clock, or one the caller gives
   (``clock_ghz``). The clock an Nsight Compute export reports is elapsed cycles over
   the measured duration, so no model reads it.

From the model's throughput (instructions per cycle per SM) the time is
``(a + m) / (IPC × SMs in use × clock)``. Models that need what a profile cannot give
(Huang & Li: instruction traces and a memory-access trace) are listed in
:data:`NOT_APPLICABLE` with the reason.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import sys
import warnings
from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd

from gpumodels.comparisons import _checks
from gpumodels.comparisons.prior import compare
from gpumodels.comparisons.prior.estimate import ModelValidityWarning
from gpumodels.engines import mwp_cwp
from gpumodels.facts import hardware, modern, occupancy
from gpumodels.facts.param_sets import params as volkov_params
from gpumodels.facts.params import Params, without_latency_fit
from gpumodels.facts.profile import SECTOR_BYTES, KernelProfile, ProfileError
from gpumodels.facts.profile import read as profile_reader
from gpumodels.ground import plotting
from gpumodels.ground.data import data_dir, read_rows
from gpumodels.ground.errors import (
    InputTypeError,
    OutOfRangeError,
    OutsideDomainError,
    UnknownNameError,
)
from gpumodels.ground.validate import (
    check_items,
    check_keys,
    check_real,
    check_text,
    check_type,
)
from gpumodels.papers.volkov import synthetic as vk

BYTES_PER_MEMORY_INSTRUCTION = 128
"""One memory instruction of the models: 32 threads × 4 B (Volkov 2016, §4.1)."""

INPUTS_FILE = "silicon/model_inputs.csv"
FP64_FILE = "silicon/fp64_throughput.csv"
MAX_CLOCK_GHZ = 10.0
"""The largest SM clock (GHz) :func:`predict` and :func:`what_if` take: three times
any GPU clock in ``data/`` (today at most 2.49 GHz, the L40)."""

MAX_WHAT_IF_WARPS = 1024.0
"""The most warps per SM :func:`what_if` takes: sixteen times the most any GPU in
``data/`` keeps resident (64); past the hardware, to show how a model extrapolates."""

VOLKOV_GPUS = {"GTX680": "Kepler", "GTX980": "Maxwell"}
"""GPUs with Volkov's own measured parameter sets (Table 4.1, Table 6.5)."""

COLUMNS = (
    "kernel",
    "gpu",
    "model",
    "predicted_s",
    "measured_s",
    "relative_error",
    "bound",
)
"""The columns of :func:`predict`'s table that the command line prints."""


@dataclass(frozen=True)
class Model:
    """One model as this module runs it: ``key``, a ``label`` for tables, the ``paper``
    and the ``reading`` (how the model meets a real kernel)."""

    key: str
    label: str
    paper: str
    reading: str

    def __post_init__(self):
        for name in ("key", "label", "paper", "reading"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise InputTypeError(
                    f"Model.{name} must be a non-empty string, got {value!r:.40}"
                )


MODELS: dict[str, Model] = {
    m.key: m
    for m in (
        Model(
            "roofline",
            "Roofline (issue, DRAM)",
            "baseline",
            "max(I / (SMs × issue IPC × clock), DRAM bytes / pin bandwidth)",
        ),
        Model(
            "perez_piccoli",
            "Perez & Piccoli P/B",
            "Perez & Piccoli",
            "max(flop / P, DRAM bytes / B) with the theoretical P = 2 · f · cores and "
            "B = pin bandwidth of §4; double-precision flops at the FP64 rate of the "
            "compute capability",
        ),
        Model(
            "hong_kim",
            "Hong & Kim MWP-CWP",
            "Hong & Kim 2009",
            "Eqs. 5-31 with #Comp_insts = a / warps and #Coal_Mem_insts = R / warps "
            "(measured global memory instructions), Load_bytes_per_warp = DRAM bytes "
            "/ R (at least 1 B); Mem_LD = the parameter set's mem_lat, "
            "Issue_cycles = 1 / issue_thru (Table 1's 4 cycles are G80's 32 threads on "
            "8 cores), Departure_del_coal = 4 (Table 6)",
        ),
        Model(
            "volkov_basic",
            "Volkov basic",
            "Volkov 2016 (§4.1)",
            "throughput at n warps per SM and α",
        ),
        Model(
            "volkov_refined",
            "Volkov refined",
            "Volkov 2016 (§6.5)",
            "as basic, with Table 6.5's loaded latency (Volkov's two GPUs only)",
        ),
        Model(
            "sim2012",
            "Sim et al. 2012",
            "Volkov 2016, ch. 7",
            "ch. 7's reading on the α-workload",
        ),
        Model(
            "baghsorkhi2010",
            "Baghsorkhi et al. 2010",
            "Volkov 2016, ch. 7",
            "ch. 7's reading on the α-workload",
        ),
        Model(
            "huang2014_gto",
            "Huang et al. 2014 (GTO)",
            "Volkov 2016, ch. 7",
            "ch. 7's reading on the α-workload",
        ),
        Model(
            "transit2015",
            "Transit (Li et al. 2015)",
            "Li et al. 2015",
            "ch. 7's instantiation on the α-workload (Z = α + 1 instructions per "
            "transaction)",
        ),
        Model(
            "cuda_guide",
            "CUDA guide",
            "Volkov 2016, ch. 7",
            "the guide's latency-hiding rule read as a throughput model",
        ),
    )
}

"""The models :func:`predict` runs, by key, with a label, the paper and how the model
meets a real kernel (its ``reading``)."""

NOT_APPLICABLE = {
    "Huang & Li (Sim 2012 extended)": "needs each warp's instruction trace and the "
    "kernel's memory-access trace (for the queueing model of the DRAM and the "
    "placement of data); a profiler's counters do not give them",
}
"""Models of the book that cannot run on a profile, with the reason."""


INPUT_TABLE = (
    ("blocks, threads per block", "launch configuration", "measured (profile)", ""),
    (
        "registers per thread, shared memory per block",
        "occupancy",
        "measured (profile)",
        "",
    ),
    ("warp instructions I", "all models", "measured (profile)", "inst_executed"),
    (
        "global memory instructions R",
        "a = I − R; Hong & Kim's #Mem_insts",
        "measured (profile)",
        "load + store requests",
    ),
    ("DRAM bytes read", "m = bytes / 128", "measured (profile)", ""),
    (
        "DRAM bytes written",
        "m = bytes / 128",
        "measured, else assumed",
        "L2 write sectors × 32 B where the profile has no DRAM write count",
    ),
    ("flop", "Perez & Piccoli", "measured (profile)", "single + double precision"),
    ("SMs, compute capability, CUDA cores", "all models", "hardware table", ""),
    (
        "clock",
        "all models",
        "hardware table",
        "or given (clock_ghz, --clock); the profile's measured clock is not read",
    ),
    ("pin bandwidth", "roofline, Perez & Piccoli, mem_thru", "hardware table", ""),
    (
        "warps per SM n",
        "latency-bound models",
        "occupancy calculator",
        "resident blocks (≤ ⌈blocks / SMs⌉) × warps per block; not the achieved value",
    ),
    (
        "mem_lat, alu_lat",
        "latency-bound models",
        "Volkov's Table 4.1 (GTX 680, GTX 980), else assumed",
        "data/silicon/model_inputs.csv says per GPU",
    ),
    (
        "mem_thru",
        "throughput limits",
        "Table 4.1, else the pin bandwidth",
        "BW / (SMs × clock × 128 B)",
    ),
    ("Departure_del_coal", "Hong & Kim", "Hong & Kim's Table 6", "4 cycles"),
    (
        "Issue_cycles",
        "Hong & Kim",
        "the parameter set",
        "1 / issue_thru cycles per warp instruction (Table 1's 4 is G80's)",
    ),
    ("duration", "none: the score", "measured (profile)", "never read by a model"),
)
"""The inputs of the models and where each comes from, as ``(input, used by, from,
note)`` rows for a chapter's table."""

GPUPERFPREDICT = "silicon/gpuperfpredict"


def measured_launches(kernels=None, gpus_=None) -> list[KernelProfile]:
    """The committed gpuperfpredict launches (``data/silicon/gpuperfpredict``, nvprof
    measurements by Amarís et al.), optionally only some kernels and GPUs (the names of
    the files, e.g. ``"calculate_temp"``, ``"GTX-680"``). The profile reader checks
    every value; the files' full schemas are checked by the test suite
    (``tests/test_schemas.py``), not on every read."""
    files = _reduced_files()
    if kernels is not None:
        kernels = _checks.names_of("kernels", kernels, sorted({k for _, k, _ in files}))
        if not kernels:
            raise ValueError("kernels must name at least one kernel (None for all)")
    if gpus_ is not None:
        gpus_ = _checks.names_of("gpus_", gpus_, sorted({g for _, _, g in files}))
        if not gpus_:
            raise ValueError("gpus_ must name at least one GPU (None for all)")
    out = []
    for file, kernel, gpu in files:
        if (kernels and kernel not in kernels) or (gpus_ and gpu not in gpus_):
            continue
        out.extend(_launches(file))
    return out


@cache
def _launches(file: str) -> tuple[KernelProfile, ...]:
    """The launches of one reduced file (read once: the profiles are immutable)."""
    out = []
    for q in profile_reader(data_dir() / GPUPERFPREDICT / file):
        line = q.source.rsplit(":", 1)[1]  # sources relative to data/, everywhere
        out.append(q.replace(source=f"data/{GPUPERFPREDICT}/{file}:{line}"))
    return tuple(out)


def _reduced_files() -> list[tuple[str, str, str]]:
    """``(file, kernel, gpu)`` of every reduced file the manifest lists."""
    return [
        (r["file"], *r["file"].removesuffix(".csv").split("-", 1))
        for r in read_rows(f"{GPUPERFPREDICT}/manifest.csv")
        if r["status"] == "reduced"
    ]


def manifest() -> pd.DataFrame:
    """``data/silicon/gpuperfpredict/manifest.csv``: which original files were reduced
    (rows before and after) and which the repository snapshot lacked."""
    return pd.DataFrame(read_rows(f"{GPUPERFPREDICT}/manifest.csv"))


class NotApplicable(ValueError):
    """A model cannot predict this launch; the message says why."""


# ---------------------------------------------------------------- parameter sets


@cache
def _model_inputs() -> dict[str, dict[str, str]]:
    return {r["gpu"]: r for r in read_rows(INPUTS_FILE)}


def gpus() -> list[str]:
    """The GPUs this module has parameter sets for (canonical names): Volkov's two, the
    ones of ``data/silicon/model_inputs.csv`` and the modern GPUs of
    :mod:`gpumodels.facts.modern`."""
    return sorted({*VOLKOV_GPUS, *_model_inputs(), *modern.GPUS})


def gpu_params(gpu: str) -> Params:
    """The parameter set of ``gpu``: Volkov's own for the GTX 680 and GTX 980; one built
    from ``data/silicon/model_inputs.csv`` (latencies assumed, see the file) with
    ``mem_thru`` from the GPU's own pin bandwidth, ``BW / (SMs × clock × 128 B)``; or,
    for a modern GPU, the set of :func:`gpumodels.facts.modern.params` (public
    measurements). Only Volkov's two have a latency fit, so the refined model runs on
    them alone."""
    rec = hardware.get_gpu(gpu)
    if rec.name in VOLKOV_GPUS:
        return volkov_params(VOLKOV_GPUS[rec.name])
    rows = _model_inputs()
    if rec.name not in rows:
        if rec.name in modern.GPUS:
            return volkov_params(rec.name)
        raise UnknownNameError(
            f"gpu must be one with model parameters: {', '.join(gpus())}; "
            f"got {gpu!r} ({rec.name})"
        )
    r = rows[rec.name]
    for need in ("sm_count", "clock_ghz", "pin_bandwidth_gbs"):
        if getattr(rec, need) is None:
            raise UnknownNameError(
                f"the hardware table gives no {need} for {rec.name}; its model "
                "parameters cannot be built"
            )
    return without_latency_fit(
        rec.name,
        mem_lat=float(r["mem_lat"]),
        mem_thru=rec.pin_bandwidth_gbs
        / (rec.sm_count * rec.clock_ghz * BYTES_PER_MEMORY_INSTRUCTION),
        alu_lat=float(r["alu_lat"]),
        alu_thru=float(r["alu_thru"]),
        issue_thru=float(r["issue_thru"]),
        sources={
            "mem_lat": r["mem_lat_method"],
            "mem_thru": "pin bandwidth / (SMs × clock × 128 B), hardware table",
            "alu_lat": r["source"],
            "alu_thru": r["source"],
            "issue_thru": r["source"],
        },
    )


# ---------------------------------------------------------------- the mapping


def _dram_write(p: KernelProfile) -> tuple[float, str]:
    if p.dram_write_bytes is not None:
        return p.dram_write_bytes, ""
    if p.l2_write_transactions is not None:
        return (
            p.l2_write_transactions * SECTOR_BYTES,
            "DRAM writes = L2 write sectors × 32 B (no DRAM write count)",
        )
    if p.global_store_transactions is not None:
        return (
            p.global_store_transactions * SECTOR_BYTES,
            "DRAM writes = global store sectors × 32 B (no DRAM or L2 write count)",
        )
    raise ProfileError(
        f"{p.source}: kernel {p.kernel!r} gives none of dram_write_bytes, "
        "l2_write_transactions and global_store_transactions, one of which every model "
        "needs"
    )


def _require(p: KernelProfile, names: tuple[str, ...]) -> None:
    missing = [k for k in names if getattr(p, k) is None]
    if missing:
        raise ProfileError(
            f"{p.source}: kernel {p.kernel!r} lacks the metric(s) {missing}, which "
            "every model needs"
        )


def resolve_gpu(p: KernelProfile, gpu: str | None = None) -> hardware.GPU:
    """The GPU record of a launch: the profile's GPU where it names one, else ``gpu``;
    an error naming the source if neither does or the name is unknown."""
    if not isinstance(p, KernelProfile):
        raise InputTypeError(f"p must be a KernelProfile, got {type(p).__name__}")
    if gpu is not None and not isinstance(gpu, str):
        raise InputTypeError(f"gpu must be a GPU name (a string), got {gpu!r:.40}")
    name = p.gpu or gpu
    if not name:
        raise ProfileError(
            f"{p.source}: the profile does not name its GPU; give one (--gpu NAME)"
        )
    try:
        return hardware.get_gpu(name)
    except UnknownNameError as e:
        raise UnknownNameError(f"{p.source}: {e}") from None


def inputs(p: KernelProfile, gpu: str | None = None) -> dict:
    """The model inputs of one launch (see the module docstring for each).

    Keys: ``gpu, cc, sm_count, clock_ghz, clock_from, pin_bandwidth_gbs, blocks,
    threads_per_block, warps, warps_per_block, blocks_per_sm, limiter, n, active_sms,
    inst, mem_requests, alu_insts, mem_insts, alpha, dram_read_bytes, dram_write_bytes,
    flop, assumptions``.
    """
    if not isinstance(p, KernelProfile):
        raise InputTypeError(f"p must be a KernelProfile, got {type(p).__name__}")
    _require(
        p,
        (
            "inst_executed",
            "global_load_requests",
            "global_store_requests",
            "dram_read_bytes",
        ),
    )
    rec = resolve_gpu(p, gpu)
    prm = gpu_params(rec.name)
    write, write_note = _dram_write(p)
    regs = p.registers_per_thread or 0
    smem = p.shared_mem_per_block or 0
    try:
        occ = occupancy.occupancy(
            rec.compute_capability, p.threads_per_block, regs, smem
        )
    except ValueError as e:
        raise ProfileError(f"{p.source}: the launch cannot run on {rec.name}: {e}")
    sms = prm.sm_count
    per_sm = min(occ.blocks_per_sm, -(-p.blocks // sms))
    requests = p.global_load_requests + p.global_store_requests
    alu = max(p.inst_executed - requests, 0.0)
    mem = (p.dram_read_bytes + write) / BYTES_PER_MEMORY_INSTRUCTION
    clock, clock_from = prm.clock_ghz, "hardware table"
    notes = [n for n in (write_note,) if n]
    if p.sm_clock_hz is not None:
        notes.append(
            f"the profile's clock ({p.sm_clock_hz / 1e9:.3g} GHz, from the measured "
            f"run) is not used: the hardware table's {clock:.3g} GHz unless one is "
            "given (--clock)"
        )
    if requests > p.inst_executed:
        notes.append("more memory requests than instructions: a = 0")
    flop = (p.flop_sp or 0.0) + (p.flop_dp or 0.0)
    return {
        "gpu": rec.name,
        "cc": rec.compute_capability,
        "sm_count": sms,
        "clock_ghz": clock,
        "clock_from": clock_from,
        "pin_bandwidth_gbs": rec.pin_bandwidth_gbs,
        "cuda_cores": (rec.cuda_cores_per_sm or 0) * sms,
        "blocks": p.blocks,
        "threads_per_block": p.threads_per_block,
        "warps": p.warps,
        "warps_per_block": p.warps_per_block,
        "blocks_per_sm": per_sm,
        "blocks_per_sm_limit": occ.blocks_per_sm,
        "limiter": occ.limiter,
        "n": float(per_sm * p.warps_per_block),
        "active_sms": min(sms, p.blocks),
        "inst": p.inst_executed,
        "mem_requests": requests,
        "alu_insts": alu,
        "mem_insts": mem,
        "alpha": alu / mem if mem > 0 else math.inf,
        "dram_read_bytes": p.dram_read_bytes,
        "dram_write_bytes": write,
        "flop": flop,
        "flop_sp": p.flop_sp or 0.0,
        "flop_dp": p.flop_dp or 0.0,
        "assumptions": "; ".join(notes),
    }


# ---------------------------------------------------------------- the models


def _seconds(x: pd.DataFrame, ipc) -> np.ndarray:
    rate = np.asarray(ipc, float) * x["active_sms"].to_numpy() * x["clock_ghz"] * 1e9
    with np.errstate(divide="ignore", invalid="ignore"):
        return (x["alu_insts"] + x["mem_insts"]).to_numpy() / rate


def _roofline(x: pd.DataFrame, prm: Params):
    issue, dram = _issue_limit(x, prm), _dram_limit(x)
    bound = np.where(issue >= dram, "issue", "DRAM")
    return np.maximum(issue, dram), bound, ""


@cache
def _fp64() -> dict[str, int]:
    return {r["cc"]: int(r["fp64_results_per_clock"]) for r in read_rows(FP64_FILE)}


def fp64_per_clock(cc: str) -> int:
    """64-bit floating-point results per clock per SM of compute capability ``cc``
    (``data/silicon/fp64_throughput.csv``, from NVIDIA's CUDA programming guide)."""
    check_text("cc", cc)
    table = _fp64()
    if cc not in table:
        raise UnknownNameError(
            f"cc must be one of {', '.join(sorted(table))} (FP64 throughput), "
            f"got {cc!r}"
        )
    return table[cc]


def _perez_piccoli(x: pd.DataFrame, prm: Params):
    peak_sp = 2.0 * x["clock_ghz"] * 1e9 * x["cuda_cores"]
    if (peak_sp <= 0).any():
        raise NotApplicable("the hardware table gives no CUDA-core count")
    try:
        lanes = x["cc"].map(fp64_per_clock)
    except UnknownNameError as e:
        raise NotApplicable(str(e)) from None
    peak_dp = 2.0 * x["clock_ghz"] * 1e9 * x["sm_count"] * lanes
    comp = x["flop_sp"] / peak_sp + x["flop_dp"] / peak_dp
    dram = (x["dram_read_bytes"] + x["dram_write_bytes"]) / (
        x["pin_bandwidth_gbs"] * 1e9
    )
    bound = np.where(comp >= dram, "P (flop)", "B (DRAM)")
    return np.maximum(comp, dram).to_numpy(), bound, ""


def _hong_kim(x: pd.DataFrame, prm: Params, issue_cycles: float | None = None):
    """Hong & Kim's Eqs. 5-31 per launch. ``issue_cycles`` (``Issue_cycles``, Table 1)
    defaults to ``1 / issue_thru``: the SM's issue rate, the reading that fits a GPU
    whose SM issues several warp instructions per cycle. Table 1's 4 cycles are G80's
    32 threads on 8 cores; and in Eq. 22's ``Comp_cycles``, one warp's own instructions,
    a single warp issues at most one per cycle, which ``issue_cycles=1`` reads (see
    :func:`hong_kim_issue_cycles`)."""
    dep = mwp_cwp.machine("GTX280").departure_del_coal
    ic = 1.0 / prm.issue_thru if issue_cycles is None else issue_cycles
    out, bound, notes = [], [], []
    machines: dict[tuple, mwp_cwp.Machine] = {}  # one per GPU and clock, not per launch
    for r in x.itertuples():
        key = (r.gpu, r.cc, r.clock_ghz, r.pin_bandwidth_gbs, r.sm_count)
        if key not in machines:
            machines[key] = mwp_cwp.Machine(
                gpu=r.gpu,
                cc=r.cc,
                mem_ld=prm.mem_lat,
                departure_del_coal=dep,
                issue_cycles=ic,
                freq_ghz=r.clock_ghz,
                mem_bandwidth_gbs=r.pin_bandwidth_gbs,
                sm_count=r.sm_count,
            )
        mach = machines[key]
        per_warp = r.mem_requests / r.warps
        dram = r.dram_read_bytes + r.dram_write_bytes
        given = getattr(r, "n_given", False)
        try:
            if 0 < per_warp < 1:
                raise NotApplicable(
                    f"fewer than one global memory instruction per warp "
                    f"({per_warp:.3g}); Eq. 2 needs #Mem_insts = 0 or ≥ 1"
                )
            res = mwp_cwp.predict(
                mwp_cwp.Inputs(
                    machine=mach,
                    threads_per_block=int(r.threads_per_block),
                    blocks=int(r.blocks),
                    comp_insts=r.alu_insts / r.warps,
                    coal_mem_insts=per_warp,
                    load_bytes_per_warp=max(dram / r.mem_requests, 1.0)
                    if r.mem_requests
                    else 128.0,
                    registers_per_thread=int(r.registers_per_thread),
                    shared_mem_per_block=int(r.shared_mem_per_block),
                    active_blocks_per_sm=max(1, round(r.n / r.warps_per_block))
                    if given
                    else None,
                )
            )
        except (NotApplicable, OutsideDomainError) as e:
            out.append(math.nan)
            bound.append("")
            notes.append(str(e))
            continue
        except ValueError as e:  # a what-if beyond the launch's resident blocks
            if not given:
                raise

            out.append(math.nan)
            bound.append("")
            notes.append(str(e))
            continue
        out.append(res.exec_cycles_with_synch / (r.clock_ghz * 1e9))
        bound.append(f"Eq. {res.equation}")
        notes.append("")
    return np.array(out), np.array(bound), np.array(notes)


def _volkov_regime(prm: Params, n, alpha, ipc) -> np.ndarray:
    """``"latency"`` where the warps in flight, not a throughput limit, set the
    estimate (§4.1's latency bound), else the binding throughput limit."""
    full = compare.evaluate("volkov_basic", prm, np.full_like(n, 1e9), alpha).ipc
    limit = np.asarray(vk.binding_limit(prm, alpha), dtype=object)
    with np.errstate(invalid="ignore"):
        latency = np.asarray(ipc) < np.asarray(full) * (1 - 1e-9)
    return np.where(latency, "latency", limit + " throughput")


def _alpha_model(key: str):
    def run(x: pd.DataFrame, prm: Params):
        alpha = x["alpha"].to_numpy()
        n = x["n"].to_numpy()
        if key == "cuda_guide" and (alpha <= 0).any():
            raise NotApplicable("the CUDA guide's rule divides by α; α = 0 here")
        # np.errstate: a launch with almost no DRAM traffic has a huge α, and the
        # unused branch of a model's np.where may overflow; a non-finite result is
        # turned into NaN with a note by _run
        with warnings.catch_warnings(), np.errstate(over="ignore", invalid="ignore"):
            warnings.simplefilter("ignore", ModelValidityWarning)
            try:
                est = compare.evaluate(key, prm, n, alpha)
            except ValueError as e:
                raise NotApplicable(str(e)) from None
        flags = np.where(est.flags == "", "", "impossible output: " + est.flags)
        regime = est.regime
        if key.startswith("volkov"):
            regime = _volkov_regime(prm, n, alpha, est.ipc)
        return _seconds(x, est.ipc), regime, flags

    return run


_RUNNERS = {
    "roofline": _roofline,
    "perez_piccoli": _perez_piccoli,
    "hong_kim": _hong_kim,
    **{
        k: _alpha_model(k)
        for k in MODELS
        if k not in ("roofline", "perez_piccoli", "hong_kim")
    },
}


# ---------------------------------------------------------------- predictions


def _frame(profiles, gpu):
    rows = []
    for p in profiles:
        x = inputs(p, gpu)
        x.update(
            kernel=p.kernel,
            source=p.source,
            measured_s=p.duration_s,
            registers_per_thread=p.registers_per_thread or 0,
            shared_mem_per_block=p.shared_mem_per_block or 0,
        )
        rows.append(x)
    return pd.DataFrame(rows)


def _check_models(models) -> tuple[str, ...]:
    if models is None:
        return tuple(MODELS)
    if isinstance(models, str):
        models = (models,)
    models = tuple(
        check_items(
            "models",
            models,
            str,
            "the models to run (one key, a list of keys, or None for all)",
        )
    )
    if not models:
        raise OutOfRangeError("models must name at least one model (None for all)")
    bad = [m for m in models if m not in MODELS]
    if bad:
        raise UnknownNameError(
            f"models must be among {', '.join(MODELS)}; got {', '.join(map(repr, bad))}"
        )
    return tuple(models)


def _run(x: pd.DataFrame, keys, params_of) -> pd.DataFrame:
    """Run the models ``keys`` on the launches ``x`` (rows of :func:`inputs`), with
    ``params_of(gpu)`` giving each GPU's parameter set."""
    parts = []
    for g, xg in x.groupby("gpu", sort=False):
        prm = params_of(g)
        for key in keys:
            try:
                t, bound, note = _RUNNERS[key](xg, prm)
            except NotApplicable as e:
                t, bound, note = np.full(len(xg), math.nan), "", str(e)
            t = np.array(t, dtype=float)
            bad = ~np.isfinite(t) | (t <= 0)
            note = np.broadcast_to(np.asarray(note, dtype=object), t.shape).copy()
            note[bad & (note == "")] = "no finite positive time"
            t[bad] = math.nan
            parts.append(
                pd.DataFrame(
                    {
                        "kernel": xg["kernel"].to_numpy(),
                        "gpu": g,
                        "model": key,
                        "predicted_s": t,
                        "measured_s": xg["measured_s"].to_numpy(dtype=float),
                        "bound": np.broadcast_to(
                            np.asarray(bound, dtype=object), t.shape
                        ),
                        "source": xg["source"].to_numpy(),
                        "alpha": xg["alpha"].to_numpy(),
                        "n": xg["n"].to_numpy(),
                        "active_sms": xg["active_sms"].to_numpy(),
                        "issue_limit_s": _issue_limit(xg, prm),
                        "dram_limit_s": _dram_limit(xg),
                        "fp64_limit_s": _fp64_limit(xg),
                        "note": note,
                        "assumptions": xg["assumptions"].to_numpy(),
                    }
                )
            )
    out = pd.concat(parts, ignore_index=True)
    out["relative_error"] = out["predicted_s"] / out["measured_s"] - 1.0
    rest = [c for c in out.columns if c not in COLUMNS]
    return out[list(COLUMNS) + rest]


def _profiles(profiles, name: str = "profiles") -> list[KernelProfile]:
    if isinstance(profiles, KernelProfile):
        profiles = [profiles]
    if isinstance(profiles, (str, bytes)) or not hasattr(profiles, "__iter__"):
        raise InputTypeError(
            f"{name} must be a KernelProfile or a list of them, got {profiles!r:.60}"
        )
    profiles = list(profiles)
    if not profiles:
        raise ValueError(f"{name} must hold at least one KernelProfile, got none")
    return profiles


def predict(
    profiles, gpu: str | None = None, models=None, *, clock_ghz: float | None = None
) -> pd.DataFrame:
    """Every model's predicted time for every launch: one row per launch × model.

    Columns: :data:`COLUMNS` (``relative_error`` = predicted / measured − 1, NaN where
    the profile has no duration), then ``source, alpha, n, active_sms``,
    ``issue_limit_s`` and ``dram_limit_s`` (the launch's instructions at the peak issue
    rate of the SMs in use and its DRAM bytes at the pin bandwidth: the roofline's two
    terms), ``note`` and ``assumptions``. A model that cannot run on a launch gives NaN
    with the reason in ``note``. ``gpu`` names the GPU for launches whose profile does
    not; ``clock_ghz`` sets the SM clock the launches ran at (e.g. Nsight Compute's
    default, the base clock) in place of the hardware table's, as :func:`what_if`
    does.
    """
    keys = _check_models(models)
    x = _frame(_profiles(profiles), gpu)
    if clock_ghz is None:
        return _run(x, keys, gpu_params)
    clock = check_real("clock_ghz", clock_ghz, 0.0, MAX_CLOCK_GHZ, lo_open=True)
    x["clock_ghz"] = clock
    out = _run(x, keys, lambda g: _changed(gpu_params(g), clock, 1.0))
    return _fixed_notes(out, "clock_ghz")


def _changed(base: Params, clock: float, bandwidth_scale: float) -> Params:
    """``base`` at another SM clock and bandwidth: latencies stay in cycles,
    ``mem_thru`` (loads per cycle per SM) follows bandwidth / clock and the refined
    model's latency terms ``c`` (GB/s) scale with the bandwidth."""
    s = bandwidth_scale
    return base.replace(
        clock_ghz=clock,
        mem_thru=base.mem_thru * s * base.clock_ghz / clock,
        c=base.c * s,
        latency_terms=tuple((b, c * s) for b, c in base.latency_terms),
    )


def _fixed_notes(out: pd.DataFrame, what: str) -> pd.DataFrame:
    """Say on the FIXED_BANDWIDTH rows that the change is not followed fully, after any
    note the row already has (why a model could not run stays visible)."""
    fixed = out["model"].isin(FIXED_BANDWIDTH)
    said = (
        f"does not follow {what} fully: the model reads bandwidths of the GPU's own "
        "tables"
    )
    before = out.loc[fixed, "note"].fillna("").astype(str)
    out.loc[fixed, "note"] = [f"{b}; {said}" if b else said for b in before]
    return out


def what_if(
    p: KernelProfile,
    gpu: str | None = None,
    *,
    clock_ghz: float | None = None,
    bandwidth_gbs: float | None = None,
    warps_per_sm: float | None = None,
    models=None,
) -> pd.DataFrame:
    """:func:`predict` for one launch on a changed GPU: another SM clock (GHz), pin
    bandwidth (GB/s) or number of resident warps per SM (the occupancy).

    Latencies stay in cycles (a choice: a DRAM latency fixed in nanoseconds would grow
    in cycles with the clock); ``mem_thru`` (loads per cycle per SM) follows bandwidth /
    clock, and the refined model's latency terms ``c`` (GB/s) scale with the
    bandwidth. ``warps_per_sm`` replaces ``n`` (it may exceed what the launch can
    have resident: a what-if, not a launch). The models of :data:`FIXED_BANDWIDTH`
    read bandwidths from the GPU's own tables; when the clock or the bandwidth changes
    their rows say so.
    """
    keys = _check_models(models)
    x = _frame(_profiles(p, "p")[:1], gpu)
    base = gpu_params(x["gpu"].iloc[0])
    if clock_ghz is None:
        clock = base.clock_ghz
    else:
        clock = check_real("clock_ghz", clock_ghz, 0.0, MAX_CLOCK_GHZ, lo_open=True)
    bw_old = float(x["pin_bandwidth_gbs"].iloc[0])
    if bandwidth_gbs is None:
        bw = bw_old
    else:
        bw = check_real("bandwidth_gbs", bandwidth_gbs, 0.0, lo_open=True)
    x["clock_ghz"] = clock
    x["pin_bandwidth_gbs"] = bw
    if warps_per_sm is not None:
        x["n"] = check_real(
            "warps_per_sm", warps_per_sm, 0.0, MAX_WHAT_IF_WARPS, lo_open=True
        )
    x["n_given"] = warps_per_sm is not None
    changed = _changed(base, clock, bw / bw_old)
    out = _run(x, keys, lambda _g: changed)
    moved = [
        name
        for name, new, old in (
            ("clock_ghz", clock, base.clock_ghz),
            ("bandwidth_gbs", bw, bw_old),
        )
        if new != old
    ]
    return _fixed_notes(out, " and ".join(moved)) if moved else out


FIXED_BANDWIDTH = ("sim2012", "baghsorkhi2010", "huang2014_gto")
"""Models whose bandwidth comes from tables looked up by the GPU's name (Volkov's
Table 6.4 peak, the hardware table's pin bandwidth), so that :func:`what_if` cannot
change it; their rows say so."""


def _issue_limit(x: pd.DataFrame, prm: Params) -> np.ndarray:
    """The launch's warp instructions at the peak issue rate of the SMs it uses
    (``min(SMs, blocks)``), s."""
    rate = x["active_sms"] * prm.issue_thru * x["clock_ghz"] * 1e9
    return (x["inst"] / rate).to_numpy()


def _fp64_limit(x: pd.DataFrame) -> np.ndarray:
    """The launch's double-precision flops at the FP64 peak of the GPU, s (NaN where
    the compute capability's FP64 rate is not in the table)."""
    lanes = x["cc"].map(lambda cc: _fp64().get(cc, math.nan))
    return (
        x["flop_dp"] / (2.0 * x["clock_ghz"] * 1e9 * x["sm_count"] * lanes)
    ).to_numpy()


def _dram_limit(x: pd.DataFrame) -> np.ndarray:
    """The launch's DRAM bytes at the pin bandwidth, s."""
    by = x["dram_read_bytes"] + x["dram_write_bytes"]
    return (by / (x["pin_bandwidth_gbs"] * 1e9)).to_numpy()


def score(frame: pd.DataFrame, by=("model", "gpu")) -> pd.DataFrame:
    """Error statistics of :func:`predict`'s rows that have a prediction and a measured
    time, grouped by ``by``: ``launches``, ``median_abs_error``, ``p90_abs_error``,
    ``within_25``, the share of launches within 25 %, ``median_ratio`` (predicted /
    measured; below 1 means the model is optimistic), ``not_predicted`` and
    ``impossible`` (predictions the model itself flags as above a hardware peak; they
    are scored like the others)."""
    frame = _checked_frame(frame, ("predicted_s", "measured_s", "relative_error"))
    by = list(_checks.names_of("by", by, list(frame.columns)))
    if not by:
        raise ValueError("by must name at least one column of frame, got none")
    f = frame.assign(
        abs_error=frame["relative_error"].abs(),
        ratio=frame["predicted_s"] / frame["measured_s"],
    )
    has = f["predicted_s"].notna() & f["measured_s"].notna()
    g = f[has].groupby(by, sort=False)
    out = pd.DataFrame(
        {
            "launches": g.size(),
            "median_abs_error": g["abs_error"].median(),
            "p90_abs_error": g["abs_error"].quantile(0.9),
            "within_25": g["abs_error"].apply(lambda s: float((s <= 0.25).mean())),
            "median_ratio": g["ratio"].median(),
        }
    )
    missing = f[~has & f["measured_s"].notna()].groupby(by, sort=False).size()
    out["not_predicted"] = missing.reindex(out.index).fillna(0).astype(int)
    flagged = f[
        has
        & f.get("note", pd.Series("", index=f.index))
        .astype(str)
        .str.startswith("impossible output")
    ]
    out["impossible"] = (
        flagged.groupby(by, sort=False).size().reindex(out.index).fillna(0).astype(int)
    )
    return out.reset_index()


__all__ = [
    "COLUMNS",
    "DURATION_BINS",
    "FIXED_BANDWIDTH",
    "FP64_FILE",
    "INPUT_TABLE",
    "MODELS",
    "NOT_APPLICABLE",
    "PEER_GPUS",
    "USAGE",
    "Model",
    "NotApplicable",
    "command_output",
    "fp64_per_clock",
    "gpu_params",
    "gpus",
    "hong_kim_issue_cycles",
    "implied_clocks",
    "inputs",
    "main",
    "manifest",
    "mape_like_peers",
    "measured_launches",
    "peers",
    "plot_ratio_by_duration",
    "plot_ratios",
    "predict",
    "predict_files",
    "ratio_by_duration",
    "ratios",
    "resolve_gpu",
    "score",
    "utilisation",
    "what_if",
]


def hong_kim_issue_cycles(
    profiles, values=(None, 1.0, 4.0), gpu=None, frame=None
) -> pd.DataFrame:
    """How Hong & Kim's predictions depend on ``Issue_cycles``: :func:`score` of the
    model (all launches together) for each value of ``values`` (``None``: the default,
    ``1 / issue_thru``; 1: a warp issues at most one instruction per cycle; 4: Table
    1's G80 value), with a column ``issue_cycles`` saying which. ``frame``, the result
    of :func:`predict` on the same profiles, gives the default's rows without running
    the model again."""
    values = check_items(
        "values",
        values,
        context="Issue_cycles values (None for the default)",
        allow_empty=False,
    )
    for i, v in enumerate(values):
        if v is not None:
            check_real(f"values[{i}]", v, 0.0, lo_open=True, context="issue_cycles")
    if frame is not None:
        frame = _checked_frame(
            frame, ("model", "predicted_s", "measured_s", "relative_error")
        )
    x = _frame(_profiles(profiles), gpu)
    rows = []
    for v in values:
        if v is None and frame is not None:
            f = frame[frame["model"] == "hong_kim"]
            rows.append(score(f, by=("model",)).assign(issue_cycles="1 / issue_thru"))
            continue
        parts = []
        for g, xg in x.groupby("gpu", sort=False):
            t, _, _ = _hong_kim(xg, gpu_params(g), issue_cycles=v)
            parts.append(
                pd.DataFrame(
                    {
                        "model": "hong_kim",
                        "predicted_s": t,
                        "measured_s": xg["measured_s"].to_numpy(dtype=float),
                    }
                )
            )
        f = pd.concat(parts, ignore_index=True)
        f["relative_error"] = f["predicted_s"] / f["measured_s"] - 1
        sc = score(f, by=("model",)).assign(
            issue_cycles="1 / issue_thru" if v is None else f"{v:g}"
        )
        rows.append(sc)
    return pd.concat(rows, ignore_index=True)


def utilisation(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`ratios` with ``issue`` and ``dram``: the launch's
    instructions at the peak issue rate of the SMs it uses, and its DRAM bytes at the
    pin bandwidth, each divided by the measured time. They need the measured time, so
    they diagnose; no model reads them."""
    frame = _checked_frame(frame, ("issue_limit_s", "dram_limit_s", "fp64_limit_s"))
    r = ratios(frame)
    return r.assign(
        issue=r["issue_limit_s"] / r["measured_s"],
        dram=r["dram_limit_s"] / r["measured_s"],
        fp64=r["fp64_limit_s"] / r["measured_s"],
    )


def implied_clocks(min_duration_s: float = 1e-3) -> pd.DataFrame:
    """The SM clock each GPU of the gpuperfpredict data ran at, as its own counters
    imply: ``elapsed_cycles_sm`` (summed over the SMs) / (SMs × duration), median over
    the launches longer than ``min_duration_s``, beside the hardware table's clock the
    models use. A diagnosis from the measured run; no model reads it."""
    min_duration_s = check_real("min_duration_s", min_duration_s, 0.0)
    cols = ["gpu_name", "duration", "elapsed_cycles_sm"]
    rows = [  # the files' schemas are checked by the test suite
        pd.read_csv(data_dir() / GPUPERFPREDICT / file, usecols=cols)
        for file, _, _ in _reduced_files()
    ]
    d = pd.concat(rows, ignore_index=True)
    d = d[d["duration"] > min_duration_s]
    if d.empty:
        raise ValueError(
            f"min_duration_s must be below the longest launch's duration, got "
            f"{min_duration_s!r} s: no launch is longer"
        )
    out = []
    for name, g in d.groupby("gpu_name"):
        rec = hardware.get_gpu(name)
        implied = g["elapsed_cycles_sm"] / (rec.sm_count * g["duration"]) / 1e9
        out.append(
            {
                "gpu": rec.name,
                "table_clock_ghz": gpu_params(rec.name).clock_ghz,
                "implied_clock_ghz": float(implied.median()),
                "launches": len(g),
            }
        )
    t = pd.DataFrame(out)
    t["implied / table"] = t["implied_clock_ghz"] / t["table_clock_ghz"]
    return t


# ---------------------------------------------------------------- the peers

PEERS = "silicon/gpuperfpredict_peers.csv"
PEER_GPUS = ("Tesla-K40", "Tesla-K20", "Titan", "GTX-980", "Tesla-P100")
"""The target GPUs over which the thesis draft of Amarís averages its per-GPU MAPE
(Table ``tab:MAPE:Rodinia``; see ``data/silicon/gpuperfpredict_peers.md``)."""


def peers(statistic: str = "mean of per-GPU MAPE") -> pd.DataFrame:
    """The published accuracy figures of the gpuperfpredict authors on their Rodinia
    data, one row per printed number of ``statistic`` (``data/silicon/
    gpuperfpredict_peers.csv``: paper, model, kernel, gpu, value, unit, source,
    note)."""
    d = pd.DataFrame(read_rows(PEERS))
    known = sorted(d["statistic"].unique())
    if statistic not in known:
        raise UnknownNameError(f"statistic must be one of {known}, got {statistic!r}")
    d = d[d["statistic"] == statistic].copy()
    d["value"] = d["value"].astype(float)
    return d.reset_index(drop=True)


def mape_like_peers(frame: pd.DataFrame, gpus_=PEER_GPUS) -> pd.DataFrame:
    """Our models' error in the peers' statistic: per kernel and model, the mean over
    the GPUs ``gpus_`` (the dataset's names) of the MAPE (%) over that GPU's launches.
    Rows: kernels; columns: models."""
    names = {hardware.get_gpu(g).name for g in _checks.names_of("gpus_", gpus_)}
    frame = _checked_frame(frame, ("kernel", "model", "gpu"))
    r = ratios(frame)
    r = r[r["gpu"].isin(names)]
    ape = (r["ratio"] - 1).abs() * 100
    per_gpu = ape.groupby([r["kernel"], r["model"], r["gpu"]]).mean()
    return per_gpu.groupby(["kernel", "model"]).mean().unstack("model")


# ---------------------------------------------------------------- figures


def _checked_frame(frame, columns) -> pd.DataFrame:
    """``frame`` if it is a DataFrame with ``columns`` (a table of :func:`predict`);
    ``InputTypeError`` or ``DataError`` naming ``frame`` otherwise."""
    check_type("frame", frame, pd.DataFrame, "a table of predict")
    return check_keys("frame", frame, columns, "a table of predict")


def ratios(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`predict` with a prediction and a measured time, with
    ``ratio`` = predicted / measured."""
    frame = _checked_frame(frame, ("predicted_s", "measured_s"))
    ok = frame["predicted_s"].notna() & frame["measured_s"].notna()
    return frame[ok].assign(ratio=frame["predicted_s"] / frame["measured_s"])


def plot_ratios(ax, frame: pd.DataFrame, models=None) -> None:
    """Box plot of predicted / measured per model (log axis; whiskers at the 5th and
    95th percentiles), with the band within 25 % shaded."""
    keys = _check_models(models)
    r = ratios(frame)
    data = [r.loc[r["model"] == k, "ratio"].to_numpy() for k in keys]
    keep = [i for i, d in enumerate(data) if len(d)]
    ax.axvspan(0.75, 1.25, color="0.9", zorder=0, label="within 25 %")
    ax.boxplot(
        [data[i] for i in keep],
        orientation="horizontal",
        whis=(5, 95),
        showfliers=False,
        tick_labels=[MODELS[keys[i]].label for i in keep],
    )
    ax.axvline(1.0, color="0.3", lw=0.8)
    ax.set_xscale("log")
    ax.invert_yaxis()
    plotting.label(
        ax, "predicted / measured time", "ratio", "model", plotting.CATEGORICAL
    )
    ax.legend(loc="lower left")


DURATION_BINS = (0.0, 1e-5, 3e-5, 1e-4, 1e-3, np.inf)
"""Measured-duration bins (s) of :func:`ratio_by_duration`."""


def ratio_by_duration(frame: pd.DataFrame) -> pd.DataFrame:
    """Median predicted / measured per model in :data:`DURATION_BINS` of the measured
    duration, with the launches per bin."""
    frame = _checked_frame(frame, ("model",))
    r = ratios(frame)
    r = r.assign(bin=pd.cut(r["measured_s"], DURATION_BINS, right=True))
    g = r.groupby(["bin", "model"], observed=True)["ratio"]
    out = g.median().unstack("model")
    out.insert(
        0, "launches", r[r["model"] == "roofline"].groupby("bin", observed=True).size()
    )
    return out


def plot_ratio_by_duration(ax, frame: pd.DataFrame, models) -> None:
    """Median predicted / measured against the measured duration, one line per model
    (:func:`ratio_by_duration`)."""
    t = ratio_by_duration(frame)
    mids = [math.sqrt(max(b.left, 3e-6) * min(b.right, 0.1)) for b in t.index]
    for i, k in enumerate(_check_models(models)):
        if k in t:
            ax.plot(
                mids,
                t[k].to_numpy(),
                marker="o",
                label=MODELS[k].label,
                color=plotting.PALETTE[i % len(plotting.PALETTE)],
            )
    ax.axhline(1.0, color="0.3", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    plotting.label(
        ax,
        "measured duration (bin centre)",
        "s",
        "median predicted / measured",
        "ratio",
    )
    ax.legend()


# ---------------------------------------------------------------- command line

USAGE = """python -m gpumodels predict FILE... [--gpu NAME] [--models M,...]
                                [--clock GHZ] [--csv]

Every model's predicted time for every kernel launch in the profile FILEs (Nsight
Compute CSV, nvprof CSV in the gpuperfpredict layout, or a hand-written YAML/CSV).
The GPU is the one the file names, else --gpu. --clock gives the SM clock the launches
ran at (Nsight Compute locks it to the base clock by default), else the hardware
table's. With --csv the table is written as CSV with the columns kernel, gpu, model,
predicted_s, measured_s, relative_error, bound."""
"""The command line's synopsis (``python -m gpumodels --help`` prints it)."""


def predict_files(
    paths, gpu: str | None = None, models=None, *, clock_ghz: float | None = None
) -> pd.DataFrame:
    """:func:`predict` on every launch of the profile files ``paths``
    (:func:`gpumodels.facts.profile.read` reads each)."""
    if isinstance(paths, (str, bytes)) or not hasattr(paths, "__iter__"):
        paths = [paths]
    paths = list(paths)
    if not paths:
        raise ValueError(f"paths must name at least one profile file, got {paths!r}")
    profiles = [p for path in paths for p in profile_reader(path, gpu=gpu)]
    return predict(profiles, gpu=gpu, models=models, clock_ghz=clock_ghz)


def _format(frame: pd.DataFrame) -> str:
    """The printed table: :data:`COLUMNS`, plus ``note`` where a model gave none."""
    cols = list(COLUMNS) + (["note"] if (frame["note"] != "").any() else [])
    shown = frame[cols].copy()
    for c in ("predicted_s", "measured_s"):
        shown[c] = shown[c].map(lambda v: "" if pd.isna(v) else f"{v:.3e}")
    shown["relative_error"] = shown["relative_error"].map(
        lambda v: "" if pd.isna(v) else f"{v:+.1%}"
    )
    return shown.to_string(index=False)


def command_output(argv, cwd=None) -> tuple[int, str]:
    """Run the command line (:func:`main`) with the arguments ``argv`` in the folder
    ``cwd``; return its exit status and everything it printed (a chapter shows the
    command's output this way)."""
    out = io.StringIO()
    with (
        contextlib.chdir(cwd or "."),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(out),
    ):
        status = main(list(argv))
    return status, out.getvalue()


def main(argv=None) -> int:
    """The command line (``USAGE`` gives its synopsis); returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m gpumodels", usage=USAGE)
    parser.add_argument("command", choices=["predict"])
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--gpu", default=None)
    parser.add_argument("--models", default=None, help="comma-separated model keys")
    parser.add_argument(
        "--clock", type=float, default=None, help="SM clock of the run, GHz"
    )
    parser.add_argument("--csv", action="store_true")
    args = parser.parse_args(argv)
    models = args.models.split(",") if args.models else None
    try:
        frame = predict_files(
            args.files, gpu=args.gpu, models=models, clock_ghz=args.clock
        )
    except (ValueError, KeyError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        if args.csv:
            frame[list(COLUMNS)].to_csv(sys.stdout, index=False)
        else:
            print(_format(frame))
    except BrokenPipeError:  # the reader of the pipe (e.g. head) stopped early
        sys.stderr.close()
    return 0
