"""Reduce gpu-benches' gpu-roofline result files to one tidy, sourced table.

    .venv/bin/python tools/reduce_gpu_roofline.py [--repo MIRROR] [--out FOLDER]

The input is a git mirror of github.com/RRZE-HPC/gpu-benches (no work tree needed: the
files are read with ``git show`` at the pinned :data:`COMMIT`). Every ``*.txt`` result
file under ``gpu-roofline/`` must be named in :data:`FILES` (a new upstream file stops
the script instead of being skipped silently). Each result line the benchmark prints,

    <device> <blocks> blocks <its> its <Fl/B> Fl/B <GB/s> GB/s <GF/s> GF/s <MHz> Mhz
    <W> W <temp>°C

becomes one row of ``<out>/sweeps.csv``; the numbers are copied as printed (no value is
changed or recomputed). Lines of the build log that the files also hold are skipped. The
script also writes ``<out>/README.md``. Running it twice gives identical files.

For every file the table names the commit that added it and the last commit of
``gpu-roofline/main.cu`` at or before that one (``kernel_commit``): the kernel source
that was in the repository when the numbers were committed. The kernel has changed
since (see the README this script writes).
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import subprocess
import sys
from pathlib import Path

from gpumodels.ground.errors import DataError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REPO = Path("/work/.mirror/RRZE-HPC+gpu-benches/repo")
DEFAULT_OUT = ROOT / "data" / "silicon" / "gpu_roofline"
REPO = "RRZE-HPC/gpu-benches"
COMMIT = "1038c5d0d0f48cfe9912930d34eb2d8a31b72b9b"
FOLDER = "gpu-roofline"
KERNEL = f"{FOLDER}/main.cu"
BLOCK_SIZE = 256  # main.cu: const int BLOCKSIZE = 256 (not printed)
MEASURED_BY = "gpu-benches authors (RRZE-HPC; commits by Dominik Ernst)"

# file -> (GPU as the benchmark's file names it, the book's GPU record or "")
FILES = {
    "alex_a100_40.txt": ("A100 40GB", "A100"),
    "alex_a40.txt": ("A40", ""),
    "genoa_l40.txt": ("L40", "L40"),
    "h200.txt": ("H200", ""),
    "mi300x.txt": ("MI300X", ""),
}
WHY_NOT = {
    "A40": "no A40 record in the book (data/gpus.csv)",
    "H200": "no H200 record in the book (data/gpus.csv); the H100 and GH200 records "
    "are other boards, so neither stands in",
    "MI300X": "AMD: a wavefront is 64 threads and the book's models are written for "
    "32-thread warps (gpumodels.facts.modern.AMD)",
}

LINE = re.compile(
    r"^(?P<device>\d+) (?P<blocks>\d+) blocks\s+(?P<its>\d+) its\s+"
    r"(?P<fpb>[\d.]+) Fl/B\s+(?P<gbs>[\d.]+) GB/s\s+(?P<gflops>[\d.]+) GF/s\s+"
    r"(?P<mhz>[\d.]+) Mhz\s+(?P<w>[\d.]+) W\s+(?P<temp>[\d.]+)\s*°C\s*$"
)
COLUMNS = [
    "gpu",
    "book_gpu",
    "file",
    "kernel_commit",
    "measured_by",
    "device",
    "blocks",
    "block_size",
    "its",
    "flop_per_byte",
    "gbs",
    "gflops",
    "clock_mhz",
    "power_w",
    "temperature_c",
    "source",
]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def added_in(repo: Path, path: str) -> str:
    """The commit (at or before :data:`COMMIT`) that added ``path``."""
    out = git(repo, "log", "--diff-filter=A", "--format=%H", COMMIT, "--", path)
    return out.split()[-1]


def kernel_at(repo: Path, commit: str) -> str:
    """The last commit at or before ``commit`` that changed the kernel source."""
    return git(repo, "log", "-1", "--format=%H", commit, "--", KERNEL).strip()


SKIPPED = re.compile(r"-- Finished Building --|[0-9]+")
"""Lines of the files that are not results: the build log's last line and the bare
iteration counts the benchmark prints before each sweep."""


def _decimals(text: str) -> int:
    return len(text.partition(".")[2])


def parse(text: str, where: str = "gpu-roofline output") -> list[dict[str, str]]:
    """The result lines of one file, as printed; blank lines and :data:`SKIPPED` lines
    are skipped.

    Strict: any other line that is not a whole result line (:data:`LINE`: unsigned
    decimal numbers only, so no sign, NaN or inf), and a result whose GF/s is not its
    Fl/B x GB/s within the printed rounding, raise
    :class:`~gpumodels.ground.errors.DataError` naming ``where``, the line and the
    field; so does a file without a result line.
    """
    rows = []
    for no, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or SKIPPED.fullmatch(line):
            continue
        m = LINE.match(line)
        if not m:
            raise DataError(
                f"{where}, line {no}: not a gpu-roofline result line "
                f"('<device> <n> blocks <its> its <x> Fl/B <x> GB/s <x> GF/s "
                f"<x> Mhz <x> W <x> °C'), got {line!r}"
            )
        r = m.groupdict()
        for key in ("fpb", "gbs", "gflops", "mhz", "w", "temp"):
            if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", r[key]):
                raise DataError(f"{where}, line {no}: {key} {r[key]!r} is not a number")
        fpb, gbs, gf = (float(r[k]) for k in ("fpb", "gbs", "gflops"))
        e_f, e_b, e_g = (
            0.5 * 10.0 ** -_decimals(r[k]) for k in ("fpb", "gbs", "gflops")
        )
        lo = max(fpb - e_f, 0) * max(gbs - e_b, 0) - e_g
        hi = (fpb + e_f) * (gbs + e_b) + e_g
        if not lo <= gf <= hi:
            raise DataError(
                f"{where}, line {no}: gflops {r['gflops']} GF/s is not Fl/B x GB/s = "
                f"{r['fpb']} x {r['gbs']} = {fpb * gbs:.4g} within the printed rounding"
            )
        rows.append(r)
    if not rows:
        raise DataError(f"{where}: no result line")
    return rows


def rows_of(repo: Path, name: str) -> list[dict[str, str]]:
    path = f"{FOLDER}/{name}"
    gpu, book = FILES[name]
    added = added_in(repo, path)
    kernel = kernel_at(repo, added)
    out = []
    for r in parse(git(repo, "show", f"{COMMIT}:{path}"), path):
        out.append(
            {
                "gpu": gpu,
                "book_gpu": book,
                "file": path,
                "kernel_commit": kernel[:12],
                "measured_by": MEASURED_BY,
                "device": r["device"],
                "blocks": r["blocks"],
                "block_size": str(BLOCK_SIZE),
                "its": r["its"],
                "flop_per_byte": r["fpb"],
                "gbs": r["gbs"],
                "gflops": r["gflops"],
                "clock_mhz": r["mhz"],
                "power_w": r["w"],
                "temperature_c": r["temp"],
                "source": f"{REPO} {path} @ {COMMIT[:12]}",
            }
        )
    if not out:
        raise SystemExit(f"{path}: no result line matched")
    return out


def check_files(repo: Path) -> list[str]:
    listed = git(repo, "ls-tree", "--name-only", COMMIT, f"{FOLDER}/").split()
    names = sorted(Path(p).name for p in listed if p.endswith(".txt"))
    unknown = sorted(set(names) - set(FILES))
    missing = sorted(set(FILES) - set(names))
    if unknown or missing:
        raise SystemExit(
            f"result files not in FILES: {unknown}; in FILES but absent: {missing}"
        )
    return names


def csv_text(rows: list[dict[str, str]]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def _table(rows: list[dict[str, str]], repo: Path) -> str:
    lines = [
        (
            "| file | GPU (book record) | devices | sweep points | its | flop/B | "
            "blocks | SM clock (MHz) | added in | kernel source |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, (gpu, book) in FILES.items():
        rs = [r for r in rows if r["file"].endswith("/" + name)]
        its = sorted({int(r["its"]) for r in rs})
        fpb = sorted({float(r["flop_per_byte"]) for r in rs})
        mhz = sorted(float(r["clock_mhz"]) for r in rs)
        blocks = sorted({r["blocks"] for r in rs})
        added = added_in(repo, f"{FOLDER}/{name}")[:12]
        lines.append(
            f"| `{name}` | {gpu} ({book or 'not modelled'}) "
            f"| {len({r['device'] for r in rs})} | {len(its)} | {its[0]}–{its[-1]} "
            f"| {fpb[0]:g}–{fpb[-1]:g} | {', '.join(blocks)} "
            f"| {mhz[0]:.0f}–{mhz[-1]:.0f} | `{added}` | `{rs[0]['kernel_commit']}` |"
        )
    return "\n".join(lines)


README = """# gpu-roofline sweeps (gpu-benches), measured by the benchmark's authors

