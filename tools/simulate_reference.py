"""Regenerate data/simulated/prior_reference.csv, the simulated reference of chapter 7
(minutes).

    .venv/bin/python tools/simulate_reference.py    # all five GPUs, two processes

Each row is one deterministic run of gpumodels.engines.sim (see
gpumodels.comparisons.prior.reference); the file is labelled simulated in its source
column. tests/test_prior.py re-simulates sample rows.
"""

from __future__ import annotations

import csv
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from gpumodels import volkov
from gpumodels.comparisons.prior import reference

OUT = Path(__file__).resolve().parent.parent / "data" / reference.CACHE


def _one(gpu: str) -> list[dict]:
    return reference.rows(volkov.params(gpu))


def main() -> int:
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(_one, volkov.GENERATIONS))
    OUT.parent.mkdir(exist_ok=True)
    with OUT.open("w", newline="") as fh:
        w = csv.DictWriter(
            fh, fieldnames=["gpu", "n", "alpha", "ipc", "start", "stop", "source"]
        )
        w.writeheader()
        for rows in results:
            for r in rows:
                w.writerow({**r, "ipc": repr(r["ipc"])})
    print(f"wrote {sum(map(len, results))} rows to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
