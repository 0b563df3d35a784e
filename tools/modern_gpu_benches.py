"""Regenerate data/modern/gpu_benches_latency.csv and gpu_benches_stream.csv from
gpu-benches.

    .venv/bin/python tools/modern_gpu_benches.py RRZE=<git dir> TE=<git dir>

Each argument names a git directory of a gpu-benches repository (RRZE-HPC/gpu-benches,
te42kyfo/gpu-benches); the files are read at the commits pinned below, with ``git
show``, and copied column by column (no value is changed). The latency files hold one
single-thread random cache-line chase per footprint (``gpu-latency/main.cu``:
``pchase<<<1, 1>>>`` over a shuffled order); the stream files one row per block size
with GB/s per kernel (``gpu-stream``; the kernels are named by each file's header:
RRZE's files end with 3pt and 5pt, te42kyfo's with 1pt and 3pt). Every line is
checked against the others on it (:func:`parse_latency`, :func:`parse_stream`); a line
the reader does not understand stops it with :class:`ParseError` naming the line.
"""

import csv
import subprocess
import sys
from pathlib import Path

REPOS = {
    "RRZE": ("RRZE-HPC/gpu-benches", "1038c5d0d0f48cfe9912930d34eb2d8a31b72b9b"),
    "TE": ("te42kyfo/gpu-benches", "1c36d509ee717dca9215c27135fa1e611bb03ed1"),
}
GPU = {
    "v100": "V100PCIe",
    "a100_40": "A100",
    "a100_80": "A100-80",
    "h100_pcie": "H100PCIe",
    "gh200": "GH200",
    "l40": "L40",
    "mi210": "MI210",
}
LATENCY = {
    "RRZE": ("v100", "a100_80", "gh200", "l40", "mi210"),
    "TE": ("v100", "a100_40", "a100_80", "h100_pcie", "l40", "mi210"),
}
STREAM = {
    "RRZE": ("v100", "a100_40", "a100_80", "gh200", "h100_pcie", "l40", "mi210"),
    "TE": ("v100", "a100_40", "a100_80", "h100_pcie", "l40", "mi210"),
}
KERNELS = ("init", "read", "scale", "triad", "1pt", "3pt", "5pt")


