"""Driver for the CUDA microbenchmarks in ``bench/`` (Volkov 2016, chapters 5–6, on
current GPUs).

``bench/volkov_bench.cu`` implements the dissertation's instruments: the α-mix pointer
chase (one load and α dependent FADDs), its ILP variants, homogeneous FADD / SFU /
shared-memory (with and without 2-way bank conflicts) chains, streaming and random
access, per-warp clock timestamps, and occupancy control by dynamic shared memory. This
module builds it with ``nvcc``, plans the launches (the shared-memory request for each
target blocks/SM, from
:func:`gpumodels.papers.volkov.experiment.shared_memory_for_blocks`), runs it, parses
its output and reduces the warp timestamps with
:func:`gpumodels.papers.volkov.experiment.timing` into one tidy CSV row per run: GPU,
driver, clocks, date, parameters, attained occupancy, throughput and mean warp latency.
Every row is labelled ``kind = "measured"``.

Nothing here needs a GPU until :func:`run` is called; building needs only ``nvcc``.
"""

from __future__ import annotations

import collections.abc
import csv
import datetime as _dt
import io
import os
import re
import shutil
import subprocess
from pathlib import Path

from gpumodels.ground.errors import (
    DataError,
    InputTypeError,
    OutOfRangeError,
    UnknownNameError,
)
from gpumodels.ground.validate import (
    check_flag,
    check_int,
    check_items,
    check_keys,
    check_mapping,
    check_text,
    check_type,
)
from gpumodels.papers.volkov import experiment as _ex

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"
"""The CUDA sources (``bench/`` at the repository root)."""

SOURCES = ("volkov_bench.cu", "perfparams_bench.cu")
"""CUDA programs to build; each compiles to a binary of the same stem
(``perfparams_bench.cu`` is Perez & Piccoli's eight parameters, driven by
:mod:`gpumodels.papers.perez_piccoli.model`)."""