`sweeps.csv` holds every result line of the `gpu-roofline` benchmark of
[{repo}](https://github.com/{repo}) at commit `{commit}`, one row per GPU device and
sweep point, the numbers as printed. **Measured by the gpu-benches authors**
(RRZE-HPC; the result files were committed by Dominik Ernst), not by this project.
The repository is licensed under the GNU GPL v3 (its `LICENSE`); only the measured
numbers are copied here, no code. Regenerate with

    .venv/bin/python tools/reduce_gpu_roofline.py --repo <git dir of {repo}>

## What the benchmark does

`gpu-roofline/main.cu` streams two float arrays A and B from DRAM (read-only: the
kernel never writes A or B, passed as `__restrict__` pointers; it writes one float per
block) and does a variable amount of FP32 work on every element pair. Block `b`
owns a contiguous chunk of 256 × 4000 elements of each array; thread `t` reads
elements `t, t + 256, t + 512, ...` of it, so each warp load is one coalesced
128-byte access. Per pair of elements (a, b) a thread does one subtraction `v = a −
b`, `its` dependent fused multiply-adds `v = v·a − b` (two independent chains per
thread, on even and odd elements) and one add into a running sum: `2 + 2·its` flop
per 8 bytes, which is the printed `Fl/B = (2 + 2·its) / 8`. `its` is the
compile-time constant `PARN` (`series.sh` builds one binary per value: 0, 1, 2, then
4 upwards in growing steps); it is the sweep variable. The grid is `SMs ×
cudaOccupancyMaxActiveBlocksPerMultiprocessor(kernel, 256)` blocks of 256 threads —
one full wave at the kernel's maximal occupancy — and the printed `blocks` is that
grid (A100: 864 = 108 SMs × 8 blocks, 64 warps/SM; L40: 852 = 142 × 6, 48 warps/SM).
The kernel is launched 1000 times; GB/s counts the two arrays once per launch, GF/s
the flop above. While it runs the host samples the SM clock (NVML `NVML_CLOCK_SM`),
the board power and the temperature; `Mhz` is the median of the clock samples. The
benchmark runs on all GPUs of a node at once (one OpenMP thread each), so the A100
and A40 files hold 8 devices and the L40 file 2, measured simultaneously.

## Files

{table}

The book models only GPUs that have a Volkov parameter set
(`gpumodels.facts.modern.GPUS`): the A100 40 GB sweep maps to the record `A100` (108
SMs, 1410 MHz boost: the printed 864 blocks and 1410 MHz agree), the L40 sweep to
`L40`. Kept in the table but not modelled:

{why_not}

The mapping of a sweep point to the models' inputs, and the scores, are in
`gpumodels.comparisons.sweeps`.

## Caveats

* **Kernel version.** The A100, A40, L40 and H200 files were committed in
  `e4e93a378197`; the kernel source of that commit (`kernel_commit`) declares
  `typedef double dtype`, but the printed `Fl/B` at `its = 0` is 0.25 = 2 / (2 ·
  sizeof(dtype)), so those runs used float, as the later source does. In that
  version the second FMA chain multiplies by its own elements (`v2 = v2·a2 − b2`),
  the outer loop is not unrolled (`#pragma unroll 1`), time is taken with the host
  clock around the 1000 launches, the clock is the median and the power the
  **maximum** of 21 samples taken 100 ms apart at the start of the run, and the
  temperature is the last sample. The MI300X file (added in `1038c5d0d0f4`) comes
  from the later source (`b3101824bdcc`): both chains use `a, b`, CUDA events time
  the run, and clock, power and temperature are medians of samples taken every
  millisecond over the whole run. Flop, bytes and FMAs per load are the same in both
  versions.
* **Clock throttling, and two L40 boards that differ.** The `clock_mhz` column shows
  it. The A100s stay at 1410 MHz at every point. The two L40 devices ran together
  but do not behave alike: device 0 runs at 2490 MHz up to 22 flop/B, then sits at
  its ~300 W limit (the power column reads 300–314 W from there on) and drops to
  1320 MHz at 38 flop/B before recovering to ~1740 MHz; device 1 draws up to ~359 W
  and stays at 2100–2520 MHz, so its GF/s at high intensity are about 25 % higher
  (about 50 000 against 39 000 at 128 flop/B). The A40s fall from 1740 to 1620–1650
  MHz at ~300 W; the MI300X runs at 750 W throughout with 914–1486 MHz. A throughput
  that stops growing with intensity is partly this clock, not only the arithmetic
  limit; a model evaluated at the printed clock of each point takes the clock into
  account, a model at a fixed clock cannot.
* **Outliers.** On the H200, GF/s stalls at 26 700–28 900 from 8.25 to 14.25 flop/B
  and jumps to 35 800 at 16.25; the MI300X sweep has drops at 26.75, 44.75–48.75,
  103.25, 155.75–168.75 and 198.75–233.75 flop/B. The files give no reason.
* **GB/s and GF/s** are both computed from the same time, so `gflops / gbs` equals
  `flop_per_byte` up to the printed rounding; they are one measurement, not two.
* `block_size` (256) is not printed: it is the constant `BLOCKSIZE` of `main.cu`."""


def readme(rows: list[dict[str, str]], repo: Path) -> str:
    why = "\n".join(f"* {g}: {w}." for g, w in WHY_NOT.items())
    return README.format(
        repo=REPO, commit=COMMIT, table=_table(rows, repo), why_not=why
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=DEFAULT_REPO)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)
    names = check_files(args.repo)
    rows = [r for name in names for r in rows_of(args.repo, name)]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "sweeps.csv").write_text(csv_text(rows), encoding="utf-8")
    (args.out / "README.md").write_text(readme(rows, args.repo), encoding="utf-8")
    print(f"{len(rows)} rows from {len(names)} files -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
