"""Speed of gpumodels.engines.sim on the cases issue 21 names (prints seconds; not a
test).

    .venv/bin/python tools/bench_sim.py

- 4096 warps on a unit capped at 32 ops in flight (the first-come-first-served queue);
- the same without the cap;
- one warp waiting on a 1,000,000-cycle latency for 5,000,000 cycles (idle cycles
  skipped).
"""

from __future__ import annotations

from _timing import best_of

from gpumodels import sim


def main() -> None:
    capped = sim.SM(
        units={"mem": sim.Unit(400, 0.5, max_in_flight=32), "alu": sim.Unit(6, 4)},
        schedulers=4,
    )
    free = sim.SM(
        units={"mem": sim.Unit(400, 0.5), "alu": sim.Unit(6, 4)}, schedulers=4
    )
    stall = sim.SM(units={"mem": sim.Unit(1_000_000), "alu": sim.Unit(6, 4)})
    cases = [
        (
            "4096 warps, max_in_flight=32, 300 cycles",
            lambda: sim.simulate(capped, sim.alpha_program(4), 4096, 300),
        ),
        (
            "4096 warps, uncapped, 300 cycles",
            lambda: sim.simulate(free, sim.alpha_program(4), 4096, 300),
        ),
        (
            "1 warp, 1e6-cycle latency, 5e6 cycles",
            lambda: sim.simulate(stall, sim.alpha_program(1), 1, 5_000_000),
        ),
    ]
    for label, fn in cases:
        seconds, _ = best_of(3, fn)
        print(f"{label}: {seconds:.3f} s (best of 3)")


if __name__ == "__main__":
    main()
