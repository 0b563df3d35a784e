"""Regenerate the Huang & Li simulated reference (about three minutes on two cores).

    .venv/bin/python tools/simulate_huang_li.py

Writes, all labelled simulated in their source column:

- data/simulated/huang_li_reference.csv  every placement test of
  data/huang_li/placements.csv (the 60 counted, the uncounted and the illustrations)
  run on gpumodels.engines.refsim.simulator, seed 0: time and counters;
- data/simulated/huang_li_algorithm1.csv  Algorithm 1's probe latencies on the
  simulator;
- data/simulated/huang_li_switches.csv  every Table IV benchmark's sample placement
  with the reference's mechanisms (refsim.SWITCHES) switched off one at a time and all
  together (refsim.switch_row);
- data/simulated/huang_li_volkov_check.csv  IPC of Volkov's α-workload on refsim
  (fixed memory latency, caches off) and on gpumodels.engines.sim, Kepler, n in
  {1, 2, ..., 64}, α in {0, 1, 4, 16, 64}.

tests/test_refsim.py re-simulates rows and requires identical values.
"""

from __future__ import annotations

import csv
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from gpumodels import sim, volkov
from gpumodels.engines.refsim import placements
from gpumodels.engines.refsim import simulator as refsim

DATA = Path(__file__).resolve().parent.parent / "data"
NS = (1, 2, 4, 8, 16, 32, 64)
ALPHAS = (0, 1, 4, 16, 64)


def _write(rel: str, rows: list[dict]) -> None:
    path = DATA / rel
    path.parent.mkdir(exist_ok=True)
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {len(rows)} rows to {path.relative_to(DATA.parent)}")


def volkov_row(n: int, alpha: int) -> dict:
    p = volkov.params("Kepler")
    cycles = int(42 * (p.mem_lat + alpha * p.alu_lat + n * (alpha + 1) / 4 + 8 * n))
    tr = sim.simulate(sim.volkov_sm(p), sim.alpha_program(alpha), n, cycles=cycles)
    ref = refsim.alpha_ipc(n, alpha, p)
    return {
        "gpu": "Kepler",
        "n": n,
        "alpha": alpha,
        "ipc_refsim": repr(ref),
        "ipc_sim": repr(
            refsim.window_ipc(tr.warp, tr.seq, tr.issue, alpha + 1, 10, 30)
        ),
        "sim_cycles": cycles,
        "source": "simulated: gpumodels.engines.refsim.simulator.alpha_ipc and "
        "gpumodels.engines.sim (Volkov 2016 Table 4.1 Kepler "
        "parameters, fixed memory latency), window of warp 0's trips 10-30",
    }


def _placement(test: dict) -> dict:
    return refsim.reference_row(test)


def _volkov(args) -> dict:
    return volkov_row(*args)


def _switch(job) -> dict:
    return refsim.switch_row(*job)


def main() -> int:
    t0 = time.time()
    tests = placements.tests(None, counted_only=False)
    tests = [
        t
        for t in tests
        if not (t["benchmark"] == "transpose" and t["test"] == "transpose_2")
    ]
    with ProcessPoolExecutor(max_workers=2) as pool:
        rows = list(pool.map(_placement, tests))
        vrows = list(pool.map(_volkov, [(n, a) for n in NS for a in ALPHAS]))
        srows = list(pool.map(_switch, refsim.switch_jobs()))
    _write(refsim.CACHE, rows)
    _write(refsim.SWITCH_CACHE, srows)
    _write(refsim.VOLKOV_CACHE, vrows)
    _write(refsim.ALGORITHM1_CACHE, refsim.algorithm1_rows())
    print(f"done in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
