"""A profiled kernel launch, read from a profiler's export or written by hand.

:class:`KernelProfile` holds what the models of the book can use about one launch: the
launch configuration, warp instructions (in total and by class), memory requests,
transactions and bytes at each level, cache hit rates, achieved occupancy, the SM clock
and the measured duration. Every field has a unit (:data:`UNITS`); a field the source
does not give is ``None`` and is listed by :attr:`KernelProfile.missing` -- nothing is
guessed here. How a model fills a missing input (if it can) is the business of the
mapping in :mod:`gpumodels.comparisons.silicon`, which says so in its output.

Three readers, chosen by :func:`read` from the file's content:

- **nvprof**, in the layout of the gpuperfpredict datasets (Amarís et al.; one launch
  per row, the metric and event names of nvprof as columns with dots for the spaces and
  brackets, e.g. ``fp_instructions.single.``): :func:`read_nvprof_csv`.
- **Nsight Compute**, ``ncu --csv --page raw`` (one launch per row, metric names in the
  first row and their units in the second) and the default ``ncu --csv`` page (one row
  per metric with ``Metric Name``, ``Metric Unit``, ``Metric Value``):
  :func:`read_ncu_csv`. No public raw export with these metrics was found to test
  against, so the reader is built from NVIDIA's documented metric names (Nsight Compute
  *Profiling Guide*, "Metrics Reference" and the nvprof-to-ncu metric comparison table)
  and the documented CSV layout; :data:`NCU_METRICS` lists what it reads.
- **by hand**, a YAML file (one mapping, or a list under ``launches:``) or a CSV whose
  columns are the field names of :class:`KernelProfile`: :func:`read_manual`.

Every error names the file, the line and the field or metric.

>>> p = KernelProfile(kernel="saxpy", source="example", grid=(4096, 1, 1),
...                   block=(256, 1, 1), inst_executed=1.5e6, dram_read_bytes=8.4e6)
>>> p.blocks, p.threads_per_block, p.warps
(4096, 256, 32768)
>>> "duration_s" in p.missing, p.dram_bytes is None
(True, True)
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType

import yaml

from gpumodels.ground.errors import DataError, InputTypeError, OutOfRangeError
from gpumodels.ground.validate import check_items, check_text, to_float

WARP = 32
SECTOR_BYTES = 32
"""Bytes of one memory transaction (sector) counted by nvprof's ``*_transactions`` and
Nsight Compute's ``*sectors*`` metrics."""

UNITS: Mapping[str, str] = MappingProxyType(
    {
        "grid": "blocks (x, y, z)",
        "block": "threads (x, y, z)",
        "registers_per_thread": "registers",
        "shared_mem_per_block": "bytes",
        "duration_s": "s (measured)",
        "inst_executed": "warp instructions",
        "inst_issued": "warp instructions",
        "thread_inst_fp32": "thread instructions",
        "thread_inst_fp64": "thread instructions",
        "thread_inst_int": "thread instructions",
        "thread_inst_control": "thread instructions",
        "thread_inst_ldst": "thread instructions",
        "thread_inst_misc": "thread instructions",
        "flop_sp": "flop",
        "flop_dp": "flop",
        "global_load_requests": "warp instructions",
        "global_store_requests": "warp instructions",
        "global_load_transactions": "32-B sectors",
        "global_store_transactions": "32-B sectors",
        "shared_load_requests": "warp instructions",
        "shared_store_requests": "warp instructions",
        "l2_read_transactions": "32-B sectors",
        "l2_write_transactions": "32-B sectors",
        "dram_read_bytes": "bytes",
        "dram_write_bytes": "bytes",
        "l1_hit_rate": "fraction",
        "l2_hit_rate": "fraction",
        "achieved_occupancy": "fraction of the SM's warp slots",
        "sm_clock_hz": "Hz (measured)",
    }
)
"""The unit of every measured field of :class:`KernelProfile`."""

COUNTS = tuple(
    k
    for k, u in UNITS.items()
    if u.endswith(("instructions", "sectors", "flop", "bytes"))
    and k != "shared_mem_per_block"
)
FRACTIONS = ("l1_hit_rate", "l2_hit_rate", "achieved_occupancy")
MAX_THREADS_PER_BLOCK = 1024
MAX_GRID = 2**31 - 1


class ProfileError(DataError):
    """A profile that cannot be read: the message names the file, the line and the field
    or metric (a :class:`~gpumodels.ground.errors.DataError`, so a ``ValueError``)."""


