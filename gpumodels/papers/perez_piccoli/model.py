"""Perez & Piccoli's eight GPU performance parameters and the features derived from
them.

The paper measures computing power ``Cp`` (GFLOP/s) and global-memory read-modify-write
bandwidth ``GMb`` (GB/s) in four launch shapes: **All–All** (many blocks of many
threads), **One–All** (one block of many threads), **All–One** (many blocks of one
thread) and **One–One** (one thread). Ratios of them give six architecture features
(§3.2-3.3)::

    ||SM||          = Cp_AA / Cp_OA                  SMs
    N_PPipe         = Cp_AA / Cp_AO                  "parallel pipelines"
    L_Pipe          = (Cp_AO·Cp_OA) / (Cp_OO·Cp_AA)  "pipeline depth"
    N_MIN_Bl        = GMb_AA / GMb_OA                full blocks needed to fill the bus
    W_Memory_Bus    = GMb_AA / GMb_AO                waste factor of uncoalesced access
    T_Thread_Delay  = GMb_AO / GMb_OO                how long a thread is delayed

plus ``P = Cp_AA`` and ``B = GMb_AA``; the theoretical values are ``P = k · f_shader ·
||SP||`` (k = 2 for a multiply-add, 1 for the GTX 470 as the paper measured it) and ``B
= f_mem · width · 2 / 8`` (§4).

Little's law (Volkov 2016, ch. 3) explains the ratios: one thread sees the arithmetic
latency, so ``Cp_OO = k · f / alu_lat``; one thread per block still runs up to
``max_blocks_per_sm`` such threads per SM, so ``L_Pipe = min(alu_lat · alu_thru,
max_blocks_per_sm)`` — the warps needed to cover the latency, capped by the block slots
— and ``N_PPipe = 32 · max(1, alu_lat · alu_thru / max_blocks_per_sm)``. See
:func:`littles_law`.

Example
-------
>>> f = derive(436.344289, 27.308304, 13.608844, 0.170045,
...            57.312697, 10.443662, 2.719361, 0.023726)
>>> round(f.sm_count, 2), round(f.n_ppipe, 2), round(f.l_pipe, 3), round(f.n_min_bl, 2)
(15.98, 32.06, 5.009, 5.49)
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from types import MappingProxyType

import numpy as np

from gpumodels.facts import hardware, occupancy
from gpumodels.facts.occupancy import WARP_SIZE
from gpumodels.facts.param_sets import params as volkov_params
from gpumodels.ground import plotting
from gpumodels.ground.data import read_rows
from gpumodels.ground.errors import (
    DataError,
    InputTypeError,
    OutsideDomainError,
    UnknownNameError,
)
from gpumodels.ground.validate import (
    check_keys,
    check_mapping,
    check_real,
    check_sequence,
    check_text,
    finite_result,
)

PARAMETERS = (
    "cp_aa",
    "cp_oa",
    "cp_ao",
    "cp_oo",
    "gmb_aa",
    "gmb_oa",
    "gmb_ao",
    "gmb_oo",
)
"""The eight parameters, computing power (GFLOP/s) then bandwidth (GB/s), All/One =
blocks/threads."""

SHAPES = MappingProxyType(
    {"aa": ("many", "many"), "oa": (1, "many"), "ao": ("many", 1), "oo": (1, 1)}
)
"""Blocks and threads per block of each launch shape (§3.1)."""


@dataclass(frozen=True)
class Features:
    """The derived architecture features of §3.2-3.3, unrounded (ratios are
    dimensionless).

    ``p`` (GFLOP/s) and ``b`` (GB/s) are ``Cp_AA`` and ``GMb_AA``; the others are the
    ratios of the module docstring.
    """

    p: float
    sm_count: float
    n_ppipe: float
    l_pipe: float
    b: float
    n_min_bl: float
    w_memory_bus: float
    t_thread_delay: float

    def __post_init__(self):
        for f in fields(self):
            check_real(
                f.name, getattr(self, f.name), 0.0, None, "Features", lo_open=True
            )


def derive(cp_aa, cp_oa, cp_ao, cp_oo, gmb_aa, gmb_oa, gmb_ao, gmb_oo) -> Features:
    """The six features (and P, B) from the eight parameters (Perez & Piccoli,
    §3.2-3.3).

    Every parameter must be a positive finite number; anything else raises
    ``ValueError`` naming it.
    """
    v = {
        name: check_real(name, x, 0.0, None, lo_open=True)
        for name, x in zip(
            PARAMETERS, (cp_aa, cp_oa, cp_ao, cp_oo, gmb_aa, gmb_oa, gmb_ao, gmb_oo)
        )
    }
    n = {
        k: np.float64(x) for k, x in v.items()
    }  # numpy floats: overflow gives inf, not an error
    with np.errstate(over="ignore", divide="ignore", under="ignore", invalid="ignore"):
        f = {
            "p": n["cp_aa"],
            "sm_count": n["cp_aa"] / n["cp_oa"],
            "n_ppipe": n["cp_aa"] / n["cp_ao"],
            "l_pipe": (n["cp_ao"] * n["cp_oa"]) / (n["cp_oo"] * n["cp_aa"]),
            "b": n["gmb_aa"],
            "n_min_bl": n["gmb_aa"] / n["gmb_oa"],
            "w_memory_bus": n["gmb_aa"] / n["gmb_ao"],
            "t_thread_delay": n["gmb_ao"] / n["gmb_oo"],
        }
    for name, x in f.items():
        finite_result(name, x, **v)
        if not x > 0:
            raise OutsideDomainError(
                f"{name} underflows to 0 for {v}: the parameters are beyond the "
                f"floating-point range of the features"
            )
    return Features(**{k: float(x) for k, x in f.items()})


@dataclass(frozen=True)
class Parameters:
    """One GPU's eight parameters (GFLOP/s and GB/s) with their sources."""

    gpu: str
    cp_aa: float
    cp_oa: float
    cp_ao: float
    cp_oo: float
    gmb_aa: float
    gmb_oa: float
    gmb_ao: float
    gmb_oo: float
    sources: Mapping[str, str] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def __post_init__(self):
        check_text("gpu", self.gpu, "Parameters")
        check_mapping("sources", self.sources, "Parameters")
        for name in PARAMETERS:
            check_real(
                name, getattr(self, name), 0.0, None, lo_open=True, context=self.gpu
            )

    def values(self) -> dict[str, float]:
        """The eight parameters as a dictionary, in :data:`PARAMETERS` order."""
        return {name: getattr(self, name) for name in PARAMETERS}

    def features(self) -> Features:
        """:func:`derive` applied to these parameters."""
        return derive(**self.values())


