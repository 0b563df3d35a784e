"""Regenerate tests/fixtures/occupancy_cuda_occupancy_h.csv from NVIDIA's
cuda_occupancy.h.

The test suite checks gpumodels.facts.occupancy against blocks-per-SM numbers computed
by ``cudaOccMaxActiveBlocksPerMultiprocessor`` of the CUDA Toolkit's
``cuda_occupancy.h`` for every compute capability >= 3.0 in data/compute_capability.csv.
The device properties fed to the header come from that same table, so the check covers
the allocation rules, not the table.

Needs a C++ compiler and the CUDA Toolkit headers (not needed to run the tests):

    python tools/make_occupancy_vectors.py [--cuda /usr/local/cuda]

The harness below is written for this project; NVIDIA's header stays in the toolkit.
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "occupancy_cuda_occupancy_h.csv"

THREADS = [32, 64, 96, 128, 160, 256, 384, 512, 768, 1024]
REGS = [0, 16, 32, 37, 48, 63, 64, 96, 128, 255]
SMEM = [0, 1, 3072, 3073, 8192, 16385, 32768, 49152, 65536, 100000, "max"]

HARNESS = r"""
#include <cstdio>
#include <cuda_occupancy.h>
int main() {
  int major, minor, tpbMax, thrSm, regsBlk, regsSm, tpb, regs;
  long smemBlk, smemSm, smemOptin, reserved, smem;
  while (scanf("%d %d %d %d %d %d %ld %ld %ld %ld %d %d %ld", &major, &minor,
               &tpbMax, &thrSm, &regsBlk, &regsSm, &smemBlk, &smemSm, &smemOptin,
               &reserved, &tpb, &regs, &smem) == 13) {
    cudaOccDeviceProp p;
    p.computeMajor = major; p.computeMinor = minor; p.maxThreadsPerBlock = tpbMax;
    p.maxThreadsPerMultiprocessor = thrSm; p.regsPerBlock = regsBlk;
    p.regsPerMultiprocessor = regsSm; p.warpSize = 32;
    p.sharedMemPerBlock = smemBlk; p.sharedMemPerMultiprocessor = smemSm;
    p.numSms = 1;
    p.sharedMemPerBlockOptin = smemOptin; p.reservedSharedMemPerBlock = reserved;
    cudaOccFuncAttributes a;
    a.maxThreadsPerBlock = tpbMax; a.numRegs = regs; a.sharedSizeBytes = 0;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    a.maxDynamicSharedSizeBytes = smemOptin;
    cudaOccDeviceState s;
    cudaOccResult r;
    cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, tpb,
                                                             (size_t)smem);
    printf("%d\n", e == CUDA_OCC_SUCCESS ? r.activeBlocksPerMultiprocessor : -1);
  }
  return 0;
}
"""


def main() -> int:
    # the docstring's first paragraph: its summary sentence, which wraps
    summary = " ".join(__doc__.split("\n\n")[0].split())
    ap = argparse.ArgumentParser(description=summary)
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--cxx", default="g++")
    args = ap.parse_args()
    header = Path(args.cuda) / "include" / "cuda_occupancy.h"
    version = re.search(
        r"release (\S+),",
        subprocess.run(
            [str(Path(args.cuda) / "bin" / "nvcc"), "--version"],
            capture_output=True,
            text=True,
            check=False,  # no version line: the fixture's header says '?'
        ).stdout,
    )
    sys.path.insert(0, str(ROOT))
    from gpumodels.facts.occupancy import limits, list_compute_capabilities

    cases = []
    for cc in list_compute_capabilities():
        lim = limits(cc)
        if lim.major < 3:
            continue
        for t in THREADS:
            for r in REGS:
                if r > lim.max_registers_per_thread:
                    continue
                for s in SMEM:
                    s = lim.max_shared_mem_per_block if s == "max" else s
                    if s <= lim.max_shared_mem_per_block:
                        cases.append((lim, t, r, s))
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "occ"
        src = Path(tmp) / "occ.cpp"
        src.write_text(HARNESS)
        subprocess.run(
            [
                args.cxx,
                "-O1",
                "-std=c++14",
                f"-I{header.parent}",
                str(src),
                "-o",
                str(exe),
            ],
            check=True,
        )
        stdin = "".join(
            f"{l.major} {l.cc.split('.')[1]} {l.max_threads_per_block} "
            f"{l.max_threads_per_sm} {l.max_registers_per_block} "
            f"{l.registers_per_sm} 49152 {l.shared_mem_per_sm} "
            f"{l.max_shared_mem_per_block} "
            f"{l.reserved_shared_mem_per_block} {t} {r} {s}\n"
            for l, t, r, s in cases
        )
        out = subprocess.run(
            [str(exe)], input=stdin, capture_output=True, text=True, check=True
        ).stdout.split()
    assert len(out) == len(cases)
    with open(OUT, "w", newline="") as fh:
        fh.write(
            "# source: cudaOccMaxActiveBlocksPerMultiprocessor, CUDA Toolkit "
            f"{version.group(1) if version else '?'} "
            "cuda_occupancy.h; device limits from data/compute_capability.csv; "
            "tools/make_occupancy_vectors.py\n"
        )
        w = csv.writer(fh)
        w.writerow(
            [
                "cc",
                "threads_per_block",
                "registers_per_thread",
                "shared_mem_per_block",
                "blocks_per_sm",
            ]
        )
        for (l, t, r, s), b in zip(cases, out):
            w.writerow([l.cc, t, r, s, b])
    print(f"wrote {len(cases)} cases to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