def show(git_dir: str, commit: str, path: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


class ParseError(ValueError):
    """A line of a gpu-benches file that the reader does not understand or whose values
    disagree with each other; the message names the file and the line."""


def _numbers(fields, where, line):
    try:
        values = [float(x) for x in fields]
    except ValueError:
        raise ParseError(
            f"{where}: a value is not a number in {line.strip()!r}"
        ) from None
    if not all(v >= 0 and v < float("inf") for v in values):
        raise ParseError(
            f"{where}: a negative or infinite value in {line.strip()!r}"
        )
    return values


def parse_latency(text: str, path: str) -> list[dict]:
    """The rows of one ``gpu-latency`` file: ``iters clock footprint_kb ms mean [median
    p5 p95]`` (``main.cu`` prints the total time of ``iters`` chase steps in ms, then
    the mean cycles per step; RRZE's version adds the median, 5th and 95th
    percentile). Each line is checked: five or eight numbers, the mean equal to ``ms ·
    clock · 1000 / iters`` within the printed rounding, and p5 <= median <= p95. The
    ``clock:`` line and blank lines are skipped; any other line is refused, naming
    it."""
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        where = f"{path} line {n}"
        f = line.split()
        if not f or f[0] == "clock:":
            continue
        if len(f) not in (5, 8):
            raise ParseError(
                f"{where}: expected 5 or 8 numbers (iters clock footprint ms mean "
                f"[median p5 p95]), got {len(f)} in {line.strip()!r}"
            )
        iters, clock, kb, ms, mean, *spread = _numbers(f, where, line)
        median, p5, p95 = spread or (mean, mean, mean)
        if iters < 1 or clock <= 0 or kb <= 0 or not f[0].isdigit():
            raise ParseError(
                f"{where}: iters must be a positive integer and clock and footprint "
                f"positive, got {line.strip()!r}"
            )
        expect = ms * clock * 1000 / iters
        slack = 0.05 * clock * 1000 / iters + 0.051
        if abs(mean - expect) > slack:
            raise ParseError(
                f"{where}: mean {mean:g} cycles, but ms · clock · 1000 / iters = "
                f"{expect:.2f} (rule: the mean is the time per step in cycles)"
            )
        if not (p5 <= median + 0.1 and median <= p95 + 0.1):
            raise ParseError(
                f"{where}: percentiles out of order (p5 {p5:g}, median {median:g}, "
                f"p95 {p95:g})"
            )
        rows.append({"clock_mhz": f[1], "footprint_kb": f[2], "cycles": f[4]})
    return rows


def parse_stream(text: str, path: str) -> list[dict]:
    """The rows of one ``gpu-stream`` file: block size, threads, occupancy and GB/s per
    kernel, the kernels named by the file's header. RRZE's header reads ``block
    smBlocks threads occ%`` but ``main.cu`` prints block size, threads (SMs · block ·
    blocks per SM) and blocks per SM in that order; te42kyfo's prints block size,
    threads (SMs · block) and the occupancy. Each line is checked: as many GB/s values
    as kernels, threads a multiple of the block size (and of block · blocks per SM),
    the same SM count on every line, 0 < occupancy <= 100. Blank lines are skipped;
    any other line is refused, naming it."""
    rows, kernels, form, sms = [], None, None, None
    for n, line in enumerate(text.splitlines(), 1):
        where = f"{path} line {n}"
        if not line.strip():
            continue
        if "|" in line and "GB/s:" not in line:
            head, names = line.split("|", 1)
            kernels = names.split()
            words = head.split()
            if words == ["block", "smBlocks", "threads", "occ%"]:
                form = "rrze"
            elif words == ["blockSize", "threads", "%occ"]:
                form = "te"
            else:
                raise ParseError(f"{where}: unknown header {line.strip()!r}")
            unknown = [k for k in kernels if k not in KERNELS]
            if unknown or not kernels:
                raise ParseError(
                    f"{where}: unknown kernels {unknown} in the header (known: "
                    f"{', '.join(KERNELS)})"
                )
            continue
        parts = line.split("|")
        if "GB/s:" not in line or len(parts) != 2 or kernels is None:
            raise ParseError(
                f"{where}: not a header or a measurement line after a header: "
                f"{line.strip()!r}"
            )
        head, gbs = parts
        f = head.split()
        g = gbs.split()
        if g[:1] != ["GB/s:"] or len(g) - 1 != len(kernels):
            raise ParseError(
                f"{where}: expected {len(kernels)} GB/s values ({' '.join(kernels)}), "
                f"got {len(g) - 1} in {line.strip()!r}"
            )
        values = g[1:]
        _numbers(values, where, line)
        if form == "rrze":
            if len(f) != 4 or not f[3].endswith("%"):
                raise ParseError(f"{where}: expected block threads blocksPerSM occ%")
            block, threads, per_sm, occ = _numbers(
                [f[0], f[1], f[2], f[3].rstrip("%")], where, line
            )
            group = block * per_sm
        else:
            if len(f) != 4 or f[3] != "%":
                raise ParseError(f"{where}: expected blockSize threads occ %")
            block, threads, occ = _numbers(f[:3], where, line)
            group = block
        if group <= 0 or threads % group or not 0 < occ <= 100:
            raise ParseError(
                f"{where}: threads {threads:g} must be a multiple of {group:g} and the "
                f"occupancy in (0, 100], got {line.strip()!r}"
            )
        if sms is not None and threads / group != sms:
            raise ParseError(
                f"{where}: threads {threads:g} imply {threads / group:g} SMs, the "
                f"lines above {sms:g}"
            )
        sms = threads / group
        row = {
            "block_size": f[0],
            "threads": f[1],
            "occupancy_pct": f[3].rstrip("%") if form == "rrze" else f[2],
        }
        row.update({k: "" for k in KERNELS})
        row.update(dict(zip(kernels, values)))
        rows.append(row)
    return rows


def main(argv):
    dirs = dict(a.split("=", 1) for a in argv)
    lat, stream = [], []
    for key, (repo, commit) in REPOS.items():
        for name in LATENCY[key]:
            path = f"gpu-latency/{name}.txt"
            for row in parse_latency(show(dirs[key], commit, path), f"{repo} {path}"):
                lat.append(
                    {
                        "gpu": GPU[name],
                        **row,
                        "source": f"{repo} {path} @ {commit[:12]}",
                    }
                )
        for name in STREAM[key]:
            path = f"gpu-stream/{name}.txt"
            for row in parse_stream(show(dirs[key], commit, path), f"{repo} {path}"):
                stream.append(
                    {
                        "gpu": GPU[name],
                        **row,
                        "source": f"{repo} {path} @ {commit[:12]}",
                    }
                )
    out = Path(__file__).resolve().parents[1] / "data" / "modern"
    for name, rows in (
        ("gpu_benches_latency.csv", lat),
        ("gpu_benches_stream.csv", stream),
    ):
        with open(out / name, "w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        print(f"wrote {out / name}: {len(rows)} rows")


if __name__ == "__main__":
    main(sys.argv[1:])