@cache
def _measured() -> dict[str, Parameters]:
    vals: dict[str, dict[str, float]] = {}
    srcs: dict[str, dict[str, str]] = {}
    for r in read_rows("perez/parameters.csv"):
        vals.setdefault(r["gpu"], {})[r["parameter"]] = float(r["value"])
        srcs.setdefault(r["gpu"], {})[r["parameter"]] = r["source"]
    return {
        g: Parameters(g, sources=MappingProxyType(srcs[g]), **v)
        for g, v in vals.items()
    }


def gpus() -> list[str]:
    """The GPUs the paper measured (``data/perez/parameters.csv``), in table order."""
    return list(_measured())


def measured(gpu: str) -> Parameters:
    """The paper's eight measured parameters for ``gpu`` (GTS250, GTX260 or GTX470)."""
    name = _canonical(gpu)
    if name not in _measured():
        raise UnknownNameError(
            f"gpu must be one the paper measured ({', '.join(gpus())}), got {gpu!r}"
        )
    return _measured()[name]


def _canonical(gpu: str) -> str:
    try:
        return hardware.get_gpu(gpu).name
    except KeyError:
        raise UnknownNameError(
            f"gpu must be one the paper measured ({', '.join(gpus())}), got {gpu!r}"
        ) from None


def flops_per_sp_cycle(gpu: str) -> float:
    """Flops per SP per shader cycle in the paper's theoretical P (2, or 1 for the GTX
    470; §4)."""
    name = _canonical(gpu)
    for r in read_rows("perez/theory.csv"):
        if r["gpu"] == name and r["parameter"] == "flops_per_sp_cycle":
            return float(r["value"])
    raise ValueError(
        f"gpu must be one with the paper's theoretical P rule ({', '.join(gpus())}), "
        f"got {gpu!r}"
    )


