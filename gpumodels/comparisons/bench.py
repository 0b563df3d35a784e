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

import csv
import datetime as _dt
import io
import shutil
import subprocess
from pathlib import Path

from gpumodels.ground.errors import UnknownNameError
from gpumodels.ground.validate import check_flag, check_int
from gpumodels.papers.volkov import experiment as _ex

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"
"""The CUDA sources (``bench/`` at the repository root)."""

SOURCES = ("volkov_bench.cu", "perfparams_bench.cu")
"""CUDA programs to build; each compiles to a binary of the same stem
(``perfparams_bench.cu`` is Perez & Piccoli's eight parameters, driven by
:mod:`gpumodels.papers.perez_piccoli.model`)."""

KINDS = ("chase", "add", "sfu", "smem", "smem2")
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
    strict, so that a damaged run is never summarised as a measurement: malformed or
    repeated header lines, header values out of range (``sm_count``, ``clock_khz``,
    ``repeats_per_warp`` must be positive integers), a repeated warp, an SM index beyond
    ``sm_count``, a warp whose ``end`` is not after its ``start`` (no elapsed time),
    fewer warps than the launch had (``arg.blocks`` × ``arg.threads``) and output that
    stops in the middle of a line all raise ``ValueError`` naming the line or the value.
    """
    meta, rows = _parse_lines(text)
    _check_headers(text, meta)
    _check_table(meta, rows)
    return meta, rows


_TABLE_COLUMNS = ["warp", "sm", "start", "end"]


def _parse_lines(text: str) -> tuple[dict[str, str], dict[str, list[int]]]:
    """Read every line of the output into the header dict and the warp table.

    Each line is checked as it is read (header syntax, repeats, the table's column
    line, the records' integers); raises ``ValueError`` naming the first bad line, or
    when the output holds no warp record at all.
    """
    meta: dict[str, str] = {}
    cols = None
    rows: dict[str, list[int]] = {}
    seen: dict[int, int] = {}
    for no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            _parse_header_line(meta, no, line)
        elif cols is None:
            cols = _parse_column_line(no, line)
            rows = {c: [] for c in cols}
        else:
            vals = _parse_record(seen, no, line)
            for c, v in zip(cols, vals):
                rows[c].append(v)
    if cols is None or not rows["warp"]:
        raise ValueError("no warp records in the output")
    return meta, rows


def _parse_header_line(meta: dict[str, str], no: int, line: str) -> None:
    """Add one ``# key=value`` line (line number ``no``) to ``meta``; ``ValueError``
    if it is malformed or its key was already given."""
    key, sep, val = line[1:].strip().partition("=")
    if not sep or not key:
        raise ValueError(
            f"line {no}: header lines look like '# key=value', got {line!r}"
        )
    if key.strip() in meta:
        raise ValueError(f"line {no}: header {key.strip()!r} given twice")
    meta[key.strip()] = val.strip()


def _parse_column_line(no: int, line: str) -> list[str]:
    """The table's column names from its first line; ``ValueError`` unless they are
    exactly ``warp,sm,start,end``."""
    cols = [c.strip() for c in line.split(",")]
    if cols != _TABLE_COLUMNS:
        raise ValueError(
            f"line {no}: expected the header 'warp,sm,start,end', got {line!r}"
        )
    return cols


def _parse_record(seen: dict[int, int], no: int, line: str) -> list[int]:
    """One warp record ``warp,sm,start,end`` as four integers.

    ``seen`` maps each warp already read to its line number and is updated here;
    ``ValueError`` for a line that is not four integers, a repeated warp, or a warp
    whose ``end`` is not after its ``start``.
    """
    try:
        vals = [int(p) for p in line.split(",")]
    except ValueError:
        raise ValueError(f"line {no}: expected four integers, got {line!r}") from None
    if len(vals) != 4:
        raise ValueError(f"line {no}: expected four integers, got {line!r}")
    warp, _sm, start, end = vals
    if warp in seen:
        raise ValueError(
            f"line {no}: warp {warp} already recorded on line {seen[warp]}"
        )
    if end <= start:
        raise ValueError(
            f"line {no}: warp {warp} has end {end} <= start {start}: no elapsed "
            "time, so the run is not a measurement"
        )
    seen[warp] = no
    return vals


def _check_headers(text: str, meta: dict[str, str]) -> None:
    """Check that the required header lines are present, that the output ends with a
    newline, and that ``gpu`` is not empty; ``ValueError`` otherwise."""
    for key in ("gpu", "sm_count", "clock_khz", "repeats_per_warp"):
        if key not in meta:
            raise ValueError(f"output lacks the header line '# {key}=...'")
    if not text.endswith("\n"):
        raise ValueError("the output stops in the middle of its last line (cut short?)")
    if not meta["gpu"]:
        raise ValueError("header 'gpu' is empty")


def _check_table(meta: dict[str, str], rows: dict[str, list[int]]) -> None:
    """Check the header values against the warp table: positive ``sm_count``,
    ``clock_khz`` and ``repeats_per_warp``, every SM index below ``sm_count``, and
    (when ``arg.blocks`` and ``arg.threads`` are given) exactly the launch's warps
    ``0 .. blocks x ceil(threads/32) - 1``; ``ValueError`` otherwise."""
    sm_count = _header_int(meta, "sm_count")
    _header_int(meta, "clock_khz")
    _header_int(meta, "repeats_per_warp")
    if max(rows["sm"]) >= sm_count:
        raise ValueError(f"an SM index {max(rows['sm'])} is beyond sm_count={sm_count}")
    if "arg.blocks" in meta and "arg.threads" in meta:
        expected = _header_int(meta, "arg.blocks") * -(
            -_header_int(meta, "arg.threads") // 32
        )
        if len(rows["warp"]) != expected or set(rows["warp"]) != set(range(expected)):
            raise ValueError(
                f"the launch had {expected} warps (arg.blocks x arg.threads/32) but "
                f"the table records {len(rows['warp'])}: output cut short or "
                "corrupted"
            )


def _header_int(meta: dict[str, str], key: str) -> int:
    """``meta[key]`` as a positive integer; ``ValueError`` naming the key otherwise."""
    try:
        v = int(meta[key])
    except ValueError:
        v = 0
    if v < 1:
        raise ValueError(f"header {key} must be a positive integer, got {meta[key]!r}")
    return v


def parse_smi(text: str) -> dict[str, str]:
    """Parse ``nvidia-smi
    --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem
    --format=csv,noheader`` (first GPU) into a dict."""
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    parts = [p.strip() for p in next(csv.reader(io.StringIO(line)))] if line else []
    if len(parts) != 5:
        raise ValueError(
            f"expected 5 comma-separated fields from nvidia-smi, got {line!r}"
        )
    return dict(zip(("name", "driver", "clock_sm", "clock_max_sm", "clock_mem"), parts))


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
    out = []
    for w in warps_per_sm:
        w = check_int("warps_per_sm", w, 1)
        if w % wpb:
            raise ValueError(
                f"warps_per_sm ({w}) must be a multiple of the block size in warps "
                f"({wpb})"
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
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in FIELDS})