KINDS = ("chase", "add", "sfu", "smem", "smem2")
"""The kinds of run the benchmark program knows (its ``arg.kind``)."""
ALPHAS = (0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
"""α values compiled into ``volkov_bench`` (ILP 2, 4, 8 for α = 0 only)."""

BYTES_PER_THREAD_ACCESS = 8
"""Bytes one thread loads per chase step: a 64-bit pointer (the dissertation's 32-bit
builds: 4)."""

FIELDS = (
    "gpu",
    "cc",
    "driver",
    "sm_count",
    "clock_mhz",
    "mem_clock_mhz",
    "date",
    "kind",
    "pattern",
    "alpha",
    "ilp",
    "threads_per_block",
    "blocks",
    "smem_request",
    "registers",
    "blocks_per_sm_cuda",
    "warps",
    "max_occupancy",
    "mean_occupancy",
    "repeats_per_warp",
    "cycles",
    "ipc_per_sm",
    "gbs",
    "mean_warp_latency",
    "latency_per_repeat",
    "measured_by",
    "source",
)


def nvcc() -> str | None:
    """Path of ``nvcc`` (PATH, then ``/usr/local/cuda/bin``), or ``None``."""
    found = shutil.which("nvcc")
    if found:
        return found
    default = Path("/usr/local/cuda/bin/nvcc")
    return str(default) if default.exists() else None


def compile_command(
    source: str,
    arch: str = "sm_90",
    output: str | Path | None = None,
    compile_only: bool = False,
) -> list[str]:
    """The ``nvcc`` command line for one source (``compile_only``: object file, no
    link)."""
    compile_only = check_flag("compile_only", compile_only)
    if source not in SOURCES:
        raise UnknownNameError(f"source must be one of {SOURCES}, got {source!r}")
    if not (isinstance(arch, str) and arch.startswith(("sm_", "compute_"))):
        raise ValueError(f"arch must look like 'sm_90', got {arch!r}")
    if output is not None:
        check_type("output", output, (str, os.PathLike))
    exe = nvcc() or "nvcc"
    out = (
        Path(output)
        if output is not None
        else Path(Path(source).stem + (".o" if compile_only else ""))
    )
    cmd = [exe, "-O3", "-std=c++17", f"-arch={arch}", "-I", str(BENCH_DIR)]
    return (
        cmd
        + (["-c"] if compile_only else [])
        + ["-o", str(out), str(BENCH_DIR / source)]
    )


def build(
    out_dir: str | Path, arch: str = "sm_90", compile_only: bool = False
) -> list[Path]:
    """Compile every source into ``out_dir``; ``RuntimeError`` with nvcc's messages on
    failure."""
    compile_only = check_flag("compile_only", compile_only)
    if nvcc() is None:
        raise RuntimeError(
            "nvcc not found (PATH or /usr/local/cuda/bin); install the CUDA toolkit to "
            "build bench/"
        )
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    built = []
    for src in SOURCES:
        target = out_dir / (Path(src).stem + (".o" if compile_only else ""))
        res = subprocess.run(
            compile_command(src, arch, target, compile_only),
            capture_output=True,
            text=True,
            check=False,  # a failure is reported below with nvcc's messages
        )
        if res.returncode != 0:
            raise RuntimeError(f"nvcc failed on {src}:\n{res.stderr[-4000:]}")
        built.append(target)
    return built


def parse_output(text: str):
    """Split ``volkov_bench`` output into its ``# key=value`` header (dict) and the warp
    table.

    The table is a dict of lists ``warp, sm, start, end`` (integers). The parser is
    strict, so that a damaged run is never summarised as a measurement; each of these
    raises :class:`~gpumodels.ground.errors.DataError` (a ``ValueError``) naming the
    line and the field:

    - a header line that is not ``# key=value``, a key the program does not print
      (:data:`HEADER_KEYS`, ``arg.`` + :data:`ARG_KEYS`), a key given twice, a missing
      ``gpu``, ``sm_count``, ``clock_khz`` or ``repeats_per_warp``;
    - a header value of the wrong form or out of range: counts are decimal integers
      (``sm_count``, ``clock_khz``, ``repeats_per_warp``, ``arg.threads`` (1 to 1024),
      ``arg.iters`` positive; ``arg.blocks`` = 0 means the program's default of 100
      blocks per SM slot), ``arg.kind`` one of :data:`KINDS`, ``arg.alpha`` and
      ``arg.ilp`` a pair compiled into the program (α in :data:`ALPHAS`; ILP 1, 2, 4, 8
      for the α = 0 chase, 1, 2, 4 for ``add``, else 1), ``elapsed_ms`` a finite
      number;
    - ``repeats_per_warp`` that is not ``arg.iters`` × the program's unroll factor for
      the printed kind, α and ILP (when ``arg.iters`` is printed);
    - a table line that is not four unsigned decimal integers, a repeated warp, an SM
      index beyond ``sm_count``, a warp whose ``end`` is not after its ``start`` (no
      elapsed time), fewer warps than the launch had (``arg.blocks`` ×
      ``ceil(arg.threads / 32)``), and output that stops in the middle of a line.
    """
    meta, lines, rows = _parse_lines(text)
    _check_headers(text, meta, lines)
    _check_table(meta, lines, rows)
    return meta, rows


_TABLE_COLUMNS = ["warp", "sm", "start", "end"]

_UINT = re.compile(r"[0-9]+")
_REAL = re.compile(r"[0-9]+(\.[0-9]+)?")

ARG_KEYS = (
    "kind",
    "pattern",
    "alpha",
    "ilp",
    "threads",
    "blocks",
    "smem",
    "iters",
    "array_mb",
    "spacing",
    "seed",
    "start_stride",
    "device",
    "warmup",
)
"""The ``key=value`` arguments ``volkov_bench`` takes, each echoed as ``# arg.key=``."""

HEADER_KEYS = (
    "gpu",
    "cc",
    "sm_count",
    "clock_khz",
    "mem_clock_khz",
    "driver_api",
    "runtime",
    "registers",
    "static_smem",
    "blocks_per_sm_cuda",
    "repeats_per_warp",
    "spacing",
    "elapsed_ms",
)
"""The other header keys ``volkov_bench`` prints (``# key=value``)."""

# header key -> (lowest, highest or None) for the unsigned integer ones
_INT_RANGES = {
    "sm_count": (1, None),
    "clock_khz": (1, None),
    "mem_clock_khz": (0, None),
    "driver_api": (0, None),
    "runtime": (0, None),
    "registers": (0, 255),
    "static_smem": (0, None),
    "blocks_per_sm_cuda": (1, None),
    "repeats_per_warp": (1, None),
    "spacing": (1, None),
    "arg.alpha": (0, None),
    "arg.ilp": (1, None),
    "arg.threads": (1, 1024),
    "arg.blocks": (0, None),
    "arg.smem": (0, None),
    "arg.iters": (1, None),
    "arg.array_mb": (1, None),
    "arg.spacing": (0, None),
    "arg.start_stride": (0, None),
    "arg.device": (0, None),
    "arg.warmup": (0, None),
}

_COMPILED_ILP = {"chase": (1, 2, 4, 8), "add": (1, 2, 4)}
"""ILP values compiled into ``volkov_bench`` per kind (chase: for α = 0; else ILP 1)."""


def _where(lines: dict[str, int], key: str) -> str:
    return f"line {lines[key]}" if key in lines else "volkov_bench output"


def _parse_lines(
    text: str,
) -> tuple[dict[str, str], dict[str, int], dict[str, list[int]]]:
    """Read every line of the output into the header dict, the header's line numbers
    and the warp table.

    Each line is checked as it is read (header syntax, known keys, repeats, the table's
    column line, the records' integers); raises ``DataError`` naming the first bad
    line, or when the output holds no warp record at all.
    """
    if not isinstance(text, str):
        raise InputTypeError(f"text must be the program's output (str), got {text!r}")
    meta: dict[str, str] = {}
    lines: dict[str, int] = {}
    cols = None
    rows: dict[str, list[int]] = {}
    seen: dict[int, int] = {}
    for no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            if cols is not None:
                raise DataError(
                    f"line {no}: header line {line!r} after the warp table started"
                )
            _parse_header_line(meta, lines, no, line)
        elif cols is None:
            cols = _parse_column_line(no, line)
            rows = {c: [] for c in cols}
        else:
            vals = _parse_record(seen, no, line)
            for c, v in zip(cols, vals):
                rows[c].append(v)
    if cols is None or not rows["warp"]:
        raise DataError("no warp records in the output")
    return meta, lines, rows


def _parse_header_line(
    meta: dict[str, str], lines: dict[str, int], no: int, line: str
) -> None:
    """Add one ``# key=value`` line (line number ``no``) to ``meta``; ``DataError``
    if it is malformed, its key is not one the program prints or was already given."""
    key, sep, val = line[1:].strip().partition("=")
    key = key.strip()
    if not sep or not key:
        raise DataError(
            f"line {no}: header lines look like '# key=value', got {line!r}"
        )
    known = key in HEADER_KEYS or (key.startswith("arg.") and key[4:] in ARG_KEYS)
    if not known:
        raise DataError(
            f"line {no}: unknown header {key!r} (volkov_bench prints "
            f"{', '.join(HEADER_KEYS)} and arg.<{'|'.join(ARG_KEYS)}>)"
        )
    if key in meta:
        raise DataError(
            f"line {no}: header {key!r} given twice (first on line {lines[key]})"
        )
    meta[key] = val.strip()
    lines[key] = no


def _parse_column_line(no: int, line: str) -> list[str]:
    """The table's column names from its first line; ``DataError`` unless they are
    exactly ``warp,sm,start,end``."""
    cols = [c.strip() for c in line.split(",")]
    if cols != _TABLE_COLUMNS:
        raise DataError(
            f"line {no}: expected the header 'warp,sm,start,end', got {line!r}"
        )
    return cols


def _parse_record(seen: dict[int, int], no: int, line: str) -> list[int]:
    """One warp record ``warp,sm,start,end`` as four unsigned integers.

    ``seen`` maps each warp already read to its line number and is updated here;
    ``DataError`` for a line that is not four unsigned decimal integers, a repeated
    warp, or a warp whose ``end`` is not after its ``start``.
    """
    parts = line.split(",")
    if len(parts) != 4:
        raise DataError(
            f"line {no}: expected four integers warp,sm,start,end, got {line!r}"
        )
    for col, p in zip(_TABLE_COLUMNS, parts):
        if not _UINT.fullmatch(p.strip()):
            raise DataError(
                f"line {no}: {col} must be an unsigned integer (expected four "
                f"integers), got {p!r} in {line!r}"
            )
    vals = [int(p) for p in parts]
    warp, _sm, start, end = vals
    if warp in seen:
        raise DataError(f"line {no}: warp {warp} already recorded on line {seen[warp]}")
    if end <= start:
        raise DataError(
            f"line {no}: warp {warp} has end {end} <= start {start}: no elapsed "
            "time, so the run is not a measurement"
        )
    seen[warp] = no
    return vals


def _check_headers(text: str, meta: dict[str, str], lines: dict[str, int]) -> None:
    """Check that the required header lines are present, that the output ends with a
    newline, and every header value (:func:`_check_meta`); ``DataError`` otherwise."""
    for key in ("gpu", "sm_count", "clock_khz", "repeats_per_warp"):
        if key not in meta:
            raise DataError(f"output lacks the header line '# {key}=...'")
    if not text.endswith("\n"):
        raise DataError("the output stops in the middle of its last line (cut short?)")
    _check_meta(meta, lines)


def _check_meta(meta: dict[str, str], lines: dict[str, int] | None = None) -> None:
    """Check each header value's form and range, and ``repeats_per_warp`` against
    ``arg.iters``, ``arg.kind``, ``arg.alpha`` and ``arg.ilp``; ``DataError`` naming
    the line (or the output) and the key."""
    lines = lines or {}
    if not isinstance(meta, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in meta.items()
    ):
        raise InputTypeError(
            f"meta must be parse_output's header dict of strings, got {meta!r:.80}"
        )
    if not meta.get("gpu", "x").strip():
        raise DataError(f"{_where(lines, 'gpu')}: header 'gpu' is empty")
    if "cc" in meta and not re.fullmatch(r"[0-9]+\.[0-9]+", meta["cc"]):
        raise DataError(
            f"{_where(lines, 'cc')}: header cc must look like '9.0', got {meta['cc']!r}"
        )
    for key, (lo, hi) in _INT_RANGES.items():
        if key in meta:
            _header_int(meta, key, lines, lo, hi)
    if "elapsed_ms" in meta and not _REAL.fullmatch(meta["elapsed_ms"]):
        raise DataError(
            f"{_where(lines, 'elapsed_ms')}: header elapsed_ms must be a finite "
            f"non-negative number, got {meta['elapsed_ms']!r}"
        )
    kind = meta.get("arg.kind", "chase")
    if kind not in KINDS:
        raise DataError(
            f"{_where(lines, 'arg.kind')}: header arg.kind must be one of {KINDS}, "
            f"got {kind!r}"
        )
    if meta.get("arg.pattern", "stream") not in ("stream", "random"):
        raise DataError(
            f"{_where(lines, 'arg.pattern')}: header arg.pattern must be 'stream' or "
            f"'random', got {meta['arg.pattern']!r}"
        )
    alpha = int(meta.get("arg.alpha", "0"))
    ilp = int(meta.get("arg.ilp", "1"))
    if kind == "chase" and alpha not in ALPHAS:
        raise DataError(
            f"{_where(lines, 'arg.alpha')}: header arg.alpha must be one of {ALPHAS} "
            f"(compiled into volkov_bench), got {alpha}"
        )
    compiled = _COMPILED_ILP.get(kind, (1,)) if kind != "chase" or alpha == 0 else (1,)
    if kind == "chase" and meta.get("arg.pattern") == "random":
        compiled = (1,)
    if ilp not in compiled:
        raise DataError(
            f"{_where(lines, 'arg.ilp')}: header arg.ilp must be one of {compiled} "
            f"for kind={kind}"
            + (f", alpha={alpha}" if kind == "chase" else "")
            + f" (compiled into volkov_bench), got {ilp}"
        )
    if "arg.iters" in meta:
        per = (alpha + 1) * ilp if kind == "chase" else ilp
        expected = int(meta["arg.iters"]) * max(1, 512 // per)
        if int(meta["repeats_per_warp"]) != expected:
            raise DataError(
                f"{_where(lines, 'repeats_per_warp')}: header repeats_per_warp="
                f"{meta['repeats_per_warp']} is not arg.iters x unroll = {expected} "
                f"for kind={kind}, alpha={alpha}, ilp={ilp}"
            )


def _check_table(
    meta: dict[str, str], lines: dict[str, int], rows: dict[str, list[int]]
) -> None:
    """Check the header values against the warp table: every SM index below
    ``sm_count``, and (when ``arg.blocks`` and ``arg.threads`` are given) exactly the
    launch's warps ``0 .. blocks x ceil(threads/32) - 1`` (``arg.blocks=0``: the
    program's ``100 x blocks_per_sm_cuda x sm_count`` blocks); ``DataError``
    otherwise."""
    sm_count = int(meta["sm_count"])
    if max(rows["sm"]) >= sm_count:
        raise DataError(
            f"an SM index {max(rows['sm'])} is beyond sm_count={sm_count} "
            f"({_where(lines, 'sm_count')})"
        )
    blocks = int(meta.get("arg.blocks", "-1"))
    if blocks == 0 and "blocks_per_sm_cuda" in meta:
        blocks = 100 * int(meta["blocks_per_sm_cuda"]) * sm_count
    if blocks > 0 and "arg.threads" in meta:
        expected = blocks * -(-int(meta["arg.threads"]) // 32)
        if len(rows["warp"]) != expected or set(rows["warp"]) != set(range(expected)):
            raise DataError(
                f"the launch had {expected} warps (arg.blocks x arg.threads/32) but "
                f"the table records {len(rows['warp'])}: output cut short or "
                "corrupted"
            )


def _header_int(
    meta: dict[str, str],
    key: str,
    lines: dict[str, int] | None = None,
    lo: int = 1,
    hi: int | None = None,
) -> int:
    """``meta[key]`` as an unsigned decimal integer in ``[lo, hi]``; ``DataError``
    naming the line and the key otherwise."""
    text = meta[key]
    ok = bool(_UINT.fullmatch(text))
    v = int(text) if ok else None
    if not ok or v < lo or (hi is not None and v > hi):
        what = (
            "a positive integer"
            if lo == 1 and hi is None
            else (f"an integer in [{lo}, {'inf' if hi is None else hi}]")
        )
        raise DataError(
            f"{_where(lines or {}, key)}: header {key} must be {what}, got {text!r}"
        )
    return v


_SMI_CLOCK = re.compile(r"([0-9]+) MHz|\[N/A\]|\[Not Supported\]")


def parse_smi(text: str) -> dict[str, str]:
    """Parse ``nvidia-smi
    --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem
    --format=csv,noheader`` (first GPU) into a dict.

    ``DataError`` (a ``ValueError``) naming the field unless the line has exactly five
    fields: a non-empty name, a driver version like ``570.86.15`` and three clocks
    printed as ``<n> MHz`` (or ``[N/A]``), the current SM clock not above the
    maximum."""
    if not isinstance(text, str):
        raise InputTypeError(f"text must be nvidia-smi's output (str), got {text!r}")
    no, line = next(
        ((i, ln) for i, ln in enumerate(text.splitlines(), 1) if ln.strip()), (1, "")
    )
    parts = [p.strip() for p in next(csv.reader(io.StringIO(line)))] if line else []
    if len(parts) != 5:
        raise DataError(
            f"line {no}: expected 5 comma-separated fields from nvidia-smi, got "
            f"{line!r}"
        )
    d = dict(zip(("name", "driver", "clock_sm", "clock_max_sm", "clock_mem"), parts))
    if not d["name"]:
        raise DataError(f"line {no}: nvidia-smi field name is empty: {line!r}")
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)+", d["driver"]):
        raise DataError(
            f"line {no}: nvidia-smi field driver must look like '570.86.15', got "
            f"{d['driver']!r}"
        )
    mhz = {}
    for key in ("clock_sm", "clock_max_sm", "clock_mem"):
        m = _SMI_CLOCK.fullmatch(d[key])
        if not m:
            raise DataError(
                f"line {no}: nvidia-smi field {key} must read '<n> MHz' or '[N/A]', "
                f"got {d[key]!r}"
            )
        mhz[key] = int(m.group(1)) if m.group(1) else None
    if None not in (mhz["clock_sm"], mhz["clock_max_sm"]) and (
        mhz["clock_sm"] > mhz["clock_max_sm"]
    ):
        raise DataError(
            f"line {no}: nvidia-smi field clock_sm {d['clock_sm']!r} is above "
            f"clock_max_sm {d['clock_max_sm']!r}"
        )
    return d


def summarize(
    meta: dict[str, str],
    rows: dict,
    *,
    date: str | None = None,
    driver: str = "",
    measured_by: str = "gpumodels.comparisons.bench",
) -> dict:
    """One tidy row from a parsed run: attained occupancy, throughput, latency, labelled
    measured.

    ``ipc_per_sm`` counts repeated instructions (chase: loads) per cycle per SM; ``gbs``
    is the chase's memory throughput at ``BYTES_PER_THREAD_ACCESS`` bytes per thread
    access.
    """
    _check_meta(meta)
    check_keys(
        "meta",
        meta,
        ("gpu", "sm_count", "clock_khz", "repeats_per_warp"),
        "parse_output's header",
    )
    check_mapping("rows", rows, "parse_output's warp table")
    check_keys("rows", rows, ("sm", "start", "end"), "parse_output's warp table")
    if date is not None:
        check_text("date", date)
    check_text("driver", driver)
    check_text("measured_by", measured_by)
    t = _ex.timing(rows["start"], rows["end"], rows["sm"])
    reps = int(meta["repeats_per_warp"])
    ilp = int(meta.get("arg.ilp", "1"))
    instr = reps * ilp
    sm_count = int(meta["sm_count"])
    clock_mhz = int(meta["clock_khz"]) / 1000
    if not t.time > 0:
        raise ValueError(
            "the warps' timestamps span no time: the run is not a measurement"
        )
    ipc = instr * t.warps / (t.time * sm_count)
    kind = meta.get("arg.kind", "")
    gbs = (
        ipc * 32 * BYTES_PER_THREAD_ACCESS * sm_count * clock_mhz / 1000
        if kind == "chase"
        else float("nan")
    )
    when = date or _dt.date.today().isoformat()
    mean_occ = sum(tr.mean for tr in t.traces.values()) / len(t.traces)
    wpb = -(-int(meta.get("arg.threads", 32)) // 32)
    row = {
        "gpu": meta["gpu"],
        "cc": meta.get("cc", ""),
        "driver": driver or meta.get("driver_api", ""),
        "sm_count": sm_count,
        "clock_mhz": clock_mhz,
        "mem_clock_mhz": int(meta.get("mem_clock_khz", 0)) / 1000,
        "date": when,
        "kind": kind,
        "pattern": meta.get("arg.pattern", ""),
        "alpha": meta.get("arg.alpha", ""),
        "ilp": ilp,
        "threads_per_block": int(meta.get("arg.threads", 0)),
        "blocks": t.warps // wpb,
        "smem_request": int(meta.get("arg.smem", 0)),
        "registers": meta.get("registers", ""),
        "blocks_per_sm_cuda": meta.get("blocks_per_sm_cuda", ""),
        "warps": t.warps,
        "max_occupancy": t.max_occupancy,
        "mean_occupancy": mean_occ,
        "repeats_per_warp": reps,
        "cycles": t.time,
        "ipc_per_sm": ipc,
        "gbs": gbs,
        "mean_warp_latency": t.mean_warp_latency,
        "latency_per_repeat": t.mean_warp_latency / reps,
        "measured_by": measured_by,
        "source": f"measured with bench/volkov_bench.cu on {meta['gpu']}, {when}",
    }
    return row


def plan(
    cc, warps_per_sm, threads_per_block: int = 128, *, registers_per_thread: int = 32
) -> list[dict]:
    """Launch settings that cap occupancy at each target in ``warps_per_sm`` (§5.7).

    Each target must be a multiple of the block size in warps; unreachable targets are
    returned with ``smem = None`` so the caller can see which caps §5.7's granularity
    forbids.
    """
    tpb = check_int("threads_per_block", threads_per_block, 32, 1024)
    wpb = -(-tpb // 32)
    targets = check_items("warps_per_sm", warps_per_sm, context="warp counts")
    out = []
    for i, w in enumerate(targets):
        w = check_int(f"warps_per_sm[{i}]", w, 1)
        if w % wpb:
            raise OutOfRangeError(
                f"warps_per_sm[{i}] ({w}) must be a multiple of the block size in "
                f"warps ({wpb})"
            )
        smem = _ex.shared_memory_for_blocks(
            cc, tpb, w // wpb, registers_per_thread=registers_per_thread
        )
        out.append(
            {"warps_per_sm": w, "blocks_per_sm": w // wpb, "threads": tpb, "smem": smem}
        )
    return out


def run(binary: str | Path, *, timeout: float = 600, **args) -> tuple[dict, dict]:
    """Run the built benchmark with ``key=value`` arguments; returns
    :func:`parse_output`'s result."""
    cmd = [str(binary)] + [f"{k}={v}" for k, v in args.items()]
    # check=False: a failure is reported below with the benchmark's stderr
    res = subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, check=False
    )
    if res.returncode != 0:
        raise RuntimeError(
            f"{' '.join(cmd)} failed ({res.returncode}): {res.stderr.strip()[-2000:]}"
        )
    return parse_output(res.stdout)


def write_rows(rows: list[dict], path: str | Path) -> None:
    """Write summarized rows as CSV with the columns ``FIELDS``."""
    rows = check_items("rows", rows, collections.abc.Mapping, "summarized rows")
    check_type("path", path, (str, os.PathLike))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in FIELDS})