def theoretical_p(gpu: str) -> float:
    """``P = k · f_shader · ||SP||`` in GFLOP/s (§4), from the hardware table."""
    g = hardware.get_gpu(gpu)
    return flops_per_sp_cycle(gpu) * g.clock_ghz * g.cuda_cores


def theoretical_b(gpu: str) -> float:
    """``B = f_mem · width · 2 / 8`` in GB/s (§4: double data rate, bits to bytes)."""
    g = hardware.get_gpu(gpu)
    if g.memory_clock_mhz is None or g.memory_bus_width_bits is None:
        raise ValueError(
            f"gpu must have a sourced memory clock and bus width for B, got {gpu!r}"
        )
    return g.memory_clock_mhz * 1e-3 * g.memory_bus_width_bits * 2 / 8


def littles_law(gpu: str, flops_per_op: float | None = None) -> dict[str, float]:
    """What Little's law predicts for the computing-power parameters of ``gpu``.

    Uses Volkov's arithmetic latency ``alu_lat`` (cycles) and throughput ``alu_thru``
    (warp instructions per cycle per SM) for the GPU's generation
    (:func:`gpumodels.facts.param_sets.params`; Tables 6.1-6.2 — measured on a GTX 480
    for Fermi, an 8800 GTX for G80, a GTX 280 for GT200), the block-slot limit of its
    compute capability, and the paper's shader clock and SM count:

    * ``cp_oo = k · f / alu_lat`` — one thread waits the full latency for each
      operation;
    * ``warps_to_fill = alu_lat · alu_thru`` — the warps one SM needs in flight
      (Little's law);
    * ``l_pipe = min(warps_to_fill, max_blocks_per_sm)``: one-thread blocks are one warp
      each;
    * ``n_ppipe = 32 · warps_to_fill / l_pipe``: a warp of one thread uses 1/32 of the
      lanes;
    * ``cp_ao = SMs · l_pipe · cp_oo`` and ``cp_aa = SMs · 32 · alu_thru · k · f`` (the
      peak);
    * ``t_thread_delay_max = SMs · max_blocks_per_sm``: the one-thread blocks in flight,
      the most by which All–One can exceed One–One when both wait on memory latency.
    """

    g = hardware.get_gpu(gpu)
    p = volkov_params(g.generation)
    k = (
        flops_per_sp_cycle(gpu)
        if flops_per_op is None
        else check_real("flops_per_op", flops_per_op, 0.0, None, lo_open=True)
    )
    max_blocks = occupancy.limits(g.compute_capability).max_blocks_per_sm
    fill = p.alu_lat * p.alu_thru
    l_pipe = min(fill, max_blocks)
    cp_oo = k * g.clock_ghz / p.alu_lat
    return {
        "alu_lat": p.alu_lat,
        "alu_thru": p.alu_thru,
        "max_blocks_per_sm": max_blocks,
        "warps_to_fill": fill,
        "l_pipe": l_pipe,
        "n_ppipe": WARP_SIZE * fill / l_pipe,
        "cp_oo": cp_oo,
        "cp_ao": g.sm_count * l_pipe * cp_oo,
        "cp_aa": g.sm_count * WARP_SIZE * p.alu_thru * k * g.clock_ghz,
        "t_thread_delay_max": g.sm_count * max_blocks,
    }


