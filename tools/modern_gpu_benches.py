"""Regenerate data/modern/gpu_benches_latency.csv and gpu_benches_stream.csv from
gpu-benches.

    .venv/bin/python tools/modern_gpu_benches.py RRZE=<git dir> TE=<git dir>

Each argument names a git directory of a gpu-benches repository (RRZE-HPC/gpu-benches,
te42kyfo/gpu-benches); the files are read at the commits pinned below, with ``git
show``, and copied column by column (no value is changed). The latency files hold one
single-thread random cache-line chase per footprint (``gpu-latency/main.cu``:
``pchase<<<1, 1>>>`` over a shuffled order); the stream files one row per block size
with GB/s per kernel (``gpu-stream``; the kernels are named by each file's header:
RRZE's files end with 3pt and 5pt, te42kyfo's with 1pt and 3pt).
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


def main(argv):
    dirs = dict(a.split("=", 1) for a in argv)
    lat, stream = [], []
    for key, (repo, commit) in REPOS.items():
        for name in LATENCY[key]:
            path = f"gpu-latency/{name}.txt"
            for line in show(dirs[key], commit, path).splitlines():
                f = line.split()
                if len(f) < 5 or not f[0].isdigit():
                    continue  # the "clock:" line and blank lines
                lat.append(
                    {
                        "gpu": GPU[name],
                        "clock_mhz": f[1],
                        "footprint_kb": f[2],
                        "cycles": f[4],
                        "source": f"{repo} {path} @ {commit[:12]}",
                    }
                )
        for name in STREAM[key]:
            path = f"gpu-stream/{name}.txt"
            kernels: list[str] = []
            for line in show(dirs[key], commit, path).splitlines():
                if "|" in line and "GB/s:" not in line:
                    kernels = line.split("|")[
                        1
                    ].split()  # the header names this file's kernels
                    continue
                if "GB/s:" not in line:
                    continue
                head, gbs = line.split("|")
                f = head.split()
                values = gbs.split()[1:]
                row = {
                    "gpu": GPU[name],
                    "block_size": f[0],
                    "threads": f[1],
                    "occupancy_pct": f[-1].rstrip("%") if f[-1] != "%" else f[-2],
                }
                row.update({k: "" for k in KERNELS})
                row.update(dict(zip(kernels, values)))
                row["source"] = f"{repo} {path} @ {commit[:12]}"
                stream.append(row)
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