def _dim3(name: str, value, where: str) -> tuple[int, int, int]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise InputTypeError(
            f"{where}: {name} must be three positive integers (x, y, z), got {value!r}"
        )
    vals = list(value) + [1] * (3 - len(value))
    if len(vals) != 3:
        raise ProfileError(
            f"{where}: {name} must have at most three sizes (x, y, z), got {value!r}"
        )
    out = []
    for v in vals:
        f = (
            to_float(v)
            if isinstance(v, (int, float)) and not isinstance(v, bool)
            else None
        )
        if f is None or not math.isfinite(f) or f != int(f) or not 1 <= f <= MAX_GRID:
            raise ProfileError(
                f"{where}: {name} must be integers in [1, {MAX_GRID}], got {value!r}"
            )
        out.append(int(f))
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class KernelProfile:
    """One kernel launch as a profiler (or a person) describes it.

    Units are in :data:`UNITS`; ``None`` means the source does not give the value.
    ``metrics`` says, for each field given, which metric or column of the source it came
    from (and any unit conversion); ``source`` is ``"file:line"``.

    Attributes
    ----------
    kernel, source : str
        The kernel's name and where this launch was read.
    gpu : str or None
        The GPU as the source names it (resolved against the hardware tables by the
        models, not here).
    grid, block : tuple
        Blocks per grid and threads per block, three integers (x, y, z).
    registers_per_thread, shared_mem_per_block : int or None
        Registers per thread and shared memory per block (static + dynamic), bytes.
    duration_s : float or None
        The measured duration of the launch, s. No model reads it: it is what the models
        are scored against.
    inst_executed, inst_issued : float or None
        Warp instructions executed and issued.
    thread_inst_fp32 ... thread_inst_misc : float or None
        Executed thread instructions by class (single and double precision, integer,
        control flow, load/store, miscellaneous).
    flop_sp, flop_dp : float or None
        Floating-point operations (an FMA counts two).
    global_load_requests, global_store_requests, shared_load_requests,
    shared_store_requests : float or None
        Warp-level memory instructions.
    global_load_transactions, global_store_transactions, l2_read_transactions,
    l2_write_transactions : float or None
        32-B sectors moved.
    dram_read_bytes, dram_write_bytes : float or None
        Bytes read from and written to device memory.
    l1_hit_rate, l2_hit_rate, achieved_occupancy : float or None
        Fractions in [0, 1].
    sm_clock_hz : float or None
        The SM clock measured during the launch.
    """

    kernel: str
    source: str
    gpu: str | None = None
    grid: tuple[int, int, int] = (1, 1, 1)
    block: tuple[int, int, int] = (1, 1, 1)
    registers_per_thread: int | None = None
    shared_mem_per_block: int | None = None
    duration_s: float | None = None
    inst_executed: float | None = None
    inst_issued: float | None = None
    thread_inst_fp32: float | None = None
    thread_inst_fp64: float | None = None
    thread_inst_int: float | None = None
    thread_inst_control: float | None = None
    thread_inst_ldst: float | None = None
    thread_inst_misc: float | None = None
    flop_sp: float | None = None
    flop_dp: float | None = None
    global_load_requests: float | None = None
    global_store_requests: float | None = None
    global_load_transactions: float | None = None
    global_store_transactions: float | None = None
    shared_load_requests: float | None = None
    shared_store_requests: float | None = None
    l2_read_transactions: float | None = None
    l2_write_transactions: float | None = None
    dram_read_bytes: float | None = None
    dram_write_bytes: float | None = None
    l1_hit_rate: float | None = None
    l2_hit_rate: float | None = None
    achieved_occupancy: float | None = None
    sm_clock_hz: float | None = None
    metrics: Mapping[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        """Check every field (so also on :meth:`replace`); errors name the source."""
        where = self.source if isinstance(self.source, str) else "profile"
        for name in ("kernel", "source"):
            v = getattr(self, name)
            if not isinstance(v, str) or not v:
                raise InputTypeError(
                    f"{where}: {name} must be a non-empty string, got {v!r}"
                )
        if self.gpu is not None and not isinstance(self.gpu, str):
            raise InputTypeError(
                f"{where}: gpu must be a string or None, got {self.gpu!r}"
            )
        set_ = object.__setattr__
        set_(self, "grid", _dim3("grid", self.grid, where))
        set_(self, "block", _dim3("block", self.block, where))
        if self.threads_per_block > MAX_THREADS_PER_BLOCK:
            raise ProfileError(
                f"{where}: block must have at most {MAX_THREADS_PER_BLOCK} threads, "
                f"got {self.block} = {self.threads_per_block}"
            )
        for name in ("registers_per_thread", "shared_mem_per_block"):
            v = getattr(self, name)
            if v is not None:
                set_(self, name, int(_number(name, v, where, lo=0, integral=True)))
        for name in (*COUNTS, "duration_s", "sm_clock_hz", *FRACTIONS):
            v = getattr(self, name)
            if v is None:
                continue
            hi = 1.0 if name in FRACTIONS else None
            positive = name in ("duration_s", "sm_clock_hz")
            set_(self, name, _number(name, v, where, lo=0.0, hi=hi, positive=positive))
        if not isinstance(self.metrics, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in self.metrics.items()
        ):
            raise InputTypeError(
                f"{where}: metrics must be a mapping of field name -> metric name "
                f"(strings), got {self.metrics!r:.60}"
            )
        set_(self, "metrics", MappingProxyType(dict(self.metrics)))

    # ---- launch ----
    @property
    def blocks(self) -> int:
        """Blocks in the grid."""
        return self.grid[0] * self.grid[1] * self.grid[2]

    @property
    def threads_per_block(self) -> int:
        """Threads per block."""
        return self.block[0] * self.block[1] * self.block[2]

    @property
    def warps_per_block(self) -> int:
        """Warps per block (a partial warp counts as one)."""
        return -(-self.threads_per_block // WARP)

    @property
    def warps(self) -> int:
        """Warps in the grid."""
        return self.blocks * self.warps_per_block

    @property
    def dram_bytes(self) -> float | None:
        """Bytes read and written in device memory; ``None`` if either is missing."""
        if self.dram_read_bytes is None or self.dram_write_bytes is None:
            return None
        return self.dram_read_bytes + self.dram_write_bytes

    @property
    def missing(self) -> tuple[str, ...]:
        """The measured fields the source does not give."""
        return tuple(k for k in UNITS if getattr(self, k) is None)

    def replace(self, **changes) -> KernelProfile:
        """A copy with some fields changed (checked like a new record)."""
        return dataclasses.replace(self, **changes)

    def describe(self) -> list[dict]:
        """One dict per field: ``field, value, unit, from`` (the metric it came from,
        or ``"not in the source"``)."""
        rows = [
            {"field": "kernel", "value": self.kernel, "unit": "", "from": self.source},
            {"field": "gpu", "value": self.gpu, "unit": "", "from": self.source},
        ]
        for k, unit in UNITS.items():
            v = getattr(self, k)
            src = self.metrics.get(k, "not in the source" if v is None else "given")
            rows.append({"field": k, "value": v, "unit": unit, "from": src})
        return rows


def _number(name, value, where, lo=None, hi=None, positive=False, integral=False):
    if isinstance(value, bool):
        raise ProfileError(f"{where}: {name} must be a number, got {value!r}")
    if not isinstance(value, (int, float)):
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise ProfileError(
                f"{where}: {name} must be a number, got {value!r}"
            ) from None
    v = to_float(value)
    rng = f"[{lo if lo is not None else '-inf'}, {hi if hi is not None else 'inf'}]"
    if positive:
        rng = f"(0, {hi if hi is not None else 'inf'}]"
    if (
        not math.isfinite(v)
        or (lo is not None and v < lo)
        or (hi is not None and v > hi + 1e-9)
        or (positive and v <= 0)
        or (integral and v != int(v))
    ):
        kind = "an integer" if integral else "a finite number"
        raise ProfileError(f"{where}: {name} must be {kind} in {rng}, got {value!r}")
    return min(v, hi) if hi is not None else v


# ---------------------------------------------------------------- helpers


def _parse_number(text: str) -> float | None:
    """A profiler's number: thousands separators removed; empty or ``n/a`` is None."""
    t = text.strip().replace(",", "")
    if t in ("", "n/a", "N/A", "nan", "NaN", "-"):
        return None
    try:
        return float(t)
    except ValueError:
        return math.nan


def _file(path) -> Path:
    """``path`` (a string or ``os.PathLike``) as a :class:`~pathlib.Path` to an
    existing file; ``InputTypeError`` naming ``path`` for anything else,
    ``ProfileError`` when there is no such file."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputTypeError(
            f"path must be a file path (a string or pathlib.Path), got "
            f"{type(path).__name__} {path!r:.60}"
        )
    p = Path(path)
    if not p.is_file():
        raise ProfileError(f"{p}: no such file")
    return p


def _gpu_arg(gpu) -> None:
    """``InputTypeError`` naming ``gpu`` unless it is a string or ``None``."""
    if gpu is not None and not isinstance(gpu, str):
        raise InputTypeError(f"gpu must be a string or None, got {gpu!r}")


def _csv_lines(path: Path) -> list[tuple[int, list[str]]]:
    """``(line number, cells)`` of a CSV file, skipping the profiler's ``==PROF==``
    lines, program output before the header and blank lines."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise ProfileError(f"{path}: not a UTF-8 text file ({e.reason})") from None
    rows = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("=="):
            continue
        rows.append((i, next(csv.reader([line]))))
    return rows


def _header_index(rows, must: tuple[str, ...]):
    for k, (_, cells) in enumerate(rows):
        if all(m in cells for m in must):
            return k
    return None


# ---------------------------------------------------------------- nvprof

NVPROF_COLUMNS: Mapping[str, tuple[str, float]] = MappingProxyType(
    {
        "duration_s": ("duration", 1.0),
        "registers_per_thread": ("registers.per.thread", 1.0),
        "shared_mem_per_block": ("static.smem", 1.0),
        "inst_executed": ("inst_executed", 1.0),
        "thread_inst_fp32": ("fp_instructions.single.", 1.0),
        "thread_inst_fp64": ("fp_instructions.double.", 1.0),
        "thread_inst_int": ("integer_instructions", 1.0),
        "thread_inst_control": ("control.flow_instructions", 1.0),
        "thread_inst_ldst": ("load.store_instructions", 1.0),
        "thread_inst_misc": ("misc_instructions", 1.0),
        "flop_sp": ("floating_point_operations.single_precision.", 1.0),
        "flop_dp": ("floating_point_operations.double_precision.", 1.0),
        "global_load_requests": ("gld_request", 1.0),
        "global_store_requests": ("gst_request", 1.0),
        "global_load_transactions": ("global_load_transactions", 1.0),
        "global_store_transactions": ("global_store_transactions", 1.0),
        "shared_load_requests": ("shared_load", 1.0),
        "shared_store_requests": ("shared_store", 1.0),
        "l2_read_transactions": ("l2_read_transactions", 1.0),
        "l2_write_transactions": ("l2_write_transactions", 1.0),
        "dram_read_bytes": ("device_memory_read_transactions", float(SECTOR_BYTES)),
        "dram_write_bytes": ("device_memory_write_transactions", float(SECTOR_BYTES)),
        "achieved_occupancy": ("achieved_occupancy", 1.0),
    }
)
"""Field -> (nvprof column in the gpuperfpredict layout, factor to the field's unit).
``duration`` is in seconds there; transactions are 32-B."""

NVPROF_REQUIRED = ("name", "grid.x", "block.x")


def _smem_in_kib(body, col) -> bool:
    """Whether a file's ``static.smem`` is in KiB: nvprof prints the value with a unit
    (``3KB``, ``1.0625KB``, ``3072B``) and the datasets stripped it. A value in (0, 64)
    or with a fraction cannot be bytes of a real allocation (allocations are whole and
    none in the data is that small), so such a file is read as KiB throughout -- in
    gpuperfpredict, the GTX 980 and Tesla P100 files."""
    if "static.smem" not in col:
        return False
    for _, cells in body:
        if len(cells) <= col["static.smem"]:
            continue
        v = _parse_number(cells[col["static.smem"]])
        if v is not None and not math.isnan(v) and (0 < v < 64 or v != int(v)):
            return True
    return False


def read_nvprof_csv(path, gpu: str | None = None) -> list[KernelProfile]:
    """The launches of an nvprof CSV in the gpuperfpredict layout (one launch per row).

    The GPU is the file's ``gpu_name`` column where it has one, else ``gpu``. Columns
    the file lacks leave their fields ``None`` (e.g. the datasets have no DRAM write
    transactions), and so do empty and ``n/a`` cells (nvprof's mark for a metric it
    could not collect); all of them are listed by :attr:`KernelProfile.missing`. Any
    other cell that is not a number is an error naming file, line and column.
    ``static.smem`` (static shared memory only; nvprof's data have no dynamic
    allocation) is read as bytes, or as KiB where the file prints KiB: a value in (0,
    64) or with a fraction cannot be bytes of a real allocation, so such a file (in
    gpuperfpredict, the GTX 980 and Tesla P100 files) is read as KiB throughout, and
    the field's ``metrics`` entry says so.
    """
    path = _file(path)
    _gpu_arg(gpu)
    rows = _csv_lines(path)
    k = _header_index(rows, NVPROF_REQUIRED)
    if k is None:
        raise ProfileError(
            f"{path}: no nvprof header with the columns {list(NVPROF_REQUIRED)}"
        )
    header = rows[k][1]
    col = {c: i for i, c in enumerate(header)}
    smem_kib = _smem_in_kib(rows[k + 1 :], col)
    out = []
    for line, cells in rows[k + 1 :]:
        if len(cells) != len(header):
            raise ProfileError(
                f"{path}, line {line}: {len(cells)} cells, the header has {len(header)}"
            )
        where = f"{path}:{line}"

        def cell(name, line=line, cells=cells):
            v = _parse_number(cells[col[name]])
            if v is not None and math.isnan(v):
                raise ProfileError(
                    f"{path}, line {line}: column {name!r} is not a number: "
                    f"{cells[col[name]]!r}"
                )
            return v

        dims = {}
        for d in ("grid", "block"):
            sizes = [cell(f"{d}.{a}") if f"{d}.{a}" in col else 1.0 for a in "xyz"]
            if None in sizes:
                raise ProfileError(
                    f"{path}, line {line}: the {d} size is empty "
                    f"({d}.x/{d}.y/{d}.z = {sizes})"
                )
            dims[d] = tuple(sizes)
        values, metrics = {}, {}
        for fname, (cname, factor) in NVPROF_COLUMNS.items():
            if cname not in col:
                continue
            v = cell(cname)
            if v is None:
                continue
            if fname == "shared_mem_per_block" and smem_kib:
                factor = 1024.0
            values[fname] = v * factor
            metrics[fname] = cname + (f" × {factor:g} B" if factor != 1 else "")
        file_gpu = cells[col["gpu_name"]].strip() if "gpu_name" in col else ""
        out.append(
            KernelProfile(
                kernel=cells[col["name"]].strip(),
                source=where,
                gpu=file_gpu or gpu,
                metrics=metrics,
                **dims,
                **values,
            )
        )
    if not out:
        raise ProfileError(f"{path}: the nvprof header has no launch rows under it")
    return out


# ---------------------------------------------------------------- Nsight Compute

NCU_METRICS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "duration_s": ("gpu__time_duration.sum",),
        "inst_executed": ("smsp__inst_executed.sum", "sm__inst_executed.sum"),
        "inst_issued": ("smsp__inst_issued.sum", "sm__inst_issued.sum"),
        "thread_inst_fp32": ("smsp__sass_thread_inst_executed_op_fp32_pred_on.sum",),
        "thread_inst_fp64": ("smsp__sass_thread_inst_executed_op_fp64_pred_on.sum",),
        "thread_inst_int": ("smsp__sass_thread_inst_executed_op_integer_pred_on.sum",),
        "thread_inst_control": (
            "smsp__sass_thread_inst_executed_op_control_pred_on.sum",
        ),
        "thread_inst_ldst": ("smsp__sass_thread_inst_executed_op_memory_pred_on.sum",),
        "thread_inst_misc": ("smsp__sass_thread_inst_executed_op_misc_pred_on.sum",),
        "global_load_requests": ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",),
        "global_store_requests": ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",),
        "global_load_transactions": ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",),
        "global_store_transactions": (
            "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        ),
        "shared_load_requests": ("smsp__inst_executed_op_shared_ld.sum",),
        "shared_store_requests": ("smsp__inst_executed_op_shared_st.sum",),
        "l2_read_transactions": ("lts__t_sectors_op_read.sum",),
        "l2_write_transactions": ("lts__t_sectors_op_write.sum",),
        "dram_read_bytes": ("dram__bytes_read.sum",),
        "dram_write_bytes": ("dram__bytes_write.sum",),
        "l1_hit_rate": ("l1tex__t_sector_hit_rate.pct",),
        "l2_hit_rate": ("lts__t_sector_hit_rate.pct",),
        "achieved_occupancy": ("sm__warps_active.avg.pct_of_peak_sustained_active",),
        "sm_clock_hz": ("sm__cycles_elapsed.avg.per_second",),
        "registers_per_thread": ("launch__registers_per_thread",),
    }
)
"""Field -> the Nsight Compute metrics it is read from (the first one present wins).
FLOP counts come from the ``fadd``/``fmul``/``ffma`` (``dadd``/``dmul``/``dfma``)
thread-instruction metrics, an FMA counting two; shared memory per block is
``launch__shared_mem_per_block_static`` + ``_dynamic``."""

_FLOP = {
    "flop_sp": ("fadd", "fmul", "ffma"),
    "flop_dp": ("dadd", "dmul", "dfma"),
}
_FLOP_METRIC = "smsp__sass_thread_inst_executed_op_{}_pred_on.sum"
_SMEM = (
    "launch__shared_mem_per_block_static",
    "launch__shared_mem_per_block_dynamic",
)

_UNIT_FACTORS = {
    "": 1.0,
    "byte": 1.0,
    "kbyte": 1e3,
    "mbyte": 1e6,
    "gbyte": 1e9,
    "tbyte": 1e12,
    "kibyte": 2.0**10,
    "mibyte": 2.0**20,
    "gibyte": 2.0**30,
    "nsecond": 1e-9,
    "usecond": 1e-6,
    "msecond": 1e-3,
    "second": 1.0,
    "ns": 1e-9,
    "us": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "hz": 1.0,
    "khz": 1e3,
    "mhz": 1e6,
    "ghz": 1e9,
    "cycle/nsecond": 1e9,
    "cycle/usecond": 1e6,
    "cycle/second": 1.0,
    "%": 0.01,
    "inst": 1.0,
    "warp": 1.0,
    "sector": 1.0,
    "request": 1.0,
    "register/thread": 1.0,
    "cycle": 1.0,
    "block": 1.0,
    "thread": 1.0,
}


def _unit_factor(unit: str, where: str, metric: str) -> float:
    u = unit.strip().lower()
    if u not in _UNIT_FACTORS:
        raise ProfileError(
            f"{where}: metric {metric!r} has the unit {unit!r}, which the reader does "
            f"not know (known: {', '.join(repr(k) for k in _UNIT_FACTORS if k)})"
        )
    return _UNIT_FACTORS[u]


def _ncu_dim(text: str, where: str, name: str) -> tuple[int, ...]:
    nums = re.findall(r"-?\d+", text.replace(",", " , "))
    if not nums:
        raise ProfileError(f"{where}: {name} {text!r} is not (x, y, z)")
    return tuple(int(n) for n in nums)


def _ncu_profile(where, kernel, gpu_text, dims, values, fallback_gpu):
    """One KernelProfile from ``values``: metric -> (number, unit)."""
    got, metrics = {}, {}
    for fname, names in NCU_METRICS.items():
        for m in names:
            if m in values and values[m][0] is not None:
                v, unit = values[m]
                got[fname] = v * _unit_factor(unit, where, m)
                metrics[fname] = m + (f" [{unit}]" if unit else "")
                break
    for fname, ops in _FLOP.items():
        names = [_FLOP_METRIC.format(op) for op in ops]
        if all(n in values and values[n][0] is not None for n in names):
            add, mul, fma = (values[n][0] for n in names)
            got[fname] = add + mul + 2 * fma
            metrics[fname] = f"{names[0]} + {names[1]} + 2 × {names[2]}"
    if any(m in values and values[m][0] is not None for m in _SMEM):
        got["shared_mem_per_block"] = sum(
            values[m][0] * _unit_factor(values[m][1], where, m)
            for m in _SMEM
            if m in values and values[m][0] is not None
        )
        metrics["shared_mem_per_block"] = " + ".join(m for m in _SMEM if m in values)
    return KernelProfile(
        kernel=kernel,
        source=where,
        gpu=gpu_text or fallback_gpu,
        metrics=metrics,
        **dims,
        **got,
    )


_NCU_ID = ("ID", "Kernel Name")


def read_ncu_csv(path, gpu: str | None = None) -> list[KernelProfile]:
    """The launches of an Nsight Compute CSV export: ``ncu --csv --page raw`` (one row
    per launch, units in the second row) or the default page (one row per metric).

    The GPU is the ``device__attribute_display_name`` metric where the export has it,
    else ``gpu``. Grid and block come from the ``Grid Size`` and ``Block Size`` columns,
    ``(x, y, z)``. Units are converted to the fields' units (bytes, s, Hz, fractions);
    an unknown unit or a cell that is not a number is an error naming file, line and
    metric.
    """
    path = _file(path)
    _gpu_arg(gpu)
    rows = _csv_lines(path)
    k = _header_index(rows, _NCU_ID)
    if k is None:
        raise ProfileError(
            f"{path}: no Nsight Compute header (columns {list(_NCU_ID)}); export with "
            "`ncu --csv --page raw ... > file.csv`"
        )
    header = rows[k][1]
    if "Metric Name" in header:
        return _read_ncu_long(path, header, rows[k + 1 :], gpu)
    return _read_ncu_raw(path, header, rows[k + 1 :], gpu)


def _launch_dims(path, line, get):
    where = f"{path}, line {line}"
    dims = {}
    for d, col in (("grid", "Grid Size"), ("block", "Block Size")):
        text = get(col)
        if text is None:
            raise ProfileError(f"{where}: the column {col!r} is missing")
        dims[d] = _ncu_dim(text, where, col)
    return dims


def _used_metrics() -> set[str]:
    """The Nsight Compute metrics :func:`read_ncu_csv` reads (others are skipped)."""
    used = {m for names in NCU_METRICS.values() for m in names}
    used |= {_FLOP_METRIC.format(op) for ops in _FLOP.values() for op in ops}
    return used | set(_SMEM)


def _read_ncu_raw(path, header, body, gpu):
    col = {c: i for i, c in enumerate(header)}
    if not body or body[0][1][col["ID"]].strip():
        raise ProfileError(
            f"{path}: no row of units under the header; `ncu --csv --page raw` writes "
            "one, and without it no value can be converted"
        )
    units = dict(zip(header, body[0][1], strict=False))
    body = body[1:]
    used = _used_metrics()
    out = []
    for line, cells in body:
        if len(cells) != len(header):
            raise ProfileError(
                f"{path}, line {line}: {len(cells)} cells, the header has {len(header)}"
            )
        values = {}
        for name, i in col.items():
            if name not in used:
                continue
            text = cells[i]
            v = _parse_number(text)
            if v is not None and math.isnan(v):
                raise ProfileError(
                    f"{path}, line {line}: metric {name!r} is not a number: {text!r}"
                )
            values[name] = (v, units.get(name, ""))
        dims = _launch_dims(
            path, line, lambda c, cells=cells: cells[col[c]] if c in col else None
        )
        gpu_text = (
            cells[col["device__attribute_display_name"]].strip()
            if "device__attribute_display_name" in col
            else ""
        )
        out.append(
            _ncu_profile(
                f"{path}:{line}",
                cells[col["Kernel Name"]].strip(),
                gpu_text,
                dims,
                values,
                gpu,
            )
        )
    if not out:
        raise ProfileError(f"{path}: the Nsight Compute header has no launch rows")
    return out


def _read_ncu_long(path, header, body, gpu):
    col = {c: i for i, c in enumerate(header)}
    for c in ("Metric Name", "Metric Unit", "Metric Value"):
        if c not in col:
            raise ProfileError(f"{path}: the column {c!r} is missing")
    launches: dict[str, dict] = {}
    for line, cells in body:
        if len(cells) < len(header):
            raise ProfileError(
                f"{path}, line {line}: {len(cells)} cells, the header has {len(header)}"
            )
        lid = cells[col["ID"]]
        rec = launches.setdefault(
            lid,
            {"line": line, "cells": cells, "values": {}, "gpu": ""},
        )
        name = cells[col["Metric Name"]].strip()
        text = cells[col["Metric Value"]]
        if not name:
            continue
        if name == "device__attribute_display_name":
            rec["gpu"] = text.strip()
            continue
        v = _parse_number(text)
        if v is not None and math.isnan(v):
            continue  # a text-valued metric (e.g. a rule's message): not a counter
        rec["values"][name] = (v, cells[col["Metric Unit"]])
    out = []
    for rec in launches.values():
        cells = rec["cells"]
        dims = _launch_dims(
            path,
            rec["line"],
            lambda c, cells=cells: cells[col[c]] if c in col else None,
        )
        out.append(
            _ncu_profile(
                f"{path}:{rec['line']}",
                cells[col["Kernel Name"]].strip(),
                rec["gpu"],
                dims,
                rec["values"],
                gpu,
            )
        )
    if not out:
        raise ProfileError(f"{path}: the Nsight Compute header has no metric rows")
    return out


# ---------------------------------------------------------------- by hand

MANUAL_FIELDS = (
    "kernel",
    "gpu",
    *(
        f.name
        for f in fields(KernelProfile)
        if f.name not in ("kernel", "gpu", "source", "metrics")
    ),
)


def _manual_one(d, where: str, gpu: str | None) -> KernelProfile:
    if not isinstance(d, Mapping):
        raise ProfileError(f"{where}: a launch must be a mapping of fields, got {d!r}")
    unknown = sorted(set(d) - set(MANUAL_FIELDS))
    if unknown:
        raise ProfileError(
            f"{where}: unknown field(s) {unknown}; allowed: {', '.join(MANUAL_FIELDS)}"
        )
    if "kernel" not in d:
        raise ProfileError(f"{where}: the field 'kernel' is missing")
    vals = {k: v for k, v in d.items() if v is not None and v != ""}
    vals["gpu"] = str(vals["gpu"]) if "gpu" in vals else gpu
    vals["kernel"] = str(vals["kernel"])
    metrics = {k: "given by hand" for k in vals if k in UNITS}
    return KernelProfile(source=where, metrics=metrics, **vals)


def read_manual(path, gpu: str | None = None) -> list[KernelProfile]:
    """Launches described by hand: a YAML mapping of :class:`KernelProfile` fields (or a
    list of them under ``launches:``), or a CSV with those fields as columns (``grid``
    and ``block`` written ``"x y z"`` or as ``grid_x``... columns)."""
    path = _file(path)
    _gpu_arg(gpu)
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            doc = yaml.safe_load(path.read_text(encoding="utf-8-sig"))
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            line = f", line {mark.line + 1}" if mark is not None else ""
            raise ProfileError(f"{path}{line}: not valid YAML ({e})") from None
        items = doc.get("launches", [doc]) if isinstance(doc, Mapping) else doc
        if not isinstance(items, list) or not items:
            raise ProfileError(f"{path}: expected a mapping or a list under 'launches'")
        return [
            _manual_one(d, f"{path}:launch {i + 1}", gpu) for i, d in enumerate(items)
        ]
    rows = _csv_lines(path)
    if not rows:
        raise ProfileError(f"{path}: empty file")
    header = rows[0][1]
    out = []
    for line, cells in rows[1:]:
        d = dict(zip(header, cells, strict=False))
        for dim in ("grid", "block"):
            parts = [d.pop(f"{dim}_{a}", None) for a in "xyz"]
            if any(p not in (None, "") for p in parts):
                d[dim] = [_int_cell(p or "1", path, line, dim) for p in parts]
            elif d.get(dim):
                d[dim] = [
                    _int_cell(p, path, line, dim)
                    for p in re.split(r"[\s,x×]+", d[dim].strip("()[] "))
                    if p
                ]
        for k in list(d):
            if k in UNITS and k not in ("grid", "block") and d[k] not in ("", None):
                v = _parse_number(d[k])
                if v is None or math.isnan(v):
                    raise ProfileError(
                        f"{path}, line {line}: column {k!r} is not a number: {d[k]!r}"
                    )
                d[k] = v
        out.append(_manual_one(d, f"{path}:{line}", gpu))
    return out


def _int_cell(text, path, line, name) -> int:
    v = _parse_number(str(text))
    if v is None or math.isnan(v) or v != int(v):
        raise ProfileError(
            f"{path}, line {line}: {name} size {text!r} is not an integer"
        )
    return int(v)


# ---------------------------------------------------------------- dispatch

FORMATS = ("nvprof", "ncu", "manual")


def detect(path) -> str:
    """Which reader a file needs: ``"nvprof"``, ``"ncu"`` or ``"manual"``."""
    path = _file(path)
    if path.suffix.lower() in (".yaml", ".yml"):
        return "manual"
    rows = _csv_lines(path)
    if _header_index(rows, _NCU_ID) is not None:
        return "ncu"
    if _header_index(rows, NVPROF_REQUIRED) is not None:
        return "nvprof"
    if rows and "kernel" in rows[0][1]:
        return "manual"
    raise ProfileError(
        f"{path}: not a profile this package reads: expected an Nsight Compute CSV "
        "(columns 'ID', 'Kernel Name'), an nvprof CSV in the gpuperfpredict layout "
        f"(columns {list(NVPROF_REQUIRED)}), or a hand-written YAML/CSV with a "
        "'kernel' column"
    )


def read(path, gpu: str | None = None, fmt: str | None = None) -> list[KernelProfile]:
    """Every launch in ``path``, read by the reader its content needs (or ``fmt``).

    ``gpu`` names the GPU for launches whose file does not say.
    """
    _gpu_arg(gpu)
    if fmt is not None and not isinstance(fmt, str):
        raise InputTypeError(
            f"fmt must be one of {FORMATS} or None, got {type(fmt).__name__} "
            f"{fmt!r:.60}"
        )
    kind = fmt or detect(path)
    readers = {"nvprof": read_nvprof_csv, "ncu": read_ncu_csv, "manual": read_manual}
    if kind not in readers:
        raise ProfileError(f"fmt must be one of {FORMATS}, got {kind!r}")
    return readers[kind](path, gpu=gpu)


def from_text(text: str, name: str = "profile.csv", gpu: str | None = None):
    """Like :func:`read` for a profile held in a string (``name`` gives the format by
    its suffix and appears in messages)."""
    check_text("text", text)
    check_text("name", name)
    if Path(name).name in ("", ".", ".."):
        raise OutOfRangeError(
            f"name must be a file name such as 'profile.csv', got {name!r:.60}"
        )
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / Path(name).name
        p.write_text(text, encoding="utf-8")
        try:
            return read(p, gpu=gpu)
        except ProfileError as e:
            raise ProfileError(str(e).replace(str(p), name)) from None


def _profile_list(profiles) -> list[KernelProfile]:
    """``profiles`` as a list; ``InputTypeError`` naming ``profiles`` (or
    ``profiles[i]``) unless it is a list, tuple or other iterable (not a string,
    mapping or single record) of :class:`KernelProfile` records."""
    return check_items("profiles", profiles, KernelProfile)


def table(profiles) -> list[dict]:
    """One dict per launch with every field (a table for a chapter)."""
    out = []
    for p in _profile_list(profiles):
        row = {"kernel": p.kernel, "gpu": p.gpu, "source": p.source}
        row.update({k: getattr(p, k) for k in UNITS})
        out.append(row)
    return out


__all__ = [
    "NCU_METRICS",
    "NVPROF_COLUMNS",
    "UNITS",
    "KernelProfile",
    "ProfileError",
    "detect",
    "from_text",
    "ncu_command",
    "ncu_metrics",
    "read",
    "read_manual",
    "read_ncu_csv",
    "read_nvprof_csv",
    "table",
    "to_ncu_csv",
    "to_yaml",
]


# ---------------------------------------------------------------- writers

_NCU_OUT = {
    # field: (metric, unit, factor from the field's unit to the metric's)
    "duration_s": ("gpu__time_duration.sum", "nsecond", 1e9),
    "registers_per_thread": ("launch__registers_per_thread", "register/thread", 1.0),
    "shared_mem_per_block": ("launch__shared_mem_per_block_static", "byte", 1.0),
    "inst_executed": ("smsp__inst_executed.sum", "inst", 1.0),
    "inst_issued": ("smsp__inst_issued.sum", "inst", 1.0),
    "global_load_requests": (NCU_METRICS["global_load_requests"][0], "request", 1.0),
    "global_store_requests": (NCU_METRICS["global_store_requests"][0], "request", 1.0),
    "global_load_transactions": (
        NCU_METRICS["global_load_transactions"][0],
        "sector",
        1.0,
    ),
    "global_store_transactions": (
        NCU_METRICS["global_store_transactions"][0],
        "sector",
        1.0,
    ),
    "shared_load_requests": (NCU_METRICS["shared_load_requests"][0], "inst", 1.0),
    "shared_store_requests": (NCU_METRICS["shared_store_requests"][0], "inst", 1.0),
    "l2_read_transactions": (NCU_METRICS["l2_read_transactions"][0], "sector", 1.0),
    "l2_write_transactions": (NCU_METRICS["l2_write_transactions"][0], "sector", 1.0),
    "dram_read_bytes": ("dram__bytes_read.sum", "byte", 1.0),
    "dram_write_bytes": ("dram__bytes_write.sum", "byte", 1.0),
    "l1_hit_rate": (NCU_METRICS["l1_hit_rate"][0], "%", 100.0),
    "l2_hit_rate": (NCU_METRICS["l2_hit_rate"][0], "%", 100.0),
    "achieved_occupancy": (NCU_METRICS["achieved_occupancy"][0], "%", 100.0),
    "sm_clock_hz": ("sm__cycles_elapsed.avg.per_second", "hz", 1.0),
    **{
        f: (NCU_METRICS[f][0], "inst", 1.0)
        for f in UNITS
        if f.startswith("thread_inst_")
    },
}


def _fmt(v: float) -> str:
    return f"{v:.10g}"


def to_ncu_csv(profiles, cc: str = "") -> str:
    """The launches in the layout of ``ncu --csv --page raw``: a header of metric names,
    a row of units, one row per launch (the fields a profile has; FLOP counts are left
    out, since Nsight Compute reports them as separate add, multiply and FMA counts).
    :func:`read_ncu_csv` reads it back. The result is a *format* example: the numbers
    are the profile's, whichever tool measured them."""
    profiles = _profile_list(profiles)
    check_text("cc", cc)
    used = [f for f in _NCU_OUT if any(getattr(p, f) is not None for p in profiles)]
    fixed = [
        "ID",
        "Process ID",
        "Process Name",
        "Host Name",
        "Kernel Name",
        "Context",
        "Stream",
        "Block Size",
        "Grid Size",
        "Device",
        "CC",
        "device__attribute_display_name",
    ]
    out = io.StringIO()
    w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    w.writerow(fixed + [_NCU_OUT[f][0] for f in used])
    w.writerow([""] * len(fixed) + [_NCU_OUT[f][1] for f in used])
    for i, p in enumerate(profiles):
        dims = [f"({x}, {y}, {z})" for x, y, z in (p.block, p.grid)]
        row = [
            str(i),
            "0",
            "app",
            "host",
            p.kernel,
            "1",
            "7",
            *dims,
            "0",
            cc,
            p.gpu or "",
        ]
        for f in used:
            v = getattr(p, f)
            row.append("" if v is None else _fmt(v * _NCU_OUT[f][2]))
        w.writerow(row)
    return out.getvalue()


def to_yaml(profiles) -> str:
    """The launches as a hand-written profile (YAML, ``launches:``) that
    :func:`read_manual` reads back."""
    items = []
    for p in _profile_list(profiles):
        d = {"kernel": p.kernel}
        if p.gpu:
            d["gpu"] = p.gpu
        d["grid"] = list(p.grid)
        d["block"] = list(p.block)
        for f in UNITS:
            v = getattr(p, f)
            if v is not None and f not in ("grid", "block"):
                d[f] = v if isinstance(v, int) else float(v)
        items.append(d)
    return yaml.safe_dump({"launches": items}, sort_keys=False)


def ncu_metrics() -> tuple[str, ...]:
    """Every Nsight Compute metric the reader uses, in a stable order: the first choice
    of each field of :data:`NCU_METRICS`, the FLOP and shared-memory metrics and the
    GPU's name."""
    names = [v[0] for v in NCU_METRICS.values()]
    names += [_FLOP_METRIC.format(op) for ops in _FLOP.values() for op in ops]
    names += [*_SMEM, "device__attribute_display_name"]
    return tuple(dict.fromkeys(names))


def ncu_command(app: str = "./my_app", out: str = "profile.csv") -> str:
    """The command that profiles every kernel launch of ``app`` with Nsight Compute and
    writes the raw page as CSV, with exactly the metrics :func:`read_ncu_csv` reads.
    Add ``--kernel-name NAME`` or ``--launch-count N`` to profile fewer launches."""
    if not isinstance(app, str) or not isinstance(out, str):
        raise InputTypeError("app and out must be strings")
    metrics = ",".join(ncu_metrics())
    return f"ncu --csv --page raw --metrics {metrics} {app} > {out}"