def feature_names() -> tuple[str, ...]:
    """The field names of :class:`Features`, in order."""
    return tuple(f.name for f in fields(Features))


# ---- the BEN_MyCP-style CUDA benchmark (bench/perfparams_bench.cu) ----

BENCH_SOURCE = "perfparams_bench.cu"
"""The CUDA program in ``bench/`` that measures the eight parameters on a current
GPU."""

BENCH_FIELDS = (
    "gpu",
    "cc",
    "sm_count",
    "driver",
    "date",
    "kind",
    "shape",
    "parameter",
    "blocks",
    "threads",
    "ms",
    "work",
    "value",
    "unit",
    "measured_by",
    "source",
)
"""Columns of the tidy CSV that :func:`bench_rows` produces (one row per
measurement)."""


def parse_bench(text: str) -> tuple[dict[str, str], list[dict]]:
    """Parse the output of ``perfparams_bench``: the device line and one dict per
    measurement.

    Strict, so that damaged output never becomes "measured" rows; each of these raises
    :class:`~gpumodels.ground.errors.DataError` (a ``ValueError``) naming the line and
    the field: a device line that is not CSV ``# device,<name>,cc,<X.Y>,sms,<n>`` (a
    quoted name may hold commas; an unquoted one is read up to its ``cc`` field) or is
    given twice, a header other than ``kind,shape,blocks,threads,ms,work,value,unit``,
    a line with too few or too many fields, an unknown kind, shape or unit, a
    measurement repeated, ``blocks`` and ``threads`` that are not positive integers
    (``threads`` at most 1024) or do not match the shape (§3.1: ``o`` = one), ``work``
    not printed as an integer (``%.0f``) or not a whole number of operations (compute:
    32 flops x iterations x blocks x threads; memory: 8 bytes per word), ``ms`` or
    ``value`` not printed as ``%.6f`` (a row cut short; this also refuses NaN, inf and
    signs), a ``value`` that is not ``work / ms / 1e6`` within the printed rounding,
    fewer than the eight measurements, or output that stops in the middle of a line.
    """
    if not isinstance(text, str):
        raise InputTypeError(f"text must be the program's output (str), got {text!r}")
    device: dict[str, str] = {}
    rows: list[dict] = []
    header = None
    seen: dict[tuple[str, str], int] = {}
    for no, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("# device,"):
            if device:
                raise DataError(f"line {no}: a second '# device,' line: {line!r}")
            device = _device_line(line, no)
        elif header is None:
            header = _bench_header(line, no)
        else:
            rows.append(_bench_row(header, line, seen, no))
    if not device or header is None:
        raise DataError(
            "perfparams_bench output must contain its '# device,' line and CSV header"
        )
    if not text.endswith("\n"):
        raise DataError(
            "perfparams_bench output stops in the middle of its last line (cut short?)"
        )
    missing = [p for p in PARAMETERS if p not in {r["parameter"] for r in rows}]
    if missing:
        raise DataError(
            f"perfparams_bench output ends after {len(rows)} of its 8 measurements "
            f"(missing {', '.join(missing)}): cut short?"
        )
    return device, rows


_BENCH_HEADER = ["kind", "shape", "blocks", "threads", "ms", "work", "value", "unit"]


def _bench_header(line: str, no: int = 0) -> list[str]:
    """The column names from ``perfparams_bench``'s CSV header line; ``DataError``
    unless it is exactly ``kind,shape,blocks,threads,ms,work,value,unit``."""
    cells = line.split(",")
    if cells != _BENCH_HEADER:
        raise DataError(
            f"line {no}: perfparams_bench output must start with its CSV header "
            f"{','.join(_BENCH_HEADER)!r}, got {line!r}"
        )
    return cells


