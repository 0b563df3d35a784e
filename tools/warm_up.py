"""Warm the caches that every process of ``make test`` shares, before its workers start.

    .venv/bin/python tools/warm_up.py

A fresh clone has neither numba's compiled cache nor the disk cache
(``gpumodels.ground.diskcache``). Without this step each pytest worker, and each
notebook kernel that starts early, would do the same work itself: compile the cycle
simulator's core and the Huang & Li reference simulator (about 13 s each), and compute
the Huang & Li traffic of the 57 placements (about 15 s, both replay rules at once), all
at the same moment. Here two processes do each once, side by side:

* one compiles the cycle simulator, computes the traffic of the placements from the
  last, then evaluates the Huang & Li model under ``rule="segments"``;
* the other compiles the reference simulator, computes the traffic of the placements
  from the first (which compiles the trace analysis), then evaluates the model under the
  default readings.

The two traffic walks meet in the middle: a placement the other process has already
stored is read from the disk cache. numba's cache (``cache=True``) and the disk cache
keep the results for every later process. Nothing is measured or checked; a failure is
reported and the tests run anyway (they compute what they need). Where the disk cache
is off (``GPUMODELS_CACHE=off``, see ``gpumodels.ground.diskcache``) the traffic and the
evaluations are skipped.
"""

from __future__ import annotations

import subprocess
import sys


def _traffic_then_evaluate(reverse: bool, readings) -> None:
    """Every evaluated placement's traffic (from the last one if ``reverse``), then the
    Huang & Li evaluation under ``readings``; nothing where the disk cache is off."""
    from gpumodels.engines.refsim.placements import parse_moves
    from gpumodels.ground import diskcache
    from gpumodels.papers.huang_li import analysis, evaluation

    if diskcache.cache_dir() is None:
        return
    keys = list(
        dict.fromkeys((t["benchmark"], t["moves"]) for t in evaluation.placements())
    )
    for benchmark, moves in reversed(keys) if reverse else keys:
        analysis.placement_traffic(benchmark, parse_moves(moves))
    evaluation.run(readings=readings)


def _cycle_simulator_side() -> None:
    from gpumodels import sim, volkov

    sm = sim.volkov_sm(volkov.params("Maxwell"))
    sim.simulate(sm, sim.alpha_program(1), 2, 100, engine="compiled")
    _traffic_then_evaluate(True, {"rule": "segments"})


def _reference_simulator_side() -> None:
    from gpumodels.engines.refsim import simulator

    simulator.simulate("vecAdd")
    _traffic_then_evaluate(False, None)  # the traffic compiles the trace analysis


JOBS = {
    "cycle simulator, Huang & Li traffic from the last placement, rule=segments": (
        _cycle_simulator_side
    ),
    "Huang & Li simulator and analysis, traffic from the first, default readings": (
        _reference_simulator_side
    ),
}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--job"]:
        list(JOBS.values())[int(argv[1])]()
        return 0
    procs = {
        name: subprocess.Popen(
            [sys.executable, __file__, "--job", str(i)], stderr=subprocess.PIPE
        )
        for i, name in enumerate(JOBS)
    }
    for name, p in procs.items():
        _, err = p.communicate()
        if p.returncode:
            print(f"warm_up: {name} failed:\n{err.decode()[-2000:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
