"""Speed of gpumodels.engines.sim, both engines, in simulated instructions per second
(prints a table; not a test).

    .venv/bin/python tools/bench_sim.py [--engines compiled,python] [--repeats 3]

Each case prints its work (instructions issued), the best wall time of ``--repeats``
runs (after one untimed run on the compiled engine, which compiles or loads the numba
code; the Python engine has nothing to warm up) and the rate. The cases:

- issue 21's three: 4096 warps on a unit capped at 32 ops in flight (the
  first-come-first-served queue) and the same without the cap, for 300 cycles each,
  and one warp waiting on a 1,000,000-cycle latency for 5,000,000 cycles (idle cycles
  skipped) -- they issue 32, 150 and 9 instructions, so their rates say little;
- instruction-heavy ones: Maxwell (Table 4.1's SM) at α = 16 with 64 warps for
  200,000 cycles; the two 4096-warp machines for 100,000 cycles; Kepler with the
  contention-dependent memory latency (a LoadedLatency) at α = 0 with 48 warps for
  100,000 cycles; an H100-sized SM at α = 16 with 64 warps for 100,000 cycles.

:func:`cases` gives ``(name, callable returning the instructions issued)`` per case and
engine, :func:`show` measures and prints them (``tools/bench.py`` imports
:func:`cases`). The Python engine takes minutes on the heavy cases.
"""

from __future__ import annotations

import argparse
from collections import namedtuple

from _timing import best_of

from gpumodels import sim, volkov

Case = namedtuple("Case", "name sm programs n_warps cycles heavy")
"""One simulation: its SM, programs, warps and cycles; ``heavy``: instruction-heavy
(minutes on the Python engine)."""


def specs() -> list[Case]:
    """Every case (see the module docstring), the three of issue 21 first."""
    capped = sim.SM(
        units={"mem": sim.Unit(400, 0.5, max_in_flight=32), "alu": sim.Unit(6, 4)},
        schedulers=4,
    )
    free = sim.SM(
        units={"mem": sim.Unit(400, 0.5), "alu": sim.Unit(6, 4)}, schedulers=4
    )
    stall = sim.SM(units={"mem": sim.Unit(1_000_000), "alu": sim.Unit(6, 4)})
    a4, a16 = sim.alpha_program(4), sim.alpha_program(16)
    maxwell = sim.volkov_sm(volkov.params("Maxwell"))
    kepler = sim.volkov_sm(volkov.params("Kepler"), contention=True)
    h100 = sim.volkov_sm(volkov.params("H100"))
    return [
        Case("4096 warps, max_in_flight=32, 300 cycles", capped, a4, 4096, 300, False),
        Case("4096 warps, uncapped, 300 cycles", free, a4, 4096, 300, False),
        Case(
            "1 warp, 1e6-cycle latency, 5e6 cycles",
            stall,
            sim.alpha_program(1),
            1,
            5_000_000,
            False,
        ),
        Case(
            "Maxwell, alpha 16, 64 warps, 2e5 cycles", maxwell, a16, 64, 200_000, True
        ),
        Case(
            "4096 warps, max_in_flight=32, 1e5 cycles", capped, a4, 4096, 100_000, True
        ),
        Case("4096 warps, uncapped, 1e5 cycles", free, a4, 4096, 100_000, True),
        Case(
            "Kepler contention, alpha 0, 48 warps, 1e5 cycles",
            kepler,
            sim.alpha_program(0),
            48,
            100_000,
            True,
        ),
        Case("H100, alpha 16, 64 warps, 1e5 cycles", h100, a16, 64, 100_000, True),
    ]


def cases(engine: str = "compiled") -> list[tuple[str, object]]:
    """``(name, callable returning the instructions issued)`` for every case on
    ``engine`` (``"compiled"`` or ``"python"``); the name starts with the engine."""

    def run(c: Case):
        def fn() -> int:
            tr = sim.simulate(c.sm, c.programs, c.n_warps, c.cycles, engine=engine)
            return len(tr.warp)

        return fn

    return [(f"{engine}, {c.name}", run(c)) for c in specs()]


def show(engine: str = "compiled", repeats: int = 3) -> None:
    """Print ``name, work, seconds, rate`` for every case on ``engine``: the best of
    ``repeats`` runs, after one untimed run on the compiled engine."""
    for name, fn in cases(engine):
        if engine == "compiled":
            fn()  # numba compiles (or loads its cache)
        seconds, work = best_of(repeats, fn)
        print(
            f"{name:58s} {work:>11,} instructions {seconds:9.3f} s "
            f"{work / seconds:>12,.0f} instructions/s",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default="compiled,python")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    for engine in args.engines.split(","):
        show(engine, args.repeats)


if __name__ == "__main__":
    main()