def _bench_row(
    header: list[str], line: str, seen: dict[tuple[str, str], int], no: int = 0
) -> dict:
    """One measurement line as a dict (numbers converted, ``parameter`` added).

    ``seen`` maps the (kind, shape) pairs already read to their line and is updated
    here; ``DataError`` for a wrong field count, an unknown kind or shape, a repeated
    measurement, or a wrong unit, and (from :func:`_bench_numbers`) for badly printed,
    out-of-range or inconsistent numbers.
    """
    cells = line.split(",")
    if len(cells) != len(header):
        raise DataError(
            f"line {no}: perfparams_bench line has {len(cells)} fields, expected "
            f"{len(header)}: {line!r}"
        )
    r = dict(zip(header, cells))
    if r["kind"] not in ("compute", "memory") or r["shape"] not in SHAPES:
        raise DataError(
            f"line {no}: unknown kind or shape in perfparams_bench line: {line!r}"
        )
    if (r["kind"], r["shape"]) in seen:
        raise DataError(
            f"line {no}: measurement {r['kind']},{r['shape']} appears twice (first "
            f"on line {seen[r['kind'], r['shape']]}): {line!r}"
        )
    seen[r["kind"], r["shape"]] = no
    unit = "GFLOP/s" if r["kind"] == "compute" else "GB/s"
    if r.get("unit") != unit:
        raise DataError(
            f"line {no}: a {r['kind']} row must be in {unit}, got field unit "
            f"{r.get('unit')!r}: {line!r}"
        )
    _bench_numbers(r, line, no)
    r["parameter"] = ("cp_" if r["kind"] == "compute" else "gmb_") + r["shape"]
    return r


def _bench_numbers(r: dict, line: str, no: int = 0) -> None:
    """Convert a row's numeric fields in place (``blocks``, ``threads``: int; ``ms``,
    ``work``, ``value``: float) and check them against each other; ``DataError``
    naming the line and the field otherwise (see :func:`parse_bench`)."""
    for c, pattern, fmt in (
        ("blocks", r"[0-9]+", "%d"),
        ("threads", r"[0-9]+", "%d"),
        ("ms", r"[0-9]+\.[0-9]{6}", "%.6f"),
        ("work", r"[0-9]+", "%.0f"),
        ("value", r"[0-9]+\.[0-9]{6}", "%.6f"),
    ):
        if not re.fullmatch(pattern, r[c]):
            raise DataError(
                f"line {no}: {c} must be printed as {fmt} by perfparams_bench (a row "
                f"cut short?), got {r[c]!r}: {line!r}"
            )
    for c in ("blocks", "threads"):
        r[c] = int(r[c])
    work = int(r["work"])
    for c in ("ms", "work", "value"):
        r[c] = float(r[c])
    if min(r["blocks"], r["threads"]) < 1 or not (
        r["ms"] > 0 and r["work"] > 0 and r["value"] > 0
    ):
        raise DataError(
            f"line {no}: blocks, threads, ms, work and value must be positive: {line!r}"
        )
    if r["threads"] > 1024:
        raise DataError(
            f"line {no}: threads must be at most 1024 (a block's limit), got "
            f"{r['threads']}: {line!r}"
        )
    for c, want in zip(("blocks", "threads"), SHAPES[r["shape"]]):
        if (want == 1) != (r[c] == 1):
            raise DataError(
                f"line {no}: shape {r['shape']} launches "
                f"{'one' if want == 1 else 'many'} {c[:-1]}"
                f"{'' if want == 1 else 's'}, but field {c} is {r[c]}: {line!r}"
            )
    per = 32 * r["blocks"] * r["threads"] if r["kind"] == "compute" else 8
    if work % per:
        what = "32 x blocks x threads flops" if r["kind"] == "compute" else "8 bytes"
        raise DataError(
            f"line {no}: work {work} is not a whole number of {what} ({per}): {line!r}"
        )
    # value = work / ms / 1e6 with ms and value printed to 6 decimals, work to 1
    ms, half = r["ms"], 5e-7
    lo = (work - 0.5) / (ms + half) / 1e6 - half
    hi = (work + 0.5) / (ms - half) / 1e6 + half if ms > half else math.inf
    if not lo * (1 - 1e-9) <= r["value"] <= hi * (1 + 1e-9):
        raise DataError(
            f"line {no}: value {r['value']:.6f} is not work / ms / 1e6 = "
            f"{work / ms / 1e6:.6f} (work {work}, ms {ms:.6f}): {line!r}"
        )


def _device_line(line: str, no: int = 0) -> dict[str, str]:
    """``# device,<name>,cc,<X.Y>,sms,<n>``; the name may be quoted, or unquoted with
    commas."""
    try:
        parts = next(csv.reader(io.StringIO(line[2:])))
    except csv.Error as e:
        raise DataError(f"line {no}: device line is not CSV ({e}): {line!r}") from None
    if len(parts) >= 6 and parts[-4] == "cc" and parts[-2] == "sms":
        parts = [parts[0], ",".join(parts[1:-4]), *parts[-4:]]
    d = dict(zip(parts[0::2], parts[1::2]))
    if len(parts) != 6 or set(d) != {"device", "cc", "sms"} or not d["device"].strip():
        raise DataError(
            f"line {no}: device line must read '# device,<name>,cc,<X.Y>,sms,<n>', "
            f"got {line!r}"
        )
    if not re.fullmatch(r"[0-9]+\.[0-9]+", d["cc"]):
        raise DataError(
            f"line {no}: device line: cc must look like '9.0', got {d['cc']!r}"
        )
    if not (re.fullmatch(r"[0-9]+", d["sms"]) and int(d["sms"]) >= 1):
        raise DataError(
            f"line {no}: device line: sms must be a positive integer, got {d['sms']!r}"
        )
    return d


def bench_rows(text: str, *, driver: str, date: str) -> list[dict]:
    """Tidy rows (:data:`BENCH_FIELDS`) from the program's output, labelled measured by
    this project."""
    check_text("driver", driver)
    check_text("date", date)
    device, rows = parse_bench(text)
    return [
        {
            "gpu": device.get("device", ""),
            "cc": device.get("cc", ""),
            "sm_count": device.get("sms", ""),
            "driver": driver,
            "date": date,
            **{
                k: r[k]
                for k in (
                    "kind",
                    "shape",
                    "parameter",
                    "blocks",
                    "threads",
                    "ms",
                    "work",
                    "value",
                    "unit",
                )
            },
            "measured_by": "this project (gpumodels), bench/perfparams_bench.cu",
            "source": "measured",
        }
        for r in rows
    ]


def bench_parameters(rows: list[dict]) -> Parameters:
    """The eight parameters from :func:`bench_rows` output (all eight must be
    present)."""
    check_sequence("rows", rows)
    got = {}
    for i, r in enumerate(rows):
        row = f"rows[{i}]"
        check_mapping(row, r, "a row of bench_rows()")
        check_keys(row, r, ("gpu", "parameter", "value"), "a row of bench_rows()")
        try:
            got[r["parameter"]] = float(r["value"])
        except (TypeError, ValueError, OverflowError):
            raise DataError(
                f"rows[{i}] must hold a parameter name and a number value, got "
                f"parameter {r['parameter']!r:.40} and value {r['value']!r:.40}"
            ) from None
    missing = [p for p in PARAMETERS if p not in got]
    if missing:
        raise ValueError(
            f"rows must hold all eight parameters; missing {', '.join(missing)}"
        )
    return Parameters(rows[0]["gpu"], **{p: got[p] for p in PARAMETERS})


def printed_cells() -> dict[str, float]:
    """Every feature cell the paper prints, as ``{published key: ratio of the printed
    parameters}``.

    Keys are those of the tables of ``data/published/`` (``pp.t5.*``,
    ``pp.t7.*``); the GTX 470's ``N_PPipe``, printed as "32×2.25" = 72, is compared at
    the integer precision of the paper's other ``N_PPipe`` cells.
    """
    out: dict[str, float] = {}
    for g in gpus():
        f = measured(g).features()
        out |= {
            f"pp.t5.sm_count.{g}": f.sm_count,
            f"pp.t5.l_pipe.{g}": f.l_pipe,
            f"pp.t7.n_min_bl.{g}": f.n_min_bl,
            f"pp.t7.w_memory_bus.{g}": f.w_memory_bus,
            f"pp.t7.t_thread_delay.{g}": f.t_thread_delay,
            f"pp.t5.n_ppipe.{g}": f.n_ppipe,
        }
    return out


def plot_littles_law(axes, names: list[str] | None = None) -> None:
    """Little's-law predictions (bars, model) beside the paper's measured features
    (diamonds) for each GPU: L_Pipe and N_PPipe/32 (``axes[0]``), Cp_One-One
    (``axes[1]``) and T_Thread_Delay against its concurrency bound (``axes[2]``), with
    one legend below the panels."""
    names = list(names or gpus())
    law = [littles_law(g) for g in names]
    m = [measured(g) for g in names]
    f = [x.features() for x in m]
    x = np.arange(len(names))
    a, b, c = axes
    # (axes, offset, bar width, model values, label, colour index, measured values,
    # label); each quantity has its own colour, shared by its model bars and the paper's
    # measured diamonds
    panels = [
        (
            a,
            -0.2,
            0.4,
            [d["l_pipe"] for d in law],
            "L_Pipe, Little's law (model)",
            0,
            [v.l_pipe for v in f],
            "L_Pipe (paper's measurements)",
        ),
        (
            a,
            0.2,
            0.4,
            [d["n_ppipe"] / WARP_SIZE for d in law],
            "N_PPipe / 32, Little's law (model)",
            3,
            [v.n_ppipe / WARP_SIZE for v in f],
            "N_PPipe / 32 (paper's measurements)",
        ),
        (
            b,
            0.0,
            0.5,
            [d["cp_oo"] for d in law],
            "Cp_One-One = k·f / alu_lat (model)",
            2,
            [v.cp_oo for v in m],
            "Cp_One-One (paper's measurements)",
        ),
        (
            c,
            0.0,
            0.5,
            [d["t_thread_delay_max"] for d in law],
            "SMs × block slots (model bound)",
            4,
            [v.t_thread_delay for v in f],
            "T_Thread_Delay (paper's measurements)",
        ),
    ]
    for ax, dx, w, model, mlabel, col, meas, plabel in panels:
        ax.bar(x + dx, model, w, color=plotting.PALETTE[col], alpha=0.35, label=mlabel)
        plotting.published(
            ax,
            x + dx,
            meas,
            label=plabel,
            color=plotting.PALETTE[col],
            markersize=8,
            markeredgewidth=1.8,
        )
    gpu = plotting.CATEGORICAL
    plotting.label(
        a, "GPU", gpu, "pipeline feature", "warps or ratio", title="L_Pipe and N_PPipe"
    )
    plotting.label(
        b, "GPU", gpu, "one-thread computing power", "GFLOP/s", title="Cp_One-One"
    )
    plotting.label(
        c, "GPU", gpu, "GMb_All-One / GMb_One-One", "ratio", title="T_Thread_Delay"
    )
    for ax in axes:
        ax.set_xticks(x, names, rotation=45, ha="right", rotation_mode="anchor")
    # one legend for the three panels, below them (models first, then the measurements)
    handles = [h for ax in axes for h in ax.get_legend_handles_labels()[0]]
    models = [h for h in handles if "model" in h.get_label()]
    a.figure.legend(
        handles=models + [h for h in handles if h not in models],
        loc="outside lower center",
        ncols=2,
    )


# Explorer (live kernel only; the tests call summary_html)
